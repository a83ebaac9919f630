"""Build (cached) and run the cocotb test bench of the Gemmini load controller (sim/rtl/gemmini/gemmini_load.sv) with
the real scratchpad and accumulator, for one Gemmini config's sizes.

The build goes through :func:`sim.tb.gemmini.build.cached_build` (under ``$COSIM_CACHE/load_tb``). A run feeds
commands ``(funct, rs1, rs2, id)`` to ``load_tb``, answers its DMA reads from a memory image with the Python DMA
model of load_cocotb.py, and returns every handshake it saw and every row of both memories at the end.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sim.gemmini.params import GemminiParams
from sim.tb.gemmini.build import RTL_DIR, TB_DIR, ArrayBuild, cached_build, run_cocotb

TOPLEVEL = "load_tb"
COCOTB_MODULE = "sim.tb.gemmini.load_cocotb"
# package first
RTL_SOURCES: tuple[Path, ...] = tuple(
    RTL_DIR / n for n in ("gemmini_pkg.sv", "gemmini_scale.sv", "gemmini_spad.sv", "gemmini_acc.sv", "gemmini_load.sv")
)
TB_SOURCES: tuple[Path, ...] = (TB_DIR / "load_tb.sv",)
DMA_TOPLEVEL = "load_dma_tb"
DMA_SOURCES: tuple[Path, ...] = (RTL_DIR / "gemmini_dma.sv", TB_DIR / "load_dma_tb.sv")


def parameters(p: GemminiParams) -> dict[str, int]:
    return {
        "Dim": p.dim,
        "SpBanks": p.sp_banks,
        "SpBankRows": p.sp_bank_rows,
        "AccBanks": p.acc_banks,
        "AccBankRows": p.acc_bank_rows,
        "DmaMaxBytes": p.dma_max_bytes,
        "MaxBlockLen": p.max_block_len,
        "MaxBlockLenAcc": p.max_block_len_acc,
    }


def build_load_tb(p: GemminiParams) -> ArrayBuild:
    """The load controller's test bench at ``p``'s sizes, from the cache or built now."""
    params = parameters(p)
    return cached_build(TOPLEVEL, RTL_SOURCES + TB_SOURCES, params, p.dim, params)


def build_load_dma_tb(p: GemminiParams, outstanding: int = 16) -> ArrayBuild:
    """The bench with the real DMA (load_dma_tb) at ``p``'s sizes and beat width, from the cache or built now."""
    params = {**parameters(p), "DmaBytes": p.dma_bytes, "Outstanding": outstanding}
    return cached_build(DMA_TOPLEVEL, RTL_SOURCES + TB_SOURCES + DMA_SOURCES, params, p.dim, params)


@dataclass
class AmemKnobs:
    """The amem port model behind the real DMA (tb_mem_port's behaviour)."""

    port_bytes: int  # bytes a port word (max(8, DmaBytes))
    latency: int = 4
    outstanding: int = 16  # beats accepted and not answered, at most
    p_mem_gap: float = 0.0  # a cycle with the port's ready low


@dataclass
class DmaKnobs:
    """The Python DMA model's and the test bench's randomness (probabilities are per cycle)."""

    lat_min: int = 1  # cycles from a request's handshake to its response being offered (at least)
    lat_max: int = 12
    p_req_ready: float = 0.8
    p_resp_valid: float = 0.8
    p_sp_ready: float = 0.8  # the memories' write readies (the top's arbitration)
    p_acc_ready: float = 0.8
    p_cmd: float = 0.7  # a new command is offered
    max_out: int = 16  # requests unanswered at most (the memory's outstanding limit)
    p_err: float = 0.0  # a response carries rd_resp_err_i (its data are still the memory's)


@dataclass
class LoadRun:
    finished: bool
    cycles: int
    accepts: list[int]  # cycle of each command's handshake
    dones: list[tuple[int, int]]  # (cycle, id)
    writes: list[tuple[int, int, int]]  # (cycle, 0 scratchpad / 1 accumulator, id)
    reqs: list[tuple[int, int, int, int]]  # (cycle, addr, len, tag)
    resps: list[int]
    max_inflight: int
    bytes_counter: int  # sum of rd_bytes_o
    stall_cycles: int  # cycles with stall_mem_o
    stall_seen: int  # cycles the test bench held a write back
    busy_cycles: int
    errs_sent: int  # responses taken with rd_resp_err_i set
    err_pulses: int  # cycles with rd_err_o
    amem_beats: int  # amem mode: beats the DMA sent to the port
    amem_max_beats: int  # and the most in flight at once
    sp: list[int] = field(default_factory=list)  # every scratchpad row, packed
    acc: list[int] = field(default_factory=list)
    wall_s: float = 0.0


def run_load(
    b: ArrayBuild,
    p: GemminiParams,
    cmds: Sequence[tuple[int, int, int, int]],
    mem_base: int,
    mem: bytes,
    knobs: DmaKnobs,
    workdir: Path,
    seed: int = 1,
    max_cycles: int = 200_000,
    amem: AmemKnobs | None = None,
) -> LoadRun:
    """Run ``cmds`` through the load controller with ``mem`` at ``mem_base`` as main memory; with ``amem`` the
    bench ``b`` is load_dma_tb (the real DMA before an amem port model; ``knobs``' DMA fields are then unused)."""
    workdir.mkdir(parents=True, exist_ok=True)
    stim, out = workdir / "stim.json", workdir / "out.json"
    k = knobs
    stim.write_text(
        json.dumps(
            {
                "cmds": [[str(v) for v in c] for c in cmds],
                "mem_base": mem_base,
                "mem_hex": mem.hex(),
                "seed": seed,
                "lat_min": k.lat_min,
                "lat_max": k.lat_max,
                "p_cmd": k.p_cmd,
                "p_req_ready": k.p_req_ready,
                "p_resp_valid": k.p_resp_valid,
                "p_sp_ready": k.p_sp_ready,
                "p_acc_ready": k.p_acc_ready,
                "max_out": k.max_out,
                "p_err": k.p_err,
                "max_cycles": max_cycles,
                "sp_rows": p.sp_rows,
                "acc_rows": p.acc_rows,
                "amem": vars(amem) if amem else None,
            }
        )
    )
    out.unlink(missing_ok=True)
    t0 = time.perf_counter()
    run_cocotb(
        b,
        DMA_TOPLEVEL if amem else TOPLEVEL,
        COCOTB_MODULE,
        workdir,
        {"GEMMINI_LOAD_STIM": str(stim), "GEMMINI_LOAD_OUT": str(out)},
        out,
    )
    r = json.loads(out.read_text())
    return LoadRun(
        finished=r["finished"],
        cycles=r["cycles"],
        accepts=r["accepts"],
        dones=[(c, i) for c, i in r["dones"]],
        writes=[(c, m, i) for c, m, i in r["writes"]],
        reqs=[(c, a, n, g) for c, a, n, g in r["reqs"]],
        resps=r["resps"],
        max_inflight=r["max_inflight"],
        bytes_counter=r["bytes_counter"],
        stall_cycles=r["stall_cycles"],
        stall_seen=r["stall_seen"],
        busy_cycles=r["busy_cycles"],
        errs_sent=r["errs_sent"],
        err_pulses=r["err_pulses"],
        amem_beats=r["amem_beats"],
        amem_max_beats=r["amem_max_beats"],
        sp=[int(v) for v in r["sp"]],
        acc=[int(v) for v in r["acc"]],
        wall_s=time.perf_counter() - t0,
    )
