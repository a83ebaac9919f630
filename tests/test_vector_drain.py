"""The vector LSU's drain queue (sim/rtl/vector/vec_lsu.sv, PIPELINE.md "Memory
path"): short memory instructions back to back, on t1-small's RTL.

- Under ``cosim difftest`` every scalar and vector register write and every vector
  store's bytes match Spike: one-row loads chained into arithmetic while younger
  loads still wait for their responses, a store behind loads, masked and indexed
  loads between unit-stride ones.
- 32 one-row ``vle32`` stream at the port's rate (4 beats every 5 cycles in the SoC,
  latency 4), not at one per round trip (a single drain slot: 92 cycles, 54 now).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from configs import load_soc
from harness.toolchain import build_elf
from sim.rtl_runner import run_rtl

PROGRAM = Path(__file__).resolve().parent / "vector_support" / "drain" / "short_accesses.c"
SOC = "t1-small"


@pytest.fixture(scope="module")
def elf(tmp_path_factory):
    soc = load_soc(SOC)
    row = soc.accelerator.dlen // 32
    return build_elf([PROGRAM], SOC, tmp_path_factory.mktemp("drain") / "short.elf", defines=[f"ROW_FLOATS={row}"])


@pytest.mark.rtl
@pytest.mark.iss
def test_short_accesses_difftest_clean(elf):
    from harness.commands.difftest import run_difftest

    report = run_difftest(elf, SOC)
    assert report.result.ok, report.result.summary()
    assert report.result.compared > 1_000


@pytest.mark.rtl
def test_one_row_loads_stream_at_the_port_rate(elf, tmp_path):
    result = run_rtl(elf, SOC, workdir=tmp_path)
    assert result.exited_ok, result
    m = re.search(r"burst32 (\d+) frame (\d+)", result.uart)
    loads = int(m.group(1)) - int(m.group(2))
    # 32 beats at 4 per 5 cycles: 40, plus the last one's latency before vmv.x.s
    # reads it: 54 measured. One load per round trip (a single drain slot): 92.
    assert loads <= 64, f"32 one-row loads took {loads} cycles:\n{result.uart}"
