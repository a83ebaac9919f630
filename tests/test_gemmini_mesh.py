"""The Gemmini-style spatial array RTL (sim/rtl/gemmini/gemmini_array.sv) against the functional model.

Random int8 tiles stream through the array under cocotb (sim/tb/gemmini), in weight-stationary and
output-stationary dataflow, back to back (a tile every DIM cycles) and with random bubbles, with
compute_accumulated tiles (WS: weights kept; OS: sums kept across tiles) and the next tile's preload
streaming in beside the current tile's compute. Every result row is compared with sim/gemmini/model.py
running the same preload/compute commands on its scratchpad and accumulator, and the model with the
independent numpy formulation of tests/gemmini_support/reference.py (A B + D in WS; in OS D + sum of
A B wrapped at 20 bits, rounding-shifted). Every beat's output must come exactly 2 x DIM cycles after
it went in. DIM 4 (gemmini-dim4) runs in the default tier, DIM 16 (gemmini-dim16) in the slow one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from gemmini_support import reference as ref

from sim.gemmini import isa
from sim.gemmini.model import GemminiModel
from sim.gemmini.params import MESH_OUTPUT_BITS, gemmini_params
from sim.tb.gemmini.build import ArrayBuild, build_array_tb, run_stream
from sim.tb.gemmini.stream import NO_TAG, Beat, StreamRun, bubble, tile

pytestmark = pytest.mark.rtl

OUT_MAX = (1 << (MESH_OUTPUT_BITS - 1)) - 1


@pytest.fixture(scope="module")
def tb4() -> ArrayBuild:
    return build_array_tb(gemmini_params("gemmini-dim4").dim)


@pytest.fixture(scope="module")
def tb16() -> ArrayBuild:
    return build_array_tb(gemmini_params("gemmini-dim16").dim)


# ---------------------------------------------------------------- programs: model commands and RTL beats


@dataclass
class Program:
    """One random program: the beats for the RTL and, per tag, the DIM x DIM result the model wrote."""

    dim: int
    ws: bool
    beats: list[Beat] = field(default_factory=list)
    expect: dict[int, np.ndarray] = field(default_factory=dict)
    tiles: int = 0
    # OS: the exact D + sum of A B of each chain, before the array's 20-bit wrap
    totals: dict[int, np.ndarray] = field(default_factory=dict)


class Machine:
    """The functional model with operands placed straight into its scratchpad."""

    def __init__(self, soc: str, dataflow: int, shift: int = 0):
        self.p = gemmini_params(soc)
        self.m = GemminiModel(self.p, ref.FlatMemory(64))
        self.next_row = 0
        self.config(dataflow, shift)

    def config(self, dataflow: int, shift: int) -> None:
        self.m.execute(isa.CONFIG, *ref.config_ex(dataflow=dataflow, shift=shift))

    def put(self, mat: np.ndarray) -> int:
        """Write a DIM x DIM int8 operand into fresh scratchpad rows; its rs operand."""
        d = self.p.dim
        r0, self.next_row = self.next_row, self.next_row + d
        self.m.sp[r0 : r0 + d] = mat.astype(np.int8)
        return ref.operand(r0, d, d)

    def c_operand(self, slot: int) -> int:
        d = self.p.dim
        return ref.operand(ref.ACC | (slot * d), d, d)  # accumulator, overwrite: the raw mesh output

    def result(self, slot: int) -> np.ndarray:
        d = self.p.dim
        return self.m.acc[slot * d : (slot + 1) * d].astype(np.int64)


def rand_i8(rng: np.random.Generator, d: int) -> np.ndarray:
    return rng.integers(-128, 128, (d, d), dtype=np.int64)


def with_bubbles(rng: np.random.Generator, beats: list[Beat], rate: float, dim: int) -> list[Beat]:
    out: list[Beat] = []
    for b in beats:
        while rate and rng.random() < rate:
            out.append(bubble(dim))
        out.append(b)
    return out


def ws_program(soc: str, rng: np.random.Generator, n: int, accumulate: float = 0.0, bubbles: float = 0.0) -> Program:
    """n WS tiles; tile 0 and (1 - accumulate) of the rest are compute_preloaded with fresh weights."""
    mc = Machine(soc, isa.WS)
    d = mc.p.dim
    flips = [True] + [bool(rng.random() >= accumulate) for _ in range(n - 1)]
    tiles = []
    weights = None
    for t in range(n):
        w = rand_i8(rng, d) if flips[t] else None
        a, bias = rand_i8(rng, d), rand_i8(rng, d)
        if flips[t]:
            mc.m.execute(isa.PRELOAD, mc.put(w), mc.c_operand(t))
            mc.m.execute(isa.COMPUTE_PRELOADED, mc.put(a), mc.put(bias))
            weights = w
        else:
            mc.m.execute(isa.PRELOAD, ref.GARBAGE, mc.c_operand(t))
            mc.m.execute(isa.COMPUTE_ACCUMULATED, mc.put(a), mc.put(bias))
        tiles.append((w, a, bias))
        np.testing.assert_array_equal(mc.result(t), ref.ws_result(a, weights, bias), err_msg="model vs numpy")
    prog = Program(dim=d, ws=True, tiles=n)
    z = np.zeros((d, d), dtype=np.int64)
    # The preload tile: its d rows (last row first) are tile 0's weights; a and b are zeros.
    beats = tile(z, z, tiles[0][0][::-1], ws=True, flip=bool(rng.integers(2)))
    for t, (_, a, bias) in enumerate(tiles):
        nxt = tiles[t + 1][0] if t + 1 < n else None
        # d rows matter only just before a flipped tile: elsewhere junk, which the array must ignore.
        d_rows = nxt[::-1] if nxt is not None else rand_i8(rng, d)
        beats += tile(a, bias, d_rows, ws=True, flip=flips[t], shift=int(rng.integers(32)), tag=t)
        prog.expect[t] = mc.result(t)
    prog.beats = with_bubbles(rng, beats, bubbles, d)
    return prog


def os_program(
    soc: str,
    rng: np.random.Generator,
    chain_lengths: list[int],
    shifts: list[int],
    extreme: float = 0.0,
    bubbles: float = 0.0,
) -> Program:
    """One OS accumulation chain per entry: preload D + compute_preloaded, then compute_accumulated tiles;
    a config_ex with the next chain's shift between chains (the model drains the result with the old shift)."""
    mc = Machine(soc, isa.OS, shifts[0])
    d = mc.p.dim
    chains = []
    for g, length in enumerate(chain_lengths):
        if g:
            mc.config(isa.OS, shifts[g])
        c = mc.c_operand(g)
        dmat = rand_i8(rng, d)
        pairs = []
        for j in range(length):
            if rng.random() < extreme:  # all products +16384 or all -16256: sums past the 20-bit range
                a = np.full((d, d), -128, dtype=np.int64)
                b = np.full((d, d), -128 if g % 2 == 0 else 127, dtype=np.int64)
            else:
                a, b = rand_i8(rng, d), rand_i8(rng, d)
            if j == 0:
                mc.m.execute(isa.PRELOAD, mc.put(dmat), c)
                mc.m.execute(isa.COMPUTE_PRELOADED, mc.put(a), mc.put(b))
            else:
                mc.m.execute(isa.PRELOAD, ref.GARBAGE, c)
                mc.m.execute(isa.COMPUTE_ACCUMULATED, mc.put(a), mc.put(b))
            pairs.append((a, b))
        chains.append((dmat, pairs))
    mc.m.execute(isa.FLUSH, 0, 0)  # drains the last chain
    prog = Program(dim=d, ws=False, tiles=sum(chain_lengths))
    for g, (dmat, pairs) in enumerate(chains):
        prog.expect[g] = mc.result(g)
        total = dmat + sum(a @ b for a, b in pairs)
        prog.totals[g] = total
        np.testing.assert_array_equal(prog.expect[g], ref.os_out(total, shifts[g]), err_msg="model vs numpy")
    z = np.zeros((d, d), dtype=np.int64)
    beats = tile(z, z, chains[0][0][::-1], ws=False, flip=bool(rng.integers(2)))
    for g, (_, pairs) in enumerate(chains):
        for j, (a, b) in enumerate(pairs):
            last = j == len(pairs) - 1
            d_rows = chains[g + 1][0][::-1] if last and g + 1 < len(chains) else rand_i8(rng, d)
            first = j == 0
            # A chain's first (flipped) tile shifts the previous chain's result out, with that chain's shift.
            shift = shifts[g - 1] if first and g else int(rng.integers(32))
            tag = g - 1 if first and g else NO_TAG
            beats += tile(a.T, b, d_rows, ws=False, flip=first, shift=shift, tag=tag)
    beats += tile(z, z, rand_i8(rng, d), ws=False, flip=True, shift=shifts[-1], tag=len(chains) - 1)  # flush
    prog.beats = with_bubbles(rng, beats, bubbles, d)
    return prog


