"""The measured figures table of compiler/README.md, generated from a run summary.

    ./dev python -m compiler.measured_table [SUMMARY]           # print the table
    ./dev python -m compiler.measured_table [SUMMARY] --write   # replace it in compiler/README.md

``SUMMARY`` is a ``summary.json`` as ``nox -s verify`` writes it (``results/summary.json``);
the default is the committed baseline, ``baselines/summary.json``. Rows are the built-in
``torch:`` cases; columns the retired instructions of the whole program on Spike per config,
then the RTL cycles of every config the summary has them for. The README holds the output
between ``<!-- measured:begin -->`` and ``<!-- measured:end -->``;
``tests/test_compiler_readme.py`` checks that it matches the baseline's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "baselines" / "summary.json"
README = Path(__file__).resolve().parent / "README.md"
BEGIN, END = "<!-- measured:begin -->", "<!-- measured:end -->"
SOC_ORDER = ("rv32", "rv64", "t1-small", "t1-blastoise")


def _num(n: int) -> str:
    return f"{n:,}".replace(",", " ")


def _soc_key(soc: str):
    return (SOC_ORDER.index(soc) if soc in SOC_ORDER else len(SOC_ORDER), soc)


def table(records: list[dict]) -> str:
    """Markdown table of the ``torch:`` cases: Spike instructions, then RTL cycles, per config."""
    iss: dict[tuple[str, str], int] = {}
    rtl: dict[tuple[str, str], int] = {}
    cases: list[str] = []
    for r in records:
        kind, _, rest = r["case"].partition(":")
        if kind != "torch" or r.get("status") != "pass":
            continue
        case = rest.split("@", 1)[0]
        if case not in cases:
            cases.append(case)
        if r["target"] == "iss" and r.get("instret") is not None:
            iss[case, r["soc"]] = r["instret"]
        elif r["target"] == "rtl" and r.get("cycles") is not None:
            rtl[case, r["soc"]] = r["cycles"]
    iss_socs = sorted({s for _, s in iss}, key=_soc_key)
    rtl_socs = sorted({s for _, s in rtl}, key=_soc_key)
    head = ["case", *(f"{s} instructions" for s in iss_socs), *(f"{s} RTL cycles" for s in rtl_socs)]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for case in cases:
        cells = [iss.get((case, s)) for s in iss_socs] + [rtl.get((case, s)) for s in rtl_socs]
        lines.append("| " + " | ".join([case, *("" if c is None else _num(c) for c in cells)]) + " |")
    return "\n".join(lines) + "\n"


def between_markers(text: str) -> str:
    """The README's text between the measured-table markers."""
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[start:end].strip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("summary", nargs="?", type=Path, default=BASELINE)
    ap.add_argument("--write", action="store_true", help="replace the table between the markers of compiler/README.md")
    args = ap.parse_args(argv)
    out = table(json.loads(args.summary.read_text()))
    if not args.write:
        sys.stdout.write(out)
        return 0
    text = README.read_text()
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    README.write_text(text[:start] + "\n" + out + text[end:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
