"""``cosim cases``: list the built-in cases (name, op class/tolerance, what they compute)."""

from __future__ import annotations

import json

from rich.console import Console
from rich.table import Table

from harness.cases import INT8_REGISTRY, REGISTRY


def run_cases(args) -> int:
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "name": c.name,
                        "tolerance": c.tolerance,
                        "ops": list(c.ops),
                        "description": c.description,
                        "int8": c.int8,
                    }
                    for c in (*REGISTRY.values(), *INT8_REGISTRY.values())
                ],
                indent=1,
            )
        )
        return 0
    table = Table(title="built-in cases (also: FILE.py:FUNC, FILE.mlir)")
    for col in ("case", "tolerance", "ops", "description", "int8 on Gemmini"):
        table.add_column(col)
    for c in REGISTRY.values():
        table.add_row(c.name, c.tolerance, ", ".join(c.ops), c.description, c.int8 or "-")
    for c in INT8_REGISTRY.values():  # int8 only: exact against the int8 reference
        table.add_row(c.name, "exact (int8)", ", ".join(c.ops), c.description, c.int8)
    Console().print(table)
    return 0


def register(sub) -> None:
    p = sub.add_parser("cases", help="list the built-in cases that `cosim verify` accepts")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    p.set_defaults(func=run_cases)
