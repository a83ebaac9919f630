"""The verify suite's summary table (terminal and ``summary.txt``): one row per case with its status,
instructions and cycles, then the reason of every case that did not pass, its waves, and the notes of
cases that ran on the scalar core only."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from harness.live import STATUS_COLORS


def print_summary(rows: list[dict], console: Console) -> None:
    """``rows``: summary.json's records (harness.verify_suite.summarize)."""
    table = Table(title=f"verify: {sum(r['status'] == 'pass' for r in rows)}/{len(rows)} pass")
    for col in ("case", "soc", "target", "status", "instret", "cycles"):
        table.add_column(col, justify="right" if col in ("instret", "cycles") else "left", no_wrap=True)
    for r in rows:
        color = STATUS_COLORS.get(r["status"], "magenta")
        table.add_row(
            r["case"],
            r["soc"],
            r["target"],
            f"[{color}]{r['status']}[/]",
            "-" if r["instret"] is None else str(r["instret"]),
            "-" if r["cycles"] is None else str(r["cycles"]),
        )
    console.print(table)
    for r in rows:
        if r["status"] != "pass" and r["message"]:
            console.print(f"[red]{r['case']}[/]: {r['message']}", highlight=False)
        if r.get("waves"):
            w = r["waves"]
            console.print(f"  waves of cycles {w['from_cycle']}..{w['to_cycle']}: {w['path']}", highlight=False)
        elif r.get("waves_note"):
            console.print(f"  {r['waves_note']}", highlight=False)
    for r in rows:
        if r["accelerator_used"] is False:
            console.print(f"[yellow]{r['case']}[/]: note: {r['note']}")
