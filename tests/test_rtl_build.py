"""The Verilator build cache: keyed by sources/parameters/flags/tools, safe when
two builders race, rebuilt when an entry is damaged, Verilator's own errors
surfaced as SimError, and a `verilator` on PATH without the user doing anything."""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

import sim.verilator_build as vb
from configs import load_soc
from sim import build_cache, soc_parameters, verilator_tool
from sim.errors import SimError


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("COSIM_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "verilator"


@pytest.fixture
def fake_builds(monkeypatch):
    """Replace the (minutes-long) compile by a fake that writes an executable."""
    calls: list[Path] = []

    def fake(directory, soc, flavour, waves):
        calls.append(directory)
        time.sleep(0.3)  # long enough for a racing builder to arrive
        exe = directory / "tb_top"
        exe.write_bytes(b"#!/bin/sh\necho fake\n" + soc.name.encode())
        exe.chmod(0o755)
        return exe

    monkeypatch.setattr(vb, "_build_into", fake)
    return calls


def test_verilator_is_on_path():
    verilator_tool.ensure_verilator_on_path()
    exe = shutil.which("verilator")
    assert exe
    out = subprocess.run([exe, "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and "rev" in out.stdout  # this wheel prints " rev v..."


def test_key_depends_on_parameters_flags_and_flavour():
    rv32 = load_soc("rv32")
    k32, inputs = vb.build_key(rv32, "cocotb", False)
    assert inputs["parameters"]["XLEN"] == 32 and inputs["parameters"]["DataW"] == 32
    assert vb.build_key(load_soc("rv64"), "cocotb", False)[0] != k32
    assert vb.build_key(rv32, "plain", False)[0] != k32
    assert vb.build_key(rv32, "cocotb", True)[0] != k32
    slower = replace(rv32, memory=replace(rv32.memory, latency=9))
    assert vb.build_key(slower, "cocotb", False)[0] != k32
    flagged = replace(rv32, sim=replace(rv32.sim, verilator_flags=("-O3",)))
    assert vb.build_key(flagged, "cocotb", False)[0] != k32
    assert vb.build_key(rv32, "cocotb", False)[0] == k32  # stable


def test_source_change_changes_key(monkeypatch, tmp_path):
    rv32 = load_soc("rv32")
    before = vb.build_key(rv32, "cocotb", False)[0]
    extra = tmp_path / "x.sv"
    extra.write_text("module x; endmodule\n")
    real = vb.rtl_sources
    monkeypatch.setattr(vb, "rtl_sources", lambda soc=None: [*real(soc), extra])
    monkeypatch.setattr(vb, "SIM_DIR", Path("/"))
    assert vb.build_key(rv32, "cocotb", False)[0] != before


def test_cache_hit_race_and_corruption(cache, fake_builds):
    results = []
    threads = [threading.Thread(target=lambda: results.append(vb.build("rv32"))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(fake_builds) == 1, "two racing builders must share one build"
    assert {r.executable for r in results} == {results[0].executable}
    assert sorted(r.cached for r in results) == [False, True]
    assert not list(cache.glob(".*.tmp")), "no half-built directories left behind"

    again = vb.build("rv32")
    assert again.cached and len(fake_builds) == 1

    again.executable.write_bytes(b"damaged")  # same entry, corrupt executable
    rebuilt = vb.build("rv32")
    assert not rebuilt.cached and len(fake_builds) == 2
    assert rebuilt.executable.read_bytes().endswith(b"rv32")

    (rebuilt.directory / build_cache.MANIFEST).write_text("{not json")
    assert not vb.build("rv32").cached and len(fake_builds) == 3


def test_failed_build_leaves_no_entry(cache, monkeypatch):
    def broken(directory, soc, flavour, waves):
        raise SimError("Verilator build of rv32 failed:\n%Error: boom")

    monkeypatch.setattr(vb, "_build_into", broken)
    with pytest.raises(SimError, match="boom"):
        vb.build("rv32")
    assert not [p for p in cache.iterdir() if p.is_dir()]


def test_verilator_error_message_surfaces(cache, monkeypatch, tmp_path):
    bad = tmp_path / "broken.sv"
    bad.write_text("module broken_mod (input logic a_i);\n  assign b = a_i\nendmodule\n")
    real = vb.rtl_sources
    monkeypatch.setattr(vb, "rtl_sources", lambda soc=None: [*real(soc), bad])
    monkeypatch.setattr(vb, "SIM_DIR", Path("/"))
    with pytest.raises(SimError) as info:
        vb.build("rv32")
    text = str(info.value)
    assert "%Error" in text and "broken.sv:3" in text


def test_bad_memory_width_is_explained():
    rv64 = load_soc("rv64")
    narrow = replace(rv64, memory=replace(rv64.memory, width_bits=32))
    with pytest.raises(SimError, match="width_bits = 32"):
        soc_parameters.soc_parameters(narrow)
