"""Random RVV programs (sim/randgen/vector.py) through `cosim difftest` against Spike.

Generator (no simulator): reproducible, every zve32f instruction reachable, every
policy (SEW, LMUL, tail/mask agnostic bits, masks, vl 0, vstart, vill) used, memory
operands inside the data buffer, every family assembles for both VLENs.
RTL vs Spike (default tier): one program per family on t1-small, scalar and whole
vector register writes and vector store bytes compared; the minimized programs of
divergences the random programs found. Slow tier: more seeds, longer programs, both
vector configs.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness.commands.difftest import run_difftest
from harness.toolchain import build_elf
from sim.randgen.frame import Frame, trap_handler
from sim.randgen.vector import generate_vector, main
from sim.randgen.vector_ops import FAMILIES, all_mnemonics, mem_mnemonics

ROOT = Path(__file__).resolve().parents[1]
COVERAGE = ROOT / "sim" / "rtl" / "vector" / "COVERAGE.md"
VLEN = {"t1-small": 256, "t1-blastoise": 2048}


def _coverage_mnemonics() -> set[str]:
    rows = re.findall(r"^\| [^|]+ \| `(v[\w.]+)` \|", COVERAGE.read_text(), re.M)
    assert len(rows) == 517, "COVERAGE.md lists every zve32f instruction"
    return set(rows)


# ---- the generator ------------------------------------------------------------------


def test_same_seed_same_program_other_seed_other_program():
    a = generate_vector(3, 256, "mem", 80).text
    assert a == generate_vector(3, 256, "mem", 80).text
    assert a != generate_vector(4, 256, "mem", 80).text
    assert a != generate_vector(3, 2048, "mem", 80).text


def test_every_zve32f_instruction_can_be_generated():
    assert all_mnemonics() == _coverage_mnemonics()


def test_random_programs_reach_nearly_every_instruction():
    seen: set[str] = set()
    for family in FAMILIES:
        for seed in range(4 if family != "mem" else 16):
            seen |= set(generate_vector(seed, 256, family, 150).mnemonics)
    missing = _coverage_mnemonics() - seen
    assert len(missing) <= 25, sorted(missing)  # the rest are rare segment forms
    assert not {m for m in missing if "seg" not in m}, sorted(missing)


def test_every_policy_is_used():
    policies = sum(
        (generate_vector(s, 256, f, 150).policies for f in FAMILIES for s in range(2)),
        start=type(generate_vector(0, 256, "int", 1).policies)(),
    )
    want = {"sew=8", "sew=16", "sew=32", "ta", "tu", "ma", "mu", "masked", "unmasked", "vl=0", "vstart", "vill"}
    want |= {f"lmul={m}" for m in ("mf4", "mf2", "m1", "m2", "m4", "m8")}
    assert want <= set(policies), sorted(want - set(policies))


def test_nonzero_vstart_arithmetic_items_are_expected_traps_in_every_family():
    """Arithmetic at vstart != 0 traps on both sides (tests/test_vector_vstart.py): every
    family has such items, each followed by a read of vstart and its reset; loads and
    stores still run from a nonzero vstart (no reset needed: they clear it)."""
    for family in FAMILIES:
        arith = mem = 0
        for seed in range(3):
            prog = generate_vector(seed, 256, family, 150)
            lines = [ln.strip() for ln in prog.text.splitlines()]
            for i, ln in enumerate(lines):
                if not (m := re.match(r"csrwi vstart, (\d+)$|csrw vstart, x5$", ln)):
                    continue
                if m.group(1) == "0" or (m.group(1) is None and lines[i - 1] == "li x5, 0"):
                    continue
                op = lines[i + 1].split()[0]
                assert op in all_mnemonics(), lines[i : i + 2]  # the instruction right after
                if op in mem_mnemonics():
                    mem += 1
                else:
                    arith += 1
                    after = lines[i + 2 : i + 4]
                    assert re.match(r"csrr x\d+, vstart$", after[0]) and after[1] == "csrwi vstart, 0", lines[i : i + 4]
        assert arith >= 3, (family, arith)
        if family in ("mem", "mix"):
            assert mem >= 3, (family, mem)


def test_memory_operands_stay_inside_the_data_buffer():
    for vlen in (256, 2048):
        for seed in range(4):
            prog = generate_vector(seed, vlen, "mem", 150)
            buf = max(4096, 32 * vlen // 8)
            offsets = [int(v) for v in re.findall(r"li x26, (-?\d+)", prog.text)]
            assert offsets and all(0 <= o < buf for o in offsets)


def test_unknown_family_is_named():
    with pytest.raises(ValueError, match="unknown vector family 'fft'"):
        generate_vector(1, 256, "fft")


def test_cli_writes_the_program_and_says_how_to_run_it(tmp_path, capsys):
    out = tmp_path / "p.S"
    assert main(["--soc", "t1-small", "--seed", "5", "--family", "perm", "-o", str(out)]) == 0
    assert out.read_text() == generate_vector(5, 256, "perm").text
    err = capsys.readouterr().err
    assert "cosim difftest" in err and "t1-small" in err


@pytest.mark.parametrize(
    "soc,seeds",
    [
        ("t1-small", (1, 2)),
        pytest.param("t1-small", (3, 4, 5, 6), marks=pytest.mark.slow),
        pytest.param("t1-blastoise", (1, 4), marks=pytest.mark.slow),
    ],
)
def test_every_family_assembles(soc, seeds, tmp_path):
    """The assembler checks some operand rules (v0 under a mask, same-register overlaps)."""
    for family in FAMILIES:
        for seed in seeds:
            src = tmp_path / f"{family}-{seed}.S"
            src.write_text(generate_vector(seed, VLEN[soc], family, 150).text)
            build_elf([src], soc, tmp_path / f"{family}-{seed}.elf")


# ---- on the RTL and Spike -------------------------------------------------------------


def _difftest(soc: str, family: str, seed: int, length: int, tmp: Path):
    prog = generate_vector(seed, VLEN[soc], family, length)
    src = tmp / f"{family}-{seed}.S"
    src.write_text(prog.text)
    elf = build_elf([src], soc, tmp / f"{family}-{seed}.elf")
    report = run_difftest(elf, soc, keep_trace=tmp / f"{family}-{seed}.trace")
    repro = (
        f"reproduce: python -m sim.randgen.vector --soc {soc} --seed {seed} --family {family} "
        f"--length {length} -o p.S && cosim cc --soc {soc} -o p.elf p.S && cosim difftest p.elf --soc {soc}"
    )
    assert report.ok, report.result.summary() + "\n" + repro
    assert report.rtl is not None and report.rtl.exited_ok, repro
    return prog, report


@pytest.mark.rtl
@pytest.mark.iss
@pytest.mark.parametrize("family", FAMILIES)
def test_random_vector_program_has_no_divergence(family, tmp_path):
    prog, report = _difftest("t1-small", family, 1, 60, tmp_path)
    assert report.result.compared > 300
    if family == "mem":
        assert report.result.vector_stores > 5  # store bytes compared, not only registers
        _corrupted_store_is_named(tmp_path / "mem-1.elf", tmp_path / "mem-1.trace", tmp_path)


def _corrupted_store_is_named(elf: Path, trace: Path, tmp: Path) -> None:
    """One byte of one vector store flipped in a copy of the RTL trace: named by PC and address."""
    lines = trace.read_text().splitlines()
    seq_pc = {}
    for i, line in enumerate(lines):
        if m := re.match(r"^0x([0-9a-f]+) \(0x[0-9a-f]+\).* #(\d+)$", line):
            seq_pc[m.group(2)] = int(m.group(1), 16)
        elif (m := re.match(r"^@(\d+) mem 0x([0-9a-f]+) 0x([0-9a-f]+)", line)) and i > len(lines) // 2:
            seq, addr, data = m.group(1), int(m.group(2), 16), m.group(3)
            flipped = data[:-2] + f"{int(data[-2:], 16) ^ 0x10:02x}"  # the run's first byte
            lines[i] = line.replace(f"0x{data}", f"0x{flipped}", 1)
            break
    else:
        raise AssertionError("no vector store line in the second half of the trace")
    bad = tmp / "bad.trace"
    bad.write_text("\n".join(lines) + "\n")
    report = run_difftest(elf, "t1-small", rtl_trace=bad)
    d = report.result.divergence
    assert d is not None and d.what == "memory" and d.pc == seq_pc[seq], report.result.summary()
    assert f"store data at 0x{addr:08x}" in report.result.summary()


@pytest.mark.rtl
@pytest.mark.iss
@pytest.mark.slow
@pytest.mark.parametrize("soc", ["t1-small", "t1-blastoise"])
@pytest.mark.parametrize("seed", [2, 3, 4])
@pytest.mark.parametrize("family", FAMILIES)
def test_long_random_vector_program_has_no_divergence(soc, seed, family, tmp_path):
    _difftest(soc, family, seed, 150, tmp_path)


# ---- minimized divergences the random programs found (regressions) --------------------

# Each is the body of a main() (a0 = a 4 KiB data buffer); found by the seed named.
REGRESSIONS = {
    # mem seed 1: the core cleared vstart only on vset*, so after `csrwi vstart, 6` the
    # vlm.v (vstart >= evl: no-op) and the next vle32.v still saw vstart = 6 (RTL read
    # back 6, Spike 0; vle32 kept elements 0..5). RVV 1.0 3.7: every vector instruction
    # resets vstart. Fixed in sim/rtl/core (998fcfe).
    "vstart_reset": """
  li t0, 14
  vsetvli t1, t0, e16, m4, tu, mu
  csrwi vstart, 6
  vlm.v v12, (a0)
  csrr a1, vstart
  vle32.v v0, (a0)
  csrr a2, vstart
  csrwi vstart, 3
  vse16.v v4, (a0)
  csrr a3, vstart
