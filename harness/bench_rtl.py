"""``nox -s bench`` (bench rtl): simulated cycles per second of ``cosim run``
beside a plain C++ Verilator main loop on the same RTL and flags, plus build times.

Run alone: ``python -m harness.bench_rtl [--soc t1-blastoise ...] [--scale 0.5]``.
Each row runs one program of a million cycles or more from reset to EXIT, once
under ``cosim run`` (cocotb + Verilator, ``sim/tb/cocotb_main.cpp``) and once
under the plain loop (``sim/tb/bench_main.cpp``); the two must agree on cycles
and instret. Scalar and t1 configs run a compute loop (integer hash and
multiply/divide, no printing in the loop); Gemmini configs run
``tiled_matmul_auto`` a few times over the same operands and check C against
numpy. Rates are per CPU second of the simulator process (robust on a shared
machine; wall-clock rates beside them), start-up included; ``start-up`` is the
CPU time of a ``cosim run`` of an empty program (Python, cocotb and ELF
loading), which long runs amortise. Nothing is asserted here: the goals
(issues 18 and 24) are printed beside the figures.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from configs import load_soc
from harness.toolchain import build_elf
from sim.rtl_runner import run_rtl
from sim.tb_plusargs import tb_plusargs
from sim.tb_report import parse_report
from sim.verilator_build import build

LOOP_C = r"""
#include <stdint.h>
#include <stdio.h>
#include <cosim.h>
int main(void) {
  uint32_t h = 2166136261u, acc = 0;
  profile_start(1);
  for (uint32_t i = 0; i < ITERS; ++i) {
    h = (h ^ i) * 16777619u;
    acc += h % 97u + (h >> 7);
  }
  profile_stop(1);
  printf("%08x %08x\n", (unsigned)h, (unsigned)acc);
  return 0;
}
"""

MATMUL_C = """\
#include "include/gemmini.h"
#define N {n}
static const elem_t A[N][N] row_align(1) = {a};
static const elem_t B[N][N] row_align(1) = {b};
static const acc_t D[N][N] row_align_acc(1) = {d};
elem_t C[N][N] row_align(1);
int main(void) {{
  gemmini_flush(0);
  for (int r = 0; r < {repeats}; ++r) {{
    tiled_matmul_auto(N, N, N, (const elem_t *)A, (const elem_t *)B, (const void *)D, (void *)C, N, N, N, N,
                      MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, NO_ACTIVATION, {scale}f, 0,
                      false, false, false, false, false, 0, WS);
    gemmini_fence();
  }}
  return 0;
}}
"""

# Program size per config: loop iterations (about 14 cycles each) or Gemmini matmul repeats
# (256^3 WS on gemmini-dim16: about 0.15 M cycles each). Every row runs >= 1 M cycles, and
# several CPU-seconds in the plain loop, so cocotb's start-up (~0.5 CPU-s) weighs little.
WORKLOADS = {
    "rv32": ("loop", 1_000_000),
    "rv64": ("loop", 1_000_000),
    "t1-small": ("loop", 600_000),
    "t1-blastoise": ("loop", 300_000),
    "gemmini-dim16": ("matmul", 10),
}
MATMUL_N = 256

# Goals (issue 24 item 3; issue 18 for Gemmini): cosim run / plain loop, and rates in M cycles/s.
RATIO_GOAL = {"gemmini": 0.5}
RATIO_GOAL_DEFAULT = 0.7
PLAIN_GOAL = {"t1-blastoise": 0.5}
COSIM_GOAL = {"gemmini-dim16": 0.1}


@dataclass
class Figures:
    soc: str
    workload: str
    cycles: int
    cocotb_s: float
    plain_s: float
    cocotb_cpu_s: float  # CPU time of the simulator process (robust when the machine is shared)
    plain_cpu_s: float
    startup_cpu_s: float  # CPU time of a cosim run of an empty program
    cocotb_build_s: float
    plain_build_s: float
    cocotb_cached: bool
    plain_cached: bool

    def rate(self, seconds: float) -> float:
        return self.cycles / seconds / 1e6


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed_cosim_run(elf: Path, soc, **kw):
    cpu0 = children_cpu()
    outcome = run_rtl(elf, soc, **kw)
    cpu = children_cpu() - cpu0
    if not outcome.exited_ok:
        raise RuntimeError(f"bench program failed on {soc.name}: {outcome.message}")
    return outcome, cpu


def loop_elf(soc, iters: int, workdir: Path) -> Path:
    """The bench's compute loop (LOOP_C, ``iters`` iterations) built for ``soc``."""
    src = workdir / "loop.c"
    src.write_text(LOOP_C)
    return build_elf([src], soc, workdir / f"loop{iters}-{soc.name}.elf", defines=[f"ITERS={iters}u"])


def _matmul_elf(soc, repeats: int, workdir: Path) -> tuple[Path, int, np.ndarray]:
    """The repeated matmul's ELF, C's address and the numpy C it must hold."""
    from harness.bench_gemmini import OPERAND_RANGE, SCALE, reference
    from harness.bench_gemmini_rtl import c_array
    from harness.elfcheck import check_elf

    n = MATMUL_N
    rng = np.random.default_rng(n)
    a = rng.integers(-OPERAND_RANGE, OPERAND_RANGE, (n, n), dtype=np.int8)
    b = rng.integers(-OPERAND_RANGE, OPERAND_RANGE, (n, n), dtype=np.int8)
    d = rng.integers(-(1 << 12), 1 << 12, (n, n), dtype=np.int32)
    src = workdir / f"matmul{n}x{repeats}.c"
    src.write_text(MATMUL_C.format(n=n, a=c_array(a), b=c_array(b), d=c_array(d), scale=SCALE, repeats=repeats))
    elf = build_elf([src], soc, workdir / f"matmul{n}x{repeats}-{soc.name}.elf", opt="-O2")
    return elf, check_elf(elf, soc).symbol("C").addr, reference(a, b, d)


