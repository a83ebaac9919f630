"""Every plot of the reports (matplotlib, headless): cycles per case, cycles per layer, cycle deltas
against a baseline, and a config sweep's cycles and utilization per parameter.

Each function writes one PNG (or one per parameter) and returns its path, or None when
there is nothing to draw; matplotlib is imported only when a plot is drawn.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from harness.regress import Delta
from harness.results import FORWARD_REGION


def plot_cycles(rows: list[dict], out: Path) -> Path | None:
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


DELTA_COLORS = {"slower": "tab:red", "regressed": "tab:red", "faster": "tab:green", "fixed": "tab:green"}


def plot_deltas(deltas: list[Delta], out: Path, title: str) -> Path | None:
    """Horizontal bars: cycle change in percent per case with cycles on both sides; None if there are none."""
    rows = [d for d in deltas if d.cycles_pct is not None and d.kind != "stale"]
    if not rows:
        return None
    import matplotlib

    matplotlib.use("Agg")  # headless: CI has no display
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.3 * len(rows)))
    pct = [d.cycles_pct for d in rows]
    ax.barh([d.case for d in rows], pct, color=[DELTA_COLORS.get(d.kind, "tab:gray") for d in rows])
    ax.axvline(0, color="black", linewidth=0.8)
    ax.invert_yaxis()  # first case on top, as in the table
    ax.set_xlabel("cycles change vs baseline (%; red = slower or regressed, green = faster or fixed)")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out


def plot_sweep(rows: list[dict], names: list[str], out: Path) -> list[Path]:
    """Per parameter: cycles (left) and utilization (right) against it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = []
    for name in names:
        others = [n for n in names if n != name]
        fig, (ax_c, ax_u) = plt.subplots(1, 2, figsize=(11, 4))
        groups: dict[tuple, list[dict]] = {}
        for r in rows:
            groups.setdefault((r["case"], *(r[n] for n in others)), []).append(r)
        for key, group in groups.items():
            group = sorted((r for r in group if r["cycles"]), key=lambda r: r[name])
            if not group:
                continue
            label = " ".join([key[0], *(f"{n}={v}" for n, v in zip(others, key[1:], strict=True))])
            xs = [r[name] for r in group]
            ax_c.plot(xs, [r["cycles"] for r in group], marker="o", label=label)
            util = [(r[name], 100 * r["utilization"]) for r in group if r["utilization"] is not None]
            if util:
                ax_u.plot(*zip(*util, strict=True), marker="o", label=label)
        if not ax_u.lines:
            ax_u.text(0.5, 0.5, "no utilization counter on this config", ha="center", transform=ax_u.transAxes)
        for ax, what in ((ax_c, "cycles"), (ax_u, "utilization (%)")):
            ax.set_xlabel(name)
            ax.set_ylabel(what)
            ax.set_xscale("log", base=2)
            ax.grid(alpha=0.3)
        ax_c.legend(fontsize=7)
        fig.suptitle(f"sweep over {name}")
        fig.tight_layout()
        path = out / f"{name}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    return paths
