"""Quantizing float modules (MLP, small CNN with BatchNorm, residual block): structure of the int8
program, accuracy against float32, the aten decomposition, the harness options, and `cosim verify`
of a quantized case on gemmini-dim4 through Spike, bit-exact against the int8 reference."""

from __future__ import annotations

import json
import textwrap
from types import SimpleNamespace

import pytest
import torch
from torch import nn

from configs import load_soc
from harness.cases import Case, materialize
from harness.errors import CosimError
from harness.quant import keeps_cosim_q, ops, wants_quant
from harness.quant.accuracy import Thresholds, measure
from harness.quant.quantize import aten_module, quantize


def _gen(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def _inputs(shape, n: int, seed: int) -> list[tuple[torch.Tensor]]:
    g = _gen(seed)
    return [(torch.randn(*shape, generator=g),) for _ in range(n)]


def _mlp() -> nn.Module:
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 10)).eval()


class SmallCNN(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8 * 4 * 4, 10)

    def forward(self, x):
        x = nn.functional.max_pool2d(torch.relu(self.bn(self.conv(x))), 2)
        return self.fc(x.flatten(1))


class Residual(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.c1 = nn.Conv2d(4, 4, 3, padding=1)
        self.b1 = nn.BatchNorm2d(4)
        self.c2 = nn.Conv2d(4, 4, 3, padding=1)
        self.b2 = nn.BatchNorm2d(4)

    def forward(self, x):
        y = torch.relu(self.b1(self.c1(x)))
        return torch.relu(self.b2(self.c2(y)) + x)


def _randomize_bn(m: nn.Module) -> nn.Module:
    """Trained-looking BatchNorm statistics, so folding them is not the identity."""
    g = _gen(7)
    with torch.no_grad():
        for bn in (x for x in m.modules() if isinstance(x, nn.BatchNorm2d)):
            c = bn.num_features
            bn.running_mean.copy_(torch.randn(c, generator=g) * 0.3)
            bn.running_var.copy_(torch.rand(c, generator=g) + 0.5)
            bn.weight.copy_(torch.rand(c, generator=g) + 0.5)
            bn.bias.copy_(torch.randn(c, generator=g) * 0.2)
    return m.eval()


def _targets(qp) -> list[str]:
    return [str(n.target) for n in qp.module.graph.nodes if n.op == "call_function"]


def _check_accuracy(qp, model, held_out, max_pct: float) -> dict:
    acc = measure(qp, model, held_out)
    for fig in acc["outputs"].values():
        assert fig["max_abs_err_pct"] < max_pct, acc
    assert acc["passed"], acc
    return acc


def test_mlp_quantizes_to_two_linears_with_the_relu_folded():
    m = _mlp()
    calib = _inputs((4, 20), 8, 1)
    qp = quantize(m, calib[0], calib)
    ts = _targets(qp)
    assert ts.count("cosim_q.linear.default") == 2 and not any("relu" in x for x in ts)
    assert [ly["relu"] for ly in qp.layers] == [True, False]
    assert qp.output_ops == ["linear"]
    acc = _check_accuracy(qp, m, _inputs((4, 20), 6, 2), 5.0)
    assert acc["outputs"]["out0"]["classifier"] is True and acc["outputs"]["out0"]["top1_agreement"] >= 0.9


def _trained_cnn() -> tuple[nn.Module, torch.Tensor, torch.Tensor]:
    """SmallCNN as a nearest-class-mean classifier of 10 noisy prototypes: its top-1 means something (an
    untrained one's logits nearly tie, so rounding flips its argmax); set in closed form, no training loop.
    Returns (model, calibration inputs, held-out inputs)."""
    torch.manual_seed(4)
    g = _gen(11)
    protos = torch.randn(10, 3, 8, 8, generator=g)

    def batch(n):
        y = torch.arange(n) % 10
        return protos[y] + 0.7 * torch.randn(n, 3, 8, 8, generator=g)

    m = _randomize_bn(SmallCNN())
    with torch.no_grad():
        feats = nn.functional.max_pool2d(torch.relu(m.bn(m.conv(batch(200)))), 2).flatten(1)
        means = feats.reshape(20, 10, -1).mean(0)  # per class (sample i has class i % 10)
        m.fc.weight.copy_(means)
        m.fc.bias.copy_(-0.5 * (means * means).sum(1))
    return m, batch(64), batch(80)


def test_small_cnn_folds_batchnorm_relu_and_max_pool_into_the_conv():
    m, calib_x, held_x = _trained_cnn()
    assert m(held_x).argmax(1).eq(torch.arange(80) % 10).float().mean() > 0.8  # it does classify
    calib = [(calib_x[i : i + 2],) for i in range(0, 64, 2)]
    qp = quantize(m, calib[0], calib)
    ts = _targets(qp)
    assert "cosim_q.conv2d_pool.default" in ts and "cosim_q.linear.default" in ts
    assert not any("batch_norm" in x or "relu" in x or "max_pool" in x for x in ts)  # the pool is the conv's
    conv = next(n for n in qp.module.graph.nodes if n.target is ops.q.conv2d_pool.default)
    assert conv.args[8] is True and conv.args[2] is not None  # relu flag, the folded BatchNorm's bias
    assert list(conv.args[9:]) == [[2, 2], [2, 2], [0, 0]]  # max_pool2d(2): kernel, stride, padding
    acc = _check_accuracy(qp, m, [(held_x[i : i + 2],) for i in range(0, 80, 2)], 5.0)
    assert acc["outputs"]["out0"]["rows"] == 80 and acc["outputs"]["out0"]["top1_agreement"] >= 0.9


def test_residual_block_uses_gemmini_style_add():
    m = _randomize_bn(Residual())
    calib = _inputs((1, 4, 6, 6), 32, 5)  # with 8, held-out inputs saturate the skip path: ~10 %
    qp = quantize(m, calib[0], calib)
    ops_used = [ly["op"] for ly in qp.layers]
    assert ops_used == ["conv2d", "conv2d", "add"]
    assert [ly["relu"] for ly in qp.layers] == [True, False, True]
    _check_accuracy(qp, m, _inputs((1, 4, 6, 6), 10, 6), 5.0)


class InPlaceBlock(nn.Module):
    """In-place ReLU and ``+=``, a grouped strided conv, average pooling (float) and dropout."""

    def __init__(self) -> None:
        super().__init__()
        self.c1 = nn.Conv2d(4, 4, 3, padding=1, bias=False)
        self.b1 = nn.BatchNorm2d(4)
        self.r = nn.ReLU(inplace=True)
        self.c2 = nn.Conv2d(4, 8, 3, stride=2, padding=1, groups=4)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.d = nn.Dropout(0.1)
        self.fc = nn.Linear(8, 3)

    def forward(self, x):
        y = self.r(self.b1(self.c1(x)))
        y += x
        y = self.r(self.c2(y))
        return self.fc(self.d(torch.flatten(self.pool(y), 1)))


def test_in_place_ops_and_grouped_conv():
    m = _randomize_bn(InPlaceBlock())
    calib = _inputs((2, 4, 8, 8), 32, 13)
    qp = quantize(m, calib[0], calib)
    assert [(ly["op"], ly["relu"]) for ly in qp.layers] == [
        ("conv2d", True),
        ("add", False),
        ("conv2d", True),
        ("linear", False),
    ]
    grouped = [n for n in qp.module.graph.nodes if n.target is ops.q.conv2d.default][1]
    assert grouped.args[3] == [2, 2] and grouped.args[6] == 4
    assert "aten.adaptive_avg_pool2d.default" in qp.float_ops
    _check_accuracy(qp, m, _inputs((2, 4, 8, 8), 6, 14), 5.0)


def test_float_ops_stay_float_between_dequantize_and_quantize():
    torch.manual_seed(3)
    lin = nn.Linear(8, 8)

    def f(x):
        return torch.softmax(lin(x), -1) * 2.0

    calib = _inputs((3, 8), 6, 7)
    qp = quantize(f, calib[0], calib)
    ts = _targets(qp)
    assert ts.index("cosim_q.linear.default") < ts.index("cosim_q.dequantize.default") < ts.index("aten.softmax.int")
    assert ts[-1] == "cosim_q.quantize.default" and "aten.softmax.int" in qp.float_ops
    _check_accuracy(qp, f, calib, 5.0)


def test_matmul_with_a_parameter_quantizes_it_as_a_weight():
    torch.manual_seed(5)
    w = nn.Parameter(torch.randn(8, 6))

    class M(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w = w

        def forward(self, x):
            return torch.relu(x @ self.w)

    calib = _inputs((4, 8), 6, 12)
    qp = quantize(M(), calib[0], calib)
    assert [(ly["op"], ly["relu"]) for ly in qp.layers] == [("matmul", True)] and "w" in qp.scales
    _check_accuracy(qp, M(), calib, 5.0)


def test_aten_decomposition_is_bit_identical_and_has_no_cosim_q_nodes():
    m = _randomize_bn(Residual())
    calib = _inputs((1, 4, 6, 6), 4, 8)
    qp = quantize(m, calib[0], calib)
    xq = qp.quantize_inputs(calib[1])
    gm = aten_module(qp.module, xq)
    assert not any(ops.is_cosim_q(n.target) for n in gm.graph.nodes if n.op == "call_function")
    (got,) = gm(*xq)
    assert got.dtype == torch.int8 and torch.equal(got, qp.module(*xq))


def test_scales_are_fp32_and_bias_is_int32():
    import numpy as np

    qp = quantize(_mlp(), _inputs((4, 20), 1, 9)[0])
    assert all(float(np.float32(s)) == s for s in qp.scales.values())
    biases = [n for n in qp.module.graph.nodes if n.target is ops.q.linear.default]
    for n in biases:
        assert getattr(qp.module, n.args[2].target).dtype == torch.int32


def test_accuracy_failure_is_reported():
    m = _mlp()
    calib = _inputs((4, 20), 4, 10)
    qp = quantize(m, calib[0], calib)
    acc = measure(qp, m, calib, Thresholds(max_err_pct=0.0))
    assert not acc["passed"] and "of the output range" in acc["failures"][0]


# ---------------------------------------------------------------- the harness: options and the third item


def test_quant_defaults_per_config():
    gem, rv = load_soc("gemmini-dim4"), load_soc("rv64")
    assert wants_quant("auto", gem, is_mlir=False) and not wants_quant("auto", rv, is_mlir=False)
    assert not wants_quant("none", gem, is_mlir=False) and wants_quant("int8", rv, is_mlir=False)
    assert not wants_quant("auto", gem, is_mlir=True)
    with pytest.raises(CosimError, match="needs a PyTorch case"):
        wants_quant("int8", gem, is_mlir=True)


def _case(third):
    return Case("t", lambda: (nn.Identity(), (torch.ones(2),), third))


def test_third_item_is_told_apart_by_type():
    calib = [(torch.zeros(2),), (torch.ones(2),)]
    mat = materialize(_case("exact"))
    assert mat.case.tolerance == "exact" and mat.calibration is None
    mat = materialize(_case(calib))
    assert mat.calibration == calib and mat.case.tolerance == "reduction"
    mat = materialize(_case({"calibration": calib, "max_err_pct": 3, "tolerance": "elementwise"}))
    assert mat.quant_options == {"max_err_pct": 3} and mat.case.tolerance == "elementwise"
    with pytest.raises(CosimError, match="not one of"):
        materialize(_case("fuzzy"))
    with pytest.raises(CosimError, match="unknown option"):
        materialize(_case({"thresh": 1}))
    with pytest.raises(CosimError, match="third item"):
        materialize(_case(3))


# ---------------------------------------------------------------- cosim verify on gemmini-dim4 via Spike

CASE_FILE = """
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, padding=1)
        self.skip = nn.Conv2d(2, 4, 1)
        self.fc = nn.Linear(4 * 3 * 3, 5)

    def forward(self, x):
        y = torch.relu(self.conv(x) + self.skip(x))
        y = nn.functional.max_pool2d(y, 2)
        return self.fc(y.flatten(1))


def make():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    calib = [(torch.randn(1, 2, 6, 6, generator=g),) for _ in range(6)]
    return Block(), calib[0], {"calibration": calib, "top1_disagree": 1.0}
"""


@pytest.fixture(scope="module")
def case_file(tmp_path_factory) -> str:
    p = tmp_path_factory.mktemp("quant") / "qblock.py"
    p.write_text(textwrap.dedent(CASE_FILE))
    return f"{p}:make"


@pytest.fixture(scope="module")
def int8_run(case_file, tmp_path_factory):
    from harness.verify import verify

    out = tmp_path_factory.mktemp("quant-run") / "result.json"
    return verify(case_file, "gemmini-dim4", on="iss", json_path=out), out


def test_verify_quantizes_on_gemmini_and_matches_the_int8_reference(int8_run):
    result, path = int8_run
    assert result["status"] == "pass", result.get("message")
    assert result["tolerance"] == "exact"
    for o in result["outputs"].values():
        assert o["mismatches"] == 0 and o["dtype"] == "int8"
    quant = result["quant"]
    assert quant["mode"] == "int8" and quant["requested"] == "auto"
    assert [ly["op"] for ly in quant["layers"]] == ["conv2d", "conv2d", "add", "linear"]
    assert quant["accuracy"]["passed"] and quant["accuracy"]["inputs"] == 7
    assert quant["calibration_inputs"] == 6 and "input:x" in quant["scales"]
    # the scalar path (cosim_q decomposed) until the Gemmini backend takes the ops: either way said honestly
    if keeps_cosim_q(load_soc("gemmini-dim4")):
        assert result["accelerator_used"] is True and result["compile"]["strategy"] == "gemmini"
    else:
        assert result["accelerator_used"] is False and result["compile"]["strategy"] == "scalar"
        assert "decomposed" in quant["compiled"]
    assert json.loads(path.read_text())["quant"]["scheme"] == quant["scheme"]


def test_cosim_verify_says_it_quantized(int8_run, monkeypatch, capsys):
    from harness.commands.verify import run_verify

    result, _ = int8_run
    monkeypatch.setattr("harness.commands.verify.verify", lambda *a, **k: result)
    args = SimpleNamespace(
        case="x.py:make", soc="gemmini-dim4", on="iss", json=None, dump_ir=None, workdir=None, print_json=False
    )
    assert run_verify(SimpleNamespace(**vars(args), quant="auto")) == 0
    out = capsys.readouterr().out
    assert "quant: int8 (quantized by default on this Gemmini config" in out and "of its range" in out


def test_verify_quant_none_runs_float(case_file):
    from harness.verify import verify

    result = verify(case_file, "gemmini-dim4", on="iss", quant="none")
    assert result["status"] == "pass" and result["quant"]["mode"] == "none"
    assert result["tolerance"] == "reduction"
    assert all(o["dtype"] == "float32" for o in result["outputs"].values())


def test_histogram_observer_is_selectable():
    m = _mlp()
    calib = _inputs((4, 20), 8, 15)
    mm, hist = quantize(m, calib[0], calib), quantize(m, calib[0], calib, observer="histogram")
    assert set(mm.scales) == set(hist.scales) and mm.scales != hist.scales
    _check_accuracy(hist, m, _inputs((4, 20), 4, 16), 5.0)
    with pytest.raises(ValueError, match="unknown observer"):
        quantize(m, calib[0], calib, observer="percentile")


def test_cli_takes_the_quant_option():
    from harness.cli import build_parser

    args = build_parser().parse_args(["verify", "mlp", "--soc", "gemmini-dim4", "--quant", "none"])
    assert args.quant == "none"
    assert build_parser().parse_args(["verify", "mlp", "--soc", "rv32"]).quant == "auto"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["verify", "mlp", "--soc", "rv32", "--quant", "int4"])


def test_calibration_inputs_must_have_the_example_shapes():
    from harness.quant.quantize import QuantError

    with pytest.raises(QuantError, match="calibration input 1 has shapes"):
        quantize(_mlp(), _inputs((4, 20), 1, 17)[0], [*_inputs((4, 20), 1, 17), *_inputs((2, 20), 1, 18)])


def test_accuracy_failure_turns_a_bit_exact_pass_into_mismatch():
    from harness.check import apply_accuracy

    m = _mlp()
    calib = _inputs((4, 20), 4, 19)
    qp = quantize(m, calib[0], calib)
    record = {"accuracy": measure(qp, m, calib, Thresholds(max_err_pct=0.0))}
    result = {"status": "pass"}
    apply_accuracy(result, record)
    assert result["status"] == "mismatch" and result["reason"] == "accuracy" and "output range" in result["message"]
    ok = {"status": "pass"}
    apply_accuracy(ok, {"accuracy": measure(qp, m, calib)})
    assert ok == {"status": "pass"}
