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
from harness.toolchain import GEMMINI_INCLUDE, build_elf, runtime
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
        .replace("loop_conv = true", "loop_conv = false")
    )
    path = tmp_path / "gemmini-dim4-big.toml"
    path.write_text(changed)
    d = _defines(render_gemmini_params_h(str(path)))
    assert int(d["BANK_ROWS"]) == 2 * int(_defines(render_gemmini_params_h("gemmini-dim4"))["BANK_ROWS"])
    assert "HAS_LOOP_CONV" not in d


def test_header_for_a_config_without_gemmini_is_an_error():
    with pytest.raises(ValueError, match="no Gemmini unit"):
        render_gemmini_params_h("rv64")


# ---------------------------------------------------------------- cosim cc layout


def test_generated_header_lives_in_the_runtime_cache_entry():
    rt = runtime("gemmini-dim4")
    assert (rt.generated_include / "gemmini_params.h").read_text() == render_gemmini_params_h("gemmini-dim4")
    assert not (runtime("rv64").generated_include / "gemmini_params.h").exists()


def test_cosim_cc_resolves_gemmini_layout_and_defines_baremetal(tmp_path, capsys):
    gemmini_h = (GEMMINI_INCLUDE / "gemmini.h").is_file()
    includes = ['"include/gemmini_params.h"', '"gemmini_params.h"', '"include/gemmini_testutils.h"']
    if gemmini_h:
        includes += ['"include/gemmini.h"', '"gemmini.h"', '"include/gemmini_counter.h"']
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
    if not gemmini_h:
        pytest.skip("baremetal/gemmini/include/gemmini.h does not exist yet (testutils includes it)")
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
