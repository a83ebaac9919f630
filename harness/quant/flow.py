"""The harness side of quantization: which cases quantize, and a float case turned into its int8 case.

``cosim verify CASE --soc S --quant auto|int8|none``: ``auto`` (the default) quantizes PyTorch
cases on Gemmini configs and nothing elsewhere; ``none`` runs the float model on the core.

A quantized case compiles ``forward(int8 inputs) -> int8 outputs``; the host quantizes the
example inputs, and the int8 program run eagerly on them is the reference the device must
match bit for bit. Accuracy is the int8 program (quantize -> int8 -> dequantize, on the host)
against the float32 module over the example and calibration inputs (:mod:`harness.quant.accuracy`).

Until a Gemmini backend compiles cosim_q ops (it sets ``compiler.gemmini.COMPILES_COSIM_Q``),
every cosim_q node is decomposed into the aten integer ops of its reference and the program
compiles for the RV64 core through the scalar path.
"""

from __future__ import annotations

import contextlib
import time
import warnings
from collections.abc import Iterator
from dataclasses import replace

import torch

from harness.errors import CosimError
from harness.quant import keeps_cosim_q
from harness.quant.accuracy import Thresholds, measure
from harness.quant.quantize import QuantError, aten_module, quantize

# int8 steps an output of a program with float ops on the core may end from the reference (the case
# option ``float_op_steps``; harness.check.accept_float_op_steps says when they are accepted)
DEFAULT_FLOAT_OP_STEPS = 2


def float_op_steps(name: str, opts: dict) -> int:
    """The case's ``float_op_steps`` option: a whole number of int8 steps, 0 or more."""
    steps = opts.get("float_op_steps", DEFAULT_FLOAT_OP_STEPS)
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
        raise CosimError(f"{name}: float_op_steps must be a whole number of int8 steps, 0 or more (got {steps!r})")
    return steps


def quantize_case(mat, soc):
    """``mat`` (a float case, :class:`harness.cases.Materialized`) as its int8 case.

    Returns the new Materialized (fn: the int8 program, inputs: int8, reference: int8 outputs)
    and result.json's ``quant`` record, with the accuracy figures."""
    t0 = time.perf_counter()
    opts = mat.quant_options
    calibration = mat.calibration or [mat.inputs]
    steps = float_op_steps(mat.case.name, opts)
    dataflow = opts.get("dataflow", "auto")
    if dataflow not in ("auto", "WS", "OS"):
        raise CosimError(f"{mat.case.name}: dataflow {dataflow!r}: use auto (the plan's estimate), WS or OS")
    try:
        qp = quantize(mat.fn, mat.inputs, calibration, observer=opts.get("observer", "minmax"))
    except QuantError as e:
        raise CosimError(f"{mat.case.name}: quantization failed: {e}") from e
    q_inputs = qp.quantize_inputs(mat.inputs)
    with torch.no_grad():
        outs = qp.module(*q_inputs)
    outs = [outs] if isinstance(outs, torch.Tensor) else list(outs)
    reference = {f"out{i}": o.contiguous().numpy().copy() for i, o in enumerate(outs)}
    thresholds = Thresholds(
        max_err_pct=float(opts.get("max_err_pct", Thresholds.max_err_pct)),
        top1_disagree=float(opts.get("top1_disagree", Thresholds.top1_disagree)),
        classifier=opts.get("classifier"),
    )
    evaluated = [tuple(mat.inputs), *(tuple(c) for c in mat.calibration or [])]
    accuracy = measure(qp, mat.fn, evaluated, thresholds)
    fn = MetaPreserving(qp.module) if keeps_cosim_q(soc) else aten_module(qp.module, q_inputs)
    record = {
        "mode": "int8",
        **qp.record(),
        "calibration_inputs": len(calibration),
        "observer": opts.get("observer", "minmax"),
        "compiled": "cosim_q ops"
        if isinstance(fn, MetaPreserving)
        else "cosim_q ops decomposed into aten integer ops (scalar path)",
        "reference": "the int8 program run eagerly on the host (compared bit for bit)",
        "accuracy": accuracy,
        "float_op_steps": steps,
        "dataflow": dataflow,
        "seconds": round(time.perf_counter() - t0, 3),
    }
    return replace(mat, fn=fn, inputs=q_inputs, reference=reference), record


class MetaPreserving(torch.nn.Module):
    """The int8 GraphModule run node by node (``fx.Interpreter``) under ``preserve_node_meta``, so
    torch.export keeps each node's layer name and source line (:func:`harness.quant.rewrite.tag_nodes`)
    when the importer calls it inside its own wrapper (it does so by itself only for a root
    GraphModule). The layer calls and profile regions are named from them."""

    def __init__(self, gm: torch.fx.GraphModule) -> None:
        super().__init__()
        self.gm = gm

    def forward(self, *args):
        with torch.fx.traceback.preserve_node_meta():
            return torch.fx.Interpreter(self.gm).run(*args)


@contextlib.contextmanager
def quiet_torch_warnings() -> Iterator[None]:
    """Hide torch's deprecation notes about its own internals (the pytree specs torch.export copies)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=FutureWarning, message=r".*treespec.*")
        yield
