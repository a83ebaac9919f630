"""Bit-exact functional model of Gemmini v0.7's ISA (DESIGN.md, Gemmini unit).

One :meth:`GemminiModel.execute` call is one RoCC instruction. State is what
software can observe: the scratchpad (int8 rows of DIM), the accumulator
(int32 rows of DIM), the config registers, the weights/partial sums held in
the mesh between a preload and its computes, and the counters. Timing is not
modelled; every instruction completes before the next one starts, which is
what Gemmini's ROB guarantees for its own commands.

Numbers follow Gemmini's RTL (ExecuteController, LoadController,
StoreController, AccumulatorScale, PE, LoopMatmul); where a choice was made
where the RTL leaves one open, the comment says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from sim.gemmini import isa
from sim.gemmini.params import ACC_BYTES, ELEM_BYTES, MESH_OUTPUT_BITS, GemminiParams

I8_MIN, I8_MAX = -128, 127
_ROW_MASK = (1 << 26) - 1  # a local address's row bits (below the norm command)
I32_MIN, I32_MAX = -(1 << 31), (1 << 31) - 1


class GemminiIllegal(Exception):
    """An instruction Gemmini would reject (or whose behaviour is undefined); the message names it and the field."""


class Memory(Protocol):
    """Main memory as the DMA sees it (physical addresses)."""

    def read(self, addr: int, size: int) -> bytes: ...

    def write(self, addr: int, data: bytes) -> None: ...


# ---------------------------------------------------------------- numerics


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


# ---------------------------------------------------------------- config registers


@dataclass
class LoadConfig:
    """One mvin id's config_ld state (mvin, mvin2, mvin3 each have one)."""

    stride: int = 0
    scale: np.float32 = field(default_factory=lambda: np.float32(1.0))
    shrink: bool = False
    block_stride: int = 0
    pixel_repeats: int = 1


@dataclass
class ExConfig:
    dataflow: int = isa.WS
    activation: int = isa.ACT_NONE
    a_transpose: bool = False
    b_transpose: bool = False
    a_stride: int = 1
    c_stride: int = 1
    acc_scale: np.float32 = field(default_factory=lambda: np.float32(1.0))
    shift: int = 0


@dataclass
class StoreConfig:
    stride: int = 0
    activation: int = isa.ACT_NONE
    scale: np.float32 = field(default_factory=lambda: np.float32(1.0))
    pool_stride: int = 0
    pool_size: int = 0
    pool_out_dim: int = 0
    porows: int = 0
    pocols: int = 0
    orows: int = 0
    ocols: int = 0
    upad: int = 0
    lpad: int = 0


@dataclass
class _Preload:
    """What a preload left for the compute that follows it."""

    c_raw: int
    c_rows: int
    c_cols: int
    bd: np.ndarray | None  # WS: the weights (DIM x DIM); OS: D; None = zeros
    bd_cols: int  # logical columns of the WS weights (for the MAC count)


COUNTER_NAMES = tuple(f"insn_{n}" for n in isa.FUNCT_NAMES.values())
# What the functional model counts besides instructions (the counter events below read these):
# rows moved by mvin/mvout, rows streamed through the mesh (preload and compute each stream DIM), DMA requests
# (one a row) and beats (dma_bytes each), commands the loop unrollers issued, pooled pixels, and computes whose
# A / B(D) operand was the garbage address.
BASE_COUNTERS = (
    "gemmini_macs",
    "dma_bytes_read",
    "dma_bytes_written",
    "mvin_rows",
    "mvout_rows",
    "mesh_rows",
    "dma_read_reqs",
    "dma_write_reqs",
    "dma_read_beats",
    "dma_write_beats",
    "loop_cmds",
    "pool_pixels",
    "a_garbage",
    "bd_garbage",
    "flushes",
)


