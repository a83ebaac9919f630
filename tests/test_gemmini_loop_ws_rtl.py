"""The loop_ws unroller RTL (sim/rtl/gemmini/gemmini_loop_ws.sv) against the functional model's generator
(sim/gemmini/loop_ws.py ``LoopWs.commands``) and against the model running loop_ws itself.

Under cocotb (sim/tb/gemmini/loopws_tb.sv) several random legal loops (``LoopWs._check``'s rules; bounds up to
20 tiles so block moves split at MAX_BLOCK_LEN / MAX_BLOCK_LEN_ACC, every padding, bias or not, int8 or int32 D
(low_d), int8 or int32 C (full_c), no C, ex_accumulate, A or B transposed, empty loops that still advance the
scratchpad and accumulator halves) play back to back through one unroller with random gaps on both handshakes.
Each loop's emitted commands must be the model's multiset (the RTL interleaves the loads with the computes, the
model's generator puts them first), and running them in that order in a ``GemminiModel`` after the loops'
config_ld/st/ex must leave the scratchpad, accumulator and memory exactly as a second model that executes the
loop_ws instructions (so every compute comes after the loads it reads).
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from gemmini_support import reference as ref

from sim.gemmini import isa
from sim.gemmini.loop_ws import LoopWs
from sim.gemmini.model import GemminiIllegal, GemminiModel
from sim.gemmini.params import GemminiParams, gemmini_params
from sim.tb.gemmini.build import ArrayBuild
from sim.tb.gemmini.loopws_build import build_loopws_tb, run_loopws

pytestmark = pytest.mark.rtl

MEM_BASE = 0x8000_0000
MEM_SIZE = 1 << 20
Cmd = tuple[int, int, int]


@pytest.fixture(scope="module")
def dim4() -> tuple[GemminiParams, ArrayBuild]:
    p = gemmini_params("gemmini-dim4")
    return p, build_loopws_tb(p)


def random_loop(rng: random.Random, p: GemminiParams, slot: int) -> tuple[list[Cmd], list[Cmd]]:
    """(model-only configs: config_ex/ld/st, the loop's own commands: 5 configs + loop_ws), legal for ``p``."""
    d = p.dim
    while True:
        if rng.random() < 0.3:  # wide: B and C moves split at MAX_BLOCK_LEN, D at MAX_BLOCK_LEN_ACC
            ti, tj, tk = rng.randint(1, 2), rng.randint(12, 20), rng.randint(1, 3)
        else:
            ti, tj, tk = rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)
        if rng.random() < 0.05:
            ti = 0  # empty loop: no commands, the halves still move
        pad = [rng.randint(0, d - 1) for _ in range(3)]
        t = rng.choice([0, 0, 1, 2])
        a_t, b_t = t == 1, t == 2
        bias, store = rng.random() < 0.6, rng.random() < 0.85
        full_c, low_d, ex_acc = rng.random() < 0.4, rng.random() < 0.3, rng.random() < 0.2
        act = rng.randint(0, 1)
        m_, n_, k_ = max(ti * d - pad[0], 1), max(tj * d - pad[1], 1), max(tk * d - pad[2], 1)
        a_cols = m_ if a_t else k_
        b_cols = k_ if b_t else n_
        a_stride, b_stride = a_cols + rng.randint(0, 5), b_cols + rng.randint(0, 5)
        d_stride, c_stride = n_ + rng.randint(0, 3), n_ + rng.randint(0, 3)
        region = MEM_BASE + slot * 0x40000
        a_addr = region + rng.randint(0, 63)
        b_addr = region + 0x10000 + rng.randint(0, 63)
        d_addr = region + 0x20000 + rng.randint(0, 63) if bias else 0
        c_addr = region + 0x30000 + rng.randint(0, 63) if store else 0
        rs1 = int(ex_acc) | int(full_c) << 1 | int(low_d) << 2 | act << 8
        rs2 = int(a_t) | int(b_t) << 1
        loop = [
            (isa.LOOP_WS_CONFIG_BOUNDS, pad[0] | pad[1] << 16 | pad[2] << 32, ti | tj << 16 | tk << 32),
            (isa.LOOP_WS_CONFIG_ADDRS_AB, a_addr, b_addr),
            (isa.LOOP_WS_CONFIG_ADDRS_DC, d_addr, c_addr),
            (isa.LOOP_WS_CONFIG_STRIDES_AB, a_stride, b_stride),
            (isa.LOOP_WS_CONFIG_STRIDES_DC, d_stride, c_stride),
            (isa.LOOP_WS, rs1, rs2),
        ]
        probe = LoopWs()
        for f, x, y in loop[:-1]:
            probe.configure(f, x, y)
        try:
            probe._check(rs1, rs2, p)
        except GemminiIllegal:
            continue
        eb_c, eb_d = 4 if full_c else 1, 1 if low_d else 4
        scale = rng.choice([1.0, 0.5, 1 / 16])
        setup = [
            (isa.CONFIG, *ref.config_ex(dataflow=1, a_t=a_t, b_t=b_t)),
            (isa.CONFIG, *ref.config_st(c_stride * eb_c, act=act, scale=scale)),
            (isa.CONFIG, *ref.config_ld(a_stride, idx=0, block_stride=d, scale=rng.choice([1.0, 0.5]))),
            (isa.CONFIG, *ref.config_ld(b_stride, idx=1, block_stride=d)),
            (isa.CONFIG, *ref.config_ld(d_stride * eb_d, idx=2, block_stride=d, shrink=low_d)),  # int8 D
        ]
        return setup, loop


