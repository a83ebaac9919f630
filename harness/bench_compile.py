"""Compile latency per case with cold caches: frontend, lowering, codegen, link.

Run by ``nox -s bench`` (``python -m harness.bench --only compile``) or alone:
``python -m harness.bench_compile [--soc S] [--case C ...]``. Caches are cold:
a fresh kernel cache directory, and the kernel compiled without the cache. The
first case also pays PyTorch's one-time export warm-up, reported on its own line.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

DEFAULT_CASES = ("addmm", "mm", "bmm", "linear", "softmax", "conv2d", "mlp", "lenet5")


def measure(case_name: str, soc: str, workdir: Path) -> dict:
    from compiler import compile_kernel
    from compiler.frontend import import_torch
    from configs import load_soc
    from harness.cases import materialize, resolve
    from harness.program import build_program
    from harness.verify import c_identifier

    cfg = load_soc(soc)  # once, here: compile and link take the object
    c = resolve(case_name)
    t0 = time.perf_counter()
    mat = materialize(c)
    imported = import_torch(mat.fn, mat.inputs, name=c_identifier(c.name), source=c.name)
    t1 = time.perf_counter()
    kernel = compile_kernel(imported, cfg, use_cache=False)
    t2 = time.perf_counter()
    build_program(kernel, cfg, workdir / f"{case_name}-{soc}", case=c.name)
    t3 = time.perf_counter()
    return {
        "case": case_name,
        "soc": soc,
        "frontend": t1 - t0,
        "lowering": kernel.seconds.get("lowering", 0.0),
        "codegen": kernel.seconds.get("codegen", 0.0),
        "link": t3 - t2,
        "total": t3 - t0,
    }


def run(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="bench_compile")
    p.add_argument("--soc", default="t1-small")
    p.add_argument("--case", action="append")
    args, _ = p.parse_known_args(argv or [])
    cases = args.case or list(DEFAULT_CASES)
    t_imp = time.perf_counter()
    import torch  # noqa: F401

    import compiler.frontend  # noqa: F401
    import harness.program  # noqa: F401

    imports = time.perf_counter() - t_imp
    with tempfile.TemporaryDirectory(prefix="cosim-bench-compile-") as tmp:
        os.environ["COSIM_CACHE"] = str(Path(tmp) / "cache")
        rows = [measure(cases[0], args.soc, Path(tmp))]  # pays the one-time torch.export warm-up
        rows[0]["case"] += " (first: export warm-up)"
        rows += [measure(c, args.soc, Path(tmp)) for c in cases]
    table = Table(title=f"compile latency on {args.soc}, cold kernel cache (imports took {imports:.2f} s)")
    for col in ("case", "frontend s", "lowering s", "codegen s", "link s", "total s"):
        table.add_column(col, justify="right" if col != "case" else "left")
    for r in rows:
        table.add_row(r["case"], *(f"{r[k]:.2f}" for k in ("frontend", "lowering", "codegen", "link", "total")))
    Console().print(table)
    addmm = [r for r in rows[1:] if r["case"] == "addmm"]
    if addmm:
        verdict = "meets" if addmm[0]["total"] < 2.0 else "misses"
        print(
            f"addmm torch callable -> ELF: {addmm[0]['total']:.2f} s after imports and warm-up ({verdict} the 2 s target)"
        )


if __name__ == "__main__":
    run(None)
