"""Which fields the functional model reads, found by probing it (for sim/rtl/gemmini/gen_coverage.py).

Each instruction kind has a few probe programs: a legal prefix that sets the configs up, the instruction under
probe, and a suffix that makes its effect visible (the compute after a preload, a flush that writes an OS
result). The model starts from random scratchpad, accumulator and memory bytes. A field is *read* when setting
it to another value changes something: the verdict, rd, the memories or any config register. The reasons of the
refusals the probes draw are named with gm_illegal_e (unit_build.model_reason).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from functools import cache

import numpy as np

from sim.gemmini import isa
from sim.gemmini.model import GemminiIllegal, GemminiModel
from sim.gemmini.params import GemminiParams
from sim.tb.gemmini.unit_build import illegal_reasons, model_reason
from sim.tb.gemmini.unit_fields import Field
from sim.tb.gemmini.unit_stim import GARBAGE, MapMemory, regions, rs, window_base

Insn = tuple[int, int, int]
Probe = tuple[list[Insn], Insn, list[Insn]]  # prefix, the instruction probed, suffix
SOC_OF_DIM = {4: "gemmini-dim4", 16: "gemmini-dim16"}
ACC, ACCUM, FULL = 1 << 31, 1 << 30, 1 << 29
ONE, HALF = 0x3F80_0000 << 32, 0x3F00_0000 << 32


def probes(p: GemminiParams, kind: str) -> list[Probe]:
    d, w = p.dim, window_base(SOC_OF_DIM[p.dim])
    ex_ws = (isa.CONFIG, isa.CONFIG_EX | (isa.WS << 2) | (1 << 16) | ONE, 1 << 48)
    ex_os = (isa.CONFIG, isa.CONFIG_EX | (isa.OS << 2) | (1 << 16) | ONE, 1 << 48)

    def ld(i: int, stride: int = 64) -> Insn:
        return isa.CONFIG, isa.CONFIG_LD | (i << 3) | (1 << 8) | (d << 16) | ONE, stride

    st = (isa.CONFIG, isa.CONFIG_ST, 64 | ONE)
    full = rs(0, d, d) & ~0xFFFF_FFFF  # rows = cols = DIM, address 0
    flush = (isa.FLUSH, 0, 0)
    if kind == "config_ex":
        rs1 = isa.CONFIG_EX | (isa.OS << 2) | (1 << 3) | (2 << 16) | HALF
        return [([], (isa.CONFIG, rs1, 3 | (2 << 48)), []), ([], (isa.CONFIG, rs1 | (isa.WS << 2), 3), [])]
    if kind == "config_ld":
        return [([], (isa.CONFIG, isa.CONFIG_LD | (1 << 3) | (1 << 8) | (d << 16) | HALF, 64), [])]
    if kind == "config_st":
        pool = (1 << 2) | (1 << 4) | (2 << 6) | (1 << 8) | (1 << 10) | (5 << 24) | (2 << 32) | (2 << 40)
        return [([], (isa.CONFIG, isa.CONFIG_ST | pool | (3 << 48) | (3 << 56), 64 | HALF), [])]
    if kind == "config_norm":
        return [([], (isa.CONFIG, 3, 0), [])]
    if kind in ("mvin", "mvin2", "mvin3"):
        f = {"mvin": isa.MVIN, "mvin2": isa.MVIN2, "mvin3": isa.MVIN3}[kind]
        i = {"mvin": 0, "mvin2": 1, "mvin3": 2}[kind]
        return [([ld(i)], (f, w, rs(8, d, d)), []), ([ld(i)], (f, w, rs(ACC | ACCUM | 8, d, d)), [])]
    if kind == "mvout":
        return [([st], (isa.MVOUT, w + 0x4000, rs(a | 8, d, d)), []) for a in (0, ACC, ACC | FULL)]
    if kind == "preload":
        out = []
        for c in (ACC | ACCUM, 64):
            out.append(
                (
                    [ex_ws],
                    (isa.PRELOAD, rs(0, d, d), rs(c, d, d)),
                    [(isa.COMPUTE_PRELOADED, rs(16, d, d), rs(GARBAGE, d, d))],
                )
            )
            out.append(
                (
                    [ex_os],
                    (isa.PRELOAD, rs(ACC | 32, d, d), rs(c, d, d)),
                    [(isa.COMPUTE_PRELOADED, rs(16, d, d), rs(32, d, d)), flush],
                )
            )
        return out
    if kind in ("compute_preloaded", "compute_accumulated"):
        f = isa.COMPUTE_PRELOADED if kind == "compute_preloaded" else isa.COMPUTE_ACCUMULATED
        c = rs(ACC | ACCUM, d, d)
        ws = [ex_ws, (isa.PRELOAD, rs(0, d, d), c)]
        os_ = [ex_os, (isa.PRELOAD, rs(ACC | 32, d, d), c)]
        if f == isa.COMPUTE_ACCUMULATED:  # a chain: a flip first, then the accumulated compute probed
            ws += [(isa.COMPUTE_PRELOADED, rs(16, d, d), rs(GARBAGE, d, d)), (isa.PRELOAD, full | GARBAGE, c)]
            os_ += [(isa.COMPUTE_PRELOADED, rs(16, d, d), rs(32, d, d)), (isa.PRELOAD, full | GARBAGE, c)]
        return [(ws, (f, rs(16, d, d), rs(ACC | 8, d, d)), [flush]), (os_, (f, rs(16, d, d), rs(48, d, d)), [flush])]
    if kind == "flush":
        return [([], flush, [])]
    if kind == "loop_ws":
        s = 2 * d
        pre = [
            ex_ws,
            ld(0, s),
            ld(1, s),
            ld(2, s * 4),
            (isa.CONFIG, isa.CONFIG_ST, s | ONE),
            (isa.LOOP_WS_CONFIG_BOUNDS, 1 | (1 << 16) | (1 << 32), 2 | (2 << 16) | (2 << 32)),
            (isa.LOOP_WS_CONFIG_ADDRS_AB, w, w + 0x1000),
            (isa.LOOP_WS_CONFIG_ADDRS_DC, w + 0x2000, w + 0x4000),
            (isa.LOOP_WS_CONFIG_STRIDES_AB, s, s),
            (isa.LOOP_WS_CONFIG_STRIDES_DC, s, s),
        ]
        # ex accumulate: the computes add to D (gemmini.h sets it whenever there is a bias), so low D shows
        return [(pre, (isa.LOOP_WS, 0, 0), []), (pre, (isa.LOOP_WS, 1, 0), [])]
    if kind.startswith("loop_ws_config"):
        f = next(k for k, v in isa.FUNCT_NAMES.items() if v == kind)
        a, b = (1 | (1 << 16) | (1 << 32), 2 | (2 << 16) | (2 << 32)) if f == isa.LOOP_WS_CONFIG_BOUNDS else (w, w + 64)
        return [([], (f, a, b), [])]
    if kind == "counter":
        mv = (isa.MVIN, w, rs(8, d, d))
        cfg = [
            (isa.COUNTER, (1 << 3) | (2 << 4) | (1 << 12), 0),
            (isa.COUNTER, (1 << 3) | (3 << 4) | (4 << 12) | (1 << 31), 0),
        ]
        return [
            (cfg + [mv], (isa.COUNTER, (1 << 3) | (2 << 4) | (1 << 12), 0), [mv]),
            (cfg + [mv, (isa.COUNTER, 1 << 2, 0), mv], (isa.COUNTER, 2 << 4, 0), [mv]),
        ]
    f = next(k for k, v in isa.FUNCT_NAMES.items() if v == kind)  # loop_conv_ws*, clkgate_en
    return [([], (f, 0, 0), [])]


class ProbeMemory(MapMemory):
    """Main memory with a window of given bytes (read without a per-byte dict) and a log of every write."""

    def __init__(self, regions: list[tuple[int, int]], base: int, window: bytes):
        super().__init__(regions)
        self.base, self.window = base, bytearray(window)
        self.writes: list[tuple[int, bytes]] = []

    def read(self, addr: int, size: int) -> bytes:
        off = addr - self.base
        if 0 <= off and off + size <= len(self.window):
            return bytes(self.window[off : off + size])
        return super().read(addr, size)

    def write(self, addr: int, data: bytes) -> None:
        super().write(addr, data)
        off = addr - self.base
        if 0 <= off and off + len(data) <= len(self.window):
            self.window[off : off + len(data)] = data
        self.writes.append((addr, bytes(data)))


@cache
def _start(p: GemminiParams) -> tuple[np.ndarray, np.ndarray, bytes]:
    """Random scratchpad, accumulator (sums well inside int32) and memory window, the same for every probe."""
    g = np.random.default_rng(p.dim)
    return (
        g.integers(-128, 128, (p.sp_rows, p.dim), dtype=np.int8),
        g.integers(-(1 << 20), 1 << 20, (p.acc_rows, p.dim), dtype=np.int32),
        g.integers(0, 256, 0x8000, dtype=np.uint8).tobytes(),
    )


def _reason(e: Exception) -> str:
    names = {v: k for k, v in illegal_reasons().items()}
    try:
        return names[model_reason(str(e))]
    except ValueError:
        return "unnamed"


def run(p: GemminiParams, probe: Probe, probed: Insn) -> tuple:
    """A fingerprint of the model after prefix, ``probed`` (in place of the probe's instruction) and suffix."""
    with np.errstate(invalid="ignore", over="ignore"):  # probed scales include NaN and infinities
        return _run(p, probe, probed)


def _run(p: GemminiParams, probe: Probe, probed: Insn) -> tuple:
    soc = SOC_OF_DIM[p.dim]
    sp, acc, window = _start(p)
    mem = ProbeMemory(regions(soc), window_base(soc), window)
    m = GemminiModel(p, mem)
    m.sp[:], m.acc[:] = sp, acc
    prefix, _, suffix = probe
    for insn in prefix:
        m.execute(*insn)  # the prefixes are legal: an error here is this module's bug
    verdict: object
    try:
        verdict = ("rd", m.execute(*probed))
        for insn in suffix:
            m.execute(*insn)
    except GemminiIllegal as e:
        return ("refused", _reason(e))
    except ValueError as e:
        return ("model error", str(e))
    cf = m.counter_file
    digest = hashlib.sha256(m.sp.tobytes() + m.acc.tobytes() + repr(mem.writes).encode()).hexdigest()
    state = (m.ld, m.ex, m.st, m.loop_ws.cfg, m.loop_ws.loops_started, m.loop_ws.acc_half)
    return verdict, digest, repr(state), repr((cf.config, cf.base, cf.ext_base, cf.snapshot))


def _values(f: Field, base: int) -> Iterator[int]:
    mask = (1 << f.width) - 1
    cands = [base ^ 1, base ^ (1 << (f.width - 1)), mask, 0, 1, 2, 3, min(base + 1, mask)]
    seen = {base}
    for v in cands:
        if v <= mask and v not in seen:
            seen.add(v)
            yield v


def _with(insn: Insn, f: Field, v: int) -> Insn:
    funct, rs1, rs2 = insn
    m = ((1 << f.width) - 1) << f.lo
    if f.reg == 1:
        return funct, (rs1 & ~m) | (v << f.lo), rs2
    return funct, rs1, (rs2 & ~m) | (v << f.lo)


@cache
def probe_field(p: GemminiParams, f: Field) -> tuple[bool, frozenset[str]]:
    """(the model reads ``f``, the reasons of the refusals its probe values drew)."""
    reads, refusals = False, set()
    for probe in probes(p, f.kind):
        insn = probe[1]
        ref = run(p, probe, insn)
        if ref[0] == "refused":
            refusals.add(ref[1])
        for v in _values(f, f.value(insn[1], insn[2])):
            got = run(p, probe, _with(insn, f, v))
            if got[0] == "refused":
                refusals.add(got[1])
            reads |= got != ref
    return reads, frozenset(refusals)


def probe_funct(p: GemminiParams, kind: str) -> str:
    """What the model does with the instruction of each probe as written: executes, or refuses (reason)."""
    outs = {run(p, probe, probe[1]) for probe in probes(p, kind)}
    refused = sorted({o[1] for o in outs if o[0] == "refused"})
    if not refused:
        return "executes"
    if refused == ["IllFunct"]:
        return "unknown funct"
    return f"refuses ({', '.join(refused)})"


def probe_unknown(p: GemminiParams, functs: list[int]) -> str:
    """What the model does with every funct it has no name for (rs1 = rs2 = 0)."""
    outs = {run(p, ([], (f, 0, 0), []), (f, 0, 0)) for f in functs}
    return "unknown funct" if outs == {("refused", "IllFunct")} else f"mixed: {sorted(map(str, outs))}"
