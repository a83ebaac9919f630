"""Which configured features the legal instructions of a program actually use (for gen_coverage.py).

A config field that takes many values proves little if no data instruction runs while it is in force. This
runs a program on the functional model one instruction at a time and, for each one the model accepts, names
the features it used from the configs in force then: a pooled or 1-D mvout, pixel repeats, a scaled or shrunk
mvin, a compute with a C or A stride, transposed, in OS or WS.
"""

from __future__ import annotations

from collections import Counter

from sim.gemmini import isa
from sim.gemmini.model import GemminiModel
from sim.gemmini.params import GemminiParams
from sim.tb.gemmini.unit_stim import GARBAGE, MapMemory, model_verdicts

MVIN_ID = {isa.MVIN: 0, isa.MVIN2: 1, isa.MVIN3: 2}
# every feature this module names, in the order COVERAGE.md lists them
FEATURES = (
    "mvin with pixel repeats",
    "mvin of more than one block",
    "scaled int8 mvin",
    "shrunk mvin into the accumulator",
    "accumulating mvin",
    "max-pooled mvout",
    "1-D mvout",
    "scaled accumulator mvout",
    "ReLU accumulator mvout",
    "full-width accumulator mvout",
    "WS compute",
    "OS compute",
    "compute with C stride != 1",
    "compute with A stride != 1",
    "compute with a transposed operand",
    "compute reading the accumulator",
    "OS compute with a shift",
    "loop_ws",
)


def _uses(m: GemminiModel, funct: int, rs1: int, rs2: int) -> list[str]:
    raw, cols, rows = rs2 & 0xFFFF_FFFF, (rs2 >> 32) & 0xFFFF, (rs2 >> 48) & 0xFFFF
    d, st, ex = m.p.dim, m.st, m.ex
    out = []
    if funct in MVIN_ID and raw != GARBAGE and rows and cols:
        ld = m.ld[MVIN_ID[funct]]
        acc = bool(raw >> 31 & 1)
        out += ["mvin with pixel repeats"] * (ld.pixel_repeats > 1)
        out += ["mvin of more than one block"] * (cols > d)
        out += ["scaled int8 mvin"] * ((not acc or ld.shrink) and float(ld.scale) != 1.0 and rs1 != 0)
        out += ["shrunk mvin into the accumulator"] * (acc and ld.shrink)
        out += ["accumulating mvin"] * (acc and bool(raw >> 30 & 1))
    if funct == isa.MVOUT and raw != GARBAGE and cols:
        acc, full = bool(raw >> 31 & 1), bool(raw >> 29 & 1)
        out += ["max-pooled mvout"] * bool(st.pool_stride)
        out += ["1-D mvout"] * (not st.pool_stride and bool(st.pool_size))
        out += ["scaled accumulator mvout"] * (acc and not full and float(st.scale) != 1.0)
        out += ["ReLU accumulator mvout"] * (acc and not full and st.activation == isa.ACT_RELU)
        out += ["full-width accumulator mvout"] * (acc and full)
    if funct in (isa.COMPUTE_PRELOADED, isa.COMPUTE_ACCUMULATED):
        os_ = ex.dataflow == isa.OS
        out.append("OS compute" if os_ else "WS compute")
        out += ["compute with C stride != 1"] * (ex.c_stride != 1)
        out += ["compute with A stride != 1"] * (ex.a_stride != 1)
        out += ["compute with a transposed operand"] * (ex.a_transpose or ex.b_transpose)
        out += ["compute reading the accumulator"] * any(r >> 31 & 1 and r & 0xFFFF_FFFF != GARBAGE for r in (rs1, rs2))
        out += ["OS compute with a shift"] * (os_ and ex.shift != 0)
    if funct == isa.LOOP_WS:
        out.append("loop_ws")
    return out


def feature_uses(p: GemminiParams, regions: list[tuple[int, int]], prog: list[tuple[int, int, int]]) -> Counter:
    """How many legal instructions of ``prog`` used each feature (FEATURES), from the model's state before each."""
    m = GemminiModel(p, MapMemory(regions))
    count: Counter = Counter()
    for insn in prog:
        before = _uses(m, *insn)
        _, verdicts = model_verdicts(m, [insn])
        if verdicts and verdicts[0][0]:
            count.update(before)
    return count
