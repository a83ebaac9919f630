"""Spike's Gemmini extension itself (sim/spike/cosim_gemmini.cc, sim/gemmini/spike_bridge.py):
values back through rd, DMA through the hart's MMU, counters into the outcome, errors
as traps with the model's reason, and nothing started for programs without Gemmini."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.toolchain import build_elf
from sim.gemmini.params import gemmini_params
from sim.spike.runner import run_spike

SOC = "gemmini-dim4"
SRC = Path(__file__).resolve().parent / "gemmini_spike"

pytestmark = pytest.mark.iss


def _build(name: str, tmp_path: Path) -> Path:
    return build_elf([SRC / f"{name}.c"], SOC, tmp_path / f"{name}.elf")


def test_rd_memory_and_counters(tmp_path):
    out = run_spike(_build("rd_and_counts", tmp_path), SOC, workdir=tmp_path)
    assert (out.ending, out.exit_code) == ("exit", 0), f"{out.message}\n{out.uart}"
    dim = gemmini_params(SOC).dim
    # Three DIM x DIM int8 mvins, read back through the counter instruction's rd.
    assert f"read bytes {3 * dim * dim}\n" in out.uart, out.uart
    assert out.counters["insn_mvin"] == 3 and out.counters["insn_mvout"] == 1, out.counters
    assert out.counters["dma_bytes_read"] == 3 * dim * dim
    assert out.counters["dma_bytes_written"] == dim * dim


def test_dma_outside_the_memory_map_traps_with_the_reason(tmp_path):
    out = run_spike(_build("dma_unmapped", tmp_path), SOC, workdir=tmp_path)
    assert "NOT TRAPPED" not in out.uart
    assert out.ending == "trap" and out.trap.cause == 2, out.message
    assert out.trap.detail and "0x8000000" in out.trap.detail and "memory map" in out.trap.detail, out.trap
    assert out.trap.disassembly.startswith("gemmini mvin dram=0x8000000"), out.trap


def test_program_without_gemmini_starts_no_model(tmp_path):
    out = run_spike(_build("no_gemmini", tmp_path), SOC, workdir=tmp_path)
    assert (out.ending, out.exit_code) == ("exit", 0), out.message
    assert not any(k.startswith("insn_") for k in out.counters), out.counters


def test_cosim_iss_names_the_field(tmp_path):
    """The command line prints the PC, the disassembly and the model's reason, and exits 1."""
    elf = _build("dma_unmapped", tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "harness", "iss", str(elf), "--soc", SOC, "--json", str(tmp_path / "r.json")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    text = proc.stdout + proc.stderr
    assert "illegal instruction" in text and "gemmini mvin" in text and "memory map" in text, text
