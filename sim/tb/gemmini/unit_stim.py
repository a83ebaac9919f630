"""Random Gemmini instruction streams for the unit's test benches, and the functional model's verdict on them.

:func:`random_program` mixes every funct (configs with all their fields, mvin/mvout/preload/compute with local
addresses near the ends of the scratchpad and accumulator, DRAM addresses at the memory map's edges, loop_ws
with its configs, counter, flush, loop_conv, unknown functs); :func:`model_verdicts` runs a stream on
sim/gemmini/model.py the way the RTL takes it: an instruction the model refuses (GemminiIllegal) leaves no trace
(its state, counters included, is rolled back: the core traps precisely), and the verdict is (legal,
gm_illegal_e code).
"""

from __future__ import annotations

import copy
import random
import struct

import numpy as np

from sim.gemmini import isa
from sim.gemmini.model import GemminiIllegal, GemminiModel
from sim.gemmini.params import GemminiParams
from sim.tb.gemmini.unit_build import model_reason

GARBAGE = 0xFFFF_FFFF
M64 = (1 << 64) - 1
F32_ONE = 0x3F80_0000


class MapMemory:
    """Main memory as the model's ``Memory``: bytes outside the regions are refused as Spike refuses them."""

    def __init__(self, regions: list[tuple[int, int]]):
        self.regions = regions
        self.data: dict[int, int] = {}

    def _ok(self, addr: int, size: int) -> bool:
        a, end = addr, addr + size
        while a < end:  # walk region by region (they may touch)
            r = next(((b, s) for b, s in self.regions if b <= a < b + s), None)
            if r is None:
                return False
            a = r[0] + r[1]
        return True

    def read(self, addr: int, size: int) -> bytes:
        if size and not self._ok(addr, size):
            raise GemminiIllegal(f"DMA read of {size} bytes at 0x{addr:x} leaves the memory map")
        return bytes(self.data.get(addr + i, 0) for i in range(size))

    def write(self, addr: int, data: bytes) -> None:
        if data and not self._ok(addr, len(data)):
            raise GemminiIllegal(f"DMA write of {len(data)} bytes at 0x{addr:x} leaves the memory map")
        for i, b in enumerate(data):
            self.data[addr + i] = b


def rs(addr: int, cols: int, rows: int) -> int:
    return ((rows & 0xFFFF) << 48) | ((cols & 0xFFFF) << 32) | (addr & 0xFFFF_FFFF)


def f32_bits(x: float) -> int:
    """The IEEE single bits of ``x`` (config scale fields)."""
    return struct.unpack("<I", struct.pack("<f", x))[0]


