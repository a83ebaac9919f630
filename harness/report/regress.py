"""How a comparison with a baseline reads: the terminal table of ``cosim regress`` and the markdown
table of ``regress.md`` and the cycle report's ``deltas.md`` (the plot: :func:`harness.report.plots.plot_deltas`)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from harness.regress import Delta, counts

# Terminal colour of each kind of change.
COLORS = {
    "regressed": "red",
    "missing": "red",
    "slower": "yellow",
    "stale": "magenta",
    "fixed": "green",
    "faster": "green",
    "new": "cyan",
}


def signed(n: int | None) -> str:
    return "-" if n is None else f"{n:+d}"


def percent(p: float | None) -> str:
    return "-" if p is None else f"{p:+.2f}%"


def status_change(d: Delta) -> str:
    if d.status_before == d.status_after:
        return str(d.status_after)
    return f"{d.status_before or '-'} -> {d.status_after or '-'}"


def markdown(deltas: list[Delta], title: str, *, show_same: bool = True) -> str:
    """One row per case: change, status, cycles before/after, delta with sign and percentage, instret delta."""
    lines = [
        f"# {title}",
        "",
        "| case | change | status | cycles before | cycles after | cycles delta | cycles % | instret delta |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for d in deltas:
        if d.kind == "same" and not show_same:
            continue
        change = f"{d.kind} ({d.why})" if d.why else d.kind
        lines.append(
            f"| {d.case} | {change} | {status_change(d)} | {d.cycles_before if d.cycles_before is not None else '-'}"
            f" | {d.cycles_after if d.cycles_after is not None else '-'} | {signed(d.cycles_delta)}"
            f" | {percent(d.cycles_pct)} | {signed(d.instret_delta)} |"
        )
    lines += ["", ", ".join(f"{v} {k}" for k, v in counts(deltas).items()), ""]
    return "\n".join(lines)


def print_table(console: Console, deltas: list[Delta], title: str, *, show_same: bool) -> None:
    if not show_same and all(d.kind == "same" for d in deltas):
        console.print(f"{title}: no change in {len(deltas)} cases (--all lists them)")
        return
    table = Table(title=title)
    for col in ("case", "change", "status", "cycles", "delta", "%", "instret delta"):
        table.add_column(col, justify="left" if col in ("case", "change", "status") else "right")
    for d in deltas:
        if d.kind == "same" and not show_same:
            continue
        color = COLORS.get(d.kind, "white")
        table.add_row(
            d.case,
            f"[{color}]{d.kind}[/]" + (f" ({d.why})" if d.why else ""),
            status_change(d),
            f"{d.cycles_before} -> {d.cycles_after}",
            signed(d.cycles_delta),
            percent(d.cycles_pct),
            signed(d.instret_delta),
        )
    console.print(table)
    console.print(", ".join(f"{v} {k}" for k, v in counts(deltas).items()))
