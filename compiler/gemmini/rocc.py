"""Gemmini v0.7 RoCC instructions as MLIR: the funct numbers, field encodings and an i64 builder.

Each instruction is ``llvm.inline_asm ".insn r 0x7b, 3, funct, x0, $0, $1  # gemmini <what>"``
with rs1 and rs2 in registers (custom-3, funct3 = 3: both sources read, no rd), as Gemmini's
C macros emit them.
"""

from __future__ import annotations

import numpy as np
from torch_mlir import ir
from torch_mlir.dialects import arith, llvm, memref, scf

# The ISA's numbers have one home, sim/gemmini/isa.py (the functional model's, checked
# field by field against Gemmini v0.7); the compiler emits exactly those.
from sim.gemmini.isa import (
    ACT_RELU,
    COMPUTE_ACCUMULATED,
    COMPUTE_PRELOADED,
    CONFIG,
    CONFIG_EX,
    CONFIG_LD,
    CONFIG_ST,
    LOOP_CONV_WS,
    LOOP_WS,
    LOOP_WS_CONFIG_ADDRS_AB,
    LOOP_WS_CONFIG_ADDRS_DC,
    LOOP_WS_CONFIG_BOUNDS,
    LOOP_WS_CONFIG_STRIDES_AB,
    LOOP_WS_CONFIG_STRIDES_DC,
    MVIN,
    MVIN2,
    MVIN3,
    MVOUT,
    PRELOAD,
)
from sim.gemmini.isa import FUNCT_NAMES as NAMES
from sim.gemmini.isa import WS as DATAFLOW_WS
from sim.gemmini.params import GARBAGE_ADDR  # a preload's "no D" (zeros)

ACC = 1 << 31  # local address: the accumulator
ACC_ACCUMULATE = 3 << 30  # the accumulator, adding to what is there
ASM = ".insn r 0x7b, 3, {funct}, x0, $0, $1  # gemmini {name}"

__all__ = [
    "ACC",
    "ACC_ACCUMULATE",
    "ACT_RELU",
    "ASM",
    "COMPUTE_ACCUMULATED",
    "COMPUTE_PRELOADED",
    "CONFIG",
    "CONFIG_EX",
    "CONFIG_LD",
    "CONFIG_ST",
    "DATAFLOW_WS",
    "GARBAGE_ADDR",
    "LOOP_CONV_WS",
    "LOOP_WS",
    "LOOP_WS_CONFIG_ADDRS_AB",
    "LOOP_WS_CONFIG_ADDRS_DC",
    "LOOP_WS_CONFIG_BOUNDS",
    "LOOP_WS_CONFIG_STRIDES_AB",
    "LOOP_WS_CONFIG_STRIDES_DC",
    "MVIN",
    "MVIN2",
    "MVIN3",
    "MVOUT",
    "NAMES",
    "ONE_F32",
    "PRELOAD",
    "Builder",
    "f32_bits",
]


def f32_bits(x: float) -> int:
    return int(np.array([x], dtype=np.float32).view(np.uint32)[0])


ONE_F32 = f32_bits(1.0)


class Builder:
    """i64 arithmetic and instructions at the current insertion point."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.i64 = ir.IntegerType.get_signless(64)
        self.index = ir.IndexType.get()

    def c(self, v: int):
        return arith.ConstantOp(self.i64, ir.IntegerAttr.get(self.i64, v)).result

    def idx(self, v: int):
        return arith.ConstantOp(self.index, ir.IntegerAttr.get(self.index, v)).result

    def to_i64(self, index_value):
        return arith.IndexCastOp(self.i64, index_value).result

    def add(self, a, b):
        return arith.AddIOp(a, b).result

    def mul(self, a, b):
        return arith.MulIOp(a, b).result

    def shl(self, a, n: int):
        return arith.ShLIOp(a, self.c(n)).result

    def ors(self, *vs):
        out = vs[0]
        for v in vs[1:]:
            out = arith.OrIOp(out, v).result
        return out

    def rem(self, a, b):
        return arith.RemSIOp(a, b).result

    def minsi(self, a, b):
        return arith.MinSIOp(a, b).result

    def eq(self, a, b):
        return arith.CmpIOp(arith.CmpIPredicate.eq, a, b).result

    def select(self, cond, a, b):
        return arith.SelectOp(cond, a, b).result

    def insn(self, funct: int, rs1, rs2, what: str = "") -> None:
        rs1 = self.c(rs1) if isinstance(rs1, int) else rs1
        rs2 = self.c(rs2) if isinstance(rs2, int) else rs2
        llvm.InlineAsmOp(
            None, [rs1, rs2], ASM.format(funct=funct, name=what or NAMES[funct]), "r,r,~{memory}", has_side_effects=True
        )

    def fence(self) -> None:
        llvm.InlineAsmOp(None, [], "fence", "~{memory}", has_side_effects=True)

    def address(self, buffer):
        return self.to_i64(memref.ExtractAlignedPointerAsIndexOp(buffer).result)


def nest(b: Builder, extents: list[int], ivs: list, body) -> None:
    """``scf.for`` loops over ``extents``, outermost first; ``body`` gets the i64 induction values."""
    if not extents:
        body(ivs)
        return
    loop = scf.ForOp(b.idx(0), b.idx(extents[0]), b.idx(1))
    with ir.InsertionPoint(loop.body):
        nest(b, extents[1:], [*ivs, b.to_i64(loop.induction_variable)], body)
        scf.YieldOp([])


def local_operand(b: Builder, addr: int, cols: int, rows) -> object:
    """A mvin/mvout rs2: local address, cols, rows (an i64 value or an int)."""
    rows_v = b.shl(rows, 48) if not isinstance(rows, int) else b.c(rows << 48)
    return b.ors(rows_v, b.c((cols << 32) | addr))
