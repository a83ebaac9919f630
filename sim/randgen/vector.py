"""Random RVV 1.0 programs (zve32f) for the difftest against Spike.

``python -m sim.randgen.vector --soc t1-small --seed 7 --family fp -o p.S`` writes
one program; ``cosim cc --soc t1-small -o p.elf p.S`` and ``cosim difftest p.elf
--soc t1-small`` run it on the RTL and Spike and compare every scalar and vector
register write and every vector store's bytes.

A program is one ``main`` (frame.py: callee-saved registers, own trap handler that
reads mcause/mtval and resumes after the trapping instruction). It fills every
vector register from its data buffer, every f register with special values and the
scalar operand registers with corner values, then runs ``length`` random items of
one family (:data:`FAMILIES`). An item picks an instruction, a vtype it is legal
under (SEW 8/16/32, LMUL 1/8..8, tail/mask agnostic bits, AVL 0, small, VLMAX or
more), registers aligned to their groups without illegal overlaps, a mask (v0) half
the time, sometimes a nonzero vstart, and sometimes reads vl/vtype/vstart/vxsat/
fflags afterwards. Loads and stores run from a nonzero vstart; an arithmetic
instruction at vstart != 0 is an expected trap (Spike raises illegal instruction for
every OP-V instruction then, RVV 1.0 section 3.7 permits it, and the RTL does the
same: tests/test_vector_vstart.py), after which vstart is read and cleared. A few
items on purpose set an illegal vtype (vill) before a vector instruction or use an
invalid frm, and expect both sides to trap the same way. Memory operands stay inside the program's data buffer,
naturally aligned (faulting and misaligned vector accesses are
sim/randgen/vector_faults.py's job). Same seed, same
text.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from sim.randgen.frame import Frame, trap_handler
from sim.randgen.operands import FLOAT_SPECIALS
from sim.randgen.vector_arith import ArithmeticItems
from sim.randgen.vector_mem import MemoryItems
from sim.randgen.vector_ops import ADDR, ARITH_FAMILIES, AVL, BASE, FAMILIES, SCALARS, TABLES, VLOUT, VTREG, Unfit
from sim.randgen.vtypes import ILLEGAL_VTYPES, SEWS, VType, legal_lmuls, regs


@dataclass
class VectorProgram:
    seed: int
    family: str
    vlen: int
    text: str
    mnemonics: Counter = field(default_factory=Counter)  # vector mnemonic -> count
    vector_instructions: int = 0  # vector instructions in the body (vset* included)
    expected_traps: int = 0  # items built to trap (vill, arithmetic at vstart != 0, frm)
    policies: Counter = field(default_factory=Counter)  # "sew=8", "lmul=mf2", "masked", "vstart", "vl=0", ...


class VectorGenerator(ArithmeticItems, MemoryItems):
    def __init__(
        self, seed: int, vlen: int, family: str, length: int = 60, trap_rate: float = 0.04, wild_rate: float = 0.03
    ):
        if family not in FAMILIES:
            raise ValueError(f"unknown vector family {family!r}; known: {', '.join(FAMILIES)}")
        if vlen < 64 or vlen & (vlen - 1):
            raise ValueError(f"VLEN must be a power of two >= 64, not {vlen}")
        self.seed, self.vlen, self.family, self.length = seed, vlen, family, length
        self.cur = family  # the family of the item being generated ("mix": changes per item)
        self.trap_rate = trap_rate
        self.wild_rate = wild_rate  # register operands picked with no alignment/overlap rule
        self.rng = random.Random(f"{family}:{seed}:{vlen}")
        self.vstart_traps = True  # arithmetic items may run at vstart != 0 (off inside vill items)
        self.prog = VectorProgram(seed, family, vlen, "")
        self.vtype: VType | None = None  # None: unknown or vill
        self.vl = 0
        self.vlenb = vlen // 8
        # data buffer: loads and stores; index tables (read only) after it
        self.buf = max(4096, 32 * self.vlenb)
        self.idx_len = 8 * self.vlenb + 256  # bytes per index table (index EMUL up to 8)
        self.idx_span = {8: 256, 16: self.buf // 2, 32: self.buf // 2}  # index values below this

    # ---- small helpers --------------------------------------------------------

    def _x(self) -> str:
        return f"x{self.rng.choice(SCALARS)}"

    def _f(self) -> str:
        return f"f{self.rng.randrange(32)}"

    def _scalar_value(self) -> int:
        r = self.rng.random()
        if r < 0.4:
            return self.rng.choice([0, 1, 2, -1, -2, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, -(1 << 31)])
        if r < 0.7:
            return self.rng.randrange(-40, 40)
        return self.rng.getrandbits(32) - (1 << 31)

    def _group(self, emul: Fraction, avoid: set[int] = frozenset(), no_v0: bool = False, count: int = 1) -> int:
        """An aligned register group of EMUL (``count`` consecutive groups: segment fields);
        now and then any register at all, so both sides' legality checks are compared."""
        if self.rng.random() < self.wild_rate:
            # misaligned for the group, but never v0 under a mask nor an overlap of the
            # same register: the assembler rejects those (and they are reserved anyway)
            wild = [b for b in range(32) if b not in avoid and not (no_v0 and b == 0)]
            if wild:
                self.prog.policies["wild register"] += 1
                return self.rng.choice(wild)
        g = regs(emul)
        choices = [
            b
            for b in range(0, 32 - g * count + 1, g)
            if not (set(range(b, b + g * count)) & avoid) and not (no_v0 and b == 0)
        ]
        if not choices:
            raise Unfit
        return self.rng.choice(choices)

    @staticmethod
    def _span(base: int, emul: Fraction) -> set[int]:
        return set(range(base, base + regs(emul)))

    def _vset(self, vt: VType, avl_kind: str | None = None) -> list[str]:
        """Set vtype (and vl) to ``vt``; returns the lines."""
        vlmax = vt.vlmax(self.vlen)
        kind = (
            avl_kind or self.rng.choices(["max", "rand", "zero", "one", "over", "x0", "imm"], [4, 6, 1, 1, 2, 2, 2])[0]
        )
        self.prog.policies[f"sew={vt.sew}"] += 1
        self.prog.policies[f"lmul={vt.text.split(', ')[1]}"] += 1
        self.prog.policies["ta" if vt.ta else "tu"] += 1
        self.prog.policies["ma" if vt.ma else "mu"] += 1
        self.vtype = vt
        self.prog.vector_instructions += 1
        if kind == "x0":  # rs1 = x0, rd != x0: vl = VLMAX
            self.vl = vlmax
            return [f"vsetvli {VLOUT}, x0, {vt.text}"]
        if kind == "imm":
            avl = self.rng.randrange(32)
            self.vl = min(avl, vlmax)
            self._note_vl()
            return [f"vsetivli {VLOUT}, {avl}, {vt.text}"]
        avl = {
            "max": vlmax,
            "rand": self.rng.randint(1, vlmax),
            "zero": 0,
            "one": 1,
            "over": self.rng.choice([vlmax + 1, 2 * vlmax, 2 * vlmax + 3, 0x7FFFFFFF]),
        }[kind]
        self.vl = min(avl, vlmax)
        self._note_vl()
        if self.rng.random() < 0.2:
            return [f"li {AVL}, {avl}", f"li {VTREG}, {vt.bits}", f"vsetvl {VLOUT}, {AVL}, {VTREG}"]
        return [f"li {AVL}, {avl}", f"vsetvli {VLOUT}, {AVL}, {vt.text}"]

    def _note_vl(self) -> None:
        if self.vl == 0:
            self.prog.policies["vl=0"] += 1

    def _pick_vtype(self, sews: tuple[int, ...], lmul_ok: Callable[[int, Fraction], bool]) -> VType:
        options = [(s, m) for s in sews for m in legal_lmuls(s) if lmul_ok(s, m)]
        if not options:
            raise Unfit
        s, m = self.rng.choice(options)
        return VType(s, m, ta=self.rng.random() < 0.5, ma=self.rng.random() < 0.5)

    def _ensure_vtype(self, sews: tuple[int, ...], lmul_ok: Callable[[int, Fraction], bool]) -> list[str]:
        cur = self.vtype
        if cur is not None and cur.sew in sews and lmul_ok(cur.sew, cur.lmul) and self.rng.random() < 0.45:
            return []
        return self._vset(self._pick_vtype(sews, lmul_ok))

    def _vstart(self, allowed: bool = True) -> list[str]:
        """Sometimes a nonzero vstart before the instruction (below vl mostly)."""
        if not allowed or self.rng.random() > 0.12:
            return []
        self.prog.policies["vstart"] += 1
        self.prog.policies["vstart mem"] += 1
        if self.vl > 1 and self.rng.random() < 0.85:
            v = self.rng.randrange(1, self.vl)
        else:
            v = self.rng.randrange(self.vl, self.vl + 4)
        if v < 32:
            return [f"csrwi vstart, {v}"]
        return [f"li {AVL}, {v}", f"csrw vstart, {AVL}"]

    def _vstart_trap(self) -> list[str]:
        """A nonzero vstart before an arithmetic instruction (which must then trap): below vl
        mostly, else at or past vl (vl = 0 included); always below VLEN, the CSR's range."""
        self.prog.policies["vstart"] += 1
        self.prog.policies["vstart arith trap"] += 1
        if self.vl > 1 and self.rng.random() < 0.8:
            v = self.rng.randrange(1, self.vl)
        else:
            v = min(max(self.vl + self.rng.randrange(4), 1), self.vlen - 1)
        if v < 32:
            return [f"csrwi vstart, {v}"]
        return [f"li {AVL}, {v}", f"csrw vstart, {AVL}"]

    def _mask(self) -> bool:
        m = self.rng.random() < 0.4
        self.prog.policies["masked" if m else "unmasked"] += 1
        return m

    def _note(self, lines: list[str]) -> list[str]:
        for ln in lines:
            op = ln.split()[0]
            if op.startswith("v") and not op.startswith("vset"):
                self.prog.mnemonics[op] += 1
                self.prog.vector_instructions += 1
        return lines

    # ---- deliberate traps -------------------------------------------------------

    def trap_item(self) -> list[str]:
        """An item that must trap on both sides (the handler resumes after it)."""
        self.prog.expected_traps += 1
        kind = self.rng.choice(
            ["vill", "vill", "vstart", "frm"] if self.cur in ("fp", "red") else ["vill", "vill", "vstart"]
        )
        if kind == "vill":
            self.prog.policies["vill"] += 1
            self.vtype = None
            self.vl = 0
            self.vstart_traps = False  # one reason to trap per item
            body = self._family_item()
            self.vstart_traps = True
            # drop the item's own vset*: the instruction must run under vill
            body = [ln for ln in body if not ln.startswith(("vsetvl", "vsetivli", "li x5,", "li x7,"))]
            self.vtype = None
            self.prog.vector_instructions += 1
            return [
                f"li {VTREG}, {self.rng.choice(ILLEGAL_VTYPES)}",
                f"li {AVL}, {self.rng.randrange(1, 64)}",
                f"vsetvl {VLOUT}, {AVL}, {VTREG}",
                f"csrr {self._x()}, vtype",
                *body,
                *self._vset(self._pick_vtype(SEWS, lambda s, m: True)),
            ]
        if kind == "vstart":
            # an arithmetic instruction of the family (of a random arithmetic family in
            # "mem") at vstart != 0
            self.prog.expected_traps -= 1  # counted by the item itself
            table = TABLES[self.rng.choice(ARITH_FAMILIES) if self.cur == "mem" else self.cur]
            return self.arith(table, vstart_trap=True)
        # an invalid dynamic rounding mode: FP arithmetic that rounds must trap
        vt = self._pick_vtype((32,), lambda s, m: True)
        return [
            *self._vset(vt, "max"),
            f"fsrmi {self.rng.randrange(5, 8)}",
            *self._note([f"vfadd.vv v{self._group(vt.lmul)}, v{self._group(vt.lmul)}, v{self._group(vt.lmul)}"]),
            f"fsrmi {self.rng.randrange(5)}",
        ]

    # ---- whole program ----------------------------------------------------------

    def _family_item(self) -> list[str]:
        if self.cur == "mem":
            return self.mem()
        return self.arith(TABLES[self.cur])

    def _extra_item(self) -> list[str] | None:
        """Family-specific set-up items: rounding modes, special values, scalar corners."""
        r = self.rng.random()
        if self.cur == "fixed" and r < 0.12:
            return [f"csrwi vxrm, {self.rng.randrange(4)}"]
        if self.cur in ("fp", "red") and r < 0.08:
            return [f"fsrmi {self.rng.randrange(5)}"]
        if self.cur == "fp" and r < 0.11:
            # scalar FP between vector FP: both accrue fflags in program order
            op = self.rng.choice(["fadd.s", "fmul.s", "fdiv.s", "fsub.s"])
            return [f"{op} {self._f()}, {self._f()}, {self._f()}"]
        if self.cur == "fixed" and r < 0.14:
            return [f"li {AVL}, {self.rng.randrange(8)}", f"csrw vcsr, {AVL}"]
        if self.cur in ("fp", "red") and r < 0.14:
            pattern = self.rng.choice(FLOAT_SPECIALS)
            return [f"li {AVL}, {pattern - (1 << 32) if pattern >> 31 else pattern}", f"fmv.w.x {self._f()}, {AVL}"]
        if self.cur == "mem" and r < 0.1:
            # scalar accesses between vector ones: the core must order them (DESIGN.md)
            op = self.rng.choice(["lw", "sw", "lbu", "sb", "lh", "sh"])
            width = {"w": 4, "b": 1, "h": 2}[op[1]]
            return [f"{op} {self._x()}, {self.rng.randrange(0, 2048, width)}({BASE})"]
        if r < 0.05:
            return [f"li {self._x()}, {self._scalar_value()}"]
        if r < 0.08:  # a fresh random mask in v0
            off = self.rng.randrange(0, self.buf - self.vlenb + 1)
            return self._vset(VType(8, Fraction(1)), "max") + self._addr(off) + self._note([f"vle8.v v0, ({ADDR})"])
        return None

    def body(self) -> list[list[str]]:
        items = []
        while len(items) < self.length:
            if self.family == "mix":
                self.cur = self.rng.choice(FAMILIES[:-1])
            extra = self._extra_item()
            if extra:
                items.append(extra)
                continue
            if self.rng.random() < self.trap_rate:
                items.append(self.trap_item())
                continue
            item = self._family_item()
            if item:
                items.append(item)
        return items

    def data_words(self) -> list[int]:
        """The data buffer: FP-flavoured for the fp families, integer corners otherwise."""
        words = []
        fp = self.family in ("fp", "red") or (self.family == "mix" and self.rng.random() < 0.5)
        for _ in range(self.buf // 4):
            r = self.rng.random()
            if fp and r < 0.3:
                words.append(self.rng.choice(FLOAT_SPECIALS))
            elif fp and r < 0.8:
                words.append(
                    (self.rng.getrandbits(1) << 31) | (self.rng.randint(110, 145) << 23) | self.rng.getrandbits(23)
                )
            elif r < 0.9:
                words.append(self.rng.getrandbits(32))
            else:
                words.append(self.rng.choice([0, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0x00FF00FF, 0x80808080]))
        return words

    def index_tables(self) -> list[str]:
        """Three tables of aligned byte offsets (8-, 16- and 32-bit entries) for indexed accesses."""
        out = []
        for ieew in (8, 16, 32):
            n = self.idx_len // (ieew // 8)
            vals = [self.rng.randrange(0, self.idx_span[ieew], 4) for _ in range(n)]
            directive = {8: ".byte", 16: ".half", 32: ".word"}[ieew]
            out += [f"  {directive} {', '.join(str(v) for v in vals[i : i + 16])}" for i in range(0, n, 16)]
        return out

    def generate(self) -> VectorProgram:
        frame = Frame(32)
        out = [
            f"# random vector program: family {self.family}, seed {self.seed}, VLEN {self.vlen}, {self.length} items",
            "  .text",
            "  .globl main",
            "  .type main, @function",
            "main:",
            *frame.enter(".Lrv_trap"),
            f"  la {BASE}, .Lrv_data",
            "  csrwi vcsr, 0",
            "  csrwi fcsr, 0",
        ]
        # every vector register from the data buffer, 8 at a time
        out.append(f"  vsetvli {VLOUT}, x0, e8, m8, tu, mu")
        for g in range(4):
            out += [
                f"  li {ADDR}, {g * 8 * self.vlenb}",
                f"  add {ADDR}, {ADDR}, {BASE}",
                f"  vle8.v v{8 * g}, ({ADDR})",
            ]
        for reg in range(32):
            pattern = self.rng.choice(FLOAT_SPECIALS)
            out += [f"  li x5, {pattern - (1 << 32) if pattern >> 31 else pattern}", f"  fmv.w.x f{reg}, x5"]
        for reg in SCALARS:
            out.append(f"  li x{reg}, {self._scalar_value()}")
        if self.family in ("fixed", "mix"):
            out.append(f"  csrwi vxrm, {self.rng.randrange(4)}")
        if self.family in ("fp", "red", "mix"):
            out.append(f"  fsrmi {self.rng.randrange(5)}")
        for item in self.body():
            out += [f"  {ln}" for ln in item]
        out += ["  csrwi vcsr, 0", "  csrwi fcsr, 0", *frame.leave(), "  .size main, .-main", ""]
        out += trap_handler(".Lrv_trap", reads=("mcause", "mtval"))
        out += ["", "  .data", "  .balign 64", ".Lrv_data:"]
        out += [f"  .word 0x{w:08x}" for w in self.data_words()]
        out += self.index_tables()
        self.prog.text = "\n".join(out) + "\n"
        return self.prog


def generate_vector(seed: int, vlen: int, family: str, length: int = 60, **options) -> VectorProgram:
    """A random vector program of ``family`` for a VLEN-bit unit (see :class:`VectorGenerator`)."""
    return VectorGenerator(seed, vlen, family, length, **options).generate()


def main(argv: list[str] | None = None) -> int:
    import argparse
    import sys
    from pathlib import Path

    from configs import load_soc

    p = argparse.ArgumentParser(
        prog="python -m sim.randgen.vector",
        description="Write one random RVV program (reproduce a failing seed of the vector difftest).",
    )
    p.add_argument("--soc", default="t1-small", help="a vector SoC config (gives VLEN)")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--family", required=True, choices=FAMILIES)
    p.add_argument("--length", type=int, default=60, help="random items in the body")
    p.add_argument("-o", "--output", type=Path, help="output .S (default: stdout)")
    args = p.parse_args(argv)
    soc = load_soc(args.soc)
    vlen = getattr(soc.accelerator, "vlen", None)
    if vlen is None:
        p.error(f"{args.soc} has no vector unit; use a vector SoC such as t1-small or t1-blastoise")
    prog = generate_vector(args.seed, vlen, args.family, args.length)
    if args.output is None:
        sys.stdout.write(prog.text)
        return 0
    args.output.write_text(prog.text)
    elf = args.output.with_suffix(".elf")
    print(
        f"{args.output}: {prog.vector_instructions} vector instructions. Run it:\n"
        f"  cosim cc --soc {args.soc} -o {elf} {args.output} && cosim difftest {elf} --soc {args.soc}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
