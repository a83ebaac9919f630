"""Operand pools: the corner values random programs are built around."""

from __future__ import annotations

# binary32 bit patterns with the cases IEEE-754 and RISC-V single out: signed
# zeros and infinities, quiet and signalling NaNs (canonical, with payload, negative),
# subnormal bounds, normal bounds, exact/inexact halves, values at the edges of
# the integer conversions (2^23, 2^24, 2^31, 2^32, 2^63, 2^64 and neighbours).
FLOAT_SPECIALS: tuple[int, ...] = (
    0x00000000,
    0x80000000,  # +0, -0
    0x7F800000,
    0xFF800000,  # +inf, -inf
    0x7FC00000,
    0xFFC00000,
    0x7FC12345,  # qNaN canonical, negative, payload
    0x7F800001,
    0xFF800001,
    0x7FA00000,  # sNaNs
    0x00000001,
    0x80000001,
    0x007FFFFF,
    0x807FFFFF,  # subnormal bounds
    0x00800000,
    0x80800000,
    0x7F7FFFFF,
    0xFF7FFFFF,  # normal bounds
    0x3F800000,
    0xBF800000,
    0x3F000000,
    0xBF000000,  # +-1, +-0.5
    0x3FC00000,
    0xC0200000,
    0x3EAAAAAB,
    0x3F7FFFFF,  # 1.5, -2.5, 1/3, 1-ulp
    0x4B000000,
    0x4B800000,
    0x4B7FFFFF,
    0xCB000001,  # 2^23, 2^24, 2^24-1, -(2^23+1)
    0x4EFFFFFF,
    0x4F000000,
    0xCF000000,
    0xCF000001,  # around 2^31 and -2^31
    0x4F7FFFFF,
    0x4F800000,
    0x5EFFFFFF,
    0x5F000000,  # around 2^32 and 2^63
    0xDF000000,
    0x5F7FFFFF,
    0x5F800000,
    0x3F000001,  # -2^63, around 2^64, 0.5+ulp
    0x40490FDB,
    0xC2F6E979,
    0x1E3CE508,
    0x60AD78EC,  # pi, -123.456, tiny, huge
)


# Integer corners, as unsigned XLEN-bit patterns (filled in per XLEN).
def int_specials(xlen: int) -> tuple[int, ...]:
    mask = (1 << xlen) - 1
    smin = 1 << (xlen - 1)
    vals = [
        0,
        1,
        2,
        mask,
        mask - 1,
        smin,
        smin - 1,
        smin + 1,
        0x7F,
        0x80,
        0xFF,
        0x7FFF,
        0x8000,
        0xFFFF,
        0x7FFFFFFF,
        0x80000000,
        0xFFFFFFFF,
        0x55555555,
        0xAAAAAAAA,
        31,
        32,
        63,
        64,
    ]
    if xlen == 64:
        vals += [0xFFFFFFFF_80000000, 0x00000001_00000000, 0x5555555555555555, 0xAAAAAAAAAAAAAAAA]
    return tuple(v & mask for v in vals)
