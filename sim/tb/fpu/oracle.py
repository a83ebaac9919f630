"""Reference results for every ``fpu_op_e`` operation: bits and fflags.

Arithmetic, compares and conversions come from Berkeley SoftFloat (``softfloatpy``,
built with the RISC-V specialization: canonical NaN 0x7fc00000 and RISC-V's
out-of-range integer results), with tininess detected after rounding as RISC-V
requires. min/max, class and sign injection are not SoftFloat functions; they are
written here from the RISC-V specification's text, independently of the RTL.
"""

from __future__ import annotations

import math
import struct

from .ops import NV, FpuOp

try:
    import softfloatpy as sf
except ImportError as exc:  # pragma: no cover - exercised only on a broken install
    raise ImportError(
        "the FPU oracle needs softfloatpy (Berkeley SoftFloat); install the dev extras: `./dev pip install -e .[dev]`"
    ) from exc

CANONICAL_NAN = 0x7FC00000
MASK32 = 0xFFFFFFFF
MASK64 = 0xFFFFFFFFFFFFFFFF

_RM = {
    0: sf.RoundingMode.NEAR_EVEN,
    1: sf.RoundingMode.MIN_MAG,
    2: sf.RoundingMode.MIN,
    3: sf.RoundingMode.MAX,
    4: sf.RoundingMode.NEAR_MAX_MAG,
}


def f32(bits: int) -> sf.Float32:
    return sf.Float32.from_bytes((bits & MASK32).to_bytes(4, "big"))


def bits_of(x: sf.Float32) -> int:
    return int.from_bytes(x.to_bytes(), "big")


def is_nan(bits: int) -> bool:
    return (bits & 0x7F800000) == 0x7F800000 and (bits & 0x007FFFFF) != 0


def is_snan(bits: int) -> bool:
    return is_nan(bits) and not bits & 0x00400000


def to_float(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits & MASK32))[0]


def sext32(v: int) -> int:
    v &= MASK32
    return (v | ~MASK32) & MASK64 if v & 0x80000000 else v


def fclass(a: int) -> int:
    """The 10-bit fclass.s mask (RISC-V F, table 'Format of result of FCLASS')."""
    sign = a >> 31
    exp = (a >> 23) & 0xFF
    frac = a & 0x7FFFFF
    if exp == 0xFF:
        if frac:
            return 1 << 9 if frac & 0x400000 else 1 << 8
        return 1 << 0 if sign else 1 << 7
    if exp == 0:
        if frac == 0:
            return 1 << 3 if sign else 1 << 4
        return 1 << 2 if sign else 1 << 5
    return 1 << 1 if sign else 1 << 6


def fminmax(a: int, b: int, want_max: bool) -> tuple[int, int]:
    """RISC-V fmin.s/fmax.s (2.2+): minimumNumber/maximumNumber with -0 < +0."""
    flags = NV if (is_snan(a) or is_snan(b)) else 0
    if is_nan(a) and is_nan(b):
        return CANONICAL_NAN, flags
    if is_nan(a):
        return b, flags
    if is_nan(b):
        return a, flags
    fa, fb = to_float(a), to_float(b)
    if fa == fb:  # equal values: only the zeros can differ, by sign
        a_neg = bool(a >> 31)
        pick_a = (not a_neg) if want_max else a_neg
    else:
        pick_a = (fa > fb) if want_max else (fa < fb)
    return (a if pick_a else b), flags


def _flip(bits: int) -> int:
    return bits ^ 0x80000000


def reference(op: int, rm: int, a: int, b: int, c: int, int_op: int) -> tuple[int, int]:
    """Expected (result_o, fflags_o) of cosim_fpu for one request."""
    op = FpuOp(op)
    if op == FpuOp.CLASS:
        return fclass(a), 0
    if op == FpuOp.SGNJ:
        return (a & 0x7FFFFFFF) | (b & 0x80000000), 0
    if op == FpuOp.SGNJN:
        return (a & 0x7FFFFFFF) | (~b & 0x80000000), 0
    if op == FpuOp.SGNJX:
        return a ^ (b & 0x80000000), 0
    if op in (FpuOp.MIN, FpuOp.MAX):
        return fminmax(a, b, op == FpuOp.MAX)

    sf.set_rounding_mode(_RM[rm])
    sf.set_tininess_mode(sf.TininessMode.AFTER_ROUNDING)
    sf.set_exception_flags(0)
    mode = _RM[rm]
    fa, fb, fc = f32(a), f32(b), f32(c)
    if op == FpuOp.ADD:
        res = bits_of(sf.f32_add(fa, fb))
    elif op == FpuOp.SUB:
        res = bits_of(sf.f32_sub(fa, fb))
    elif op == FpuOp.MUL:
        res = bits_of(sf.f32_mul(fa, fb))
    elif op == FpuOp.DIV:
        res = bits_of(sf.f32_div(fa, fb))
    elif op == FpuOp.SQRT:
        res = bits_of(sf.f32_sqrt(fa))
    elif op == FpuOp.MADD:
        res = bits_of(sf.f32_mul_add(fa, fb, fc))
    elif op == FpuOp.MSUB:
        res = bits_of(sf.f32_mul_add(fa, fb, f32(_flip(c))))
    elif op == FpuOp.NMSUB:
        res = bits_of(sf.f32_mul_add(f32(_flip(a)), fb, fc))
    elif op == FpuOp.NMADD:
        res = bits_of(sf.f32_mul_add(f32(_flip(a)), fb, f32(_flip(c))))
    elif op == FpuOp.EQ:
        res = int(sf.f32_eq(fa, fb))
    elif op == FpuOp.LT:
        res = int(sf.f32_lt(fa, fb))
    elif op == FpuOp.LE:
        res = int(sf.f32_le(fa, fb))
    elif op == FpuOp.CVT_W_S:
        res = sext32(sf.f32_to_i32(fa, mode, True).to_int())
    elif op == FpuOp.CVT_WU_S:
        res = sext32(sf.f32_to_ui32(fa, mode, True).to_int())
    elif op == FpuOp.CVT_L_S:
        res = sf.f32_to_i64(fa, mode, True).to_int() & MASK64
    elif op == FpuOp.CVT_LU_S:
        res = sf.f32_to_ui64(fa, mode, True).to_int()
    elif op == FpuOp.CVT_S_W:
        v = int_op & MASK32
        res = bits_of(sf.i32_to_f32(sf.Int32.from_int(v - (1 << 32) if v >> 31 else v)))
    elif op == FpuOp.CVT_S_WU:
        res = bits_of(sf.ui32_to_f32(sf.UInt32.from_int(int_op & MASK32)))
    elif op == FpuOp.CVT_S_L:
        v = int_op & MASK64
        res = bits_of(sf.i64_to_f32(sf.Int64.from_int(v - (1 << 64) if v >> 63 else v)))
    elif op == FpuOp.CVT_S_LU:
        res = bits_of(sf.ui64_to_f32(sf.UInt64.from_int(int_op & MASK64)))
    else:  # pragma: no cover - every FpuOp is handled above
        raise ValueError(f"no reference for {op!r}")
    return res, int(sf.get_exception_flags())


def describe(bits: int) -> str:
    """Human-readable binary32 value for mismatch reports."""
    if is_nan(bits):
        return "sNaN" if is_snan(bits) else "qNaN"
    v = to_float(bits)
    return "-0" if v == 0 and bits >> 31 else repr(v) if math.isfinite(v) else ("-inf" if v < 0 else "inf")
