"""``nox -s verify``: run every registered case in parallel, write JUnit XML and a summary.

    python -m harness.verify_suite --workers 2 [-k EXPR] [--results DIR] [--list]

Cases come from *case sources*. A source is a function returning
:class:`Case` objects; it is named in :data:`CASE_SOURCES` as
``"module:function"`` (imported lazily, so a source whose module does not exist
yet is skipped with a note), or added at run time through the environment
variable ``COSIM_CASE_SOURCES`` (``module:function`` entries separated by
commas). To add PyTorch cases or RTL targets, write ``verify_cases()`` in your
module returning ``Case(id, soc, target, kind, run)`` objects, where ``run(workdir)``
builds and runs the case and returns a result record (``harness.results.make_result``),
and add one line to :data:`CASE_SOURCES`.

Each case is one pytest test in ``harness/verify_pytest.py``, run with
pytest-xdist (its output goes to ``results/pytest.log``); every case writes
``results/cases/<id>/result.json``. While it runs, ``harness/live.py`` shows the
cases done, running and failing. After the run the summary table (case, soc,
target, status, instret, cycles) is printed and written to ``results/summary.txt``
and ``results/summary.json``; pytest writes ``results/junit.xml``. ``--resume``
reuses the finished results of a killed run (``harness/resume.py``); a failed RTL
case is rerun for waves of its last cycles (``harness/failure_waves.py``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from harness.check import crashed_result
from harness.errors import CosimError
from harness.executor import executor_env
from harness.failure_waves import CAP_ENV, WINDOW_ENV, add_failure_waves
from harness.live import LiveView, Progress
from harness.report.summary import print_summary
from harness.results import write_json_atomic
from harness.resume import KEY as RESUME_KEY
from harness.resume import finished_result, resume_key

# name -> "module:function" returning Iterable[Case]. Add a line to add a case source.
CASE_SOURCES: dict[str, str] = {
    "c-programs": "harness.c_programs:verify_cases",
    "c-programs-rtl": "harness.c_programs:verify_cases_rtl",
    "gemmini-programs": "harness.c_programs:gemmini_verify_cases",
    "gemmini-programs-rtl": "harness.c_programs:gemmini_verify_cases_rtl",
    "torch": "harness.verify:verify_cases",
    "torch-rtl": "harness.verify:verify_cases_rtl",
    "torch-gemmini": "harness.gemmini_suite:verify_cases",
    "torch-gemmini-rtl": "harness.gemmini_suite:verify_cases_rtl",
}
SOURCES_ENV = "COSIM_CASE_SOURCES"
ONLY_ENV = "COSIM_VERIFY_ONLY"  # comma-separated source names to restrict a run to
RESULTS_ENV = "COSIM_RESULTS_DIR"
RESUME_ENV = "COSIM_VERIFY_RESUME"  # "1": reuse finished results (--resume)
PYTEST_MODULE = Path(__file__).with_name("verify_pytest.py")


@dataclass(frozen=True)
class Case:
    """One verification: a program/model on one SoC config and one target."""

    id: str  # unique and stable, e.g. "c:sort@rv32/iss"
    soc: str
    target: str  # "iss" or "rtl"
    kind: str  # "c-program", "torch", ...
    run: Callable[[Path], dict]  # workdir -> result record (result.json contents)


def _load_source(spec: str) -> Callable[[], Iterable[Case]] | None:
    module_name, _, func = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name == module_name:
            print(f"verify: case source {spec} not available yet (no module {module_name}); skipped", file=sys.stderr)
            return None
        raise
    return getattr(module, func or "verify_cases")


def source_specs() -> dict[str, str]:
    specs = dict(CASE_SOURCES)
    for entry in filter(None, (e.strip() for e in os.environ.get(SOURCES_ENV, "").split(","))):
        specs[entry] = entry
    only = [n for n in os.environ.get(ONLY_ENV, "").split(",") if n]
    if only:
        unknown = set(only) - set(specs)
        if unknown:
            raise CosimError(f"unknown case source(s) {sorted(unknown)}; known: {sorted(specs)}")
        specs = {n: specs[n] for n in only}
    return specs


def collect_cases() -> list[Case]:
    """All cases of all available sources, with unique ids."""
    cases: list[Case] = []
    for spec in source_specs().values():
        fn = _load_source(spec)
        if fn is not None:
            cases.extend(fn())
    seen: set[str] = set()
    for c in cases:
        if c.id in seen:
            raise CosimError(f"two verify cases have the id {c.id!r}; case ids must be unique")
        seen.add(c.id)
    return cases


def case_dir(results: Path, case_id: str) -> Path:
    return results / "cases" / re.sub(r"[^A-Za-z0-9_.-]+", "_", case_id)


def run_case(case: Case, results: Path) -> dict:
    """Run one case and write its result.json; a crash becomes an ``error`` record.

    A ``started`` marker (the start time) tells the live view the case is running; a failed
    RTL case is rerun for waves of the cycles before its failure (harness/failure_waves.py);
    the result is written atomically with its resume key (harness/resume.py)."""
    workdir = case_dir(results, case.id)
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    (workdir / "started").write_text(f"{time.time():.3f}")
    try:
        result = case.run(workdir)
    except Exception as e:  # the suite must report every case, whatever went wrong
        result = crashed_result(case.id, case.soc, case.target, e)
    result["case"] = case.id
    add_failure_waves(case.soc, case.target, result, workdir)
    result[RESUME_KEY] = resume_key(case.soc, case.target, result)
    write_json_atomic(workdir / "result.json", result)
    return result


def reuse_or_run(case: Case, results: Path, resume: bool) -> dict:
    """With ``resume``, a finished result of an interrupted run whose key still holds; otherwise run the case."""
    if resume:
        done = finished_result(case_dir(results, case.id) / "result.json", case.soc, case.target)
        if done is not None:
            return done
    return run_case(case, results)


def summarize(cases: list[Case], results: Path, console: Console) -> list[dict]:
    rows = []
    for case in cases:
        path = case_dir(results, case.id) / "result.json"
        r = json.loads(path.read_text()) if path.is_file() else {"status": "not run"}
        rows.append(
            {
                "case": case.id,
                "soc": case.soc,
                "target": case.target,
                "status": r.get("status"),
                "instret": r.get("instret"),
                "cycles": r.get("cycles_total"),
                "message": r.get("message", ""),
                # e.g. a PyTorch case on a Gemmini config that ran on the scalar core only
                "accelerator_used": r.get("accelerator_used"),
                "note": r.get("note", ""),
            }
        )
        # A failed RTL case's waves (harness/failure_waves.py), only where there are some.
        rows[-1].update({k: r[k] for k in ("waves", "waves_note") if r.get(k)})
    print_summary(rows, console)
    return rows


def select_cases(cases: list[Case], keyword: str | None) -> list[Case]:
    """The cases pytest's ``-k`` expression selects (collected in this process, nothing run)."""
    if not keyword:
        return cases
    import contextlib
    import io

    import pytest

    class Collector:
        ids: set[str] = set()

        def pytest_collection_finish(self, session) -> None:
            self.ids = {item.callspec.params["case"].id for item in session.items}

    collector = Collector()
    args = [str(PYTEST_MODULE), "--collect-only", "-q", "-p", "no:cacheprovider", "-k", keyword]
    with contextlib.redirect_stdout(io.StringIO()) as out:
        code = pytest.main(args, plugins=[collector])
    if code not in (0, 5):
        raise CosimError(f"-k {keyword!r}: pytest could not select cases:\n{out.getvalue()[-2000:]}")
    return [c for c in cases if c.id in collector.ids]


