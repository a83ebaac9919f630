"""Build (cached) and run the cocotb test bench of the execute controller (sim/rtl/gemmini/gemmini_exec.sv with its
gemmini_array) and the real scratchpad and accumulator (``exec_tb``) for one Gemmini config's sizes.

The build goes through :func:`sim.tb.gemmini.build.cached_build` (under ``$COSIM_CACHE/exec_tb``). A run preloads
the memories, plays segments of commands into the controller with random ready on its four memory ports, and
returns every accept and done, the memories' rows read back after each segment, and per segment its cycles and
perf counters (see exec_cocotb.py).
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from sim.gemmini.params import GemminiParams
from sim.tb.gemmini.build import FLAGS, RTL_DIR, TB_DIR, ArrayBuild, cached_build, run_cocotb

TOPLEVEL = "exec_tb"
COCOTB_MODULE = "sim.tb.gemmini.exec_cocotb"
FPU_DIR = RTL_DIR.parent / "fpu"
RTL_SOURCES: tuple[Path, ...] = (
    RTL_DIR / "gemmini_pkg.sv",
    RTL_DIR / "gemmini_exec_pkg.sv",
    RTL_DIR.parent / "cosim_assert_window.sv",
    *(FPU_DIR / n for n in ("fpu_pkg.sv", "fpu_i2f.sv", "fpu_fma.sv", "fpu_f2i.sv")),
    *(
        RTL_DIR / n
        for n in (
            "gemmini_scale.sv",
            "gemmini_clock_gate.sv",
            "gemmini_delay.sv",
            "gemmini_pe.sv",
            "gemmini_mesh.sv",
            "gemmini_array.sv",
            "gemmini_spad.sv",
            "gemmini_acc.sv",
            "gemmini_exec_intake.sv",
            "gemmini_exec_fetch.sv",
            "gemmini_exec_stream.sv",
            "gemmini_exec_write.sv",
            "gemmini_exec_done.sv",
            "gemmini_exec.sv",
        )
    ),
)
TB_SOURCES: tuple[Path, ...] = (TB_DIR / "exec_tb.sv",)


def _parameters(p: GemminiParams) -> dict[str, int]:
    return {
        "Dim": p.dim,
        "SpBanks": p.sp_banks,
        "SpBankRows": p.sp_bank_rows,
        "AccBanks": p.acc_banks,
        "AccBankRows": p.acc_bank_rows,
    }


def build_exec_tb(p: GemminiParams, defines: tuple[str, ...] = ()) -> ArrayBuild:
    """The execute controller's test bench at ``p``'s sizes, from the cache or built now; ``defines`` are
    test-only macros (a mutation the assertions must catch)."""
    params = _parameters(p)
    flags = (*FLAGS, *(f"+define+{d}" for d in defines))
    return cached_build(TOPLEVEL, RTL_SOURCES + TB_SOURCES, params, p.dim, params, flags)


@dataclass
class ExecStim:
    """One run: memory preloads (global row -> packed row), segments of (funct, rs1, rs2), the rows read back
    after each segment ([lo, hi) of each memory) and the environment's randomness."""

    sp: dict[int, int]
    acc: dict[int, int]
    segments: list[list[tuple[int, int, int]]]
    dump_sp: tuple[int, int]
    dump_acc: tuple[int, int]
    seed: int = 1
    p_cmd: float = 1.0
    ready_pct: int = 256  # a memory port is ready in a cycle with probability ready_pct / 256
    max_cycles: int = 200_000
    trace: bool = False  # record exec_tb's trace_o every cycle of the command phases


@dataclass
class Segment:
    first: int | None  # cycle of the first accept
    last: int | None  # cycle of the last done
    counters: dict[str, int] = field(default_factory=dict)


@dataclass
class ExecRun:
    accepts: list[tuple[int, int]]  # (cycle, id)
    dones: list[tuple[int, int]]
    dumps: list[dict[str, list[int]]]  # per segment: "sp", "acc" packed rows
    segments: list[Segment]
    trace: list[tuple[int, int]] = field(default_factory=list)  # (cycle, trace_o)
    wall_s: float = 0.0


def run_exec(b: ArrayBuild, stim: ExecStim, workdir: Path) -> ExecRun:
    workdir.mkdir(parents=True, exist_ok=True)
    sf, out = workdir / "stim.json", workdir / "out.json"
    d = asdict(stim)
    d["sp"] = {str(k): str(v) for k, v in stim.sp.items()}
    d["acc"] = {str(k): str(v) for k, v in stim.acc.items()}
    d["segments"] = [[[f, str(a), str(c)] for f, a, c in seg] for seg in stim.segments]
    sf.write_text(json.dumps(d))
    out.unlink(missing_ok=True)
    t0 = time.perf_counter()
    run_cocotb(b, TOPLEVEL, COCOTB_MODULE, workdir, {"GEMMINI_EXEC_STIM": str(sf), "GEMMINI_EXEC_OUT": str(out)}, out)
    res = json.loads(out.read_text())
    return ExecRun(
        [(a, i) for a, i in res["accepts"]],
        [(a, i) for a, i in res["dones"]],
        [{"sp": [int(v) for v in x["sp"]], "acc": [int(v) for v in x["acc"]]} for x in res["dumps"]],
        [Segment(s["first"], s["last"], s["counters"]) for s in res["segments"]],
        [(c, v) for c, v in res["trace"]],
        time.perf_counter() - t0,
    )
