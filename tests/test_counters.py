"""Performance counters in result.json (issue 6) and the SoC width assertions (issue 5).

bmm (the built-in case) runs once on the t1-small RTL through the public API; its
counters must add up: busy and stall cycles within the run, FP multiply-adds equal
to the case's arithmetic (derived from the inputs' shapes), vector memory traffic at
least the bytes that must move, forward-region counters within the totals. The
width assertions must be able to fire: lowering a bound by plusarg ends the run as
`error` with a message naming the cycle and the counts.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from configs import load_soc
from harness.cases import materialize, resolve
from harness.results import make_result
from harness.toolchain import build_elf
from harness.verify import verify
from sim.rtl_runner import run_rtl
from sim.tb_report import region_counters

pytestmark = pytest.mark.rtl

SOC = "t1-small"
CYCLE_EVENTS = (
    "vec_arith_busy_cycles",
    "vec_mem_busy_cycles",
    "vec_port_busy_cycles",
    "vec_stall_dep_cycles",
    "vec_stall_struct_cycles",
    "vec_stall_mem_cycles",
    "vec_stall_issue_cycles",
    "vec_iq_full_cycles",
    "core_cop_issue_stall_cycles",
    "core_cop_wait_cycles",
)


@pytest.fixture(scope="module")
def bmm(tmp_path_factory) -> dict:
    result = verify("bmm", SOC, on="rtl", workdir=tmp_path_factory.mktemp("bmm"))
    assert result["status"] == "pass", result.get("message")
    return result


@pytest.fixture(scope="module")
def bmm_shapes() -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(t.shape) for t in materialize(resolve("bmm")).inputs)


def test_every_counter_is_reported(bmm):
    c = bmm["counters"]
    for name in (*CYCLE_EVENTS, "vec_lane_ops", "vec_fma_ops", "vec_mem_bytes", "cycles"):
        assert isinstance(c[name], int) and c[name] >= 0, name
    assert c["cycles"] == bmm["cycles_total"]


def test_cycle_events_within_the_run(bmm):
    c = bmm["counters"]
    for name in CYCLE_EVENTS:
        assert c[name] <= c["cycles"], f"{name} = {c[name]} > {c['cycles']} cycles"
    # the two engines may run at once (sim/rtl/vector/PIPELINE.md), but the unit is
    # idle (stall_issue) only when neither runs
    busiest = max(c["vec_arith_busy_cycles"], c["vec_mem_busy_cycles"])
    assert c["vec_stall_issue_cycles"] + busiest <= c["cycles"]
    # the bmm kernel does vector work and the core waits for it at least once
    assert c["vec_arith_busy_cycles"] > 0 and c["vec_mem_busy_cycles"] > 0
    assert c["core_cop_wait_cycles"] > 0


def test_fma_ops_match_the_arithmetic(bmm, bmm_shapes):
    # bmm: (b, m, k) @ (b, k, n) -> b*m*n*k multiply-adds, every one a vfmacc
    # element (compiler/README.md: contractions accumulate with vfmacc.vf).
    (b, m, k), (b2, k2, n) = bmm_shapes
    assert (b, k) == (b2, k2)
    c = bmm["counters"]
    assert c["vec_fma_ops"] == b * m * n * k
    assert c["vec_lane_ops"] >= c["vec_fma_ops"]
    lanes = load_soc(SOC).accelerator.lanes
    assert c["vec_fma_utilization"] == pytest.approx(c["vec_fma_ops"] / (lanes * c["cycles"]), rel=1e-5)
    assert 0 < c["vec_lane_utilization"] <= load_soc(SOC).accelerator.dlen / 8 / lanes


def test_memory_bytes_cover_the_data(bmm, bmm_shapes):
    # B is read by vector loads and the result written by vector stores (A's
    # elements are scalar operands of vfmacc.vf, loaded by the core).
    (_, m, k), (b, _, n) = bmm_shapes
    f32 = 4
    c = bmm["counters"]
    b_bytes, out_bytes = b * k * n * f32, b * m * n * f32
    assert c["vec_mem_bytes"] >= b_bytes + out_bytes
    # every vector beat moves at most MemW/8 bytes
    assert c["vec_mem_bytes"] <= (c["amem_reads"] + c["amem_writes"]) * load_soc(SOC).accelerator.dlen // 8


def test_forward_region_counters(bmm):
    c, f = bmm["counters"], bmm["counters"]["forward"]
    assert f["cycles"] == bmm["cycles_forward"]
    for name, value in f.items():
        if name.endswith("utilization"):
            continue
        assert 0 <= value <= c[name], name
        if name.endswith("_cycles") and name != "cycles":
            assert value <= f["cycles"], name
    # the kernel's arithmetic happens inside forward
    assert f["vec_fma_ops"] == c["vec_fma_ops"]
    assert f["vec_fma_utilization"] > c["vec_fma_utilization"]


@pytest.mark.parametrize(
    "plusarg,what",
    [
        ("+perf_max_fma=1", "FP multiply-adds"),
        ("+perf_max_lane_ops=1", "element operations"),
        ("+perf_max_mem_bytes=4", "bytes on the vector memory port"),
    ],
)
def test_width_assertion_fires(bmm, plusarg, what, tmp_path):
    outcome = run_rtl(bmm["elf"], SOC, plusargs=[plusarg], workdir=tmp_path)
    assert outcome.ending == "error"
    assert what in outcome.message
    assert "width assertion failed at cycle" in outcome.message
    cycle = int(outcome.message.split("at cycle ")[1].split(":")[0])
    assert 0 < cycle < bmm["cycles_total"]
    result = make_result(outcome, soc=load_soc(SOC), elf=bmm["elf"], case="bmm")
    assert result["status"] == "error"


def test_region_counters_pairing():
    # PROFILE events: start 1, start 2, stop 2, stop 1, start 1 again (ignored)
    events = [(3, 10), (5, 20), (4, 30), (2, 50), (3, 60)]
    samples = {0: {"x": 1}, 1: {"x": 4}, 2: {"x": 9}, 3: {"x": 20}, 4: {"x": 30}}
    assert region_counters(events, samples) == {1: {"x": 19}, 2: {"x": 5}}
    assert region_counters(events, {0: {"x": 1}}) == {}


SCALAR_C = r"""
#include <stdio.h>
#include <cosim.h>
volatile unsigned sink;
int main(void) {
  profile_start(1);
  for (unsigned i = 0; i < 50; ++i) sink += i * i;
  profile_stop(1);
  printf("%u\n", sink);
  return 0;
}
"""


def test_scalar_soc_reports_core_counters_only(tmp_path: Path):
    src = tmp_path / "s.c"
    src.write_text(SCALAR_C)
    soc = load_soc("rv32")
    elf = build_elf([src], soc, tmp_path / "s.elf")
    outcome = run_rtl(elf, soc, workdir=tmp_path)
    assert outcome.exited_ok, outcome.message
    result = make_result(outcome, soc=soc, elf=elf)
    c = result["counters"]
    assert c["core_cop_issue_stall_cycles"] == 0 and c["core_cop_wait_cycles"] == 0
    assert not [k for k in c if k.startswith("vec_")]
    assert c["forward"]["cycles"] == result["cycles_forward"] > 0
    assert math.isfinite(c["cycles"])
