"""Multiply-accumulates a float model's conv2d and linear layers do: what Gemmini should run."""

from __future__ import annotations

import torch
from torch import nn


def conv_linear_macs(model: nn.Module, inputs: tuple) -> int:
    """Multiply-accumulates of every Conv2d and Linear of ``model`` on ``inputs`` (forward hooks)."""
    total = 0

    def hook(m, args, out):
        nonlocal total
        if isinstance(m, nn.Conv2d):
            total += out.numel() * (m.in_channels // m.groups) * m.kernel_size[0] * m.kernel_size[1]
        else:
            total += out.numel() * m.in_features

    handles = [m.register_forward_hook(hook) for m in model.modules() if isinstance(m, (nn.Conv2d, nn.Linear))]
    try:
        with torch.no_grad():
            model(*inputs)
    finally:
        for h in handles:
            h.remove()
    return total
