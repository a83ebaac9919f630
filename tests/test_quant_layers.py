"""Per-layer PROFILE regions and layer-by-layer localization (harness.localize,
compiler.frontend.profile_regions): regions named by module path whose cycles add up within
forward's, a flipped weight byte in the ELF named as its layer on Gemmini and on a scalar core."""

from __future__ import annotations

import json
import textwrap

import numpy as np
import pytest
import torch

from harness.localize import first_difference, flip_bit, probes
from harness.quant.quantize import quantize
from harness.quant.rewrite import layer_of
from harness.verify import verify

CASE = textwrap.dedent(
    """
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(16, 24)
            self.fc2 = nn.Linear(24, 8)

        def forward(self, x):
            return self.fc2(torch.softmax(self.fc1(x), -1))

    def make():
        torch.manual_seed(0)
        return Net().eval(), (torch.randn(4, 16),)
    """
)


@pytest.fixture(scope="module")
def case_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("layers") / "net.py"
    path.write_text(CASE)
    return f"{path}:make"


def _flip_weight(pattern: str, byte: int, bit: int, flipped: list):
    """An elf_patch flipping one bit of the first weight whose argument name holds ``pattern``."""

    def patch(program) -> None:
        manifest = json.loads(program.manifest.read_text())
        arg = next(a for a in manifest["inputs"] if pattern in a["name"])
        flip_bit(program.elf, int(arg["address"], 16) + byte, bit)
        flipped.append(arg["name"])

    return patch


def test_int8_nodes_carry_their_layer_name():
    m = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 4))
    x = torch.randn(3, 8)
    qp = quantize(m, (x,), [(x,)])
    layers = [layer_of(n) for n in qp.module.graph.nodes if str(n.target).startswith("cosim_q.linear")]
    assert layers == [entry["name"] for entry in qp.layers] == ["0", "2"]


def test_first_difference_names_the_first_wrong_op_on_the_devices_inputs():
    m = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 4)).eval()
    x = torch.randn(3, 8)
    from harness.quant.quantize import export_float

    gm = export_float(m, (x,))
    probed = probes(gm, (x,))
    with torch.no_grad():
        h = m[1](m[0](x))
        device = [m[0](x).numpy(), h.numpy(), m[2](h).numpy()]
    assert len(probed) == 3
    checks, first = first_difference(gm, (x,), probed, device, "reduction")
    assert first is None and all(c["mismatches"] == 0 for c in checks)
    wrong = [d.copy() for d in device]
    wrong[1][2, 5] += 1.0  # the ReLU went wrong; the last Linear is right on what it got
    h2 = torch.from_numpy(wrong[1])
    wrong[2] = m[2](h2).detach().numpy()
    checks, first = first_difference(gm, (x,), probed, wrong, "reduction")
    assert first["layer"] == "1" and first["first_mismatch"]["index"] == [2, 5]
    assert [c["mismatches"] > 0 for c in checks] == [False, True, False]


def test_profile_has_one_region_per_layer_within_forward(case_file):
    r = verify(case_file, "gemmini-dim4", on="iss", localize="always")
    assert r["status"] == "pass", r.get("message")
    # checked layer by layer: each op bit-exact (int8) or within tolerance (the float softmax) on its device inputs
    loc = r["localization"]
    assert loc["reproduced"] is False and loc["first_bad"] is None
    checked = {(c["layer"], c["tolerance"]) for c in loc["checks"] if c["op"].startswith("cosim_q.linear")}
    assert checked == {("fc1", "exact"), ("fc2", "exact")} and all(c["mismatches"] == 0 for c in loc["checks"])
    forward = next(p for p in r["profile"] if p["region"] == 1)
    regions = [p for p in r["profile"] if p["region"] != 1]
    assert [(p["name"], p["where"]) for p in regions if p["where"] == "gemmini"] == [
        ("fc1", "gemmini"),
        ("fc2", "gemmini"),
    ]
    assert [p["name"] for p in r["quant"]["layers"]] == ["fc1", "fc2"]
    core = [p for p in regions if p["where"] == "core"]
    assert core and any("aten._softmax" in op or "aten.softmax" in op for p in core for op in p["ops"])
    assert all(p["cycles"] > 0 for p in regions)
    assert all(forward["start"] <= p["start"] < p["stop"] <= forward["stop"] for p in regions)
    assert sum(p["cycles"] for p in regions) <= forward["cycles"]


