"""The Gemmini store controller RTL (sim/rtl/gemmini/gemmini_store.sv) against the functional model.

Under cocotb (sim/tb/gemmini/store_tb.sv: the controller with the real gemmini_spad and gemmini_acc, preloaded with
random rows through their write ports) random config_st + mvout programs run beside sim/gemmini/model.py on the
same memory contents: scratchpad and accumulator sources, scales with rounding ties, saturation, negative, zero,
subnormal, NaN and infinite scales, the kept scale (rs2[63:32] all ones), ReLU, full-width rows, block mvouts,
unaligned DRAM addresses, strides (zero and overlapping ones included), 1-D mvouts, max pooling (strides 1-3,
sizes 1-3, padding), garbage and empty mvouts, with junk in the config fields the model ignores. A Python model
of the DMA's write side answers the writes (random ready, random in-order done latency). Checked: the list of
write requests (address and bytes, in order) equals the model's memory writes, each carries its command's id,
the memory after the run (the bytes written and the untouched ones), every command done exactly once, in order,
after its last write's wr_done, and the bytes-written counter. Sizes are gemmini-dim4's (default tier).
"""

from __future__ import annotations

import random
import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from sim.gemmini import isa
from sim.gemmini.model import GemminiIllegal, GemminiModel
from sim.gemmini.params import GemminiParams, gemmini_params
from sim.tb.gemmini.build import ArrayBuild
from sim.tb.gemmini.store_build import (
    RTL_DIR,
    RTL_SOURCES,
    AmemModel,
    StoreRun,
    StoreStim,
    build_store_dma_tb,
    build_store_tb,
    run_store,
)
from sim.tb.gemmini.stream import pack
from sim.verilator_tool import ensure_verilator_on_path

pytestmark = pytest.mark.rtl

REGION = 0x4000_1000  # DRAM bytes the programs write (random initial contents)
REGION_SIZE = 1 << 14
SP_PRELOAD = 1280  # scratchpad rows preloaded (bank 0 and the start of bank 1)
IDW = 6


def f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


SCALES = [
    f32(1.0),
    f32(0.5),
    f32(0.25),
    f32(1.5),
    f32(2.5),
    f32(-1.0),
    f32(-0.5),
    f32(0.0),
    0x8000_0000,
    0x7FC0_0000,
    0xFFC0_0001,
    0x7F80_0000,
    0xFF80_0000,
    0x0000_0001,
    0x0040_0000,
    f32(2.0**-7),
    f32(1000.0),
    f32(1 / 3),
    f32(3e38),
]


@dataclass
class Mem:
    """The model's DRAM: the region's bytes and every write (address, bytes) in order."""

    base: int
    data: bytearray
    log: list[tuple[int, bytes]]

    def read(self, addr: int, size: int) -> bytes:
        raise AssertionError("mvout does not read memory")

    def write(self, addr: int, data: bytes) -> None:
        o = addr - self.base
        assert 0 <= o and o + len(data) <= len(self.data), f"write {addr:#x}+{len(data)} outside the test region"
        self.data[o : o + len(data)] = data
        self.log.append((addr, bytes(data)))


@pytest.fixture(scope="module")
def dim4() -> tuple[GemminiParams, ArrayBuild]:
    p = gemmini_params("gemmini-dim4")
    return p, build_store_tb(p)


def acc_values(rng: np.random.Generator, n: int) -> np.ndarray:
    """int32 accumulator contents: mostly small (odd values make x.5 ties under a scale of 0.5), some large."""
    small = rng.integers(-400, 400, n)
    big = rng.integers(-(1 << 31), 1 << 31, n)
    ext = rng.choice([-(1 << 31), (1 << 31) - 1, 1 << 24 | 1, -(1 << 24) - 3, 255, -129], n)
    pick = rng.random(n)
    return np.where(pick < 0.7, small, np.where(pick < 0.9, big, ext)).astype(np.int64)


