"""Perfetto traces of RTL runs: Chrome trace-event JSON that ui.perfetto.dev opens.

    python -m harness.report.perfetto results/cycles/summary.json [-o trace.json]
    python -m harness.report.perfetto results/cases/X/result.json ...

Time is simulated cycles: **1 cycle = 1 µs** on the trace's time axis (the
format's timestamps are microseconds), so a span of 8.2 ms is 8 200 cycles.

Each case is one process (named ``case``), with these tracks (threads):

* ``run``: the whole run cut at the forward PROFILE region: ``before forward``,
  ``forward``, ``after forward`` (or one ``run`` span without a forward region).
  These spans add up to the result's ``cycles_total``.
* ``regions``: every other PROFILE region the profile closed (per-layer regions
  carry their ``name``, ``where`` and ``ops``), at its own start and length.
* ``busy: <unit>``: one track per unit whose ``<unit>_busy_cycles`` counter is not 0. The
  counters are totals over a region, not times, so a busy span is drawn at the
  start of its region with the busy cycle count as its length: it says how much
  of the region the unit was busy, not when. Regions with their own counters
  (per-layer) get one span each; otherwise one span for the whole run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from harness.errors import CosimError
from harness.results import FORWARD_REGION, write_json_atomic

BUSY_SUFFIX = "_busy_cycles"
RUN_TID, REGIONS_TID, FIRST_UNIT_TID = 1, 2, 10


def span(name: str, pid: int, tid: int, ts: int, dur: int, args: dict | None = None) -> dict:
    """A complete event ("X"): ``ts`` and ``dur`` in cycles = microseconds."""
    event = {"name": name, "ph": "X", "pid": pid, "tid": tid, "ts": ts, "dur": dur, "cat": "cosim"}
    if args:
        event["args"] = args
    return event


def metadata(kind: str, pid: int, tid: int, name: str, sort_index: int | None = None) -> list[dict]:
    events = [{"name": kind, "ph": "M", "pid": pid, "tid": tid, "args": {"name": name}}]
    if sort_index is not None:
        sort_kind = "thread_sort_index" if kind == "thread_name" else "process_sort_index"
        events.append({"name": sort_kind, "ph": "M", "pid": pid, "tid": tid, "args": {"sort_index": sort_index}})
    return events


def closed_profile(result: dict) -> list[dict]:
    return [p for p in result.get("profile") or [] if p.get("stop") is not None and p.get("cycles") is not None]


def run_spans(result: dict, pid: int) -> list[dict]:
    """``before forward``, ``forward``, ``after forward``: they tile [0, cycles_total]."""
    total = result["cycles_total"]
    forward = [p for p in closed_profile(result) if p["region"] == FORWARD_REGION]
    if not forward:
        return [span("run", pid, RUN_TID, 0, total, {"cycles": total})]
    f = forward[0]
    pieces = [("before forward", 0, f["start"]), ("forward", f["start"], f["cycles"])]
    pieces.append(("after forward", f["start"] + f["cycles"], total - f["start"] - f["cycles"]))
    return [span(name, pid, RUN_TID, ts, dur, {"cycles": dur}) for name, ts, dur in pieces if dur > 0]


def region_spans(result: dict, pid: int) -> list[dict]:
    spans = []
    for p in closed_profile(result):
        if p["region"] == FORWARD_REGION:
            continue
        args = {"region": p["region"], "cycles": p["cycles"]}
        args.update({k: p[k] for k in ("where", "ops") if k in p})
        name = p.get("name") or f"region {p['region']}"
        name += f" ({p['where']})" if p.get("where") else ""  # layer names can be bare indices ("0")
        spans.append(span(name, pid, REGIONS_TID, p["start"], p["cycles"], args))
    return spans


def busy_windows(result: dict) -> list[tuple[str, int, int, dict]]:
    """(name, start, cycles, counters) of the regions with their own counters, else of the whole run."""
    windows = [
        (p.get("name") or f"region {p['region']}", p["start"], p["cycles"], p["counters"])
        for p in closed_profile(result)
        if p.get("counters")
    ]
    return windows or [("run", 0, result["cycles_total"], result.get("counters") or {})]


def busy_units(windows: list[tuple[str, int, int, dict]]) -> list[str]:
    """Units busy in any window (a unit never busy gets no track), in a stable order."""
    keys = {k for *_, counters in windows for k, v in counters.items() if k.endswith(BUSY_SUFFIX) and v}
    return sorted(k[: -len(BUSY_SUFFIX)] for k in keys)


def busy_spans(windows: list[tuple[str, int, int, dict]], pid: int, units: list[str]) -> list[dict]:
    spans = []
    for i, unit in enumerate(units):
        for where, start, cycles, counters in windows:
            busy = counters.get(unit + BUSY_SUFFIX)
            if not busy:
                continue
            share = busy / cycles if cycles else 0.0
            args = {"busy_cycles": busy, "of_cycles": cycles, "busy_share": round(share, 4), "region": where}
            spans.append(span(f"{unit} busy {share:.0%}", pid, FIRST_UNIT_TID + i, start, min(busy, cycles), args))
    return spans


def case_events(result: dict, pid: int) -> list[dict]:
    """All events of one RTL result (a result.json record)."""
    name = result.get("case") or f"{result.get('soc')}/{result.get('target')}"
    windows = busy_windows(result)
    units = busy_units(windows)
    events = metadata("process_name", pid, 0, name, sort_index=pid)
    events += metadata("thread_name", pid, RUN_TID, "run", RUN_TID)
    events += metadata("thread_name", pid, REGIONS_TID, "regions", REGIONS_TID)
    for i, unit in enumerate(units):
        events += metadata("thread_name", pid, FIRST_UNIT_TID + i, f"busy: {unit}", FIRST_UNIT_TID + i)
    return events + run_spans(result, pid) + region_spans(result, pid) + busy_spans(windows, pid, units)


def trace(results: list[dict]) -> dict:
    """The trace of every result with cycle counts (RTL runs); Spike runs have none and are left out."""
    timed = [r for r in results if isinstance(r.get("cycles_total"), int)]
    events: list[dict] = []
    for pid, result in enumerate(timed, start=1):
        events += case_events(result, pid)
    return {
        "traceEvents": events,
        "displayTimeUnit": "ns",
        "otherData": {"time_unit": "1 simulated cycle = 1 us", "cases": [r.get("case") for r in timed]},
    }


def write_trace(results: list[dict], path: str | Path) -> Path | None:
    """Write the trace of ``results``; None (nothing written) when none has cycle counts."""
    data = trace(results)
    if not data["otherData"]["cases"]:
        return None
    write_json_atomic(path, data)
    return Path(path)


def results_of(paths: list[Path]) -> list[dict]:
    """result.json records from result files, or from a summary.json's case directories."""
    from harness.verify_suite import case_dir

    out = []
    for path in paths:
        try:
            data = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as e:
            raise CosimError(f"cannot read {path}: {e}; pass result.json files or a summary.json") from None
        if isinstance(data, dict):
            out.append(data)
            continue
        for row in data:
            result = case_dir(path.parent, row["case"]) / "result.json"
            if result.is_file():
                out.append(json.loads(result.read_text()))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.report.perfetto", description=__doc__.split("\n")[0])
    p.add_argument("inputs", nargs="+", type=Path, help="result.json files, or summary.json files of verify runs")
    p.add_argument("-o", "--output", type=Path, help="trace file (default trace.json beside the first input)")
    args = p.parse_args(argv)
    try:
        results = results_of(args.inputs)
    except CosimError as e:
        print(f"perfetto: error: {e}", file=sys.stderr)
        return 2
    out = args.output or args.inputs[0].with_name("trace.json")
    written = write_trace(results, out)
    if written is None:
        print("perfetto: no RTL results (no cycle counts): no trace written")
    else:
        print(f"perfetto: {written} ({len(trace(results)['otherData']['cases'])} cases; open in ui.perfetto.dev)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
