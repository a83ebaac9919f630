"""The Gemmini-style scratchpad and accumulator RTL (sim/rtl/gemmini/gemmini_spad.sv, gemmini_acc.sv) against a
Python mirror of the functional model's ``sp`` and ``acc`` arrays.

Under cocotb (sim/tb/gemmini/gemmini_mem_tb.sv) random cycles of scratchpad writes (element-masked, as an mvin
of fewer than DIM columns), accumulator writes (overwrite and accumulate, masked, with int32 values that wrap)
and reads of both memories, on rows chosen to collide often and to sit at the bank boundaries, are compared
cycle by cycle with numpy arrays shaped as sim/gemmini/model.py's (``(sp_rows, DIM)`` int8, ``(acc_rows, DIM)``
int32, sizes from sim/gemmini/params.py), updated as the model does (accumulate: a 32-bit wrapping add). The
reads have a latency of one cycle and see every write issued in an earlier cycle, the cycle just before
included (a read in the write's own cycle sees the old row). DIM 4 (gemmini-dim4) runs in the default tier,
DIM 16 (gemmini-dim16) in the slow one.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.gemmini.model import wrap
from sim.gemmini.params import GemminiParams, gemmini_params
from sim.tb.gemmini.build import ArrayBuild
from sim.tb.gemmini.mem_build import MemCycle, MemRun, build_mem_tb, run_mem
from sim.tb.gemmini.stream import pack, unpack

pytestmark = pytest.mark.rtl

I32_MIN, I32_MAX = -(1 << 31), (1 << 31) - 1


@pytest.fixture(scope="module")
def dim4() -> tuple[GemminiParams, ArrayBuild]:
    p = gemmini_params("gemmini-dim4")
    return p, build_mem_tb(p)


@pytest.fixture(scope="module")
def dim16() -> tuple[GemminiParams, ArrayBuild]:
    p = gemmini_params("gemmini-dim16")
    return p, build_mem_tb(p)


class Mirror:
    """The model's scratchpad and accumulator arrays, written as the RTL's cycles say."""

    def __init__(self, p: GemminiParams):
        self.p = p
        self.sp = np.zeros((p.sp_rows, p.dim), dtype=np.int8)
        self.acc = np.zeros((p.acc_rows, p.dim), dtype=np.int32)

    def mask(self, bits: int) -> np.ndarray:
        return np.array([(bits >> e) & 1 for e in range(self.p.dim)], dtype=bool)

    def step(self, c: MemCycle) -> tuple[np.ndarray | None, np.ndarray | None]:
        """The rows this cycle's reads return (before its writes land), then apply the writes."""
        d = self.p.dim
        sp = self.sp[c.sp_rd_row].copy() if c.sp_rd else None
        acc = self.acc[c.acc_rd_row].copy() if c.acc_rd else None
        if c.sp_wr:
            m = self.mask(c.sp_wr_mask)
            self.sp[c.sp_wr_row, m] = unpack(c.sp_wr_data, 8, d)[m]
        if c.acc_wr:
            m = self.mask(c.acc_wr_mask)
            new = unpack(c.acc_wr_data, 32, d)
            row = self.acc[c.acc_wr_row].astype(np.int64)
            self.acc[c.acc_wr_row, m] = (wrap(row + new, 32) if c.acc_wr_acc else new)[m]
        return sp, acc


def check(p: GemminiParams, cycles: list[MemCycle], run: MemRun) -> tuple[int, int]:
    """Every read of ``run`` equals the mirror's row; the numbers of scratchpad and accumulator reads checked."""
    mirror, n_sp, n_acc = Mirror(p), 0, 0
    assert len(run.sp_rd) == len(run.acc_rd) == len(cycles)
    for t, c in enumerate(cycles):
        sp, acc = mirror.step(c)
        if sp is not None:
            got = unpack(run.sp_rd[t], 8, p.dim)
            assert (got == sp).all(), f"cycle {t}: scratchpad row {c.sp_rd_row} read {got}, the model has {sp}"
            n_sp += 1
        if acc is not None:
            got = unpack(run.acc_rd[t], 32, p.dim)
            assert (got == acc).all(), f"cycle {t}: accumulator row {c.acc_rd_row} read {got}, the model has {acc}"
            n_acc += 1
    return n_sp, n_acc


