"""The Gemmini execute controller (sim/rtl/gemmini/gemmini_exec.sv, driving gemmini_array) against the functional
model (sim/gemmini/model.py).

Under cocotb (sim/tb/gemmini/exec_tb.sv) the controller reads and writes the real scratchpad and accumulator,
preloaded with random rows (the model gets the same), with random ready on its five memory ports (two scratchpad
reads: the fetch's lanes). Random programs of
config_ex (both dataflows, transposes, a/c strides including 0, acc_scale, shift, ReLU, set_only_strides), WS tiles
(compute_preloaded / compute_accumulated), OS accumulation chains, operands from the scratchpad, the accumulator
(scaled) or the garbage address, results to the scratchpad or the accumulator (overwrite / accumulate), and
FunctDrain wherever a non-mesh command would come (the top's rule), run on both; after each segment (which ends in
a FunctDrain) both memories' rows are read back and compared with the model's, every command must have completed
exactly once, and the MAC count must equal the model's ``gemmini_macs``. Throughput tests measure cycles per tile
of back-to-back WS and OS streams. DIM 4 (gemmini-dim4, and with 32-row banks so that the programs' rows span
banks) runs in the default tier, DIM 16 in the slow one.
"""

from __future__ import annotations

import copy
import dataclasses
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from sim.gemmini import isa
from sim.gemmini.model import GemminiModel
from sim.gemmini.params import GARBAGE_ADDR, GemminiParams, gemmini_params
from sim.tb.gemmini.build import ArrayBuild
from sim.tb.gemmini.exec_build import ExecRun, ExecStim, build_exec_tb, run_exec
from sim.tb.gemmini.stream import pack, unpack

pytestmark = pytest.mark.rtl

FUNCT_DRAIN = 127
SP_ROWS, ACC_ROWS = 24, 12  # x DIM: rows of each memory the programs use (preloaded random, read back)


class NoMemory:
    def read(self, addr: int, size: int) -> bytes:
        raise AssertionError("the exec programs move no data")

    def write(self, addr: int, data: bytes) -> None:
        raise AssertionError("the exec programs move no data")


class TrackedModel(GemminiModel):
    """The model, noting whether an OS result was drained (written) since the last flip."""

    drained_since_flip = False
    drains = 0  # drains that wrote a result (coverage)
    drains_if_read = 0

    def _os_drain(self) -> None:
        before = self._os_out
        super()._os_drain()
        if before is not None and self._os_out is None:
            self.drained_since_flip = True
            self.drains += 1

    def _os_drain_if_read(self, raw: int, rows: int, cols: int, stride: int = 1) -> None:
        before = self._os_out
        super()._os_drain_if_read(raw, rows, cols, stride)
        if before is not None and self._os_out is None:
            self.drains_if_read += 1

    def _compute(self, rs1: int, rs2: int, flip: bool) -> int:
        r = super()._compute(rs1, rs2, flip)
        if flip:
            self.drained_since_flip = False
        return r


@dataclass
class Program:
    p: GemminiParams
    sp0: np.ndarray
    acc0: np.ndarray
    sp_n: int
    acc_n: int
    segments: list[list[tuple[int, int, int]]] = field(default_factory=list)
    expect: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)  # (sp, acc) after each segment
    macs: list[int] = field(default_factory=list)  # the model's gemmini_macs of each segment


def f32_bits(x: float) -> int:
    return int(np.array([x], dtype=np.float32).view(np.uint32)[0])


SCALES = [1.0, 1.0, 0.5, 0.0625, 0.3, -0.7, 3.0, 1e-3, 255.5, float("nan"), float("inf"), -2.5e-41]


