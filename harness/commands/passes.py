"""``cosim passes [--target S] [--json]``: the compiler's registered passes, or the schedule config S gets."""

from __future__ import annotations

import json

from rich.console import Console
from rich.table import Table


def run_passes(args) -> int:
    from compiler import passes as registry
    from compiler.pipeline import schedule_for
    from compiler.targets import target_for

    if args.target:
        target = target_for(args.target)
        rows = [(stage, registry.get(name)) for stage, names in schedule_for(target) for name in names]
        title = f"schedule of {target.soc} ({target.strategy} backend), in run order"
    else:
        rows = [(p.stage, p) for p in registry.PASSES.values()]
        title = "registered compiler passes (compiler/passes.py)"
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "name": p.name,
                        "stage": stage,
                        "summary": p.summary,
                        "options": p.options,
                        "module": p.module,
                        "pipeline": p.pipeline,
                    }
                    for stage, p in rows
                ],
                indent=1,
            )
        )
        return 0
    table = Table(title=title)
    if args.target:
        table.add_column("#", justify="right")
    table.add_column("pass", no_wrap=True)
    table.add_column("stage", no_wrap=True)
    table.add_column("summary")
    table.add_column("options")
    for n, (stage, p) in enumerate(rows, start=1):
        cells = [p.name, stage, p.summary, p.options]
        table.add_row(*([str(n)] if args.target else []), *cells)
    Console().print(table)
    return 0


def register(sub) -> None:
    p = sub.add_parser("passes", help="list the compiler's passes (or, with --target S, the schedule S gets)")
    p.add_argument("--target", metavar="S", help="SoC config name or .toml path: its schedule, in run order")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    p.set_defaults(func=run_passes)
