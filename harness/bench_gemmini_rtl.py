"""Gemmini RTL utilization: ``tiled_matmul_auto`` on the Gemmini unit's RTL against the ideal.

Run by ``nox -s bench`` (``python -m harness.bench --only gemmini-rtl``) or alone:
``python -m harness.bench_gemmini_rtl [--soc gemmini-dim4 --shape 32x64x64/WS ...]``.
Each row builds one program that calls Gemmini's ``tiled_matmul_auto`` (C = A·B + D
scaled to int8, the Spike bench's program and numpy reference; rows marked "D:
no" pass D = NULL, a plain matmul, which moves no D) inside a PROFILE
region that ends after the final ``gemmini_fence``, runs it on the SoC's RTL,
reads C back and compares it with numpy in the same run (a fast wrong answer is
no figure). Printed per row: the region's cycles, the ideal I·J·K / DIM² cycles,
utilization = ideal / cycles, the unit's counters over the region (mesh busy,
stall causes) and, beside them, the memory model (latency, requests in flight,
width) and the config's DMA width. A row at another memory latency runs on a
config derived from the named one into a temporary directory (a new ``name``,
the same strict checks); configs/ is never written.
"""

from __future__ import annotations

import argparse
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from harness.bench_gemmini import OPERAND_RANGE, SCALE, reference

REGION = 1  # PROFILE region around tiled_matmul_auto + the final fence

PROGRAM = """\
#include <cosim.h>
#include "include/gemmini.h"
#define I {i}
#define J {j}
#define K {k}
static const elem_t A[I][K] row_align(1) = {a};
static const elem_t B[K][J] row_align(1) = {b};
{d_decl}
elem_t C[I][J] row_align(1);
int main(void) {{
  gemmini_flush(0);
  profile_start({region});
  tiled_matmul_auto(I, J, K, (const elem_t *)A, (const elem_t *)B, {d_arg}, (void *)C, K, J, J, J,
                    MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, NO_ACTIVATION, {scale}f, 0,
                    false, false, false, false, false, 0, {dataflow});
  gemmini_fence();
  profile_stop({region});
  return 0;
}}
"""

# (I, J, K, dataflow, memory latency or None for the config's own, with the int32 bias D)
DIM16_ROWS = (
    (128, 256, 256, "WS", None, True),
    (256, 256, 256, "WS", None, True),
    (128, 256, 256, "OS", None, True),
    (256, 256, 256, "OS", None, True),
    (128, 256, 256, "WS", 32, True),
    (128, 256, 256, "WS", None, False),
    (128, 256, 256, "OS", None, False),
)
DIM4_ROWS = ((32, 64, 64, "WS", None, True), (32, 64, 64, "OS", None, True), (32, 64, 64, "WS", 32, True))


@dataclass
class Row:
    soc: str
    shape: str
    dataflow: str
    bias: bool
    status: str
    cycles: int | None
    ideal: int
    counters: dict
    latency: int
    outstanding: int
    width_bits: int
    dma_bytes: int
    sim_kcycles_per_s: float | None  # simulation speed of the whole run (start-up to exit, build excluded)

    @property
    def utilization(self) -> float | None:
        return self.ideal / self.cycles if self.cycles else None


def c_array(x: np.ndarray) -> str:
    if x.ndim == 1:
        return "{" + ",".join(str(int(v)) for v in x) + "}"
    return "{" + ",".join(c_array(row) for row in x) + "}"


def derived_soc(name: str, latency: int, workdir: Path):
    """``name``'s config with ``memory.latency`` replaced, written to ``workdir`` under a new name and
    loaded through the same checks as a shipped config."""
    from configs import load_soc

    base = load_soc(name)
    text = base.path.read_text()
    new_name = f"{base.name}-lat{latency}"
    text, n_name = re.subn(r'(?m)^name\s*=\s*"[^"]*"', f'name = "{new_name}"', text, count=1)
    text, n_lat = re.subn(r"(?m)^latency\s*=\s*\d+", f"latency = {latency}", text, count=1)
    if n_name != 1 or n_lat != 1:
        raise RuntimeError(f"{base.path}: cannot derive a latency-{latency} config (no name or latency line)")
    path = workdir / f"{new_name}.toml"
    path.write_text(text)
    soc = load_soc(path)
    if soc.memory.latency != latency:
        raise RuntimeError(f"{path}: derived config has latency {soc.memory.latency}, wanted {latency}")
    return soc


