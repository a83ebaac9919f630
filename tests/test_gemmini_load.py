"""The Gemmini load controller RTL (sim/rtl/gemmini/gemmini_load.sv) against the functional model.

Under cocotb (sim/tb/gemmini/load_tb.sv) the controller writes into the real scratchpad and accumulator
(gemmini_spad, gemmini_acc), its DMA read port is answered by a Python DMA model (random latency, random
handshakes, responses in request order) from a random memory image, and the memories' write readies toggle at
random (the top's arbitration). Random config_ld + mvin / mvin2 / mvin3 programs (shrink, multi-block moves with
every block stride, unaligned DRAM addresses and strides, scales other than 1.0 with rounding ties, saturation,
NaN and infinities, pixel repeats, accumulation into the accumulator with int32 wrap, the zero writer, the
garbage address, empty moves) run on the RTL and on sim/gemmini/model.py over the same memory; then every
scratchpad and accumulator row must be equal, the completions must come back in order with the commands' ids, every
row write must carry its command's id and precede its completion, the byte counter must equal the model's
``dma_bytes_read``, and reads must overlap (more than one request in flight). DIM 4 (gemmini-dim4's sizes) runs in
the default tier, DIM 16 in the slow one.
"""

from __future__ import annotations

import random
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

from sim.gemmini import isa
from sim.gemmini.model import GemminiIllegal, GemminiModel
from sim.gemmini.params import ACC_BYTES, GemminiParams, gemmini_params
from sim.tb.gemmini.build import ArrayBuild
from sim.tb.gemmini.load_build import (
    RTL_SOURCES,
    AmemKnobs,
    DmaKnobs,
    LoadRun,
    build_load_dma_tb,
    build_load_tb,
    run_load,
)
from sim.tb.gemmini.stream import unpack
from sim.verilator_tool import ensure_verilator_on_path

pytestmark = pytest.mark.rtl

MEM_BASE = 0x4000_0000
MEM_SIZE = 16 * 1024
MVIN_FUNCT = (isa.MVIN, isa.MVIN2, isa.MVIN3)  # by mvin id (config_ld rs1[4:3])
Cmd = tuple[int, int, int]


def f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


# Scales: ties (x * 0.5, x * 1.5, x * 2.5 of odd x land on .5), saturation, NaN, infinities, subnormals, signs.
SCALES = [
    f32(v) for v in (0.5, 1.5, 2.5, -0.5, -1.5, 0.25, 0.75, 0.125, 3.0, -3.0, 127.5, 1e-3, 1e10, -1e10, -0.0, 0.0)
] + [0x7FC0_0000, 0x7F80_0000, 0xFF80_0000, 0x0000_0001, 0x3F80_0001, 0x3F7F_FFFF]


class ImageMemory:
    """Main memory for the model: a byte image at MEM_BASE (the DMA only reads)."""

    def __init__(self, data: bytes):
        self.data = data

    def read(self, addr: int, size: int) -> bytes:
        off = addr - MEM_BASE
        assert 0 <= off and off + size <= len(self.data), f"read {addr:#x}+{size} outside the image"
        return self.data[off : off + size]

    def write(self, addr: int, data: bytes) -> None:
        raise AssertionError("the load controller never writes main memory")


