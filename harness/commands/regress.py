"""``cosim regress --baseline F|GIT_REF`` or ``--against GIT_REF``: what got worse (or better).

``--baseline`` compares results already on disk (or, with ``--run``, runs this
tree's suite first) with a recorded summary.json. ``--against`` runs the same
cases on this tree and on a git revision (in a temporary worktree, with that
revision's own code) and compares the two. Either way: a table on the terminal,
and ``regress.md``, ``regress.png`` and ``regress.json`` in ``--out``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from rich.console import Console

from harness.errors import CosimError
from harness.regress import (
    CORRECTNESS_KINDS,
    DEFAULT_BASELINE_PATH,
    compare,
    is_regression,
    load_baseline,
    load_results,
    to_json,
    write_baseline,
)
from harness.report.plots import plot_deltas
from harness.report.regress import markdown, print_table
from harness.results import write_json_atomic


def known_case_ids() -> set[str] | None:
    """The case ids this tree defines (None if the registry cannot be read)."""
    from harness.verify_suite import collect_cases

    try:
        return {c.id for c in collect_cases()}
    except Exception:  # a broken case source must not hide the comparison itself
        return None


def results_against(args, out: Path) -> tuple[dict, dict, str]:
    """Run this tree and ``args.against`` on the same cases; (baseline rows, current rows, title)."""
    from harness.regress_against import run_suite, this_tree
    from harness.worktree import temporary_worktree

    tree = this_tree()
    with temporary_worktree(args.against, tree) as (worktree, commit):
        label = f"{args.against} ({commit[:12]})"
        before = run_suite(worktree, out / "against", keyword=args.keyword, workers=args.workers, label=label)
        baseline = load_results(before)
    after = run_suite(tree, out / "current", keyword=args.keyword, workers=args.workers, label="this tree")
    return baseline, load_results(after), f"regress: this tree vs {label}"


def results_baseline(args) -> tuple[dict, dict, str]:
    baseline = load_baseline(args.baseline, path_in_repo=args.baseline_path)
    results = Path(args.results)
    if args.run:
        from harness.regress_against import run_suite, this_tree

        results = run_suite(
            this_tree(), results.parent.resolve(), keyword=args.keyword, workers=args.workers, label="this tree"
        )
    current = load_results(results)
    if args.keyword:  # a filtered run: baseline cases outside the filter are not missing
        baseline = {k: v for k, v in baseline.items() if k in current}
    return baseline, current, f"regress: {results} vs {args.baseline}"


def run_regress(args) -> int:
    if args.keyword and not (args.against or args.run):
        raise CosimError("-k filters the cases a run covers: use it with --against REF or with --run")
    out = Path(args.out).resolve()
    if args.against:
        baseline, current, title = results_against(args, out)
        deltas = compare(baseline, current, tolerance=args.tolerance, check_stale=False)
    else:
        baseline, current, title = results_baseline(args)
        deltas = compare(baseline, current, tolerance=args.tolerance, known_cases=known_case_ids())
    # Wide enough for the case ids even when stdout is not a terminal (nox, CI logs).
    console = Console(width=max(shutil.get_terminal_size().columns, 120))
    print_table(console, deltas, title, show_same=args.all)
    out.mkdir(parents=True, exist_ok=True)
    (out / "regress.md").write_text(markdown(deltas, title))
    png = plot_deltas(deltas, out / "regress.png", title)
    write_json_atomic(out / "regress.json", to_json(deltas))
    if args.json:
        write_json_atomic(args.json, to_json(deltas))
    console.print(f"regress: wrote {out / 'regress.md'}, {out / 'regress.json'}" + (f", {png}" if png else ""))
    stale = [d for d in deltas if d.kind == "stale"]
    if stale:
        console.print(
            f"[magenta]regress: {len(stale)} baseline case(s) are stale[/] (recorded on another config or case set;"
            " their cycles not compared): re-record with --update-baseline"
            + (", or pass --allow-stale to accept the rest" if not args.allow_stale else "")
        )
    failed = is_regression(deltas, fail_on_slower=not args.allow_slower, fail_on_stale=not args.allow_stale)
    if args.update_baseline:
        from harness.regress_against import this_tree

        update_baseline(console, deltas, current, this_tree() / args.baseline_path)
        # slower and stale figures were just re-recorded; correctness regressions still fail
        failed = is_regression(deltas, fail_on_slower=False, fail_on_stale=False)
    return 1 if failed else 0


def update_baseline(console: Console, deltas, current: dict, path: Path) -> None:
    broken = [d.case for d in deltas if d.kind in CORRECTNESS_KINDS]
    if broken:
        console.print(
            f"[red]regress: baseline not updated[/]: {len(broken)} case(s) regressed or are missing"
            f" ({', '.join(broken[:5])}{' ...' if len(broken) > 5 else ''}); fix them first"
        )
        return
    console.print(f"regress: baseline updated: {write_baseline(current, path)} ({len(current)} cases)")


def register(sub) -> None:
    p = sub.add_parser(
        "regress", help="compare results with a baseline file, or run this tree and a git revision and compare"
    )
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--baseline", help=f"a summary.json, or a git ref where {DEFAULT_BASELINE_PATH} is committed")
    which.add_argument(
        "--against",
        metavar="GIT_REF",
        help="run the same cases at GIT_REF (temporary worktree, its own code and configs) and on this tree",
    )
    p.add_argument("-k", dest="keyword", help="only cases matching this pytest -k expression (--against, --run)")
    p.add_argument("--workers", type=int, default=2, help="suite workers per tree (default 2)")
    p.add_argument("--run", action="store_true", help="with --baseline: run this tree's suite into --results first")
    p.add_argument(
        "--baseline-path",
        default=DEFAULT_BASELINE_PATH,
        help=f"path of the baseline inside a git ref, and the file --update-baseline writes (default {DEFAULT_BASELINE_PATH})",
    )
    p.add_argument("--results", default="results/summary.json", help="current results (default results/summary.json)")
    p.add_argument("--out", default="results/regress", help="where regress.md/.png/.json go (default results/regress)")
    p.add_argument(
        "--tolerance", type=float, default=0.02, help="relative cycle change counted as noise (default 0.02)"
    )
    p.add_argument("--allow-slower", action="store_true", help="report slower cases but do not fail on them")
    p.add_argument(
        "--allow-stale",
        action="store_true",
        help="report stale baseline cases (another config or case set), do not fail",
    )
    p.add_argument(
        "--update-baseline",
        action="store_true",
        help=f"then record the current results as {DEFAULT_BASELINE_PATH} (not when a case regressed)",
    )
    p.add_argument("--all", action="store_true", help="list unchanged cases too")
    p.add_argument("--json", help="also write the comparison here")
    p.set_defaults(func=run_regress)
