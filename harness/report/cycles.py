"""Cycle-count report of a verify run: markdown table, plots and a Perfetto trace.

python -m harness.report.cycles results/cycles/summary.json [--baseline baselines/summary.json]

Beside the summary it writes ``cycles.md`` and ``cycles.png`` (cycles per case,
one panel per SoC), ``layers.png`` (per-layer breakdown of the cases whose
profile has regions besides forward), ``trace.json`` (Perfetto, harness.report.perfetto)
and, with ``--baseline``, ``deltas.md`` and ``deltas.png`` (cycle change per case).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from harness.regress import compare, load_results
from harness.report.perfetto import results_of, write_trace
from harness.report.plots import plot_cycles, plot_deltas, plot_layers
from harness.report.regress import markdown as regress_markdown


def markdown(rows: list[dict]) -> str:
    lines = ["| case | soc | target | status | cycles | instret | IPC |", "|---|---|---|---|---:|---:|---:|"]
    for r in rows:
        cycles, instret = r.get("cycles"), r.get("instret")
        ipc = f"{instret / cycles:.3f}" if cycles and instret else "-"
        lines.append(
            f"| {r['case']} | {r['soc']} | {r['target']} | {r['status']} | {cycles or '-'} | {instret or '-'} | {ipc} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.report.cycles", description=__doc__.split("\n")[0])
    p.add_argument("summary", type=Path, help="summary.json written by the verify suite")
    p.add_argument("--baseline", type=Path, help="also plot the cycle change per case against this summary.json")
    args = p.parse_args(argv)
    rows = json.loads(args.summary.read_text())
    md = args.summary.with_name("cycles.md")
    md.write_text(markdown(rows))
    written = [md]
    results = results_of([args.summary])
    for path in (
        plot_cycles(rows, args.summary.with_name("cycles.png")),
        plot_layers(results, args.summary.with_name("layers.png")),
        write_trace(results, args.summary.with_name("trace.json")),
    ):
        if path is not None:
            written.append(path)
    if args.baseline:
        written += baseline_deltas(args.baseline, args.summary)
    print("cycles report: " + ", ".join(map(str, written)))
    if len(written) == 1:
        print("cycles report: no cycle counts (no RTL results): no plots or trace")
    return 0


def baseline_deltas(baseline: Path, summary: Path) -> list[Path]:
    """deltas.md and deltas.png: this run's cycles against ``baseline``, RTL cases only."""
    current = load_results(summary)
    before = {k: v for k, v in load_results(baseline).items() if k in current}
    deltas = [d for d in compare(before, current) if d.cycles_before is not None or d.cycles_after is not None]
    title = f"cycles: {summary} vs {baseline}"
    md = summary.with_name("deltas.md")
    md.write_text(regress_markdown(deltas, title))
    png = plot_deltas(deltas, summary.with_name("deltas.png"), title)
    return [md] + ([png] if png else [])


if __name__ == "__main__":
    raise SystemExit(main())
