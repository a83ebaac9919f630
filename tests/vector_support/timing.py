"""Pipeline timing of the vector unit, measured on the standalone harness.

Runs a short instruction sequence with the harness's per-cycle trace (dispatches,
VRF row writes of each engine, memory requests and responses, completions) and
turns it into per-instruction timings and an ASCII diagram, one character per
cycle. sim/rtl/vector/PIPELINE.md's diagrams are this module's output:

    ./dev python tests/vector_support/timing.py [t1-small|t1-blastoise ...]

Diagram characters: D dispatched (the queue head starts), 0-9a-z row of the
destination register written (load responses and arithmetic rows; row index
modulo 36), s stalled by the row interlock, - in flight, C completion; a memory
instruction has a second line with its requests accepted by the port (r read,
w write) (when no row is written in that cycle; the
table gives every completion cycle).
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `vector_support` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vector_support import harness, rvv  # noqa: E402
from vector_support.check import Geometry  # noqa: E402
from vector_support.harness import Issue  # noqa: E402

MEM_BASE = 0x4000_0000
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass
class InsnTiming:
    name: str
    mem: bool
    dispatch: int = -1
    first_row: int = -1  # first VRF row write (arith, load) or request (store)
    last_row: int = -1
    complete: int = -1
    marks: dict[int, str] = field(default_factory=dict)
    beats: dict[int, str] = field(default_factory=dict)  # memory requests accepted (r/w)


@dataclass
class Timing:
    geo: Geometry
    latency: int
    insns: list[InsnTiming]
    cycles: int
    perf: dict[str, int]

    def diagram(self) -> str:
        end = max(t.complete for t in self.insns) + 1
        start = min(t.dispatch for t in self.insns)
        width = max(len(t.name) for t in self.insns) + 2
        ruler = ""
        c = start
        while c < end:  # cycle numbers every 5 cycles, left-aligned on their column
            lab = str(c) if c % 5 == 0 else ""
            if lab and c + len(lab) <= end + 3:
                ruler += lab
                c += len(lab)
            else:
                ruler += " "
                c += 1
        lines = [f"{'cycle':<{width}}{ruler}".rstrip()]
        for t in self.insns:
            row = "".join(
                t.marks.get(c, "-" if t.dispatch < c < t.complete else " ") for c in range(start, end)
            ).rstrip()
            lines.append(f"{t.name:<{width}}{row}")
            if t.beats:
                req = "".join(t.beats.get(c, " ") for c in range(start, end)).rstrip()
                lines.append(f"{'  requests':<{width}}{req}")
        return "\n".join(lines)

    def table(self) -> str:
        out = ["| instruction | dispatch | first row/beat | last row/beat | completion |", "|---|---|---|---|---|"]
        for t in self.insns:
            out.append(f"| `{t.name}` | {t.dispatch} | {t.first_row} | {t.last_row} | {t.complete} |")
        return "\n".join(out)


def measure(geo: Geometry, seq: list[tuple[str, Issue]], vrf: bytes, mem: dict[int, bytes], latency: int) -> Timing:
    """Run `seq` (name, issue) with the trace on; attribute every event to its instruction."""
    exe = harness.build(geo.vlen, geo.dlen, geo.memw)
    res = harness.run(exe, geo.vlen, geo.dlen, vrf, mem, [i for _, i in seq], [], latency=latency, trace=True)
    insns = [InsnTiming(n, (i.insn & 0x7F) in (rvv.LOAD_FP, rvv.STORE_FP)) for n, i in seq]
    rows_per_reg = geo.vlen // geo.dlen
    nxt = 0  # next instruction to dispatch (dispatch is in order)
    cur_arith = cur_mem = None
    beats: list[int] = []  # instruction of each outstanding memory request, oldest first
    for ln in res.trace:
        t = ln.split()
        cyc, ev = int(t[1]), t[2:]
        # events of this cycle belong to instructions dispatched in earlier cycles
        for e in ev:
            if e.startswith("sw") and cur_arith is not None:
                it = insns[cur_arith]
                row = int(e[2:], 16) % rows_per_reg
                it.marks[cyc] = DIGITS[row % 36]
                it.first_row = it.first_row if it.first_row >= 0 else cyc
                it.last_row = cyc
            elif e.startswith("req") and cur_mem is not None:
                it = insns[cur_mem]
                it.beats[cyc] = "w" if e[3] == "w" else "r"
                it.marks.setdefault(cyc, "-")
                beats.append(cur_mem)
                if e[3] == "w":
                    it.first_row = it.first_row if it.first_row >= 0 else cyc
                    it.last_row = cyc
            elif e == "rsp" and beats:
                owner = beats.pop(0)
                it = insns[owner]
                lw = [x for x in ev if x.startswith("lw")]
                if lw:
                    row = int(lw[0][2:], 16) % rows_per_reg
                    it.marks[cyc] = DIGITS[row % 36]
                    it.first_row = it.first_row if it.first_row >= 0 else cyc
                    it.last_row = cyc
            elif e == "sstall" and cur_arith is not None:
                insns[cur_arith].marks.setdefault(cyc, "s")
            elif e == "lstall" and cur_mem is not None:
                insns[cur_mem].marks.setdefault(cyc, "s")
            elif e.startswith("cmp"):
                k = int(e[3:], 16)
                insns[k].complete = cyc
                insns[k].marks.setdefault(cyc, "C")  # a row written in this cycle shows instead
        if "disp" in ev:
            insns[nxt].dispatch = cyc
            insns[nxt].marks[cyc] = "D"
            if insns[nxt].mem:
                cur_mem = nxt
            else:
                cur_arith = nxt
            nxt += 1
    return Timing(geo, latency, insns, res.cycles, res.perf)


def vfmacc_chain(geo: Geometry, latency: int = 4) -> Timing:
    """PIPELINE.md's chain: vle32 v8; vfmacc.vf v16,fa0,v8; vfmacc.vf v16,fa1,v8; vse32 v16 (LMUL 1, vl = VLMAX)."""
    vt = rvv.vtype(32, 1)
    vl = geo.vlen // 32
    rng = random.Random(7)
    mem = {MEM_BASE: b"".join(rng.getrandbits(23).to_bytes(4, "little") for _ in range(2 * vl))}
    seq = [
        ("vle32.v v8,(a0)", Issue(rvv.vmem(False, 32, 8, 10), rs1=MEM_BASE, vtype=vt, vl=vl)),
        ("vfmacc.vf v16,fa0,v8", Issue(rvv.opv(0x2C, rvv.FVF, 16, 8, 10), frs1=0x3F800000, vtype=vt, vl=vl)),
        ("vfmacc.vf v16,fa1,v8", Issue(rvv.opv(0x2C, rvv.FVF, 16, 8, 11), frs1=0x40000000, vtype=vt, vl=vl)),
        ("vse32.v v16,(a1)", Issue(rvv.vmem(True, 32, 16, 11), rs1=MEM_BASE + 8 * vl, vtype=vt, vl=vl)),
    ]
    return measure(geo, seq, bytes(32 * geo.vlen // 8), mem, latency)


def independent_vfadd(geo: Geometry, n: int) -> Timing:
    """n independent vfadd.vv at LMUL 1, vl = VLMAX (the no-bubble figure)."""
    vt = rvv.vtype(32, 1)
    vl = geo.vlen // 32
    seq = [
        (f"vfadd.vv v{8 + k % 8},v16,v24", Issue(rvv.opv(0x00, rvv.FVV, 8 + k % 8, 16, 24), vtype=vt, vl=vl))
        for k in range(n)
    ]
    return measure(geo, seq, bytes(32 * geo.vlen // 8), {}, 4)


def main(argv: list[str]) -> None:
    from configs import load_soc

    for name in argv or ["t1-small", "t1-blastoise"]:
        cfg = load_soc(name)
        acc = cfg.accelerator
        geo = Geometry(acc.vlen, acc.dlen, min(acc.dlen, cfg.memory.width_bits))
        lat = cfg.memory.latency
        t = vfmacc_chain(geo, lat)
        print(f"## {name}: VLEN {geo.vlen}, DLEN {geo.dlen}, MemW {geo.memw}, memory latency {lat}\n")
        print("```\n" + t.diagram() + "\n```\n")
        print(t.table() + "\n")
        print(f"perf: {t.perf}\n")
        v = independent_vfadd(geo, 16)
        rows = geo.vlen // geo.dlen
        print(
            f"16 independent vfadd.vv (LMUL 1): {v.cycles} cycles in the harness "
            f"(first row {v.insns[0].first_row}, last row {v.insns[-1].last_row}: "
            f"{v.insns[-1].last_row - v.insns[0].first_row + 1} cycles for 16 x {rows} rows)\n"
        )


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    main(sys.argv[1:])