""",
    # perm seed 4 (t1-small): vmv2r.v under vill executed on the RTL, trapped on Spike.
    # RVV 1.0 16.6: whole-register moves operate as if EEW = SEW, so they depend on
    # vtype, and 3.4.4 exempts only vset* and whole-register loads/stores from vill.
    # Fixed in vec_decoder.sv.
    "vmvnr_under_vill": """
  li t2, 0x17
  li t0, 8
  vsetvl t1, t0, t2
  csrr a1, vtype
  vmv2r.v v4, v26
  vl2re32.v v6, (a0)
  vs1r.v v6, (a0)
  addi a2, a0, 64
  vs2r.v v4, (a2)
""",
    # Not found by a seed: the random programs avoided arithmetic at vstart != 0, which the
    # RTL executed from vstart and Spike traps (every OP-V instruction: require_vector(true);
    # RVV 1.0 3.7 permits it). Fixed in vec_decoder.sv; the generator now makes such items
    # expected traps. The trap leaves vstart unchanged; a load then resumes from it.
    "arith_at_vstart": """
  li t0, 8
  vsetvli t1, t0, e32, m1, ta, mu
  vle32.v v4, (a0)
  csrwi vstart, 1
  vadd.vv v8, v4, v4
  csrr a1, vstart
  vmv.x.s a2, v4
  vfmv.s.f v8, fa0
  vmv1r.v v9, v4
  vle32.v v12, (a0)
  csrr a3, vstart
  vadd.vv v8, v4, v12
  csrwi vstart, 8
  vredsum.vs v10, v4, v4
  csrwi vstart, 0
  vse32.v v8, (a0)
