"""Build (cached) and run the cocotb test bench of ``gemmini_dma`` (sim/rtl/gemmini/gemmini_dma.sv).

The build goes through :func:`sim.tb.gemmini.build.cached_build` (under ``$COSIM_CACHE/dma_tb``). A run plays
read and write requests into the DMA against a Python model of the amem port (sim/tb/gemmini/dma_cocotb.py)
and returns what the driver recorded.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from sim.tb.gemmini.build import RTL_DIR, TB_DIR, ArrayBuild, cached_build, run_cocotb

TOPLEVEL = "dma_tb"
COCOTB_MODULE = "sim.tb.gemmini.dma_cocotb"
RTL_SOURCES: tuple[Path, ...] = (RTL_DIR / "gemmini_pkg.sv", RTL_DIR / "gemmini_dma.sv")
TB_SOURCES: tuple[Path, ...] = (TB_DIR / "dma_tb.sv",)


@dataclass(frozen=True)
class DmaParams:
    dma_bytes: int = 16
    dma_max_bytes: int = 64
    outstanding: int = 16
    rd_bufs: int = 8

    @property
    def port_bytes(self) -> int:
        return max(8, self.dma_bytes)


def build_dma_tb(p: DmaParams) -> ArrayBuild:
    params = {
        "DmaBytes": p.dma_bytes,
        "DmaMaxBytes": p.dma_max_bytes,
        "Outstanding": p.outstanding,
        "RdBufs": p.rd_bufs,
    }
    return cached_build(TOPLEVEL, RTL_SOURCES + TB_SOURCES, params, p.dma_bytes, params)


@dataclass
class DmaStim:
    base: int  # address of image[0]
    image: bytes
    mem_lo: int  # beats outside [mem_lo, mem_hi) answer with an error
    mem_hi: int
    reads: list[tuple[int, int, int]]  # addr, len, tag
    writes: list[tuple[int, int, bytes, int]]  # addr, len, data (dma_max_bytes), id
    latency: int = 4
    seed: int = 0
    p_mem_gap: float = 0.0
    p_req_gap: float = 0.0
    p_rsp_stall: float = 0.0
    max_cycles: int = 200_000


@dataclass
class DmaRun:
    cycles: int
    beats: list[tuple[int, int, int, int, int, int]]  # accept cycle, addr, we, be, wdata, response cycle
    rsps: list[tuple[int, bytes, int, int]]  # tag, data, err, cycle
    dones: list[int]  # cycles wr_done_o was high
    traces: list[tuple[int, int, bytes, int, int]]  # addr, len, data, id, cycle
    occupancy: list[int]  # beats in flight on the port, per cycle
    image: bytes
    left: list[int] = field(default_factory=list)  # requests not taken, beats not answered (0 when finished)
    rd_taken: list[int] = field(default_factory=list)  # cycle each read request was taken
    wr_taken: list[int] = field(default_factory=list)
    wall_s: float = 0.0


def run_dma(b: ArrayBuild, p: DmaParams, s: DmaStim, workdir: Path) -> DmaRun:
    workdir.mkdir(parents=True, exist_ok=True)
    stim, out = workdir / "stim.json", workdir / "out.json"
    nb = p.dma_max_bytes
    stim.write_text(
        json.dumps(
            {
                "port_bytes": p.port_bytes,
                "latency": s.latency,
                "outstanding": p.outstanding,
                "base": s.base,
                "mem_lo": s.mem_lo,
                "mem_hi": s.mem_hi,
                "image": s.image.hex(),
                "reads": [list(r) for r in s.reads],
                "writes": [[a, n, int.from_bytes(d, "little").__format__("x"), i] for a, n, d, i in s.writes],
                "seed": s.seed,
                "p_mem_gap": s.p_mem_gap,
                "p_req_gap": s.p_req_gap,
                "p_rsp_stall": s.p_rsp_stall,
                "max_cycles": s.max_cycles,
            }
        )
    )
    out.unlink(missing_ok=True)
    t0 = time.perf_counter()
    run_cocotb(b, TOPLEVEL, COCOTB_MODULE, workdir, {"GEMMINI_DMA_STIM": str(stim), "GEMMINI_DMA_OUT": str(out)}, out)
    r = json.loads(out.read_text())

    def data(h: str) -> bytes:
        return int(h, 16).to_bytes(nb, "little")

    return DmaRun(
        cycles=r["cycles"],
        beats=[(c, a, w, be, int(d, 16), rc) for c, a, w, be, d, rc in r["beats"]],
        rsps=[(t, data(d), e, c) for t, d, e, c in r["rsps"]],
        dones=r["dones"],
        traces=[(a, n, data(d), i, c) for a, n, d, i, c in r["traces"]],
        occupancy=r["occupancy"],
        image=bytes.fromhex(r["image"]),
        left=r["left"],
        rd_taken=r["rd_taken"],
        wr_taken=r["wr_taken"],
        wall_s=time.perf_counter() - t0,
    )
