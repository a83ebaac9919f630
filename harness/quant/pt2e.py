"""Accepting a model quantized with PyTorch's PT2E flow (``prepare_pt2e`` / ``convert_pt2e``).

With torch 2.13 the flow lives in torchao (``torchao.quantization.pt2e``; torch.ao's
``quantize_pt2e`` is gone); torchao 0.18.0 works with it. Its converted model is the float
graph with ``quantized_decomposed.quantize_per_tensor`` / ``dequantize_per_tensor`` pairs
after each quantized activation and a ``dequantize_per_tensor`` of an int8 constant for
each weight. Gemmini has no zero points, so only symmetric int8 specs are accepted: zero
point 0, int8 (e.g. torchao's XNNPACKQuantizer with a per-tensor symmetric activation spec;
its own ``get_symmetric_quantization_config`` keeps activations asymmetric and is refused).

:func:`strip` removes the pairs and gives back the float graph, the activation scales and
the weight scales; :func:`harness.quant.quantize.quantize` then builds the same cosim_q
program as for a float model, with those scales instead of its own calibration.
Per-channel weights are refused (the cosim_q ops take one scale per tensor).
"""

from __future__ import annotations

import torch
from torch import fx

from harness.quant.ops import fp32
from harness.quant.rewrite import QuantError, attribute

_qd = None


def _ops():
    """The quantized_decomposed ops (registered by torch.ao.quantization.fx._decomposed)."""
    global _qd
    if _qd is None:
        import torch.ao.quantization.fx._decomposed  # noqa: F401  (registers torch.ops.quantized_decomposed)

        qd = torch.ops.quantized_decomposed
        _qd = (
            {qd.quantize_per_tensor.default},
            {qd.dequantize_per_tensor.default},
            {qd.quantize_per_channel.default, qd.dequantize_per_channel.default},
        )
    return _qd


def is_pt2e(gm: fx.GraphModule) -> bool:
    """Whether ``gm`` holds PT2E quantize / dequantize nodes."""
    quant, dequant, per_channel = _ops()
    every = quant | dequant | per_channel
    return any(n.op == "call_function" and n.target in every for n in gm.graph.nodes)


def _scale(n: fx.Node) -> float:
    """The scale of a quantize/dequantize_per_tensor node, checked to be symmetric int8."""
    _, scale, zero_point, qmin, qmax, dtype = n.args[:6]
    if dtype != torch.int8 or int(zero_point) != 0:
        raise QuantError(
            f"{n.name}: PT2E spec {dtype} with zero point {zero_point}: Gemmini needs symmetric int8"
            " (zero point 0); use a per-tensor symmetric activation spec"
        )
    if int(qmin) < -128 or int(qmax) > 127:
        raise QuantError(f"{n.name}: PT2E range [{qmin}, {qmax}] is wider than int8")
    return fp32(float(scale))


def strip(gm: fx.GraphModule) -> tuple[fx.GraphModule, dict[str, float], dict[str, float]]:
    """(float graph, activation node name -> scale, weight attribute -> scale) of a PT2E model."""
    quant, dequant, per_channel = _ops()
    g = fx.Graph()
    root = torch.nn.Module()
    env: dict[fx.Node, fx.Node] = {}
    act: dict[str, float] = {}
    weights: dict[str, float] = {}
    attrs = 0

    def new_attr(t: torch.Tensor, hint: str, meta: dict) -> fx.Node:
        nonlocal attrs
        attrs += 1
        name = f"{hint.replace('.', '_')}_{attrs}"
        root.register_buffer(name, t.detach().clone())
        node = g.get_attr(name)
        node.meta = dict(meta)
        return node

    for n in gm.graph.nodes:
        if n.op == "call_function" and n.target in per_channel:
            raise QuantError(f"{n.name}: per-channel PT2E quantization; the cosim_q ops take per-tensor scales")
        if n.op == "call_module" and str(n.target).startswith("_guards"):
            continue
        if n.op == "call_function" and n.target in quant:
            src = env[n.args[0]]
            act[src.name] = _scale(n)
            env[n] = src
        elif n.op == "call_function" and n.target in dequant:
            x = n.args[0]
            s = _scale(n)
            if x.op == "get_attr":  # a weight: its int8 values, dequantized, with the scale that gives them back
                w = attribute(gm, x.target)
                node = new_attr(w.to(torch.float32) * s, x.target, n.meta)
                weights[node.target] = s
                env[n] = node
            elif x in env:
                env[n] = env[x]
            else:
                raise QuantError(f"{n.name}: a dequantize of {x.name}, which is no quantize or weight")
        elif n.op == "get_attr":
            env[n] = (
                new_attr(attribute(gm, n.target), n.target, n.meta)
                if isinstance(attribute(gm, n.target), torch.Tensor)
                else None
            )
        else:
            env[n] = g.node_copy(n, lambda a: env[a])
    out = fx.GraphModule(root, g, class_name="PT2EFloat")
    out.graph.eliminate_dead_code()
    out.recompile()
    return out, act, weights
