"""Command line: stream random FPU batches through the RTL and compare with SoftFloat.

    ./dev python -m sim.tb.fpu [--ops ADD,MADD,...] [--per N] [--seed S] [--seeds K]

Prints per-batch pass counts, cycles, per-op latency and the first mismatches;
exits 1 if any result or flag differs.
"""

from __future__ import annotations

import argparse
import sys
import time

from .build import build_fpu_tb
from .ops import FpuOp
from .runner import check_batch
from .vectors import make_batch


def _ops(text: str) -> list[FpuOp]:
    if text == "all":
        return list(FpuOp)
    try:
        return [FpuOp[name.strip().upper()] for name in text.split(",")]
    except KeyError as exc:
        raise argparse.ArgumentTypeError(
            f"unknown op {exc.args[0]!r}; choose from {', '.join(o.name for o in FpuOp)} or 'all'"
        ) from None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m sim.tb.fpu", description=__doc__.splitlines()[0])
    ap.add_argument("--ops", type=_ops, default=list(FpuOp), help="comma-separated op names, or 'all'")
    ap.add_argument("--per", type=int, default=2000, help="requests per (op, rounding mode)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", type=int, default=1, help="number of consecutive seeds to run")
    args = ap.parse_args(argv)

    t0 = time.monotonic()
    binary = build_fpu_tb()
    print(f"harness: {binary} ({time.monotonic() - t0:.1f} s to build or find)")
    failed = 0
    for seed in range(args.seed, args.seed + args.seeds):
        t0 = time.monotonic()
        report = check_batch(binary, make_batch(args.ops, args.per, seed=seed))
        print(f"seed {seed}: {report.summary()}  [{time.monotonic() - t0:.1f} s]")
        failed += report.mismatch_count
    lat = report.latency
    print("latency (cycles, min..max): " + ", ".join(f"{k} {lo}..{hi}" for k, (lo, hi) in sorted(lat.items())))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
