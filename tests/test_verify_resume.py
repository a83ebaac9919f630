"""`nox -s verify` killed half-way, then `--resume`: the same summary as an uninterrupted run,
finished cases not rerun, readable output when stdout is not a terminal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness import verify_suite

# Each run appends to RUNS/<name>, so a test can tell which cases ran and how often.
FAKE_SOURCE = """
import os, time
from pathlib import Path
from harness.verify_suite import Case

RUNS = Path(os.environ["FAKE_RUNS_DIR"])

def _case(name, seconds, status):
    def run(workdir):
        with open(RUNS / name, "a") as f:
            f.write("x")
        time.sleep(seconds)
        elf = workdir / "prog.elf"
        elf.write_bytes(name.encode())
        return {"soc": "rv32", "target": "iss", "status": status, "exit_code": 0,
                "instret": 1000 * len(name), "cycles_total": None, "elf": str(elf), "wall_s": seconds}
    return Case(f"fake:{name}@rv32/iss", "rv32", "iss", "fake", run)

def verify_cases():
    quick = [_case(n, 0.1, "pass") for n in ("quickone", "quicktwo")]
    return quick + [_case("mismatching", 0.2, "mismatch")] + [_case(f"long{i}", 1.0, "pass") for i in range(4)]
"""


@pytest.fixture
def fake(tmp_path, monkeypatch):
    (tmp_path / "slow_cases.py").write_text(textwrap.dedent(FAKE_SOURCE))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    env[verify_suite.SOURCES_ENV] = "slow_cases:verify_cases"
    env.pop(verify_suite.ONLY_ENV, None)
    return tmp_path, env


def _suite(results: Path, *extra: str) -> list[str]:
    # One worker: pytest-xdist's start-up would be most of these runs' time.
    cmd = [sys.executable, "-m", "harness.verify_suite", "--workers", "1", "--results", str(results)]
    return cmd + ["--source", "slow_cases:verify_cases", *extra]


def _runs(runs: Path) -> dict[str, int]:
    return {p.name: len(p.read_text()) for p in runs.iterdir()}


def _summary(results: Path) -> list[dict]:
    return json.loads((results / "summary.json").read_text())


def test_killed_run_resumes_to_the_same_summary(fake):
    tmp, env = fake
    # The uninterrupted run (--resume with no earlier results runs everything).
    whole_runs = tmp / "runs-whole"
    whole_runs.mkdir()
    whole = subprocess.run(
        _suite(tmp / "whole", "--resume"), env=dict(env, FAKE_RUNS_DIR=str(whole_runs)), capture_output=True, text=True
    )
    assert whole.returncode == 1, whole.stdout + whole.stderr  # one case mismatches
    assert set(_runs(whole_runs).values()) == {1}

    # The same suite, killed (the whole process group, as a CI cancel does) once three cases finished and another one started.
    runs = tmp / "runs"
    runs.mkdir()
    results = tmp / "results"
    proc = subprocess.Popen(
        _suite(results),
        env=dict(env, FAKE_RUNS_DIR=str(runs)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.time() + 120
    while not (3 <= len(list(results.glob("cases/*/result.json"))) < len(list(runs.iterdir()))):
        assert proc.poll() is None and time.time() < deadline, "the suite ended before it could be killed"
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    finished = {p.parent.name for p in results.glob("cases/*/result.json")}
    before = _runs(runs)
    assert 3 <= len(finished) < 7 and len(before) > len(finished)  # killed with a case running

    # Resume: a finished case whose ELF changed since is run again, as is every unfinished one.
    changed = sorted(finished)[0]
    (results / "cases" / changed / "prog.elf").write_bytes(b"rebuilt")
    resumed = subprocess.run(
        _suite(results, "--resume"), env=dict(env, FAKE_RUNS_DIR=str(runs)), capture_output=True, text=True
    )
    assert resumed.returncode == 1, resumed.stdout + resumed.stderr
    assert _summary(results) == _summary(tmp / "whole")
    suite = ET.parse(results / "junit.xml").getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures")) == ("7", "1")  # reused cases reported too
    after = _runs(runs)
    dir_of = {name: verify_suite.case_dir(results, f"fake:{name}@rv32/iss").name for name in after}
    for name, count in after.items():
        kept = dir_of[name] in finished and dir_of[name] != changed
        assert count == before.get(name, 0) + (0 if kept else 1), (name, before, after)
    assert f"{len(finished) - 1} of 7 cases finished earlier, not rerun" in resumed.stdout

    # Not a terminal: one plain line per finished case, no cursor movement or colour codes.
    assert "\x1b[" not in resumed.stdout
    lines = [ln for ln in resumed.stdout.splitlines() if ln.startswith("[")]
    assert len(lines) == 7 - (len(finished) - 1)
    assert any("mismatch" in ln and "fake:mismatching@rv32/iss" in ln for ln in whole.stdout.splitlines())
    assert "verify: 7/7 done, 0 running, 1 failing" in resumed.stdout


SPIKE_SUBSET = "(crc32 or sort or linked_list or printf_fmt or muldiv64) and rv32/iss"


@pytest.mark.slow
@pytest.mark.iss
def test_spike_cases_killed_then_resumed(tmp_path):
    """The same on real cases: five C programs on Spike, killed after two finished."""
    env = {k: v for k, v in os.environ.items() if k not in (verify_suite.SOURCES_ENV, verify_suite.ONLY_ENV)}

    def suite(results: Path, *extra: str) -> list[str]:
        cmd = [sys.executable, "-m", "harness.verify_suite", "--workers", "1", "--results", str(results)]
        return cmd + ["--source", "c-programs", "-k", SPIKE_SUBSET, *extra]

    whole = subprocess.run(suite(tmp_path / "whole"), env=env, capture_output=True, text=True)
    assert whole.returncode == 0, whole.stdout + whole.stderr
    results = tmp_path / "results"
    proc = subprocess.Popen(
        suite(results), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.time() + 300
    while True:
        done = list(results.glob("cases/*/result.json"))
        running = [p for p in results.glob("cases/*/started") if not (p.parent / "result.json").exists()]
        if len(done) >= 2 and running:
            break
        assert proc.poll() is None and time.time() < deadline, "the suite ended before it could be killed"
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    kept = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in results.glob("cases/*/result.json")}
    assert 2 <= len(kept) < 5
    resumed = subprocess.run(suite(results, "--resume"), env=env, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert _summary(results) == _summary(tmp_path / "whole")
    for path, (mtime, data) in kept.items():  # finished cases were not run again
        assert (path.stat().st_mtime_ns, path.read_bytes()) == (mtime, data)
    assert len(list(results.glob("cases/*/result.json"))) == 5