def measure(soc_name: str, size: int, workdir: Path) -> Figures:
    soc = load_soc(soc_name)
    kind = WORKLOADS.get(soc_name, ("matmul" if soc.accelerator.kind == "gemmini" else "loop", size))[0]
    cocotb_build = build(soc, quiet=False)
    plain_build = build(soc, flavour="plain", quiet=False)

    _, startup_cpu = _timed_cosim_run(loop_elf(soc, 1, workdir), soc)
    if kind == "matmul":
        elf, c_addr, want = _matmul_elf(soc, size, workdir)
        outcome, cocotb_cpu = _timed_cosim_run(elf, soc, dumps=[(c_addr, want.size)])
        got = np.frombuffer(outcome.dumps.get(c_addr, b""), dtype=np.int8)
        if got.size != want.size or np.count_nonzero(got.reshape(want.shape) != want):
            raise RuntimeError(f"bench matmul on {soc_name}: C differs from numpy")
        workload = f"{MATMUL_N}^3 WS matmul x{size}"
    else:
        elf = loop_elf(soc, size, workdir)
        outcome, cocotb_cpu = _timed_cosim_run(elf, soc)
        workload = f"loop x{size:,}"

    out = workdir / f"plain-{soc_name}"
    out.mkdir(exist_ok=True)
    args = tb_plusargs(soc, elf, out, None, soc.sim.max_cycles, soc.sim.watchdog_cycles, None, [])
    t0, cpu0 = time.perf_counter(), children_cpu()
    subprocess.run([str(plain_build.executable), *args, "+finish_on_done"], check=True, capture_output=True)
    plain_s, plain_cpu = time.perf_counter() - t0, children_cpu() - cpu0
    rep = parse_report(out / "result.txt")
    if (rep.cycle, rep.instret) != (outcome.cycles_total, outcome.instret):
        raise RuntimeError(
            f"plain loop ran {rep.cycle} cycles / {rep.instret} instructions but cosim run "
            f"{outcome.cycles_total} / {outcome.instret}: not the same run"
        )
    return Figures(
        soc_name,
        workload,
        outcome.cycles_total,
        outcome.wall_s,
        plain_s,
        cocotb_cpu,
        plain_cpu,
        startup_cpu,
        cocotb_build.build_seconds,
        plain_build.build_seconds,
        cocotb_build.cached,
        plain_build.cached,
    )


def goal_text(soc_name: str) -> str:
    kind = load_soc(soc_name).accelerator.kind
    parts = [f"ratio >= {RATIO_GOAL.get(kind, RATIO_GOAL_DEFAULT)}"]
    if soc_name in PLAIN_GOAL:
        parts.append(f"plain >= {PLAIN_GOAL[soc_name]}")
    if soc_name in COSIM_GOAL:
        parts.append(f"run >= {COSIM_GOAL[soc_name]}")
    return ", ".join(parts)


def run(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench rtl")
    parser.add_argument("--soc", action="append", help=f"configs to measure (default {' '.join(WORKLOADS)})")
    parser.add_argument(
        "--scale", type=float, default=1.0, help="multiply each program's size (loop iterations, matmul repeats)"
    )
    args, _ = parser.parse_known_args(argv)
    table = Table(title="RTL simulation speed (one run each; M cycles per CPU second of the simulator)")
    cols = ("soc", "program", "cycles", "cosim run", "plain loop", "ratio", "goal", "wall: run / plain")
    for col in (*cols, "start-up CPU s", "build cocotb s", "build plain s"):
        table.add_column(col, justify="right")
    with tempfile.TemporaryDirectory(prefix="bench-rtl-") as tmp:
        for name in args.soc or list(WORKLOADS):
            size = WORKLOADS.get(name, ("loop", 100_000))[1]
            f = measure(name, max(1, round(size * args.scale)), Path(tmp))
            table.add_row(
                f.soc,
                f.workload,
                f"{f.cycles:,}",
                f"{f.rate(f.cocotb_cpu_s):.3f}",
                f"{f.rate(f.plain_cpu_s):.3f}",
                f"{f.plain_cpu_s / f.cocotb_cpu_s:.2f}",
                goal_text(name),
                f"{f.rate(f.cocotb_s):.3f} / {f.rate(f.plain_s):.3f}",
                f"{f.startup_cpu_s:.2f}",
                f"{f.cocotb_build_s:.1f}" + (" (cache)" if f.cocotb_cached else ""),
                f"{f.plain_build_s:.1f}" + (" (cache)" if f.plain_cached else ""),
            )
    Console(width=max(Console().width, 180)).print(table)  # wide: the figures must not be cut
    print("cosim run / plain loop: M cycles per CPU second of the simulator process, start-up included;")
    print("ratio = cosim run / plain loop; wall: the same from wall-clock time (noisy on a shared machine);")
    print("build times marked (cache) were recorded when that cache entry was built")


if __name__ == "__main__":
    import sys

    run(sys.argv[1:])