def run_pytest(cmd: list[str], env: dict, log: Path, view: LiveView) -> int:
    """Run the suite's pytest (output to ``log``, not the terminal) while the live view polls."""
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            while proc.poll() is None:
                view.update()
                time.sleep(0.25)
        except BaseException:  # Ctrl-C or a kill of this process: never leave the workers running
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
            raise
    return proc.returncode


def _terminate(signum, frame):  # SIGTERM (nox, CI cancel) unwinds like Ctrl-C
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    from harness.failure_waves import settings as waves_settings

    parser = argparse.ArgumentParser(prog="python -m harness.verify_suite", description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=2, help="pytest-xdist workers (default 2)")
    parser.add_argument("--results", default="results", help="results directory (default ./results)")
    parser.add_argument("-k", dest="keyword", default=None, help="only cases matching this pytest -k expression")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument(
        "--source", action="append", default=[], metavar="NAME", help="only this case source (repeatable)"
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="keep the results of an interrupted run and rerun only the cases without a finished result",
    )
    default_window, default_cap = waves_settings()
    parser.add_argument(
        "--waves-window",
        type=int,
        default=default_window,
        metavar="N",
        help=f"a failed RTL case is rerun with waves of its last N cycles (default {default_window}; 0: off)",
    )
    parser.add_argument(
        "--waves-cap",
        type=float,
        default=default_cap / 2**20,
        metavar="MB",
        help=f"largest waves file (default {default_cap / 2**20:.0f} MiB): a bigger window is shrunk to fit",
    )
    parser.add_argument(
        "--executor", choices=("local", "dask"), default="local", help="local (pytest-xdist) or dask tasks"
    )
    parser.add_argument("--scheduler", metavar="ADDRESS", help="with --executor dask: a running Dask scheduler")
    parser.add_argument("--cluster", metavar="FILE", help="with --executor dask: a dask-jobqueue cluster file")
    args = parser.parse_args(argv)
    if args.source:
        os.environ[ONLY_ENV] = ",".join(args.source)
    if args.waves_window < 0 or args.waves_cap <= 0:
        raise CosimError("--waves-window must be >= 0 cycles and --waves-cap a positive size in MiB")

    cases = collect_cases()
    if args.list:
        for c in cases:
            print(f"{c.id}\t{c.kind}\t{c.soc}\t{c.target}")
        return 0
    results = Path(args.results).resolve()
    selected = select_cases(cases, args.keyword)
    if not args.resume:
        shutil.rmtree(results / "cases", ignore_errors=True)
    results.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pytest", str(PYTEST_MODULE), "-q", "-p", "no:cacheprovider"]
    cmd += ["--junitxml", str(results / "junit.xml"), "-o", "junit_suite_name=verify"]
    if args.workers > 1 and args.executor == "local":
        cmd += ["-n", str(args.workers)]  # with dask the one pytest process waits for the tasks
    if args.keyword:
        cmd += ["-k", args.keyword]
    env = dict(os.environ, **{RESULTS_ENV: str(results), RESUME_ENV: "1" if args.resume else ""})
    env.update({WINDOW_ENV: str(args.waves_window), CAP_ENV: str(args.waves_cap)})
    env.update(executor_env(args.executor, args.workers, args.scheduler, args.cluster))

    # Wide enough for the case ids even when stdout is not a terminal (nox, CI logs).
    console = Console(width=max(shutil.get_terminal_size().columns, 120))
    dirs = {c.id: case_dir(results, c.id) for c in selected}
    reused = set()
    if args.resume:
        reused = {c.id for c in selected if finished_result(dirs[c.id] / "result.json", c.soc, c.target)}
    log = results / "pytest.log"
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        with LiveView(Progress(dirs, reused=reused), console) as view:
            code = run_pytest(cmd, env, log, view)
    except KeyboardInterrupt:
        console.print(f"verify: interrupted; `--resume` reruns only the unfinished cases (pytest log: {log})")
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
    if code not in (0, 1):  # not "some cases failed": pytest itself could not run them
        console.print(f"verify: pytest exited with {code}; the end of {log}:\n" + _tail(log))

    file_console = Console(record=True, width=140, file=open(os.devnull, "w"))  # noqa: SIM115
    rows = summarize(selected, results, console)
    summarize(selected, results, file_console)
    (results / "summary.txt").write_text(file_console.export_text())
    write_json_atomic(results / "summary.json", rows)
    print(f"verify: wrote {results / 'junit.xml'}, {results / 'summary.txt'}, {results / 'summary.json'}")
    return code


def _tail(path: Path, lines: int = 30) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.is_file() else "(no log)"


if __name__ == "__main__":
    sys.exit(main())
