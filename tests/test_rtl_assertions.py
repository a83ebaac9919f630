"""The core's assertions (sim/rtl/core/README.md "Assertions") are compiled into the
test builds and stop a run that breaks an invariant. The mutation: a core built
with the test-only define COSIM_MUTATION_WRITE_X0 lets the controller's writes to
x0 through write port A. The register file still drops them, so the program's
result stays right and only the NoWriteToX0 assertion can see the mutation."""

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


def _mutated(soc_name: str):
    soc = load_soc(soc_name)
    flags = (*soc.sim.verilator_flags, "+define+COSIM_MUTATION_WRITE_X0")
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
        run_rtl(elf, _mutated("rv32"), workdir=tmp_path)
    first_line = str(failed.value).splitlines()[0]
    assert first_line.startswith("RTL assertion tb_top.u_soc.u_core.u_controller.NoWriteToX0 failed"), first_line
    assert "register write to x0 on port A" in first_line, first_line
