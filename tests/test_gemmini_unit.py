"""The Gemmini unit's top (sim/rtl/gemmini/gemmini_unit*.sv) against the functional model (sim/gemmini/model.py).

Decode: random instruction streams (every funct, config fields, local addresses at the memories' ends, DRAM
addresses at the memory map's edges, loop_ws with its configs) through gemmini_unit_decode, one a cycle, taken
when the decoder calls them legal; the model runs the same stream with rollback on GemminiIllegal (a refused
instruction leaves no trace, as the core's precise trap), and legality and reason (gm_illegal_e, mapped from the
model's message) must agree instruction by instruction.

The whole unit (unit_tb): the programs of unit_programs.unit_programs (random WS / OS tile programs, loop_ws with
every field, the random streams) on the RTL and on the model from the same memory; refusals and their reasons,
completions, memory bytes, scratchpad, accumulator and MACs must agree. The counter instruction on RTL events.

gemmini-dim4 in the default tier; gemmini-dim16 (its memory sizes) in the slow tier (``-m slow``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import cache

import numpy as np
import pytest

from sim.gemmini import isa
from sim.gemmini.model import GemminiModel
from sim.gemmini.params import GemminiParams, gemmini_params
from sim.tb.gemmini.build import ArrayBuild
from sim.tb.gemmini.unit_build import (
    build_decode_tb,
    build_rob_tb,
    build_unit_tb,
    illegal_reasons,
    pack_sets,
    run_decode,
    run_rob,
    run_unit,
)
from sim.tb.gemmini.unit_programs import tile_program, unit_programs
from sim.tb.gemmini.unit_stim import WINDOW_SIZE, MapMemory, model_verdicts, random_program, regions, window_base

pytestmark = pytest.mark.rtl

SOC = "gemmini-dim4"
SOC16 = "gemmini-dim16"


@cache
def decode_bench(soc: str, dataflows: tuple[str, ...] | None = None) -> tuple[GemminiParams, ArrayBuild]:
    """The decoder of ``soc``'s unit, or of a variant with only ``dataflows`` (HasWs / HasOs from them)."""
    p = gemmini_params(soc)
    if dataflows is not None:
        p = replace(p, dataflows=dataflows)
    return p, build_decode_tb(p, soc)


def _describe(i: int, insn: tuple[int, int, int]) -> str:
    f, a, b = insn
    return f"#{i} {isa.FUNCT_NAMES.get(f, f)} rs1={a:#x} rs2={b:#x}"


@pytest.mark.parametrize(
    "soc, seed, dataflows",
    [
        pytest.param(SOC, 1, None, id="gemmini-dim4-1"),
        pytest.param(SOC, 2, None, id="gemmini-dim4-2"),
        pytest.param(SOC, 3, ("WS",), id="gemmini-dim4-ws-only-3"),
        pytest.param(SOC16, 1, None, marks=pytest.mark.slow, id="gemmini-dim16-1"),
        pytest.param(SOC16, 2, None, marks=pytest.mark.slow, id="gemmini-dim16-2"),
    ],
)
def test_decode_legality_matches_model(tmp_path, soc, seed, dataflows):
    """Also a WS-only variant of gemmini-dim4 (HasOs = 0), where config_ex with OS is refused (IllExDataflow)."""
    p, build = decode_bench(soc, dataflows)
    regs = regions(soc)
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
    # every reason but the reserved one and the dataflow one (both dataflows); the WS-only variant is for that one
    want = (
        set(illegal_reasons()) - {"IllNone", "IllLoopCmd", "IllExDataflow"} if dataflows is None else {"IllExDataflow"}
    )
    assert want <= set(seen), f"never refused: {sorted(want - set(seen))}; seen {dict(seen)}"


# ---------------------------------------------------------------- the whole unit


@cache
def unit_bench(soc: str) -> tuple[GemminiParams, ArrayBuild]:
    return gemmini_params(soc), build_unit_tb(soc)


