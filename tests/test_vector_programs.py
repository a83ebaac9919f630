"""C programs with RVV intrinsics run on the RTL SoC (core + vector unit) and on
Spike and print exactly the same text (slow tier: every program on both t1 configs).
Default tier: the programs written as a user would (a vectorized libc, int8
quantization, image kernels, a softmax) under `cosim difftest` on t1-small, so every
scalar and vector register write and every vector store's bytes match Spike."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.toolchain import build_elf
from sim.rtl_runner import run_rtl
from sim.spike.runner import run_spike

PROGRAMS = sorted((Path(__file__).resolve().parent / "vector_support" / "programs").glob("*.c"))
USER_STYLE = [p for p in PROGRAMS if p.stem in ("rvv_strings", "rvv_quant", "rvv_image", "rvv_softmax")]


@pytest.mark.rtl
@pytest.mark.iss
@pytest.mark.parametrize("prog", USER_STYLE, ids=lambda p: p.stem)
def test_user_rvv_program_difftest_clean(prog, tmp_path):
    from harness.commands.difftest import run_difftest

    assert len(USER_STYLE) == 4
    elf = build_elf([prog], "t1-small", tmp_path / f"{prog.stem}.elf")
    report = run_difftest(elf, "t1-small")
    assert report.result.ok, report.result.summary()
    assert report.result.compared > 10_000


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


@pytest.mark.iss
@pytest.mark.slow
def test_estimate_program_spike_matches_model(tmp_path):
    """rvv_estimate.c on Spike: every vfrec7/vfrsqrt7 result and its fflags (64 inputs x 5
    rounding modes) equal the reference model's, computed from the spec's table definition."""
    from vector_support.model import frec7, frsqrt7

    prog = PROGRAMS[[p.stem for p in PROGRAMS].index("rvv_estimate")]
    elf = build_elf([prog], "t1-small", tmp_path / "est.elf")
    (tmp_path / "iss").mkdir()
    iss = run_spike(elf, "t1-small", workdir=tmp_path / "iss")
    assert iss.exited_ok, iss
    n = 0
    for ln in iss.uart.splitlines():
        p = ln.split()
        if not p:
            continue
        if p[0] == "rm":
            assert "same 1" in ln, ln
            continue
        rm, x = int(p[0]), int(p[1], 16)
        rec = tuple(int(t, 16) for t in p[2].split("/"))
        rsq = tuple(int(t, 16) for t in p[3].split("/"))
        assert rec == frec7(x, rm), f"vfrec7({x:#010x}) rm {rm}: Spike {ln}"
        assert rsq == frsqrt7(x), f"vfrsqrt7({x:#010x}): Spike {ln}"
        n += 1
    assert n == 5 * 64
