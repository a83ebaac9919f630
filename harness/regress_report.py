"""How ``cosim regress`` shows a comparison: markdown table and a PNG of cycle deltas."""

from __future__ import annotations

from pathlib import Path

from harness.regress import Delta, counts


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


COLORS = {"slower": "tab:red", "regressed": "tab:red", "faster": "tab:green", "fixed": "tab:green"}


def plot(deltas: list[Delta], out: Path, title: str) -> Path | None:
    """Horizontal bars: cycle change in percent per case with cycles on both sides; None if there are none."""
    rows = [d for d in deltas if d.cycles_pct is not None and d.kind != "stale"]
    if not rows:
        return None
    import matplotlib

    matplotlib.use("Agg")  # headless: CI has no display
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.3 * len(rows)))
    pct = [d.cycles_pct for d in rows]
    ax.barh([d.case for d in rows], pct, color=[COLORS.get(d.kind, "tab:gray") for d in rows])
    ax.axvline(0, color="black", linewidth=0.8)
    ax.invert_yaxis()  # first case on top, as in the table
    ax.set_xlabel("cycles change vs baseline (%; red = slower or regressed, green = faster or fixed)")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out
