"""The integer and fp32 arithmetic of Gemmini v0.7's datapath, bit-exact, on numpy arrays.

Every rounding and saturation the functional model applies (sim/gemmini/model.py) is here, so the mvin scale, the
accumulator read-out and the mesh's 20-bit outputs round the same way wherever they occur.
"""

from __future__ import annotations

import numpy as np

from sim.gemmini import isa

I8_MIN, I8_MAX = -128, 127
I32_MIN, I32_MAX = -(1 << 31), (1 << 31) - 1


def f32_bits_to_float(bits: int) -> np.float32:
    return np.array([bits & 0xFFFF_FFFF], dtype=np.uint32).view(np.float32)[0]


def scale_to_int(x: np.ndarray, scale: np.float32, lo: int, hi: int) -> np.ndarray:
    """Gemmini's fp32 scale: int -> fp32 (RNE), x scale (fp32, RNE), -> int (RNE, saturating to [lo, hi]).

    hardfloat's RecFNToIN saturates out-of-range values and sends NaN to the
    largest positive integer; float64 holds every fp32 exactly, so rint there
    is the same RNE conversion."""
    # inf x 0 and NaN scales are legal operands (results defined above): no numpy warnings for them
    with np.errstate(invalid="ignore", over="ignore"):
        f = x.astype(np.float32) * np.float32(scale)
    d = f.astype(np.float64)
    d = np.where(np.isnan(d), float(hi), d)
    return np.clip(np.rint(d), lo, hi).astype(np.int64)


def round_shift(x: np.ndarray, shift: int) -> np.ndarray:
    """Arithmetic right shift rounding half to even (Gemmini's SInt ``>>`` in Arithmetic.scala)."""
    if shift == 0:
        return x
    half = (x >> (shift - 1)) & 1
    below = (x & ((1 << (shift - 1)) - 1)) != 0 if shift > 1 else np.zeros(x.shape, dtype=bool)
    odd = (x >> shift) & 1
    return (x >> shift) + (half & (below | odd.astype(bool)))


def wrap(x: np.ndarray, bits: int) -> np.ndarray:
    """Two's-complement wrap to ``bits`` (hardware adders that drop the carry)."""
    m = 1 << bits
    return ((x + (m >> 1)) & (m - 1)) - (m >> 1)


def saturate(x: np.ndarray, bits: int) -> np.ndarray:
    return np.clip(x, -(1 << (bits - 1)), (1 << (bits - 1)) - 1)


def acc_read_scaled(rows: np.ndarray, scale: np.float32, act: int) -> np.ndarray:
    """Accumulator rows as int8 (AccumulatorScale: scale, saturate to int8, then the activation)."""
    v = scale_to_int(rows.astype(np.int64), scale, I32_MIN, I32_MAX)
    v = np.clip(v, I8_MIN, I8_MAX)
    if act == isa.ACT_RELU:
        v = np.maximum(v, 0)
    return v
