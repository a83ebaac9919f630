"""The FPU test oracle (SoftFloat via softfloatpy, plus our min/max/class/sgnj)
agrees with hand-derived RISC-V F results. No RTL here: this is what makes the
oracle trustworthy before the RTL is compared with it."""

from __future__ import annotations

import pytest

from sim.tb.fpu.directed import DIRECTED, Case
from sim.tb.fpu.ops import FpuOp, rtl_op_names
from sim.tb.fpu.oracle import reference


def test_op_codes_match_rtl_package() -> None:
    assert rtl_op_names() == ["FPU_" + op.name for op in FpuOp]


def test_every_op_has_a_directed_case() -> None:
    assert {c.op for c in DIRECTED} == set(FpuOp)


@pytest.mark.parametrize("case", DIRECTED, ids=lambda c: c.why)
def test_oracle_matches_hand_derived_case(case: Case) -> None:
    got = reference(case.op, case.rm, case.a, case.b, case.c, case.int_op)
    assert got == (case.result, case.flags), f"{case.why}: got {got[0]:#x}/{got[1]:05b}"
