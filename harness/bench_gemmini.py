"""Gemmini on Spike: how long the functional model takes for a big tiled matmul.

Run by ``nox -s bench`` (``python -m harness.bench --only gemmini``) or alone:
``python -m harness.bench_gemmini [--size 256] [--soc gemmini-dim4 ...]``.
Each row builds one program that calls Gemmini's ``tiled_matmul_auto`` (C = A·B + D
scaled to int8) in WS or OS, runs it on Spike with the model, reads C back from
memory and compares it with numpy in the same run, so a fast wrong answer
cannot pass as a figure. The Python-model time per Gemmini instruction is
printed beside the whole run's wall time.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

SCALE = 1.0 / 1024  # a power of two: the int8 reference needs no rounding subtleties in fp32
# Operands in [-16, 16): a K = 256 dot product stays inside the array's 20-bit sums, which in OS hold a whole
# K tile (Gemmini's PE wraps them there); full-range int8 would make OS differ from an exact int32 matmul.
OPERAND_RANGE = 16

PROGRAM = """\
#include "include/gemmini.h"
#define I {i}
#define J {j}
#define K {k}
static const elem_t A[I][K] row_align(1) = {a};
static const elem_t B[K][J] row_align(1) = {b};
static const acc_t D[I][J] row_align_acc(1) = {d};
elem_t C[I][J] row_align(1);
int main(void) {{
  gemmini_flush(0);
  tiled_matmul_auto(I, J, K, (const elem_t *)A, (const elem_t *)B, (const void *)D, (void *)C, K, J, J, J,
                    MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, NO_ACTIVATION, {scale}f, 0,
                    false, false, false, false, false, 0, {dataflow});
  gemmini_fence();
  return 0;
}}
"""


def _c_array(x: np.ndarray) -> str:
    if x.ndim == 1:
        return "{" + ",".join(str(int(v)) for v in x) + "}"
    return "{" + ",".join(_c_array(row) for row in x) + "}"


def reference(a: np.ndarray, b: np.ndarray, d: np.ndarray) -> np.ndarray:
    """int32 A·B + D, to fp32, times SCALE (exact), round half to even, saturate to int8."""
    acc = a.astype(np.int64) @ b.astype(np.int64) + d
    scaled = acc.astype(np.float32) * np.float32(SCALE)
    return np.clip(np.rint(scaled), -128, 127).astype(np.int8)


def measure(size: int, soc: str, dataflow: str, workdir: Path) -> dict:
    from harness.elfcheck import check_elf
    from harness.toolchain import build_elf
    from sim.spike.runner import Dump, run_spike

    rng = np.random.default_rng(size)
    a = rng.integers(-OPERAND_RANGE, OPERAND_RANGE, (size, size), dtype=np.int8)
    b = rng.integers(-OPERAND_RANGE, OPERAND_RANGE, (size, size), dtype=np.int8)
    d = rng.integers(-(1 << 12), 1 << 12, (size, size), dtype=np.int32)
    src = workdir / f"matmul{size}-{dataflow}.c"
    src.write_text(
        PROGRAM.format(
            i=size, j=size, k=size, a=_c_array(a), b=_c_array(b), d=_c_array(d), scale=SCALE, dataflow=dataflow
        )
    )
    elf = workdir / f"matmul{size}-{soc}-{dataflow}.elf"
    build_elf([src], soc, elf, opt="-O2")
    c_sym = check_elf(elf, soc).symbol("C")
    t0 = time.perf_counter()
    out = run_spike(elf, soc, dumps=[Dump(c_sym.addr, size * size)], timeout_s=600)
    wall = time.perf_counter() - t0
    got = np.frombuffer(out.dumps.get(c_sym.addr, b""), dtype=np.int8)
    ok = out.ending == "exit" and out.exit_code == 0 and got.size == size * size
    mismatches = int(np.count_nonzero(got.reshape(size, size) != reference(a, b, d))) if ok else None
    insns = sum(v for k, v in out.counters.items() if k.startswith("insn_"))
    return {
        "soc": soc,
        "dataflow": dataflow,
        "size": size,
        "status": "pass" if mismatches == 0 else (out.message or f"{mismatches} mismatches"),
        "wall_s": wall,
        "gemmini_insns": insns,
        "macs": out.counters.get("gemmini_macs", 0),
        "us_per_insn": 1e6 * wall / insns if insns else None,
    }


def run(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="bench_gemmini")
    p.add_argument("--size", type=int, default=256, help="I = J = K of the matmul (default 256)")
    p.add_argument("--soc", action="append", help="Gemmini configs (default gemmini-dim4 and gemmini-dim16)")
    p.add_argument("--dataflow", action="append", choices=("WS", "OS"))
    args, _ = p.parse_known_args(argv or [])
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-gemmini-") as tmp:
        for soc in args.soc or ["gemmini-dim4", "gemmini-dim16"]:
            for df in args.dataflow or ["WS", "OS"]:
                rows.append(measure(args.size, soc, df, Path(tmp)))
    table = Table(title=f"Gemmini model on Spike: tiled_matmul_auto {args.size}^3 int8, checked against numpy")
    for col in ("soc", "dataflow", "status", "Spike wall s", "Gemmini insns", "useful MACs", "us / insn"):
        table.add_column(col)
    for r in rows:
        us = f"{r['us_per_insn']:.1f}" if r["us_per_insn"] else "-"
        table.add_row(
            r["soc"], r["dataflow"], r["status"], f"{r['wall_s']:.2f}", str(r["gemmini_insns"]), str(r["macs"]), us
        )
    Console().print(table)


if __name__ == "__main__":
    import sys

    run(sys.argv[1:])
