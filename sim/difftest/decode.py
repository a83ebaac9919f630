"""Just enough RV32/RV64 IMF + Zicsr decoding for the difftest.

The comparator needs to know, per instruction, which registers it reads and
writes, whether it reads a CSR (and which), and whether it is a load or store, so
it can tell "this value legitimately differs" (a cycle-counter read, an MMIO load,
or anything computed from one) from a real divergence. Instructions outside the
scalar ISA decode to "reads nothing tracked", which only weakens that tracking.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sim.difftest.record import CSR_FFLAGS, CSR_FRM, RegKey

OP_LOAD, OP_LOAD_FP, OP_MISC_MEM, OP_IMM, OP_AUIPC, OP_IMM_32 = 0x03, 0x07, 0x0F, 0x13, 0x17, 0x1B
OP_STORE, OP_STORE_FP, OP_OP, OP_LUI, OP_OP_32 = 0x23, 0x27, 0x33, 0x37, 0x3B
OP_MADD, OP_MSUB, OP_NMSUB, OP_NMADD, OP_FP = 0x43, 0x47, 0x4B, 0x4F, 0x53
OP_BRANCH, OP_JALR, OP_JAL, OP_SYSTEM = 0x63, 0x67, 0x6F, 0x73

# CSRs whose reads legitimately differ between RTL and Spike (time and counters).
VOLATILE_CSRS = frozenset({0xB00, 0xB02, 0xB80, 0xB82, 0xC00, 0xC01, 0xC02, 0xC80, 0xC81, 0xC82})

_FP_FUNCT7_TO_X = {0x60, 0x70, 0x50}  # fcvt.w.s & co, fmv.x.w/fclass, compares
_FP_FUNCT7_FROM_X = {0x68, 0x78}  # fcvt.s.w & co, fmv.w.x
_FP_UNARY = {0x2C, 0x60, 0x70, 0x68, 0x78}  # only rs1 is a source
_FP_NO_ROUNDING = {0x10, 0x14, 0x50, 0x70, 0x78}  # funct3 is not a rounding mode


@dataclass(frozen=True)
class Decoded:
    sources: tuple[RegKey, ...]  # registers and CSRs read (("c", addr) for CSRs)
    dest: RegKey | None  # the x or f register written, if any
    csr: int | None = None  # CSR addressed by a Zicsr instruction
    csr_overwrites: bool = False  # csrrw/csrrwi: the new CSR value does not depend on the old
    is_load: bool = False
    is_store: bool = False
    store_data: RegKey | None = None
    address_base: RegKey | None = None
    known: bool = True


@lru_cache(maxsize=8192)  # programs retire the same few words over and over
def decode(insn: int) -> Decoded:
    op = insn & 0x7F
    rd = (insn >> 7) & 31
    f3 = (insn >> 12) & 7
    rs1 = (insn >> 15) & 31
    rs2 = (insn >> 20) & 31
    f7 = insn >> 25
    x_rd = ("x", rd) if rd else None

    def xs(*regs: int) -> tuple[RegKey, ...]:
        return tuple(("x", r) for r in regs if r)

    if op in (OP_LUI, OP_AUIPC, OP_JAL):
        return Decoded((), x_rd)
    if op == OP_JALR:
        return Decoded(xs(rs1), x_rd)
    if op == OP_BRANCH:
        return Decoded(xs(rs1, rs2), None)
    if op in (OP_IMM, OP_IMM_32):
        return Decoded(xs(rs1), x_rd)
    if op in (OP_OP, OP_OP_32):
        return Decoded(xs(rs1, rs2), x_rd)
    if op == OP_LOAD:
        return Decoded(xs(rs1), x_rd, is_load=True, address_base=("x", rs1))
    if op == OP_LOAD_FP and f3 == 2:
        return Decoded(xs(rs1), ("f", rd), is_load=True, address_base=("x", rs1))
    if op == OP_STORE:
        data = ("x", rs2) if rs2 else None
        return Decoded(xs(rs1, rs2), None, is_store=True, store_data=data, address_base=("x", rs1))
    if op == OP_STORE_FP and f3 == 2:
        return Decoded((*xs(rs1), ("f", rs2)), None, is_store=True, store_data=("f", rs2), address_base=("x", rs1))
    if op == OP_MISC_MEM:
        return Decoded((), None)
    if op in (OP_MADD, OP_MSUB, OP_NMSUB, OP_NMADD):
        srcs = (("f", rs1), ("f", rs2), ("f", insn >> 27), ("c", CSR_FFLAGS))
        return Decoded(srcs + ((("c", CSR_FRM),) if f3 == 7 else ()), ("f", rd))
    if op == OP_FP:
        return _decode_fp(insn, f7, f3, rd, rs1, rs2)
    if op == OP_SYSTEM:
        if f3 == 0:
            return Decoded((), None)
        csr = insn >> 20
        srcs: tuple[RegKey, ...] = (("c", csr),) + (xs(rs1) if f3 < 4 else ())
        return Decoded(srcs, x_rd, csr=csr, csr_overwrites=f3 in (1, 5))
    return Decoded((), None, known=False)


def _decode_fp(insn: int, f7: int, f3: int, rd: int, rs1: int, rs2: int) -> Decoded:
    rs1_key: RegKey = ("x", rs1) if f7 in _FP_FUNCT7_FROM_X else ("f", rs1)
    srcs: list[RegKey] = [rs1_key] if rs1_key != ("x", 0) else []
    if f7 not in _FP_UNARY:
        srcs.append(("f", rs2))
    # fflags accumulates: the new value depends on the old one.
    srcs.append(("c", CSR_FFLAGS))
    if f7 not in _FP_NO_ROUNDING and f3 == 7:
        srcs.append(("c", CSR_FRM))
    if f7 in _FP_FUNCT7_TO_X:
        dest: RegKey | None = ("x", rd) if rd else None
    else:
        dest = ("f", rd)
    return Decoded(tuple(srcs), dest)
