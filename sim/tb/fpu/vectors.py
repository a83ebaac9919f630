"""Operand batches for the FPU: random bits, special values, and operands steered
to the hard places (cancellation, rounding ties, the subnormal/normal boundary
where tininess-after-rounding matters, overflow, integer range limits)."""

from __future__ import annotations

import numpy as np

from .ops import FpuOp, Rm

REQUEST_DTYPE = np.dtype(
    [("op", "<u4"), ("rm", "<u4"), ("a", "<u4"), ("b", "<u4"), ("c", "<u4"), ("pad", "<u4"), ("int", "<u8")]
)

# Special binary32 values (both signs are added below).
_SPECIAL_MAGS = [
    0x00000000,  # zero
    0x7F800000,  # inf
    0x7FC00000,  # canonical qNaN
    0x7FC12345,  # qNaN with payload
    0x7F800001,  # sNaN
    0x7FBFFFFF,  # sNaN, full payload
    0x00000001,  # smallest subnormal
    0x00000002,
    0x00400000,  # mid subnormal
    0x007FFFFF,  # largest subnormal
    0x00800000,  # smallest normal
    0x00800001,
    0x00FFFFFF,
    0x7F7FFFFF,  # largest finite
    0x7F000000,
    0x3F800000,  # 1.0
    0x3F800001,
    0x3F7FFFFF,
    0x3F000000,  # 0.5
    0x3FC00000,  # 1.5
    0x40200000,  # 2.5
    0x3EFFFFFF,  # just below 0.5
    0x4B000000,  # 2^23
    0x4B7FFFFF,
    0x4EFFFFFF,  # largest float below 2^31
    0x4F000000,  # 2^31
    0x4F7FFFFF,  # largest float below 2^32
    0x4F800000,  # 2^32
    0x5EFFFFFF,  # largest float below 2^63
    0x5F000000,  # 2^63
    0x5F7FFFFF,  # largest float below 2^64
    0x5F800000,  # 2^64
    0x1F800000,  # 2^-64: squares land near the subnormal range
    0x20000000,
]
SPECIALS = np.array(_SPECIAL_MAGS + [m | 0x80000000 for m in _SPECIAL_MAGS], dtype=np.uint32)

_INT_SPECIALS = np.array(
    [
        0,
        1,
        2,
        3,
        0x7FFFFFFF,
        0x80000000,
        0xFFFFFFFF,
        0x00FFFFFF,
        0x01000000,
        0x01000001,
        0x01000003,
        0x7FFFFFBF,
        0x7FFFFFC0,
        0x7FFFFF80,
        0xFFFFFF7F,
        0x8000000000000000,
        0x7FFFFFFFFFFFFFFF,
        0xFFFFFFFFFFFFFFFF,
        0xFFFFFFFF80000000,
        0x0000000100000000,
        0x8000008000000000,
        0x7FFFFF8000000000,
        0xFFFFFF7FFFFFFFFF,
    ],
    dtype=np.uint64,
)


def _pack(sign: np.ndarray, exp: np.ndarray, frac: np.ndarray) -> np.ndarray:
    return ((sign.astype(np.uint32) << 31) | (exp.astype(np.uint32) << 23) | frac.astype(np.uint32)).astype(np.uint32)


def _frac(rng: np.random.Generator, n: int) -> np.ndarray:
    """Random fractions, a third of them with long runs of ones or zeros (round-up carries, ties)."""
    f = rng.integers(0, 1 << 23, n, dtype=np.uint32)
    kind = rng.integers(0, 6, n)
    low = rng.integers(0, 24, n).astype(np.uint32)
    mask = ((np.uint32(1) << low) - np.uint32(1)).astype(np.uint32)
    f = np.where(kind == 0, f | mask, f)
    f = np.where(kind == 1, f & ~mask & 0x7FFFFF, f)
    return f.astype(np.uint32)


def random_bits(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)


def near_exp(rng: np.random.Generator, n: int, lo: int, hi: int) -> np.ndarray:
    """Random sign and fraction, biased exponent uniform in [lo, hi] (0 = subnormal)."""
    exp = rng.integers(lo, hi + 1, n)
    return _pack(rng.integers(0, 2, n), exp, _frac(rng, n))