class Gen:
    """Random legal programs, executed on the model as they are generated."""

    def __init__(self, p: GemminiParams, rng: np.random.Generator, dataflows: tuple[str, ...] = ("WS", "OS")):
        self.p, self.rng, self.d = p, rng, p.dim
        self.dataflows = dataflows
        self.m = TrackedModel(p, NoMemory())
        self.sp_n, self.acc_n = SP_ROWS * p.dim, ACC_ROWS * p.dim
        sp0 = rng.integers(-128, 128, size=(self.sp_n, p.dim))
        acc0 = rng.integers(-3000, 3000, size=(self.acc_n, p.dim))
        acc0[rng.random(acc0.shape) < 0.05] = (1 << 31) - 1  # extremes: saturate when scaled
        acc0[rng.random(acc0.shape) < 0.05] = -(1 << 31)
        self.m.sp[: self.sp_n] = sp0
        self.m.acc[: self.acc_n] = acc0
        self.prog = Program(p, sp0.copy(), acc0.copy(), self.sp_n, self.acc_n)
        self.seg: list[tuple[int, int, int]] = []
        self.last_mesh = False
        self.os = self.m.ex.dataflow == isa.OS
        self.cstride = 1
        self.macs0 = 0
        self.recent_c: list[int] = []  # C addresses of recent preloads (not garbage)
        self.directed = 0  # OS reads of a pending result's rows

    # ---- commands
    def emit(self, f: int, rs1: int, rs2: int) -> None:
        mesh = f in (isa.PRELOAD, isa.COMPUTE_PRELOADED, isa.COMPUTE_ACCUMULATED)
        if not mesh and f != FUNCT_DRAIN and self.last_mesh:
            self.emit(FUNCT_DRAIN, 0, 0)  # the top's rule: a non-mesh command follows a mesh one
        self.seg.append((f, rs1, rs2))
        if f == isa.PRELOAD and rs2 & 0xFFFF_FFFF != GARBAGE_ADDR:
            self.recent_c.append(rs2 & 0xBFFF_FFFF)  # without the accumulate bit
        if f == FUNCT_DRAIN:
            self.m.execute(isa.FLUSH, 0, 0)  # a non-mesh point: the model drains
        else:
            self.m.execute(f, rs1, rs2)
        self.last_mesh = mesh

    def config(self, only_strides: bool = False) -> None:
        r = self.rng
        os = bool(self.dataflows == ("OS",) or (len(self.dataflows) > 1 and r.random() < 0.5))
        if only_strides:
            os = self.os
        act = int(r.random() < 0.4)
        if os:
            a_t = bool(r.random() < 0.5)
            b_t = bool(a_t and r.random() < 0.5)  # OS: A goes through the transposer unless transposed
        else:
            pick = r.integers(3)
            a_t, b_t = pick == 1, pick == 2
        a_stride = int(r.choice([1, 1, 0, 2]))
        c_stride = int(r.choice([1, 1, 0])) if os else int(r.choice([1, 1, 0, 2]))
        scale = f32_bits(float(r.choice(SCALES)))
        shift = int(r.integers(0, 12)) if r.random() < 0.8 else int(r.integers(32))
        rs1 = (0 if os else 4) | act << 3 | int(only_strides) << 7 | int(a_t) << 8 | int(b_t) << 9
        rs1 |= a_stride << 16 | scale << 32
        rs2 = shift | c_stride << 48
        self.emit(isa.CONFIG, rs1, rs2)
        self.os = self.m.ex.dataflow == isa.OS
        self.cstride = self.m.ex.c_stride

    def rc(self) -> tuple[int, int]:
        d, r = self.d, self.rng
        if r.random() < 0.5:
            return d, d
        return int(r.integers(1, d + 1)), int(r.integers(1, d + 1))

    def operand(self, p_garbage: float = 0.1) -> int:
        d, r = self.d, self.rng
        rows, cols = self.rc()
        if r.random() < 0.03:
            rows = 0
        u = r.random()
        if u < p_garbage:
            raw = GARBAGE_ADDR
        elif u < p_garbage + 0.25:
            raw = 1 << 31 | int(r.integers(0, self.acc_n - 3 * d))
        else:
            raw = int(r.integers(0, self.sp_n - 3 * d)) | (1 << 30 if r.random() < 0.1 else 0)
        return raw | cols << 32 | rows << 48

    def dest(self, p_garbage: float = 0.15) -> int:
        d, r = self.d, self.rng
        rows, cols = self.rc()
        u = r.random()
        if u < p_garbage:
            raw = GARBAGE_ADDR
        elif u < p_garbage + 0.45:
            raw = 1 << 31 | int(r.random() < 0.5) << 30 | int(r.integers(0, self.acc_n - 3 * d))
        else:
            raw = int(r.integers(0, self.sp_n - 3 * d))
        return raw | cols << 32 | rows << 48

    def near_last_c(self, raw: int) -> int:
        """Sometimes an operand that reads the rows a recent result went to (the controller's own RAW order)."""
        if not self.recent_c or self.rng.random() >= 0.3:
            return raw
        return int(self.rng.choice(self.recent_c[-3:])) | (raw & ~0xFFFF_FFFF)

    def ws_block(self) -> None:
        r = self.rng
        for t in range(int(r.integers(1, 5))):
            if r.random() < 0.05:  # a compute without its preload writes nowhere
                self.emit(isa.COMPUTE_ACCUMULATED, self.operand(), self.operand(0.5))
                continue
            if r.random() < 0.05:  # a preload replaced by the next one before any compute
                self.emit(isa.PRELOAD, self.operand(), self.dest())
            if t == 0 or r.random() < 0.6:
                self.emit(isa.PRELOAD, self.near_last_c(self.operand()), self.dest())
                self.emit(isa.COMPUTE_PRELOADED, self.near_last_c(self.operand()), self.operand(0.5))
            else:
                b = GARBAGE_ADDR | self.d << 32 | self.d << 48 if r.random() < 0.8 else self.operand()
                self.emit(isa.PRELOAD, b, self.dest())
                self.emit(isa.COMPUTE_ACCUMULATED, self.operand(), self.operand(0.5))

    def os_chain(self) -> None:
        r = self.rng
        n = int(r.integers(1, 5))
        for j in range(n):
            last = j == n - 1
            c = self.dest() if last or r.random() < 0.3 else GARBAGE_ADDR | self.d << 32 | self.d << 48
            a, b = self.operand(), self.operand()
            pre = self.operand(0.3) if j == 0 else GARBAGE_ADDR | self.d << 32 | self.d << 48
            pending = self.m._os_out
            if j == 0 and pending is not None and pending.c_raw != GARBAGE_ADDR and r.random() < 0.7:
                # read the pending result's rows: the model drains it first (_os_drain_if_read)
                self.directed += 1
                full = self.d << 32 | self.d << 48
                if r.random() < 0.5:
                    a = pending.c_raw | full
                else:
                    pre = pending.c_raw | full
            between = r.random() < 0.1  # a non-mesh command between a preload and its compute
            f = isa.COMPUTE_PRELOADED
            if j:
                # The model keeps an OS sum across a drain (no flip); the array's drain flips it out. Continue a
                # chain past a drain with a compute_preloaded instead (EXEC.md, differences).
                probe = copy.deepcopy(self.m)
                probe.execute(isa.PRELOAD, pre, c)
                if between:
                    probe.execute(isa.FLUSH, 0, 0)
                probe.execute(isa.COMPUTE_ACCUMULATED, a, b)
                if not probe.drained_since_flip:
                    f = isa.COMPUTE_ACCUMULATED
            self.emit(isa.PRELOAD, pre, c)
            if between:
                self.emit(FUNCT_DRAIN, 0, 0)
            self.emit(f, a, b)
            if r.random() < 0.15:
                self.emit(FUNCT_DRAIN, 0, 0)

    def end_segment(self) -> None:
        if self.last_mesh:
            self.emit(FUNCT_DRAIN, 0, 0)
        self.last_mesh = False
        self.prog.segments.append(self.seg)
        self.prog.expect.append((self.m.sp[: self.sp_n].copy(), self.m.acc[: self.acc_n].copy()))
        macs = self.m.counters["gemmini_macs"]
        self.prog.macs.append(macs - self.macs0)
        self.macs0 = macs
        self.seg = []

    def program(self, n_segments: int, blocks: int) -> Program:
        r = self.rng
        for _ in range(n_segments):
            self.config()
            for _ in range(blocks):
                if r.random() < 0.15:
                    self.config(only_strides=bool(r.random() < 0.3))
                if self.os:
                    self.os_chain()
                else:
                    self.ws_block()
                if r.random() < 0.2:
                    self.emit(FUNCT_DRAIN, 0, 0)
            self.end_segment()
        return self.prog