# ---------------------------------------------------------------- checking a run


def check(prog: Program, run: StreamRun) -> dict[int, np.ndarray]:
    d = prog.dim
    valid = [b for b in prog.beats if b.valid]
    assert len(run.in_cycles) == len(valid)
    assert len(run.rows) == len(valid), f"{len(valid)} beats went in, {len(run.rows)} rows came out"
    for k, (cyc, row) in enumerate(zip(run.in_cycles, run.rows, strict=True)):
        assert row.cycle - cyc == 2 * d, f"beat {k}: in at cycle {cyc}, out at {row.cycle} (latency is 2 x DIM)"
        assert (row.tag, row.ws, row.row) == (valid[k].tag, prog.ws, k % d), f"beat {k}: side band"
    got: dict[int, np.ndarray] = {}
    for row in run.rows:
        if row.tag == NO_TAG:
            continue
        assert row.flip or prog.ws, "an OS result row leaves only while a flipped tile streams"
        c = got.setdefault(row.tag, np.full((d, d), np.iinfo(np.int64).min, dtype=np.int64))
        c[row.row if prog.ws else d - 1 - row.row] = row.c
    assert sorted(got) == sorted(prog.expect), "results for every tag"
    for tag, want in prog.expect.items():
        np.testing.assert_array_equal(got[tag], want, err_msg=f"{'WS' if prog.ws else 'OS'} result {tag}")
    return got


