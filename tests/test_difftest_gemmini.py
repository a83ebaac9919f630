"""`cosim difftest --soc gemmini-dim4`: the Gemmini unit's writes against the functional model.

- Comparison rules on hand-made traces (sim/difftest/gemmini.py; no simulator): clean, a wrong
  scratchpad / accumulator row, a row only one side wrote, main-memory bytes, a result that the
  RTL and the model write at different times (owned by its preload), out-of-order closes,
  sequence-number reuse, the commit-trace cross-check and the scalar limit.
- The model's trace on Spike (sim/gemmini/spike_bridge.py ModelTracer) against the model's counters.
- The Gemmini C programs (tests/gemmini_programs) on the gemmini-dim4 RTL: clean (a few in the
  default tier, the rest slow), and a bit flipped in one scratchpad row write in the RTL
  (``+gemmini_corrupt_sp``) is named: the instruction that made that write, its row and element.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import test_gemmini_programs as spike_programs
from test_gemmini_programs import GOOD, SOC, program_elf

from harness.cli import main as cosim
from harness.commands.difftest import run_difftest
from sim.difftest import Comparator
from sim.difftest.gemmini import GemminiChecker, GemminiTraceError

gemmini_elves = spike_programs.gemmini_elves

DIM = 4


def _check(model: str, rtl: str, **kw):
    lines = lambda text: [ln.strip() for ln in text.strip().splitlines()]  # noqa: E731
    return GemminiChecker(DIM, **kw).run(lines(model), lines(rtl))


# A mvin (k 0) of two rows, a preload (k 1) whose C the compute (k 2) writes, an mvout (k 3) of 8 bytes.
MVIN = 0x0200307B  # funct 2 (mvin)
PRELOAD = 0x0C00307B  # funct 6
COMPUTE = 0x0800307B  # funct 4
MVOUT = 0x0600307B  # funct 3
MODEL = f"""
insn 0 20000100 {MVIN:x} 20002000 2000400000000
sp 0 0 04030201
sp 0 1 08070605
close 0
insn 1 20000104 {PRELOAD:x} ffffffff 4000480000000
insn 2 20000108 {COMPUTE:x} 4000400000000 ffffffff
acc 1 0 00000004000000030000000200000001
close 1
close 2
insn 3 2000010c {MVOUT:x} 20003000 2000400000000
wr 3 20003000 0102030405060708
close 3
"""
RTL = """
issue 10 0
sp 20 0 000 f 04030201
issue 21 1
sp 22 0 001 3 00000605
sp 23 0 001 c 08070000
issue 24 2
issue 25 3
acc 40 1 00 f 00000004000000030000000200000001
wr 50 3 20003000 4 00000000000000000000000004030201
wr 51 3 20003004 4 08070605
"""


def test_clean_traces_compare():
    res = _check(MODEL, RTL)
    assert res.ok, res.summary()
    assert (res.compared, res.rows, res.mem_bytes) == (4, 3, 8)
    assert "no divergence (4 instructions" in res.summary()


def test_wrong_scratchpad_row_names_instruction_row_and_element():
    res = _check(MODEL, RTL.replace("sp 23 0 001 c 08070000", "sp 23 0 001 c 08170000"))
    assert not res.ok
    d = res.divergence
    assert d is not None and (d.k, d.pc, d.what) == (0, 0x20000100, "rows")
    text = res.summary()
    assert "scratchpad row 1 (0x1): expected [5, 6, 7, 8] (model), actual [5, 6, 23, 8] (RTL) (element 2)" in text
    assert "mvin" in text  # the disassembly with its fields


def test_result_owned_by_preload_and_wrong_accumulator_row():
    # The C rows belong to the preload (k 1) on both sides, though the model writes them during the compute.
    bad = RTL.replace("00000004000000030000000200000001", "00000004000000030000000200000009")
    res = _check(MODEL, bad)
    d = res.divergence
    assert d is not None and d.k == 1 and d.pc == 0x20000104
    assert "accumulator row 0 (0x0): expected [1, 2, 3, 4] (model), actual [9, 2, 3, 4] (RTL)" in res.summary()


def test_accumulator_row_is_the_whole_row_written_back():
    # A masked accumulator write whose read-modify-write changed an element outside the mask is caught.
    one_lane = RTL.replace(
        "acc 40 1 00 f 00000004000000030000000200000001", "acc 40 1 00 1 00000004000000030000000200000001"
    )
    assert _check(MODEL, one_lane).ok
    res = _check(MODEL, one_lane.replace("acc 40 1 00 1 00000004", "acc 40 1 00 1 00000005"))
    assert res.divergence is not None and "(element 3)" in res.summary()


def test_rows_only_one_side_wrote():
    res = _check(MODEL, RTL.replace("sp 20 0 000 f 04030201\n", ""))
    assert res.divergence is not None and "the RTL did not write it" in res.summary()
    # A row only the RTL wrote must keep the model's value (0 here) ...
    extra = RTL.replace("issue 24 2", "sp 23 1 005 f 00000001\nissue 24 2")
    res = _check(MODEL, extra)
    d = res.divergence
    assert d is not None and d.k == 1
    assert "scratchpad row 5 (0x5): the RTL wrote [1, 0, 0, 0], the model did not write it and holds [0, 0, 0, 0]" in (
        res.summary()
    )
    # ... which it may write again unchanged.
    assert _check(MODEL, RTL.replace("issue 24 2", "sp 23 1 000 f 04030201\nissue 24 2")).ok


def test_memory_bytes_and_lengths():
    res = _check(MODEL, RTL.replace("wr 51 3 20003004 4 08070605", "wr 51 3 20003004 4 08070615"))
    d = res.divergence
    assert d is not None and (d.k, d.what) == (3, "memory")
    assert "expected 0x05 at 0x20003004 (model), actual 0x15 at 0x20003004 (RTL)" in res.summary()
    res = _check(MODEL, RTL.replace("wr 51 3 20003004 4 08070605\n", ""))
    assert res.divergence is not None and "the model wrote 8 bytes, the RTL 4" in res.summary()
    res = _check(MODEL, RTL.replace("wr 51 3 20003004 4", "wr 51 3 20003005 4"))
    assert res.divergence is not None and "at 0x20003004 (model)" in res.summary()


def test_first_divergence_in_program_order_despite_late_close():
    # k 1 closes after k 2; both wrong: k 1 is reported.
    model = MODEL.replace("close 1\nclose 2", "sp 2 9 01010101\nclose 2\nclose 1")
    rtl = RTL.replace("issue 25 3", "sp 24 2 009 f 02020202\nissue 25 3").replace(
        "00000004000000030000000200000001", "00000004000000030000000200000009"
    )
    res = _check(model, rtl)
    assert res.divergence is not None and res.divergence.k == 1, res.summary()


def test_sequence_number_reuse():
    model = """
    insn 0 20000100 2000307b 0 0
    sp 0 0 00000001
    close 0
    insn 1 20000104 2000307b 0 0
    close 1
    insn 2 20000108 2000307b 0 0
    sp 2 0 00000002
    close 2
    """
    # k 0 and k 2 both have seq 5; the late write of k 0 arrives after k 1 is issued, before k 2.
    rtl = "issue 1 5\nissue 2 6\nsp 3 5 000 f 00000001\nissue 4 5\nsp 5 5 000 f 00000002\n"
    res = GemminiChecker(DIM).run(model.split("\n"), rtl.split("\n"))
    assert res.ok and res.compared == 3, res.summary()
    swapped = rtl.replace("sp 3 5 000 f 00000001\nissue 4 5", "issue 4 5\nsp 3 5 000 f 00000001")
    assert not GemminiChecker(DIM).run(model.split("\n"), swapped.split("\n")).ok
    with pytest.raises(GemminiTraceError, match="no issued instruction"):
        GemminiChecker(DIM).run([], ["sp 3 7 000 f 00000001"])


def test_run_cut_short_leaves_the_last_instructions_uncompared():
    # The RTL stopped (cycle limit) before the mvout's second request: a divergence on a whole run, not on a cut one.
    cut = RTL.replace("wr 51 3 20003004 4 08070605\n", "")
    assert not _check(MODEL, cut).ok
    res = _check(MODEL, cut, rtl_cut=True)
    assert res.ok and res.unfinished == 4 and "4 unfinished" in res.summary(), res.summary()


def test_commit_cross_check_and_scalar_limit():
    commits = [(10, 0x20000100, MVIN, 0), (11, 0x20000104, PRELOAD, 1), (12, 0x20000108, COMPUTE, 2)]
    commits.append((13, 0x2000010C, MVOUT, 3))
    res = _check(MODEL, RTL, commits=commits)
    assert res.ok, res.summary()
    wrong = [*commits[:2], (12, 0x20000108, COMPUTE, 7), commits[3]]
    res = _check(MODEL, RTL, commits=wrong)
    assert res.divergence is not None and res.divergence.what == "order" and res.divergence.index == 12
    # A Gemmini difference at or after the scalar divergence is not reported (the programs already differ there).
    bad = RTL.replace("08070605", "08070615")
    assert not _check(MODEL, bad, commits=commits).ok
    assert _check(MODEL, bad, commits=commits, limit=13).ok


def _word(funct: int) -> int:
    return (funct << 25) | (10 << 15) | (0x7 << 12) | (10 << 7) | 0x7B  # rd = rs1 = a0, xd xs1 xs2


@pytest.mark.parametrize(("funct", "copied"), [(126, True), (2, False)])
def test_counter_reads_are_taken_from_the_rtl(funct, copied):
    # The counter instruction's rd (funct 126) counts cycles/events: the RTL's value is taken and tainted
    # (the add after it is not compared either); any other Gemmini rd is compared.
    w = _word(funct)
    spike = [
        f"core   0: 3 0x0000000020000000 (0x{w:08x}) x10 0x0000000000000007",
        "core   0: 3 0x0000000020000004 (0x00150513) x10 0x0000000000000008",
    ]
    rtl = [
        f"0x0000000020000000 (0x{w:08x}) #3",
        "@3 x10 0x0000000000000123",
        "0x0000000020000004 (0x00150513) x10 0x0000000000000124",
    ]
    res = Comparator(64).run(spike, rtl)
    assert res.ok is copied, res.summary()
    if copied:
        assert res.copied_from_rtl >= 1
    else:
        assert "expected 0x0000000000000007 (Spike), actual 0x0000000000000123 (RTL)" in res.summary()


# ---- the model's trace on Spike ---------------------------------------------------


@pytest.mark.iss
def test_model_trace_matches_the_models_counters(gemmini_elves, tmp_path):
    from sim.spike import run_spike

    trace = tmp_path / "model.txt"
    out = run_spike(program_elf(gemmini_elves, "matmul_ws"), SOC, gemmini_trace=trace)
    assert out.ending == "exit" and out.exit_code == 0, out.message
    lines = trace.read_text().splitlines()
    insns = [ln for ln in lines if ln.startswith("insn ")]
    closes = sorted(int(ln.split()[1]) for ln in lines if ln.startswith("close "))
    assert len(insns) > 10 and closes == list(range(len(insns)))
    written = sum(len(ln.split()[3]) // 2 for ln in lines if ln.startswith("wr "))
    assert written == out.counters["dma_bytes_written"] > 0
    rows = {(ln.split()[0], ln.split()[2]) for ln in lines if ln.startswith(("sp ", "acc "))}
    assert len(rows) >= out.counters["mvin_rows"] > 0


# ---- the RTL --------------------------------------------------------------------

FAST = ("matmul_ws", "matmul_os", "mvin_mvout")
SLOW = sorted({*GOOD, "raw_insn"} - set(FAST))


@pytest.fixture(scope="session")
def gemmini_rtl():
    from sim.verilator_build import build

    return build(SOC)


def _clean(name: str, elves, tmp_path: Path) -> None:
    report = run_difftest(program_elf(elves, name), SOC, keep_trace=tmp_path / "trace.txt")
    assert report.rtl is not None and report.rtl.exit_code == 0, report.rtl.message if report.rtl else None
    assert report.ok, report.summary()
    g = report.gemmini
    assert g is not None and g.compared > 0 and g.unfinished == 0, report.summary()
    assert g.rows > 0 and "Gemmini: no divergence" in report.summary()


@pytest.mark.rtl
@pytest.mark.iss
@pytest.mark.parametrize("name", FAST)
def test_programs_clean(name, gemmini_rtl, gemmini_elves, tmp_path):
    _clean(name, gemmini_elves, tmp_path)


@pytest.mark.rtl
@pytest.mark.iss
@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW)
def test_programs_clean_slow(name, gemmini_rtl, gemmini_elves, tmp_path):
    _clean(name, gemmini_elves, tmp_path)


BAD = sorted(p.stem for p in (spike_programs.PROG_DIR / "bad").glob("*.c"))


@pytest.mark.rtl
@pytest.mark.iss
@pytest.mark.parametrize("name", [n if n == "bad_rows" else pytest.param(n, marks=pytest.mark.slow) for n in BAD])
def test_bad_programs_clean(name, gemmini_rtl, gemmini_elves, tmp_path):
    # Both sides trap on the refused instruction; nothing it did not do is compared.
    report = run_difftest(program_elf(gemmini_elves, name, sub="bad"), SOC)
    assert report.rtl is not None and report.rtl.ending == "trap", report.rtl.message if report.rtl else None
    assert report.ok and report.gemmini is not None, report.summary()


@pytest.mark.rtl
@pytest.mark.iss
def test_cli_names_the_corrupted_write(gemmini_rtl, gemmini_elves, capsys):
    elf = program_elf(gemmini_elves, "matmul_os")
    assert cosim(["difftest", str(elf), "--soc", SOC, "--gemmini-corrupt-sp", "2"]) == 1
    out = capsys.readouterr().out
    assert re.search(
        r"first Gemmini divergence at Gemmini instruction \d+ .*\(rows\): pc 0x[0-9a-f]{8}: gemmini mvin ", out
    )
    assert re.search(r"scratchpad row \d+ \(0x[0-9a-f]+\): expected \[.*\] \(model\), actual \[.*\] \(RTL\)", out)


@pytest.mark.rtl
@pytest.mark.iss
@pytest.mark.parametrize("nth", [3, 20])
def test_corrupted_scratchpad_write_names_its_instruction(nth, gemmini_rtl, gemmini_elves, tmp_path):
    elf = program_elf(gemmini_elves, "matmul_ws")
    clean = run_difftest(elf, SOC, keep_trace=tmp_path / "clean.txt")
    assert clean.ok, clean.summary()
    # Which instruction makes the nth scratchpad write, from the clean RTL trace: the latest issue of its seq.
    k, latest, seen = -1, {}, 0
    target = None
    for line in (tmp_path / "clean.txt.gemmini").read_text().splitlines():
        f = line.split()
        if f[0] == "issue":
            k += 1
            latest[int(f[2])] = k
        elif f[0] == "sp":
            seen += 1
            if seen == nth:
                target = (latest[int(f[2])], int(f[3], 16), int(f[4], 16))
                break
    assert target is not None
    want_k, row, mask = target
    report = run_difftest(elf, SOC, gemmini_corrupt_sp=nth)
    assert not report.ok and report.gemmini_first, report.summary()
    d = report.gemmini.divergence if report.gemmini else None
    assert d is not None and d.k == want_k and d.what == "rows", report.summary()
    element = (mask & -mask).bit_length() - 1
    assert re.search(rf"scratchpad row {row} \(0x{row:x}\): expected .* \(element {element}\)", report.summary())
    assert clean.gemmini is not None and clean.gemmini.compared > want_k
    assert f"pc 0x{d.pc:08x}: gemmini " in report.summary()
    assert d.index is not None  # placed in the commit trace
