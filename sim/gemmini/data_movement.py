"""mvin / mvin2 / mvin3 and mvout: moves between main memory and the scratchpad or accumulator.

The load side follows Gemmini's LoadController and Scratchpad (block moves, the mvin scale, the accumulator's
int32 or shrunk rows, the ZeroWriter, the PixelRepeater), the store side its StoreController (the accumulator
read-out scale and activation, full-width reads, 1-D mvouts and max pooling).
"""

from __future__ import annotations

import numpy as np

from sim.gemmini import isa
from sim.gemmini.numerics import I8_MAX, I8_MIN, acc_read_scaled, scale_to_int, wrap
from sim.gemmini.params import ACC_BYTES, ELEM_BYTES
from sim.gemmini.state import GemminiIllegal, GemminiState


class DataMover(GemminiState):
    """The DMA instructions, counting rows, requests, beats and bytes as they move."""

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
            out = acc_read_scaled(tile, st.scale, st.activation).astype(np.int8)
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
            img = acc_read_scaled(img, st.scale, st.activation)
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
