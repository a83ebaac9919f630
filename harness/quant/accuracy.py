"""Accuracy of an int8 program against its float32 module.

Figures per output, over every evaluated input (the example inputs and the calibration inputs):

- ``max_abs_err_pct``: max |dequantized int8 output - float32 output| as a percentage of the
  float32 output's range (max - min over all evaluated inputs);
- for classifiers (a 2-D ``[N, C]`` output, C >= 2, produced by a linear layer, or any output
  a case marks ``classifier``): ``top1_agreement``, the fraction of rows whose argmax agrees.

A case fails (``mismatch``, reason ``accuracy``) when an output's error exceeds
``max_err_pct`` (default 10 %) or more than ``top1_disagree`` (default 1 in 10) of a
classifier's rows disagree. Both thresholds are adjustable per case.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch

from harness.quant.quantize import QuantizedProgram

MAX_ERR_PCT = 10.0
TOP1_DISAGREE = 0.1


@dataclass
class Thresholds:
    max_err_pct: float = MAX_ERR_PCT
    top1_disagree: float = TOP1_DISAGREE
    classifier: bool | None = None  # None: decide per output (module docstring)

    def to_dict(self) -> dict:
        return {"max_err_pct": self.max_err_pct, "top1_disagree": self.top1_disagree, "classifier": self.classifier}


def _outputs(out) -> list[torch.Tensor]:
    return [out] if isinstance(out, torch.Tensor) else list(out)


def measure(
    qp: QuantizedProgram,
    model: Callable,
    inputs: Sequence[tuple],
    thresholds: Thresholds | None = None,
) -> dict:
    """Accuracy figures of ``qp`` against ``model`` over ``inputs`` and whether they pass."""
    th = thresholds or Thresholds()
    floats: list[list[torch.Tensor]] = []
    quants: list[list[torch.Tensor]] = []
    with torch.no_grad():
        for args in inputs:
            floats.append([o.float() for o in _outputs(model(*args))])
            quants.append(qp.run_float(args))
    per_output = {}
    failures = []
    for i in range(len(floats[0])):
        ref = torch.cat([f[i].reshape(-1) for f in floats])
        got = torch.cat([g[i].reshape(-1) for g in quants])
        rng = float(ref.max() - ref.min()) if ref.numel() else 0.0
        err = float((got - ref).abs().max()) if ref.numel() else 0.0
        pct = 100.0 * err / rng if rng > 0 else (0.0 if err == 0 else float("inf"))
        fig: dict = {"max_abs_err": round(err, 6), "range": round(rng, 6), "max_abs_err_pct": round(pct, 3)}
        if pct > th.max_err_pct:
            failures.append(f"out{i}: max abs error {pct:.2f}% of the output range (limit {th.max_err_pct}%)")
        shape = floats[0][i].shape
        is_cls = th.classifier if th.classifier is not None else qp.output_ops[i] == "linear"
        if len(shape) == 2 and shape[-1] >= 2:
            ref_top = torch.cat([f[i].argmax(-1) for f in floats])
            got_top = torch.cat([g[i].argmax(-1) for g in quants])
            agree = float((ref_top == got_top).float().mean())
            fig["top1_agreement"] = round(agree, 4)
            fig["rows"] = int(ref_top.numel())
            fig["classifier"] = is_cls
            if is_cls and 1.0 - agree > th.top1_disagree + 1e-12:
                failures.append(
                    f"out{i}: top-1 differs on {int(round((1 - agree) * ref_top.numel()))} of {ref_top.numel()} rows"
                    f" (limit {th.top1_disagree:g})"
                )
        per_output[f"out{i}"] = fig
    return {
        "inputs": len(inputs),
        "outputs": per_output,
        "thresholds": th.to_dict(),
        "passed": not failures,
        "failures": failures,
    }
