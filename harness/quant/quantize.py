"""A float32 module + calibration inputs -> an int8 program made of cosim_q ops (:mod:`harness.quant.ops`).

    qp = quantize(model, example_inputs, calibration=[(x1,), (x2,)])
    y_q = qp.module(*qp.quantize_inputs(example_inputs))   # int8 in, int8 out: the reference
    y = qp.dequantize_outputs(y_q)                          # float32, to compare with model(...)

The float model is exported (``torch.export``) and its aten graph rewritten node by node:

- conv2d, linear, mm/matmul (2-D), bmm (3-D) and same-shape adds of two activations become
  cosim_q ops; BatchNorm (eval) after a conv folds into its weights and bias, and a ReLU
  that is the only user of a conv / linear / matmul / add folds into the op's ``relu`` flag;
- max pooling, ReLU and shape ops (reshape, view, flatten, permute, transpose, squeeze, ...)
  run on int8 as they are and keep their input's scale;
- every other op (softmax, layer_norm, gelu, average pooling, elementwise arithmetic, ...)
  stays float32, with cosim_q.dequantize before and cosim_q.quantize after.

Scheme: per-tensor symmetric int8 (zero point 0, range [-127, 127]) for weights and
activations, scales from torch.ao.quantization observers over the calibration inputs;
int32 bias quantized with scale x_scale * w_scale; requantization scale
x_scale * w_scale / out_scale (fp32). Inputs and outputs of the int8 program are int8
tensors with ``input_scales`` / ``output_scales``; integer (non-float) inputs pass unchanged.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import torch
from torch import fx

from harness.quant import ops
from harness.quant.calibrate import calibrate
from harness.quant.rewrite import QuantError, Rewriter

SCHEME = "int8 per-tensor symmetric (weights and activations), int32 bias, Gemmini requantization"


@dataclass
class QuantizedProgram:
    """The int8 program and what the harness needs to feed it and read it."""

    module: fx.GraphModule  # int8 inputs -> int8 outputs, cosim_q ops
    input_scales: list[float | None]  # None: a non-float input, passed unchanged
    output_scales: list[float]
    single_output: bool
    scales: dict[str, float] = field(default_factory=dict)  # per tensor: weights, activations
    layers: list[dict] = field(default_factory=list)  # each cosim_q op: name, op, module path, scale
    float_ops: list[str] = field(default_factory=list)  # aten ops left in float32
    output_ops: list[str] = field(default_factory=list)  # per output: the cosim_q op producing it, or "float"
    scheme: str = SCHEME

    def quantize_inputs(self, inputs: Sequence[torch.Tensor]) -> tuple[torch.Tensor, ...]:
        return tuple(
            x if s is None else ops.quantize_ref(x.float(), s) for x, s in zip(inputs, self.input_scales, strict=True)
        )

    def dequantize_outputs(self, outs) -> list[torch.Tensor]:
        outs = [outs] if isinstance(outs, torch.Tensor) else list(outs)
        return [ops.dequantize_ref(o, s) for o, s in zip(outs, self.output_scales, strict=True)]

    def run_float(self, inputs: Sequence[torch.Tensor]) -> list[torch.Tensor]:
        """quantize -> int8 program -> dequantize, on the host."""
        with torch.no_grad():
            return self.dequantize_outputs(self.module(*self.quantize_inputs(inputs)))

    def record(self) -> dict:
        """result.json's ``quant`` key (without the accuracy figures)."""
        return {
            "scheme": self.scheme,
            "input_scales": self.input_scales,
            "output_scales": self.output_scales,
            "scales": self.scales,
            "layers": self.layers,
            "float_ops": self.float_ops,
            "output_ops": self.output_ops,
        }


def export_float(model: Callable, example_inputs: tuple) -> fx.GraphModule:
    """The float model as an aten FX graph (``torch.export``, unlifted: weights as attributes)."""
    wrapped = model if isinstance(model, torch.nn.Module) else _CallableModule(model)
    wrapped.eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ep = torch.export.export(wrapped, tuple(example_inputs), strict=False)
        return ep.module()


class _CallableModule(torch.nn.Module):
    def __init__(self, fn: Callable) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


def quantize(
    model: Callable,
    example_inputs: Sequence[torch.Tensor],
    calibration: Sequence[tuple] | None = None,
    *,
    observer: str = "minmax",
) -> QuantizedProgram:
    """The int8 program of ``model`` (module docstring); ``calibration`` defaults to the example inputs.

    ``model`` may also be a PT2E-quantized GraphModule (``convert_pt2e``, symmetric int8): its scales
    are used as they are (:mod:`harness.quant.pt2e`), the calibration inputs only for tensors it left
    without one."""
    from harness.quant import pt2e

    example_inputs = tuple(example_inputs)
    calib = [tuple(c) if isinstance(c, (tuple, list)) else (c,) for c in (calibration or [example_inputs])]
    want = [tuple(x.shape) for x in example_inputs]
    for i, c in enumerate(calib):
        got = [tuple(x.shape) if isinstance(x, torch.Tensor) else None for x in c]
        if got != want:  # the exported graph is specialized to the example's shapes
            raise QuantError(f"calibration input {i} has shapes {got}; they must be the example inputs' {want}")
    weight_scales: dict[str, float] = {}
    if isinstance(model, fx.GraphModule) and pt2e.is_pt2e(model):
        gm, fixed, weight_scales = pt2e.strip(model)
        act = {**calibrate(gm, calib, observer), **fixed}
    else:
        if isinstance(model, torch.nn.Module):
            model.eval()
        gm = export_float(model, example_inputs)
        act = calibrate(gm, calib, observer)
    b = Rewriter(gm, act, weight_scales)
    input_scales, outs = b.build([x.dtype for x in example_inputs])
    out_nodes, out_scales = [], []
    for o in outs:
        qn, s = b.as_int8(o)
        out_nodes.append(qn)
        out_scales.append(s)
    with torch.no_grad():
        single = isinstance(model(*example_inputs), torch.Tensor)
    b.g.output(out_nodes[0] if single else tuple(out_nodes))
    b.g.eliminate_dead_code()
    module = fx.GraphModule(b.root, b.g, class_name="QuantizedForward")
    for i, s in enumerate(out_scales):
        b.scales[f"output:{i}"] = s
    return QuantizedProgram(
        module,
        input_scales,
        out_scales,
        single,
        b.scales,
        b.layers,
        sorted(set(b.float_ops)),
        [b.producer.get(o, "float") for o in outs],
    )


def aten_module(qp_module: torch.nn.Module, int8_inputs: tuple) -> fx.GraphModule:
    """The int8 program with every cosim_q op decomposed into aten integer ops (:func:`ops.decompose`):
    what the existing RV64/RVV compiler compiles. A plain GraphModule (the importer sets eval mode)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ep = torch.export.export(qp_module, tuple(int8_inputs), strict=False)
        dm = ops.decompose(ep).module()
    gm = fx.GraphModule(dm, dm.graph)
    # Flat arguments and a tuple of results: the unlifted module's pytree codegen carries specs whose
    # copies make torch warn, and the importer flattens anyway.
    gm.graph._codegen = fx.graph.CodeGen()
    gm.recompile()
    return gm
