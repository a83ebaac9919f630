"""The row stream of ``gemmini_array`` as Python data, and how it travels to the cocotb driver.

A :class:`Beat` is one cycle of the array's input (``in_*`` ports), an :class:`OutRow` one cycle of
its output with ``out_valid_o`` high. Rows are packed the way the test bench's flat ports hold them:
element ``i`` of a row at bits ``[i*w +: w]`` (int8 in, 20-bit out, two's complement).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

IN_BITS = 8
OUT_BITS = 20
TAG_W = 16  # gemmini_array_tb's TagW
NO_TAG = (1 << TAG_W) - 1  # a beat whose output carries no result the test checks


def pack(values: Sequence[int], bits: int) -> int:
    m = (1 << bits) - 1
    word = 0
    for i, v in enumerate(values):
        word |= (int(v) & m) << (i * bits)
    return word


def unpack(word: int, bits: int, n: int) -> np.ndarray:
    m, half = (1 << bits) - 1, 1 << (bits - 1)
    return np.array([((word >> (i * bits)) & m ^ half) - half for i in range(n)], dtype=np.int64)


@dataclass
class Beat:
    """One input cycle. ``valid = False`` is a bubble (the other fields are then don't-cares)."""

    a: Sequence[int]
    b: Sequence[int]
    d: Sequence[int]
    valid: bool = True
    flip: bool = False  # read on a tile's first beat
    ws: bool = True
    shift: int = 0
    tag: int = NO_TAG

    def encode(self) -> list[int]:
        return [
            int(self.valid),
            int(self.flip),
            int(self.ws),
            self.shift,
            self.tag,
            pack(self.a, IN_BITS),
            pack(self.b, IN_BITS),
            pack(self.d, IN_BITS),
        ]


def bubble(dim: int) -> Beat:
    z = [0] * dim
    return Beat(z, z, z, valid=False)


def tile(
    a_rows: np.ndarray,
    b_rows: np.ndarray,
    d_rows: np.ndarray,
    *,
    ws: bool,
    flip: bool,
    shift: int = 0,
    tag: int = NO_TAG,
) -> list[Beat]:
    """The Dim beats of one tile: beat k carries a_rows[k], b_rows[k], d_rows[k] (gemmini_array.sv's contract)."""
    dim = len(a_rows)
    return [
        Beat(list(a_rows[k]), list(b_rows[k]), list(d_rows[k]), flip=flip, ws=ws, shift=shift, tag=tag)
        for k in range(dim)
    ]


@dataclass
class OutRow:
    cycle: int
    row: int
    flip: bool
    ws: bool
    tag: int
    c: np.ndarray


@dataclass
class StreamRun:
    """What the driver saw: every output row, the cycle each valid beat went in, the cycles simulated."""

    dim: int
    rows: list[OutRow] = field(default_factory=list)
    in_cycles: list[int] = field(default_factory=list)
    cycles: int = 0
    wall_s: float = 0.0


def write_stimulus(path: Path, dim: int, beats: Sequence[Beat], drain: int) -> None:
    path.write_text(json.dumps({"dim": dim, "drain": drain, "beats": [b.encode() for b in beats]}))


def read_result(path: Path, dim: int) -> StreamRun:
    raw = json.loads(path.read_text())
    rows = [
        OutRow(cycle, row, bool(flip), bool(ws), tag, unpack(int(c), OUT_BITS, dim))
        for cycle, row, flip, ws, tag, c in raw["rows"]
    ]
    return StreamRun(dim=dim, rows=rows, in_cycles=raw["in_cycles"], cycles=raw["cycles"])


def describe(run: StreamRun) -> str:
    return json.dumps({k: v for k, v in asdict(run).items() if k not in ("rows", "in_cycles")})
