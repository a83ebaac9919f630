"""Build (cached) and run the cocotb test bench of ``gemmini_loop_ws`` (sim/rtl/gemmini/gemmini_loop_ws.sv).

The build goes through :func:`sim.tb.gemmini.build.cached_build` (under ``$COSIM_CACHE/loopws_tb``), with the
Gemmini config's DIM, scratchpad and accumulator rows and block lengths as parameters.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sim.gemmini.params import GemminiParams
from sim.tb.gemmini.build import RTL_DIR, TB_DIR, ArrayBuild, cached_build, run_cocotb

TOPLEVEL = "loopws_tb"
COCOTB_MODULE = "sim.tb.gemmini.loopws_cocotb"
RTL_SOURCES: tuple[Path, ...] = (RTL_DIR / "gemmini_loop_ws.sv",)
TB_SOURCES: tuple[Path, ...] = (TB_DIR / "loopws_tb.sv",)


def parameters(p: GemminiParams) -> dict[str, int]:
    return {
        "Dim": p.dim,
        "SpRows": p.sp_rows,
        "AccRows": p.acc_rows,
        "MaxBlockLen": p.max_block_len,
        "MaxBlockLenAcc": p.max_block_len_acc,
    }


def build_loopws_tb(p: GemminiParams) -> ArrayBuild:
    params = parameters(p)
    return cached_build(TOPLEVEL, RTL_SOURCES + TB_SOURCES, params, p.dim, params)


@dataclass
class LoopWsRun:
    out: list[tuple[int, int, int]]  # funct, rs1, rs2 of every command emitted, in order
    out_cycles: list[int]
    accepted: list[int]  # cycle each input command was taken
    cycles: int
    busy_cycles: int
    wall_s: float = 0.0


def run_loopws(
    b: ArrayBuild,
    cmds: Sequence[tuple[int, int, int]],
    workdir: Path,
    seed: int = 0,
    p_in_gap: float = 0.0,
    p_out_stall: float = 0.0,
    max_cycles: int = 200_000,
) -> LoopWsRun:
    workdir.mkdir(parents=True, exist_ok=True)
    stim, out = workdir / "stim.json", workdir / "out.json"
    stim.write_text(
        json.dumps(
            {
                "cmds": [[f, str(a), str(c)] for f, a, c in cmds],
                "seed": seed,
                "p_in_gap": p_in_gap,
                "p_out_stall": p_out_stall,
                "max_cycles": max_cycles,
            }
        )
    )
    out.unlink(missing_ok=True)
    t0 = time.perf_counter()
    env = {"GEMMINI_LOOPWS_STIM": str(stim), "GEMMINI_LOOPWS_OUT": str(out)}
    run_cocotb(b, TOPLEVEL, COCOTB_MODULE, workdir, env, out)
    r = json.loads(out.read_text())
    return LoopWsRun(
        out=[(int(f), int(a), int(c)) for f, a, c, _ in r["out"]],
        out_cycles=[int(x[3]) for x in r["out"]],
        accepted=r["accepted"],
        cycles=r["cycles"],
        busy_cycles=r["busy_cycles"],
        wall_s=time.perf_counter() - t0,
    )
