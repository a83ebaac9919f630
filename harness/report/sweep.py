"""``sweep.md`` and ``sweep.json``: the rows of a config sweep (:mod:`harness.sweep`) as a table, failed rows
with their reason below it (the plots: :func:`harness.report.plots.plot_sweep`)."""

from __future__ import annotations

import json
from pathlib import Path


def write_table(rows: list[dict], names: list[str], out: Path) -> Path:
    """OUT/sweep.md (one row per config and case) and OUT/sweep.json; the markdown's path."""
    head = ["config", *names, "case", "status", "cycles", "cycles_forward", "utilization", "counter"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for r in rows:
        cells = [r["config"], *(str(r[n]) for n in names), r["case"], r["status"]]
        cells += [f"{r['cycles']:,}" if r["cycles"] else "", f"{r['cycles_forward']:,}" if r["cycles_forward"] else ""]
        cells.append(f"{100 * r['utilization']:.2f}%" if r["utilization"] is not None else "")
        cells.append(r["utilization_counter"])
        lines.append("| " + " | ".join(cells) + " |")
    failed = [r for r in rows if r["status"] != "pass"]
    lines += ["", *(f"- {r['config']} {r['case']}: {r['status']}: {r['message']}" for r in failed)]
    path = out / "sweep.md"
    path.write_text("\n".join(lines) + "\n")
    (out / "sweep.json").write_text(json.dumps({"parameters": names, "rows": rows}, indent=1))
    return path
