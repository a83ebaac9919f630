"""Build (cached) and run the cocotb test bench of the scratchpad and accumulator (sim/rtl/gemmini/gemmini_spad.sv,
gemmini_acc.sv) for one Gemmini config's sizes.

The build goes through :func:`sim.tb.gemmini.build.cached_build` (the array test bench's cache and runner, under
``$COSIM_CACHE/gemmini_mem_tb``). A run plays one :class:`MemCycle` a cycle into ``gemmini_mem_tb`` and returns,
per cycle, the read data of both memories sampled one cycle after the read was issued (the read latency).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import astuple, dataclass
from pathlib import Path

from sim.gemmini.params import GemminiParams
from sim.tb.gemmini.build import RTL_DIR, TB_DIR, ArrayBuild, cached_build, run_cocotb

TOPLEVEL = "gemmini_mem_tb"
COCOTB_MODULE = "sim.tb.gemmini.mem_cocotb"
RTL_SOURCES: tuple[Path, ...] = tuple(RTL_DIR / n for n in ("gemmini_pkg.sv", "gemmini_spad.sv", "gemmini_acc.sv"))
TB_SOURCES: tuple[Path, ...] = (TB_DIR / "gemmini_mem_tb.sv",)


@dataclass
class MemCycle:
    """One cycle of gemmini_mem_tb's inputs (rows are global; data packed, element i at bits [i*w +: w])."""

    sp_wr: int = 0
    sp_wr_row: int = 0
    sp_wr_mask: int = 0
    sp_wr_data: int = 0
    sp_rd: int = 0
    sp_rd_row: int = 0
    acc_wr: int = 0
    acc_wr_acc: int = 0
    acc_wr_row: int = 0
    acc_wr_mask: int = 0
    acc_wr_data: int = 0
    acc_rd: int = 0
    acc_rd_row: int = 0


def _parameters(p: GemminiParams) -> dict[str, int]:
    return {
        "Dim": p.dim,
        "SpBanks": p.sp_banks,
        "SpBankRows": p.sp_bank_rows,
        "AccBanks": p.acc_banks,
        "AccBankRows": p.acc_bank_rows,
    }


def build_mem_tb(p: GemminiParams) -> ArrayBuild:
    """The memories' test bench at ``p``'s DIM, banks and rows, from the cache or built now."""
    params = _parameters(p)
    return cached_build(TOPLEVEL, RTL_SOURCES + TB_SOURCES, params, p.dim, params)


@dataclass
class MemRun:
    sp_rd: list[int]  # per cycle: sp_rd_data_o sampled after that cycle's clock edge
    acc_rd: list[int]
    wall_s: float = 0.0


def run_mem(b: ArrayBuild, cycles: Sequence[MemCycle], workdir: Path) -> MemRun:
    """Play ``cycles`` (one a cycle) into the memories and return the read data of each cycle's reads."""
    workdir.mkdir(parents=True, exist_ok=True)
    stim, out = workdir / "stim.json", workdir / "out.json"
    stim.write_text(json.dumps([[str(v) for v in astuple(c)] for c in cycles]))
    out.unlink(missing_ok=True)
    t0 = time.perf_counter()
    run_cocotb(b, TOPLEVEL, COCOTB_MODULE, workdir, {"GEMMINI_MEM_STIM": str(stim), "GEMMINI_MEM_OUT": str(out)}, out)
    res = json.loads(out.read_text())
    return MemRun([int(v) for v in res["sp"]], [int(v) for v in res["acc"]], time.perf_counter() - t0)
