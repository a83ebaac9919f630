"""Hand-derived FPU cases with their expected bits and fflags, written from the
IEEE 754 and RISC-V F texts (not from any implementation). Both the oracle and the
RTL must reproduce every one of them."""

from __future__ import annotations

from dataclasses import dataclass

from .ops import DZ, NV, NX, OF, UF, FpuOp, Rm

QNAN, SNAN, CNAN = 0x7FC00000, 0x7F800001, 0x7FC00000
PZERO, NZERO, ONE, NEG_ONE = 0x00000000, 0x80000000, 0x3F800000, 0xBF800000
PINF, NINF = 0x7F800000, 0xFF800000


@dataclass(frozen=True)
class Case:
    why: str
    op: FpuOp
    rm: Rm
    a: int = 0
    b: int = 0
    c: int = 0
    int_op: int = 0
    result: int = 0
    flags: int = 0


def _ovf(rm: Rm, expected: int) -> Case:
    return Case(f"overflow {rm.name}", FpuOp.MUL, rm, 0x7F7FFFFF, 0x40000000, result=expected, flags=OF | NX)


DIRECTED: list[Case] = [
    # Tininess after rounding: (2^-126 - 2^-149)(1 + 2^-23) = 2^-126 - 2^-172 rounds to
    # 2^-126 with unbounded exponent, so no UF; toward zero it stays tiny.
    Case("tiny before rounding only", FpuOp.MUL, Rm.RNE, 0x007FFFFF, 0x3F800001, result=0x00800000, flags=NX),
    Case("tiny after rounding (RTZ)", FpuOp.MUL, Rm.RTZ, 0x007FFFFF, 0x3F800001, result=0x007FFFFF, flags=UF | NX),
    Case("exact subnormal product", FpuOp.MUL, Rm.RNE, 0x00000002, 0x3F000000, result=0x00000001),
    Case("half of min subnormal, tie to even 0", FpuOp.MUL, Rm.RNE, 0x00000001, 0x3F000000, result=0, flags=UF | NX),
    Case("half of min subnormal, RMM away", FpuOp.MUL, Rm.RMM, 0x00000001, 0x3F000000, result=1, flags=UF | NX),
    Case("subnormal sum is exact", FpuOp.ADD, Rm.RNE, 0x00000001, 0x007FFFFF, result=0x00800000),
    _ovf(Rm.RNE, PINF),
    _ovf(Rm.RTZ, 0x7F7FFFFF),
    _ovf(Rm.RDN, 0x7F7FFFFF),
    _ovf(Rm.RUP, PINF),
    _ovf(Rm.RMM, PINF),
    Case("negative overflow RUP", FpuOp.MUL, Rm.RUP, 0xFF7FFFFF, 0x40000000, result=0xFF7FFFFF, flags=OF | NX),
    Case("qNaN operand: canonical, quiet", FpuOp.ADD, Rm.RNE, 0xFFC12345, ONE, result=CNAN),
    Case("sNaN operand: NV", FpuOp.ADD, Rm.RNE, SNAN, ONE, result=CNAN, flags=NV),
    Case("inf - inf", FpuOp.SUB, Rm.RNE, PINF, PINF, result=CNAN, flags=NV),
    Case("inf * 0", FpuOp.MUL, Rm.RNE, PINF, NZERO, result=CNAN, flags=NV),
    Case("inf * 0 + qNaN", FpuOp.MADD, Rm.RNE, PINF, PZERO, QNAN, result=CNAN, flags=NV),
    Case("inf*2 - inf", FpuOp.MSUB, Rm.RNE, PINF, 0x40000000, PINF, result=CNAN, flags=NV),
    Case("sqrt(-1)", FpuOp.SQRT, Rm.RNE, NEG_ONE, result=CNAN, flags=NV),
    Case("sqrt(-0)", FpuOp.SQRT, Rm.RNE, NZERO, result=NZERO),
    Case("sqrt(2) RNE", FpuOp.SQRT, Rm.RNE, 0x40000000, result=0x3FB504F3, flags=NX),
    Case("sqrt(4)", FpuOp.SQRT, Rm.RNE, 0x40800000, result=0x40000000),
    Case("-1/0", FpuOp.DIV, Rm.RNE, NEG_ONE, PZERO, result=NINF, flags=DZ),
    Case("0/0", FpuOp.DIV, Rm.RNE, PZERO, PZERO, result=CNAN, flags=NV),
    Case("1/3 RNE", FpuOp.DIV, Rm.RNE, ONE, 0x40400000, result=0x3EAAAAAB, flags=NX),
    Case("1/3 RTZ", FpuOp.DIV, Rm.RTZ, ONE, 0x40400000, result=0x3EAAAAAA, flags=NX),
    Case("x - x = +0", FpuOp.ADD, Rm.RNE, ONE, NEG_ONE, result=PZERO),
    Case("x - x = -0 in RDN", FpuOp.ADD, Rm.RDN, ONE, NEG_ONE, result=NZERO),
    Case("-0 * 1 RDN keeps -0", FpuOp.MUL, Rm.RDN, NZERO, ONE, result=NZERO),
    Case("-0 * 1 RNE keeps -0", FpuOp.MUL, Rm.RNE, NZERO, ONE, result=NZERO),
    Case("fnmadd zeros: -(+0) - (+0) = -0", FpuOp.NMADD, Rm.RNE, PZERO, ONE, PZERO, result=NZERO),
    Case("fnmsub -(1*1)+1 = +0", FpuOp.NMSUB, Rm.RNE, ONE, ONE, ONE, result=PZERO),
    Case("fnmsub -(1*1)+1 = -0 in RDN", FpuOp.NMSUB, Rm.RDN, ONE, ONE, ONE, result=NZERO),
    Case("fma one rounding", FpuOp.MADD, Rm.RNE, 0x3F800001, 0x3F800001, 0xBF800002, result=0x28800000),
    # fcvt out-of-range results: RISC-V F table of float-to-integer conversions.
    Case("fcvt.w NaN", FpuOp.CVT_W_S, Rm.RNE, QNAN, result=0x7FFFFFFF, flags=NV),
    Case("fcvt.w +inf", FpuOp.CVT_W_S, Rm.RNE, PINF, result=0x7FFFFFFF, flags=NV),
    Case("fcvt.w -inf", FpuOp.CVT_W_S, Rm.RNE, NINF, result=0xFFFFFFFF80000000, flags=NV),
    Case("fcvt.w 2^31", FpuOp.CVT_W_S, Rm.RNE, 0x4F000000, result=0x7FFFFFFF, flags=NV),
    Case("fcvt.w -2^31 fits", FpuOp.CVT_W_S, Rm.RNE, 0xCF000000, result=0xFFFFFFFF80000000),
    Case("fcvt.w -1.5 RNE", FpuOp.CVT_W_S, Rm.RNE, 0xBFC00000, result=0xFFFFFFFFFFFFFFFE, flags=NX),
    Case("fcvt.w 2.5 RNE", FpuOp.CVT_W_S, Rm.RNE, 0x40200000, result=2, flags=NX),
    Case("fcvt.w 2.5 RMM", FpuOp.CVT_W_S, Rm.RMM, 0x40200000, result=3, flags=NX),
    Case("fcvt.w -2.5 RDN", FpuOp.CVT_W_S, Rm.RDN, 0xC0200000, result=0xFFFFFFFFFFFFFFFD, flags=NX),
    Case("fcvt.wu NaN", FpuOp.CVT_WU_S, Rm.RNE, QNAN, result=0xFFFFFFFFFFFFFFFF, flags=NV),
    Case("fcvt.wu -1", FpuOp.CVT_WU_S, Rm.RNE, NEG_ONE, result=0, flags=NV),
    Case("fcvt.wu -0.3 rounds to 0", FpuOp.CVT_WU_S, Rm.RNE, 0xBE99999A, result=0, flags=NX),
    Case("fcvt.wu -0.3 RDN is -1", FpuOp.CVT_WU_S, Rm.RDN, 0xBE99999A, result=0, flags=NV),
    Case("fcvt.wu -0", FpuOp.CVT_WU_S, Rm.RNE, NZERO, result=0),
    Case("fcvt.wu 2^32", FpuOp.CVT_WU_S, Rm.RNE, 0x4F800000, result=0xFFFFFFFFFFFFFFFF, flags=NV),
    Case("fcvt.wu 2^31 sign-extends", FpuOp.CVT_WU_S, Rm.RNE, 0x4F000000, result=0xFFFFFFFF80000000),
    Case("fcvt.l NaN", FpuOp.CVT_L_S, Rm.RNE, QNAN, result=0x7FFFFFFFFFFFFFFF, flags=NV),
    Case("fcvt.l -2^63 fits", FpuOp.CVT_L_S, Rm.RNE, 0xDF000000, result=0x8000000000000000),
    Case("fcvt.l 2^63", FpuOp.CVT_L_S, Rm.RNE, 0x5F000000, result=0x7FFFFFFFFFFFFFFF, flags=NV),
    Case("fcvt.lu -inf", FpuOp.CVT_LU_S, Rm.RNE, NINF, result=0, flags=NV),
    Case("fcvt.lu max below 2^64", FpuOp.CVT_LU_S, Rm.RNE, 0x5F7FFFFF, result=0xFFFFFF0000000000),
    Case("fcvt.lu 2^64", FpuOp.CVT_LU_S, Rm.RNE, 0x5F800000, result=0xFFFFFFFFFFFFFFFF, flags=NV),
    Case("fcvt.s.w tie 2^24+1 RNE", FpuOp.CVT_S_W, Rm.RNE, int_op=0x01000001, result=0x4B800000, flags=NX),
    Case("fcvt.s.w tie 2^24+1 RUP", FpuOp.CVT_S_W, Rm.RUP, int_op=0x01000001, result=0x4B800001, flags=NX),
    Case("fcvt.s.w uses bits 31:0", FpuOp.CVT_S_W, Rm.RNE, int_op=0xABCD0000FFFFFFFF, result=NEG_ONE),
    Case("fcvt.s.wu 2^32-1", FpuOp.CVT_S_WU, Rm.RNE, int_op=0xFFFFFFFF, result=0x4F800000, flags=NX),
    Case("fcvt.s.wu 2^32-1 RTZ", FpuOp.CVT_S_WU, Rm.RTZ, int_op=0xFFFFFFFF, result=0x4F7FFFFF, flags=NX),
    Case("fcvt.s.l -2^63", FpuOp.CVT_S_L, Rm.RNE, int_op=0x8000000000000000, result=0xDF000000),
    Case("fcvt.s.lu 2^64-1", FpuOp.CVT_S_LU, Rm.RNE, int_op=0xFFFFFFFFFFFFFFFF, result=0x5F800000, flags=NX),
    Case("fcvt.s.l 0", FpuOp.CVT_S_L, Rm.RDN, int_op=0, result=PZERO),
    # min/max: minimumNumber/maximumNumber with -0 < +0 (RISC-V F 2.2).
    Case("fmin(+0,-0)", FpuOp.MIN, Rm.RNE, PZERO, NZERO, result=NZERO),
    Case("fmax(-0,+0)", FpuOp.MAX, Rm.RNE, NZERO, PZERO, result=PZERO),
    Case("fmin(qNaN,1)", FpuOp.MIN, Rm.RNE, QNAN, ONE, result=ONE),
    Case("fmax(1,sNaN)", FpuOp.MAX, Rm.RNE, ONE, SNAN, result=ONE, flags=NV),
    Case("fmin(sNaN,qNaN)", FpuOp.MIN, Rm.RNE, SNAN, QNAN, result=CNAN, flags=NV),
    Case("fmin(-1,-2)", FpuOp.MIN, Rm.RNE, NEG_ONE, 0xC0000000, result=0xC0000000),
    Case("fmax(subnormal,-inf)", FpuOp.MAX, Rm.RNE, 0x00000001, NINF, result=0x00000001),
    # Compares: feq quiet, flt/fle signalling.
    Case("feq qNaN", FpuOp.EQ, Rm.RNE, QNAN, ONE, result=0),
    Case("feq sNaN", FpuOp.EQ, Rm.RNE, SNAN, ONE, result=0, flags=NV),
    Case("flt qNaN", FpuOp.LT, Rm.RNE, QNAN, ONE, result=0, flags=NV),
    Case("fle -0 <= +0", FpuOp.LE, Rm.RNE, NZERO, PZERO, result=1),
    Case("flt -0 < +0 false", FpuOp.LT, Rm.RNE, NZERO, PZERO, result=0),
    Case("feq -0 == +0", FpuOp.EQ, Rm.RNE, NZERO, PZERO, result=1),
    Case("flt -inf < -max", FpuOp.LT, Rm.RNE, NINF, 0xFF7FFFFF, result=1),
    Case("flt -1 < -2 false", FpuOp.LT, Rm.RNE, NEG_ONE, 0xC0000000, result=0),
    # fclass: one bit per class.
    *[
        Case(f"fclass bit {i}", FpuOp.CLASS, Rm.RNE, x, result=1 << i)
        for i, x in enumerate([NINF, NEG_ONE, 0x80000001, NZERO, PZERO, 0x00000001, ONE, PINF, SNAN, QNAN])
    ],
    # Sign injection: bit manipulation, NaN payload kept, no flags.
    Case("fsgnjn sNaN", FpuOp.SGNJN, Rm.RNE, SNAN, PZERO, result=0xFF800001),
    Case("fsgnjx", FpuOp.SGNJX, Rm.RNE, NEG_ONE, NZERO, result=ONE),
    Case("fsgnj", FpuOp.SGNJ, Rm.RNE, ONE, 0xFFC00000, result=NEG_ONE),
]
