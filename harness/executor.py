"""Where the verify suite's cases run: in the pytest process (``local``, the default,
parallel through pytest-xdist) or as Dask tasks (``dask``).

With ``dask`` the pytest process (one, no xdist) submits every selected case at the
start of the session and each test waits for its own task, so JUnit XML,
``summary.txt``/``summary.json`` and the per-case ``result.json`` files are the same
as a local run's: the tasks run :func:`harness.verify_suite.reuse_or_run` and write
into the one results directory (a shared file system on a grid). Each worker builds
or reuses the Verilator model of its config from the shared build cache
(``$COSIM_CACHE``, safe under concurrent builds).

The cluster, from the environment ``harness.verify_suite`` sets:

* ``COSIM_DASK_SCHEDULER=ADDRESS``: a running scheduler (``tcp://host:8786``);
* ``COSIM_DASK_CLUSTER=FILE``: a dask-jobqueue cluster from a TOML file
  (``kind = "slurm" | "pbs" | "lsf"``, ``jobs = N`` and the cluster class's own
  keyword arguments, e.g. ``cores``, ``memory``, ``queue``, ``walltime``);
* otherwise a ``LocalCluster`` of ``COSIM_DASK_WORKERS`` single-threaded processes.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from harness.errors import CosimError

EXECUTOR_ENV = "COSIM_EXECUTOR"
SCHEDULER_ENV = "COSIM_DASK_SCHEDULER"
CLUSTER_ENV = "COSIM_DASK_CLUSTER"
WORKERS_ENV = "COSIM_DASK_WORKERS"
EXECUTORS = ("local", "dask")
JOBQUEUE_KINDS = {"slurm": "SLURMCluster", "pbs": "PBSCluster", "lsf": "LSFCluster"}


def dask_enabled() -> bool:
    return os.environ.get(EXECUTOR_ENV, "local") == "dask"


def jobqueue_cluster(path: Path):
    """A dask-jobqueue cluster from a small TOML file, scaled to its ``jobs``."""
    try:
        raw = tomllib.loads(Path(path).read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise CosimError(f"--cluster {path}: cannot read it as TOML: {e}") from None
    kind = raw.pop("kind", None)
    if kind not in JOBQUEUE_KINDS:
        raise CosimError(f"--cluster {path}: kind must be one of {', '.join(JOBQUEUE_KINDS)}, not {kind!r}")
    jobs = raw.pop("jobs", 1)
    import dask_jobqueue

    cluster = getattr(dask_jobqueue, JOBQUEUE_KINDS[kind])(**raw)
    cluster.scale(jobs=jobs)
    return cluster


def client():
    """A Dask client for the configured cluster (the caller closes it)."""
    import logging

    from dask.distributed import Client, LocalCluster

    # Users see our output, not the scheduler's INFO lines.
    logging.getLogger("distributed").setLevel(logging.ERROR)
    address = os.environ.get(SCHEDULER_ENV)
    if address:
        return Client(address)
    cluster_file = os.environ.get(CLUSTER_ENV)
    if cluster_file:
        return Client(jobqueue_cluster(Path(cluster_file)))
    workers = int(os.environ.get(WORKERS_ENV, "2"))
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    return Client(cluster)


def _run_one(case, results: str, resume: bool) -> dict:
    from harness.verify_suite import reuse_or_run

    return reuse_or_run(case, Path(results), resume)


def submit_cases(dask_client, cases: list, results: Path, resume: bool) -> dict:
    """One task per case (pure=False: a rerun is a new run); case id -> future."""
    return {c.id: dask_client.submit(_run_one, c, str(results), resume, key=f"case-{c.id}", pure=False) for c in cases}


def executor_env(name: str, workers: int, scheduler: str | None, cluster: str | None) -> dict[str, str]:
    """The environment that selects ``name`` for the pytest process (checked here: bad input is named)."""
    if name not in EXECUTORS:
        raise CosimError(f"--executor {name!r}: use one of {', '.join(EXECUTORS)}")
    if name == "local":
        if scheduler or cluster:
            raise CosimError("--scheduler and --cluster need --executor dask")
        return {EXECUTOR_ENV: "local"}
    if scheduler and cluster:
        raise CosimError("give --scheduler ADDRESS or --cluster FILE, not both")
    if cluster and not Path(cluster).is_file():
        raise CosimError(f"--cluster {cluster}: no such file")
    env = {EXECUTOR_ENV: "dask", WORKERS_ENV: str(max(1, workers))}
    if scheduler:
        env[SCHEDULER_ENV] = scheduler
    if cluster:
        env[CLUSTER_ENV] = str(Path(cluster).resolve())
    return env
