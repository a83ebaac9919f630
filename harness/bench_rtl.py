"""``nox -s bench`` (bench rtl): simulated cycles per second of ``cosim run``
beside a plain C++ Verilator main loop on the same RTL and flags, plus build times.

The program is a compute loop (integer hash + multiply/divide, no printing in
the loop) built with the runtime for each config. Both simulators run the same
ELF from reset to EXIT; the ratio comes from one run of each. Nothing is
asserted here: the figures are printed for the closing notes.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from configs import load_soc
from harness.toolchain import build_elf
from sim.rtl_runner import _plusargs, parse_report, run_rtl
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


@dataclass
class Figures:
    soc: str
    cycles: int
    cocotb_s: float
    plain_s: float
    cocotb_cpu_s: float  # CPU time of the simulator process (robust when the machine is shared)
    plain_cpu_s: float
    cocotb_build_s: float
    plain_build_s: float
    cocotb_cached: bool
    plain_cached: bool

    @property
    def cocotb_rate(self) -> float:
        return self.cycles / self.cocotb_s

    @property
    def plain_rate(self) -> float:
        return self.cycles / self.plain_s


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(soc_name: str, iters: int, workdir: Path) -> Figures:
    soc = load_soc(soc_name)
    src = workdir / "loop.c"
    src.write_text(LOOP_C)
    elf = build_elf([src], soc, workdir / f"loop-{soc_name}.elf", defines=[f"ITERS={iters}u"])
    cocotb_build = build(soc, quiet=False)
    plain_build = build(soc, flavour="plain", quiet=False)

    cpu0 = _children_cpu()
    outcome = run_rtl(elf, soc)
    cocotb_cpu = _children_cpu() - cpu0
    if not outcome.exited_ok:
        raise RuntimeError(f"bench program failed on {soc_name}: {outcome.message}")

    out = workdir / f"plain-{soc_name}"
    out.mkdir(exist_ok=True)
    args = _plusargs(soc, elf, out, None, soc.sim.max_cycles, soc.sim.watchdog_cycles, None, [])
    t0, cpu0 = time.perf_counter(), _children_cpu()
    subprocess.run([str(plain_build.executable), *args, "+finish_on_done"], check=True, capture_output=True)
    plain_s, plain_cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    rep = parse_report(out / "result.txt")
    if rep.cycle != outcome.cycles_total:
        raise RuntimeError(f"plain loop ran {rep.cycle} cycles but cosim run {outcome.cycles_total}: not the same run")
    return Figures(
        soc_name,
        outcome.cycles_total,
        outcome.wall_s,
        plain_s,
        cocotb_cpu,
        plain_cpu,
        cocotb_build.build_seconds,
        plain_build.build_seconds,
        cocotb_build.cached,
        plain_build.cached,
    )


def run(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench rtl")
    parser.add_argument("--soc", action="append", help="configs to measure (default rv32 rv64)")
    parser.add_argument("--iters", type=int, default=300_000, help="loop iterations of the compute kernel")
    args, _ = parser.parse_known_args(argv)
    table = Table(title="RTL simulation speed (compute loop, one run each)")
    cols = ("soc", "cycles", "cosim run M cyc/s", "plain C++ M cyc/s", "ratio", "per CPU-s: run / plain / ratio")
    for col in (*cols, "build cocotb s", "build plain s"):
        table.add_column(col, justify="right")
    with tempfile.TemporaryDirectory(prefix="bench-rtl-") as tmp:
        for name in args.soc or ["rv32", "rv64"]:
            f = measure(name, args.iters, Path(tmp))
            table.add_row(
                f.soc,
                f"{f.cycles:,}",
                f"{f.cocotb_rate / 1e6:.2f}",
                f"{f.plain_rate / 1e6:.2f}",
                f"{f.cocotb_rate / f.plain_rate:.2f}",
                f"{f.cycles / f.cocotb_cpu_s / 1e6:.2f} / {f.cycles / f.plain_cpu_s / 1e6:.2f} / "
                f"{f.plain_cpu_s / f.cocotb_cpu_s:.2f}",
                f"{f.cocotb_build_s:.1f}" + (" (cache)" if f.cocotb_cached else ""),
                f"{f.plain_build_s:.1f}" + (" (cache)" if f.plain_cached else ""),
            )
    Console().print(table)
    print("M cyc/s from wall time (whole simulator process, cocotb start-up included);")
    print("per CPU-s: cycles per CPU second of the simulator process, start-up included (robust under load).")
    print("build times marked (cache) were recorded when that cache entry was built")
