"""Every built-in case verifies against PyTorch on the t1-blastoise RTL (issue 5;
slow tier: the blastoise build and LeNet take minutes). The default tier covers
the same cases on t1-small through ``nox -s verify``'s RTL suite. Run with ``-rP``
to see each case's status and cycles; each run's result.json stays in its tmp_path.

Each run also goes through the test bench's width assertions (a violation would
end it as ``error``), and its counters must add up.
"""

from __future__ import annotations

import pytest

from configs import load_soc
from harness.cases import REGISTRY
from harness.verify import verify

pytestmark = [pytest.mark.slow, pytest.mark.rtl]

SOC = "t1-blastoise"


@pytest.mark.parametrize("name", list(REGISTRY))
def test_case_on_blastoise_rtl(name, tmp_path):
    r = verify(name, SOC, on="rtl", workdir=tmp_path, json_path=tmp_path / "result.json")
    c = r["counters"]
    print(f"\n{name}@{SOC}: {r['status']} cycles_total={r['cycles_total']} cycles_forward={r['cycles_forward']} "
          f"fma={c.get('vec_fma_ops')} lane_util={c.get('vec_lane_utilization')}")  # fmt: skip
    assert r["status"] == "pass", r.get("message") or r["outputs"]
    assert all(o["mismatches"] == 0 for o in r["outputs"].values())
    lanes = load_soc(SOC).accelerator.lanes
    assert c["vec_fma_ops"] <= lanes * c["cycles"]
    # the two engines run at the same time (PIPELINE.md), so each is bounded, not their sum
    assert max(c["vec_arith_busy_cycles"], c["vec_mem_busy_cycles"]) <= c["cycles"]
    assert c["vec_arith_busy_cycles"] > 0 and c["vec_mem_busy_cycles"] > 0
