"""A small BERT encoder in plain torch.nn, written the way model libraries write theirs.

What it exercises on purpose, because library models do it and the frontend must take it: position and token
type ids kept as non-persistent buffers and sliced to the sequence length, int64 ids feeding embeddings, the
attention mask built inside ``forward`` from an int64 0/1 tensor and passed to ``scaled_dot_product_attention``,
``view``/``transpose`` head splitting, exact GELU and LayerNorm with eps 1e-12.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F


class Embeddings(nn.Module):
    def __init__(self, vocab: int, hidden: int, max_positions: int, type_vocab: int) -> None:
        super().__init__()
        self.word = nn.Embedding(vocab, hidden)
        self.position = nn.Embedding(max_positions, hidden)
        self.token_type = nn.Embedding(type_vocab, hidden)
        self.norm = nn.LayerNorm(hidden, eps=1e-12)
        self.register_buffer("position_ids", torch.arange(max_positions).expand((1, -1)), persistent=False)
        self.register_buffer("token_type_ids", torch.zeros((1, max_positions), dtype=torch.long), persistent=False)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        n = ids.shape[1]
        types = self.token_type_ids[:, :n].expand(ids.shape[0], n)
        return self.norm(self.word(ids) + self.position(self.position_ids[:, :n]) + self.token_type(types))


class EncoderLayer(nn.Module):
    def __init__(self, hidden: int, heads: int, intermediate: int) -> None:
        super().__init__()
        self.heads = heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.attn_out = nn.Linear(hidden, hidden)
        self.attn_norm = nn.LayerNorm(hidden, eps=1e-12)
        self.intermediate = nn.Linear(hidden, intermediate)
        self.output = nn.Linear(intermediate, hidden)
        self.out_norm = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        b, s, d = x.shape

        def heads(t: torch.Tensor) -> torch.Tensor:
            return t.view(b, s, self.heads, d // self.heads).transpose(1, 2)

        a = F.scaled_dot_product_attention(heads(self.query(x)), heads(self.key(x)), heads(self.value(x)), mask)
        x = self.attn_norm(x + self.attn_out(a.transpose(1, 2).reshape(b, s, d)))
        return self.out_norm(x + self.output(F.gelu(self.intermediate(x))))


class Bert(nn.Module):
    """``forward(ids, attention_mask)``: int64 [batch, seq] each; returns the last hidden state [batch, seq, hidden]."""

    def __init__(
        self, vocab: int = 128, hidden: int = 64, heads: int = 4, layers: int = 2, intermediate: int = 128,
        max_positions: int = 32,
    ) -> None:  # fmt: skip
        super().__init__()
        self.embeddings = Embeddings(vocab, hidden, max_positions, 2)
        self.layers = nn.ModuleList(EncoderLayer(hidden, heads, intermediate) for _ in range(layers))

    def forward(self, ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        # padding positions get the most negative float added to their scores (as BERT implementations do)
        keep = attention_mask[:, None, None, :].to(torch.float32)
        mask = (1.0 - keep) * torch.finfo(torch.float32).min
        x = self.embeddings(ids)
        for layer in self.layers:
            x = layer(x, mask)
        return x


def example_inputs(vocab: int = 128, seq: int = 16, padding: int = 4, seed: int = 0) -> tuple[torch.Tensor, ...]:
    """Random token ids and a mask whose last ``padding`` positions are padding."""
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, vocab, (1, seq), generator=g)
    mask = torch.ones(1, seq, dtype=torch.long)
    mask[0, seq - padding :] = 0
    return ids, mask
