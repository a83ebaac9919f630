"""`cosim cc` on Gemmini configs: the generated gemmini_params.h, Gemmini's include
layout and BAREMETAL, and the libc pieces Gemmini's test programs use (rand,
assert, time, printf), run on Spike's scalar core."""

from __future__ import annotations

import re
import struct
import textwrap
import tomllib

import numpy as np
import pytest

from configs import load_soc
from harness.cli import main
from harness.gemmini_header import render_gemmini_params_h
from harness.toolchain import build_elf, runtime
from sim.gemmini.params import gemmini_params
from sim.spike.runner import run_spike

GEMMINI_SOCS = ["gemmini-dim4", "gemmini-dim16"]


def _defines(text: str) -> dict[str, str]:
    out = {m[1]: (m[2] or "").strip() for m in re.finditer(r"^#define (\w+)(?:[ \t]+(.*))?$", text, re.M)}
    for m in re.finditer(r"^static const \w+ (\w+) = (-?\d+);$", text, re.M):
        out[m[1]] = m[2]
    return out


def _build(tmp_path, code: str, soc: str = "gemmini-dim4", name: str = "prog", **kw):
    src = tmp_path / f"{name}.c"
    src.write_text(textwrap.dedent(code))
    return build_elf([src], soc, tmp_path / f"{name}.elf", **kw)


def _run(elf, **kw):
    # The scalar core only: these programs issue no Gemmini instruction.
    return run_spike(elf, "rv64", timeout_s=60, **kw)


# ---------------------------------------------------------------- generated header


