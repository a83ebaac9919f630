"""Config sweeps: one base config, parameters over lists of values, cases on the RTL.

``python -m harness.sweep --base t1-small --param vlen=256,512 --param dlen=64,128 CASE...``
derives one config per combination (:func:`configs.derive.derive_soc`: the name and
dependent fields such as ``march``'s ``zvlNb`` rewritten, the strict checks applied)
into ``OUT/configs/`` (never ``configs/``), builds each (the shared, content-keyed
Verilator cache), runs every case on its RTL and writes ``OUT/sweep.md``,
``OUT/sweep.json`` and one plot per parameter (``OUT/<param>.png``: cycles and
utilization against it, one line per case and combination of the other parameters).

A case is a built-in PyTorch case (``mlp``), a C program of tests/programs
(``c:crc32``: compared with the host's output) or a Gemmini program of
tests/gemmini_programs (``gemmini:matmul_ws``: self-checking). Every run is
checked; a row that does not pass says why and gets no figures. ``--executor dask``
runs them as Dask tasks, like ``nox -s verify -- --executor dask``.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from pathlib import Path

from configs import ConfigError, SocConfig
from configs.derive import PARAMETERS, derive_soc
from harness.errors import CosimError
from harness.executor import executor_env
from harness.report.plots import plot_sweep
from harness.report.sweep import write_table

UTILIZATION_KEYS = ("vec_fma_utilization", "mesh_utilization", "vec_lane_utilization")


def parse_param(text: str) -> tuple[str, list[int]]:
    name, sep, values = text.partition("=")
    if not sep or name not in PARAMETERS:
        raise CosimError(f"--param {text!r}: use NAME=V1,V2,... with NAME one of {', '.join(PARAMETERS)}")
    try:
        return name, [int(v, 0) for v in values.split(",") if v]
    except ValueError:
        raise CosimError(f"--param {text!r}: values must be integers") from None


def run_case(case: str, soc: SocConfig, workdir: Path) -> dict:
    """One case on ``soc``'s RTL, checked against its reference; the result record."""
    from harness.c_programs import GEMMINI_PROGRAM_DIR, PROGRAM_DIR, CProgram, run_program, run_self_checking

    soc_ref = str(soc.path)
    if case.startswith("c:"):
        program = CProgram(PROGRAM_DIR / f"{case[2:]}.c", (soc.name,))
        if not program.path.is_file():
            raise CosimError(f"case {case!r}: no {program.path}")
        return run_program(program, soc_ref, workdir, target="rtl")
    if case.startswith("gemmini:"):
        program = CProgram(GEMMINI_PROGRAM_DIR / f"{case[8:]}.c", (soc.name,))
        if not program.path.is_file():
            raise CosimError(f"case {case!r}: no {program.path}")
        return run_self_checking(program, soc_ref, workdir, target="rtl")
    from harness.verify import verify

    return verify(case, soc_ref, on="rtl", workdir=workdir)


def utilization(result: dict) -> tuple[float | None, str]:
    """The run's utilization and the counter it comes from: FMA lanes, else element
    lanes (a program without FMAs), else the Gemmini mesh; (None, "") without one."""
    counters = result.get("counters") or {}
    present = [(k, float(counters[k])) for k in UTILIZATION_KEYS if counters.get(k) is not None]
    for key, value in present:
        if value > 0:
            return value, key
    return (present[0][1], present[0][0]) if present else (None, "")


def _checked_run(run, case: str, soc: SocConfig, workdir: Path) -> tuple[dict, str, str]:
    try:
        result = run(case, soc, workdir)
        return result, result.get("status"), result.get("message", "")
    except (CosimError, ConfigError) as e:
        return {}, "error", str(e)


def sweep(
    base: str, params: dict[str, list[int]], cases: list[str], out: Path, run=run_case, executor: str = "local"
) -> list[dict]:
    """Every combination of ``params`` on ``base`` x every case: one row each. With
    ``executor="dask"`` the runs are Dask tasks on the verify suite's cluster (harness/executor.py)."""
    names = list(params)
    jobs = []
    for values in itertools.product(*(params[n] for n in names)):
        changes = dict(zip(names, values, strict=True))
        soc = derive_soc(base, changes, out / "configs")
        jobs += [(changes, soc, case, out / "runs" / soc.name / case.replace(":", "_")) for case in cases]
    if executor == "dask":
        from harness import executor as dask_executor

        with dask_executor.client() as client:
            futures = [client.submit(_checked_run, run, case, soc, wd, pure=False) for _, soc, case, wd in jobs]
            outcomes = client.gather(futures)
    else:
        outcomes = [_checked_run(run, case, soc, wd) for _, soc, case, wd in jobs]
    rows = []
    for (changes, soc, case, _), (result, status, message) in zip(jobs, outcomes, strict=True):
        ok = status == "pass"
        cycles = result.get("cycles_total") if ok else None
        rows.append(
            {
                "config": soc.name,
                **changes,
                "case": case,
                "status": status,
                "cycles": cycles,
                "cycles_forward": result.get("cycles_forward") if ok else None,
                "utilization": utilization(result)[0] if ok else None,
                "utilization_counter": utilization(result)[1] if ok else "",
                "message": "" if ok else message,
                "config_path": str(soc.path),
            }
        )
        print(f"sweep: {soc.name} {case}: {status} {cycles or ''}", flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="sweep", description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="base config: a name or a .toml path")
    ap.add_argument("--param", action="append", default=[], help="NAME=V1,V2,... (repeatable)")
    ap.add_argument("--out", default="results/sweep", help="results folder (derived configs go in OUT/configs)")
    ap.add_argument("--executor", choices=("local", "dask"), default="local", help="run serially or as Dask tasks")
    ap.add_argument("--workers", type=int, default=2, help="with --executor dask: LocalCluster workers (default 2)")
    ap.add_argument("--scheduler", metavar="ADDRESS", help="with --executor dask: a running Dask scheduler")
    ap.add_argument("--cluster", metavar="FILE", help="with --executor dask: a dask-jobqueue cluster file")
    ap.add_argument("cases", nargs="+", help="mlp | c:PROGRAM | gemmini:PROGRAM")
    args = ap.parse_args(argv)
    try:
        params = dict(parse_param(p) for p in args.param)
        if not params:
            raise CosimError("give at least one --param NAME=V1,V2,...")
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        os.environ.update(executor_env(args.executor, args.workers, args.scheduler, args.cluster))
        rows = sweep(args.base, params, args.cases, out, executor=args.executor)
    except (CosimError, ConfigError) as e:
        print(f"sweep: error: {e}", file=sys.stderr)
        return 2
    table = write_table(rows, list(params), out)
    pngs = plot_sweep(rows, list(params), out)
    print(table.read_text())
    print(f"sweep: wrote {table}, {out / 'sweep.json'}, " + ", ".join(map(str, pngs)))
    return 0 if all(r["status"] == "pass" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