def test_a_flipped_weight_byte_names_its_layer_on_gemmini(case_file):
    flipped: list[str] = []
    # bit 7 of fc2's first int8 weight: -128 .. 127 off on every row that reads it
    r = verify(case_file, "gemmini-dim4", on="iss", elf_patch=_flip_weight("fc2_weight_q", 0, 7, flipped))
    assert len(flipped) == 2 and "fc2" in flipped[0]  # the program and the debug compile
    assert r["status"] == "mismatch"
    bad = r["localization"]["first_bad"]
    assert bad["layer"] == "fc2" and bad["op"].startswith("cosim_q.linear") and bad["tolerance"] == "exact"
    assert bad["shape"] == [4, 8] and bad["first_mismatch"]["got"] != bad["first_mismatch"]["expected"]
    assert "layer fc2" in r["message"]


def test_a_flipped_weight_byte_names_its_layer_on_a_scalar_core(case_file):
    flipped: list[str] = []
    # exponent bit of fc1's first float32 weight: its layer is off far beyond the reduction tolerance
    r = verify(case_file, "rv64", on="iss", elf_patch=_flip_weight("fc1_weight", 3, 6, flipped))
    assert r["status"] == "mismatch" and "fc1" in flipped[0]
    bad = r["localization"]["first_bad"]
    assert bad["layer"] == "fc1" and bad["dtype"] == "float32" and bad["tolerance"] == "reduction"
    got, expected = bad["first_mismatch"]["got"], bad["first_mismatch"]["expected"]
    assert not np.isclose(float(got), float(expected), rtol=1e-3)


def _mismatching(first_bad, max_abs_err: float) -> dict:
    return {
        "status": "mismatch",
        "outputs": {"out0": {"mismatches": 3, "max_abs_err": max_abs_err}},
        "localization": {"done": True, "first_bad": first_bad},
    }


def test_float_op_steps_pass_only_when_every_op_matched():
    from harness.check import accept_float_op_steps
    from harness.quant.flow import DEFAULT_FLOAT_OP_STEPS

    quant = {"float_ops": ["aten._softmax.default"]}  # no float_op_steps: the default
    ok = _mismatching(None, DEFAULT_FLOAT_OP_STEPS)
    accept_float_op_steps(ok, quant)
    assert ok["status"] == "pass" and "float ops" in ok["message"]
    for r, q in (
        (_mismatching(None, DEFAULT_FLOAT_OP_STEPS + 1), quant),  # too far
        (_mismatching({"layer": "fc2"}, 1), quant),  # an op went wrong
        (_mismatching(None, 1), {"float_ops": []}),  # integer ops only: bit for bit
    ):
        accept_float_op_steps(r, q)
        assert r["status"] == "mismatch"


@pytest.mark.parametrize("allowed, err, passes", [(0, 1, False), (5, 5, True), (5, 6, False)])
def test_float_op_steps_is_the_cases_own(allowed, err, passes):
    from harness.check import accept_float_op_steps

    r = _mismatching(None, err)
    accept_float_op_steps(r, {"float_ops": ["aten._softmax.default"], "float_op_steps": allowed})
    assert (r["status"] == "pass") is passes
    if passes:
        assert f"within {allowed} int8 steps" in r["tolerance"]


def test_float_op_steps_option_reaches_the_quant_record():
    from configs import load_soc
    from harness.cases import Case, materialize
    from harness.errors import CosimError
    from harness.quant.flow import quantize_case

    soc = load_soc("gemmini-dim4")

    def build(steps):
        return lambda: (torch.nn.Linear(8, 4), (torch.randn(3, 8),), {"float_op_steps": steps})

    _, record = quantize_case(materialize(Case("steps4", build(4))), soc)
    assert record["float_op_steps"] == 4
    _, record = quantize_case(materialize(Case("default", lambda: (torch.nn.Linear(8, 4), (torch.randn(3, 8),)))), soc)
    assert record["float_op_steps"] == 2
    for bad in (-1, 1.5, "2"):
        with pytest.raises(CosimError, match="float_op_steps must be a whole number"):
            quantize_case(materialize(Case("bad", build(bad))), soc)


@pytest.mark.slow
def test_rtl_regions_split_the_gemmini_counters_by_layer():
    r = verify("conv2d", "gemmini-dim4", on="rtl")
    assert r["status"] == "pass", r.get("message")
    regions = [p for p in r["profile"] if p["region"] != 1]
    assert [p["where"] for p in regions] == ["core", "gemmini", "core"]  # im2col, the layer, NHWC -> NCHW
    macs = [p["counters"]["gemmini_macs"] for p in regions]
    assert macs[1] == r["counters"]["forward"]["gemmini_macs"] > 0 and macs[0] == macs[2] == 0
    assert sum(p["cycles"] for p in regions) <= r["cycles_forward"]
