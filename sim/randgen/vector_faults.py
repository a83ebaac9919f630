"""Random vector memory programs whose accesses fault: for the difftest against Spike.

``python -m sim.randgen.vector_faults --soc t1-small --seed 3 -o p.S`` writes one
program; ``cosim cc`` + ``cosim difftest`` run it on the RTL and Spike.

Every item is one vector load or store (unit-stride, strided, indexed ordered and
unordered, segment forms of all three, whole-register, vlm/vsm, fault-only-first
incl. segments) placed across an *edge* of the config's memory map: the end of a
region with nothing after it, the start of a region with nothing before it, or the
boundary between two adjacent regions (no fault there unless misaligned). Some
element addresses are therefore outside memory (access fault), some items start
misaligned (address-misaligned), with masks, a nonzero vstart, random vl, SEW,
LMUL and segment counts. The trap handler reads mcause, mtval and vstart into a
register (so the difftest compares them), clears vstart and resumes after the
instruction; after fault-only-first loads the item reads vl. Stores go only to the
ends of regions that hold nothing there (DDR, SRAM), loads anywhere near an edge.
Same seed, same text.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from configs import MemoryMap
from sim.randgen.frame import Frame
from sim.randgen.vtypes import SEWS, VType, emul_ok, legal_lmuls, regs

BASE = "x27"  # the data buffer
ADDR = "x26"  # address of the access
AUX = "x25"  # stride, or the index table
AVL = "x5"
RESULTS = ("x8", "x9", "x18", "x19", "x20", "x21")  # vl / vstart read back after items

KINDS = ("unit", "unit", "strided", "indexed", "seg", "seg", "ff", "ff", "whole", "mask")


@dataclass(frozen=True)
class Edge:
    """An address where memory begins or ends.

    ``kind``: "end" (a region ends at ``addr``, nothing follows), "start" (a region
    begins at ``addr``, nothing before it), "join" (one region ends where the next
    begins: aligned accesses across it do not fault). ``stores``: the bytes below
    ``addr`` may be overwritten by the program."""

    addr: int
    kind: str
    stores: bool


def memory_edges(mm: MemoryMap) -> list[Edge]:
    regions = sorted(mm.regions().items(), key=lambda kv: kv[1][0])
    starts = {base for _, (base, _) in regions}
    ends = {base + size for _, (base, size) in regions}
    out = []
    for name, (base, size) in regions:
        end = base + size
        if end >= 1 << 32:
            continue
        if end in starts:
            out.append(Edge(end, "join", False))
        elif name != "SCALAR":  # the stack lives at the top of SCALAR
            out.append(Edge(end, "end", True))
        if base not in ends and base > 0x100:
            out.append(Edge(base, "start", False))
    return out


@dataclass
class FaultProgram:
    seed: int
    vlen: int
    text: str = ""
    mnemonics: Counter = field(default_factory=Counter)
    kinds: Counter = field(default_factory=Counter)  # "masked", "vstart", "misaligned", edge kinds, modes


class FaultGenerator:
    def __init__(self, seed: int, vlen: int, mm: MemoryMap, length: int = 40):
        if vlen < 64 or vlen & (vlen - 1):
            raise ValueError(f"VLEN must be a power of two >= 64, not {vlen}")
        self.seed, self.vlen, self.length = seed, vlen, length
        self.vlenb = vlen // 8
        self.edges = memory_edges(mm)
        if not self.edges:
            raise ValueError("the memory map has no edge to place faulting accesses at")
        self.rng = random.Random(f"vfaults:{seed}:{vlen}")
        self.prog = FaultProgram(seed, vlen)
        self.tables: list[str] = []  # index tables (data section)

    # ---- pieces ---------------------------------------------------------------

    def _vset(self, vt: VType, avl: int) -> list[str]:
        return [f"li {AVL}, {avl}", f"vsetvli x6, {AVL}, {vt.text}"]

    def _group(self, n: int, avoid: set[int]) -> int:
        """First register of an n-register group, aligned, above v0 and clear of ``avoid``."""
        choices = [r for r in range(8, 33 - n, max(1, n)) if not set(range(r, r + n)) & avoid]
        if not choices:
            raise _Unfit
        return self.rng.choice(choices)

    def _place(self, per: int, evl: int, edge: Edge, eb: int) -> tuple[int, bool]:
        """An address such that element j of stride ``per`` sits at the edge, j random
        around [0, evl); sometimes misaligned."""
        j = self.rng.randint(-2, evl + 1)
        addr = edge.addr - j * per
        mis = eb > 1 and self.rng.random() < 0.2
        if mis:
            addr += self.rng.randrange(1, eb)
        return addr & 0xFFFFFFFF, mis

    def _vstart(self, evl: int) -> list[str]:
        if evl < 2 or self.rng.random() > 0.25:
            return []
        self.prog.kinds["vstart"] += 1
        return [f"li {AVL}, {self.rng.randrange(1, min(evl, 12))}", f"csrw vstart, {AVL}"]

    def _index_table(self, ieew: int, n: int, step: int, eb: int) -> tuple[str, int]:
        """Ascending offsets i*step (sometimes one misaligned or reordered)."""
        vals = [i * step for i in range(n)]
        if n > 2 and self.rng.random() < 0.3:
            k = self.rng.randrange(n)
            vals[k] += self.rng.randrange(1, eb) if eb > 1 else 0
        if n > 2 and self.rng.random() < 0.3:
            a, b = self.rng.randrange(n), self.rng.randrange(n)
            vals[a], vals[b] = vals[b], vals[a]
        mask = (1 << ieew) - 1
        label = f".Lvf_idx{len(self.tables)}"
        directive = {8: ".byte", 16: ".half", 32: ".word"}[ieew]
        self.tables += ["  .balign 4", f"{label}:"]
        self.tables += [f"  {directive} {', '.join(str(v & mask) for v in vals[i : i + 16])}" for i in range(0, n, 16)]
        return label, max(vals)

    # ---- items ----------------------------------------------------------------

    def item(self) -> list[str]:
        for _ in range(30):
            try:
                return self._item(self.rng.choice(KINDS))
            except _Unfit:
                continue
        return []

    def _item(self, kind: str) -> list[str]:
        store = kind not in ("ff",) and self.rng.random() < 0.4
        pool = [e for e in self.edges if e.stores] if store else self.edges
        if not pool:
            store, pool = False, self.edges
        edge = self.rng.choice(pool)
        self.prog.kinds[f"edge={edge.kind}"] += 1
        eew = self.rng.choice(SEWS)
        eb = eew // 8
        sew = self.rng.choice(SEWS)
        masked = kind not in ("whole", "mask") and self.rng.random() < 0.35
        mask = ", v0.t" if masked else ""
        self.prog.kinds["masked" if masked else "unmasked"] += 1
        out: list[str] = []
        if kind == "whole":
            n = self.rng.choice([1, 2, 4, 8])
            reg = self._group(n, set())
            evl = n * self.vlen // eew
            addr, mis = self._place(eb, evl, edge, eb)
            op = f"vs{n}r.v" if store else f"vl{n}re{eew}.v"
            line = f"{op} v{reg}, ({ADDR})"
            out += [f"li {ADDR}, {addr}", *self._vstart(evl), line]
        elif kind == "mask":
            vt = VType(sew, self.rng.choice(legal_lmuls(sew)), True, False)
            vl = self.rng.randint(1, vt.vlmax(self.vlen))
            evl = (vl + 7) // 8
            addr, mis = self._place(1, evl, edge, 1)
            op = "vsm.v" if store else "vlm.v"
            out += self._vset(vt, vl) + [
                f"li {ADDR}, {addr}",
                *self._vstart(evl),
                f"{op} v{self._group(1, set())}, ({ADDR})",
            ]
        else:
            nf = self.rng.randint(2, 8) if kind == "seg" or (kind == "ff" and self.rng.random() < 0.3) else 1
            mode = (
                "unit" if kind == "ff" else self.rng.choice(["unit", "strided", "indexed"]) if kind == "seg" else kind
            )
            seg = f"seg{nf}" if nf > 1 else ""
            lmuls = [
                m
                for m in legal_lmuls(sew)
                if (mode == "indexed" and emul_ok(m * eew / sew) and nf * regs(m) <= 8 and regs(m * eew / sew) <= 8)
                or (mode != "indexed" and emul_ok(m * eew / sew) and nf * regs(m * eew / sew) <= 8)
            ]
            if not lmuls:
                raise _Unfit
            vt = VType(sew, self.rng.choice(lmuls), self.rng.random() < 0.5, False)
            vlmax = vt.vlmax(self.vlen)
            vl = self.rng.choice([vlmax, self.rng.randint(1, vlmax)])
            out += self._vset(vt, vl)
            if mode == "indexed":
                ieew, deb = eew, sew // 8
                demul, iemul = vt.lmul, vt.lmul * ieew / sew
                vidx = self._group(regs(iemul), set())
                data = self._group(nf * regs(demul), set(range(vidx, vidx + regs(iemul))))
                step = self.rng.choice([deb * nf, 2 * deb * nf, deb])
                if ieew == 8:
                    step = min(step, max(1, 255 // max(vl, 1)))
                label, top = self._index_table(ieew, vl, step, deb)
                addr, mis = self._place(step, vl, edge, deb)
                order = self.rng.choice("uo")
                itype = VType(ieew, iemul, True, False)
                out += [
                    f"la {AUX}, {label}",
                    f"vsetvli x0, x0, {itype.text}",
                    f"vle{ieew}.v v{vidx}, ({AUX})",
                    f"vsetvli x0, x0, {vt.text}",
                    f"li {ADDR}, {addr}",
                    *self._vstart(vl),
                    f"v{'s' if store else 'l'}{order}x{seg}ei{ieew}.v v{data}, ({ADDR}), v{vidx}{mask}",
                ]
            else:
                demul = vt.lmul * eew / sew
                data = self._group(nf * regs(demul), set())
                if mode == "strided":
                    stride = self.rng.choice([eb * nf, 2 * eb * nf, -eb * nf, 0, self.rng.randrange(0, 64, eb) or eb])
                    addr, mis = self._place(stride if stride else eb, vl, edge, eb)
                    if self.rng.random() < 0.1 and eb > 1:
                        stride += 1  # misaligned later elements
                        mis = True
                    op = f"v{'s' if store else 'l'}s{seg}e{eew}.v"
                    out += [f"li {AUX}, {stride}", f"li {ADDR}, {addr}", *self._vstart(vl)]
                    out.append(f"{op} v{data}, ({ADDR}), {AUX}{mask}")
                else:
                    addr, mis = self._place(nf * eb, vl, edge, eb)
                    ff = "ff" if kind == "ff" else ""
                    op = f"v{'s' if store else 'l'}{seg}e{eew}{ff}.v"
                    out += [f"li {ADDR}, {addr}", *self._vstart(vl), f"{op} v{data}, ({ADDR}){mask}"]
            self.prog.kinds[f"mode={mode}"] += 1
            self.prog.kinds[f"nf={nf}"] += 1
        if mis:
            self.prog.kinds["misaligned"] += 1
        self.prog.kinds[f"kind={kind}"] += 1
        self.prog.mnemonics[out[-1].split()[0]] += 1
        # what the difftest compares afterwards: vl (ff trims it) and vstart
        out += [f"csrr {self.rng.choice(RESULTS)}, vl", f"csrr {self.rng.choice(RESULTS)}, vstart"]
        return out

    def _new_mask(self) -> list[str]:
        off = self.rng.randrange(0, 32 * self.vlenb - self.vlenb + 1)
        return [
            f"li {ADDR}, {off}",
            f"add {ADDR}, {ADDR}, {BASE}",
            "vsetvli x6, x0, e8, m1, tu, mu",
            f"vle8.v v0, ({ADDR})",
        ]

    # ---- program --------------------------------------------------------------

    def generate(self) -> FaultProgram:
        frame = Frame(32)
        out = [
            f"# random faulting vector memory program: seed {self.seed}, VLEN {self.vlen}, {self.length} items",
            "  .text",
            "  .globl main",
            "  .type main, @function",
            "main:",
            *frame.enter(".Lvf_trap"),
            f"  la {BASE}, .Lvf_data",
            "  vsetvli x6, x0, e8, m8, tu, mu",
        ]
        for g in range(4):  # every vector register from the data buffer
            out += [
                f"  li {ADDR}, {g * 8 * self.vlenb}",
                f"  add {ADDR}, {ADDR}, {BASE}",
                f"  vle8.v v{8 * g}, ({ADDR})",
            ]
        for _ in range(self.length):
            lines = self._new_mask() if self.rng.random() < 0.1 else self.item()
            out += [f"  {ln}" for ln in lines]
        out += ["  csrwi vstart, 0", *frame.leave(), "  .size main, .-main", ""]
        out += [
            "# trap handler: report mcause/mtval/vstart in x31, clear vstart, resume after the instruction",
            "  .balign 4",
            ".Lvf_trap:",
            "  csrrw x31, mscratch, x31",
            "  csrr x31, mcause",
            "  csrr x31, mtval",
            "  csrr x31, vstart",
            "  csrwi vstart, 0",
            "  csrr x31, mepc",
            "  addi x31, x31, 4",
            "  csrw mepc, x31",
            "  csrrw x31, mscratch, x31",
            "  mret",
            "",
            "  .data",
            "  .balign 64",
            ".Lvf_data:",
        ]
        out += [f"  .word 0x{self.rng.getrandbits(32):08x}" for _ in range(8 * self.vlenb)]
        out += self.tables
        self.prog.text = "\n".join(out) + "\n"
        return self.prog


class _Unfit(Exception):
    """No legal register choice for this item; pick another."""


def generate_vector_faults(seed: int, vlen: int, mm: MemoryMap, length: int = 40) -> FaultProgram:
    """A random program of faulting vector memory items (see the module docstring)."""
    return FaultGenerator(seed, vlen, mm, length).generate()


def main(argv: list[str] | None = None) -> int:
    import argparse
    import sys
    from pathlib import Path

    from configs import VectorUnit, load_soc

    p = argparse.ArgumentParser(prog="python -m sim.randgen.vector_faults", description=__doc__.split("\n\n")[0])
    p.add_argument("--soc", default="t1-small", help="a vector SoC config (name or path)")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--length", type=int, default=40, help="items in the body")
    p.add_argument("-o", "--output", type=Path, help="output .S (default: stdout)")
    args = p.parse_args(argv)
    soc = load_soc(args.soc)
    if not isinstance(soc.accelerator, VectorUnit):
        p.error(f"{soc.name} has no vector unit")
    prog = generate_vector_faults(args.seed, soc.accelerator.vlen, soc.memory_map, args.length)
    if args.output:
        args.output.write_text(prog.text)
    else:
        sys.stdout.write(prog.text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
