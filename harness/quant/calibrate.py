"""Calibration: run the float graph on the calibration inputs and observe every float activation.

Observers are torch.ao.quantization's (MinMaxObserver or HistogramObserver), per-tensor
symmetric int8 with the range [-127, 127], so a scale is max|x| / 127 (MinMax) and 0 is
exactly representable; -128 stays available to saturation only.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
import torch
from torch import fx

Q_MIN, Q_MAX = -127, 127
OBSERVERS = ("minmax", "histogram")
# A tensor that is all zeros still needs a usable scale: the observers' own floor (eps).
_MIN_SCALE = float(np.finfo(np.float32).eps)


def make_observer(kind: str = "minmax") -> torch.nn.Module:
    """A per-tensor symmetric int8 observer of torch.ao.quantization."""
    with warnings.catch_warnings():  # torch.ao.quantization announces its move to torchao on use
        warnings.simplefilter("ignore")
        from torch.ao.quantization.observer import HistogramObserver, MinMaxObserver

        cls = {"minmax": MinMaxObserver, "histogram": HistogramObserver}.get(kind)
        if cls is None:
            raise ValueError(f"unknown observer {kind!r}; use one of {', '.join(OBSERVERS)}")
        return cls(dtype=torch.qint8, qscheme=torch.per_tensor_symmetric, quant_min=Q_MIN, quant_max=Q_MAX)


def observer_scale(obs: torch.nn.Module) -> float:
    """The observer's scale, rounded to fp32 (every scale the quantizer emits is an fp32 value)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scale, _ = obs.calculate_qparams()
    return float(np.float32(max(float(scale), _MIN_SCALE)))


def tensor_scale(t: torch.Tensor) -> float:
    """The symmetric scale of a constant tensor (a weight): max|t| / 127 in fp32."""
    obs = make_observer("minmax")
    obs(t.detach().float())
    return observer_scale(obs)


class _Recorder(fx.Interpreter):
    """Runs the graph and feeds every float32 tensor a node produces to that node's observer."""

    def __init__(self, gm: fx.GraphModule, kind: str) -> None:
        super().__init__(gm)
        self.kind = kind
        self.observers: dict[str, torch.nn.Module] = {}

    def run_node(self, n: fx.Node):
        out = super().run_node(n)
        if n.op in ("placeholder", "call_function", "call_method") and isinstance(out, torch.Tensor):
            if out.dtype == torch.float32:
                obs = self.observers.get(n.name)
                if obs is None:
                    obs = self.observers[n.name] = make_observer(self.kind)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    obs(out.detach())
        return out


def calibrate(gm: fx.GraphModule, inputs: Sequence[tuple], kind: str = "minmax") -> dict[str, float]:
    """Node name -> fp32 scale of every float32 activation of ``gm`` over ``inputs``."""
    rec = _Recorder(gm, kind)
    with torch.no_grad():
        for args in inputs:
            rec.run(*args)
    return {name: observer_scale(obs) for name, obs in rec.observers.items()}