class CounterFile:
    """Gemmini's counter instruction (funct 126; CounterFile.scala's CounterController).

    rs1[0] resets every counter (configs survive), rs1[1] clears the snapshot, rs1[2] takes one, rs1[3] sets
    counter rs1[6:4] to count event rs1[17:12] (rs1[31]: an external counter) and zeroes it. rd is counter
    rs1[6:4]'s value before the instruction's own effects (the snapshot's while one is held), 32 bits wide.
    Cycle events have no cycles here: each counts the nearest functional quantity (EVENTS)."""

    N = 8
    WIDTH_MASK = 0xFFFF_FFFF
    # event number (gemmini_counter.h) -> model counter it reads
    EVENTS = {
        1: "mvin_rows",
        2: "mvout_rows",
        3: "mesh_rows",
        9: "mvin_rows",
        12: "mvout_rows",
        13: "pool_pixels",
        16: "dma_read_reqs",
        17: "dma_read_reqs",
        18: "dma_read_beats",
        21: "dma_write_beats",
        24: "mesh_rows",
        25: "flushes",
        35: "a_garbage",
        36: "bd_garbage",
        43: "loop_cmds",
        45: "dma_read_reqs",
        46: "dma_write_reqs",
    }
    # external counter number -> model counter (4 RDMA_BYTES_REC, 5 WDMA_BYTES_SENT; ROB occupancy is 0 here)
    EXTERNAL = {4: "dma_bytes_read", 5: "dma_bytes_written"}

    def __init__(self, counters: dict[str, int]):
        self.c = counters
        self.config = [0] * self.N  # bit 6: external
        self.base = [0] * self.N
        self.ext_base = {k: 0 for k in self.EXTERNAL}
        self.snapshot: list[int] | None = None

    def _raw(self, cfg: int) -> int:
        if cfg & 0x40:
            name = self.EXTERNAL.get(cfg & 0x3F)
            return self.c[name] - self.ext_base[cfg & 0x3F] if name else 0
        name = self.EVENTS.get(cfg)
        return self.c[name] if name else 0

    def value(self, idx: int) -> int:
        cfg = self.config[idx]
        if cfg & 0x40:
            return self._raw(cfg) & self.WIDTH_MASK
        return (self._raw(cfg) - self.base[idx]) & self.WIDTH_MASK

    def execute(self, rs1: int, rs2: int) -> int:
        idx = (rs1 >> 4) & 7
        rd = self.snapshot[idx] if self.snapshot is not None else self.value(idx)
        if rs1 & 1:
            self.snapshot = None
            self.base = [self._raw(cfg) if not cfg & 0x40 else 0 for cfg in self.config]
            self.ext_base = {k: self.c[n] for k, n in self.EXTERNAL.items()}
        if rs1 >> 1 & 1:
            self.snapshot = None
        elif rs1 >> 2 & 1:
            self.snapshot = [self.value(i) for i in range(self.N)]
        if rs1 >> 3 & 1:
            cfg = ((rs1 >> 31 & 1) << 6) | ((rs1 >> 12) & 0x3F)
            self.config[idx] = cfg
            self.base[idx] = self._raw(cfg) if not cfg & 0x40 else 0
        return rd


# The commands that keep an output-stationary matmul in the array (see GemminiModel._os_drain).
_MESH_STREAM = frozenset((isa.PRELOAD, isa.COMPUTE_PRELOADED, isa.COMPUTE_ACCUMULATED))