def stim_of(prog: Program, seed: int, ready_pct: int, p_cmd: float = 1.0) -> ExecStim:
    return ExecStim(
        sp={r: pack(prog.sp0[r], 8) for r in range(prog.sp_n)},
        acc={r: pack(prog.acc0[r], 32) for r in range(prog.acc_n)},
        segments=prog.segments,
        dump_sp=(0, prog.sp_n),
        dump_acc=(0, prog.acc_n),
        seed=seed,
        p_cmd=p_cmd,
        ready_pct=ready_pct,
    )


def check(prog: Program, run: ExecRun) -> None:
    d = prog.p.dim
    assert len(run.dumps) == len(prog.segments)
    ids = [i for _, i in run.accepts]
    assert len(ids) == sum(len(s) for s in prog.segments)
    assert len(run.dones) == len(run.accepts), "every command completes exactly once"
    for k, ((sp, acc), dump) in enumerate(zip(prog.expect, run.dumps, strict=True)):
        got_sp = np.array([unpack(v, 8, d) for v in dump["sp"]])
        got_acc = np.array([unpack(v, 32, d) for v in dump["acc"]])
        bad_sp = np.nonzero((got_sp != sp).any(axis=1))[0]
        bad_acc = np.nonzero((got_acc != acc).any(axis=1))[0]
        assert not len(bad_sp), (
            f"segment {k}: scratchpad rows {bad_sp.tolist()} differ; row {bad_sp[0]}: "
            f"RTL {got_sp[bad_sp[0]].tolist()} model {sp[bad_sp[0]].tolist()}"
        )
        assert not len(bad_acc), (
            f"segment {k}: accumulator rows {bad_acc.tolist()} differ; row {bad_acc[0]}: "
            f"RTL {got_acc[bad_acc[0]].tolist()} model {acc[bad_acc[0]].tolist()}"
        )
        assert run.segments[k].counters["macs_o"] == prog.macs[k], f"segment {k}: MACs vs the model's gemmini_macs"


