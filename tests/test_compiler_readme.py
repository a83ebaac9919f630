"""compiler/README.md stays true: its measured table is the baseline's, and neither it nor the
comments and docstrings of compiler/ keep a history of before/after numbers or the old pass names.

The rule (stated in the README): ``git log`` has the history; the README says what is true now.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from compiler import measured_table
from compiler.passes import STAGES
from compiler.rvv.schedule import RVV
from compiler.scalar.schedule import SCALAR

ROOT = Path(__file__).resolve().parent.parent
COMPILER = ROOT / "compiler"
README = COMPILER / "README.md"
OLD_NAMES = re.compile(r"\b(flatmm|flatew|copyelim|shortred|colsplat|dotcontract|narrowidx|boolbufs|evl|mathexpand)\b")
BEFORE_AFTER = re.compile(r"\d -> \d")  # "12 802 -> 11 715"
RENAMED = "## Renamed passes"


def test_measured_table_is_the_baselines():
    """`python -m compiler.measured_table --write` regenerates it; a new baseline needs a re-run."""
    expected = measured_table.table(json.loads(measured_table.BASELINE.read_text()))
    assert measured_table.between_markers(README.read_text()) == expected, (
        "compiler/README.md's measured table differs from baselines/summary.json: "
        "run ./dev python -m compiler.measured_table --write"
    )


def test_table_layout():
    records = [
        {"case": "torch:mm@rv32/iss", "soc": "rv32", "target": "iss", "status": "pass", "instret": 1234567},
        {"case": "torch:mm@t1-small/rtl", "soc": "t1-small", "target": "rtl", "status": "pass", "cycles": 890},
        {"case": "c:crc32@rv32/iss", "soc": "rv32", "target": "iss", "status": "pass", "instret": 5},
        {"case": "torch:relu@rv32/iss", "soc": "rv32", "target": "iss", "status": "fail", "instret": 7},
    ]
    assert measured_table.table(records).splitlines() == [
        "| case | rv32 instructions | t1-small RTL cycles |",
        "|---|---:|---:|",
        "| mm | 1 234 567 | 890 |",
    ]


def _sources():
    yield from sorted(COMPILER.rglob("*.py"))
    yield from sorted(COMPILER.rglob("*.md"))


def test_no_before_after_numbers():
    found = [
        f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
        for p in _sources()
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if BEFORE_AFTER.search(line)
    ]
    assert not found, "before/after numbers (state what is true now):\n" + "\n".join(found)


def test_old_pass_names_only_in_the_renamed_table():
    found = []
    for p in _sources():
        text = p.read_text()
        if p == README:
            assert RENAMED in text
            text = text.split(RENAMED)[0]
        for n, line in enumerate(text.splitlines(), 1):
            if '"op": f"' in line:  # the schedule report's entry names (Kernel.schedule output)
                continue
            if OLD_NAMES.search(line):
                found.append(f"{p.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "old pass names outside the README's renamed table:\n" + "\n".join(found)


def _names(cell: str) -> tuple[str, ...]:
    return () if cell == "(none)" else tuple(n.strip() for n in cell.split(","))


def test_schedule_table_is_the_schedules():
    """The README's "Stages and passes, in run order" table lists each backend's schedule as it is."""
    rows = {}
    for line in README.read_text().split("## Stages and passes, in run order")[1].split("\n### ")[0].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] in STAGES:
            rvv = _names(cells[1])
            rows[cells[0]] = (rvv, rvv if cells[2] == "the same" else _names(cells[2]))
    assert rows == {stage: (names, dict(SCALAR.stages)[stage]) for stage, names in RVV.stages}
