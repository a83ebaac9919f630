"""An independent formulation of Gemmini v0.7's ISA semantics, for checking sim/gemmini/model.py.

Written from the ISA's meaning (DESIGN.md, Gemmini unit), with plain Python arithmetic where the
model uses numpy tricks: fp32 rounding via float64 (exact for int32 and fp32 x fp32 products) then
one rounding to fp32, round-half-even via Python's round() on exact fractions, tiles by explicit
index arithmetic. Nothing here imports the model.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

GARBAGE = 0xFFFF_FFFF
ACC = 1 << 31
ACCUMULATE = 1 << 30
FULL = 1 << 29


# ---------------------------------------------------------------- encodings (gemmini.h's packing)


def f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def operand(addr: int, cols: int, rows: int) -> int:
    return (rows << 48) | (cols << 32) | addr


def config_ex(
    dataflow: int = 1,
    act: int = 0,
    shift: int = 0,
    acc_scale: float = 1.0,
    a_stride: int = 1,
    a_t: bool = False,
    b_t: bool = False,
    c_stride: int = 1,
) -> tuple[int, int]:
    rs1 = (f32(acc_scale) << 32) | (a_stride << 16) | (int(b_t) << 9) | (int(a_t) << 8) | (act << 3) | (dataflow << 2)
    return rs1, (c_stride << 48) | shift


def config_ld(
    stride: int, scale: float = 1.0, shrink: bool = False, idx: int = 0, block_stride: int = 0, pixel_repeats: int = 1
) -> tuple[int, int]:
    rs1 = (f32(scale) << 32) | (block_stride << 16) | (pixel_repeats << 8) | (idx << 3) | (int(shrink) << 2) | 1
    return rs1, stride


def config_st(
    stride: int,
    act: int = 0,
    scale: float = 1.0,
    pool_stride: int = 0,
    pool_size: int = 0,
    out_dim: int = 0,
    porows: int = 0,
    pocols: int = 0,
    orows: int = 0,
    ocols: int = 0,
    upad: int = 0,
    lpad: int = 0,
) -> tuple[int, int]:
    rs1 = (
        (ocols << 56)
        | (orows << 48)
        | (pocols << 40)
        | (porows << 32)
        | (out_dim << 24)
        | (lpad << 10)
        | (upad << 8)
        | (pool_size << 6)
        | (pool_stride << 4)
        | (act << 2)
        | 2
    )
    return rs1, (f32(scale) << 32) | stride


# ---------------------------------------------------------------- memory


class FlatMemory:
    """A byte array from address ``base``; anything outside raises (as unmapped memory would)."""

    def __init__(self, size: int, base: int = 0):
        self.base, self.buf = base, bytearray(size)

    def _off(self, addr: int, size: int) -> int:
        off = addr - self.base
        if off < 0 or off + size > len(self.buf):
            from sim.gemmini.model import GemminiIllegal

            raise GemminiIllegal(f"DMA to unmapped memory {addr:#x}+{size}")
        return off

    def read(self, addr: int, size: int) -> bytes:
        o = self._off(addr, size)
        return bytes(self.buf[o : o + size])

    def write(self, addr: int, data: bytes) -> None:
        o = self._off(addr, len(data))
        self.buf[o : o + len(data)] = data

    def put(self, addr: int, arr: np.ndarray) -> None:
        self.write(addr, arr.tobytes())

    def get(self, addr: int, shape: tuple[int, ...], dtype: type, row_stride: int | None = None) -> np.ndarray:
        dt = np.dtype(dtype)
        rows, cols = shape
        step = row_stride if row_stride is not None else cols * dt.itemsize
        return np.stack([np.frombuffer(self.read(addr + r * step, cols * dt.itemsize), dtype=dt) for r in range(rows)])


# ---------------------------------------------------------------- numerics


def to_f32(v: float) -> float:
    """Round a double to the nearest fp32 (ties to even; overflow to infinity)."""
    with np.errstate(over="ignore"):
        return float(np.float32(v))


def scale_one(x: int, scale: float, lo: int, hi: int) -> int:
    """int -> fp32, x fp32 scale, -> nearest-even int saturated to [lo, hi] (NaN -> hi)."""
    fx = to_f32(float(x))
    prod = to_f32(fx * to_f32(scale))
    if prod != prod:
        return hi
    if prod in (float("inf"), -float("inf")):
        return hi if prod > 0 else lo
    r = round(Fraction(prod))
    return max(lo, min(hi, r))


def scale_array(x: np.ndarray, scale: float, lo: int, hi: int) -> np.ndarray:
    return np.vectorize(lambda v: scale_one(int(v), scale, lo, hi), otypes=[np.int64])(x)


def acc_to_int8(x: np.ndarray, scale: float, relu: bool) -> np.ndarray:
    """An accumulator value read as int8: scaled, saturated to int32 then int8, then ReLU."""
    v = np.clip(scale_array(x, scale, -(1 << 31), (1 << 31) - 1), -128, 127)
    return np.maximum(v, 0) if relu else v


def rne_shift(x: int, s: int) -> int:
    return round(Fraction(x, 1 << s))


def sat(x: np.ndarray, bits: int) -> np.ndarray:
    return np.clip(x, -(1 << (bits - 1)), (1 << (bits - 1)) - 1)


def wrap32(x: np.ndarray) -> np.ndarray:
    return ((np.asarray(x, dtype=np.int64) + (1 << 31)) % (1 << 32)) - (1 << 31)


# ---------------------------------------------------------------- expected states


def mvin_rows(dram: np.ndarray, rows: int, cols: int, dim: int, block_stride: int) -> dict[int, np.ndarray]:
    """{local row offset: (DIM-wide piece, valid width)} that a mvin of a rows x cols DRAM block writes."""
    out: dict[int, np.ndarray] = {}
    for c0 in range(0, cols, dim):
        b = c0 // dim
        for r in range(rows):
            out[b * block_stride + r] = dram[r, c0 : min(cols, c0 + dim)]
    return out


@dataclass
class Tile:
    """A DIM x DIM operand padded with zeros past rows x cols."""

    data: np.ndarray

    @classmethod
    def from_rows(cls, rows_of: np.ndarray, rows: int, cols: int, dim: int, transpose: bool = False) -> Tile:
        t = np.zeros((dim, dim), dtype=np.int64)
        if transpose:
            t[:cols, :rows] = rows_of[:cols, :rows]
            return cls(t.T.copy())
        t[:rows, :cols] = rows_of[:rows, :cols]
        return cls(t)


def ws_result(a: np.ndarray, w: np.ndarray, d: np.ndarray | None = None) -> np.ndarray:
    r = a.astype(np.int64) @ w.astype(np.int64)
    return r if d is None else r + d


def maxpool(img: np.ndarray, stride: int, size: int, porows: int, pocols: int, upad: int, lpad: int) -> np.ndarray:
    """img: (orows, ocols, ch); padding pixels are zeros."""
    orows, ocols, ch = img.shape
    out = np.zeros((porows, pocols, ch), dtype=np.int64)
    for pr in range(porows):
        for pc in range(pocols):
            best = None
            for wr in range(size):
                for wc in range(size):
                    r, c = pr * stride + wr - upad, pc * stride + wc - lpad
                    v = img[r, c] if 0 <= r < orows and 0 <= c < ocols else np.zeros(ch, dtype=np.int64)
                    best = v if best is None else np.maximum(best, v)
            out[pr, pc] = best
    return out


def os_out(total: np.ndarray, shift: int) -> np.ndarray:
    """An output-stationary result as it leaves the array. Each PE's MAC output has the 20-bit mesh output width
    (Gemmini's PE.scala: MacUnit's out_d is outputType in both dataflows), so D + sum of A B is kept modulo 2^20
    (two's complement); it leaves shifted right rounding half to even and clipped to 20 bits (a no-op then)."""
    t = np.asarray(total, dtype=np.int64)
    wrapped = ((t + (1 << 19)) & ((1 << 20) - 1)) - (1 << 19)
    shifted = np.vectorize(lambda v: rne_shift(int(v), shift), otypes=[np.int64])(wrapped)
    return sat(shifted, 20)


def mvin_int8_scaled(data: np.ndarray, scale: float) -> np.ndarray:
    """int8 DRAM data through the mvin scale unit (scratchpad mvins and shrunk accumulator mvins)."""
    return scale_array(data.astype(np.int64), scale, -128, 127)