def expected_streams(p: GemminiParams, loops: list[list[Cmd]]) -> list[list[Cmd]]:
    gen = LoopWs()
    out = []
    for loop in loops:
        for f, a, b in loop[:-1]:
            gen.configure(f, a, b)
        _, rs1, rs2 = loop[-1]
        out.append([(f, a & (2**64 - 1), b & (2**64 - 1)) for f, a, b in gen.commands(rs1, rs2, p)])
    return out


def model_state_check(p: GemminiParams, setups: list[list[Cmd]], loops: list[list[Cmd]], rtl: list[list[Cmd]]):
    rng = np.random.default_rng(5)
    image = rng.integers(0, 256, MEM_SIZE, dtype=np.uint8).tobytes()
    mem_a, mem_b = ref.FlatMemory(MEM_SIZE, MEM_BASE), ref.FlatMemory(MEM_SIZE, MEM_BASE)
    mem_a.buf[:], mem_b.buf[:] = image, image
    by_insn, by_rtl = GemminiModel(p, mem_a), GemminiModel(p, mem_b)
    for setup, loop, cmds in zip(setups, loops, rtl, strict=True):
        for f, a, b in setup:
            by_insn.execute(f, a, b)
            by_rtl.execute(f, a, b)
        for f, a, b in loop:
            by_insn.execute(f, a, b)
        by_rtl.run(cmds)
    np.testing.assert_array_equal(by_rtl.sp, by_insn.sp)
    np.testing.assert_array_equal(by_rtl.acc, by_insn.acc)
    assert mem_a.buf == mem_b.buf, "memory differs"
    assert mem_a.buf != bytearray(image) or not any(lp[2][2] for lp in loops), "no loop stored anything"


def run_and_check(p, b, tmp_path: Path, seed: int, n_loops: int, gaps: float):
    rng = random.Random(seed)
    setups, loops = zip(*(random_loop(rng, p, i % 4) for i in range(n_loops)), strict=True)
    want = expected_streams(p, list(loops))
    stim = [c for lp in loops for c in lp]
    r = run_loopws(b, stim, tmp_path, seed=seed, p_in_gap=gaps, p_out_stall=gaps)
    assert len(r.accepted) == len(stim), f"only {len(r.accepted)} of {len(stim)} input commands taken"
    assert len(r.out) == sum(map(len, want)), f"{len(r.out)} commands, the model's loops have {sum(map(len, want))}"
    per_loop, k = [], 0
    for n, s in enumerate(want):
        got = r.out[k : k + len(s)]
        missing, extra = Counter(s) - Counter(got), Counter(got) - Counter(s)
        assert not missing and not extra, f"loop {n}: not the model's multiset; missing {missing}, extra {extra}"
        per_loop.append(got)
        k += len(s)
    # the RTL's order run in the model must leave what the loop_ws instructions leave
    model_state_check(p, list(setups), list(loops), per_loop)
    return r, want, loops


@pytest.mark.parametrize("seed", [1, 2])
def test_random_loops_match_model(dim4, tmp_path: Path, seed: int, record_property) -> None:
    p, b = dim4
    r, want, _ = run_and_check(p, b, tmp_path, seed, 10, gaps=0.3)
    record_property("commands", len(r.out))
    record_property("cycles", r.cycles)


def test_one_command_a_cycle(dim4, tmp_path: Path, record_property) -> None:
    """Without stalls a loop's commands leave one a cycle from the cycle after loop_ws is taken."""
    p, b = dim4
    r, want, loops = run_and_check(p, b, tmp_path, 9, 6, gaps=0.0)
    k = 0
    loop_at = [r.accepted[6 * i + 5] for i in range(len(loops))]
    for s, t0 in zip(want, loop_at, strict=True):
        cyc = r.out_cycles[k : k + len(s)]
        assert cyc == list(range(t0 + 1, t0 + 1 + len(s))), "a bubble inside a loop"
        k += len(s)
    record_property("commands_per_cycle_in_loop", 1.0)


@pytest.mark.parametrize("config", ["gemmini-dim4", "gemmini-dim16"])
def test_lint_wall_clean_and_synthesizable(config: str) -> None:
    """Verilator -Wall clean at the config's sizes, and none of the constructs sim/rtl forbids."""
    import subprocess

    from pyslang.syntax import SyntaxTree
    from test_rtl_lint import violations

    from sim.tb.gemmini.loopws_build import RTL_SOURCES, parameters
    from sim.verilator_tool import ensure_verilator_on_path

    ensure_verilator_on_path()
    params = [f"-G{k}={v}" for k, v in parameters(gemmini_params(config)).items()]
    cmd = ["verilator", "--lint-only", "-Wall", "--top-module", "gemmini_loop_ws", *params, *map(str, RTL_SOURCES)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    problems = [ln for ln in (r.stdout + r.stderr).splitlines() if ln.startswith("%")]
    assert not problems, "\n".join(problems)
    assert not violations(SyntaxTree.fromFile(str(RTL_SOURCES[-1])))


@pytest.mark.slow
def test_random_loops_match_model_dim16(tmp_path: Path, record_property) -> None:
    """gemmini-dim16 (MAX_BLOCK_LEN 4, MAX_BLOCK_LEN_ACC 1: every D and full-C tile is its own move)."""
    p = gemmini_params("gemmini-dim16")
    r, _, _ = run_and_check(p, build_loopws_tb(p), tmp_path, 4, 10, gaps=0.3)
    record_property("commands", len(r.out))