def hot_rows(rng: np.random.Generator, banks: int, bank_rows: int, n: int) -> list[int]:
    """Rows at every bank's edges plus random ones: few enough that writes and reads collide often."""
    edges = {r for b in range(banks) for r in (b * bank_rows, b * bank_rows + 1, (b + 1) * bank_rows - 1)}
    return sorted(edges | {int(r) for r in rng.integers(0, banks * bank_rows, n)})


def random_mask(rng: np.random.Generator, dim: int) -> int:
    u = rng.random()
    if u < 0.4:
        return (1 << dim) - 1
    if u < 0.7:  # an mvin of cols < DIM: the first cols elements
        return (1 << int(rng.integers(1, dim))) - 1
    return int(rng.integers(0, 1 << dim))


def random_acc_values(rng: np.random.Generator, dim: int) -> list[int]:
    if rng.random() < 0.3:  # extremes: accumulates wrap
        return [int(v) for v in rng.choice([I32_MIN, I32_MIN + 1, -1, 0, 1, I32_MAX - 1, I32_MAX], dim)]
    return [int(v) for v in rng.integers(I32_MIN, I32_MAX, dim, endpoint=True)]


def random_cycles(p: GemminiParams, rng: np.random.Generator, n: int) -> list[MemCycle]:
    d = p.dim
    sp_rows = hot_rows(rng, p.sp_banks, p.sp_bank_rows, 12)
    acc_rows = hot_rows(rng, p.acc_banks, p.acc_bank_rows, 6)
    out = []
    for _ in range(n):
        c = MemCycle()
        if rng.random() < 0.6:
            c.sp_wr, c.sp_wr_row = 1, int(rng.choice(sp_rows))
            c.sp_wr_mask = random_mask(rng, d)
            c.sp_wr_data = pack(rng.integers(-128, 128, d), 8)
        if rng.random() < 0.6:
            c.sp_rd, c.sp_rd_row = 1, int(rng.choice(sp_rows))
        if rng.random() < 0.6:
            c.acc_wr, c.acc_wr_row = 1, int(rng.choice(acc_rows))
            c.acc_wr_acc = int(rng.random() < 0.6)
            c.acc_wr_mask = random_mask(rng, d)
            c.acc_wr_data = pack(random_acc_values(rng, d), 32)
        if rng.random() < 0.6:
            c.acc_rd, c.acc_rd_row = 1, int(rng.choice(acc_rows))
        # now and then read back what the previous cycle wrote (the forwarding path)
        if out and rng.random() < 0.25:
            prev = out[-1]
            if prev.sp_wr:
                c.sp_rd, c.sp_rd_row = 1, prev.sp_wr_row
            if prev.acc_wr:
                c.acc_rd, c.acc_rd_row = 1, prev.acc_wr_row
        out.append(c)
    return out


def sweep(p: GemminiParams) -> list[MemCycle]:
    """A read of every row of both memories (back to back)."""
    n = max(p.sp_rows, p.acc_rows)
    return [
        MemCycle(
            sp_rd=int(r < p.sp_rows), sp_rd_row=r % p.sp_rows, acc_rd=int(r < p.acc_rows), acc_rd_row=r % p.acc_rows
        )
        for r in range(n)
    ]


def run_random(p: GemminiParams, tb: ArrayBuild, seed: int, n: int, tmp_path: Path, record) -> None:
    cycles = random_cycles(p, np.random.default_rng(seed), n) + sweep(p)
    run = run_mem(tb, cycles, tmp_path)
    n_sp, n_acc = check(p, cycles, run)
    writes = sum(c.sp_wr for c in cycles), sum(c.acc_wr for c in cycles), sum(c.acc_wr_acc & c.acc_wr for c in cycles)
    record("cycles", len(cycles))
    record("reads_checked", f"sp {n_sp}, acc {n_acc}")
    record("writes", f"sp {writes[0]}, acc {writes[1]} ({writes[2]} accumulate)")
    record("wall_s", round(run.wall_s, 2))


