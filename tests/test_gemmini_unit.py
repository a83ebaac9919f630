"""The Gemmini unit's top (sim/rtl/gemmini/gemmini_unit*.sv) against the functional model (sim/gemmini/model.py).

Decode: random instruction streams (every funct, config fields, local addresses at the memories' ends, DRAM
addresses at the memory map's edges, loop_ws with its configs) through gemmini_unit_decode, one a cycle, taken
when the decoder calls them legal; the model runs the same stream with rollback on GemminiIllegal (a refused
instruction leaves no trace, as the core's precise trap), and legality and reason (gm_illegal_e, mapped from the
model's message) must agree instruction by instruction. DIM 4 (gemmini-dim4) in the default tier.
"""

from __future__ import annotations

from collections import Counter

import pytest

from configs import load_soc
from sim.gemmini import isa
from sim.gemmini.model import GemminiModel
from sim.gemmini.params import GemminiParams, gemmini_params
from sim.tb.gemmini.build import ArrayBuild
from sim.tb.gemmini.unit_build import build_decode_tb, illegal_reasons, run_decode
from sim.tb.gemmini.unit_stim import MapMemory, model_verdicts, random_program

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
