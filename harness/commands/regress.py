"""``cosim regress --baseline F|GIT_REF``: what got worse (or better) since a baseline."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from harness.regress import DEFAULT_BASELINE_PATH, compare, is_regression, load_baseline, load_results, to_json
from harness.results import write_json_atomic

COLORS = {"regressed": "red", "missing": "red", "slower": "yellow", "fixed": "green", "faster": "green", "new": "cyan"}


def run_regress(args) -> int:
    baseline = load_baseline(args.baseline, path_in_repo=args.baseline_path)
    current = load_results(args.results)
    deltas = compare(baseline, current, tolerance=args.tolerance)
    table = Table(title=f"regress: {args.results} vs {args.baseline}")
    for col in ("case", "change", "status", "cycles", "ratio", "instret"):
        table.add_column(col, justify="right" if col in ("cycles", "ratio", "instret") else "left")
    for d in deltas:
        if d.kind == "same" and not args.all:
            continue
        color = COLORS.get(d.kind, "white")
        ratio = "-" if d.cycles_ratio is None else f"{d.cycles_ratio:.3f}"
        table.add_row(
            d.case,
            f"[{color}]{d.kind}[/]",
            f"{d.status_before} -> {d.status_after}",
            f"{d.cycles_before} -> {d.cycles_after}",
            ratio,
            f"{d.instret_before} -> {d.instret_after}",
        )
    console = Console()
    console.print(table)
    counts = {
        k: sum(d.kind == k for d in deltas)
        for k in ("regressed", "missing", "slower", "fixed", "faster", "new", "same")
    }
    console.print(", ".join(f"{v} {k}" for k, v in counts.items()))
    if args.json:
        write_json_atomic(args.json, to_json(deltas))
    return 1 if is_regression(deltas, fail_on_slower=not args.allow_slower) else 0


def register(sub) -> None:
    p = sub.add_parser("regress", help="compare results (summary.json) with a baseline file or git ref")
    p.add_argument(
        "--baseline", required=True, help=f"a summary.json, or a git ref where {DEFAULT_BASELINE_PATH} is committed"
    )
    p.add_argument("--baseline-path", default=DEFAULT_BASELINE_PATH, help="path of the baseline inside the git ref")
    p.add_argument("--results", default="results/summary.json", help="current results (default results/summary.json)")
    p.add_argument(
        "--tolerance", type=float, default=0.02, help="relative cycle change counted as noise (default 0.02)"
    )
    p.add_argument("--allow-slower", action="store_true", help="report slower cases but do not fail on them")
    p.add_argument("--all", action="store_true", help="list unchanged cases too")
    p.add_argument("--json", help="write the comparison here")
    p.set_defaults(func=run_regress)