@pytest.fixture(scope="module")
def dim4() -> tuple[GemminiParams, ArrayBuild]:
    p = gemmini_params("gemmini-dim4")
    return p, build_exec_tb(p)


@pytest.fixture(scope="module")
def dim16() -> tuple[GemminiParams, ArrayBuild]:
    p = gemmini_params("gemmini-dim16")
    return p, build_exec_tb(p)


@pytest.mark.parametrize(
    ("seed", "dataflows", "ready_pct", "p_cmd"),
    [
        (1, ("WS",), 256, 1.0),
        (2, ("OS",), 256, 1.0),
        (3, ("WS", "OS"), 160, 0.7),
        (4, ("WS", "OS"), 90, 1.0),
    ],
)
def test_random_programs(dim4, tmp_path: Path, seed: int, dataflows: tuple[str, ...], ready_pct: int, p_cmd: float):
    p, b = dim4
    g = Gen(p, np.random.default_rng(seed), dataflows)
    prog = g.program(n_segments=4, blocks=6)
    if "OS" in dataflows:
        assert g.m.drains > 0, "the program drains OS results"
    run = run_exec(b, stim_of(prog, seed, ready_pct, p_cmd), tmp_path)
    check(prog, run)


@pytest.mark.slow  # a Verilator build of its own (the mutated controller)
def test_second_completion_fails_through_its_assertion(tmp_path: Path, monkeypatch):
    """The mutation COSIM_MUTATION_PRELOAD_DONE_EARLY completes every preload at intake as well as when its C
    rows are written; gemmini_exec's DoneOfOpenId assertion stops the run at the second completion. The same
    program passes on the unmutated controller (so the assertion, not the program, fails it)."""
    from sim.errors import SimError
    from sim.verilator_build import assertions_enabled

    monkeypatch.delenv("COSIM_RTL_ASSERT", raising=False)
    if not assertions_enabled():
        pytest.fail("the benches must compile the assertions (COSIM_RTL_ASSERT unset)")
    p = gemmini_params("gemmini-dim4")
    prog = Gen(p, np.random.default_rng(1), ("WS",)).program(n_segments=1, blocks=2)
    stim = stim_of(prog, 1, 256, 1.0)
    check(prog, run_exec(build_exec_tb(p), stim, tmp_path / "good"))
    with pytest.raises(SimError) as failed:
        run_exec(build_exec_tb(p, ("COSIM_MUTATION_PRELOAD_DONE_EARLY",)), stim, tmp_path / "mutated")
    assert "DoneOfOpenId" in str(failed.value), str(failed.value)[-2000:]
    assert "not open: a second completion" in str(failed.value), str(failed.value)[-2000:]


