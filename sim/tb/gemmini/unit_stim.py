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


def _f32(x: float) -> int:
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
            return _f32(r.choice((0.5, 0.25, 2.0, 0.125, -1.0, 0.0)))
        if k == 2:
            return _f32(r.uniform(-4.0, 4.0))
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


def tile_program(
    p: GemminiParams, seed: int, ddr: int, ddr_size: int, dataflow: int, tiles: int
) -> list[tuple[int, int, int]]:
    """A random tile sequence in one dataflow: configs, then per tile mvin A / B (/ D into the accumulator),
    preload, compute (sometimes a second, accumulated), mvout of C; DRAM inside [ddr, ddr + ddr_size)."""
    r, d = random.Random(seed), p.dim
    prog: list[tuple[int, int, int]] = []
    ws = dataflow == isa.WS
    a_t = r.random() < 0.2
    b_t = (not a_t) and r.random() < 0.2 if ws else (a_t and r.random() < 0.3)
    if not ws and not a_t:
        b_t = False
    act = int(r.random() < 0.3)
    scale = r.choice((1.0, 1.0, 0.5, 0.25))
    shift = 0 if ws else r.randrange(0, 4)
    cfg_ex = isa.CONFIG_EX | (dataflow << 2) | (act << 3) | (int(a_t) << 8) | (int(b_t) << 9) | (1 << 16)
    prog.append((isa.CONFIG, cfg_ex | (_f32(scale) << 32), shift | (1 << 48)))
    pitch = 4 * d * 4  # DRAM row pitch of every matrix (bytes)
    for idx in range(3):
        # int8 loads scale (and saturate); mvin3 of int8 D into the accumulator (shrink) scales too
        shrink = idx == 2 and r.random() < 0.3
        ld_scale = _f32(r.choice((1.0, 1.0, 0.5, 2.0, -0.75)))
        ld = isa.CONFIG_LD | (int(shrink) << 2) | (idx << 3) | (1 << 8) | (d << 16) | (ld_scale << 32)
        prog.append((isa.CONFIG, ld, pitch))
    st_scale = r.choice((1.0, 0.5, 0.125))
    prog.append((isa.CONFIG, isa.CONFIG_ST | (act << 2), pitch | (_f32(st_scale) << 32)))
    region = ddr_size // (tiles * 4 + 4)

    def dram(slot: int) -> int:
        return ddr + slot * region + r.randrange(0, 32)

    for t in range(tiles):
        sp_a, sp_b = (t * 4) * d, (t * 4 + 1) * d
        acc_c = (t % (p.acc_rows // d)) * d
        ar, ac = r.randrange(1, d + 1), r.randrange(1, d + 1)
        br, bc = r.randrange(1, d + 1), r.randrange(1, d + 1)
        prog.append((isa.MVIN, dram(4 * t), rs(sp_a, d, d)))
        prog.append((isa.MVIN2, dram(4 * t + 1), rs(sp_b, d, d)))
        with_d = r.random() < 0.5
        if with_d:
            prog.append((isa.MVIN3, dram(4 * t + 2), rs(0x8000_0000 | acc_c, d, d)))
        accumulate = with_d or r.random() < 0.3
        c_raw = 0x8000_0000 | (int(accumulate) << 30) | acc_c
        if r.random() < 0.2:
            c_raw = (t * 4 + 2) * d  # C in the scratchpad (int8 clip)
        cr, cc = r.randrange(1, d + 1), r.randrange(1, d + 1)
        if ws:
            prog.append((isa.PRELOAD, rs(sp_b, bc, br), rs(c_raw, cc, cr)))
            prog.append((isa.COMPUTE_PRELOADED, rs(sp_a, ac, ar), rs(GARBAGE, d, d)))
        else:
            prog.append((isa.PRELOAD, rs(GARBAGE, d, d), rs(c_raw, cc, cr)))
            prog.append((isa.COMPUTE_PRELOADED, rs(sp_a, ac, ar), rs(sp_b, bc, br)))
            if r.random() < 0.4:
                prog.append((isa.COMPUTE_ACCUMULATED, rs(sp_a, ac, ar), rs(sp_b, bc, br)))
        full = c_raw >> 31 and r.random() < 0.3
        src = c_raw | (int(full) << 29) if c_raw >> 31 else c_raw
        prog.append((isa.MVOUT, dram(4 * t + 3), rs(src & ~(1 << 30), cc, cr)))
    return prog


def loop_program(p: GemminiParams, seed: int, ddr: int, ddr_size: int) -> list[tuple[int, int, int]]:
    """One loop_ws (WS) with small random bounds and pads and random loop_ws fields (ex accumulate, full C, low D,
    ReLU, A or B transposed, the config_ex transpose to match), its matrices inside [ddr, ddr + ddr_size)."""
    r, d = random.Random(seed), p.dim
    mi, mj, mk = r.randrange(1, 3), r.randrange(1, 3), r.randrange(1, 3)
    pi, pj, pk = r.randrange(0, d), r.randrange(0, d), r.randrange(0, d)
    ex_acc, full_c, low_d, act = (int(r.random() < 0.3) for _ in range(4))
    a_t, b_t = r.choice(((0, 0), (0, 0), (1, 0), (0, 1)))
    q = ddr_size // 4
    a, b, dd, c = ddr, ddr + q, ddr + 2 * q, ddr + 3 * q
    # elements a matrix row (row-major; a transposed matrix is stored K x I or J x K)
    sa = (mi if a_t else mk) * d
    sb = (mk if b_t else mj) * d
    sd, sc = mj * d, mj * d
    d_bytes, c_bytes = (1 if low_d else 4), (4 if full_c else 1)
    ex = isa.CONFIG_EX | (isa.WS << 2) | (act << 3) | (a_t << 8) | (b_t << 9) | (1 << 16)
    one = _f32(1.0) << 32
    prog = [
        (isa.CONFIG, ex | one, 1 << 48),
        (isa.CONFIG, isa.CONFIG_LD | (0 << 3) | (1 << 8) | (d << 16) | one, sa),
        (isa.CONFIG, isa.CONFIG_LD | (1 << 3) | (1 << 8) | (d << 16) | one, sb),
        (isa.CONFIG, isa.CONFIG_LD | (low_d << 2) | (2 << 3) | (1 << 8) | (d << 16) | one, sd * d_bytes),
        (isa.CONFIG, isa.CONFIG_ST | (act << 2), sc * c_bytes | one),
        (isa.LOOP_WS_CONFIG_BOUNDS, pi | (pj << 16) | (pk << 32), mi | (mj << 16) | (mk << 32)),
        (isa.LOOP_WS_CONFIG_ADDRS_AB, a, b),
        (isa.LOOP_WS_CONFIG_ADDRS_DC, dd if r.random() < 0.5 else 0, c),
        (isa.LOOP_WS_CONFIG_STRIDES_AB, sa, sb),
        (isa.LOOP_WS_CONFIG_STRIDES_DC, sd, sc),
        (isa.LOOP_WS, ex_acc | (full_c << 1) | (low_d << 2) | (act << 8), a_t | (b_t << 1)),
    ]
    return prog


def feature_program(p: GemminiParams, seed: int, ddr: int, ddr_size: int) -> list[tuple[int, int, int]]:
    """Legal uses of the fields random streams rarely reach legally: mvin with pixel repeats, shrunk and scaled
    accumulator mvins, max-pooled mvouts (from the accumulator, scaled, ReLU, and from the scratchpad) with random
    window, stride, padding and geometry, 1-D mvouts, OS with C stride 0, WS with C and A strides of 2, all inside
    [ddr, ddr + ddr_size)."""
    r, d = random.Random(seed), p.dim
    one = _f32(1.0) << 32
    sc = _f32(r.choice((1.0, 0.5, 2.0, -0.75))) << 32
    prog: list[tuple[int, int, int]] = []
    # pixel repeats: copies of each row go up to reps-1 rows above, shifted right by cols each
    reps, cols = r.randrange(2, 5), r.randrange(1, d + 1)
    prog.append((isa.CONFIG, isa.CONFIG_LD | (0 << 3) | (reps << 8) | (d << 16) | sc, d))
    prog.append((isa.MVIN, ddr + r.randrange(0, 64), rs(8 * d + r.randrange(0, d), cols, r.randrange(1, d + 1))))
    # an image of orows x ocols pixels, one a row, in the accumulator (int32, then shrunk int8 on top) and the
    # scratchpad
    orows, ocols = r.randrange(2, 5), r.randrange(2, 5)
    pixels = orows * ocols
    prog.append((isa.CONFIG, isa.CONFIG_LD | (2 << 3) | (1 << 8) | (d << 16) | one, 4 * d))
    prog.append((isa.CONFIG, isa.CONFIG_LD | (1 << 2) | (1 << 3) | (1 << 8) | (d << 16) | sc, d))
    for row in range(0, pixels, d):
        n = min(d, pixels - row)
        prog.append((isa.MVIN3, ddr + 0x400 + row * 4 * d, rs(0x8000_0000 | row, d, n)))
        if r.random() < 0.5:  # mvin2 with shrink: int8 rows scaled into the accumulator, accumulated
            prog.append((isa.MVIN2, ddr + 0x800 + row * d, rs(0xC000_0000 | row, d, n)))
        prog.append((isa.MVIN2, ddr + 0xC00 + row * d, rs(16 * d + row, d, n)))
    for src in (0x8000_0000, 16 * d):
        size, stride = r.randrange(1, 4), r.randrange(1, 3)
        upad, lpad = r.randrange(0, size), r.randrange(0, size)
        porows = (orows + 2 * upad - size) // stride + 1
        pocols = (ocols + 2 * lpad - size) // stride + 1
        if porows < 1 or pocols < 1:
            size, upad, lpad, porows, pocols = 1, 0, 0, orows, ocols
        out_dim = pocols + r.randrange(0, 3)
        act = r.getrandbits(1)
        st = (
            isa.CONFIG_ST
            | (act << 2)
            | (stride << 4)
            | (size << 6)
            | (upad << 8)
            | (lpad << 10)
            | (out_dim << 24)
            | (porows << 32)
            | (pocols << 40)
            | (orows << 48)
            | (ocols << 56)
        )
        prog.append((isa.CONFIG, st, 2 * d | sc))
        prog.append((isa.MVOUT, ddr + 0x1000 + (0x800 if src == 16 * d else 0), rs(src, r.randrange(1, d + 1), 0)))
    # 1-D mvout: pool size without stride, orows x ocols rows, pool_out_dim pixels a DRAM row
    st1 = isa.CONFIG_ST | (1 << 6) | ((ocols + 1) << 24) | (orows << 48) | (ocols << 56)
    prog.append((isa.CONFIG, st1, d | sc))
    prog.append((isa.MVOUT, ddr + 0x2000, rs(0x8000_0000, r.randrange(1, d + 1), 1)))
    # OS with C stride 0 (every row to C + DIM - 1), then WS with C and A strides of 2
    prog.append((isa.CONFIG, isa.CONFIG_ST, d | one))
    prog.append((isa.CONFIG, isa.CONFIG_EX | (isa.OS << 2) | (1 << 16) | one, r.randrange(0, 4)))
    prog.append((isa.PRELOAD, rs(GARBAGE, d, d), rs(0xC000_0000 | 4 * d, d, d)))
    prog.append((isa.COMPUTE_PRELOADED, rs(8 * d, d, d), rs(16 * d, d, d)))
    prog.append((isa.MVOUT, ddr + 0x3000, rs(0x8000_0000 | 4 * d, d, d)))
    prog.append((isa.CONFIG, isa.CONFIG_EX | (isa.WS << 2) | (2 << 16) | one, 2 << 48))
    prog.append((isa.PRELOAD, rs(16 * d, d, d), rs(0x8000_0000 | 6 * d, d, d)))
    prog.append((isa.COMPUTE_PRELOADED, rs(8 * d, d, d), rs(GARBAGE, d, d)))
    prog.append((isa.MVOUT, ddr + 0x3800, rs(0x8000_0000 | 6 * d, d, d)))
    prog.append((isa.MVOUT, ddr + 0x3C00, rs(0x8000_0000 | 6 * d + d, d, d)))
    return prog


# The whole-unit tests' memory: a window of random bytes at this offset into the DDR region.
WINDOW_OFF, WINDOW_SIZE = 0x1_0000, 0x8000
# Seeds of the whole-unit program tests per SoC (DIM 4 in the default tier, DIM 16 in the slow one).
UNIT_SEEDS: dict[str, dict[str, tuple[int, ...]]] = {
    "gemmini-dim4": {"tiles": (1, 2), "loop": (1, 2, 3, 4, 5), "features": (1, 2, 3, 4), "random": (1, 2)},
    "gemmini-dim16": {"tiles": (1, 2, 3), "loop": (1, 2, 3, 4, 5, 6), "features": (1, 2, 3), "random": (1, 2, 3, 4)},
}


def regions(soc: str) -> list[tuple[int, int]]:
    """The memory map's regions of ``soc`` (scalar, DDR, SRAM) as (base, size)."""
    from configs import load_soc

    m = load_soc(soc).memory_map
    return [(m.scalar_base, m.scalar_size), (m.ddr_base, m.ddr_size), (m.sram_base, m.sram_size)]


def window_base(soc: str) -> int:
    from configs import load_soc

    return load_soc(soc).memory_map.ddr_base + WINDOW_OFF


def unit_programs(soc: str) -> dict[str, list[tuple[int, int, int]]]:
    """Every program the whole-unit comparison tests run on ``soc``, by test id (tiles-ws-1, loop-2, random-1):
    the tests take them from here, and gen_coverage.py measures which fields they vary."""
    from sim.gemmini.params import gemmini_params

    p, base, seeds = gemmini_params(soc), window_base(soc), UNIT_SEEDS[soc]
    out: dict[str, list[tuple[int, int, int]]] = {}
    for seed in seeds["tiles"]:
        for df, name in ((isa.WS, "ws"), (isa.OS, "os")):
            out[f"tiles-{name}-{seed}"] = tile_program(p, seed * 7 + df, base, WINDOW_SIZE, df, tiles=6)
    for seed in seeds["loop"]:
        out[f"loop-{seed}"] = loop_program(p, seed, base, WINDOW_SIZE)
    for seed in seeds["features"]:
        out[f"features-{seed}"] = feature_program(p, seed, base, WINDOW_SIZE)
    for seed in seeds["random"]:
        out[f"random-{seed}"] = random_program(p, regions(soc), 300, seed, pair=True)
    return out
