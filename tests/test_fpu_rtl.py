"""cosim_fpu on Verilator against the SoftFloat oracle: every op, every rounding
mode, result bits and fflags exact. The harness binary is built once per session
(cached across sessions by sim.tb.fpu.build)."""

from __future__ import annotations

import itertools
import os

import numpy as np
import pytest

from sim.tb.fpu.build import build_fpu_tb
from sim.tb.fpu.directed import DIRECTED, Case
from sim.tb.fpu.ops import ROUNDED_OPS, FpuOp, Rm
from sim.tb.fpu.runner import BatchReport, check_batch, compare, run_rtl
from sim.tb.fpu.vectors import _INT_SPECIALS, REQUEST_DTYPE, SPECIALS, make_batch

pytestmark = pytest.mark.rtl

RANDOM_PER_OP_RM = 2000
SLOW_PER_OP_RM = 40000


@pytest.fixture(scope="session")
def fpu_tb():
    return build_fpu_tb()


def _requests(rows: list[tuple[int, int, int, int, int, int]]) -> np.ndarray:
    batch = np.zeros(len(rows), dtype=REQUEST_DTYPE)
    if rows:
        cols = list(zip(*rows, strict=True))
        for name, col in zip(("op", "rm", "a", "b", "c", "int"), cols, strict=True):
            batch[name] = np.array(col, dtype=np.uint64)
    return batch


def _rms(op: FpuOp) -> list[Rm]:
    return list(Rm) if op in ROUNDED_OPS else [Rm.RNE]


def special_batch() -> np.ndarray:
    """Every pair of special values for two-operand ops, triples from a subset for the
    FMAs, every special for one-operand ops and conversions; every rounding mode
    where it matters."""
    sp = [int(x) for x in SPECIALS]
    fma_sp = [
        0x00000000,
        0x80000000,
        0x7F800000,
        0xFF800000,
        0x7FC00000,
        0x7F800001,
        0x00000001,
        0x807FFFFF,
        0x00800000,
        0x7F7FFFFF,
        0xFF7FFFFF,
        0x3F800000,
        0xBF800001,
        0x3F7FFFFF,
        0x1F800000,
        0x5F000000,
    ]
    rows = []
    for op in FpuOp:
        for rm in _rms(op):
            if op in (FpuOp.MADD, FpuOp.MSUB, FpuOp.NMSUB, FpuOp.NMADD):
                rows += [(op, rm, a, b, c, 0) for a, b, c in itertools.product(fma_sp, repeat=3)]
            elif op.name.startswith("CVT_S_"):
                rows += [(op, rm, 0, 0, 0, int(i)) for i in _INT_SPECIALS]
            elif op in (FpuOp.SQRT, FpuOp.CLASS) or op.name.startswith("CVT_"):
                rows += [(op, rm, a, 0, 0, 0) for a in sp]
            else:
                rows += [(op, rm, a, b, 0, 0) for a, b in itertools.product(sp, repeat=2)]
    return _requests(rows)


@pytest.fixture(scope="module")
def random_report(fpu_tb) -> BatchReport:
    return check_batch(fpu_tb, make_batch(list(FpuOp), RANDOM_PER_OP_RM, seed=20261130))


@pytest.fixture(scope="module")
def special_report(fpu_tb) -> BatchReport:
    return check_batch(fpu_tb, special_batch())


@pytest.fixture(scope="module")
def directed_results(fpu_tb) -> dict[str, tuple[int, int]]:
    batch = _requests([(c.op, c.rm, c.a, c.b, c.c, c.int_op) for c in DIRECTED])
    resp, _ = run_rtl(fpu_tb, batch)
    return {c.why: (int(r["result"]), int(r["fflags"])) for c, r in zip(DIRECTED, resp, strict=True)}


@pytest.mark.parametrize("case", DIRECTED, ids=lambda c: c.why)
def test_directed_case(directed_results: dict[str, tuple[int, int]], case: Case) -> None:
    got = directed_results[case.why]
    assert got == (case.result, case.flags), (
        f"{case.why}: {case.op.name} rm={case.rm.name}: got {got[0]:#x} flags {got[1]:05b}, "
        f"want {case.result:#x} flags {case.flags:05b}"
    )


@pytest.mark.parametrize("op", list(FpuOp), ids=lambda o: o.name)
def test_random_ops_match_softfloat(random_report: BatchReport, op: FpuOp) -> None:
    assert random_report.per_op[op.name] == RANDOM_PER_OP_RM * len(Rm)
    mism = [m for m in random_report.mismatches if m.op == op]
    assert random_report.per_op_failed[op.name] == 0, "\n".join(map(str, mism[:20]))


@pytest.mark.parametrize("op", list(FpuOp), ids=lambda o: o.name)
def test_special_operands_match_softfloat(special_report: BatchReport, op: FpuOp) -> None:
    assert special_report.per_op[op.name] > 0
    mism = [m for m in special_report.mismatches if m.op == op]
    assert special_report.per_op_failed[op.name] == 0, "\n".join(map(str, mism[:20]))


def test_latency_and_throughput(random_report: BatchReport) -> None:
    for name, (lo, hi) in random_report.latency.items():
        if name in ("DIV", "SQRT"):
            assert lo >= 1 and hi == 27, f"{name}: latency {lo}..{hi}"
        else:
            assert (lo, hi) == (1, 1), f"{name}: latency {lo}..{hi}"
    # One op per cycle except while div/sqrt iterate (at most 27 cycles each).
    n_ds = random_report.per_op["DIV"] + random_report.per_op["SQRT"]
    assert random_report.cycles <= random_report.ops + 27 * n_ds + 2


def test_compare_detects_a_corrupted_response(fpu_tb) -> None:
    batch = make_batch([FpuOp.MUL, FpuOp.CVT_W_S], 50, seed=7)
    resp, cycles = run_rtl(fpu_tb, batch)
    assert compare(batch, resp, cycles).mismatch_count == 0
    bad = resp.copy()
    bad["result"][17] ^= 1
    bad["fflags"][42] ^= 0b00010
    report = compare(batch, bad, cycles)
    assert report.mismatch_count == 2
    assert "got" in str(report.mismatches[0]) and "want" in str(report.mismatches[0])


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_ops_large(fpu_tb, seed: int) -> None:
    per = int(os.environ.get("FPU_SLOW_PER_OP_RM", SLOW_PER_OP_RM))
    report = check_batch(fpu_tb, make_batch(list(FpuOp), per, seed=seed))
    print(f"seed {seed}: {report.summary()}")
    assert report.mismatch_count == 0, report.summary()
