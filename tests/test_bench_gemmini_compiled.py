"""``bench gemmini-compiled`` (harness/bench_gemmini_compiled.py) without the RTL: its options, how it
reads per-layer figures from a verify result, and its tables. The figures themselves come from RTL
runs in ``nox -s bench`` and are never asserted."""

from __future__ import annotations

import pytest
from rich.console import Console

from harness.bench_gemmini_compiled import (
    DEFAULT_RESNET_INPUT,
    LayerRow,
    MatmulRow,
    forward_figures,
    mapped_layers,
    matmul_table,
    overall_utilization,
    parse_args,
    resnet_table,
)


def _text(table) -> str:
    console = Console(width=250, record=True)
    console.print(table)
    return console.export_text()


def _result() -> dict:
    """A verify result's shape (harness.results.make_result): forward, one core stretch, two layers."""
    return {
        "status": "pass",
        "cycles_forward": 1000,
        "counters": {"forward": {"gemmini_macs": 102400, "mesh_utilization": 0.4}},
        "profile": [
            {"region": 1, "name": "forward", "cycles": 1000},
            {"region": 2, "name": "conv1", "where": "core", "cycles": 300, "counters": {"mesh_utilization": 0.0}},
            {
                "region": 3,
                "name": "conv1",
                "where": "gemmini",
                "cycles": 200,
                "counters": {"gemmini_macs": 40960, "mesh_utilization": 0.8},
            },
            {
                "region": 4,
                "name": "layer1.0.conv1",
                "where": "gemmini",
                "cycles": 600,
                "counters": {"gemmini_macs": 61440, "mesh_utilization": 0.4},
            },
            {"region": 5, "name": "fc", "where": "gemmini", "cycles": None},  # no stop marker: left out
        ],
    }


def test_options_and_their_errors(capsys):
    args = parse_args([])
    assert (args.soc, args.size, args.resnet_input, args.op) == ("gemmini-dim16", 256, DEFAULT_RESNET_INPUT, None)
    args = parse_args(["--resnet-input", "0", "--op", "matmul", "--size", "64"])
    assert (args.resnet_input, args.op, args.size) == (0, ["matmul"], 64)
    for bad, said in ((["--resnet-input", "4"], "at least 8"), (["--size", "-1"], "0 to leave the matmuls out")):
        with pytest.raises(SystemExit):
            parse_args(bad)
        assert said in capsys.readouterr().err


def test_mapped_layers_are_the_gemmini_regions_and_overall_weights_by_cycles():
    rows = mapped_layers(_result())
    assert [r.name for r in rows] == ["conv1", "layer1.0.conv1"]
    assert [r.utilization for r in rows] == [0.8, 0.4]
    # (40960 + 61440) / (16 * 16 * (200 + 600)) = 0.5, not the mean of 0.8 and 0.4
    assert overall_utilization(rows, 16) == pytest.approx((40960 + 61440) / (256 * 800))
    assert overall_utilization([], 16) is None
    assert forward_figures(_result()) == (1000, 102400, 0.4)


def test_tables_show_the_figures():
    rows = [
        MatmulRow("matmul", "256x256x256", "pass", 80000, 16777216, 0.82, [], "pass", 70000, 0.9),
        MatmulRow("linear", "256x256x256", "mismatch: 3", None, None, None, ["tiled_matmul_auto"], "pass", 1, 0.5),
    ]
    assert rows[0].ratio == pytest.approx(0.82 / 0.9) and rows[1].ratio is None
    text = _text(matmul_table(rows, "gemmini-dim16"))
    assert "82.0" in text and "90.0" in text and "0.91" in text and "tiled_matmul_auto" in text and "none" in text
    layers = [LayerRow("conv1", 200, 40960, 0.8), LayerRow("fc", 600, 61440, 0.4)]
    text = _text(resnet_table(layers, "gemmini-dim16", 32, 16, "pass"))
    assert "32x32" in text and "aim 75 %" in text and "all mapped layers" in text and "50.0" in text
