"""Values every Gemmini layer plan computes with: DIM-block counts, and the MLIR attributes of the
``gemmini.plan`` report each planned layer carries (built inside the caller's ``ir.Context``)."""

from __future__ import annotations

from torch_mlir import ir


def blocks(n: int, d: int) -> int:
    """How many blocks of ``d`` cover ``n`` (a ceiling division)."""
    return -(-n // d)


def i64(v: int):
    """A signless 64-bit integer attribute."""
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), v)


def ints(vs):
    """An array attribute of 64-bit integers."""
    return ir.ArrayAttr.get([i64(v) for v in vs])