def specials(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.choice(SPECIALS, n)


def _mix(rng: np.random.Generator, parts: list[np.ndarray]) -> np.ndarray:
    """Interleave several candidate arrays of equal length, picking one per element."""
    stack = np.stack(parts)
    pick = rng.integers(0, len(parts), stack.shape[1])
    return stack[pick, np.arange(stack.shape[1])]


def _general(rng: np.random.Generator, n: int) -> np.ndarray:
    return _mix(
        rng,
        [
            specials(rng, n),
            random_bits(rng, n),
            near_exp(rng, n, 100, 154),
            near_exp(rng, n, 0, 30),
            near_exp(rng, n, 120, 134),
        ],
    )


# Results the rounding logic finds hard: the normal/subnormal boundary (tininess
# after rounding), the half-ulp below the smallest subnormal, the largest finite.
_TARGETS = np.array(
    [
        2.0**-126,
        2.0**-126 * (1 - 2.0**-25),
        2.0**-149,
        2.0**-150,
        2.0**-127,
        3.4028234663852886e38,
        3.4028235677973366e38,
    ],
    dtype=np.float64,
)


def _tweak(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Move a few ulps either way (bit-pattern arithmetic, sign kept)."""
    return (x.astype(np.int64) + rng.integers(-2, 3, len(x))).clip(0, 0xFFFFFFFF).astype(np.uint32)


def aimed(op: FpuOp, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Operands whose exact result lies within a few ulps of a hard target."""
    a = near_exp(rng, n, 1, 254) & np.uint32(0x7FFFFFFF)
    av = a.view(np.float32).astype(np.float64)
    t = rng.choice(_TARGETS, n)
    with np.errstate(all="ignore"):
        bv = av / t if op == FpuOp.DIV else t / av
        b = _tweak(bv.astype(np.float32).view(np.uint32), rng)
        # For the FMAs: a product a bit off the target and c bridging the gap.
        bp = _tweak(((t * 1.5) / av).astype(np.float32).view(np.uint32), rng)
        cv = t - av * bp.view(np.float32).astype(np.float64)
        c = cv.astype(np.float32).view(np.uint32)
    sign_a = rng.integers(0, 2, n).astype(np.uint32) << 31
    sign_b = rng.integers(0, 2, n).astype(np.uint32) << 31
    if op in (FpuOp.MADD, FpuOp.MSUB, FpuOp.NMSUB, FpuOp.NMADD):
        b = bp
        # Signs chosen so the op computes +-(a*bp + c): flip c for MSUB/NMADD, a for NMSUB.
        flip_c = np.uint32(0x80000000) if op in (FpuOp.MSUB, FpuOp.NMADD) else np.uint32(0)
        flip_a = np.uint32(0x80000000) if op in (FpuOp.NMSUB, FpuOp.NMADD) else np.uint32(0)
        s = rng.integers(0, 2, n).astype(np.uint32) << 31
        return (a | s) ^ flip_a, b, (c ^ s) ^ flip_c
    return a | sign_a, b | sign_b, c


def fp_operands(op: FpuOp, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(a, b, c) for a floating-point operation, steered by what the op finds hard."""
    a, b, c = _general(rng, n), _general(rng, n), _general(rng, n)
    if op in (FpuOp.ADD, FpuOp.SUB):
        # b with an exponent close to a's: cancellation, carries, exact zeros.
        ea = (a >> 23) & 0xFF
        eb = np.clip(ea.astype(np.int64) + rng.integers(-26, 27, n), 0, 254)
        close = _pack(rng.integers(0, 2, n), eb, _frac(rng, n))
        flip = np.uint32(0x80000000) if op == FpuOp.ADD else np.uint32(0)
        equal_mag = a ^ flip ^ (rng.integers(0, 4, n).astype(np.uint32))
        b = _mix(rng, [b, close, close, equal_mag])
    elif op in (FpuOp.MUL, FpuOp.DIV, FpuOp.MADD, FpuOp.MSUB, FpuOp.NMSUB, FpuOp.NMADD):
        # Result exponent steered to the subnormal boundary or to overflow.
        ea = rng.integers(1, 255, n)
        target = _mix(rng, [rng.integers(-26, 3, n), rng.integers(250, 258, n), rng.integers(1, 254, n)])
        eb = target - ea + 127 if op != FpuOp.DIV else ea - target + 127
        ok = (eb >= 0) & (eb <= 254)
        sa = _pack(rng.integers(0, 2, n), ea, _frac(rng, n))
        sb = _pack(rng.integers(0, 2, n), np.clip(eb, 0, 254), _frac(rng, n))
        steer = ok & (rng.integers(0, 3, n) > 0)
        a, b = np.where(steer, sa, a), np.where(steer, sb, b)
        if op not in (FpuOp.MUL, FpuOp.DIV):
            # c close to -(a*b): massive cancellation; or tiny next to a*b: sticky paths.
            with np.errstate(all="ignore"):
                prod = (a.view(np.float32) * b.view(np.float32)).view(np.uint32)
            sign = np.uint32(0x80000000) if op in (FpuOp.MADD, FpuOp.NMADD) else np.uint32(0)
            cancel = (prod ^ sign) + rng.integers(-3, 4, n).astype(np.uint32)
            pe = ((prod >> 23) & 0xFF).astype(np.int64)
            near = _pack(rng.integers(0, 2, n), np.clip(pe + rng.integers(-60, 61, n), 0, 254), _frac(rng, n))
            c = _mix(rng, [c, cancel, cancel, near])
        ta, tb, tc = aimed(op, rng, n)
        use = rng.integers(0, 4, n) == 0
        a, b, c = np.where(use, ta, a), np.where(use, tb, b), np.where(use, tc, c)
    elif op == FpuOp.SQRT:
        a = _mix(rng, [a, near_exp(rng, n, 0, 3) & 0x7FFFFFFF, near_exp(rng, n, 1, 254) & 0x7FFFFFFF])
    elif op in (FpuOp.MIN, FpuOp.MAX, FpuOp.EQ, FpuOp.LT, FpuOp.LE):
        b = _mix(rng, [b, a, a ^ np.uint32(0x80000000), a + np.uint32(1), specials(rng, n)])
    return a.astype(np.uint32), b.astype(np.uint32), c.astype(np.uint32)


def f2i_operands(rng: np.random.Generator, n: int) -> np.ndarray:
    """Floats around every integer range limit and with fractional parts near .5."""
    return _mix(
        rng,
        [
            specials(rng, n),
            random_bits(rng, n),
            near_exp(rng, n, 120, 192),
            near_exp(rng, n, 125, 130),
            near_exp(rng, n, 155, 160),
            near_exp(rng, n, 187, 192),
        ],
    )


def int_operands(rng: np.random.Generator, n: int) -> np.ndarray:
    """Integers of every bit length, with patterns that make rounding ties."""
    raw = rng.integers(0, 1 << 64, n, dtype=np.uint64)
    length = rng.integers(0, 65, n).astype(np.uint64)
    by_len = np.where(length >= 64, raw, raw & ((np.uint64(1) << length) - np.uint64(1)))
    # 25..26 significant bits shifted up: exact ties and near-ties at the 24-bit cut.
    m = rng.integers(1 << 24, 1 << 26, n, dtype=np.uint64) | np.uint64(1)
    tie = m << rng.integers(0, 39, n).astype(np.uint64)
    neg = (~by_len + np.uint64(1)).astype(np.uint64)
    return _mix(rng, [rng.choice(_INT_SPECIALS, n), raw, by_len, tie, neg, (~tie + np.uint64(1))])


def make_batch(ops: list[FpuOp], per_op_rm: int, seed: int, rms: list[Rm] | None = None) -> np.ndarray:
    """per_op_rm requests for every (op, rounding mode), shuffled so ops interleave."""
    rng = np.random.default_rng(seed)
    rms = list(rms or Rm)
    parts = []
    for op in ops:
        for rm in rms:
            req = np.zeros(per_op_rm, dtype=REQUEST_DTYPE)
            req["op"], req["rm"] = int(op), int(rm)
            if op in (FpuOp.CVT_S_W, FpuOp.CVT_S_WU, FpuOp.CVT_S_L, FpuOp.CVT_S_LU):
                req["int"] = int_operands(rng, per_op_rm)
            elif op in (FpuOp.CVT_W_S, FpuOp.CVT_WU_S, FpuOp.CVT_L_S, FpuOp.CVT_LU_S):
                req["a"] = f2i_operands(rng, per_op_rm)
            else:
                req["a"], req["b"], req["c"] = fp_operands(op, rng, per_op_rm)
            parts.append(req)
    batch = np.concatenate(parts)
    return batch[rng.permutation(len(batch))]