class Gen:
    def __init__(self, p: GemminiParams, regions: list[tuple[int, int]], rng: random.Random, pair: bool = False):
        self.p, self.regions, self.r = p, regions, rng
        self.pair = pair  # every preload is followed by a compute
        self.after_preload = False
        self.queue: list[tuple[int, int, int]] = []  # instructions that must come next

    def pick(self, *weighted):
        vals, weights = zip(*weighted, strict=True)
        return self.r.choices(vals, weights)[0]

    def small(self, hi: int) -> int:
        return self.r.randrange(0, hi + 1)

    def dram(self) -> int:
        r, regs = self.r, self.regions
        lo_base = min(b for b, _ in regs)
        hi_end = max(b + s for b, s in regs)
        k = self.pick((0, 3), (1, 30), (2, 30), (3, 8), (4, 8), (5, 2))
        if k == 0:
            return 0
        if k == 1:
            b, s = r.choice(regs)
            return b + r.randrange(0, 0x4000)
        if k == 2:
            return hi_end - r.randrange(1, 0x400)  # near the end of the last region
        if k == 3:
            return lo_base - r.randrange(1, 0x200)  # just below the first
        if k == 4:
            return r.randrange(0, 1 << 32)
        return r.randrange(0, 1 << 64)

    def local(self, acc_bias: float = 0.5) -> int:
        r, p, d = self.r, self.p, self.p.dim
        if r.random() < 0.08:
            return GARBAGE
        if r.random() < acc_bias:
            rows = p.acc_rows
            row = self.pick(
                (r.randrange(0, 4 * d), 4),
                (rows - r.randrange(0, 4 * d + 1), 3),
                (r.randrange(0, rows), 3),
                (r.randrange(0, 1 << 26), 1),
            )
            hi = 0x8000_0000 | (r.getrandbits(1) << 30) | (r.getrandbits(1) << 29 if r.random() < 0.3 else 0)
            if r.random() < 0.05:
                hi |= r.randrange(1, 8) << 26
            return hi | (row & ((1 << 26) - 1))
        rows = p.sp_rows
        row = self.pick(
            (r.randrange(0, 4 * d), 4),
            (rows - r.randrange(0, 6 * d + 1), 3),
            (r.randrange(0, rows), 3),
            (r.randrange(0, 1 << 30), 1),
        )
        return row & 0x3FFF_FFFF | ((r.getrandbits(1) << 30) if r.random() < 0.1 else 0)

    def dims(self, cols_hi: int | None = None) -> tuple[int, int]:
        d, r = self.p.dim, self.r
        rows = self.pick((r.randrange(1, d + 1), 20), (0, 1), (d + r.randrange(1, 3), 1))
        cols = self.pick((r.randrange(1, (cols_hi or d) + 1), 20), (0, 1), ((cols_hi or d) + r.randrange(1, 3), 1))
        return rows, cols

    def scale(self) -> int:
        """fp32 bits of a scale: mostly exact powers of two and one, some random values, rarely any bit pattern
        (NaN, infinities, subnormals: the scale unit must match the model's numpy fp32 on every one)."""
        r = self.r
        k = self.pick((0, 6), (1, 4), (2, 3), (3, 1))
        if k == 0:
            return F32_ONE
        if k == 1:
            return f32_bits(r.choice((0.5, 0.25, 2.0, 0.125, -1.0, 0.0)))
        if k == 2:
            return f32_bits(r.uniform(-4.0, 4.0))
        return r.getrandbits(32)

    def stride16(self) -> int:
        r = self.r
        return self.pick((1, 10), (0, 2), (2, 2), (r.randrange(0, 8), 2), (r.randrange(0, 1 << 16), 1))

    def insn(self) -> tuple[int, int, int]:
        i = self.queue.pop(0) if self.queue else self._insn()
        self.after_preload = self.pair and i[0] == isa.PRELOAD and not self.queue
        return i

    def _insn(self) -> tuple[int, int, int]:
        r, p, d = self.r, self.p, self.p.dim
        kind = (
            "compute"
            if self.after_preload
            else self.pick(
                ("cfg_ex", 6),
                ("cfg_ld", 6),
                ("cfg_st", 5),
                ("cfg_norm", 1),
                ("mvin", 14),
                ("mvout", 10),
                ("preload", 12),
                ("compute", 14),
                ("loop_cfg", 10),
                ("loop", 4),
                ("misc", 3),
                ("conv", 1),
                ("unknown", 1),
                ("unstick", 2),
            )
        )
        if kind == "unstick":
            # An OS result whose write is refused (IllOsStride, a C stride above 1) refuses every later command but
            # preload / compute. A preload with no C, then an unflipped compute reading nothing, replaces it with
            # the preload's empty result: legal in either dataflow, and it ends such a stretch.
            g = rs(GARBAGE, d, d)
            self.queue.append((isa.COMPUTE_ACCUMULATED, g, g))
            return isa.PRELOAD, g, g
        if kind == "cfg_ex":
            rs1 = (
                (r.getrandbits(1) << 2)
                | (self.pick((0, 5), (1, 5), (2, 1), (3, 1)) << 3)
                | ((1 << 7) if r.random() < 0.15 else 0)
                | (r.getrandbits(1) << 8)
                | (r.getrandbits(1) << 9)
                | (self.stride16() << 16)
                | (self.scale() << 32)
            )
            # An OS result with a C stride above 1 can never be written (IllOsStride) and refuses every command but
            # preload / compute until a compute replaces it: wide C strides go with WS (a full config_ex), and are
            # rare in OS, or streams stall on it.
            if rs1 >> 2 & 1 and not rs1 >> 7 & 1:
                c_stride = self.pick((1, 10), (0, 2), (2, 2), (r.randrange(0, 8), 2), (r.randrange(0, 1 << 16), 1))
            else:
                c_stride = self.pick((1, 40), (0, 4), (2, 1))
            rs2 = r.randrange(0, 32) | (c_stride << 48)
            return isa.CONFIG, rs1 | isa.CONFIG_EX, rs2
        if kind == "cfg_ld":
            idx = self.pick((0, 5), (1, 5), (2, 5), (3, 1))
            reps = self.pick((1, 6), (0, 2), (r.randrange(2, 5), 2))
            bstride = self.pick((d, 6), (0, 1), (r.randrange(0, 3 * d), 2), (r.randrange(0, 1 << 16), 1))
            stride = self.pick(
                (d, 4), (r.randrange(0, 256), 4), (r.randrange(0, 1 << 24), 1), (r.randrange(0, 1 << 64), 1)
            )
            rs1 = (
                isa.CONFIG_LD
                | (r.getrandbits(1) << 2)
                | (idx << 3)
                | (reps << 8)
                | (bstride << 16)
                | (self.scale() << 32)
            )
            return isa.CONFIG, rs1, stride
        if kind == "cfg_st":
            pool_stride = self.pick((0, 8), (r.randrange(1, 4), 2))
            pool_size = self.pick((0, 8), (r.randrange(1, 4), 2))
            rs1 = (
                isa.CONFIG_ST
                | (self.pick((0, 5), (1, 5), (2, 1), (3, 1)) << 2)
                | (pool_stride << 4)
                | (pool_size << 6)
                | (r.randrange(0, 4) << 8)
                | (r.randrange(0, 4) << 10)
                | (r.randrange(0, 12) << 24)
                | (r.randrange(0, 5) << 32)
                | (r.randrange(0, 5) << 40)
                | (r.randrange(0, 6) << 48)
                | (r.randrange(0, 6) << 56)
            )
            stride = self.pick((d, 4), (r.randrange(0, 256), 4), (r.randrange(0, 1 << 32), 1))
            keep = r.random() < 0.3  # all ones: the scale in force stays (LoopConv's ACC_SCALE_NO_CHANGE)
            return isa.CONFIG, rs1, stride | ((0xFFFF_FFFF if keep else self.scale()) << 32)
        if kind == "cfg_norm":
            return isa.CONFIG, 3 | (r.getrandbits(8) << 2), r.getrandbits(64)
        if kind == "mvin":
            funct = r.choice((isa.MVIN, isa.MVIN2, isa.MVIN3))
            local = self.local(0.5 if funct != isa.MVIN3 else 0.8)
            # int32 rows into the accumulator move MAX_BLOCK_LEN_ACC blocks at most (one at DIM 16): mostly stay
            # inside it, or most accumulator mvins would be refused
            to_acc = local != GARBAGE and local >> 31 and r.random() < 0.8
            rows, cols = self.dims(d * (p.max_block_len_acc if to_acc else p.max_block_len))
            return funct, self.dram(), rs(local, cols, rows)
        if kind == "mvout":
            rows, cols = self.dims(d * p.max_block_len)
            return isa.MVOUT, self.dram(), rs(self.local(0.6), cols, rows)
        if kind == "preload":
            br, bc = self.dims()
            cr, cc = self.dims()
            c = self.local(0.7)
            if c != GARBAGE:
                cr = max(cr, 1)  # the model cannot drain a result of zero rows (min() of nothing)
            return isa.PRELOAD, rs(self.local(0.3), bc, br), rs(c, cc, cr)
        if kind == "compute":
            ar, ac = self.dims()
            br, bc = self.dims()
            return (
                r.choice((isa.COMPUTE_PRELOADED, isa.COMPUTE_ACCUMULATED)),
                rs(self.local(0.2), ac, ar),
                rs(self.local(0.3), bc, br),
            )
        if kind == "loop_cfg":
            funct = r.randrange(isa.LOOP_WS_CONFIG_BOUNDS, isa.LOOP_WS_CONFIG_STRIDES_DC + 1)
            if funct == isa.LOOP_WS_CONFIG_BOUNDS:
                b = [
                    self.pick((r.randrange(1, 4), 12), (0, 1), (r.randrange(4, 7), 3), (r.randrange(7, 40), 1))
                    for _ in range(3)
                ]
                x = r.random()
                if x < 0.06:  # A and B tiles just past half the scratchpad minus DIM (IllLoopSp)
                    b = [2, 2, p.sp_rows // (8 * d) + 1]
                elif x < 0.12:  # C tiles just past half the accumulator (IllLoopAcc)
                    b = [p.acc_rows // (2 * d) + 1, 1, 1]
                pads = [self.pick((0, 6), (r.randrange(0, d), 4), (d, 1)) for _ in range(3)]
                return funct, pads[0] | (pads[1] << 16) | (pads[2] << 32), b[0] | (b[1] << 16) | (b[2] << 32)
            if funct in (isa.LOOP_WS_CONFIG_ADDRS_AB, isa.LOOP_WS_CONFIG_ADDRS_DC):
                a = self.dram() if r.random() < 0.9 else 0
                b = self.dram() if r.random() < 0.8 else 0
                return funct, a, b
            st = [
                self.pick((r.randrange(1, 17), 8), (0, 1), (r.randrange(0, 1 << 16), 1), (r.randrange(0, 1 << 64), 1))
                for _ in range(2)
            ]
            return funct, st[0], st[1]
        if kind == "loop":
            rs1 = r.getrandbits(3) | (self.pick((0, 8), (1, 4), (r.randrange(2, 8), 1)) << 8)
            rs2 = (
                r.getrandbits(1)
                | (r.getrandbits(1) << 1 if r.random() < 0.3 else 0)
                | ((1 << 2) if r.random() < 0.05 else 0)
            )
            return isa.LOOP_WS, rs1, rs2
        if kind == "misc":
            return r.choice((isa.FLUSH, isa.CLKGATE_EN, isa.COUNTER)), r.getrandbits(64), r.getrandbits(64)
        if kind == "conv":
            return r.randrange(isa.LOOP_CONV_WS, isa.LOOP_CONV_WS_CONFIG_6 + 1), r.getrandbits(64), r.getrandbits(64)
        return r.choice([f for f in range(128) if f not in isa.FUNCT_NAMES]), r.getrandbits(64), r.getrandbits(64)


def random_program(
    p: GemminiParams, regions: list[tuple[int, int]], n: int, seed: int, pair: bool = False
) -> list[tuple[int, int, int]]:
    """``n`` random instructions; ``pair``: a compute follows every preload (as programs do; a preload whose
    compute never comes holds the reads of its B/D rows in the ROB, UNIT.md)."""
    g = Gen(p, regions, random.Random(seed), pair)
    return [g.insn() for _ in range(n)]


_SHADOW = ("ld", "ex", "st", "_pending", "_os_out", "_weights", "_weights_cols", "_os_acc")


def model_verdicts(
    model: GemminiModel, insns: list[tuple[int, int, int]]
) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, str]]]:
    """Run ``insns`` on ``model`` with rollback on GemminiIllegal; the instructions kept (the model's own crash on a
    zero-row OS result drops one) and per kept instruction (legal, reason code, message)."""
    kept, out = [], []
    for funct, rs1, rs2 in insns:
        saved = copy.deepcopy([getattr(model, a) for a in _SHADOW])
        lw = model.loop_ws
        saved_loop = (copy.deepcopy(lw.cfg), lw.loops_started, lw.acc_half)
        sp, acc, counters = model.sp.copy(), model.acc.copy(), dict(model.counters)
        try:
            # random scales include NaN and infinities: numpy's warnings about their products are expected
            with np.errstate(invalid="ignore", over="ignore"):
                model.execute(funct, rs1 & M64, rs2 & M64)
            out.append((1, 0, ""))
        except GemminiIllegal as e:
            out.append((0, model_reason(str(e)), str(e)))
        except ValueError:
            out.append(None)  # type: ignore[arg-type]
        if out[-1] is None or not out[-1][0]:
            for a, v in zip(_SHADOW, saved, strict=True):
                setattr(model, a, v)
            lw.cfg, lw.loops_started, lw.acc_half = saved_loop
            model.sp, model.acc = sp, acc
            model.counters.clear()  # the CounterFile holds this dict: restore it in place
            model.counters.update(counters)
        if out[-1] is None:
            out.pop()
            continue
        kept.append((funct, rs1, rs2))
    return kept, out


# The whole-unit tests' memory: a window of random bytes at this offset into the DDR region.
WINDOW_OFF, WINDOW_SIZE = 0x1_0000, 0x8000


def regions(soc: str) -> list[tuple[int, int]]:
    """The memory map's regions of ``soc`` (scalar, DDR, SRAM) as (base, size)."""
    from configs import load_soc

    m = load_soc(soc).memory_map
    return [(m.scalar_base, m.scalar_size), (m.ddr_base, m.ddr_size), (m.sram_base, m.sram_size)]


def window_base(soc: str) -> int:
    from configs import load_soc

    return load_soc(soc).memory_map.ddr_base + WINDOW_OFF
