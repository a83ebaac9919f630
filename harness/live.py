"""The live view of ``nox -s verify``: cases done, running and failing, and simulated cycles per second.

The suite's pytest process writes, per case, a ``started`` marker when the case
begins and ``result.json`` when it ends (``harness/verify_suite.py``); this view
polls those files, so it needs nothing from pytest or its workers. On a terminal
it is a rich live display, redrawn a few times a second; elsewhere (nox in CI, a
log file) rich's live display cannot redraw, so the view prints one line per
finished case and, every ``heartbeat_s``, one line naming the running cases.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

PASSING = "pass"
STATUS_COLORS = {"pass": "green", "mismatch": "red", "trap": "red", "timeout": "yellow", "error": "red"}


def sim_speed(result: dict) -> tuple[float, float] | None:
    """(simulated units, simulation seconds) of a finished case: RTL cycles, or Spike's retired
    instructions (Spike has no cycles)."""
    if result.get("target") == "rtl" and result.get("cycles_total") and result.get("sim_cycles_per_s"):
        return result["cycles_total"], result["cycles_total"] / result["sim_cycles_per_s"]
    if result.get("target") == "iss" and result.get("instret") and result.get("wall_s"):
        return result["instret"], result["wall_s"]
    return None


def rate_text(per_s: float | None, target: str = "rtl") -> str:
    if not per_s:
        return "-"
    unit = "cycles/s" if target == "rtl" else "inst/s"
    return f"{per_s / 1e6:.2f} M {unit}" if per_s >= 1e5 else f"{per_s / 1e3:.1f} k {unit}"


@dataclass
class Progress:
    """What the results directory says about each selected case."""

    case_dirs: dict[str, Path]  # case id -> its directory
    reused: set[str] = field(default_factory=set)  # finished in an earlier, interrupted run (--resume)
    started: dict[str, float] = field(default_factory=dict)  # running: case id -> start time
    done: dict[str, dict] = field(default_factory=dict)  # case id -> result record
    order: list[str] = field(default_factory=list)  # finished in this run, in the order seen

    def poll(self) -> list[str]:
        """Read new markers and results; return the ids that finished since the last poll."""
        new = []
        for cid, d in self.case_dirs.items():
            if cid in self.done or cid in self.reused:
                continue
            result = d / "result.json"
            if result.is_file():
                try:
                    self.done[cid] = json.loads(result.read_text())
                except ValueError:  # written atomically, so only a foreign file can be half-read
                    continue
                self.started.pop(cid, None)
                self.order.append(cid)
                new.append(cid)
            elif cid not in self.started and (d / "started").is_file():
                try:
                    self.started[cid] = float((d / "started").read_text() or time.time())
                except (OSError, ValueError):
                    self.started[cid] = time.time()
        return new

    def failing(self) -> list[str]:
        return [cid for cid in self.order if self.done[cid].get("status") != PASSING]

    def sim_rate(self, target: str) -> float | None:
        """Simulated cycles (Spike: instructions) per simulation second over this run's finished cases on ``target``."""
        units = wall = 0.0
        for cid in self.order:
            r = self.done[cid]
            speed = sim_speed(r) if r.get("target") == target else None
            if speed:
                units += speed[0]
                wall += speed[1]
        return units / wall if wall else None


class LiveView:
    """Draws :class:`Progress` on ``console`` while the suite runs."""

    def __init__(self, progress: Progress, console: Console, *, heartbeat_s: float = 30.0):
        self.p = progress
        self.console = console
        self.heartbeat_s = heartbeat_s
        self.t0 = time.time()
        self._live: Live | None = None
        self._last_beat = self.t0
        self.for_terminal = console.is_terminal

    def __enter__(self) -> LiveView:
        total = len(self.p.case_dirs)
        if self.p.reused:
            self.console.print(f"verify: --resume: {len(self.p.reused)} of {total} cases finished earlier, not rerun")
        if self.for_terminal:
            self._live = Live(self.render(), console=self.console, refresh_per_second=4, transient=True)
            self._live.__enter__()
        else:
            self.console.print(f"verify: {total - len(self.p.reused)} case(s) to run")
        return self

    def __exit__(self, *exc) -> None:
        self.update()
        if self._live is not None:
            self._live.__exit__(*exc)
        self.console.print(self.headline())

    def update(self) -> None:
        new = self.p.poll()
        if self._live is not None:
            self._live.update(self.render())
            return
        for cid in new:
            self.console.print(self.finished_line(cid), highlight=False)
        now = time.time()
        if self.p.started and now - self._last_beat >= self.heartbeat_s:
            self._last_beat = now
            running = ", ".join(f"{c} ({now - t:.0f} s)" for c, t in self.p.started.items())
            self.console.print(f"verify: running {running}", highlight=False)

    def headline(self) -> str:
        total = len(self.p.case_dirs)
        done = len(self.p.done) + len(self.p.reused)
        rates = ", ".join(f"{t} {rate_text(r, t)}" for t in ("rtl", "iss") if (r := self.p.sim_rate(t)))
        return (
            f"verify: {done}/{total} done, {len(self.p.started)} running, {len(self.p.failing())} failing, "
            f"{time.time() - self.t0:.0f} s" + (f"; simulated: {rates}" if rates else "")
        )

    def finished_line(self, cid: str) -> str:
        r = self.p.done[cid]
        n = self.p.order.index(cid) + 1 + len(self.p.reused)
        extra = self.speed_text(r)
        if r.get("status") != PASSING and r.get("message"):
            extra += f"  {r['message'][:160]}"
        if r.get("waves"):
            extra += f"  (waves: {r['waves']['path']})"
        return f"[{n}/{len(self.p.case_dirs)}] {r.get('status', '?'):8} {cid}{extra}"

    @staticmethod
    def speed_text(r: dict) -> str:
        speed = sim_speed(r)
        if speed is None:
            return ""
        return f"  {speed[1]:.1f} s, {rate_text(speed[0] / speed[1] if speed[1] else None, r['target'])}"

    def render(self) -> Group:
        now = time.time()
        parts: list = [Text(self.headline(), style="bold")]
        if self.p.started:
            t = Table(box=None, show_header=False, pad_edge=False)
            for cid, since in sorted(self.p.started.items(), key=lambda kv: kv[1]):
                t.add_row("[cyan]running[/]", cid, f"{now - since:.0f} s")
            parts.append(t)
        failing = self.p.failing()
        if failing:
            t = Table(box=None, show_header=False, pad_edge=False)
            for cid in failing[-8:]:
                status = self.p.done[cid].get("status", "?")
                t.add_row(f"[{STATUS_COLORS.get(status, 'magenta')}]{status}[/]", cid)
            parts.append(t)
        recent = [c for c in self.p.order[-4:] if self.p.done[c].get("status") == PASSING]
        if recent:
            t = Table(box=None, show_header=False, pad_edge=False)
            for cid in recent:
                r = self.p.done[cid]
                t.add_row("[green]pass[/]", cid, self.speed_text(r).strip())
            parts.append(t)
        return Group(*parts)
