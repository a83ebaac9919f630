"""Run one registered pass alone on an IR file: the command a reproducer prints.

    python -m compiler.replay PASS --target TARGET INPUT [-o OUTPUT] [--no-locations]

``TARGET`` is a SoC config (name or path) or a reproducer's ``target.json``;
``INPUT`` MLIR (``.ll`` text for an ``llvm-ir`` pass). The pass runs as the pipeline
runs it (``compiler.pipeline.apply_pass``: the IR is verified after it); its output
goes to ``OUTPUT`` (or stdout). Exit status 1, with the pipeline's message
(``pass 'NAME' failed: ...`` / ``produced invalid IR``), if it fails.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from compiler.errors import CompileError
from compiler.targets import Target, VectorTarget, target_for


def load_target(spec: str) -> Target:
    """A reproducer's ``target.json``, or a SoC config's name or path."""
    if spec.endswith(".json"):
        raw = json.loads(Path(spec).read_text())
        vector = VectorTarget(**raw["vector"]) if raw.get("vector") else None
        return Target(**{**raw, "features": tuple(raw["features"]), "vector": vector})
    return target_for(spec)


def replay(name: str, target: Target, text: str, *, locations: bool = True) -> str:
    """Run pass ``name`` on ``text``; return its output IR (with locations unless told
    not to: tests/compiler_filecheck reads it without). Raises ``PassFailure``."""
    from torch_mlir import ir

    from compiler import passes as registry
    from compiler.pipeline import LLVMText, apply_pass

    if not registry.get(name).mlir:
        holder = LLVMText(text)
        apply_pass(holder, name, target)
        return holder.text
    ctx = ir.Context()
    ctx.allow_unregistered_dialects = False
    with ctx:
        module = ir.Module.parse(text)
    apply_pass(module, name, target)
    return module.operation.get_asm(enable_debug_info=locations)


def main(argv: list[str] | None = None) -> int:
    from compiler.pipeline import PassFailure

    ap = argparse.ArgumentParser(prog="python -m compiler.replay", description=__doc__.split("\n\n")[0])
    ap.add_argument("name", metavar="PASS", help="a registered pass (cosim passes lists them)")
    ap.add_argument("--target", required=True, help="SoC config name or path, or a reproducer's target.json")
    ap.add_argument("input", help="the pass's input IR")
    ap.add_argument("-o", "--output", help="write the output IR here (default: stdout)")
    ap.add_argument("--no-locations", action="store_true", help="print the output IR without locations")
    args = ap.parse_args(argv)
    try:
        text = Path(args.input).read_text()
        out = replay(args.name, load_target(args.target), text, locations=not args.no_locations)
    except (PassFailure, CompileError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.output:
        Path(args.output).write_text(out)
    else:
        sys.stdout.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
