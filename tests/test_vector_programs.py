"""C programs with RVV intrinsics run on the RTL SoC (core + vector unit) and on
Spike and print exactly the same text. Slow: needs a Verilator build of the SoC."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.toolchain import build_elf
from sim.rtl_runner import run_rtl
from sim.spike.runner import run_spike

PROGRAMS = sorted((Path(__file__).resolve().parent / "vector_support" / "programs").glob("*.c"))


@pytest.mark.rtl
@pytest.mark.iss
@pytest.mark.slow
@pytest.mark.parametrize("soc", ["t1-small", "t1-blastoise"])
@pytest.mark.parametrize("prog", PROGRAMS, ids=lambda p: p.stem)
def test_rvv_program_matches_spike(prog, soc, tmp_path):
    elf = build_elf([prog], soc, tmp_path / f"{prog.stem}.elf")
    (tmp_path / "iss").mkdir()
    (tmp_path / "rtl").mkdir()
    iss = run_spike(elf, soc, workdir=tmp_path / "iss")
    rtl = run_rtl(elf, soc, workdir=tmp_path / "rtl")
    assert iss.exited_ok, iss
    assert rtl.exited_ok, rtl
    assert rtl.uart == iss.uart
    assert rtl.uart.count("\n") >= 3
