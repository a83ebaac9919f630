"""Operator coverage: per case and SoC, how far each case gets.

Columns: recognized (the frontend imports it), lowered (every lowering stage
runs), compiled (an object and an ELF are built), validated-on-iss and
validated-on-rtl (the outputs match PyTorch on Spike / on the RTL). Each cell is
``yes``, ``no`` (with the first line of the error) or ``not run``.

    python -m harness.coverage --soc rv32 --soc t1-small --out results/coverage [--rtl] [--mix]

writes ``coverage.json`` and ``coverage.md`` (``--mix`` adds the vector share of
the retired instructions inside forward, measured on Spike).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from compiler import compile_kernel
from compiler.errors import CompileError
from compiler.frontend import import_mlir_file, import_torch
from configs import load_soc
from harness.cases import REGISTRY, materialize, resolve
from harness.check import compare_all
from harness.program import build_program, read_outputs
from harness.report.coverage import COLUMNS, markdown
from harness.results import FORWARD_REGION, write_json_atomic
from harness.verify import c_identifier, run_on


def _first(e: Exception) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0][:200]


def case_coverage(name: str, soc_name: str, *, rtl: bool = False, mix: bool = False) -> dict:
    row: dict = {"case": name, "soc": soc_name, **{c: "not run" for c in COLUMNS}}
    soc = load_soc(soc_name)  # once, here: every stage below takes the object
    c = resolve(name)
    try:
        mat = materialize(c)
        imported = (
            import_mlir_file(c.mlir_path, name=c.name)
            if c.mlir_path
            else import_torch(mat.fn, mat.inputs, name=c_identifier(c.name), source=c.name)
        )
        row["recognized"] = "yes"
    except Exception as e:
        row["recognized"] = f"no: {_first(e)}"
        return row
    try:
        kernel = compile_kernel(imported, soc)
        row["lowered"] = "yes"
        row["vectorized_ops"] = f"{sum(o['vectorized'] for o in kernel.schedule)}/{len(kernel.schedule)}"
    except CompileError as e:
        key = "lowered" if "lowering stage" in str(e) else "compiled"
        if key == "compiled":
            row["lowered"] = "yes"
        row[key] = f"no: {_first(e)}"
        return row
    with tempfile.TemporaryDirectory(prefix="cosim-cov-") as tmp:
        try:
            program = build_program(kernel, soc, Path(tmp), case=c.name)
            row["compiled"] = "yes"
        except Exception as e:
            row["compiled"] = f"no: {_first(e)}"
            return row
        dumps = [(int(o["address"], 16), o["size"]) for o in program.outputs]
        for target, col in (("iss", "validated_iss"), ("rtl", "validated_rtl")):
            if target == "rtl" and not rtl:
                continue
            try:
                outcome = run_on(target, program.elf, soc, dumps, Path(tmp))
                if not outcome.exited_ok:
                    row[col] = f"no: run ended {outcome.ending} {outcome.message or ''}".strip()
                    continue
                got = read_outputs(program.manifest, outcome.dumps)
                metrics = compare_all(got, mat.reference, c.tolerance) if mat.reference else {}
                bad = {k: v for k, v in metrics.items() if v["mismatches"]}
                row[col] = "yes" if not bad else f"no: mismatches in {', '.join(bad)}"
                fwd = [p for p in outcome.profile if p.region == FORWARD_REGION and p.stop is not None]
                if fwd:
                    row[f"{target}_forward"] = fwd[0].cycles
            except Exception as e:
                row[col] = f"no: {_first(e)}"
        if mix and row["validated_iss"] == "yes":
            from harness.vecstats import forward_mixes

            region, kernel_mix = forward_mixes(program.elf, soc)
            row["mix"] = region.to_dict()
            row["kernel_mix"] = kernel_mix.to_dict()
    return row


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.coverage", description=__doc__.splitlines()[0])
    p.add_argument("--soc", action="append", help="SoC config (repeatable); default rv32, t1-small, t1-blastoise")
    p.add_argument("--case", action="append", help="case (repeatable); default every built-in case")
    p.add_argument("--out", default="results/coverage", help="output directory")
    p.add_argument("--rtl", action="store_true", help="also validate on the RTL")
    p.add_argument("--mix", action="store_true", help="measure the vector share of forward's instructions on Spike")
    args = p.parse_args(argv)
    socs = args.soc or ["rv32", "t1-small", "t1-blastoise"]
    cases = args.case or list(REGISTRY)
    rows = []
    for soc in socs:
        for name in cases:
            t0 = time.perf_counter()
            row = case_coverage(name, soc, rtl=args.rtl, mix=args.mix)
            row["seconds"] = round(time.perf_counter() - t0, 2)
            rows.append(row)
            print(f"{soc:14} {name:14} " + " ".join(f"{c}={row[c].split(':')[0]}" for c in COLUMNS), flush=True)
    out = Path(args.out)
    write_json_atomic(out / "coverage.json", rows)
    (out / "coverage.md").write_text(markdown(rows))
    print(f"wrote {out / 'coverage.json'} and {out / 'coverage.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
