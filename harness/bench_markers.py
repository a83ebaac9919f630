"""Per-layer PROFILE markers: what they cost in forward, with and without.

Run by ``nox -s bench`` (``python -m harness.bench --only markers``) or alone:
``python -m harness.bench_markers [--on iss|rtl] [--soc gemmini-dim4] [CASE ...]``.
Each case is verified twice (``verify(..., markers=False)`` and ``markers=True``), both runs
checked bit for bit against the int8 reference, and forward's length printed side by side:
retired instructions on Spike, cycles on the RTL (``harness/quant/README.md`` has the figures).
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

CASES = ("mlp", "conv2d", "lenet5")


def forward_length(result: dict) -> int | None:
    """Forward's cycles (RTL) or retired instructions (Spike)."""
    return result["cycles_forward"] if result["target"] == "rtl" else result.get("instret_forward")


def run(argv: list[str] | None = None) -> None:
    from harness.verify import verify

    parser = argparse.ArgumentParser(prog="python -m harness.bench_markers", description=__doc__)
    parser.add_argument("cases", nargs="*", default=list(CASES))
    parser.add_argument("--on", choices=("iss", "rtl"), default="iss")
    parser.add_argument("--soc", default="gemmini-dim4")
    args = parser.parse_args(argv or [])
    unit = "cycles" if args.on == "rtl" else "instructions"
    table = Table(title=f"forward with and without per-layer markers ({args.soc}, {args.on}, {unit})")
    for col in ("case", "regions", "without", "with", "cost", "status"):
        table.add_column(col, justify="left" if col in ("case", "status") else "right")
    for case in args.cases:
        off = verify(case, args.soc, on=args.on, markers=False, localize=False)
        on = verify(case, args.soc, on=args.on, markers=True, localize=False)
        a, b = forward_length(off), forward_length(on)
        cost = f"{100.0 * (b - a) / a:.2f} %" if a and b else "-"
        regions = sum(1 for p in on["profile"] if p["region"] != 1)
        table.add_row(case, str(regions), str(a), str(b), cost, f"{off['status']} / {on['status']}")
    Console().print(table)


if __name__ == "__main__":
    run(__import__("sys").argv[1:])