@pytest.fixture(scope="module")
def dim4_small_banks() -> tuple[GemminiParams, ArrayBuild]:
    """gemmini-dim4 with banks of 32 rows: the programs' rows span three scratchpad banks and both accumulator
    banks, so the fetch's two lanes read in the same cycle and contend for banks (the random readies too)."""
    p = dataclasses.replace(gemmini_params("gemmini-dim4"), sp_bank_rows=32, acc_bank_rows=32)
    return p, build_exec_tb(p)


@pytest.mark.parametrize(("seed", "ready_pct", "p_cmd"), [(5, 256, 1.0), (6, 120, 0.8)])
def test_random_programs_small_banks(dim4_small_banks, tmp_path: Path, seed: int, ready_pct: int, p_cmd: float):
    p, b = dim4_small_banks
    assert p.sp_rows >= SP_ROWS * p.dim and p.acc_rows >= ACC_ROWS * p.dim
    prog = Gen(p, np.random.default_rng(seed), ("WS", "OS")).program(n_segments=4, blocks=6)
    run = run_exec(b, stim_of(prog, seed, ready_pct, p_cmd), tmp_path)
    check(prog, run)


@pytest.mark.slow
def test_random_programs_dim16(dim16, tmp_path: Path):
    p, b = dim16
    prog = Gen(p, np.random.default_rng(16)).program(n_segments=3, blocks=5)
    run = run_exec(b, stim_of(prog, 16, 170, 0.8), tmp_path)
    check(prog, run)


# ---------------------------------------------------------------- throughput


