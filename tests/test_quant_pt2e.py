"""A PT2E-quantized model (the graph convert_pt2e produces: quantized_decomposed quantize/dequantize
pairs, int8 weight constants) is accepted with its own scales. The graph is written by hand here with
torch's quantized_decomposed ops, so the test needs no torchao; README.md says how torchao's flow was run."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.ao.quantization.fx._decomposed  # noqa: F401  (registers torch.ops.quantized_decomposed)
from torch import nn

from harness.quant import ops, pt2e
from harness.quant.quantize import QuantError, quantize

qd = torch.ops.quantized_decomposed
S_IN, S_W1, S_H, S_W2, S_OUT = 0.025, 0.004, 0.02, 0.003, 0.01


def qdq(x, s, zp=0):
    return qd.dequantize_per_tensor(
        qd.quantize_per_tensor(x, s, zp, -127, 127, torch.int8), s, zp, -127, 127, torch.int8
    )


class HandPT2E(nn.Module):
    """Linear -> ReLU -> Linear as convert_pt2e leaves it (symmetric int8, per-tensor)."""

    def __init__(self, zp: int = 0) -> None:
        super().__init__()
        g = torch.Generator().manual_seed(3)
        self.register_buffer("w1_q", torch.randint(-127, 128, (12, 8), generator=g, dtype=torch.int8))
        self.register_buffer("w2_q", torch.randint(-127, 128, (5, 12), generator=g, dtype=torch.int8))
        self.b1 = nn.Parameter(torch.randn(12, generator=g) * 0.1)
        self.b2 = nn.Parameter(torch.randn(5, generator=g) * 0.1)
        self.zp = zp

    def forward(self, x):
        w1 = qd.dequantize_per_tensor(self.w1_q, S_W1, 0, -127, 127, torch.int8)
        w2 = qd.dequantize_per_tensor(self.w2_q, S_W2, 0, -127, 127, torch.int8)
        h = qdq(torch.relu(nn.functional.linear(qdq(x, S_IN, self.zp), w1, self.b1)), S_H)
        return qdq(nn.functional.linear(h, w2, self.b2), S_OUT)


def _converted(zp: int = 0):
    x = torch.randn(3, 8, generator=torch.Generator().manual_seed(4))
    return torch.export.export(HandPT2E(zp).eval(), (x,)).module(), x


def test_pt2e_model_keeps_its_scales_and_int8_weights():
    gm, x = _converted()
    assert pt2e.is_pt2e(gm)
    qp = quantize(gm, (x,))
    linears = [n for n in qp.module.graph.nodes if n.target is ops.q.linear.default]
    assert len(linears) == 2 and [ly["relu"] for ly in qp.layers] == [True, False]
    assert qp.input_scales == [ops.fp32(S_IN)] and qp.output_scales == [ops.fp32(S_OUT)]
    # the int8 weights are the model's own, and the requantization scales come from its scales
    w1 = getattr(qp.module, linears[0].args[1].target)
    assert torch.equal(w1, gm.w1_q)
    f = ops.fp32
    assert linears[0].args[3] == f(f(S_IN) * f(S_W1) / f(S_H))
    assert linears[1].args[3] == f(f(S_H) * f(S_W2) / f(S_OUT))


def test_pt2e_int8_program_is_within_one_step_of_the_pt2e_model():
    gm, x = _converted()
    qp = quantize(gm, (x,))
    g = torch.Generator().manual_seed(5)
    steps = []
    for _ in range(6):
        xs = torch.randn(3, 8, generator=g)  # the exported model is specialized to its example's shape
        (got,) = qp.run_float((xs,))
        want = gm(xs)
        want = want[0] if isinstance(want, (tuple, list)) else want
        steps.append(np.abs((got - want).detach().numpy()) / S_OUT)
    # PT2E's model adds a float bias to float products; the int8 program an int32 bias: at most 1 step apart
    assert np.max(steps) <= 1.0 + 1e-4


def test_asymmetric_pt2e_is_refused():
    gm, x = _converted(zp=3)
    with pytest.raises(QuantError, match="zero point"):
        quantize(gm, (x,))