def run_against_model(soc: str, prog, tmp_path, seed: int, macs: bool = True) -> dict:
    """Run ``prog`` on the RTL of ``soc`` and on the model from the same memory; memory bytes, scratchpad and
    accumulator (rebuilt from the unit's write trace) and the useful MACs must agree."""
    p, build = unit_bench(soc)
    base = window_base(soc)
    init = np.random.default_rng(seed).integers(0, 256, WINDOW_SIZE, dtype=np.uint8).tobytes()
    mem = MapMemory(regions(soc))
    mem.data.update({base + i: v for i, v in enumerate(init)})
    model = GemminiModel(p, mem)
    kept, expect = model_verdicts(model, prog)
    res = run_unit(build, soc, kept, [(base, init)], tmp_path)
    assert not res["timeout"], f"the unit did not finish: {len(res['cmps'])} of {len(kept)} completed"
    names = {v: k for k, v in illegal_reasons().items()}
    for i, (v, e) in enumerate(zip(res["verdicts"], expect, strict=True)):
        assert v[0] == 1 - e[0], (
            f"{_describe(i, kept[i])}: RTL {'refused' if v[0] else 'took'} it, the model "
            f"{'took it' if e[0] else 'refused it: ' + e[2]}"
        )
        assert not v[0] or v[1] == e[1], f"{_describe(i, kept[i])}: RTL reason {names[v[1]]}, model {e[2]}"
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
    res["model_macs"] = model.counters["gemmini_macs"]
    if macs:
        assert res["macs"] == res["model_macs"], "perf_o.macs summed differs from the model's gemmini_macs"
    return res


def unit_cases(kind: str) -> list:
    """(soc, program id) of every whole-unit program of ``kind`` (tiles, loop, features, random: unit_programs.unit_programs);
    DIM 16 is slow."""
    out = []
    for soc in (SOC, SOC16):
        marks = [pytest.mark.slow] if soc == SOC16 else []
        out += [pytest.param(soc, n, marks=marks, id=f"{soc}-{n}") for n in unit_programs(soc) if n.startswith(kind)]
    return out


@pytest.mark.parametrize("soc, name", unit_cases("tiles"))
def test_unit_tiles_match_model(tmp_path, soc, name):
    """Random WS / OS tile programs: mvin (scaled int8), mvin2, mvin3 (int32 or shrunk D), preload, computes,
    mvout (scaled, ReLU, full width), random transposes, activation, shift and C in either memory."""
    run_against_model(soc, unit_programs(soc)[name], tmp_path, int(name.rsplit("-", 1)[1]))


@pytest.mark.parametrize("soc, name", unit_cases("loop"))
def test_unit_loop_ws_matches_model(tmp_path, soc, name):
    """One loop_ws with random bounds, pads, D or not and the rs1 / rs2 fields (ex accumulate, full C, low D,
    activation, A or B transposed)."""
    run_against_model(soc, unit_programs(soc)[name], tmp_path, int(name.rsplit("-", 1)[1]))


@pytest.mark.parametrize("soc, name", unit_cases("features"))
def test_unit_features_match_model(tmp_path, soc, name):
    """Legal uses of what random streams rarely reach legally: pixel repeats, shrunk / scaled accumulator mvins,
    max-pooled mvouts (accumulator and scratchpad; window, stride, padding, ReLU, scale), 1-D mvouts, OS with
    C stride 0, WS with C and A strides of 2."""
    run_against_model(soc, unit_programs(soc)[name], tmp_path, int(name.rsplit("-", 1)[1]))


# ---------------------------------------------------------------- the ROB alone


def _rows_ov(a, b) -> bool:
    return a is not None and b is not None and a[0] == b[0] and a[1] < b[2] and b[1] < a[2]


def _dram_ov(a, b) -> bool:
    return a is not None and b is not None and a[0] < b[1] and b[0] < a[1]


def _conflict(o, e) -> bool:
    """Does younger ``e`` wait for older ``o`` (UNIT.md: RAW, WAR, WAW on rows; DRAM mvout/mvin either way)?"""
    (ord0, ord1, owr, odrd, odwr), (erd0, erd1, ewr, edrd, edwr) = o, e
    return (
        _rows_ov(owr, erd0)
        or _rows_ov(owr, erd1)
        or _rows_ov(ord0, ewr)
        or _rows_ov(ord1, ewr)
        or _rows_ov(owr, ewr)
        or _dram_ov(odwr, edrd)
        or _dram_ov(odrd, edwr)
    )