@pytest.mark.parametrize("seed", [1, 2])
def test_random_writes_and_reads_dim4(dim4, tmp_path, record_property, seed):
    p, tb = dim4
    assert (p.dim, p.sp_banks, p.sp_bank_rows, p.acc_banks, p.acc_bank_rows) == (4, 4, 1024, 2, 128)
    run_random(p, tb, seed, 1500, tmp_path, record_property)


def test_back_to_back_write_then_read_one_row(dim4, tmp_path):
    """Writes and reads of one row in consecutive cycles: each read returns every write of the cycles before it."""
    p, tb = dim4
    d, full = p.dim, (1 << p.dim) - 1
    sp_row, acc_row = p.sp_bank_rows + 5, p.acc_bank_rows - 1  # bank 1, and bank 0's last row
    a = pack([1, 2, 3, 4], 32)
    big = pack([I32_MAX] * d, 32)
    cycles = [
        # overwrite, then accumulate into the same row in the next two cycles, each read the cycle after
        MemCycle(
            sp_wr=1,
            sp_wr_row=sp_row,
            sp_wr_mask=full,
            sp_wr_data=pack([5] * d, 8),
            acc_wr=1,
            acc_wr_row=acc_row,
            acc_wr_mask=full,
            acc_wr_data=a,
        ),
        MemCycle(
            sp_rd=1,
            sp_rd_row=sp_row,
            sp_wr=1,
            sp_wr_row=sp_row,
            sp_wr_mask=0b1,
            sp_wr_data=pack([-7] * d, 8),
            acc_rd=1,
            acc_rd_row=acc_row,
            acc_wr=1,
            acc_wr_acc=1,
            acc_wr_row=acc_row,
            acc_wr_mask=full,
            acc_wr_data=a,
        ),
        MemCycle(
            sp_rd=1,
            sp_rd_row=sp_row,
            acc_rd=1,
            acc_rd_row=acc_row,
            acc_wr=1,
            acc_wr_acc=1,
            acc_wr_row=acc_row,
            acc_wr_mask=0b10,
            acc_wr_data=big,
        ),
        MemCycle(
            sp_rd=1,
            sp_rd_row=sp_row,
            acc_rd=1,
            acc_rd_row=acc_row,
            acc_wr=1,
            acc_wr_acc=1,
            acc_wr_row=acc_row,
            acc_wr_mask=0b10,
            acc_wr_data=big,
        ),
        MemCycle(
            acc_rd=1,
            acc_rd_row=acc_row,
            acc_wr=1,
            acc_wr_row=acc_row,
            acc_wr_mask=0b100,
            acc_wr_data=pack([-9] * d, 32),
        ),  # read in the write's own cycle: the row before it
        MemCycle(acc_rd=1, acc_rd_row=acc_row),
        MemCycle(acc_rd=1, acc_rd_row=acc_row),
    ]
    run = run_mem(tb, cycles, tmp_path)
    check(p, cycles, run)
    acc = [list(unpack(run.acc_rd[t], 32, d)) for t in range(1, 7)]
    assert list(unpack(run.sp_rd[1], 8, d)) == [5] * d
    assert list(unpack(run.sp_rd[2], 8, d)) == [-7] + [5] * (d - 1)
    assert acc[0] == [1, 2, 3, 4]
    assert acc[1] == [2, 4, 6, 8]
    assert acc[2] == [2, I32_MIN + 3, 6, 8]  # 4 + I32_MAX wrapped
    assert acc[3] == [2, 2, 6, 8]  # read in the same cycle as the -9 write: the row before it
    assert acc[4] == acc[5] == [2, 2, -9, 8]


@pytest.mark.slow
def test_random_writes_and_reads_dim16(dim16, tmp_path, record_property):
    p, tb = dim16
    assert (p.dim, p.sp_banks, p.sp_bank_rows) == (16, 4, 4096)
    run_random(p, tb, 3, 3000, tmp_path, record_property)
