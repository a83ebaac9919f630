"""loop_ws (funct 8..13): the LoopMatmul unroller as a generator of primitive commands.

Gemmini's LoopMatmul turns one configured loop into mvin (A), mvin2 (B), mvin3 (D), preload,
compute and mvout commands; it runs its five sub-units concurrently but their regions are
disjoint, so issuing them in dependency order (D, A, B, the computes, the stores) leaves the
same scratchpad, accumulator and memory. Two loops can be in flight in hardware, so each loop
gets half the scratchpad (A from the bottom of its half, B ending DIM rows below its top) and
half the accumulator; the scratchpad half alternates with every loop, the accumulator half
with every loop that stores C (LoopMatmul.scala's ld_d/ex_c/st_c address starts).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from sim.gemmini import isa
from sim.gemmini.params import GemminiParams

MASK16 = 0xFFFF


def _rs2(addr: int, cols: int, rows: int) -> int:
    return (rows << 48) | (cols << 32) | (addr & 0xFFFF_FFFF)


def _c_tiles(mi: int, mj: int, blocks_max: int, pad_i: int, pad_j: int, d: int) -> Iterator[tuple[int, int, int, int]]:
    """The C-shaped tiles D is loaded and C stored in: (i, j, rows, cols) with j stepping by up to ``blocks_max``
    tiles per move and i fastest; the last tile row and column lose their padding."""
    for j in range(0, mj, blocks_max):
        blocks = min(blocks_max, mj - j)
        cols = blocks * d - (pad_j if j + blocks >= mj else 0)
        for i in range(mi):
            yield i, j, d - (pad_i if i == mi - 1 else 0), cols


@dataclass
class LoopWsConfig:
    max_i: int = 0
    max_j: int = 0
    max_k: int = 0
    pad_i: int = 0
    pad_j: int = 0
    pad_k: int = 0
    a_addr: int = 0
    b_addr: int = 0
    d_addr: int = 0
    c_addr: int = 0
    a_stride: int = 0
    b_stride: int = 0
    d_stride: int = 0
    c_stride: int = 0


class LoopWs:
    def __init__(self) -> None:
        self.cfg = LoopWsConfig()
        self.loops_started = 0  # which scratchpad half the next loop takes
        self.acc_half = 0  # which accumulator half the next loop takes

    def configure(self, funct: int, rs1: int, rs2: int) -> None:
        c = self.cfg
        if funct == isa.LOOP_WS_CONFIG_BOUNDS:
            c.max_i, c.max_j, c.max_k = rs2 & MASK16, (rs2 >> 16) & MASK16, (rs2 >> 32) & MASK16
            c.pad_i, c.pad_j, c.pad_k = rs1 & MASK16, (rs1 >> 16) & MASK16, (rs1 >> 32) & MASK16
        elif funct == isa.LOOP_WS_CONFIG_ADDRS_AB:
            c.a_addr, c.b_addr = rs1, rs2
        elif funct == isa.LOOP_WS_CONFIG_ADDRS_DC:
            c.d_addr, c.c_addr = rs1, rs2
        elif funct == isa.LOOP_WS_CONFIG_STRIDES_AB:
            c.a_stride, c.b_stride = rs1, rs2
        elif funct == isa.LOOP_WS_CONFIG_STRIDES_DC:
            c.d_stride, c.c_stride = rs1, rs2
        else:
            raise ValueError(f"funct {funct} is not a loop_ws config (9..13)")

    def _check(self, rs1: int, rs2: int, p: GemminiParams) -> None:
        from sim.gemmini.model import GemminiIllegal

        c, d = self.cfg, p.dim
        for name, v in (("pad_I", c.pad_i), ("pad_J", c.pad_j), ("pad_K", c.pad_k)):
            if v >= d:
                raise GemminiIllegal(
                    f"gemmini loop_ws: {name} = {v} must be below DIM = {d} (padding is inside the last tile)"
                )
        act = (rs1 >> 8) & 0x7
        if act > isa.ACT_RELU:
            raise GemminiIllegal(
                f"gemmini loop_ws: activation = {act} (rs1[10:8]) needs a normalization unit this Gemmini has not"
            )
        if rs2 >> 2 & 1:
            raise GemminiIllegal(
                "gemmini loop_ws: residual add (rs2[2]) is not modelled; use mvin with the accumulate bit"
            )
        if rs2 & 1 and rs2 >> 1 & 1:
            raise GemminiIllegal("gemmini loop_ws: A transpose and B transpose together are not supported")
        half_sp = p.sp_rows // 2
        a_rows = c.max_i * c.max_k * d
        b_rows = c.max_k * c.max_j * d
        if a_rows + b_rows > half_sp - d:
            raise GemminiIllegal(
                f"gemmini loop_ws: I x K + K x J tiles ({c.max_i}x{c.max_k} + {c.max_k}x{c.max_j}) "
                f"need {a_rows + b_rows} scratchpad rows, more than half the scratchpad minus DIM "
                f"({half_sp - d})"
            )
        if c.max_i * c.max_j * d > p.acc_rows // 2:
            raise GemminiIllegal(
                f"gemmini loop_ws: I x J tiles ({c.max_i}x{c.max_j}) need {c.max_i * c.max_j * d} "
                f"accumulator rows, more than half the accumulator ({p.acc_rows // 2})"
            )

    def commands(self, rs1: int, rs2: int, p: GemminiParams) -> Iterator[tuple[int, int, int]]:
        """The primitive commands of the loop loop_ws(rs1, rs2) starts, in an order that respects its dependencies."""
        self._check(rs1, rs2, p)
        c, d = self.cfg, p.dim
        ex_accumulate, full_c, low_d = bool(rs1 & 1), bool(rs1 >> 1 & 1), bool(rs1 >> 2 & 1)
        a_t, b_t = bool(rs2 & 1), bool(rs2 >> 1 & 1)
        half = self.loops_started % 2
        self.loops_started += 1
        a_start = half * (p.sp_rows // 2)
        b_end = (half + 1) * (p.sp_rows // 2) - d
        acc_start = self.acc_half * (p.acc_rows // 2)
        if c.c_addr != 0:
            self.acc_half ^= 1
        mi, mj, mk = c.max_i, c.max_j, c.max_k
        if mi == 0 or mj == 0 or mk == 0:
            return iter(())
        return self._unroll(p, a_start, b_end, acc_start, ex_accumulate, full_c, low_d, a_t, b_t)

    def _unroll(
        self,
        p: GemminiParams,
        a_start: int,
        b_end: int,
        acc_start: int,
        ex_accumulate: bool,
        full_c: bool,
        low_d: bool,
        a_t: bool,
        b_t: bool,
    ) -> Iterator[tuple[int, int, int]]:
        c, d = self.cfg, p.dim
        mi, mj, mk = c.max_i, c.max_j, c.max_k
        mbl, mbla = p.max_block_len, p.max_block_len_acc
        acc_base = (1 << 31) | acc_start

        # ldD: bias rows into the accumulator (overwrite), i fastest.
        if c.d_addr != 0:
            eb = 1 if low_d else 4
            blocks_max = min(mj, mbl if low_d else mbla)
            for i, j, rows, cols in _c_tiles(mi, mj, blocks_max, c.pad_i, c.pad_j, d):
                dram = c.d_addr + (i * c.d_stride + j) * d * eb
                yield isa.MVIN3, dram, _rs2(acc_base + (i * mj + j) * d, cols, rows)

        # ldA (mvin) and ldB (mvin2): a block move covers up to MAX_BLOCK_LEN tiles along a memory row.
        def loads(funct: int, dram0: int, stride: int, sp0: int, n_rows: int, n_cols: int, pad_r: int, pad_c: int):
            blocks_max = min(n_cols, mbl)
            for col in range(0, n_cols, blocks_max):
                blocks = min(blocks_max, n_cols - col)
                cols = blocks * d - (pad_c if col + blocks >= n_cols else 0)
                for row in range(n_rows):
                    rows = d - (pad_r if row == n_rows - 1 else 0)
                    yield funct, dram0 + (row * stride + col) * d, _rs2(sp0 + (row * n_cols + col) * d, cols, rows)

        if a_t:
            yield from loads(isa.MVIN, c.a_addr, c.a_stride, a_start, mk, mi, c.pad_k, c.pad_i)
        else:
            yield from loads(isa.MVIN, c.a_addr, c.a_stride, a_start, mi, mk, c.pad_i, c.pad_k)
        b_start = b_end - mk * mj * d
        if b_t:
            yield from loads(isa.MVIN2, c.b_addr, c.b_stride, b_start, mj, mk, c.pad_j, c.pad_k)
        else:
            yield from loads(isa.MVIN2, c.b_addr, c.b_stride, b_start, mk, mj, c.pad_k, c.pad_j)

        # Execute: k outermost, i fastest; weights are preloaded once per (k, j) and reused while i runs.
        garbage = isa.GARBAGE_ADDR
        full_tile = (d << 48) | (d << 32)
        d_rs2 = full_tile | garbage
        c_base = (3 << 30) | acc_start
        for k in range(mk):
            kpad = c.pad_k if k == mk - 1 else 0
            a_cols = d - kpad
            b_rows = d - kpad
            for j in range(mj):
                jpad = c.pad_j if j == mj - 1 else 0
                b_cols = d - jpad
                b_addr = b_start + ((j * mk + k) if b_t else (k * mj + j)) * d
                for i in range(mi):
                    rows = d - (c.pad_i if i == mi - 1 else 0)
                    a_addr = a_start + ((k * mi + i) if a_t else (i * mk + k)) * d
                    tile = i * mj + j
                    out = (c_base if ex_accumulate or k else acc_base) + tile * d
                    pre = b_addr if i == 0 else garbage
                    yield isa.PRELOAD, _rs2(pre, b_cols, b_rows), _rs2(out, b_cols, rows)
                    yield (
                        isa.COMPUTE_PRELOADED if i == 0 else isa.COMPUTE_ACCUMULATED,
                        _rs2(a_addr, a_cols, rows),
                        d_rs2,
                    )

        # stC: int8 rows in blocks of MAX_BLOCK_LEN tiles, or one int32 tile at a time (full_C).
        if c.c_addr != 0:
            eb = 4 if full_c else 1
            blocks_max = 1 if full_c else min(mj, mbl)
            st_base = (1 << 31) | (int(full_c) << 29) | acc_start
            for i, j, rows, cols in _c_tiles(mi, mj, blocks_max, c.pad_i, c.pad_j, d):
                dram = c.c_addr + (i * c.c_stride + j) * d * eb
                yield isa.MVOUT, dram, _rs2(st_base + (i * mj + j) * d, cols, rows)
