"""The Verilator build cache: private build directories of killed builds are cleaned, live ones kept."""

import os
import subprocess
import time

from sim.build_cache import ABANDONED_AFTER_S, remove_abandoned_builds


def test_abandoned_build_dirs_removed(tmp_path):
    dead = subprocess.Popen(["true"])
    dead.wait()  # a builder killed mid-way: its pid names no process now
    live = os.getppid()  # a running process other than this one
    killed = tmp_path / f".rv32-cocotb-abc.{dead.pid}.tmp"
    building = tmp_path / f".rv32-cocotb-abc.{live}.tmp"
    reused = tmp_path / f".rv64-cocotb-def.{live}.tmp"  # pid alive (reused?) but idle for too long
    mine = tmp_path / f".t1-small-cocotb-0.{os.getpid()}.tmp"
    entry = tmp_path / "rv32-cocotb-abc"  # a finished entry is never a candidate
    for d in (killed, building, reused, mine, entry):
        (d / "obj").mkdir(parents=True)
    old = time.time() - ABANDONED_AFTER_S - 60
    os.utime(reused, (old, old))
    assert sorted(remove_abandoned_builds(tmp_path)) == sorted([killed, reused])
    assert building.is_dir() and mine.is_dir() and entry.is_dir()
    assert remove_abandoned_builds(tmp_path / "no-cache-yet") == []
