"""The RTL's assertions (sim/rtl/core/README.md and sim/rtl/vector/README.md
"Assertions") are compiled into the test builds and stop a run that breaks an
invariant. Each mutation is a test-only define that breaks one invariant while the
program's result stays right, so only its assertion can see it:
COSIM_MUTATION_WRITE_X0 lets the core's controller write x0 through write port A (the
register file still drops it); COSIM_MUTATION_EXTRA_FMA makes the vector sequencer
report one FP multiply-add more than it has lanes for a full row of vfmacc."""

from __future__ import annotations

import dataclasses

import pytest

from configs import load_soc
from harness.toolchain import build_elf
from sim.errors import SimError
from sim.rtl_runner import run_rtl
from sim.verilator_build import ASSERT_FLAGS, verilator_flags

# The start-up code and main's return both jump with rd = x0 (j, ret).
PROGRAM = r"""
#include <stdio.h>
int main(void) {
  printf("x0 %d\n", 42);
  return 0;
}
"""


# Full rows of multiply-adds (vfmacc.vv at SEW 32, LMUL 1: every lane busy), checked
# against the same arithmetic in scalar code.
FMA_PROGRAM = r"""
#include <riscv_vector.h>
#include <stdio.h>
#define N 48
static float a[N], b[N], acc[N];
int main(void) {
  for (int i = 0; i < N; i++) { a[i] = (float)(i % 5); b[i] = 0.25f * (float)i; acc[i] = 2.0f; }
  for (int i = 0; i < N;) {
    size_t vl = __riscv_vsetvl_e32m1(N - i);
    vfloat32m1_t va = __riscv_vle32_v_f32m1(a + i, vl);
    vfloat32m1_t vb = __riscv_vle32_v_f32m1(b + i, vl);
    vfloat32m1_t vacc = __riscv_vle32_v_f32m1(acc + i, vl);
    __riscv_vse32_v_f32m1(acc + i, __riscv_vfmacc_vv_f32m1(vacc, va, vb, vl), vl);
    i += (int)vl;
  }
  int wrong = 0;
  for (int i = 0; i < N; i++) wrong += acc[i] != 2.0f + (float)(i % 5) * (0.25f * (float)i);
  printf("fma wrong %d\n", wrong);
  return 0;
}
"""


def _mutated(soc_name: str, define: str):
    soc = load_soc(soc_name)
    flags = (*soc.sim.verilator_flags, f"+define+{define}")
    return dataclasses.replace(soc, sim=dataclasses.replace(soc.sim, verilator_flags=flags))


def test_test_builds_compile_the_assertions(monkeypatch):
    monkeypatch.delenv("COSIM_RTL_ASSERT", raising=False)
    assert set(ASSERT_FLAGS) <= set(verilator_flags(load_soc("rv32")))
    monkeypatch.setenv("COSIM_RTL_ASSERT", "0")
    assert not set(ASSERT_FLAGS) & set(verilator_flags(load_soc("rv32")))


@pytest.mark.rtl
@pytest.mark.slow  # a Verilator build of its own (the mutated core)
def test_write_to_x0_fails_through_its_assertion(tmp_path, monkeypatch):
    monkeypatch.delenv("COSIM_RTL_ASSERT", raising=False)
    src = tmp_path / "x0.c"
    src.write_text(PROGRAM)
    elf = build_elf([src], "rv32", tmp_path / "x0.elf")

    good = run_rtl(elf, "rv32", workdir=tmp_path)
    assert good.exited_ok, good.message
    assert "x0 42" in good.uart

    with pytest.raises(SimError) as failed:
        run_rtl(elf, _mutated("rv32", "COSIM_MUTATION_WRITE_X0"), workdir=tmp_path)
    first_line = str(failed.value).splitlines()[0]
    assert first_line.startswith("RTL assertion tb_top.u_soc.u_core.u_controller.NoWriteToX0 failed"), first_line
    assert "register write to x0 on port A" in first_line, first_line


@pytest.mark.rtl
@pytest.mark.slow  # a Verilator build of its own (the mutated vector unit)
def test_extra_fma_fails_through_its_assertion(tmp_path, monkeypatch):
    """The SoC test bench checks the same bound from outside (sim/tb/tb_top.sv, +perf_max_fma)
    and would end the run first; the mutated run raises that bound by one so that the RTL
    assertion is what stops it."""
    monkeypatch.delenv("COSIM_RTL_ASSERT", raising=False)
    soc = load_soc("t1-small")
    lanes = soc.accelerator.dlen // 32
    src = tmp_path / "fma.c"
    src.write_text(FMA_PROGRAM)
    elf = build_elf([src], soc.name, tmp_path / "fma.elf")

    good = run_rtl(elf, soc, workdir=tmp_path)
    assert good.exited_ok, good.message
    assert "fma wrong 0" in good.uart
    assert good.counters["vec_fma_ops"] >= 48  # the loop's multiply-adds reached the lanes

    with pytest.raises(SimError) as failed:
        run_rtl(
            elf,
            _mutated(soc.name, "COSIM_MUTATION_EXTRA_FMA"),
            workdir=tmp_path,
            plusargs=[f"+perf_max_fma={lanes + 1}"],
        )
    first_line = str(failed.value).splitlines()[0]
    assert first_line.startswith("RTL assertion tb_top.u_soc.g_vector.u_acc.u_seq.FmaWithinLanes failed"), first_line
    assert "more FP multiply-adds in one cycle than lanes" in first_line, first_line
