"""A single-head-per-slice self-attention block in plain torch.nn: q/k/v/out linears and the two
batched matmuls (scores and weighted values) are int8 layers on Gemmini, the softmax runs on the core."""

from __future__ import annotations

import math

import torch
from torch import nn


class AttentionBlock(nn.Module):
    """``forward(x)``: x [batch, seq, dim] -> [batch, seq, dim]; ``heads`` heads folded into the batch."""

    def __init__(self, dim: int = 32, heads: int = 2) -> None:
        super().__init__()
        self.heads = heads
        self.q, self.k, self.v, self.out = (nn.Linear(dim, dim) for _ in range(4))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, s, d = x.shape
        h, hd = self.heads, d // self.heads

        def split(t: torch.Tensor) -> torch.Tensor:  # [b, s, d] -> [b*h, s, hd]
            return t.reshape(b, s, h, hd).permute(0, 2, 1, 3).reshape(b * h, s, hd)

        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        scores = torch.bmm(q, k.transpose(1, 2)) * (1.0 / math.sqrt(hd))
        ctx = torch.bmm(torch.softmax(scores, dim=-1), v)
        return self.out(ctx.reshape(b, h, s, hd).permute(0, 2, 1, 3).reshape(b, s, d))