def memory_image(rng: random.Random) -> bytes:
    """Random bytes with int32 extremes sprinkled in (accumulations that wrap)."""
    data = bytearray(rng.randbytes(MEM_SIZE))
    for _ in range(MEM_SIZE // 64):
        off = rng.randrange(0, MEM_SIZE - 4)
        data[off : off + 4] = struct.pack("<i", rng.choice([2**31 - 1, -(2**31), 2**31 - 2, -(2**31) + 1, -1]))
    return bytes(data)


def config_ld(rng: random.Random, p: GemminiParams, idx: int, scale: int | None = None, repeats: bool = False) -> Cmd:
    d = p.dim
    shrink = rng.random() < 0.35
    reps = rng.randint(2, 9) if repeats and rng.random() < 0.85 else rng.choice([1] * 6 + [0] + [2, 3, 4, 5, 7])
    r = rng.random()
    bstride = d if r < 0.5 else rng.randrange(0, 2 * d + 3) if r < 0.8 else rng.randrange(d, 80)
    stride = rng.choice([d, 4 * d, rng.randrange(0, 200), rng.randrange(1, 64) * 4, 4 * d * p.max_block_len_acc])
    if scale is None:
        scale = f32(1.0) if rng.random() < 0.45 else rng.choice(SCALES + [rng.getrandbits(32)])
    rs1 = isa.CONFIG_LD | shrink << 2 | idx << 3 | reps << 8 | bstride << 16 | scale << 32
    return isa.CONFIG, rs1, stride


def _row_in_window(rng: random.Random, rows: int, span: int) -> int:
    """A start row whose span fits, mostly inside a few small windows (writes meet often, bank and half edges),
    sometimes right at row 0 or the scratchpad's half (where pixel-repeat copies are dropped)."""
    if rng.random() < 0.15:
        return max(0, min(rng.choice([0, 1, 2, rows // 2 - 1, rows // 2, rows // 2 + 1, rows // 2 + 2]), rows - span))
    w = rng.choice([(0, 40), (rows // 2 - 24, rows // 2 + 24), (rows // 4 - 8, rows // 4 + 8), (rows - 40, rows)])
    return max(0, min(rng.randrange(*w), rows - span))


def mvin(rng: random.Random, p: GemminiParams, model: GemminiModel, idx: int) -> Cmd:
    d, cfg = p.dim, model.ld[idx]
    to_acc = rng.random() < (0.0 if cfg.pixel_repeats > 1 else 0.45)
    int32 = to_acc and not cfg.shrink
    eb = ACC_BYTES if int32 else 1
    max_blocks = p.max_block_len_acc if int32 else p.max_block_len
    rows = rng.randint(1, d)
    cols = rng.randint(1, d) if rng.random() < 0.5 else rng.randint(1, max_blocks * d)
    blocks = -(-cols // d)
    span = (blocks - 1) * cfg.block_stride + rows
    limit = p.acc_rows if to_acc else p.sp_rows
    if span > limit:
        cols, blocks, span = min(cols, d), 1, rows
    row = _row_in_window(rng, limit, span)
    if to_acc:
        raw = 1 << 31 | (1 << 30 if rng.random() < 0.5 else 0) | row
    else:
        raw = row | rng.getrandbits(2) << 29  # bits 30 and 29 mean nothing for the scratchpad
    r = rng.random()
    if r < 0.04:
        raw = isa.GARBAGE_ADDR
    elif r < 0.07:
        rows = 0
    elif r < 0.09:
        cols = 0
    need = (max(rows, 1) - 1) * cfg.stride + max(cols, 1) * eb
    dram = 0 if rng.random() < 0.08 else MEM_BASE + rng.randrange(0, MEM_SIZE - need)
    return MVIN_FUNCT[idx], dram, raw | cols << 32 | rows << 48


def program(
    rng: random.Random,
    p: GemminiParams,
    mem: ImageMemory,
    n: int,
    scales: list[int] | None = None,
    repeats: bool = False,
) -> list[Cmd]:
    """``n`` legal commands: config_lds and mvins of all three ids (the model, run alongside, says what is legal)."""
    model = GemminiModel(p, mem)
    cmds: list[Cmd] = []
    while len(cmds) < n:
        idx = rng.randrange(3)
        if rng.random() < 0.22:
            c = config_ld(rng, p, idx, rng.choice(scales) if scales else None, repeats)
        else:
            c = mvin(rng, p, model, idx)
        try:
            with np.errstate(invalid="ignore", over="ignore"):  # NaN / infinite scales are part of the test
                model.execute(*c)
        except GemminiIllegal:
            continue
        cmds.append(c)
    return cmds


def check(p: GemminiParams, cmds: list[Cmd], mem: ImageMemory, run: LoadRun) -> GemminiModel:
    """The RTL run against the model on the same commands and memory; returns the model."""
    assert run.finished, f"the controller did not finish within {run.cycles} cycles ({len(run.dones)} done)"
    model = GemminiModel(p, mem)
    with np.errstate(invalid="ignore", over="ignore"):
        for c in cmds:
            model.execute(*c)
    ids = [i % 64 for i in range(len(cmds))]
    # completions: every command, in order, at most one a cycle
    assert [i for _, i in run.dones] == ids
    assert all(a[0] < b[0] for a, b in zip(run.dones, run.dones[1:], strict=False))
    # every row write carries its command's id, in command order, before that command's completion
    k = 0
    for cyc, kind, wid in run.writes:
        while k < len(cmds) and not (ids[k] == wid and run.dones[k][0] > cyc):
            k += 1
        assert k < len(cmds), f"write at cycle {cyc} with id {wid} belongs to no pending command"
        funct, _, rs2 = cmds[k]
        assert funct in MVIN_FUNCT and kind == (rs2 >> 31 & 1), f"write at cycle {cyc} to the wrong memory"
    # requests: tags count up, lengths within a request's limit
    for i, (_, _, n, tag) in enumerate(run.reqs):
        assert tag == i % 256 and 1 <= n <= p.dma_max_bytes
    assert run.bytes_counter == model.counters["dma_bytes_read"]
    assert run.stall_cycles == run.stall_seen
    d = p.dim
    got_sp = np.array([unpack(v, 8, d) for v in run.sp], dtype=np.int64).reshape(p.sp_rows, d)
    got_acc = np.array([unpack(v, 32, d) for v in run.acc], dtype=np.int64).reshape(p.acc_rows, d)
    bad_sp = np.nonzero((got_sp != model.sp).any(axis=1))[0]
    bad_acc = np.nonzero((got_acc != model.acc).any(axis=1))[0]
    assert not len(bad_sp), f"scratchpad rows {bad_sp[:8].tolist()} differ, first: {got_sp[bad_sp[0]]} vs " + str(
        model.sp[bad_sp[0]]
    )
    assert not len(bad_acc), f"accumulator rows {bad_acc[:8].tolist()} differ, first: {got_acc[bad_acc[0]]} vs " + str(
        model.acc[bad_acc[0]]
    )
    return model


def with_ids(cmds: list[Cmd]) -> list[tuple[int, int, int, int]]:
    return [(f, rs1, rs2, i % 64) for i, (f, rs1, rs2) in enumerate(cmds)]


@pytest.fixture(scope="module")
def dim4() -> tuple[GemminiParams, ArrayBuild]:
    p = gemmini_params("gemmini-dim4")
    return p, build_load_tb(p)


def _random_run(p: GemminiParams, b: ArrayBuild, seed: int, n: int, knobs: DmaKnobs, tmp: Path, **kw) -> LoadRun:
    rng = random.Random(seed)
    mem = ImageMemory(memory_image(rng))
    cmds = program(rng, p, mem, n, **kw)
    run = run_load(b, p, with_ids(cmds), MEM_BASE, mem.data, knobs, tmp, seed=seed)
    model = check(p, cmds, mem, run)
    assert run.max_inflight > 1, "DMA reads never overlapped"
    assert model.counters["mvin_rows"] > 0
    return run


@pytest.mark.parametrize("seed", [11, 12])
def test_random_programs(dim4, tmp_path, seed):
    """Everything mixed, a DMA with random latency 1..12 and 80 % handshakes."""
    p, b = dim4
    _random_run(p, b, seed, 260, DmaKnobs(), tmp_path)


def test_back_pressure(dim4, tmp_path):
    """Busy memory ports (25 % ready), a slow DMA, few requests in flight: nothing is lost or reordered. Some
    responses carry an access error: each one pulses rd_err_o once and its data are still written."""
    p, b = dim4
    knobs = DmaKnobs(
        lat_min=2, lat_max=30, p_req_ready=0.5, p_resp_valid=0.5, p_sp_ready=0.25, p_acc_ready=0.3, p_cmd=0.9, max_out=4
    )
    knobs.p_err = 0.05
    run = _random_run(p, b, 21, 200, knobs, tmp_path)
    assert run.stall_cycles > 0
    assert run.err_pulses == run.errs_sent > 0


def test_scales(dim4, tmp_path):
    """int8 mvins into the scratchpad and shrunk into the accumulator under every scale of SCALES (ties, saturation,
    NaN, infinities, subnormals) and random fp32 bit patterns."""
    p, b = dim4
    _random_run(
        p,
        b,
        31,
        260,
        DmaKnobs(p_sp_ready=1.0, p_acc_ready=1.0),
        tmp_path,
        scales=SCALES + [random.Random(5).getrandbits(32) for _ in range(8)],
    )


def test_pixel_repeats(dim4, tmp_path):
    """Mostly 2..9 pixel repeats (copies k rows up and k x cols columns right, cut at DIM, dropped below row 0 or
    the scratchpad's half), scratchpad mvins started right at those edges, blocks that meet (split commands)."""
    p, b = dim4
    _random_run(p, b, 61, 260, DmaKnobs(), tmp_path, repeats=True)


@pytest.mark.parametrize(
    ("rows", "blocks", "to_acc"),
    [(4, 1, False), (1, 1, False), (4, 4, False), (4, 1, True), (2, 4, True)],
    ids=["4x4-sp", "1x4-sp", "4x16-sp", "4x4-acc", "2x16-acc"],
)
def test_throughput_and_overlap(dim4, tmp_path, rows, blocks, to_acc):
    """Back-to-back mvins of one shape (DIM-column blocks, unaligned DRAM rows) with a DMA of latency 10 that is
    always ready: one row write a cycle in steady state (a DRAM row of b blocks takes b cycles), and the reads of
    later rows and commands overlap the responses of earlier ones."""
    p, b = dim4
    d, rng = p.dim, random.Random(41)
    mem = ImageMemory(memory_image(rng))
    eb = ACC_BYTES if to_acc else 1
    cols = blocks * d
    n = 256 // (rows * blocks)
    limit = p.acc_rows if to_acc else p.sp_rows
    cmds: list[Cmd] = [
        (
            isa.MVIN,
            MEM_BASE + 3 + i * rows * cols * eb,
            (1 << 31 if to_acc else 0) | (i * rows * blocks) % (limit - rows * blocks) | cols << 32 | rows << 48,
        )
        for i in range(n)
    ]
    if blocks > 1:  # rows * eb * cols apart in DRAM; blocks of a row after one another
        cmds.insert(0, (isa.CONFIG, isa.CONFIG_LD | rows << 16, cols * eb))
    knobs = DmaKnobs(10, 10, 1.0, 1.0, 1.0, 1.0, 1.0, 16)
    run = run_load(b, p, with_ids(cmds), MEM_BASE, mem.data, knobs, tmp_path)
    check(p, cmds, mem, run)
    writes = n * rows * blocks
    assert len(run.writes) == writes
    span = run.dones[-1][0] - run.accepts[0]
    print(
        f"DIM {d} {rows}x{cols} {'acc' if to_acc else 'sp'}: {n} mvins, {writes} row writes in {span} cycles "
        f"({span / writes:.3f} a write, {span / (n * rows):.3f} a DRAM row), {run.max_inflight} requests in flight"
    )
    assert run.max_inflight >= (10 if blocks == 1 else 2)
    assert span < writes + 20  # the DMA latency once, then a write every cycle


def test_inflight_limit(dim4, tmp_path):
    """A DMA that would take 64 requests at latency 60: the controller keeps its own limit (MaxInflight = 32)."""
    p, b = dim4
    d = p.dim
    mem = ImageMemory(memory_image(random.Random(81)))
    cmds: list[Cmd] = [(isa.MVIN, MEM_BASE + 1 + i * d * d, (i * d) | d << 32 | d << 48) for i in range(40)]
    knobs = DmaKnobs(60, 60, 1.0, 1.0, 1.0, 1.0, 1.0, 64)
    run = run_load(b, p, with_ids(cmds), MEM_BASE, mem.data, knobs, tmp_path)
    check(p, cmds, mem, run)
    assert run.max_inflight == 32


@pytest.fixture(scope="module")
def dim4_dma() -> tuple[GemminiParams, ArrayBuild]:
    p = gemmini_params("gemmini-dim4")
    return p, build_load_dma_tb(p)


def test_with_gemmini_dma(dim4_dma, tmp_path):
    """A random program through the real DMA (gemmini_dma: 16-byte beats, any alignment, 16 beats in flight) and an
    amem port model of latency 4 with random gaps: the same memories as the model."""
    p, b = dim4_dma
    rng = random.Random(71)
    mem = ImageMemory(memory_image(rng))
    cmds = program(rng, p, mem, 200)
    amem = AmemKnobs(port_bytes=max(8, p.dma_bytes), latency=4, outstanding=16, p_mem_gap=0.2)
    run = run_load(b, p, with_ids(cmds), MEM_BASE, mem.data, DmaKnobs(), tmp_path, seed=71, amem=amem)
    check(p, cmds, mem, run)
    assert run.max_inflight > 1 and run.amem_max_beats > 1


def test_throughput_with_gemmini_dma(dim4_dma, tmp_path):
    """Back-to-back 4-row scratchpad mvins through the real DMA and an always-ready port of latency 4: rows of 4
    bytes at offsets 3, 7, 11, 15 of a 16-byte beat (the last one straddles two beats, so 5 beats for 4 rows)."""
    p, b = dim4_dma
    d = p.dim
    mem = ImageMemory(memory_image(random.Random(72)))
    n = 64
    cmds: list[Cmd] = [(isa.MVIN, MEM_BASE + 3 + i * d * d, (i * d) | d << 32 | d << 48) for i in range(n)]
    amem = AmemKnobs(port_bytes=max(8, p.dma_bytes), latency=4, outstanding=16)
    knobs = DmaKnobs(p_sp_ready=1.0, p_acc_ready=1.0, p_cmd=1.0)
    run = run_load(b, p, with_ids(cmds), MEM_BASE, mem.data, knobs, tmp_path, amem=amem)
    check(p, cmds, mem, run)
    span = run.dones[-1][0] - run.accepts[0]
    print(
        f"DIM {d} through gemmini_dma: {n * d} rows ({run.amem_beats} beats) in {span} cycles, "
        f"{span / (n * d):.3f} a row; {run.max_inflight} requests, {run.amem_max_beats} beats in flight at most"
    )
    assert run.amem_beats == n * 5
    assert span < run.amem_beats + 30  # the port's beat a cycle is the limit


def test_lint_wall_clean():
    """gemmini_load is Verilator -Wall clean at DIM 4, 8 and 16 (only its own file: the shared package and the
    FPU's units have warnings of their own)."""
    ensure_verilator_on_path()
    for dim, sizes in ((4, "gemmini-dim4"), (8, "gemmini-dim4"), (16, "gemmini-dim16")):
        q = gemmini_params(sizes)
        params = {
            "Dim": dim,
            "SpRows": q.sp_rows,
            "AccRows": q.acc_rows,
            "DmaMaxBytes": q.dma_max_bytes,
            "MaxBlockLen": max(1, q.dma_max_bytes // dim),
            "MaxBlockLenAcc": max(1, q.dma_max_bytes // (4 * dim)),
        }
        cmd = ["verilator", "--lint-only", "-Wall", "--top-module", "gemmini_load"]
        cmd += [f"-G{k}={v}" for k, v in params.items()] + [str(s) for s in RTL_SOURCES]
        res = subprocess.run(cmd, capture_output=True, text=True)
        lines = (res.stdout + res.stderr).splitlines()
        problems = [ln for ln in lines if ln.startswith("%") and "gemmini_load.sv" in ln]
        errors = [ln for ln in lines if ln.startswith("%Error") and "due to" not in ln]
        assert not problems + errors, f"DIM {dim}:\n" + "\n".join(problems + errors)


@pytest.mark.slow
def test_random_programs_dim16(tmp_path):
    p = gemmini_params("gemmini-dim16")
    b = build_load_tb(p)
    _random_run(p, b, 51, 200, DmaKnobs(), tmp_path)