class GemminiModel:
    def __init__(self, params: GemminiParams, mem: Memory):
        self.p = params
        self.mem = mem
        d = params.dim
        self.sp = np.zeros((params.sp_rows, d), dtype=np.int8)
        self.acc = np.zeros((params.acc_rows, d), dtype=np.int32)
        # Gemmini's RTL leaves the DRAM strides unset at reset; like Gemmini's own Spike model we start them at one
        # int8 row (DIM bytes), which Gemmini's older tests rely on (they mvin/mvout without a config_ld/st).
        self.ld = [LoadConfig(stride=d * ELEM_BYTES, block_stride=d) for _ in range(3)]
        self.ex = ExConfig(dataflow=isa.WS if params.has_ws else isa.OS)
        self.st = StoreConfig(stride=d * ELEM_BYTES)
        self.counters: dict[str, int] = {k: 0 for k in BASE_COUNTERS}
        for n in COUNTER_NAMES:
            self.counters[n] = 0
        self._pending: _Preload | None = None
        self._weights = np.zeros((d, d), dtype=np.int64)  # WS: the weights the mesh holds
        self._weights_cols = 0
        self._os_acc = np.zeros((d, d), dtype=np.int64)  # OS: the PEs' sums (20-bit values in 32-bit registers)
        self._os_out: _Preload | None = None  # OS: where the matrix in the PEs goes when shifted out
        self._zero_tile = np.zeros((d, d), dtype=np.int64)
        # 20-bit mesh outputs can only wrap when DIM int8 products plus an int8 D exceed 2^19.
        self._ws_may_wrap = d * 128 * 128 + 128 >= 1 << (MESH_OUTPUT_BITS - 1)
        from sim.gemmini.loop_ws import LoopWs

        self.loop_ws = LoopWs()
        self._loop_conv = None
        self.counter_file = CounterFile(self.counters)
        self._dispatch: dict[int, Callable[[int, int], int]] = {
            isa.CONFIG: self._config,
            isa.MVIN: self._mvin0,
            isa.MVIN2: self._mvin1,
            isa.MVIN3: self._mvin2,
            isa.MVOUT: self._mvout,
            isa.PRELOAD: self._preload,
            isa.COMPUTE_PRELOADED: self._compute_preloaded,
            isa.COMPUTE_ACCUMULATED: self._compute_accumulated,
            isa.FLUSH: self._flush,
            isa.LOOP_WS: self._loop_ws,
            isa.CLKGATE_EN: lambda rs1, rs2: 0,
            isa.COUNTER: self.counter_file.execute,
        }
        for f in range(isa.LOOP_WS_CONFIG_BOUNDS, isa.LOOP_WS_CONFIG_STRIDES_DC + 1):
            self._dispatch[f] = self._loop_ws_config(f)
        for f in range(isa.LOOP_CONV_WS, isa.LOOP_CONV_WS_CONFIG_6 + 1):
            self._dispatch[f] = self._loop_conv_cmd(f)

    # ------------------------------------------------------------ entry point

    def execute(self, funct: int, rs1: int, rs2: int) -> int:
        """Run one RoCC instruction; returns the rd value (0 when it writes none)."""
        fn = self._dispatch.get(funct)
        if fn is None:
            raise GemminiIllegal(f"gemmini: unknown funct {funct} (Gemmini v0.7 defines {sorted(isa.FUNCT_NAMES)})")
        self.counters["insn_" + isa.FUNCT_NAMES[funct]] += 1
        if self._os_out is not None and funct not in _MESH_STREAM:
            self._os_drain()
        return fn(rs1 & 0xFFFF_FFFF_FFFF_FFFF, rs2 & 0xFFFF_FFFF_FFFF_FFFF)

    def run(self, cmds: Iterable[tuple[int, int, int]]) -> None:
        """Execute unrolled primitive commands (loop_ws/loop_conv); they count like the instructions they are."""
        disp, cnt = self._dispatch, self.counters
        n = 0
        for funct, rs1, rs2 in cmds:
            cnt["insn_" + isa.FUNCT_NAMES[funct]] += 1
            if self._os_out is not None and funct not in _MESH_STREAM:
                self._os_drain()
            disp[funct](rs1, rs2)
            n += 1
        cnt["loop_cmds"] += n

    # ------------------------------------------------------------ config

    def _config(self, rs1: int, rs2: int) -> int:
        kind = rs1 & 3
        if kind == isa.CONFIG_EX:
            self._config_ex(rs1, rs2)
        elif kind == isa.CONFIG_LD:
            idx = (rs1 >> 3) & 3
            if idx > 2:
                raise GemminiIllegal(
                    f"gemmini config_ld: mvin id = {idx} (rs1[4:3]) is not 0 (mvin), 1 (mvin2) or 2 (mvin3)"
                )
            c = self.ld[idx]
            c.stride = rs2
            c.shrink = bool(rs1 >> 2 & 1)
            c.pixel_repeats = max(1, (rs1 >> 8) & 0xFF)  # 0 would wrap the repeater's counter; read as 1
            c.block_stride = (rs1 >> 16) & 0xFFFF
            c.scale = f32_bits_to_float(rs1 >> 32)
        elif kind == isa.CONFIG_ST:
            act = (rs1 >> 2) & 3
            self._check_act("config_st", act, "rs1[3:2]")
            # StoreController: stride, activation, pool stride and size always; the pooling geometry only with a
            # pool stride, orows/ocols/pool_out_dim also for a 1-D mvout (pool size without stride); a scale of
            # all ones (LoopConv's ACC_SCALE_NO_CHANGE) keeps the scale in force.
            s = self.st
            s.activation = act
            s.pool_stride = (rs1 >> 4) & 3
            s.pool_size = (rs1 >> 6) & 3
            if s.pool_stride:
                s.upad = (rs1 >> 8) & 3
                s.lpad = (rs1 >> 10) & 3
                s.porows = (rs1 >> 32) & 0xFF
                s.pocols = (rs1 >> 40) & 0xFF
            if s.pool_stride or s.pool_size:
                s.pool_out_dim = (rs1 >> 24) & 0xFF
                s.orows = (rs1 >> 48) & 0xFF
                s.ocols = (rs1 >> 56) & 0xFF
            s.stride = rs2 & 0xFFFF_FFFF
            if rs2 >> 32 != 0xFFFF_FFFF:
                s.scale = f32_bits_to_float(rs2 >> 32)
        else:
            raise GemminiIllegal("gemmini config_norm (rs1[1:0] = 3): this Gemmini has no normalization unit")
        return 0

    def _config_ex(self, rs1: int, rs2: int) -> None:
        e = self.ex
        set_only_strides = bool(rs1 >> 7 & 1)
        if not set_only_strides:
            df = (rs1 >> 2) & 1
            name = "WS" if df == isa.WS else "OS"
            if name not in self.p.dataflows:
                raise GemminiIllegal(
                    f"gemmini config_ex: dataflow = {name} (rs1[2] = {df}) is not in this config "
                    f"(dataflows {', '.join(self.p.dataflows)})"
                )
            act = (rs1 >> 3) & 3
            self._check_act("config_ex", act, "rs1[4:3]")
            a_t, b_t = bool(rs1 >> 8 & 1), bool(rs1 >> 9 & 1)
            # Gemmini has one transposer: WS transposes A and/or B itself, OS feeds A through it unless A is transposed.
            uses = (a_t if df == isa.WS else not a_t) + b_t
            if uses > 1:
                raise GemminiIllegal(
                    f"gemmini config_ex: {name} with A transpose = {int(a_t)} and B transpose = "
                    f"{int(b_t)} needs two transposers (Gemmini has one)"
                )
            e.dataflow, e.activation, e.a_transpose, e.b_transpose = df, act, a_t, b_t
            e.acc_scale = f32_bits_to_float(rs1 >> 32)
            e.shift = rs2 & 0x1F
        e.a_stride = (rs1 >> 16) & 0xFFFF
        e.c_stride = (rs2 >> 48) & 0xFFFF

    @staticmethod
    def _check_act(insn: str, act: int, where: str) -> None:
        if act not in (isa.ACT_NONE, isa.ACT_RELU):
            raise GemminiIllegal(
                f"gemmini {insn}: activation = {act} ({isa.ACTIVATION_NAMES.get(act, '?')}, {where}) "
                "needs a normalization unit this Gemmini has not; use 0 (none) or 1 (ReLU)"
            )

    # ------------------------------------------------------------ local addresses

    def _acc_row(self, insn: str, raw: int, span: int) -> int:
        row = raw & ((1 << 26) - 1)
        if (raw >> 26) & 7:
            raise GemminiIllegal(
                f"gemmini {insn}: norm command = {(raw >> 26) & 7} (local address bits 28..26) needs "
                "a normalization unit this Gemmini has not"
            )
        if row + span > self.p.acc_rows:
            raise GemminiIllegal(
                f"gemmini {insn}: accumulator rows {row}..{row + span - 1} (local address "
                f"{raw:#010x}) are outside the accumulator ({self.p.acc_rows} rows)"
            )
        return row

    def _sp_row(self, insn: str, raw: int, span: int) -> int:
        row = raw & 0x3FFF_FFFF  # bits 30 and 29 mean nothing for the scratchpad
        if row + span > self.p.sp_rows:
            raise GemminiIllegal(
                f"gemmini {insn}: scratchpad rows {row}..{row + span - 1} (local address "
                f"{raw:#010x}) are outside the scratchpad ({self.p.sp_rows} rows)"
            )
        return row

    def _check_rows(self, insn: str, what: str, rows: int, cols: int, max_cols: int | None = None) -> None:
        d = self.p.dim
        if rows > d:
            raise GemminiIllegal(f"gemmini {insn}: {what}rows = {rows} exceeds DIM = {d}")
        if cols > (max_cols if max_cols is not None else d):
            raise GemminiIllegal(f"gemmini {insn}: {what}cols = {cols} exceeds DIM = {d}")

    # ------------------------------------------------------------ mvin

    def _mvin0(self, rs1: int, rs2: int) -> int:
        return self._mvin(0, rs1, rs2)

    def _mvin1(self, rs1: int, rs2: int) -> int:
        return self._mvin(1, rs1, rs2)

    def _mvin2(self, rs1: int, rs2: int) -> int:
        return self._mvin(2, rs1, rs2)

    def _mvin(self, idx: int, dram: int, rs2: int) -> int:
        insn = ("mvin", "mvin2", "mvin3")[idx]
        raw, cols, rows = rs2 & 0xFFFF_FFFF, (rs2 >> 32) & 0xFFFF, (rs2 >> 48) & 0xFFFF
        d = self.p.dim
        if raw == isa.GARBAGE_ADDR or rows == 0 or cols == 0:
            return 0
        cfg = self.ld[idx]
        to_acc = bool(raw >> 31 & 1)
        int32_data = to_acc and not cfg.shrink
        max_blocks = self.p.max_block_len_acc if int32_data else self.p.max_block_len
        if rows > d:
            raise GemminiIllegal(f"gemmini {insn}: rows = {rows} exceeds DIM = {d}")
        blocks = -(-cols // d)
        if blocks > max_blocks:
            kind = "MAX_BLOCK_LEN_ACC" if int32_data else "MAX_BLOCK_LEN"
            raise GemminiIllegal(
                f"gemmini {insn}: cols = {cols} is {blocks} blocks of DIM = {d}, more than {kind} = {max_blocks}"
            )
        eb = ACC_BYTES if int32_data else ELEM_BYTES
        bstride = cfg.block_stride
        reps = cfg.pixel_repeats
        span = (blocks - 1) * bstride + rows
        base = self._acc_row(insn, raw, span) if to_acc else self._sp_row(insn, raw, span)
        if reps > 1 and to_acc:
            raise GemminiIllegal(
                f"gemmini {insn}: pixel repeats = {reps} (config_ld rs1[15:8]) only apply to scratchpad mvins"
            )
        # Gemmini's ZeroWriter: a DRAM address of 0 writes zeros instead of reading memory.
        if dram == 0:
            data = np.zeros((rows, cols), dtype=np.int64)
        else:
            nbytes = cols * eb
            buf = b"".join(self.mem.read(dram + r * cfg.stride, nbytes) for r in range(rows))
            data = np.frombuffer(buf, dtype=np.int32 if int32_data else np.int8).reshape(rows, cols).astype(np.int64)
            c = self.counters
            c["dma_bytes_read"] += rows * nbytes
            c["dma_read_reqs"] += rows
            c["dma_read_beats"] += rows * -(-nbytes // self.p.dma_bytes)
            # Scratchpad.scala sends scratchpad mvins and shrunk (int8) accumulator mvins (is_acc &&
            # !has_acc_bitwidth) through the int8 mvin scale unit: scaled and saturated to int8. The default Gemmini
            # has no accumulator mvin scaler (mvin_scale_acc_args = None): int32 data is written as read.
            if not int32_data and cfg.scale != np.float32(1.0):
                data = scale_to_int(data, cfg.scale, I8_MIN, I8_MAX)
        self.counters["mvin_rows"] += rows * blocks * reps
        accumulate = to_acc and bool(raw >> 30 & 1)
        for b in range(blocks):
            c0 = b * d
            w = min(d, cols - c0)
            chunk = data[:, c0 : c0 + w]
            r0 = base + b * bstride
            if to_acc:
                tgt = self.acc[r0 : r0 + rows, :w]
                tgt[...] = wrap(tgt.astype(np.int64) + chunk, 32) if accumulate else chunk
            elif reps == 1:
                self.sp[r0 : r0 + rows, :w] = chunk
            else:
                self._pixel_repeat(r0, chunk, reps)
        return 0

    def _pixel_repeat(self, r0: int, chunk: np.ndarray, reps: int) -> None:
        """PixelRepeater: copy k (k = reps-1 .. 0) of a row goes k rows up and k x len columns right; copies that
        would cross below the start of the row's scratchpad half are dropped, columns past DIM are cut off."""
        d, half = self.p.dim, self.p.sp_rows // 2
        w = chunk.shape[1]
        for r in range(chunk.shape[0]):
            row = r0 + r
            floor = 0 if row < half else half
            for k in range(reps - 1, -1, -1):
                if row - k < floor or k * w >= d:
                    continue
                c = k * w
                n = min(w, d - c)
                self.sp[row - k, c : c + n] = chunk[r, :n]

    # ------------------------------------------------------------ mvout

    def _acc_read_scaled(self, rows: np.ndarray, scale: np.float32, act: int) -> np.ndarray:
        """Accumulator rows as int8 (AccumulatorScale: scale, saturate to int8, then the activation)."""
        v = scale_to_int(rows.astype(np.int64), scale, I32_MIN, I32_MAX)
        v = np.clip(v, I8_MIN, I8_MAX)
        if act == isa.ACT_RELU:
            v = np.maximum(v, 0)
        return v

    def _mvout(self, dram: int, rs2: int) -> int:
        raw, cols, rows = rs2 & 0xFFFF_FFFF, (rs2 >> 32) & 0xFFFF, (rs2 >> 48) & 0xFFFF
        st = self.st
        # A pooled mvout takes its size from config_st (StoreController's pooling state counts porows x pocols x
        # window, never the rows field): Gemmini's library issues them with rows = 0.
        if raw == isa.GARBAGE_ADDR or cols == 0 or (rows == 0 and not st.pool_stride):
            return 0
        d = self.p.dim
        from_acc = bool(raw >> 31 & 1)
        full = from_acc and bool(raw >> 29 & 1)
        if st.pool_stride:
            return self._mvout_pool(dram, raw, cols, rows, from_acc, full)
        one_d = st.pool_size != 0  # StoreController's 1-D mvout: orows x ocols rows, pool_out_dim pixels a row
        if rows > d and not one_d:
            raise GemminiIllegal(f"gemmini mvout: rows = {rows} exceeds DIM = {d}")
        # StoreController refuses block mvouts of full-width accumulator rows and 1-D mvouts.
        max_blocks = 1 if full or one_d else self.p.max_block_len
        blocks = -(-cols // d)
        if blocks > max_blocks:
            why = "a full-width accumulator mvout" if full else ("a 1-D mvout" if one_d else "MAX_BLOCK_LEN")
            raise GemminiIllegal(
                f"gemmini mvout: cols = {cols} is {blocks} blocks of DIM = {d}, more than {why} allows ({max_blocks})"
            )
        if one_d:
            rows = st.orows * st.ocols
        span = (blocks - 1) * d + rows
        base = self._acc_row("mvout", raw, span) if from_acc else self._sp_row("mvout", raw, span)
        src = self.acc if from_acc else self.sp
        # Block b of a wide mvout is the DIM rows after block b-1.
        tile = np.concatenate([src[base + b * d : base + b * d + rows] for b in range(blocks)], axis=1)[:, :cols]
        if full:
            out = tile.astype("<i4")
        elif from_acc:
            out = self._acc_read_scaled(tile, st.scale, st.activation).astype(np.int8)
        else:
            out = tile
        nbytes = out.shape[1] * out.itemsize
        for r in range(rows):
            pitch = (r // st.ocols) * st.pool_out_dim + r % st.ocols if one_d else r
            self.mem.write(dram + pitch * st.stride, out[r].tobytes())
        self._count_writes(rows, nbytes)
        return 0

    def _mvout_pool(self, dram: int, raw: int, cols: int, rows: int, from_acc: bool, full: bool) -> int:
        """Max pooling on the way out (StoreController): the local rows hold an orows x ocols image, one pixel a row."""
        st, d = self.st, self.p.dim
        if cols > d:
            raise GemminiIllegal(f"gemmini mvout (pooling): cols = {cols} exceeds DIM = {d}")
        if full:
            raise GemminiIllegal("gemmini mvout (pooling): the full-width accumulator read (bit 29) cannot pool")
        if st.pool_size == 0 or st.ocols == 0 or st.orows == 0:
            raise GemminiIllegal(
                f"gemmini mvout (pooling): pool stride = {st.pool_stride} needs a pool size and "
                f"output dims (pool size = {st.pool_size}, orows = {st.orows}, ocols = {st.ocols})"
            )
        span = st.orows * st.ocols
        base = self._acc_row("mvout", raw, span) if from_acc else self._sp_row("mvout", raw, span)
        src = self.acc if from_acc else self.sp
        img = src[base : base + span, :cols].astype(np.int64)
        if from_acc:
            img = self._acc_read_scaled(img, st.scale, st.activation)
        img = img.reshape(st.orows, st.ocols, cols)
        out = np.full((st.porows, st.pocols, cols), np.iinfo(np.int64).min, dtype=np.int64)
        for wr in range(st.pool_size):
            for wc in range(st.pool_size):
                orow = np.arange(st.porows) * st.pool_stride + wr - st.upad
                ocol = np.arange(st.pocols) * st.pool_stride + wc - st.lpad
                vr, vc = (orow >= 0) & (orow < st.orows), (ocol >= 0) & (ocol < st.ocols)
                win = np.zeros((st.porows, st.pocols, cols), dtype=np.int64)  # padding pixels count as zero
                sub = img[np.clip(orow, 0, st.orows - 1)][:, np.clip(ocol, 0, st.ocols - 1)]
                mask = vr[:, None] & vc[None, :]
                win[mask] = sub[mask]
                out = np.maximum(out, win)
        out8 = out.astype(np.int8)
        for pr in range(st.porows):
            for pc in range(st.pocols):
                self.mem.write(dram + (pr * st.pool_out_dim + pc) * st.stride, out8[pr, pc].tobytes())
        self._count_writes(st.porows * st.pocols, cols)
        self.counters["pool_pixels"] += st.porows * st.pocols * st.pool_size * st.pool_size
        return 0

    def _count_writes(self, reqs: int, nbytes: int) -> None:
        c = self.counters
        c["mvout_rows"] += reqs
        c["dma_bytes_written"] += reqs * nbytes
        c["dma_write_reqs"] += reqs
        c["dma_write_beats"] += reqs * -(-nbytes // self.p.dma_bytes)

    # ------------------------------------------------------------ the mesh

    def _read_operand(self, insn: str, raw: int, rows: int, cols: int, transpose: bool, stride: int = 1) -> np.ndarray:
        """A DIM x DIM int64 operand from a local address: rows x cols of it are read, the rest is zero.

        With ``transpose`` the fields describe the logical operand and memory holds its transpose."""
        d = self.p.dim
        out = np.zeros((d, d), dtype=np.int64)
        if raw == isa.GARBAGE_ADDR:
            return out
        mrows, mcols = (cols, rows) if transpose else (rows, cols)
        if mrows == 0 or mcols == 0:
            return out
        span = (mrows - 1) * stride + 1
        if raw >> 31 & 1:
            r0 = self._acc_row(insn, raw, span)
            blk = self.acc[r0 : r0 + span : stride if stride else None, :mcols]
            if stride == 0:
                blk = np.repeat(self.acc[r0 : r0 + 1, :mcols], mrows, axis=0)
            blk = self._acc_read_scaled(blk, self.ex.acc_scale, self.ex.activation)
        else:
            r0 = self._sp_row(insn, raw, span)
            if stride == 1:
                blk = self.sp[r0 : r0 + mrows, :mcols]
            elif stride == 0:
                blk = np.repeat(self.sp[r0 : r0 + 1, :mcols], mrows, axis=0)
            else:
                blk = self.sp[r0 : r0 + span : stride, :mcols]
        out[:mrows, :mcols] = blk
        return out.T.copy() if transpose else out

    def _preload(self, rs1: int, rs2: int) -> int:
        bd_raw, bd_cols, bd_rows = rs1 & 0xFFFF_FFFF, (rs1 >> 32) & 0xFFFF, (rs1 >> 48) & 0xFFFF
        c_raw, c_cols, c_rows = rs2 & 0xFFFF_FFFF, (rs2 >> 32) & 0xFFFF, (rs2 >> 48) & 0xFFFF
        self._check_rows("preload", "", bd_rows, bd_cols)
        self._check_rows("preload", "C ", c_rows, c_cols)
        ws = self.ex.dataflow == isa.WS
        if not ws:
            self._os_drain_if_read(bd_raw, bd_rows, bd_cols)
        bd = None
        if bd_raw != isa.GARBAGE_ADDR:
            bd = self._read_operand("preload", bd_raw, bd_rows, bd_cols, ws and self.ex.b_transpose)
        self._pending = _Preload(c_raw, c_rows, c_cols, bd, bd_cols)
        self.counters["mesh_rows"] += self.p.dim
        return 0

    def _compute_preloaded(self, rs1: int, rs2: int) -> int:
        return self._compute(rs1, rs2, flip=True)

    def _compute_accumulated(self, rs1: int, rs2: int) -> int:
        return self._compute(rs1, rs2, flip=False)

    def _compute(self, rs1: int, rs2: int, flip: bool) -> int:
        insn = "compute_preloaded" if flip else "compute_accumulated"
        a_raw, a_cols, a_rows = rs1 & 0xFFFF_FFFF, (rs1 >> 32) & 0xFFFF, (rs1 >> 48) & 0xFFFF
        b_raw, b_cols, b_rows = rs2 & 0xFFFF_FFFF, (rs2 >> 32) & 0xFFFF, (rs2 >> 48) & 0xFFFF
        self._check_rows(insn, "A ", a_rows, a_cols)
        self._check_rows(insn, "B/D ", b_rows, b_cols)
        e = self.ex
        if e.dataflow == isa.OS:
            self._os_drain_if_read(a_raw, a_rows, a_cols, e.a_stride)
            self._os_drain_if_read(b_raw, b_rows, b_cols)
        a = self._read_operand(insn, a_raw, a_rows, a_cols, e.a_transpose, e.a_stride)
        pre, self._pending = self._pending, None
        garbage_a = a_raw == isa.GARBAGE_ADDR
        c = self.counters
        c["mesh_rows"] += self.p.dim
        c["a_garbage"] += garbage_a
        c["bd_garbage"] += b_raw == isa.GARBAGE_ADDR
        if e.dataflow == isa.WS:
            if flip:
                self._weights = pre.bd if pre is not None and pre.bd is not None else self._zero_tile
                self._weights_cols = pre.bd_cols if pre is not None and pre.bd is not None else 0
            # In WS the compute's rs2 is D, fed through the top of the array (never transposed).
            dthru = self._read_operand(insn, b_raw, b_rows, b_cols, False)
            out = a @ self._weights + dthru
            if self._ws_may_wrap:
                out = wrap(out, MESH_OUTPUT_BITS)
            if not garbage_a:
                self.counters["gemmini_macs"] += min(a_rows, self.p.dim) * a_cols * self._weights_cols
            if pre is not None:  # a compute without its preload writes nowhere (the mesh tag is garbage)
                self._write_result(insn, out, pre)
        else:
            b = self._read_operand(insn, b_raw, b_rows, b_cols, e.b_transpose)
            if flip:
                self._os_shift_out()
                self._os_acc = pre.bd.copy() if pre is not None and pre.bd is not None else np.zeros_like(a)
            if pre is not None:
                self._os_out = pre
            # PE.scala: the MAC unit's output is the 20-bit mesh output type even in OS (c1/c2 are 32-bit registers
            # but take out_d sign-extended), so a PE's sum wraps at 20 bits; wrapping each step or once is the same.
            self._os_acc = wrap(self._os_acc + a @ b, MESH_OUTPUT_BITS)
            if not garbage_a and b_raw != isa.GARBAGE_ADDR:
                self.counters["gemmini_macs"] += a_rows * a_cols * b_cols
        return 0

    def _os_shift_out(self) -> None:
        """OS: the next flip shifts the PEs' sums out, rounding-shifted and saturated to 20 bits.

        The shift is config_ex's in force: every config_ex writes a pending result out first (_os_drain), so it is
        the shift of the computes that made the sums, as in the RTL, where a config_ex waits for the array."""
        out, self._os_out = self._os_out, None
        if out is None:
            return
        val = saturate(round_shift(self._os_acc, self.ex.shift), MESH_OUTPUT_BITS)
        self._write_result("OS shift-out", val, out)

    def _os_drain(self) -> None:
        """OS: write a pending result before any command other than preload/compute runs.

        ExecuteController flushes the array by itself, without any flush instruction, when a matmul whose preload
        named a C is in the array (``matmul_in_progress``: a valid ROB id, which garbage-C preloads do not get) and
        either its command queue runs dry or a config_ex is next (``matmul_in_progress && (current_dataflow === OS
        || DoConfig)``); the flush flips the array only if the last preload named a C (``in_prop_flush``). A
        sequential model cannot see the queue run dry, so it takes any command outside the mesh stream (mvin,
        mvout, any config, flush, counter, loop starts, clock gate) as that point: a mvout right after the last
        compute sees the result, a config_ex cannot change the shift, activation or C stride the result is written
        with, and a compute_accumulated chain whose preloads name no C (Gemmini's library puts C on the chain's last
        preload) keeps summing across mvins. Funct 7 is Gemmini's TLB flush and never reaches the array; it is just
        another such point here. After a drain the PEs keep their sums (a later compute_accumulated adds to them,
        with no destination until a preload names one), which is what the array holds when no flip happened."""
        out = self._os_out
        if out.c_raw == isa.GARBAGE_ADDR or out.c_rows == 0 or out.c_cols == 0:
            return  # no ROB id in the array: ExecuteController does not flush, the chain goes on
        self._os_out = None
        val = saturate(round_shift(self._os_acc, self.ex.shift), MESH_OUTPUT_BITS)
        self._write_result("OS shift-out", val, out)

    def _os_drain_if_read(self, raw: int, rows: int, cols: int, stride: int = 1) -> None:
        """OS: a preload or compute that reads rows a pending result will write waits, in Gemmini, for that
        result (the ROB sees the read-after-write hazard); the array, with nothing else to run, flushes itself and
        the result lands first. Rows read are bounded generously (rows or cols, whichever is larger, times the
        stride): an early drain only moves a write the hardware would make anyway before this read."""
        out = self._os_out
        if out is None or raw == isa.GARBAGE_ADDR or out.c_raw == isa.GARBAGE_ADDR:
            return
        if bool(raw >> 31 & 1) != bool(out.c_raw >> 31 & 1):
            return  # one reads the scratchpad, the other writes the accumulator (or the other way round)
        d, cs = self.p.dim, self.ex.c_stride
        lo = (raw & _ROW_MASK) % self._space(raw)
        hi = lo + max(rows, cols, 1) * max(stride, 1)
        c0 = (out.c_raw & _ROW_MASK) % self._space(out.c_raw)
        offs = [(d - 1) - (d - 1 - r) * cs for r in range(out.c_rows)]  # where OS rows land (see _write_result)
        c_lo, c_hi = c0 + min(offs), c0 + max(offs) + 1
        if lo < c_hi and c_lo < hi:
            self._os_drain()

    def _space(self, raw: int) -> int:
        return self.p.acc_rows if raw >> 31 & 1 else self.p.sp_rows

    def _write_result(self, insn: str, out: np.ndarray, pre: _Preload) -> None:
        raw = pre.c_raw
        if raw == isa.GARBAGE_ADDR or pre.c_rows == 0 or pre.c_cols == 0:
            return
        rows, cols, cs = pre.c_rows, pre.c_cols, self.ex.c_stride
        vals = out[:rows, :cols]
        to_acc = bool(raw >> 31 & 1)
        if not to_acc:
            vals = np.clip(vals, I8_MIN, I8_MAX)
            if self.ex.activation == isa.ACT_RELU:
                vals = np.maximum(vals, 0)
        if cs == 1:  # the common case, as slices
            r0 = self._acc_row(insn, raw, rows) if to_acc else self._sp_row(insn, raw, rows)
            if not to_acc:
                self.sp[r0 : r0 + rows, :cols] = vals
            elif raw >> 30 & 1:
                self.acc[r0 : r0 + rows, :cols] = wrap(self.acc[r0 : r0 + rows, :cols].astype(np.int64) + vals, 32)
            else:
                self.acc[r0 : r0 + rows, :cols] = vals
            return
        # Row r of the result goes to C + r x stride (WS). OS shifts rows out last-first and the RTL steps its
        # address down from C + DIM-1 by the stride, so row r lands at C + (DIM-1) - (DIM-1-r) x stride.
        d = self.p.dim
        r = np.arange(rows)
        if self.ex.dataflow == isa.WS:
            offs, order = r * cs, r
        else:
            offs, order = (d - 1) - (d - 1 - r) * cs, r[::-1]
        if offs.min() < 0:
            raise GemminiIllegal(
                f"gemmini {insn}: OS result rows with C stride = {cs} (config_ex rs2[63:48]) "
                f"would go {-offs.min()} rows below the C address {raw:#010x}"
            )
        span = int(offs.max()) + 1
        r0 = self._acc_row(insn, raw, span) if to_acc else self._sp_row(insn, raw, span)
        tgt = self.acc if to_acc else self.sp
        if to_acc and raw >> 30 & 1:
            cur = tgt[r0 : r0 + span, :cols].astype(np.int64)
            np.add.at(cur, offs, vals)  # rows that share a target all add up
            tgt[r0 : r0 + span, :cols] = wrap(cur, 32)
        else:
            for i in order:  # in the order the rows come out, so the last one written wins
                tgt[r0 + offs[i], :cols] = vals[i]

    def _flush(self, rs1: int, rs2: int) -> int:
        """Funct 7 flushes Gemmini's TLB (Controller.scala sends it to the TLB, not to the ROB): nothing of the
        array or a pending preload changes; execute() has already written a pending OS result (_os_drain)."""
        self.counters["flushes"] += 1
        return 0

    # ------------------------------------------------------------ loops

    def _loop_ws_config(self, funct: int) -> Callable[[int, int], int]:
        def run(rs1: int, rs2: int) -> int:
            self.loop_ws.configure(funct, rs1, rs2)
            return 0

        return run

    def _loop_ws(self, rs1: int, rs2: int) -> int:
        self.run(self.loop_ws.commands(rs1, rs2, self.p))
        return 0

    def _loop_conv_cmd(self, funct: int) -> Callable[[int, int], int]:
        def run(rs1: int, rs2: int) -> int:
            name = isa.FUNCT_NAMES[funct]
            if not self.p.loop_conv:
                raise GemminiIllegal(f"gemmini {name}: this config has no loop_conv_ws unit (loop_conv = false)")
            if self._loop_conv is None:
                from sim.gemmini.loop_conv import LoopConv  # lazily: the conv unroller is optional

                self._loop_conv = LoopConv()
            if funct == isa.LOOP_CONV_WS:
                self.run(self._loop_conv.commands(rs1, rs2, self.p))
            else:
                self._loop_conv.configure(funct, rs1, rs2)
            return 0

        return run
