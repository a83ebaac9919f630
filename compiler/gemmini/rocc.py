"""Gemmini v0.7 RoCC instructions as MLIR: the funct numbers, field encodings and an i64 builder.

Each instruction is ``llvm.inline_asm ".insn r 0x7b, 3, funct, x0, $0, $1  # gemmini <what>"``
with rs1 and rs2 in registers (custom-3, funct3 = 3: both sources read, no rd), as Gemmini's
C macros emit them.
"""

from __future__ import annotations

import numpy as np
from torch_mlir import ir
from torch_mlir.dialects import arith, llvm, memref, scf

# Gemmini v0.7 funct7 numbers (opcode custom-3) and config_* selectors in rs1[1:0].
CONFIG, MVIN2, MVIN, MVOUT = 0, 1, 2, 3
LOOP_WS, LOOP_WS_CONFIG_BOUNDS, LOOP_WS_CONFIG_ADDRS_AB = 8, 9, 10
LOOP_WS_CONFIG_ADDRS_DC, LOOP_WS_CONFIG_STRIDES_AB, LOOP_WS_CONFIG_STRIDES_DC = 11, 12, 13
COMPUTE_PRELOADED, COMPUTE_ACCUMULATED, PRELOAD = 4, 5, 6
MVIN3 = 14
LOOP_CONV_WS = 15  # its six configs are 16..21
CONFIG_EX, CONFIG_LD, CONFIG_ST = 0, 1, 2
DATAFLOW_WS = 1
ACT_RELU = 1
ACC = 1 << 31  # local address: the accumulator
ACC_ACCUMULATE = 3 << 30  # the accumulator, adding to what is there
GARBAGE_ADDR = 0xFFFF_FFFF  # a preload's "no D" (zeros)
ASM = ".insn r 0x7b, 3, {funct}, x0, $0, $1  # gemmini {name}"
NAMES = {
    CONFIG: "config",
    MVIN: "mvin",
    MVIN2: "mvin2",
    MVOUT: "mvout",
    MVIN3: "mvin3",
    PRELOAD: "preload",
    COMPUTE_PRELOADED: "compute_preloaded",
    COMPUTE_ACCUMULATED: "compute_accumulated",
    LOOP_WS: "loop_ws",
    LOOP_WS_CONFIG_BOUNDS: "loop_ws_config_bounds",
    LOOP_WS_CONFIG_ADDRS_AB: "loop_ws_config_addrs_ab",
    LOOP_WS_CONFIG_ADDRS_DC: "loop_ws_config_addrs_dc",
    LOOP_WS_CONFIG_STRIDES_AB: "loop_ws_config_strides_ab",
    LOOP_WS_CONFIG_STRIDES_DC: "loop_ws_config_strides_dc",
}


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
