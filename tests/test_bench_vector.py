"""``bench vector`` builds its figures and tables (slow tier: t1-small, small sizes).

The bench itself asserts nothing; this checks its code path end to end: cases
verified against PyTorch, counters read from the forward region, utilization
within (0, 1], PyTorch's MAC count beside the unit's FMAs, the plain C++ loop running the same cycles, tables and JSON written.
"""

from __future__ import annotations

import json

import pytest
from rich.console import Console

from harness import bench_vector

pytestmark = [pytest.mark.slow, pytest.mark.rtl]


def test_bench_vector_small(tmp_path):
    opts, out = bench_vector.parse(
        [
            "--vector-ref-soc", "t1-small",
            "--vector-util-soc", "t1-small",
            "--vector-matmul", "16",
            "--vector-no-lenet",
            "--vector-no-bert",
            "--vector-out", str(tmp_path / "out"),
        ]
    )  # fmt: skip
    assert opts.util_socs == ("t1-small",) and not opts.lenet and not opts.bert and opts.speed
    figs = bench_vector.collect(opts, tmp_path / "work")

    assert figs.bmm.status == "pass" and figs.bmm.cycles_forward < figs.bmm.cycles_total
    (mm,) = figs.matmul
    assert mm.status == "pass"
    assert mm.fma_ops_forward == 16**3
    assert 0 < mm.fma_utilization <= 1
    # PyTorch's MAC count of the matmul is the unit's FMA count: no wasted work
    assert mm.macs == 16**3 and mm.lane_utilization == pytest.approx(mm.fma_utilization)
    assert figs.bmm.macs == 8**4 and 0 < figs.bmm.lane_utilization <= 1
    (speed,) = figs.speed
    assert speed.cycles == mm.cycles_total and speed.plain_rate > 0

    console = Console(record=True, width=200)
    for t in bench_vector.tables(figs):
        console.print(t)
    text = console.export_text()
    assert "14,556" in text and "69,837" in text and "Lane utilization" in text

    bench_vector.write_json_atomic(out / "vector.json", figs.to_json())
    data = json.loads((out / "vector.json").read_text())
    assert data["matmul"][0]["fma_utilization"] == pytest.approx(mm.fma_utilization)
    assert data["bmm"]["lane_utilization"] == pytest.approx(figs.bmm.lane_utilization)
    assert data["lenet"] is None and data["bert"] is None and data["t1"]["lenet_vector_only"] == 1_118_850