class Gen:
    """Random config_st / mvout commands; the model decides what they do (illegal ones are dropped)."""

    def __init__(self, p: GemminiParams, rng: random.Random, weights: dict[str, float]):
        self.p, self.r, self.w = p, rng, weights

    def config(self) -> tuple[int, int, int]:
        r = self.r
        act = r.randint(0, 1)
        mode = r.choices(["rows", "1d", "pool"], [self.w.get("rows", 1), self.w.get("1d", 1), self.w.get("pool", 1)])[0]
        ps = 0 if mode != "pool" else r.choice([1, 1, 2, 2, 3])
        psz = 0 if mode == "rows" else r.randint(1, 3)
        orows, ocols = r.randint(1, 6), r.randint(1, 6)
        upad, lpad = r.randint(0, 2), r.randint(0, 2)
        if mode == "pool" and r.random() < 0.6:  # the geometry Gemmini's library computes
            porows = max(0, (orows + 2 * upad - psz) // ps + 1)
            pocols = max(0, (ocols + 2 * lpad - psz) // ps + 1)
        else:
            porows, pocols = r.randint(0, 5), r.randint(0, 5)
        pod = r.randint(1, 8)
        if mode == "rows":  # junk in the fields the model ignores without a pool stride or size
            orows, ocols, porows, pocols, pod = (r.randint(0, 255) for _ in range(5))
        elif mode == "1d":
            porows, pocols = r.randint(0, 255), r.randint(0, 255)
            upad, lpad = r.randint(0, 3), r.randint(0, 3)
        rs1 = isa.CONFIG_ST | act << 2 | ps << 4 | psz << 6 | upad << 8 | lpad << 10 | r.randint(0, 0xFFF) << 12
        rs1 |= pod << 24 | porows << 32 | pocols << 40 | orows << 48 | ocols << 56
        stride = r.choice([self.p.dim, 64, r.randint(1, 3), 0, r.randint(1, 300), r.randint(60, 300)])
        scale = r.choice(SCALES + [0xFFFF_FFFF, 0xFFFF_FFFF, f32(r.uniform(-3, 3))])
        return isa.CONFIG, rs1, scale << 32 | stride

    def mvout(self, st) -> tuple[int, int, int]:
        """An mvout fitted to the model's current StoreConfig ``st`` (so that most are legal and stay in the region)."""
        r, d = self.r, self.p.dim
        acc = r.random() < self.w.get("acc", 0.5)
        full = acc and r.random() < 0.2
        pool, one_d = st.pool_stride != 0, st.pool_stride == 0 and st.pool_size != 0
        if pool or one_d:
            cols, rows = r.randint(1, d), r.randint(0 if pool else 1, d)
            span = st.orows * st.ocols
        else:
            maxc = d if full else self.p.max_block_len * d
            cols = r.choice([r.randint(1, d), r.randint(1, maxc), maxc])
            rows = r.randint(1, d)
            span = (-(-cols // d) - 1) * d + rows
        nbytes = cols * (4 if full else 1)
        if pool:
            pitch = max(0, (st.porows - 1) * st.pool_out_dim + st.pocols - 1)
        elif one_d:
            pitch = max(0, (st.orows - 1) * st.pool_out_dim + st.ocols - 1)
        else:
            pitch = rows - 1
        extent = pitch * st.stride + nbytes
        dram = REGION + r.randint(0, max(0, REGION_SIZE - extent))
        nrows = self.p.acc_rows if acc else SP_PRELOAD
        base = r.randint(0, max(0, nrows - span))
        if acc:
            raw = 1 << 31 | r.randint(0, 1) << 30 | int(full) << 29 | base
        else:
            raw = r.randint(0, 1) << 30 | base
        x = r.random()
        if x < 0.04:
            raw = 0xFFFF_FFFF
        elif x < 0.07:
            cols = 0
        elif x < 0.10 and not pool:
            rows = 0
        return isa.MVOUT, dram, rows << 48 | cols << 32 | raw


@dataclass
class Program:
    stim: StoreStim
    model: GemminiModel
    mem: Mem
    init: bytes
    writes_of: list[int]  # per model write: the index of its command
    n_writes: list[int]  # per command: its writes


def make_program(
    p: GemminiParams,
    seed: int,
    n: int,
    weights: dict[str, float],
    fixed: list[tuple[int, int, int]] | None = None,
    **env,
) -> Program:
    """``n`` random commands (or the ``fixed`` ones) run through the model on random memory contents."""
    r = random.Random(seed)
    nr = np.random.default_rng(seed)
    init = nr.integers(0, 256, REGION_SIZE, dtype=np.uint8).tobytes()
    mem = Mem(REGION, bytearray(init), [])
    m = GemminiModel(p, mem)
    m.sp[:SP_PRELOAD] = nr.integers(-128, 128, (SP_PRELOAD, p.dim), dtype=np.int8)
    m.acc[:] = acc_values(nr, p.acc_rows * p.dim).reshape(p.acc_rows, p.dim).astype(np.int32)
    sp = {i: pack([int(v) for v in m.sp[i]], 8) for i in range(SP_PRELOAD)}
    acc = {i: pack([int(v) for v in m.acc[i]], 32) for i in range(p.acc_rows)}
    g = Gen(p, r, weights)
    cmds: list[tuple[int, int, int, int]] = []
    writes_of: list[int] = []
    n_writes: list[int] = []
    todo = list(fixed or [])
    while todo if fixed else len(cmds) < n:
        if fixed:
            f, rs1, rs2 = todo.pop(0)
        else:
            f, rs1, rs2 = g.config() if r.random() < weights.get("config", 0.3) else g.mvout(m.st)
        before = len(mem.log)
        try:
            m.execute(f, rs1, rs2)
        except GemminiIllegal:
            assert len(mem.log) == before and not fixed
            continue
        k = len(mem.log) - before
        writes_of += [len(cmds)] * k
        n_writes.append(k)
        cmds.append((f, rs1, rs2, len(cmds) % (1 << IDW)))
    stim = StoreStim(sp=sp, acc=acc, cmds=cmds, seed=seed, **env)
    return Program(stim, m, mem, init, writes_of, n_writes)


def check(prog: Program, run: StoreRun) -> None:
    assert not run.extra["timeout"], f"no completion after {run.cycles} cycles ({len(run.dones)} dones)"
    cmds = prog.stim.cmds
    log = prog.mem.log
    for i, (w, (addr, data)) in enumerate(zip(run.writes, log, strict=False)):
        c = prog.writes_of[i]
        assert (w.addr, w.data) == (addr, data), (
            f"write {i} (command {c}: {cmds[c][:3]}): RTL {w.addr:#x} {w.data.hex()}, model {addr:#x} {data.hex()}"
        )
        assert w.id == cmds[c][3], f"write {i}: id {w.id}, its command's is {cmds[c][3]}"
    assert len(run.writes) == len(log), f"RTL wrote {len(run.writes)} requests, the model {len(log)}"
    # the memory after the run: every written byte, and the untouched ones keep their initial contents
    dram = bytearray(prog.init)
    for w in run.writes:
        dram[w.addr - REGION : w.addr - REGION + len(w.data)] = w.data
    assert dram == prog.mem.data
    # completions: one per command, in order, after the wr_done of its last write
    assert [i for _, i in run.dones] == [c[3] for c in cmds]
    assert len(run.wr_dones) == len(log)
    seen = 0
    for k, ((cyc, _), nw) in enumerate(zip(run.dones, prog.n_writes, strict=True)):
        seen += nw
        if seen:
            assert cyc > run.wr_dones[seen - 1], (
                f"command {k} done at {cyc}, its last wr_done at {run.wr_dones[seen - 1]}"
            )
        assert cyc > run.accepts[k]
    assert run.bytes_written == prog.model.counters["dma_bytes_written"]
    if run.image is not None:  # with the real DMA: its memory image and its trace
        assert run.image == bytes(prog.mem.data), "the amem model's memory differs from the model's"
        assert [(t.addr, t.data, t.id) for t in run.traces] == [(w.addr, w.data, w.id) for w in run.writes]


PROFILES = {
    # name: (seed, commands, generator weights, environment)
    "mixed_random_env": (
        11,
        90,
        {},
        {"p_sp_ready": 0.7, "p_acc_ready": 0.6, "p_wr_ready": 0.6, "done_latency": (1, 14), "p_cmd": 0.7},
    ),
    "rows_blocks_scales": (
        23,
        90,
        {"rows": 6, "1d": 1, "pool": 1, "acc": 0.6},
        {"p_sp_ready": 0.85, "p_acc_ready": 0.85, "p_wr_ready": 0.8, "done_latency": (2, 30)},
    ),
    "pooling": (
        37,
        70,
        {"rows": 1, "1d": 2, "pool": 6, "config": 0.4},
        {"p_sp_ready": 0.8, "p_acc_ready": 0.8, "p_wr_ready": 0.5, "done_latency": (1, 6)},
    ),
    "full_speed": (41, 90, {}, {"p_cmd": 1.0, "done_latency": (3, 3)}),
}


@pytest.mark.parametrize("profile", list(PROFILES))
def test_random_programs_match_model(dim4, profile, tmp_path: Path):
    p, b = dim4
    seed, n, weights, env = PROFILES[profile]
    prog = make_program(p, seed, n, weights, **env)
    run = run_store(b, prog.stim, tmp_path)
    check(prog, run)
    assert len(run.writes) > 3 * n // 4  # the programs do write (not only garbage and configs)


@pytest.fixture(scope="module")
def dim4_dma() -> tuple[GemminiParams, ArrayBuild]:
    p = gemmini_params("gemmini-dim4")
    return p, build_store_dma_tb(p)


@pytest.mark.parametrize(("seed", "latency", "p_gap"), [(53, 4, 0.2), (59, 32, 0.0)])
def test_random_programs_through_the_dma(dim4_dma, seed, latency, p_gap, tmp_path: Path):
    """The same random programs with gemmini_dma between the controller and an amem port model (byte strobes,
    beats in flight, in-order responses): the memory image, the DMA's write trace and the completions."""
    p, b = dim4_dma
    env = {"p_sp_ready": 0.8, "p_acc_ready": 0.8, "p_cmd": 0.9}
    prog = make_program(p, seed, 80, {"rows": 2, "1d": 1, "pool": 1}, **env)
    prog.stim.amem = AmemModel(REGION, prog.init, max(8, p.dma_bytes), latency=latency, p_gap=p_gap)
    run = run_store(b, prog.stim, tmp_path)
    check(prog, run)
    assert run.extra["max_in_flight"] > 1  # the DMA did keep several beats in flight
    assert run.stall_cycles > 0  # a 32-cycle memory or port gaps hold the writes back


def test_config_completes_at_once_and_in_order(dim4, tmp_path: Path):
    """A config_st with nothing in flight completes the cycle after it is taken; one behind an mvout (and a
    garbage mvout behind that) completes after the mvout's writes, in order; the new scale and ReLU apply to the
    mvout after it only."""
    p, b = dim4
    d = p.dim
    relu_half = isa.CONFIG_ST | 1 << 2, f32(0.5) << 32 | 40
    acc_mvout = d << 48 | d << 32 | 1 << 31 | 8
    fixed = [
        (isa.CONFIG, isa.CONFIG_ST, f32(-1.0) << 32 | 24),
        (isa.MVOUT, REGION + 3, acc_mvout),
        (isa.CONFIG, *relu_half),
        (isa.MVOUT, REGION + 1001, 0xFFFF_FFFF),
        (isa.MVOUT, REGION + 2001, acc_mvout),
    ]
    prog = make_program(p, 3, 0, {}, fixed=fixed, p_cmd=1.0, done_latency=(10, 10))
    run = run_store(b, prog.stim, tmp_path)
    check(prog, run)
    assert run.dones[0][0] == run.accepts[0] + 1
    assert run.dones[2][0] == run.dones[1][0] + 1 and run.dones[3][0] == run.dones[2][0] + 1
    assert run.dones[1][0] == run.wr_dones[d - 1] + 1
    assert len({w.data for w in run.writes}) > 1  # negated then halved and ReLU'd rows differ


def test_streams_one_row_a_cycle(dim4, tmp_path: Path):
    """Back-to-back DIM x DIM scratchpad mvouts with the DMA always ready: one write request a cycle (the store
    reads ahead while writes are in flight), a fixed latency from command to done."""
    p, b = dim4
    d, n = p.dim, 24
    cmds = [(isa.MVOUT, REGION + 16 * d * i, d << 48 | d << 32 | (i * d) % SP_PRELOAD, i % 64) for i in range(n)]
    r = np.random.default_rng(5)
    rows = r.integers(-128, 128, (SP_PRELOAD, d), dtype=np.int8)
    stim = StoreStim(
        sp={i: pack([int(v) for v in rows[i]], 8) for i in range(SP_PRELOAD)},
        acc={},
        cmds=cmds,
        p_cmd=1.0,
        done_latency=(8, 8),
    )
    run = run_store(b, stim, tmp_path)
    assert len(run.writes) == n * d
    span = run.writes[-1].cycle - run.writes[0].cycle + 1
    assert span == n * d, f"{n * d} writes took {span} cycles"
    assert run.stall_cycles == 0 and run.bytes_written == n * d * d
    for w, i in zip(run.writes, range(n * d), strict=True):
        c, rr = divmod(i, d)
        assert w.data == rows[(c * d) % SP_PRELOAD + rr].tobytes()
    print(
        f"first write {run.writes[0].cycle - run.accepts[0]} cycles after the first accept; "
        f"{n * d} rows in {span} cycles; last done {run.dones[-1][0] - run.writes[-1].cycle} after the last write"
    )


@pytest.mark.parametrize("dim", [4, 8, 16])
def test_lint_wall_clean(dim):
    ensure_verilator_on_path()
    cmd = ["verilator", "--lint-only", "-Wall", "--top-module", "gemmini_store", f"-GDim={dim}", *map(str, RTL_SOURCES)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    # only this block's file: the shared package and the FPU's have warnings of their own
    lines = (res.stdout + res.stderr).splitlines()
    problems = [
        ln for ln in lines if ln.startswith("%") and (str(RTL_DIR / "gemmini_store.sv") in ln or "store.sv" in ln)
    ]
    errors = [ln for ln in lines if ln.startswith("%Error") and "due to" not in ln]
    assert not problems + errors, "\n".join(problems + errors)


@pytest.mark.slow
def test_random_programs_dim16(tmp_path: Path):
    """gemmini-dim16's sizes (DIM 16, 4 blocks of a row at most, 64-byte full-width rows), random environment."""
    p = gemmini_params("gemmini-dim16")
    b = build_store_tb(p)
    env = {"p_sp_ready": 0.8, "p_acc_ready": 0.7, "p_wr_ready": 0.7, "done_latency": (1, 20)}
    prog = make_program(p, 71, 80, {"rows": 3, "1d": 1, "pool": 1}, **env)
    run = run_store(b, prog.stim, tmp_path)
    check(prog, run)


def test_no_simulation_constructs():
    from pyslang.syntax import SyntaxTree
    from test_rtl_lint import violations  # the project's pyslang checker

    f = RTL_DIR / "gemmini_store.sv"
    assert not list(violations(SyntaxTree.fromFile(str(f))))