def ws_stream(
    p: GemminiParams, rng: np.random.Generator, n: int, accumulated: bool, b_acc: bool, b_bank: int = 0
) -> Program:
    """n WS tiles back to back: preload(B, C to the accumulator, accumulate) + compute_preloaded(A, D garbage), or
    (``accumulated``) one preload then compute_accumulated tiles (A only); B from the accumulator with ``b_acc``,
    else from scratchpad bank ``b_bank`` (A: bank 0)."""
    g = Gen(p, rng, ("WS",))
    d = p.dim
    g.emit(isa.CONFIG, 4 | f32_bits(1.0) << 32 | 1 << 16, 1 << 48)
    full = d << 32 | d << 48
    for t in range(n):
        a = int(rng.integers(0, g.sp_n - d)) | full
        c = 1 << 31 | 1 << 30 | int(rng.integers(g.acc_n // 2, g.acc_n - d)) | full  # apart from B's rows
        if not accumulated or t == 0:
            sp_b = b_bank * p.sp_bank_rows + int(rng.integers(0, g.sp_n - d))
            bsrc = (1 << 31 | int(rng.integers(0, g.acc_n // 2 - d))) if b_acc else sp_b
            g.emit(isa.PRELOAD, bsrc | full, c)
            g.emit(isa.COMPUTE_PRELOADED, a, GARBAGE_ADDR | full)
        else:
            g.emit(isa.PRELOAD, GARBAGE_ADDR | full, c)
            g.emit(isa.COMPUTE_ACCUMULATED, a, GARBAGE_ADDR | full)
    g.end_segment()
    return g.prog


def ws_loop_stream(p: GemminiParams, rng: np.random.Generator, n: int, mi: int) -> Program:
    """loop_ws's inner loop (sim/gemmini/loop_ws.py): for each B tile, preload(B, C_0) + compute_preloaded(A_0), then
    preload(garbage, C_i) + compute_accumulated(A_i) for i < mi; A and B from the scratchpad, C accumulating into
    the accumulator, D garbage. n tiles in all."""
    g = Gen(p, rng, ("WS",))
    d = p.dim
    g.emit(isa.CONFIG, 4 | f32_bits(1.0) << 32 | 1 << 16, 1 << 48)
    full = d << 32 | d << 48
    for t in range(n):
        i = t % mi
        a = int(rng.integers(0, g.sp_n - d)) | full
        c = 3 << 30 | (i * d) | full
        b = int(rng.integers(0, g.sp_n - d)) | full if i == 0 else GARBAGE_ADDR | full
        g.emit(isa.PRELOAD, b, c)
        g.emit(isa.COMPUTE_PRELOADED if i == 0 else isa.COMPUTE_ACCUMULATED, a, GARBAGE_ADDR | full)
    g.end_segment()
    return g.prog


def os_stream(p: GemminiParams, rng: np.random.Generator, n: int, chain: int, b_bank: int | None = None) -> Program:
    """OS chains of ``chain`` tiles (A from the scratchpad, B from the accumulator, or with ``b_bank`` from that
    scratchpad bank, D garbage), C on the last."""
    g = Gen(p, rng, ("OS",))
    d = p.dim
    g.emit(isa.CONFIG, 0 | 1 << 8 | f32_bits(1.0) << 32 | 1 << 16, 3 | 1 << 48)  # A transposed: no transposer
    full = d << 32 | d << 48
    for t in range(n):
        a = int(rng.integers(0, g.sp_n - d)) | full
        if b_bank is None:
            bsrc = 1 << 31 | int(rng.integers(0, g.acc_n // 2 - d)) | full
        else:
            bsrc = b_bank * p.sp_bank_rows + int(rng.integers(0, g.sp_n - d)) | full
        last = t % chain == chain - 1
        c = (1 << 31 | int(rng.integers(g.acc_n // 2, g.acc_n - d)) | full) if last else GARBAGE_ADDR | full
        g.emit(isa.PRELOAD, GARBAGE_ADDR | full, c)
        g.emit(isa.COMPUTE_PRELOADED if t % chain == 0 else isa.COMPUTE_ACCUMULATED, a, bsrc)
    g.end_segment()
    return g.prog


def measure(b: ArrayBuild, prog: Program, tmp_path: Path, n: int) -> tuple[float, float, float]:
    """Cycles a tile end to end (first accept to last done, over n tiles), in steady state (first to last compute
    tile start, over n - 1), and useful MACs / (DIM^2 x the end-to-end cycles)."""
    stim = stim_of(prog, 7, 256)
    stim.trace = True
    run = run_exec(b, stim, tmp_path)
    check(prog, run)
    s = run.segments[0]
    cycles = s.last - s.first
    d = prog.p.dim
    beats = [(c, v) for c, v in run.trace if v & 1]
    starts = [beats[i][0] for i in range(0, len(beats), d) if KIND[beats[i][1] >> 1 & 3] == "C"]
    assert len(starts) == n
    return cycles / n, (starts[-1] - starts[0]) / (n - 1), s.counters["macs_o"] / (d**2 * cycles)


def report(name: str, d: int, n: int, per_tile: float, steady: float, util: float) -> str:
    return (
        f"{name}: DIM {d}, {n} tiles: {per_tile:.2f} cycles/tile end to end ({per_tile / d:.2f} x DIM, MACs "
        f"{util:.0%}), steady state {steady:.2f} ({steady / d:.2f} x DIM)"
    )


@pytest.mark.parametrize(
    ("name", "limit"),
    # the fetch reads two rows a cycle (lane 0 either memory, lane 1 the scratchpad) unless both are in one
    # scratchpad bank: preload + compute_preloaded with P and A in one bank take 2*DIM a tile, one read a cycle;
    # with P in the accumulator or another bank, and OS A + B likewise, DIM; compute_accumulated tiles read only A:
    # DIM; loop_ws's inner loop with A and B in one bank reads one B tile per mi A tiles: (mi + 1) / mi x DIM
    [
        ("ws_preloaded_sp", 2.05),
        ("ws_preloaded_acc_b", 1.05),
        ("ws_accumulated", 1.05),
        ("ws_loop_mi4", 1.3),
        ("os_chain4", 1.05),
        ("ws_preloaded_sp_banks", 1.05),
        ("os_chain4_sp_banks", 1.05),
    ],
)
def test_throughput(dim4, tmp_path: Path, name: str, limit: float, record_property):
    p, b = dim4
    n = 40
    rng = np.random.default_rng(5)
    prog = {
        "ws_preloaded_sp": lambda: ws_stream(p, rng, n, accumulated=False, b_acc=False),
        "ws_preloaded_acc_b": lambda: ws_stream(p, rng, n, accumulated=False, b_acc=True),
        "ws_accumulated": lambda: ws_stream(p, rng, n, accumulated=True, b_acc=False),
        "ws_loop_mi4": lambda: ws_loop_stream(p, rng, n, 4),
        "os_chain4": lambda: os_stream(p, rng, n, 4),
        "ws_preloaded_sp_banks": lambda: ws_stream(p, rng, n, accumulated=False, b_acc=False, b_bank=1),
        "os_chain4_sp_banks": lambda: os_stream(p, rng, n, 4, b_bank=1),
    }[name]()
    per_tile, steady, util = measure(b, prog, tmp_path, n)
    record_property("cycles_per_tile", steady)
    print(report(name, p.dim, n, per_tile, steady, util))
    assert steady <= limit * p.dim, f"{name}: {steady:.2f} cycles per tile (limit {limit} x DIM)"


# ---------------------------------------------------------------- timing of a double-buffered WS stream

KIND = "KFC"  # carrier, drain (flush), compute
OPND = "PAB"


def timing_diagram(trace: list[tuple[int, int]], c0: int, c1: int, width: int = 32) -> str:
    """Rows: operand reads of the fetch's lanes 0 and 1 (P/A/B + job), beats into the array (tile kind + job . beat), in_d's P, rows out,
    result rows written, dones; one column a cycle from c0 (cycle 0) to c1."""
    rows: dict[str, list[str]] = {k: [] for k in ("cycle", "read", "read1", "beat", "d", "out", "write", "done")}
    for cyc, v in trace:
        if not c0 <= cyc <= c1:
            continue
        rows["cycle"].append(str(cyc - c0))
        rows["read"].append(f"{OPND[v >> 19 & 3]}{v >> 21 & 7}" if v >> 18 & 1 else "")
        rows["read1"].append(f"{OPND[v >> 26 & 3]}{v >> 28 & 7}" if v >> 25 & 1 else "")
        kind = KIND[v >> 1 & 3] if (v >> 1 & 3) < 3 else "?"
        rows["beat"].append(f"{kind}{v >> 8 & 7}.{v >> 4 & 15}" if v & 1 else "")
        rows["d"].append(f"P{v >> 12 & 7}" if v & 1 and v >> 11 & 1 else "")
        rows["out"].append("o" if v >> 15 & 1 else "")
        rows["write"].append("w" if v >> 16 & 1 else "")
        rows["done"].append("d" if v >> 17 & 1 else "")
    out = []
    for s in range(0, len(rows["cycle"]), width):
        for name, cells in rows.items():
            out.append(f"{name:<6}" + "".join(f"{c:>5}" for c in cells[s : s + width]))
        out.append("")
    return "\n".join(out)


@pytest.mark.parametrize("b_bank", [0, 1])
def test_ws_double_buffered_timing(dim4, tmp_path: Path, b_bank: int):
    """WS preload + compute_preloaded tiles back to back: after the first tile's carrier every tile's weights ride
    on the tile before (no more carriers), each tile's DIM beats go in without bubbles, each result row is written
    2*DIM + 1 cycles after its beat (the array's latency and the write queue's
    register), and tiles start at most 2*DIM cycles apart with P and A in one scratchpad bank (its one read port)
    and DIM apart with B in another bank (the fetch's two lanes)."""
    p, b = dim4
    d, n = p.dim, 6
    prog = ws_stream(p, np.random.default_rng(9), n, accumulated=False, b_acc=False, b_bank=b_bank)
    stim = stim_of(prog, 9, 256)
    stim.trace = True
    run = run_exec(b, stim, tmp_path)
    check(prog, run)
    beats = [(c, v) for c, v in run.trace if v & 1]
    tiles = [beats[i : i + d] for i in range(0, len(beats), d)]
    kinds = [KIND[t[0][1] >> 1 & 3] for t in tiles]
    assert kinds == ["K"] + ["C"] * n, kinds
    for t in tiles:
        assert t[-1][0] - t[0][0] == d - 1, f"bubbles inside a tile: {[c for c, _ in t]}"
    writes = [c for c, v in run.trace if v >> 16 & 1]
    assert len(writes) == n * d
    # the array's 2*DIM cycles, then one in the write queue
    assert writes[0] - tiles[1][0][0] == 2 * d + 1, "first result row written 2*DIM + 1 cycles after its beat"
    starts = [t[0][0] for t in tiles[1:]]
    gaps = [b - a for a, b in zip(starts, starts[1:], strict=False)]
    # one scratchpad bank: P and A rows share its read port (2*DIM); two banks: the fetch's lanes read both (DIM)
    assert max(gaps) <= (2 * d if b_bank == 0 else d), f"compute tiles start {gaps} cycles apart"
    c0 = run.segments[0].first
    print(f"\nWS double-buffered, DIM {d}, {n} tiles, B in bank {b_bank} (cycle 0 = the first accept):")
    print(f"compute tiles start {gaps} cycles apart")
    print(timing_diagram(run.trace, c0, run.segments[0].last))


@pytest.mark.parametrize("dim", [4, 8, 16])
def test_lint_wall_clean(dim):
    """gemmini_exec (with the array it drives) is Verilator -Wall clean at DIM 4, 8 and 16 (only this block's
    files: the shared package and the FPU's units have warnings of their own)."""
    from sim.tb.gemmini.exec_build import RTL_SOURCES
    from sim.verilator_tool import ensure_verilator_on_path

    ensure_verilator_on_path()
    q = gemmini_params("gemmini-dim16" if dim == 16 else "gemmini-dim4")
    cmd = ["verilator", "--lint-only", "-Wall", "--top-module", "gemmini_exec", f"-GDim={dim}"]
    cmd += [f"-GSpRows={q.sp_rows}", f"-GAccRows={q.acc_rows}", *map(str, RTL_SOURCES)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    lines = (res.stdout + res.stderr).splitlines()
    mine = (
        "gemmini_exec.sv",
        "gemmini_exec_pkg.sv",
        "gemmini_exec_intake.sv",
        "gemmini_exec_fetch.sv",
        "gemmini_exec_stream.sv",
        "gemmini_exec_write.sv",
        "gemmini_exec_done.sv",
        "gemmini_array.sv",
        "gemmini_mesh.sv",
        "gemmini_pe.sv",
        "gemmini_delay.sv",
        "gemmini_clock_gate.sv",
    )
    problems = [ln for ln in lines if ln.startswith("%") and any(m in ln for m in mine)]
    errors = [ln for ln in lines if ln.startswith("%Error") and "due to" not in ln]
    assert not problems + errors, f"DIM {dim}:\n" + "\n".join(problems + errors)


@pytest.mark.slow
def test_throughput_dim16(dim16, tmp_path: Path):
    p, b = dim16
    n = 24
    for k, (name, limit, make) in enumerate(
        (
            ("ws_preloaded_sp", 2.05, lambda rng: ws_stream(p, rng, n, accumulated=False, b_acc=False)),
            ("ws_accumulated", 1.05, lambda rng: ws_stream(p, rng, n, accumulated=True, b_acc=False)),
            ("ws_loop_mi8", 1.15, lambda rng: ws_loop_stream(p, rng, n, 8)),
            ("os_chain4", 1.05, lambda rng: os_stream(p, rng, n, 4)),
            (
                "ws_preloaded_sp_banks",
                1.05,
                lambda rng: ws_stream(p, rng, n, accumulated=False, b_acc=False, b_bank=1),
            ),
        )
    ):
        per_tile, steady, util = measure(b, make(np.random.default_rng(50 + k)), tmp_path / name, n)
        print(report(name, p.dim, n, per_tile, steady, util))
        assert steady <= limit * p.dim, f"{name}: {steady:.2f} cycles per tile (limit {limit} x DIM)"