def run_and_check(tb: ArrayBuild, prog: Program, tmp_path: Path, record) -> StreamRun:
    run = run_stream(tb, prog.beats, tmp_path)
    check(prog, run)
    record("build_seconds", round(tb.build_seconds, 1))
    record("sim_cycles", run.cycles)
    record("tiles", prog.tiles)
    record("wall_s", round(run.wall_s, 2))
    return run


def assert_back_to_back(prog: Program, run: StreamRun) -> None:
    """No bubbles in: every beat one cycle after the previous, and so every output row."""
    d = prog.dim
    assert np.all(np.diff(run.in_cycles) == 1)
    assert np.all(np.diff([r.cycle for r in run.rows]) == 1)
    n_tiles = len(run.rows) // d
    assert run.rows[-1].cycle - run.in_cycles[0] == n_tiles * d - 1 + 2 * d


# ---------------------------------------------------------------- DIM 4 (default tier)


def test_ws_tiles_back_to_back(tb4, tmp_path, record_property):
    prog = ws_program("gemmini-dim4", np.random.default_rng(40), n=10)
    run = run_and_check(tb4, prog, tmp_path, record_property)
    assert_back_to_back(prog, run)


@pytest.mark.parametrize("seed", [41, 42])
def test_ws_accumulated_tiles_and_bubbles(tb4, tmp_path, record_property, seed):
    prog = ws_program("gemmini-dim4", np.random.default_rng(seed), n=24, accumulate=0.35, bubbles=0.2)
    assert any(not b.flip for b in prog.beats if b.valid and b.tag != NO_TAG)
    run_and_check(tb4, prog, tmp_path, record_property)


def test_os_tiles_back_to_back(tb4, tmp_path, record_property):
    rng = np.random.default_rng(43)
    shifts = [int(s) for s in rng.integers(0, 9, 10)]
    prog = os_program("gemmini-dim4", rng, [1] * 10, shifts)
    run = run_and_check(tb4, prog, tmp_path, record_property)
    assert_back_to_back(prog, run)


@pytest.mark.parametrize("seed", [44, 45])
def test_os_chains_rounding_and_20_bit_wrap(tb4, tmp_path, record_property, seed):
    rng = np.random.default_rng(seed)
    lengths = [int(n) for n in rng.integers(1, 13, 8)]
    lengths[0] = 12  # long enough to pass 2^19 with extreme operands
    shifts = [0, 0] + [int(s) for s in rng.choice([0, 1, 2, 3, 5, 8, 13, 19, 31], 6)]
    prog = os_program("gemmini-dim4", rng, lengths, shifts, extreme=0.7, bubbles=0.15)
    totals = np.concatenate([t.ravel() for t in prog.totals.values()])
    assert (np.abs(totals) > OUT_MAX).any(), "the program must take some sum past the 20-bit range (it wraps)"
    run_and_check(tb4, prog, tmp_path, record_property)


# ---------------------------------------------------------------- DIM 16 (slow tier)


@pytest.mark.slow
def test_dim16_ws_and_os(tb16, tmp_path, record_property):
    rng = np.random.default_rng(46)
    ws = ws_program("gemmini-dim16", rng, n=8, accumulate=0.3)
    run = run_and_check(tb16, ws, tmp_path / "ws", record_property)
    assert_back_to_back(ws, run)
    ws_b = ws_program("gemmini-dim16", rng, n=8, accumulate=0.3, bubbles=0.2)
    run_and_check(tb16, ws_b, tmp_path / "ws_bubbles", record_property)
    lengths = [3, 1, 2, 1, 4]
    shifts = [0, 3, 7, 1, 12]
    os_ = os_program("gemmini-dim16", rng, lengths, shifts, extreme=0.5, bubbles=0.1)
    run_and_check(tb16, os_, tmp_path / "os", record_property)
