"""Build (cached) and run the cocotb test bench of ``gemmini_scale`` (sim/rtl/gemmini/gemmini_scale.sv).

``scale_tb`` puts ``LANES`` scale units side by side; a run applies vectors ``LANES`` at a time (combinational: set
the inputs, let time pass, read the outputs) and returns every ``y``. The build goes through
:func:`sim.tb.gemmini.build.cached_build` (under ``$COSIM_CACHE/scale_tb``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sim.tb.gemmini.build import RTL_DIR, TB_DIR, ArrayBuild, cached_build, run_cocotb

TOPLEVEL = "scale_tb"
COCOTB_MODULE = "sim.tb.gemmini.scale_cocotb"
LANES = 32
RTL_SOURCES: tuple[Path, ...] = (RTL_DIR / "gemmini_pkg.sv", RTL_DIR / "gemmini_scale.sv")
TB_SOURCES: tuple[Path, ...] = (TB_DIR / "scale_tb.sv",)


def build_scale_tb() -> ArrayBuild:
    """The scale unit's test bench from the cache, or built now."""
    return cached_build(TOPLEVEL, RTL_SOURCES + TB_SOURCES, {"Lanes": LANES}, 0, {"lanes": LANES})


@dataclass
class ScaleRun:
    y: list[int]  # signed int32 per vector
    wall_s: float = 0.0


def run_scale(b: ArrayBuild, vectors: Sequence[tuple[int, int, int]], workdir: Path) -> ScaleRun:
    """Apply ``(x, scale_bits, to_i8)`` vectors (x signed int32, scale the fp32 bit pattern) and return each y."""
    workdir.mkdir(parents=True, exist_ok=True)
    stim, out = workdir / "stim.json", workdir / "out.json"
    stim.write_text(json.dumps({"lanes": LANES, "vectors": [list(v) for v in vectors]}))
    out.unlink(missing_ok=True)
    t0 = time.perf_counter()
    run_cocotb(
        b, TOPLEVEL, COCOTB_MODULE, workdir, {"GEMMINI_SCALE_STIM": str(stim), "GEMMINI_SCALE_OUT": str(out)}, out
    )
    return ScaleRun([int(v) for v in json.loads(out.read_text())], time.perf_counter() - t0)
