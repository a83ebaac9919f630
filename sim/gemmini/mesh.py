"""preload and compute (funct 6, 4, 5): the systolic array's semantics in the WS and OS dataflows.

Between a preload and its compute the array holds the weights (WS) or the partial sums (OS); an OS result stays in
the PEs until the next flip shifts it out or a command outside the mesh stream drains it (Mesh._os_drain).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.gemmini import isa
from sim.gemmini.numerics import I8_MAX, I8_MIN, acc_read_scaled, round_shift, saturate, wrap
from sim.gemmini.params import MESH_OUTPUT_BITS
from sim.gemmini.state import GemminiIllegal, GemminiState

_ROW_MASK = (1 << 26) - 1  # a local address's row bits (below the norm command)

# The commands that keep an output-stationary matmul in the array (see Mesh._os_drain).
MESH_STREAM = frozenset((isa.PRELOAD, isa.COMPUTE_PRELOADED, isa.COMPUTE_ACCUMULATED))


@dataclass
class _Preload:
    """What a preload left for the compute that follows it."""

    c_raw: int
    c_rows: int
    c_cols: int
    bd: np.ndarray | None  # WS: the weights (DIM x DIM); OS: D; None = zeros
    bd_cols: int  # logical columns of the WS weights (for the MAC count)


class Mesh(GemminiState):
    """The array's state between instructions and the preload/compute instructions that use it."""

    def _init_mesh(self) -> None:
        d = self.p.dim
        self._pending: _Preload | None = None
        self._weights = np.zeros((d, d), dtype=np.int64)  # WS: the weights the mesh holds
        self._weights_cols = 0
        self._os_acc = np.zeros((d, d), dtype=np.int64)  # OS: the PEs' sums (20-bit values in 32-bit registers)
        self._os_out: _Preload | None = None  # OS: where the matrix in the PEs goes when shifted out
        self._zero_tile = np.zeros((d, d), dtype=np.int64)
        # 20-bit mesh outputs can only wrap when DIM int8 products plus an int8 D exceed 2^19.
        self._ws_may_wrap = d * 128 * 128 + 128 >= 1 << (MESH_OUTPUT_BITS - 1)

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
            blk = acc_read_scaled(blk, self.ex.acc_scale, self.ex.activation)
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
