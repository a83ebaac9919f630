"""The Gemmini unit's top (sim/rtl/gemmini/gemmini_unit*.sv) against the functional model (sim/gemmini/model.py).

Decode: random instruction streams (every funct, config fields, local addresses at the memories' ends, DRAM
addresses at the memory map's edges, loop_ws with its configs) through gemmini_unit_decode, one a cycle, taken
when the decoder calls them legal; the model runs the same stream with rollback on GemminiIllegal (a refused
instruction leaves no trace, as the core's precise trap), and legality and reason (gm_illegal_e, mapped from the
model's message) must agree instruction by instruction. DIM 4 (gemmini-dim4) in the default tier.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from configs import load_soc
from sim.gemmini import isa
from sim.gemmini.model import GemminiModel
from sim.gemmini.params import GemminiParams, gemmini_params
from sim.tb.gemmini.build import ArrayBuild
from sim.tb.gemmini.unit_build import build_decode_tb, build_unit_tb, illegal_reasons, run_decode, run_unit
from sim.tb.gemmini.unit_stim import MapMemory, loop_program, model_verdicts, random_program, tile_program

pytestmark = pytest.mark.rtl

SOC = "gemmini-dim4"


def regions(soc: str) -> list[tuple[int, int]]:
    m = load_soc(soc).memory_map
    return [(m.scalar_base, m.scalar_size), (m.ddr_base, m.ddr_size), (m.sram_base, m.sram_size)]


@pytest.fixture(scope="module")
def decode4() -> tuple[GemminiParams, ArrayBuild]:
    p = gemmini_params(SOC)
    return p, build_decode_tb(p, SOC)


def _describe(i: int, insn: tuple[int, int, int]) -> str:
    f, a, b = insn
    return f"#{i} {isa.FUNCT_NAMES.get(f, f)} rs1={a:#x} rs2={b:#x}"


@pytest.mark.parametrize("seed", [1, 2])
def test_decode_legality_matches_model(decode4, tmp_path, seed):
    p, build = decode4
    regs = regions(SOC)
    insns, expect = model_verdicts(GemminiModel(p, MapMemory(regs)), random_program(p, regs, 2500, seed))
    got, _ = run_decode(build, insns, tmp_path)
    names = {v: k for k, v in illegal_reasons().items()}
    for i, (insn, (legal, reason, msg), (g_legal, g_reason)) in enumerate(zip(insns, expect, got, strict=True)):
        assert (g_legal, g_reason) == (legal, reason), (
            f"{_describe(i, insn)}: RTL says {'legal' if g_legal else names[g_reason]}, the model "
            f"{'legal' if legal else names[reason] + ' (' + msg + ')'}"
        )
    # the stream reaches the checks (or the comparison proves little)
    seen = Counter(names[r] for ok, r, _ in expect if not ok)
    assert sum(ok for ok, _, _ in expect) > len(expect) // 3
    want = {
        "IllFunct",
        "IllLoopConv",
        "IllLdId",
        "IllCfgNorm",
        "IllStAct",
        "IllExAct",
        "IllExTranspose",
        "IllAccRange",
        "IllSpRange",
        "IllRows",
        "IllCols",
        "IllBlocks",
        "IllDmaRange",
        "IllLoopBounds",
    }
    assert want <= set(seen), f"never refused: {sorted(want - set(seen))}; seen {dict(seen)}"


# ---------------------------------------------------------------- the whole unit

WINDOW_OFF, WINDOW_SIZE = 0x1_0000, 0x8000


@pytest.fixture(scope="module")
def unit4() -> tuple[GemminiParams, ArrayBuild]:
    return gemmini_params(SOC), build_unit_tb(SOC)


def run_against_model(p: GemminiParams, build: ArrayBuild, prog, tmp_path, seed: int) -> dict:
    """Run ``prog`` on the RTL and on the model from the same memory; memory bytes, scratchpad and accumulator
    (rebuilt from the unit's write trace) and the useful MACs must agree."""
    regs = regions(SOC)
    base = load_soc(SOC).memory_map.ddr_base + WINDOW_OFF
    init = np.random.default_rng(seed).integers(0, 256, WINDOW_SIZE, dtype=np.uint8).tobytes()
    mem = MapMemory(regs)
    mem.data.update({base + i: v for i, v in enumerate(init)})
    model = GemminiModel(p, mem)
    kept, expect = model_verdicts(model, prog)
    res = run_unit(build, SOC, kept, [(base, init)], tmp_path)
    assert not res["timeout"], f"the unit did not finish: {len(res['cmps'])} of {len(kept)} completed"
    assert [v[0] for v in res["verdicts"]] == [1 - e[0] for e in expect], "illegal flags differ from the model's"
    legal = sum(e[0] for e in expect)
    assert [c[0] for c in res["cmps"]] == [i & 0xFF for i in range(legal)], "completions not one per instruction"
    d = p.dim
    sp = np.zeros((p.sp_rows, d), dtype=np.int8)
    for _, row, mask, data, _ in res["sp"]:
        v = int(data, 16)
        for e in range(d):
            if mask >> e & 1:
                sp[row, e] = np.int8(np.uint8((v >> (8 * e)) & 0xFF).view(np.int8))
    acc = np.zeros((p.acc_rows, d), dtype=np.int32)
    for _, row, _, data, _ in res["acc"]:
        v = int(data, 16)
        acc[row] = np.array([(v >> (32 * e)) & 0xFFFF_FFFF for e in range(d)], dtype=np.uint32).view(np.int32)
    for r in np.nonzero((sp != model.sp).any(axis=1))[0][:1]:
        raise AssertionError(f"scratchpad row {r}: RTL {sp[r].tolist()} model {model.sp[r].tolist()}")
    for r in np.nonzero((acc != model.acc).any(axis=1))[0][:1]:
        raise AssertionError(f"accumulator row {r}: RTL {acc[r].tolist()} model {model.acc[r].tolist()}")
    got = bytes.fromhex(res["windows"][0][1])
    want = bytes(mem.data.get(base + i, 0) for i in range(WINDOW_SIZE))
    if got != want:
        i = next(i for i in range(WINDOW_SIZE) if got[i] != want[i])
        raise AssertionError(f"memory differs first at {base + i:#x}: RTL {got[i]:#04x} model {want[i]:#04x}")
    assert res["macs"] == model.counters["gemmini_macs"]
    return res


@pytest.mark.parametrize("dataflow", [isa.WS, isa.OS], ids=["ws", "os"])
@pytest.mark.parametrize("seed", [1, 2])
def test_unit_tiles_match_model(unit4, tmp_path, dataflow, seed):
    p, build = unit4
    base = load_soc(SOC).memory_map.ddr_base + WINDOW_OFF
    prog = tile_program(p, seed * 7 + dataflow, base, WINDOW_SIZE, dataflow, tiles=6)
    run_against_model(p, build, prog, tmp_path, seed)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_unit_loop_ws_matches_model(unit4, tmp_path, seed):
    p, build = unit4
    base = load_soc(SOC).memory_map.ddr_base + WINDOW_OFF
    run_against_model(p, build, loop_program(p, seed, base, WINDOW_SIZE), tmp_path, seed)
