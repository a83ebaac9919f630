"""Build (cached) and run the cocotb test bench of the store controller (sim/rtl/gemmini/gemmini_store.sv) with the
real scratchpad and accumulator (``store_tb``) for one Gemmini config's sizes.

The build goes through :func:`sim.tb.gemmini.build.cached_build` (under ``$COSIM_CACHE/store_tb``). A run preloads
the memories, plays a command list into the controller and answers its DMA write requests with a Python model of
the DMA's write side (random ready, random in-order done latency); it returns every write request, every done and
the counters (see store_cocotb.py).
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from sim.gemmini.params import GemminiParams
from sim.tb.gemmini.build import RTL_DIR, TB_DIR, ArrayBuild, cached_build, run_cocotb

TOPLEVEL = "store_tb"
COCOTB_MODULE = "sim.tb.gemmini.store_cocotb"
# package first
RTL_SOURCES: tuple[Path, ...] = tuple(
    RTL_DIR / n for n in ("gemmini_pkg.sv", "gemmini_scale.sv", "gemmini_spad.sv", "gemmini_acc.sv", "gemmini_store.sv")
)
TB_SOURCES: tuple[Path, ...] = (TB_DIR / "store_tb.sv",)
# the same with the real DMA's write side between the controller and a Python model of the amem port
DMA_TOPLEVEL = "store_dma_tb"
DMA_SOURCES: tuple[Path, ...] = (RTL_DIR / "gemmini_dma.sv", TB_DIR / "store_dma_tb.sv")


def _parameters(p: GemminiParams) -> dict[str, int]:
    return {
        "Dim": p.dim,
        "SpBanks": p.sp_banks,
        "SpBankRows": p.sp_bank_rows,
        "AccBanks": p.acc_banks,
        "AccBankRows": p.acc_bank_rows,
        "DmaMaxBytes": p.dma_max_bytes,
    }


def build_store_tb(p: GemminiParams) -> ArrayBuild:
    """The store controller's test bench at ``p``'s sizes, from the cache or built now."""
    params = _parameters(p)
    return cached_build(TOPLEVEL, RTL_SOURCES + TB_SOURCES, params, p.dim, params)


def build_store_dma_tb(p: GemminiParams, outstanding: int = 16) -> ArrayBuild:
    """The controller + DMA test bench at ``p``'s sizes and DMA width (``outstanding`` beats in flight)."""
    params = {**_parameters(p), "DmaBytes": p.dma_bytes, "Outstanding": outstanding}
    return cached_build(DMA_TOPLEVEL, RTL_SOURCES + TB_SOURCES + DMA_SOURCES, params, p.dim, params)


@dataclass
class AmemModel:
    """The amem port model of a run with the real DMA (store_dma_tb): tb_mem_port's behaviour over ``image``."""

    base: int
    image: bytes
    port_bytes: int
    latency: int = 4
    outstanding: int = 16
    p_gap: float = 0.0  # chance of a cycle with mem_req_ready low although there is room


@dataclass
class StoreStim:
    """One run: memory preloads (global row -> packed row), commands, and the environment's randomness."""

    sp: dict[int, int]
    acc: dict[int, int]
    cmds: list[tuple[int, int, int, int]]  # funct, rs1, rs2, id
    seed: int = 1
    p_cmd: float = 0.8  # chance a cycle offers the next command (once offered, held until taken)
    p_sp_ready: float = 1.0
    p_acc_ready: float = 1.0
    p_wr_ready: float = 1.0
    done_latency: tuple[int, int] = (1, 1)  # cycles from an accepted write to its wr_done (min, max), in order
    max_cycles: int = 200_000
    amem: AmemModel | None = None  # set: the bench is store_dma_tb (the two fields above are then unused)


@dataclass
class WriteReq:
    cycle: int
    addr: int
    data: bytes
    id: int


@dataclass
class StoreRun:
    writes: list[WriteReq]
    dones: list[tuple[int, int]]  # (cycle, id)
    wr_dones: list[int]  # cycles of the wr_done pulses
    accepts: list[int]  # cycle each command was taken
    cycles: int  # from the first cycle after the preload to idle after the last done
    busy_cycles: int
    stall_cycles: int
    bytes_written: int
    wall_s: float = 0.0
    extra: dict = field(default_factory=dict)
    image: bytes | None = None  # with the DMA: the amem model's memory after the run
    traces: list[WriteReq] = field(default_factory=list)  # with the DMA: its trace_wr records


def run_store(b: ArrayBuild, stim: StoreStim, workdir: Path) -> StoreRun:
    workdir.mkdir(parents=True, exist_ok=True)
    sfile, out = workdir / "stim.json", workdir / "out.json"
    sfile.write_text(
        json.dumps(
            {
                "sp": [[r, str(v)] for r, v in sorted(stim.sp.items())],
                "acc": [[r, str(v)] for r, v in sorted(stim.acc.items())],
                "cmds": [[str(x) for x in c] for c in stim.cmds],
                "seed": stim.seed,
                "p_cmd": stim.p_cmd,
                "p_sp_ready": stim.p_sp_ready,
                "p_acc_ready": stim.p_acc_ready,
                "p_wr_ready": stim.p_wr_ready,
                "done_latency": list(stim.done_latency),
                "max_cycles": stim.max_cycles,
                "amem": None if stim.amem is None else {**asdict(stim.amem), "image": stim.amem.image.hex()},
            }
        )
    )
    out.unlink(missing_ok=True)
    t0 = time.perf_counter()
    run_cocotb(
        b,
        TOPLEVEL if stim.amem is None else DMA_TOPLEVEL,
        COCOTB_MODULE,
        workdir,
        {"GEMMINI_STORE_STIM": str(sfile), "GEMMINI_STORE_OUT": str(out)},
        out,
    )
    r = json.loads(out.read_text())
    return StoreRun(
        writes=[WriteReq(c, a, bytes.fromhex(d), i) for c, a, d, i in r["writes"]],
        dones=[(c, i) for c, i in r["dones"]],
        wr_dones=r["wr_dones"],
        accepts=r["accepts"],
        cycles=r["cycles"],
        busy_cycles=r["busy_cycles"],
        stall_cycles=r["stall_cycles"],
        bytes_written=r["bytes_written"],
        wall_s=time.perf_counter() - t0,
        extra={"timeout": r.get("timeout", False), "max_in_flight": r.get("max_in_flight", 0)},
        image=bytes.fromhex(r["image"]) if r.get("image") is not None else None,
        traces=[WriteReq(c, a, bytes.fromhex(d), i) for c, a, d, i in r.get("traces", [])],
    )
