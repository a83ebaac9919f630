"""Encoders for RVV 1.0 instructions and vtype values (the subset the tests use)."""

from __future__ import annotations

OP_V, LOAD_FP, STORE_FP = 0x57, 0x07, 0x27
IVV, FVV, MVV, IVI, IVX, FVF, MVX = 0, 1, 2, 3, 4, 5, 6
WIDTH = {8: 0, 16: 5, 32: 6, 64: 7}
LMUL_CODE = {1: 0, 2: 1, 4: 2, 8: 3, 0.5: 7, 0.25: 6, 0.125: 5}


def vtype(sew: int, lmul: float, vta: int = 0, vma: int = 0, vill: bool = False) -> int:
    if vill:
        return 1 << 31
    return (vma << 7) | (vta << 6) | ({8: 0, 16: 1, 32: 2, 64: 3}[sew] << 3) | LMUL_CODE[lmul]


def vlmax(vlen: int, sew: int, lmul: float) -> int:
    return int(vlen * lmul) // sew


def opv(f6: int, f3: int, vd: int, vs2: int, vs1: int, vm: int = 1) -> int:
    return (f6 << 26) | (vm << 25) | (vs2 << 20) | ((vs1 & 31) << 15) | (f3 << 12) | (vd << 7) | OP_V


def vmem(
    store: bool, eew: int, vd: int, rs1: int, mop: int = 0, lumop: int = 0, vm: int = 1, nf: int = 0, mew: int = 0
) -> int:
    """Vector load/store: mop 0 unit (lumop/sumop in the rs2 field), 1/3 indexed, 2 strided (rs2)."""
    return (
        (nf << 29)
        | (mew << 28)
        | (mop << 26)
        | (vm << 25)
        | ((lumop & 31) << 20)
        | (rs1 << 15)
        | (WIDTH[eew] << 12)
        | (vd << 7)
        | (STORE_FP if store else LOAD_FP)
    )