""",
    # mix seed 14 (t1-small): vfredusum.vs with every element masked off and a signaling
    # NaN in vs1[0]: Spike returns the canonical NaN and raises NV (the scalar still goes
    # through one addition); the RTL returned the canonical NaN with no flag. Fixed in vec_seq.sv.
    "usum_snan_no_active": """
  li t0, 0x7f800001
  vsetivli t1, 4, e32, m1, ta, mu
  vmv.v.x v20, t0
  vmv.v.i v0, 0
  csrwi fflags, 0
  vfredusum.vs v8, v4, v20, v0.t
  frflags a1
  vfredosum.vs v9, v4, v20, v0.t
  frflags a2
  vfredmax.vs v10, v4, v20, v0.t
  frflags a3
  vse32.v v8, (a0)
""",
    # Not a divergence: splats (vrgather.vx/.vi) on both engines. With the sequencer busy
    # (vfdiv) a splat goes to the LSU, waits for a draining strided load's rows, shares
    # the write port with its responses and chains into a vfadd; masked, past-VLMAX
    # and SEW-8 splats too; with the sequencer idle it takes them.
    "splat_engines": """
  li t0, 16
  vsetvli t1, t0, e32, m2, ta, mu
  vle32.v v4, (a0)
  li t4, 0x5a5a
  vmv.s.x v0, t4
  li t2, 12
  vlse32.v v6, (a0), t2
  vfdiv.vv v20, v4, v4
  vrgather.vi v8, v6, 3
  li t3, 5
  vrgather.vx v10, v6, t3, v0.t
  vle32.v v24, (a0)
  li t3, 100
  vrgather.vx v12, v4, t3
  vfadd.vv v14, v8, v10
  vse32.v v14, (a0)
  addi a1, a0, 64
  vse32.v v12, (a1)
  vsetvli t1, t0, e8, m1, ta, mu
  vrgather.vi v16, v24, 7
  vrgather.vi v17, v16, 31
  addi a1, a0, 128
  vse8.v v17, (a1)
""",
}


REGRESSION_TRAPS = {"vmvnr_under_vill": 1, "arith_at_vstart": 5}


def _program(body: str) -> str:
    """``body`` inside a main with the random programs' frame and trap handler (resume after a trap)."""
    frame = Frame(32)
    words = [f"  .word 0x{(i * 0x9E3779B9) & 0xFFFFFFFF:08x}" for i in range(1024)]
    lines = ["  .text", "  .globl main", "main:", *frame.enter(".Ltrap"), "  la a0, buf", body, "  csrwi vstart, 0"]
    lines += [*frame.leave(), *trap_handler(".Ltrap", reads=("mcause", "mtval")), "  .data", "  .balign 64", "buf:"]
    return "\n".join(lines + words) + "\n"


@pytest.mark.rtl
@pytest.mark.iss
@pytest.mark.parametrize("name", sorted(REGRESSIONS))
def test_minimized_divergence_stays_fixed(name, tmp_path):
    src = tmp_path / f"{name}.S"
    src.write_text(_program(REGRESSIONS[name]))
    elf = build_elf([src], "t1-small", tmp_path / f"{name}.elf")
    report = run_difftest(elf, "t1-small")
    assert report.ok, report.result.summary()
    assert report.rtl is not None and report.rtl.exited_ok
    assert report.result.rtl_traps == REGRESSION_TRAPS.get(name, 0)
