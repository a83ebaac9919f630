"""``nox -s bench -- --only executor``: the verify suite's wall time with 1 and 2
local workers (pytest-xdist) and on the Dask executor (a LocalCluster of 2 worker
processes), on the same cases, each run checked (all pass, same summary).

``--executor-k EXPR`` selects the cases (default: the C programs on Spike).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

DEFAULT_K = "c: and iss"
RUNS = (("local, 1 worker", ["--workers", "1"]), ("local, 2 workers", ["--workers", "2"]))
RUNS += (("dask, 2 local workers", ["--workers", "2", "--executor", "dask"]),)


def _summary(results: Path) -> list[dict]:
    rows = json.loads((results / "summary.json").read_text())
    return [{k: v for k, v in r.items() if k in ("case", "status", "instret", "cycles")} for r in rows]


def run(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(prog="bench executor")
    ap.add_argument("--executor-k", default=DEFAULT_K, help=f"cases (a -k expression; default {DEFAULT_K!r})")
    args, _ = ap.parse_known_args(argv)
    table = Table(title=f"verify suite wall time, -k {args.executor_k!r}")
    for col in ("executor", "cases", "wall s", "vs 1 worker", "check"):
        table.add_column(col, justify="right" if col in ("cases", "wall s", "vs 1 worker") else "left")
    first_wall, first_rows = None, None
    with tempfile.TemporaryDirectory(prefix="bench-executor-") as tmp:
        for label, opts in RUNS:
            results = Path(tmp) / label.replace(" ", "_").replace(",", "")
            cmd = [
                sys.executable,
                "-m",
                "harness.verify_suite",
                *opts,
                "-k",
                args.executor_k,
                "--results",
                str(results),
            ]
            t0 = time.perf_counter()
            rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            wall = time.perf_counter() - t0
            rows = _summary(results) if (results / "summary.json").is_file() else []
            first_wall = first_wall or wall
            first_rows = first_rows if first_rows is not None else rows
            ok = rc == 0 and rows == first_rows and all(r["status"] == "pass" for r in rows)
            check = "pass, same summary" if ok else f"FAILED (exit {rc})"
            table.add_row(label, str(len(rows)), f"{wall:.1f}", f"{first_wall / wall:.2f}x", check)
    Console().print(table)
