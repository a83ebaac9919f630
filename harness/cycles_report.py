"""Cycle-count report of a verify run: markdown table and a bar chart per SoC.

python -m harness.cycles_report results/cycles/summary.json
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path


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


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.cycles_report", description=__doc__.split("\n")[0])
    p.add_argument("summary", type=Path, help="summary.json written by the verify suite")
    args = p.parse_args(argv)
    rows = json.loads(args.summary.read_text())
    md = args.summary.with_name("cycles.md")
    md.write_text(markdown(rows))
    png = plot(rows, args.summary.with_name("cycles.png"))
    print(f"cycles report: {md}" + (f", {png}" if png else " (no cycle counts: no RTL results)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
