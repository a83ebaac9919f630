"""The verify suite on Dask: same summary, JUnit cases and result files as the local
run; bad executor options are named."""

import json
import os
import xml.etree.ElementTree as ET

import pytest

from harness import executor
from harness.errors import CosimError
from harness.verify_suite import main as verify_main

SUBSET = "c: and iss and (crc32 or printf_fmt)"


def _rows(results):
    return json.loads((results / "summary.json").read_text())


def _junit_names(results):
    return sorted(tc.get("name") for tc in ET.parse(results / "junit.xml").iter("testcase"))


@pytest.mark.slow
@pytest.mark.iss
def test_dask_two_workers_same_summary_as_local(tmp_path, monkeypatch):
    for name in (executor.EXECUTOR_ENV, executor.SCHEDULER_ENV, executor.CLUSTER_ENV):
        monkeypatch.delenv(name, raising=False)
    local, dask = tmp_path / "local", tmp_path / "dask"
    assert verify_main(["--workers", "2", "-k", SUBSET, "--results", str(local)]) == 0
    assert verify_main(["--workers", "2", "--executor", "dask", "-k", SUBSET, "--results", str(dask)]) == 0
    assert _rows(local) == _rows(dask) and len(_rows(dask)) == 4
    assert _junit_names(local) == _junit_names(dask)
    assert sorted(os.listdir(local / "cases")) == sorted(os.listdir(dask / "cases"))


def test_executor_options_are_checked(tmp_path):
    assert executor.executor_env("local", 2, None, None) == {executor.EXECUTOR_ENV: "local"}
    env = executor.executor_env("dask", 3, "tcp://h:8786", None)
    assert env[executor.SCHEDULER_ENV] == "tcp://h:8786" and env[executor.WORKERS_ENV] == "3"
    with pytest.raises(CosimError, match="need --executor dask"):
        executor.executor_env("local", 2, "tcp://h:8786", None)
    with pytest.raises(CosimError, match="not both"):
        executor.executor_env("dask", 2, "tcp://h:8786", str(tmp_path))
    with pytest.raises(CosimError, match="no such file"):
        executor.executor_env("dask", 2, None, str(tmp_path / "none.toml"))


def test_jobqueue_file_kind_is_checked(tmp_path):
    bad = tmp_path / "grid.toml"
    bad.write_text('kind = "condor"\njobs = 2\n')
    with pytest.raises(CosimError, match="slurm, pbs, lsf"):
        executor.jobqueue_cluster(bad)
    bad.write_text("kind = [\n")
    with pytest.raises(CosimError, match="TOML"):
        executor.jobqueue_cluster(bad)


@pytest.mark.slow
@pytest.mark.rtl
def test_two_concurrent_runs_share_one_fresh_cache(tmp_path):
    # Both runs build the same rv32 model at once into an empty cache: one builds, the
    # other waits on the entry's lock and reuses it; both pass with the same figures.
    import subprocess
    import sys

    env = dict(os.environ, COSIM_CACHE=str(tmp_path / "cache"))
    for name in (executor.EXECUTOR_ENV, executor.SCHEDULER_ENV, executor.CLUSTER_ENV):
        env.pop(name, None)
    k = "c:printf_fmt and rv32 and rtl"
    runs = {
        "local": ["--workers", "1"],
        "dask": ["--workers", "2", "--executor", "dask"],
    }
    procs = {
        name: subprocess.Popen(
            [sys.executable, "-m", "harness.verify_suite", *opts, "-k", k, "--results", str(tmp_path / name)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for name, opts in runs.items()
    }
    assert {name: p.wait(timeout=1800) for name, p in procs.items()} == {"local": 0, "dask": 0}
    assert _rows(tmp_path / "local") == _rows(tmp_path / "dask")
    assert _rows(tmp_path / "local")[0]["status"] == "pass"
    entries = [p for p in (tmp_path / "cache" / "verilator").iterdir() if p.is_dir() and p.name.startswith("rv32-")]
    assert len(entries) == 1  # one model, built once