def measure(soc, i: int, j: int, k: int, dataflow: str, bias: bool, workdir: Path) -> Row:
    from harness.elfcheck import check_elf
    from harness.toolchain import build_elf
    from sim.rtl_runner import run_rtl

    dim = soc.accelerator.dim
    rng = np.random.default_rng(i * 7 + j * 3 + k)
    a = rng.integers(-OPERAND_RANGE, OPERAND_RANGE, (i, k), dtype=np.int8)
    b = rng.integers(-OPERAND_RANGE, OPERAND_RANGE, (k, j), dtype=np.int8)
    d = rng.integers(-(1 << 12), 1 << 12, (i, j), dtype=np.int32)
    if not bias:
        d[:] = 0
    tag = f"mm{i}x{j}x{k}-{dataflow}-{'bias' if bias else 'nobias'}-{soc.name}"
    src = workdir / f"{tag}.c"
    d_decl = f"static const acc_t D[I][J] row_align_acc(1) = {c_array(d)};" if bias else ""
    src.write_text(
        PROGRAM.format(
            i=i,
            j=j,
            k=k,
            a=c_array(a),
            b=c_array(b),
            d_decl=d_decl,
            d_arg="(const void *)D" if bias else "NULL",
            scale=SCALE,
            dataflow=dataflow,
            region=REGION,
        )
    )
    elf = build_elf([src], soc, workdir / f"{tag}.elf", opt="-O2")
    c_sym = check_elf(elf, soc).symbol("C")
    out = run_rtl(elf, soc, dumps=[(c_sym.addr, i * j)])
    got = np.frombuffer(out.dumps.get(c_sym.addr, b""), dtype=np.int8)
    region = next((r for r in out.profile if r.region == REGION and r.cycles is not None), None)
    ok = out.ending == "exit" and out.exit_code == 0 and got.size == i * j and region is not None
    mismatches = int(np.count_nonzero(got.reshape(i, j) != reference(a, b, d))) if ok else None
    status = "pass" if mismatches == 0 else (out.message or f"{mismatches} of {i * j} C elements differ")
    return Row(
        soc=soc.name,
        shape=f"{i}x{j}x{k}",
        dataflow=dataflow,
        bias=bias,
        status=status,
        cycles=region.cycles if region else None,
        ideal=i * j * k // (dim * dim),
        counters=out.region_counters.get(REGION, {}),
        latency=soc.memory.latency,
        outstanding=soc.memory.outstanding,
        width_bits=soc.memory.width_bits,
        dma_bytes=soc.accelerator.dma_bytes,
        sim_kcycles_per_s=out.sim_cycles_per_s / 1e3 if out.sim_cycles_per_s else None,
    )


def parse_shape(text: str) -> tuple[int, int, int, str, int | None, bool]:
    """``IxJxK/WS`` or ``IxJxK/OS@LAT`` (LAT: memory latency of a derived config); ``+nobias``: D = NULL."""
    m = re.fullmatch(r"(\d+)x(\d+)x(\d+)/(WS|OS)(?:@(\d+))?(\+nobias)?", text)
    if not m:
        raise argparse.ArgumentTypeError(
            f"shape {text!r} must look like 128x256x256/WS, 128x256x256/WS@32 or 128x256x256/OS+nobias"
        )
    return int(m[1]), int(m[2]), int(m[3]), m[4], int(m[5]) if m[5] else None, not m[6]


def table(rows: list[Row]) -> Table:
    t = Table(title="Gemmini RTL: tiled_matmul_auto int8, start to the final fence, C checked against numpy")
    cols = ("soc", "I x J x K", "df", "D", "status", "cycles", "ideal", "util %", "mesh busy", "MACs")
    cols += ("st. hazard", "st. queue", "st. mem", "mem lat", "in flight", "width", "dma B", "sim kcyc/s")
    for col in cols:
        t.add_column(col, justify="right")
    for r in rows:
        c = r.counters
        util = f"{100 * r.utilization:.1f}" if r.utilization else "-"
        t.add_row(
            r.soc,
            r.shape,
            r.dataflow,
            "yes" if r.bias else "no",
            r.status,
            f"{r.cycles:,}" if r.cycles else "-",
            f"{r.ideal:,}",
            util,
            f"{c.get('gemmini_mesh_busy_cycles', 0):,}",
            f"{c.get('gemmini_macs', 0):,}",
            f"{c.get('gemmini_stall_hazard_cycles', 0):,}",
            f"{c.get('gemmini_stall_queue_cycles', 0):,}",
            f"{c.get('gemmini_stall_mem_cycles', 0):,}",
            str(r.latency),
            str(r.outstanding),
            str(r.width_bits),
            str(r.dma_bytes),
            f"{r.sim_kcycles_per_s:.1f}" if r.sim_kcycles_per_s else "-",
        )
    return t


def run(argv: list[str] | None = None) -> None:
    from configs import load_soc

    p = argparse.ArgumentParser(prog="bench gemmini-rtl")
    p.add_argument("--soc", action="append", help="Gemmini config (default gemmini-dim16)")
    p.add_argument(
        "--shape",
        action="append",
        type=parse_shape,
        help="IxJxK/WS or IxJxK/OS, @LAT for another memory latency, +nobias for D = NULL",
    )
    args, _ = p.parse_known_args(argv or [])
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-gemmini-rtl-") as tmp:
        work = Path(tmp)
        for name in args.soc or ["gemmini-dim16"]:
            shapes = args.shape or (DIM4_ROWS if load_soc(name).accelerator.dim < 16 else DIM16_ROWS)
            for i, j, k, df, lat, bias in shapes:
                soc = derived_soc(name, lat, work) if lat is not None else load_soc(name)
                rows.append(measure(soc, i, j, k, df, bias, work))
                print(f"[gemmini-rtl] {rows[-1].soc} {rows[-1].shape} {df}: {rows[-1].cycles} cycles", flush=True)
    Console(width=240).print(table(rows))
    print("ideal = I*J*K / DIM^2 cycles; util = ideal / cycles of the PROFILE region (tiled_matmul_auto + fence);")
    print("D: with the int32 bias (no: D = NULL). mesh busy, st. (stall) cycles: the unit's counters over the region")
    print(
        "(st. mem: a memory refuses a controller's request; the exec fetch's second lane waiting for a bank is not one);"
    )
    print("mem lat / in flight / width (bits): the memory model; dma B: bytes a DMA beat;")
    print("sim kcyc/s: simulated cycles a second over the whole run (start-up included, build excluded).")


if __name__ == "__main__":
    import sys

    run(sys.argv[1:])