def rob_stream(seed: int, n: int):
    import random

    r = random.Random(seed)

    def rows():
        lo = r.randrange(0, 40)
        return (r.getrandbits(1), lo, lo + r.randrange(1, 9))

    def dram():
        lo = r.randrange(0, 200)
        return (lo, lo + r.randrange(1, 17))

    cmds = []
    for _ in range(n):
        ctl = r.choice((0, 0, 1, 1, 1, 2))
        if ctl == 0:  # mvin: writes rows, reads DRAM
            s = (None, None, rows(), dram() if r.random() < 0.8 else None, None)
        elif ctl == 1:  # preload / compute: reads rows, a preload writes C
            s = (
                rows() if r.random() < 0.9 else None,
                rows() if r.random() < 0.5 else None,
                rows() if r.random() < 0.4 else None,
                None,
                None,
            )
        else:  # mvout: reads rows, writes DRAM
            s = (rows(), None, None, None, dram())
        cmds.append((ctl, s, r.randrange(16)))
    return cmds


@pytest.fixture(scope="module")
def rob32() -> ArrayBuild:
    return build_rob_tb(32)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rob_orders_conflicts_and_overlaps_the_rest(rob32, tmp_path, seed):
    cmds = rob_stream(seed, 400)
    rec = run_rob(rob32, [(c, pack_sets(*s), t) for c, s, t in cmds], tmp_path, seed)
    assert all(x[2] >= 0 and x[3] >= 0 for x in rec), "a command was never issued or never done"
    for c in range(3):
        issued = [rec[i][2] for i, cmd in enumerate(cmds) if cmd[0] == c]
        assert issued == sorted(issued), f"controller {c} got its commands out of order"
    overlapped = conflicts = 0
    for e in range(len(cmds)):
        for o in range(max(0, e - 32), e):
            if cmds[o][0] == cmds[e][0]:
                continue
            if _conflict(cmds[o][1], cmds[e][1]):
                conflicts += 1
                assert rec[e][2] > rec[o][3], (
                    f"command {e} (ctl {cmds[e][0]}) issued at {rec[e][2]} before the older conflicting command "
                    f"{o} (ctl {cmds[o][0]}) was done at {rec[o][3]}"
                )
            elif rec[e][2] < rec[o][3]:
                overlapped += 1
    # independent commands of different controllers run at the same time (many pairs, not a lucky few)
    assert conflicts > len(cmds), f"only {conflicts} conflicting pairs: the stream proves little"
    assert overlapped > len(cmds), f"only {overlapped} independent pairs overlapped"


def test_unit_counter_reads_rtl_events(tmp_path):
    """The counter instruction (funct 126) writes rd: counter 2 set to mesh-busy cycles (event 3), counter 5 to the
    external DMA-bytes-read counter (4); after a WS tile program both read above zero and below the run's cycles
    (bytes: at most what the mvins asked for), a reset zeroes them."""
    p, build = unit_bench(SOC)
    base = window_base(SOC)
    cfg_mesh = (1 << 3) | (2 << 4) | (3 << 12)
    cfg_bytes = (1 << 3) | (5 << 4) | (4 << 12) | (1 << 31)
    prog = [(isa.COUNTER, cfg_mesh, 0), (isa.COUNTER, cfg_bytes, 0)]
    prog += tile_program(p, 5, base, WINDOW_SIZE, isa.WS, tiles=8)
    prog += [(isa.COUNTER, 2 << 4, 0), (isa.COUNTER, 5 << 4, 0), (isa.COUNTER, 1, 0), (isa.COUNTER, 2 << 4, 0)]
    init = bytes(WINDOW_SIZE)
    res = run_unit(build, SOC, prog, [(base, init)], tmp_path)
    assert not res["timeout"]
    cmps = res["cmps"]
    assert all(c[1] == 1 for c in cmps[-4:]) and cmps[0][1] == 1  # x_we on every counter instruction
    mesh, nbytes, after_reset = cmps[-4][2], cmps[-3][2], cmps[-1][2]
    mvin_bytes = sum(((a >> 48) & 0xFFFF) * ((a >> 32) & 0xFFFF) * 4 for f, _, a in prog if f in (1, 2, 14))
    assert 0 < mesh < res["cycles"]
    assert 0 < nbytes <= mvin_bytes
    assert after_reset < mesh


@pytest.mark.parametrize("soc, name", unit_cases("random"))
def test_unit_random_streams_match_model(tmp_path, soc, name):
    """The decode test's random streams (every funct and field, legal and not, random scales, wild addresses,
    loops; a compute after every preload) through the whole unit: the same refusals with the same reasons, no
    hang, the same memories and MACs as the model."""
    run_against_model(soc, unit_programs(soc)[name], tmp_path, int(name.rsplit("-", 1)[1]))