@pytest.mark.parametrize("soc", GEMMINI_SOCS)
def test_header_numbers_are_the_configs(soc):
    text = render_gemmini_params_h(soc)
    d = _defines(text)
    p = gemmini_params(soc)
    # Against params.py ...
    assert int(d["DIM"]) == p.dim
    assert int(d["BANK_NUM"]) == p.sp_banks
    assert int(d["BANK_ROWS"]) == p.sp_bank_rows
    assert int(d["ACC_ROWS"]) == p.acc_rows
    assert int(d["MAX_BYTES"]) == p.dma_max_bytes
    assert int(d["MAX_BLOCK_LEN"]) == p.max_block_len
    assert int(d["MAX_BLOCK_LEN_ACC"]) == p.max_block_len_acc
    # ... and against the TOML itself, so a wrong derivation in params.py shows too.
    acc = tomllib.loads(load_soc(soc).path.read_text())["accelerator"]
    assert int(d["DIM"]) == acc["dim"]
    assert int(d["BANK_NUM"]) * int(d["BANK_ROWS"]) * acc["dim"] == acc["scratchpad_kib"] * 1024
    assert int(d["ACC_ROWS"]) * acc["dim"] * 4 == acc["accumulator_kib"] * 1024
    assert int(d["MAX_BLOCK_LEN"]) == acc["dma_max_bytes"] // acc["dim"]
    assert int(d["MAX_BLOCK_LEN_ACC"]) == max(1, acc["dma_max_bytes"] // (acc["dim"] * 4))
    assert int(d["ADDR_LEN"]) == 32 and int(d["XCUSTOM_ACC"]) == 3
    assert (int(d["elem_t_min"]), int(d["elem_t_max"])) == (-128, 127)
    assert (int(d["ACC_SCALE_EXP_BITS"]), int(d["ACC_SCALE_SIG_BITS"])) == (8, 24)
    assert float(d["MVIN_SCALE_IDENTITY"]) == float(d["ACC_SCALE_IDENTITY"]) == 1.0
    for flag in (
        "HAS_MVIN_SCALE",
        "ACC_SCALE_T_IS_FLOAT",
        "ACC_READ_SMALL_WIDTH",
        "ACC_READ_FULL_WIDTH",
        "HAS_FIRST_LAYER_OPTIMIZATIONS",
    ):
        assert flag in d, flag
    for absent in ("HAS_MVIN_ACC_SCALE", "HAS_NORMALIZATIONS", "ELEM_T_IS_FLOAT", "ELEM_T_IS_LOWPREC_FLOAT"):
        assert absent not in d, absent
    assert ("HAS_LOOP_CONV" in d) == acc["loop_conv"]
    assert soc in text.splitlines()[0]


def test_header_follows_a_changed_config(tmp_path):
    src = load_soc("gemmini-dim4").path.read_text()
    changed = (
        src.replace('name = "gemmini-dim4"', 'name = "gemmini-dim4-big"')
        .replace("scratchpad_kib = 16", "scratchpad_kib = 32")
        .replace("loop_conv = false", "loop_conv = true")
    )
    path = tmp_path / "gemmini-dim4-big.toml"
    path.write_text(changed)
    d = _defines(render_gemmini_params_h(str(path)))
    assert int(d["BANK_ROWS"]) == 2 * int(_defines(render_gemmini_params_h("gemmini-dim4"))["BANK_ROWS"])
    assert "HAS_LOOP_CONV" in d
    assert "HAS_LOOP_CONV" not in _defines(render_gemmini_params_h("gemmini-dim4"))


def test_header_for_a_config_without_gemmini_is_an_error():
    with pytest.raises(ValueError, match="no Gemmini unit"):
        render_gemmini_params_h("rv64")


# ---------------------------------------------------------------- cosim cc layout


def test_generated_header_lives_in_the_runtime_cache_entry():
    rt = runtime("gemmini-dim4")
    assert (rt.generated_include / "gemmini_params.h").read_text() == render_gemmini_params_h("gemmini-dim4")
    assert not (runtime("rv64").generated_include / "gemmini_params.h").exists()


def test_cosim_cc_resolves_gemmini_layout_and_defines_baremetal(tmp_path):
    # Gemmini's tests include these as "include/x.h"; our own code may use the bare names.
    names = ["gemmini_params.h", "gemmini.h", "gemmini_counter.h", "gemmini_testutils.h"]
    includes = [f'"include/{n}"' for n in names] + ['"gemmini.h"', '"gemmini_params.h"']
    src = tmp_path / "layout.c"
    src.write_text(
        "".join(f"#include {i}\n" for i in includes)
        + textwrap.dedent("""\
        #include <stdio.h>
        #ifndef BAREMETAL
        #error BAREMETAL is not defined
        #endif
        int main(void) {
          printf("DIM=%d BANK_ROWS=%d ACC_ROWS=%d\\n", DIM, BANK_ROWS, ACC_ROWS);
          return 0;
        }
        """)
    )
    out = tmp_path / "layout.elf"
    assert main(["cc", "--soc", "gemmini-dim4", "-o", str(out), str(src)]) == 0
    r = _run(out)
    assert r.ending == "exit" and r.exit_code == 0, r.message
    p = gemmini_params("gemmini-dim4")
    assert f"DIM={p.dim} BANK_ROWS={p.sp_bank_rows} ACC_ROWS={p.acc_rows}" in r.uart


def test_non_gemmini_configs_see_no_gemmini_headers(tmp_path):
    from harness.toolchain import ToolchainError

    with pytest.raises(ToolchainError, match="gemmini_params.h"):
        _build(tmp_path, '#include "include/gemmini_params.h"\nint main(void) { return 0; }\n', soc="rv64")
    with pytest.raises(ToolchainError, match="BAREMETAL"):
        _build(tmp_path, "#ifndef BAREMETAL\n#error BAREMETAL\n#endif\nint main(void) { return 0; }\n", soc="rv64")


# ---------------------------------------------------------------- rounding macros


def _rrs_reference(x: int, s: int) -> int:
    """Round-to-nearest-even right shift, from the definition (exact rationals)."""
    if s <= 0:
        return x << -s
    q, r = divmod(x, 1 << s)  # floor division: q = floor(x / 2^s)
    half = 1 << (s - 1)
    return q + (1 if r > half or (r == half and q & 1) else 0)


def _scale_reference(x: int, scale: np.float32) -> int:
    y = np.float32(np.float32(x) * scale)  # int32 -> fp32 RNE, product RNE
    if np.isnan(y):
        return 0
    return int(np.clip(np.rint(y), -128, 127))  # np.rint: ties to even


def test_rounding_shift_and_scale_macros_match_the_definition(tmp_path):
    rng = np.random.default_rng(17)
    xs = [int(v) for v in rng.integers(-(1 << 31), 1 << 31, 60)] + [0, 1, -1, 2, -2, 3, -3, 6, -6, 10, -10]
    xs += [(1 << 31) - 1, -(1 << 31), 0x180, -0x180, 0x280, -0x280]
    shifts = [0, 1, 2, 3, 4, 7, 8, 12, 31]
    scales = [np.float32(v) for v in (1.0, 0.5, 0.25, 1 / 3, 2.0, 1e-6, 37.5, -0.5, 0.0078125)]
    small = [int(v) for v in rng.integers(-400, 400, 40)] + [1, -1, 3, -3, 5, -5, 255, -255, 256, -256]
    arr = lambda name, ty, vals: f"static const {ty} {name}[] = {{{', '.join(vals)}}};\n"  # noqa: E731
    code = (
        '#include <stdio.h>\n#include "gemmini_params.h"\n'
        + arr("xs", "int32_t", [f"(int32_t){v}" for v in xs])
        + arr("sh", "int", [str(s) for s in shifts])
        + arr("sc", "uint32_t", [hex(struct.unpack("<I", struct.pack("<f", s))[0]) for s in scales])
        + arr("sm", "int32_t", [str(v) for v in small])
        + textwrap.dedent("""\
        #define N(a) (int)(sizeof(a) / sizeof((a)[0]))
        int main(void) {
          for (int i = 0; i < N(xs); i++)
            for (int j = 0; j < N(sh); j++) {
              int32_t x = xs[i];
              int64_t wide = (int64_t)x * 3;
              printf("R %d %d %d %lld\\n", i, j, ROUNDING_RIGHT_SHIFT(x, sh[j]),
                     (long long)ROUNDING_RIGHT_SHIFT(wide, sh[j]));
            }
          for (int i = 0; i < N(sm); i++)
            for (int j = 0; j < N(sc); j++) {
              acc_scale_t s = acc_scale_t_bits_to_acc_scale_t(sc[j]);
              printf("S %d %d %d %d %u\\n", i, j, ACC_SCALE(sm[i], s), MVIN_SCALE(sm[i], s),
                     (unsigned)scale_t_to_scale_t_bits(s));
            }
          return 0;
        }
        """)
    )
    elf = _build(tmp_path, code)
    r = _run(elf)
    assert r.ending == "exit" and r.exit_code == 0, r.message
    seen = 0
    for line in r.uart.splitlines():
        f = line.split()
        if f[0] == "R":
            i, j, got32, got64 = map(int, f[1:])
            assert got32 == _rrs_reference(xs[i], shifts[j]), line
            assert got64 == _rrs_reference(xs[i] * 3, shifts[j]), line
            seen += 1
        elif f[0] == "S":
            i, j, acc, mvin, bits = map(int, f[1:])
            want = _scale_reference(small[i], scales[j])
            assert acc == want and mvin == want, (line, want)
            assert bits == struct.unpack("<I", struct.pack("<f", scales[j]))[0]
            seen += 1
    assert seen == len(xs) * len(shifts) + len(small) * len(scales)


# ---------------------------------------------------------------- libc additions


def _lcg(seed: int, mul: int, inc: int, n: int, out):
    x, vals = seed, []
    for _ in range(n):
        x = (x * mul + inc) & 0xFFFF_FFFF
        vals.append(out(x))
    return vals


def test_rand_srand_follow_the_documented_formula(tmp_path):
    elf = _build(
        tmp_path,
        """\
        #include <stdio.h>
        #include <stdlib.h>
        int main(void) {
          printf("max=%d\\n", RAND_MAX);
          for (int i = 0; i < 40; i++) printf("%d ", rand());
          printf("\\n");
          srand(12345u);
          for (int i = 0; i < 40; i++) printf("%d ", rand());
          printf("\\n");
          srand(1);
          printf("%d\\n", rand());
          return 0;
        }
        """,
        soc="rv64",
    )
    r = _run(elf)
    assert r.ending == "exit" and r.exit_code == 0, r.message
    lines = r.uart.splitlines()
    assert lines[0] == "max=32767"
    std = lambda seed, n: _lcg(seed, 1103515245, 12345, n, lambda x: (x >> 16) & 0x7FFF)  # noqa: E731
    assert [int(v) for v in lines[1].split()] == std(1, 40)
    assert [int(v) for v in lines[2].split()] == std(12345, 40)
    assert int(lines[3]) == std(1, 1)[0]  # srand(1) restarts the default sequence


@pytest.mark.parametrize("ndebug", [False, True])
def test_assert_failure_names_file_line_and_exits_nonzero(tmp_path, ndebug):
    code = """\
        #include <assert.h>
        #include <stdio.h>
        int main(void) {
          int x = 3;
          assert(x == 3);
          printf("before\\n");
          assert(x * 2 == 7);
          printf("after\\n");
          return 0;
        }
        """
    elf = _build(tmp_path, code, soc="rv64", defines=["NDEBUG"] if ndebug else [])
    r = _run(elf)
    if ndebug:  # the user's NDEBUG still turns assert off
        assert r.ending == "exit" and r.exit_code == 0 and "after" in r.uart
        return
    assert r.ending == "exit" and r.exit_code == 1, (r.ending, r.exit_code, r.message)
    assert "before" in r.uart and "after" not in r.uart
    line = next(n for n, text in enumerate(code.splitlines(), 1) if "x * 2 == 7" in text)
    assert f"Assertion failed: x * 2 == 7, file {tmp_path / 'prog.c'}:{line}, function main" in r.uart


def test_printf_long_long_pointer_percent_match_python(tmp_path):
    rng = np.random.default_rng(5)
    signed = [0, 1, -1, (1 << 63) - 1, -(1 << 63), 1 << 40, -(1 << 33)] + [
        int(v) for v in rng.integers(-(2**62), 2**62, 8)
    ]
    unsigned = [0, 1, (1 << 64) - 1, 1 << 63, 0xDEADBEEFCAFEF00D] + [int(v) for v in rng.integers(0, 2**63, 8)]
    ptrs = [0x40000000, 0x2000_1234, 0xFFFF_FFFF_FFFF_FFF0]
    body = "".join(f'  printf("%lld|%20lld|%-5lld|\\n", {v}LL, {v}LL, {v}LL);\n' for v in signed if v != -(1 << 63))
    body += '  printf("%lld|\\n", (long long)(-9223372036854775807LL - 1));\n'
    body += "".join(
        f'  printf("%llu|%llx|%llX|%#llx|%016llx|\\n", {v}ULL, {v}ULL, {v}ULL, {v}ULL, {v}ULL);\n' for v in unsigned
    )
    body += "".join(f'  printf("%p|100%%|\\n", (void *)0x{v:x}ULL);\n' for v in ptrs)
    elf = _build(tmp_path, "#include <stdio.h>\nint main(void) {\n" + body + "  return 0;\n}\n", soc="rv64")
    r = _run(elf)
    assert r.ending == "exit" and r.exit_code == 0, r.message
    want = [f"{v}|{v:20d}|{v:<5d}|" for v in signed if v != -(1 << 63)] + [f"{-(1 << 63)}|"]
    # C prints %#x of 0 as "0" (no prefix), Python as "0x0".
    want += [f"{v}|{v:x}|{v:X}|{format(v, '#x') if v else '0'}|{v:016x}|" for v in unsigned]
    want += [f"0x{v:x}|100%|" for v in ptrs]
    assert r.uart.splitlines() == want


def test_time_clock_atoi_and_float_math(tmp_path):
    vals = [-2.5, -1.5, -0.5, -0.49999997, 0.5, 1.5, 2.5, 3.7, -3.7, 1e9, -8388609.0, 0.0]
    lits = ", ".join(f"{v!r}f" if "e" in repr(v) else f"{v}f" for v in vals)
    elf = _build(
        tmp_path,
        f"""\
        #include <math.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <time.h>
        static const float v[] = {{{lits}}};
        static unsigned bits(float f) {{ unsigned b; memcpy(&b, &f, 4); return b; }}
        int main(void) {{
          time_t t = 7;
          printf("time=%lld %lld\\n", (long long)time(&t), (long long)t);
          clock_t c0 = clock();
          for (volatile int i = 0; i < 1000; i++) {{}}
          printf("clock_grew=%d cps=%ld\\n", clock() > c0, (long)CLOCKS_PER_SEC);
          printf("atoi=%d %d %ld %lld\\n", atoi("  -42x"), atoi("+17"), atol("123456789"), atoll("-9000000000"));
          for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++)
            printf("%08x %08x %08x %08x %08x\\n", bits(floorf(v[i])), bits(ceilf(v[i])), bits(roundf(v[i])),
                   bits(truncf(v[i])), bits(sqrtf(fabsf(v[i]))));
          printf("nan=%d inf=%d\\n", isnan(NAN) != 0, isinf(INFINITY) != 0);
          return 0;
        }}
        """,
        soc="rv64",
    )
    r = _run(elf)
    assert r.ending == "exit" and r.exit_code == 0, r.message
    lines = r.uart.splitlines()
    assert lines[0] == "time=0 0"
    assert lines[1] == "clock_grew=1 cps=1000000"
    assert lines[2] == "atoi=-42 17 123456789 -9000000000"
    f32 = np.float32
    hexf = lambda x: f"{struct.unpack('<I', struct.pack('<f', f32(x)))[0]:08x}"  # noqa: E731
    import math

    for line, v in zip(lines[3:], vals, strict=False):
        x = f32(v)
        rnd = math.copysign(math.floor(abs(float(x)) + 0.5), float(x))  # halves away from zero
        want = [np.floor(x), np.ceil(x), rnd, np.trunc(x), np.sqrt(np.abs(x))]
        assert line.split() == [hexf(w) for w in want], (v, line)
    assert lines[3 + len(vals)] == "nan=1 inf=1"


# ---------------------------------------------------------------- gemmini_testutils.h


def _matrices(text: str, tag: str, dim: int) -> list[np.ndarray]:
    out = []
    for m in re.finditer(rf"^{tag}\n((?:.*\n){{{dim}}})", text, re.M):
        out.append(np.array([[int(v) for v in row.split()] for row in m[1].splitlines()], dtype=np.int64))
    return out


@pytest.mark.parametrize("soc", GEMMINI_SOCS)
def test_testutils_reference_helpers(tmp_path, soc):
    dim = gemmini_params(soc).dim
    code = """\
        #define GEMMINI_FULL_HELPERS
        #define MAT_DIM_I 3
        #define MAT_DIM_K 5
        #define MAT_DIM_J 2
        #include "include/gemmini_testutils.h"
        #define PRINT_FULL(tag, m) do { printf(tag "\\n"); \\
          for (int i = 0; i < DIM; i++) { for (int j = 0; j < DIM; j++) printf("%lld ", (long long)(m)[i][j]); \\
          printf("\\n"); } } while (0)
        static elem_t A[DIM][DIM], B[DIM][DIM], D[DIM][DIM], S[DIM][DIM], T[DIM][DIM];
        static full_t F[DIM][DIM], G[DIM][DIM], H[DIM][DIM];
        static acc_t Acc[DIM][DIM];
        int main(void) {
          printf("rand");
          for (int i = 0; i < 8; i++) printf(" %d", rand());
          printf("\\n");
          for (int i = 0; i < DIM; i++)
            for (int j = 0; j < DIM; j++) {
              A[i][j] = rand() % 256 - 128; B[i][j] = rand() % 256 - 128; D[i][j] = rand() % 64 - 32;
              Acc[i][j] = (acc_t)(rand() * 1000003) - 100000000;
            }
          printf("A\\n"); printMatrix(A);
          printf("B\\n"); printMatrix(B);
          printf("D\\n"); printMatrix(D);
          printf("Acc\\n"); printMatrixAcc(Acc);
          matmul(A, B, D, F); PRINT_FULL("AB", F);
          matmul_A_transposed(A, B, D, F); PRINT_FULL("AtB", F);
          matmul_B_transposed(A, B, D, F); PRINT_FULL("ABt", F);
          matmul_AB_transposed(A, B, D, F); PRINT_FULL("AtBt", F);
          matmul(A, B, D, G);
          matmul_full(A, B, G, H); PRINT_FULL("ABG", H);
          matmul_short(A, B, D, S); PRINT_FULL("short", S);
          matadd(H, G, G); PRINT_FULL("GG", H);
          matshift(G, S, 5); PRINT_FULL("shift5", S);
          matscale(G, S, 0.0078125f); PRINT_FULL("scale", S);
          matrelu(A, S); PRINT_FULL("relu", S);
          transpose(A, T);
          printf("eq %d %d %d %d %d\\n", is_equal(A, A), is_equal(A, B), is_equal_transposed(A, T),
                 is_equal_transposed(A, A) == (MAT_IS_EQUAL(DIM, DIM, A, T)), MAT_IS_EQUAL(DIM, DIM, T, T));
          static elem_t fa[3][5] = {{1, 2, 3, 4, 5}, {-1, -2, -3, -4, -5}, {7, 0, 7, 0, 7}};
          static elem_t fb[5][2] = {{1, -1}, {2, -2}, {3, -3}, {4, -4}, {5, -5}};
          static acc_t fd[3][2] = {{100, 0}, {0, 100}, {-1, 1}};
          static full_t fc[3][2];
          static elem_t fo[3][2];
          full_matmul(fa, fb, fd, fc);
          full_matshift(fc, fo, 1);
          printf("full %lld %lld %lld %d %d %d\\n", (long long)fc[0][0], (long long)fc[1][1], (long long)fc[2][0],
                 fo[0][0], fo[2][1], full_is_equal(fo, fo));
          uint64_t c0 = read_cycles();
          printf("cycles %d\\n", read_cycles() > c0);
          return 0;
        }
        """
    elf = _build(tmp_path, code, soc=soc)
    r = _run(elf)
    assert r.ending == "exit" and r.exit_code == 0, r.message
    u = r.uart
    gemmini_rand = _lcg(777, 1664525, 1013904223, 8, lambda x: x >> 24)
    assert u.splitlines()[0] == "rand " + " ".join(map(str, gemmini_rand))
    (a,), (b,), (d,), (acc,) = (_matrices(u, t, dim) for t in ("A", "B", "D", "Acc"))
    assert a.min() < 0 < a.max() and np.abs(acc).max() > 1 << 20  # the inputs exercise signs and width
    (ab,), (atb,), (abt,), (atbt,) = (_matrices(u, t, dim) for t in ("AB", "AtB", "ABt", "AtBt"))
    np.testing.assert_array_equal(ab, a @ b + d)
    np.testing.assert_array_equal(atb, a.T @ b + d)
    np.testing.assert_array_equal(abt, a @ b.T + d)
    np.testing.assert_array_equal(atbt, a.T @ b.T + d)
    g = a @ b + d
    np.testing.assert_array_equal(_matrices(u, "ABG", dim)[0], a @ b + g)
    np.testing.assert_array_equal(_matrices(u, "short", dim)[0], ((g + 128) % 256) - 128)  # wraps to int8
    np.testing.assert_array_equal(_matrices(u, "GG", dim)[0], 2 * g)
    shift = np.vectorize(lambda v: max(-128, min(127, _rrs_reference(int(v), 5))))(g)
    np.testing.assert_array_equal(_matrices(u, "shift5", dim)[0], shift)
    scale = np.vectorize(lambda v: _scale_reference(int(v), np.float32(0.0078125)))(g)
    np.testing.assert_array_equal(_matrices(u, "scale", dim)[0], scale)
    np.testing.assert_array_equal(_matrices(u, "relu", dim)[0], np.maximum(a, 0))
    assert "eq 1 0 1 1 1" in u
    fa = np.array([[1, 2, 3, 4, 5], [-1, -2, -3, -4, -5], [7, 0, 7, 0, 7]])
    fb = np.array([[1, -1], [2, -2], [3, -3], [4, -4], [5, -5]])
    fc = fa @ fb + np.array([[100, 0], [0, 100], [-1, 1]])
    fo = np.vectorize(lambda v: max(-128, min(127, _rrs_reference(int(v), 1))))(fc)
    assert f"full {fc[0, 0]} {fc[1, 1]} {fc[2, 0]} {fo[0, 0]} {fo[2, 1]} 1" in u
    assert "cycles 1" in u


# ---------------------------------------------------------------- the macros agree with the model


@pytest.mark.iss
def test_acc_scale_macro_agrees_with_mvout_on_the_model(tmp_path):
    """ACC_SCALE (C reference) and a scaled mvout from the accumulator (the model
    inside Spike) give the same int8 for random int32 values and scales."""
    from harness.iss import run_iss

    scales = [0.5, 0.25, 1 / 3, 0.0078125, 1e-3, 2.0, 0.3333333432674408, 37.5]
    code = f"""\
        #include "include/gemmini_testutils.h"
        static const float scales[] = {{{", ".join(f"{s!r}f" for s in scales)}}};
        #define NS (int)(sizeof scales / sizeof scales[0])
        static acc_t In[DIM][DIM] row_align_acc(1);
        static elem_t Out[DIM][DIM] row_align(1);
        int main(void) {{
          int bad = 0;
          gemmini_flush(0);
          for (int s = 0; s < NS; s++) {{
            for (int i = 0; i < DIM; i++)
              for (int j = 0; j < DIM; j++) {{
                int r = (rand() << 8 | rand()) - 32768;  /* ties and saturation both occur */
                In[i][j] = (i + j) % 3 == 0 ? r : (i + j) % 3 == 1 ? r / 64 : r * 4096;
              }}
            gemmini_config_ld(DIM * sizeof(acc_t));
            gemmini_extended_config_st(DIM * sizeof(elem_t), NO_ACTIVATION, scales[s]);
            gemmini_mvin(In, (uint32_t)1 << 31);
            gemmini_mvout(Out, (uint32_t)1 << 31);
            gemmini_fence();
            for (int i = 0; i < DIM; i++)
              for (int j = 0; j < DIM; j++)
                if (Out[i][j] != ACC_SCALE(In[i][j], scales[s])) {{
                  printf("mismatch s=%d x=%d model=%d macro=%d\\n", s, (int)In[i][j], Out[i][j],
                         (int)ACC_SCALE(In[i][j], scales[s]));
                  bad++;
                }}
          }}
          printf("checked=%d bad=%d\\n", NS * DIM * DIM, bad);
          return bad != 0;
        }}
        """
    elf = _build(tmp_path, code)
    outcome, _result = run_iss(elf, "gemmini-dim4", timeout_s=60)
    assert f"checked={len(scales) * 16} bad=0" in outcome.uart, outcome.uart[-2000:]
    assert outcome.ending == "exit" and outcome.exit_code == 0
