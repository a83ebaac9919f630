"""Gemmini's counters: what the functional model counts, and the counter instruction (funct 126) that reads them."""

from __future__ import annotations

from sim.gemmini import isa

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
