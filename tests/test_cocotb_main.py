"""sim/tb/cocotb_main.cpp, the cocotb main loop of the SoC builds: a Python side that
waits only for `done` and one that wakes on a timer every clock period (with the
ReadWrite and ReadOnly phases of those slots) see the same run, at the same
simulation times, with the same cycles and instret as `cosim run`; every timer
fires at its time, also after the loop has gone without callbacks for a while."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from configs import load_soc
from harness.bench_rtl import loop_elf
from sim.rtl_runner import log_tail, run_rtl, simulate
from sim.tb_plusargs import tb_plusargs
from sim.tb_report import parse_report
from sim.verilator_build import build

pytestmark = pytest.mark.rtl

TESTS = Path(__file__).resolve().parent
PROBE = "cocotb_main_probe"  # tests/cocotb_main_probe.py
PERIOD_NS = 2
RESET_EDGES = 4  # tb_top.sv holds rst_n low for the first four rising edges (rst_cnt)


def _probe(soc, elf: Path, tmp: Path, ticks: int) -> tuple[dict, object]:
    out = tmp / f"probe{ticks}"
    out.mkdir()
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))  # cocotb's runner hands sys.path to the simulator's Python
    args = tb_plusargs(soc, elf, out, None, soc.sim.max_cycles, soc.sim.watchdog_cycles, None, [])
    simulate(
        build(soc),
        args,
        out,
        test_module=PROBE,
        env={"PROBE_TICKS": str(ticks), "PROBE_OUT": str(out / "probe.json")},
    )
    assert (out / "probe.json").exists(), log_tail(out)
    return json.loads((out / "probe.json").read_text()), parse_report(out / "result.txt")


def test_quiet_and_busy_python_see_the_same_run(tmp_path):
    soc = load_soc("rv32")
    elf = loop_elf(soc, 300, tmp_path)
    ref = run_rtl(elf, soc, workdir=tmp_path)
    assert ref.ending == "exit" and ref.cycles_total > 2000

    quiet, quiet_rep = _probe(soc, elf, tmp_path, 0)
    # A timer every period for the first ~half of the run; then only `done` is awaited again.
    ticks = ref.cycles_total // 2
    busy, busy_rep = _probe(soc, elf, tmp_path, ticks)

    for rep in (quiet_rep, busy_rep):
        assert (rep.ending, rep.cycle, rep.instret) == ("exit", ref.cycles_total, ref.instret)
    # `done` wakes Python at the same simulation time whether or not other triggers were pending.
    assert quiet["done_ns"] == busy["done_ns"]
    # Rising edge k (k = 1, 2, ...) is at (2k - 1) ns, and cycle 0 is the first edge out of
    # reset; the run ends on the edge of cycle `cycles` (tb_top.sv reports the cycle count
    # before its increment), whose `done <= 1` Python sees in that edge's slot.
    assert busy["done_ns"] == PERIOD_NS * (RESET_EDGES + ref.cycles_total + 1) - 1
    # Every timer fired, each exactly one period after the last, with its ReadOnly phase in the same slot.
    want = [PERIOD_NS * (i + 1) for i in range(ticks)]
    assert busy["timer_ns"] == want
    assert busy["readonly_ns"] == want
    assert quiet["timer_ns"] == []
