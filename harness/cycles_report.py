"""Cycle-count report of a verify run: markdown table, plots and a Perfetto trace.

python -m harness.cycles_report results/cycles/summary.json [--baseline baselines/summary.json]

Beside the summary it writes ``cycles.md`` and ``cycles.png`` (cycles per case,
one panel per SoC), ``layers.png`` (per-layer breakdown of the cases whose
profile has regions besides forward), ``trace.json`` (Perfetto, harness.perfetto)
and, with ``--baseline``, ``deltas.md`` and ``deltas.png`` (cycle change per case).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from harness import regress_report
from harness.perfetto import results_of, write_trace
from harness.regress import compare, load_results
from harness.results import FORWARD_REGION


def markdown(rows: list[dict]) -> str:
    lines = ["| case | soc | target | status | cycles | instret | IPC |", "|---|---|---|---|---:|---:|---:|"]
    for r in rows:
        cycles, instret = r.get("cycles"), r.get("instret")
        ipc = f"{instret / cycles:.3f}" if cycles and instret else "-"
        lines.append(
            f"| {r['case']} | {r['soc']} | {r['target']} | {r['status']} | {cycles or '-'} | {instret or '-'} | {ipc} |"
        )
    return "\n".join(lines) + "\n"


def plot(rows: list[dict], out: Path) -> Path | None:
    """One horizontal bar chart of cycles per case, one panel per SoC; None if no cycles."""
    by_soc: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        if r.get("cycles"):
            by_soc[r["soc"]].append(r)
    if not by_soc:
        return None
    import matplotlib

    matplotlib.use("Agg")  # headless: CI has no display
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(
        len(by_soc), 1, figsize=(9, 1 + 0.35 * sum(len(v) + 2 for v in by_soc.values())), squeeze=False
    )
    for ax, (soc, soc_rows) in zip(axes[:, 0], sorted(by_soc.items()), strict=True):
        names = [r["case"] for r in soc_rows]
        ax.barh(
            names,
            [r["cycles"] for r in soc_rows],
            color=["tab:blue" if r["status"] == "pass" else "tab:red" for r in soc_rows],
        )
        ax.set_title(soc)
        ax.set_xscale("log")
        ax.set_xlabel("cycles (log scale; red = not pass)")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out


def layer_rows(results: list[dict]) -> list[tuple[str, list[tuple[str, int]]]]:
    """(panel title, [(region name, cycles)]) for results whose profile closed regions besides forward."""
    out = []
    for r in results:
        regions = [
            ((p.get("name") or f"region {p['region']}") + (f" ({p['where']})" if p.get("where") else ""), p["cycles"])
            for p in r.get("profile") or []
            if p.get("region") != FORWARD_REGION and p.get("cycles")
        ]
        if regions:
            title = f"{r.get('case') or '?'}: {sum(c for _, c in regions)} cycles in {len(regions)} regions"
            if r.get("cycles_forward"):
                title += f" (forward {r['cycles_forward']})"
            out.append((title, regions))
    return out


def plot_layers(results: list[dict], out: Path) -> Path | None:
    """One panel per case: cycles of each profile region (layer), largest first; None without regions."""
    cases = layer_rows(results)
    if not cases:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    height = 1 + sum(0.3 * len(regions) + 0.8 for _, regions in cases)
    fig, axes = plt.subplots(len(cases), 1, figsize=(9, height), squeeze=False)
    for ax, (title, regions) in zip(axes[:, 0], cases, strict=True):
        regions = sorted(regions, key=lambda x: -x[1])
        ax.barh([n for n, _ in regions], [c for _, c in regions], color="tab:blue")
        ax.invert_yaxis()
        ax.set_title(title)
        ax.set_xlabel("cycles")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.cycles_report", description=__doc__.split("\n")[0])
    p.add_argument("summary", type=Path, help="summary.json written by the verify suite")
    p.add_argument("--baseline", type=Path, help="also plot the cycle change per case against this summary.json")
    args = p.parse_args(argv)
    rows = json.loads(args.summary.read_text())
    md = args.summary.with_name("cycles.md")
    md.write_text(markdown(rows))
    written = [md]
    results = results_of([args.summary])
    for path in (
        plot(rows, args.summary.with_name("cycles.png")),
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
    md.write_text(regress_report.markdown(deltas, title))
    png = regress_report.plot(deltas, summary.with_name("deltas.png"), title)
    return [md] + ([png] if png else [])


if __name__ == "__main__":
    raise SystemExit(main())
