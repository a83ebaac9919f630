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
from sim.randgen.vtypes import ILLEGAL_VTYPES, SEWS, VType, emul_ok, legal_lmuls, regs

BASE = "x27"  # s11: the data buffer; never written by the body
ADDR = "x26"  # s10: address of the current memory operand
AUX = "x25"  # s9: stride, or the index table address
AVL = "x5"  # t0
VLOUT = "x6"  # t1
VTREG = "x7"  # t2: vtype for vsetvl
SCALARS = (8, 9, *range(10, 25))  # random scalar operands (.vx forms) and x results
CSR_READS = ("vl", "vtype", "vstart", "vxsat", "vxrm", "vcsr", "vlenb", "fflags", "frm", "fcsr")

FAMILIES = ("int", "widen", "carry", "muldiv", "fixed", "fp", "red", "mask", "perm", "mem", "mix")
# "mix": every item from a random one of the others (interactions: vtype changes,
# memory between arithmetic, dependent instructions of different units).
ARITH_FAMILIES = tuple(f for f in FAMILIES if f not in ("mem", "mix"))
VSTART_TRAP_RATE = 0.06  # arithmetic items run at vstart != 0: both sides must trap


# ---- instruction tables (mnemonic, operand shape) -------------------------------

INT_OPS = [
    *[(f"{op}.{f}", f) for op in ("vadd", "vand", "vor", "vxor") for f in ("vv", "vx", "vi")],
    *[(f"vsub.{f}", f) for f in ("vv", "vx")],
    *[(f"vrsub.{f}", f) for f in ("vx", "vi")],
    *[(f"{op}.{f}", f if f != "vi" else "vu") for op in ("vsll", "vsrl", "vsra") for f in ("vv", "vx", "vi")],
    *[(f"{op}.{f}", f) for op in ("vminu", "vmin", "vmaxu", "vmax") for f in ("vv", "vx")],
    ("vmerge.vvm", "vvm"),
    ("vmerge.vxm", "vxm"),
    ("vmerge.vim", "vim"),
    ("vmv.v.v", "mv_v"),
    ("vmv.v.x", "mv_x"),
    ("vmv.v.i", "mv_i"),
]
WIDEN_OPS = [
    *[(f"{op}.{f}", "w" + f) for op in ("vwaddu", "vwadd", "vwsubu", "vwsub") for f in ("vv", "vx", "wv", "wx")],
    *[(f"{op}.{f}", "w" + f) for op in ("vwmul", "vwmulu", "vwmulsu") for f in ("vv", "vx")],
    *[(f"{op}.{f}", "wma_" + f) for op in ("vwmaccu", "vwmacc", "vwmaccsu") for f in ("vv", "vx")],
    ("vwmaccus.vx", "wma_vx"),
    *[(f"{op}.{f}", "n" + f) for op in ("vnsrl", "vnsra") for f in ("wv", "wx", "wi")],
    ("vzext.vf2", "ext2"),
    ("vsext.vf2", "ext2"),
    ("vzext.vf4", "ext4"),
    ("vsext.vf4", "ext4"),
]
CARRY_OPS = [
    *[(f"vadc.{f}", f) for f in ("vvm", "vxm", "vim")],
    *[(f"vsbc.{f}", f) for f in ("vvm", "vxm")],
    *[(f"vmadc.{f}", "c" + f) for f in ("vvm", "vxm", "vim", "vv", "vx", "vi")],
    *[(f"vmsbc.{f}", "c" + f) for f in ("vvm", "vxm", "vv", "vx")],
    *[(f"{op}.{f}", "c" + f) for op in ("vmseq", "vmsne", "vmsleu", "vmsle") for f in ("vv", "vx", "vi")],
    *[(f"{op}.{f}", "c" + f) for op in ("vmsltu", "vmslt") for f in ("vv", "vx")],
    *[(f"{op}.{f}", "c" + f) for op in ("vmsgtu", "vmsgt") for f in ("vx", "vi")],
]
MULDIV_OPS = [
    *[
        (f"{op}.{f}", f)
        for op in ("vmul", "vmulh", "vmulhu", "vmulhsu", "vdivu", "vdiv", "vremu", "vrem")
        for f in ("vv", "vx")
    ],
    *[(f"{op}.{f}", "ma_" + f) for op in ("vmacc", "vnmsac", "vmadd", "vnmsub") for f in ("vv", "vx")],
]
FIXED_OPS = [
    *[(f"{op}.{f}", f) for op in ("vsaddu", "vsadd") for f in ("vv", "vx", "vi")],
    *[
        (f"{op}.{f}", f)
        for op in ("vssubu", "vssub", "vaaddu", "vaadd", "vasubu", "vasub", "vsmul")
        for f in ("vv", "vx")
    ],
    *[(f"{op}.{f}", f if f != "vi" else "vu") for op in ("vssrl", "vssra") for f in ("vv", "vx", "vi")],
    *[(f"{op}.{f}", "n" + f) for op in ("vnclipu", "vnclip") for f in ("wv", "wx", "wi")],
]
FP_OPS = [
    *[(f"{op}.{f}", f) for op in ("vfadd", "vfsub", "vfmul", "vfdiv", "vfmin", "vfmax") for f in ("vv", "vf")],
    *[(f"{op}.{f}", f) for op in ("vfsgnj", "vfsgnjn", "vfsgnjx") for f in ("vv", "vf")],
    ("vfrsub.vf", "vf"),
    ("vfrdiv.vf", "vf"),
    *[
        (f"{op}.{f}", "ma_" + f)
        for op in ("vfmacc", "vfnmacc", "vfmsac", "vfnmsac", "vfmadd", "vfnmadd", "vfmsub", "vfnmsub")
        for f in ("vv", "vf")
    ],
    *[
        (f"{op}.v", "v")
        for op in (
            "vfsqrt",
            "vfrec7",
            "vfrsqrt7",
            "vfclass",
            "vfcvt.xu.f",
            "vfcvt.x.f",
            "vfcvt.f.xu",
            "vfcvt.f.x",
            "vfcvt.rtz.xu.f",
            "vfcvt.rtz.x.f",
        )
    ],
    ("vfwcvt.f.xu.v", "fwcvt"),
    ("vfwcvt.f.x.v", "fwcvt"),
    *[(f"vfncvt.{t}.f.w", "fncvt") for t in ("xu", "x", "rtz.xu", "rtz.x")],
    *[(f"{op}.{f}", "c" + f) for op in ("vmfeq", "vmfne", "vmflt", "vmfle") for f in ("vv", "vf")],
    *[(f"{op}.vf", "cvf") for op in ("vmfgt", "vmfge")],
    ("vfmerge.vfm", "vfm"),
    ("vfmv.v.f", "mv_f"),
]
RED_OPS = [
    *[
        (f"{op}.vs", "red")
        for op in ("vredsum", "vredmaxu", "vredmax", "vredminu", "vredmin", "vredand", "vredor", "vredxor")
    ],
    ("vwredsumu.vs", "wred"),
    ("vwredsum.vs", "wred"),
    *[(f"{op}.vs", "fred") for op in ("vfredosum", "vfredusum", "vfredmax", "vfredmin")],
]
MASK_OPS = [
    *[(f"{op}.mm", "mm") for op in ("vmand", "vmnand", "vmandn", "vmxor", "vmor", "vmnor", "vmorn", "vmxnor")],
    ("vcpop.m", "xm"),
    ("vfirst.m", "xm"),
    ("vmsbf.m", "msf"),
    ("vmsif.m", "msf"),
    ("vmsof.m", "msf"),
    ("viota.m", "iota"),
    ("vid.v", "vid"),
]
PERM_OPS = [
    ("vslideup.vx", "slup_x"),
    ("vslideup.vi", "slup_i"),
    ("vslidedown.vx", "sldn_x"),
    ("vslidedown.vi", "sldn_i"),
    ("vslide1up.vx", "sl1up_x"),
    ("vslide1down.vx", "sl1dn_x"),
    ("vfslide1up.vf", "sl1up_f"),
    ("vfslide1down.vf", "sl1dn_f"),
    ("vrgather.vv", "gather_v"),
    ("vrgather.vx", "gather_x"),
    ("vrgather.vi", "gather_i"),
    ("vrgatherei16.vv", "gather16"),
    ("vcompress.vm", "vcompress"),
    ("vmv.x.s", "mv_xs"),
    ("vmv.s.x", "mv_sx"),
    ("vfmv.f.s", "mv_fs"),
    ("vfmv.s.f", "mv_sf"),
    *[(f"vmv{n}r.v", f"mvnr{n}") for n in (1, 2, 4, 8)],
]
MEM_KINDS = ("unit", "unit", "strided", "indexed", "indexed", "seg", "seg", "ff", "whole", "mask")

TABLES: dict[str, list[tuple[str, str]]] = {
    "int": INT_OPS,
    "widen": WIDEN_OPS,
    "carry": CARRY_OPS,
    "muldiv": MULDIV_OPS,
    "fixed": FIXED_OPS,
    "fp": FP_OPS,
    "red": RED_OPS,
    "mask": MASK_OPS,
    "perm": PERM_OPS,
}

# SEW constraints of operand shapes (the vtype the instruction runs under).
_WIDE_SHAPES = {"wvv", "wvx", "wwv", "wwx", "wma_vv", "wma_vx", "nwv", "nwx", "nwi", "wred", "fwcvt", "fncvt"}


def mem_mnemonics() -> set[str]:
    """Every load/store mnemonic the memory family can emit."""
    out = {"vlm.v", "vsm.v"}
    for e in SEWS:
        out |= {f"vl{n}re{e}.v" for n in (1, 2, 4, 8)}
        for nf in range(1, 9):
            seg = f"seg{nf}" if nf > 1 else ""
            out |= {f"vl{seg}e{e}.v", f"vs{seg}e{e}.v", f"vl{seg}e{e}ff.v", f"vls{seg}e{e}.v", f"vss{seg}e{e}.v"}
            out |= {f"v{ls}{o}x{seg}ei{e}.v" for ls in "ls" for o in "uo"}
    return out | {f"vs{n}r.v" for n in (1, 2, 4, 8)}


def all_mnemonics() -> set[str]:
    """Every vector mnemonic the generator can emit (vset* aside)."""
    return {m for table in TABLES.values() for m, _ in table} | mem_mnemonics()


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


class _Unfit(Exception):
    """The chosen instruction has no legal form under the constraints; pick another."""


class VectorGenerator:
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
            raise _Unfit
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
            raise _Unfit
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

    # ---- arithmetic families --------------------------------------------------

    def arith(self, table: list[tuple[str, str]], vstart_trap: bool | None = None) -> list[str]:
        """One item of ``table``; ``vstart_trap`` True/False forces/forbids a nonzero vstart
        (None: now and then, see VSTART_TRAP_RATE)."""
        if vstart_trap is None:
            vstart_trap = self.vstart_traps and self.rng.random() < VSTART_TRAP_RATE
        for _ in range(20):
            mnem, shape = self.rng.choice(table)
            try:
                return self._arith_item(mnem, shape, vstart_trap)
            except _Unfit:
                continue
        return []

    def _arith_item(self, mnem: str, shape: str, vstart_trap: bool = False) -> list[str]:
        fp = mnem.startswith(("vf", "vmf")) and shape not in ("mv_fs", "xm")
        out: list[str] = []
        if shape in ("fwcvt", "fncvt"):
            out += self._ensure_vtype((16,), lambda s, m: emul_ok(2 * m) and m <= 4)
        elif fp or shape in ("fred", "sl1up_f", "sl1dn_f", "mv_sf", "mv_fs"):
            out += self._ensure_vtype((32,), lambda s, m: True)
        elif shape in _WIDE_SHAPES:
            out += self._ensure_vtype((8, 16), lambda s, m: m <= 4)
        elif shape == "ext2":
            out += self._ensure_vtype((16, 32), lambda s, m: emul_ok(m / 2))
        elif shape == "ext4":
            out += self._ensure_vtype((32,), lambda s, m: emul_ok(m / 4))
        elif shape == "gather16":
            out += self._ensure_vtype(SEWS, lambda s, m: emul_ok(m * 16 / s))
        else:
            out += self._ensure_vtype(SEWS, lambda s, m: True)
        vt = self.vtype
        assert vt is not None
        L = vt.lmul
        W = 2 * L
        masked = self._mask()
        mask = ", v0.t" if masked else ""
        x, f = self._x(), self._f()
        simm = self.rng.choice([-16, -1, 0, 1, 15, self.rng.randrange(-16, 16)])
        uimm = self.rng.choice([0, 1, vt.sew - 1, self.rng.randrange(32)])
        pre: list[str] = []
        if shape.endswith(("x", "xm")) and self.rng.random() < 0.3:
            pre.append(f"li {x}, {self._scalar_value()}")

        def grp(emul: Fraction, avoid: set[int] = frozenset(), nov0: bool = masked) -> int:
            return self._group(emul, avoid, nov0)

        def sp(b: int, emul: Fraction) -> set[int]:
            return self._span(b, emul)

        if shape in ("vv", "vx", "vi", "vu", "vf", "v"):
            vd = grp(L)
            vs2, vs1 = grp(L, nov0=False), grp(L, nov0=False)
            src = {"vv": f"v{vs1}", "vx": x, "vi": str(simm), "vu": str(uimm), "vf": f, "v": None}[shape]
            line = f"{mnem} v{vd}, v{vs2}" + (f", {src}" if src else "") + mask
        elif shape in ("ma_vv", "ma_vx", "ma_vf"):
            vd, vs2 = grp(L), grp(L, nov0=False)
            src = {"ma_vv": f"v{grp(L, nov0=False)}", "ma_vx": x, "ma_vf": f}[shape]
            line = f"{mnem} v{vd}, {src}, v{vs2}{mask}"
        elif shape in ("vvm", "vxm", "vim", "vfm"):  # v0 is the carry / selector
            vd = grp(L, nov0=True)
            vs2 = grp(L, nov0=False)
            src = {"vvm": f"v{grp(L, nov0=False)}", "vxm": x, "vim": str(simm), "vfm": f}[shape]
            line = f"{mnem} v{vd}, v{vs2}, {src}, v0"
        elif shape in ("mv_v", "mv_x", "mv_i", "mv_f"):
            vd = grp(L, nov0=False)
            src = {"mv_v": f"v{grp(L, nov0=False)}", "mv_x": x, "mv_i": str(simm), "mv_f": f}[shape]
            line = f"{mnem} v{vd}, {src}"
        elif shape.startswith("c"):  # mask-producing: compares, vmadc/vmsbc
            base = shape[1:]
            vs2 = grp(L, nov0=False)
            vs1 = grp(L, nov0=False)
            avoid = sp(vs2, L) | sp(vs1, L) if L > 1 else set()
            carry = base.endswith("m")
            vd = grp(Fraction(1), avoid, nov0=masked or carry)
            kind = base[:2]
            src = {"vv": f"v{vs1}", "vx": x, "vi": str(simm), "vf": f}[kind]
            if carry:
                line = f"{mnem} v{vd}, v{vs2}, {src}, v0"
            elif mnem.startswith(("vmadc", "vmsbc")):
                line = f"{mnem} v{vd}, v{vs2}, {src}"
            else:
                line = f"{mnem} v{vd}, v{vs2}, {src}{mask}"
        elif shape in ("wvv", "wvx", "wwv", "wwx", "wma_vv", "wma_vx"):
            vd = grp(W)
            wide_src = shape in ("wwv", "wwx")
            vs2 = grp(W if wide_src else L, sp(vd, W), nov0=False)
            if shape.startswith("wma"):
                src = f"v{grp(L, sp(vd, W), nov0=False)}" if shape == "wma_vv" else x
                line = f"{mnem} v{vd}, {src}, v{vs2}{mask}"
            else:
                src = f"v{grp(L, sp(vd, W), nov0=False)}" if shape[-1] == "v" else x
                line = f"{mnem} v{vd}, v{vs2}, {src}{mask}"
        elif shape in ("nwv", "nwx", "nwi"):
            vs2 = grp(W, nov0=False)
            vd = grp(L, sp(vs2, W))
            src = {"nwv": f"v{grp(L, nov0=False)}", "nwx": x, "nwi": str(uimm)}[shape]
            line = f"{mnem} v{vd}, v{vs2}, {src}{mask}"
        elif shape in ("ext2", "ext4"):
            k = 2 if shape == "ext2" else 4
            vd = grp(L)
            vs2 = grp(L / k, sp(vd, L), nov0=False)
            line = f"{mnem} v{vd}, v{vs2}{mask}"
        elif shape == "fwcvt":
            vd = grp(W)
            vs2 = grp(L, sp(vd, W), nov0=False)
            line = f"{mnem} v{vd}, v{vs2}{mask}"
        elif shape == "fncvt":
            vs2 = grp(W, nov0=False)
            vd = grp(L, sp(vs2, W))
            line = f"{mnem} v{vd}, v{vs2}{mask}"
        elif shape in ("red", "wred", "fred"):
            vd, vs1 = self.rng.randrange(32), self.rng.randrange(32)
            vs2 = grp(L, nov0=False)
            line = f"{mnem} v{vd}, v{vs2}, v{vs1}{mask}"
        elif shape == "mm":
            vd, vs2, vs1 = (self.rng.randrange(32) for _ in range(3))
            line = f"{mnem} v{vd}, v{vs2}, v{vs1}"
        elif shape == "xm":
            line = f"{mnem} {x}, v{self.rng.randrange(32)}{mask}"
        elif shape == "msf":
            vs2 = self.rng.randrange(32)
            vd = grp(Fraction(1), {vs2})
            line = f"{mnem} v{vd}, v{vs2}{mask}"
        elif shape == "iota":
            vs2 = self.rng.randrange(32)
            vd = grp(L, {vs2})
            line = f"{mnem} v{vd}, v{vs2}{mask}"
        elif shape == "vid":
            line = f"{mnem} v{grp(L)}{mask}"
        elif shape in ("slup_x", "slup_i", "sldn_x", "sldn_i", "sl1up_x", "sl1dn_x", "sl1up_f", "sl1dn_f"):
            up = "up" in shape
            vs2 = grp(L, nov0=False)
            vd = grp(L, sp(vs2, L) if up else set())
            kind = shape[-1]
            if kind == "x" and not shape.startswith("sl1"):
                pre.append(f"li {x}, {self.rng.choice([0, 1, 2, 3, self.rng.randrange(2 * vt.vlmax(self.vlen) + 2)])}")
            src = {"x": x, "i": str(self.rng.choice([0, 1, 2, self.rng.randrange(32)])), "f": f}[kind]
            line = f"{mnem} v{vd}, v{vs2}, {src}{mask}"
        elif shape in ("gather_v", "gather_x", "gather_i", "gather16"):
            vs2 = grp(L, nov0=False)
            iemul = L * 16 / vt.sew if shape == "gather16" else L
            vs1 = grp(iemul, nov0=False)
            vd = grp(L, sp(vs2, L) | sp(vs1, iemul))
            if shape == "gather_x":
                pre.append(f"li {x}, {self.rng.choice([0, 1, self.rng.randrange(vt.vlmax(self.vlen) + 3)])}")
            src = {"gather_v": f"v{vs1}", "gather16": f"v{vs1}", "gather_x": x, "gather_i": str(uimm)}[shape]
            line = f"{mnem} v{vd}, v{vs2}, {src}{mask}"
        elif shape == "vcompress":
            vs2 = grp(L, nov0=False)
            vs1 = self.rng.randrange(32)
            vd = grp(L, sp(vs2, L) | {vs1}, nov0=False)
            line = f"{mnem} v{vd}, v{vs2}, v{vs1}"
        elif shape == "mv_xs":
            line = f"{mnem} {x}, v{self.rng.randrange(32)}"
        elif shape == "mv_fs":
            line = f"{mnem} {f}, v{self.rng.randrange(32)}"
        elif shape == "mv_sx":
            line = f"{mnem} v{self.rng.randrange(32)}, {x}"
        elif shape == "mv_sf":
            line = f"{mnem} v{self.rng.randrange(32)}, {f}"
        elif shape.startswith("mvnr"):
            n = int(shape[4:])
            line = f"{mnem} v{self.rng.randrange(0, 32, n)}, v{self.rng.randrange(0, 32, n)}"
        else:
            raise AssertionError(shape)
        if vstart_trap:
            # Every OP-V instruction traps at vstart != 0 (Spike and the RTL); the trap
            # leaves vstart as it was, so read it (compared) and clear it.
            self.prog.expected_traps += 1
            trap = [*self._vstart_trap(), *self._note([line]), f"csrr {self._x()}, vstart", "csrwi vstart, 0"]
            return out + pre + trap + self._after(fp)
        return out + pre + self._note([line]) + self._after(fp)

    def _after(self, fp: bool) -> list[str]:
        """Reads of the accrued flags and vector CSRs, so both sides' values compare."""
        out = []
        if fp and self.rng.random() < 0.5:
            out.append(f"frflags {self._x()}")
            if self.rng.random() < 0.5:
                out.append("csrwi fflags, 0")
        if self.cur == "fixed" and self.rng.random() < 0.5:
            out.append(f"csrr {self._x()}, vxsat")
            if self.rng.random() < 0.5:
                out.append("csrwi vxsat, 0")
        if self.rng.random() < 0.1:
            out.append(f"csrr {self._x()}, {self.rng.choice(CSR_READS)}")
        return out

    # ---- memory family ----------------------------------------------------------

    def mem(self) -> list[str]:
        for _ in range(20):
            try:
                return self._mem_item(self.rng.choice(MEM_KINDS))
            except _Unfit:
                continue
        return []

    def _addr(self, off: int) -> list[str]:
        return [f"li {ADDR}, {off}", f"add {ADDR}, {ADDR}, {BASE}"]

    def _mem_item(self, kind: str) -> list[str]:
        store = self.rng.random() < 0.45
        eew = self.rng.choice(SEWS)
        eb = eew // 8
        out: list[str] = []
        if kind == "whole":
            n = self.rng.choice([1, 2, 4, 8])
            reg = self.rng.randrange(0, 32, n)
            off = self.rng.randrange(0, self.buf - n * self.vlenb + 1, eb)
            line = f"vs{n}r.v v{reg}, ({ADDR})" if store else f"vl{n}re{eew}.v v{reg}, ({ADDR})"
            return self._addr(off) + self._vstart() + self._note([line])
        if kind == "mask":
            out += self._ensure_vtype(SEWS, lambda s, m: True)
            off = self.rng.randrange(0, self.buf - self.vlenb + 1)
            reg = self.rng.randrange(32)
            line = f"vsm.v v{reg}, ({ADDR})" if store else f"vlm.v v{reg}, ({ADDR})"
            return out + self._addr(off) + self._vstart() + self._note([line])
        nf = self.rng.randint(2, 8) if kind == "seg" else 1
        mode = self.rng.choice(["unit", "strided", "indexed", "indexed"]) if kind == "seg" else kind
        ff = kind == "ff" or (kind == "seg" and mode == "unit" and not store and self.rng.random() < 0.3)
        if ff:  # fault-only-first (no faults: the buffer is mapped), segment too
            mode, store = "unit", False
        if mode == "indexed":
            ieew = eew
            eew = self.rng.choice(SEWS)  # data EEW is SEW for indexed accesses
            eb = eew // 8
            out += self._ensure_vtype(
                (eew,), lambda s, m: emul_ok(m * ieew / s) and nf * regs(m) <= 8 and regs(m * ieew / s) <= 8
            )
            vt = self.vtype
            assert vt is not None
            demul, iemul = vt.lmul, vt.lmul * ieew / vt.sew
        else:
            out += self._ensure_vtype(SEWS, lambda s, m: emul_ok(m * eew / s) and nf * regs(m * eew / s) <= 8)
            vt = self.vtype
            assert vt is not None
            demul, iemul = vt.lmul * eew / vt.sew, Fraction(0)
        vlmax = vt.vlmax(self.vlen)
        masked = self._mask() if not store or self.rng.random() < 0.9 else False
        mask = ", v0.t" if masked else ""
        seg = f"seg{nf}" if nf > 1 else ""
        pre: list[str] = []
        if mode == "indexed":
            vidx = self._group(iemul, no_v0=masked)
            data = self._group(demul, self._span(vidx, iemul), no_v0=masked, count=nf)
            # the index vector: aligned offsets from a table, loaded at the same vl
            itype = VType(ieew, iemul, vt.ta, vt.ma)
            ioff = self._idx_table_offset(ieew) + self.rng.randrange(0, 64) * (ieew // 8)
            pre += [
                f"li {AUX}, {ioff}",
                f"add {AUX}, {AUX}, {BASE}",
                f"vsetvli x0, x0, {itype.text}",
                f"vle{ieew}.v v{vidx}, ({AUX})",
                f"vsetvli x0, x0, {vt.text}",
            ]
            self.prog.vector_instructions += 3
            span = self.idx_span[ieew] + nf * eb
            off = self.rng.randrange(0, self.buf - span + 1, eb)
            order = self.rng.choice(["u", "o"])
            op = f"v{'s' if store else 'l'}{order}x{seg}ei{ieew}.v"
            line = f"{op} v{data}, ({ADDR}), v{vidx}{mask}"
        else:
            data = self._group(demul, no_v0=masked, count=nf)
            if mode == "strided":
                stride = self._stride(eb, nf, vlmax)
                span = abs(stride) * max(vlmax - 1, 0) + nf * eb
                lo = abs(stride) * max(vlmax - 1, 0) if stride < 0 else 0
                off = self.rng.randrange(lo, lo + self.buf - span + 1, eb) if span <= self.buf else None
                if off is None:
                    raise _Unfit
                pre += [f"li {AUX}, {stride}"]
                op = f"v{'s' if store else 'l'}s{seg}e{eew}.v"
                line = f"{op} v{data}, ({ADDR}), {AUX}{mask}"
            else:
                span = vlmax * nf * eb
                if span > self.buf:
                    raise _Unfit
                off = self.rng.randrange(0, self.buf - span + 1, eb)
                op = f"v{'s' if store else 'l'}{seg}e{eew}{'ff' if ff else ''}.v"
                line = f"{op} v{data}, ({ADDR}){mask}"
        return out + pre + self._addr(off) + self._vstart() + self._note([line]) + self._after(False)

    def _stride(self, eb: int, nf: int, vlmax: int) -> int:
        limit = (self.buf - nf * eb) // max(vlmax - 1, 1) // eb * eb
        options = [0, eb, nf * eb, 2 * nf * eb, -nf * eb, -eb, self.rng.randrange(0, 64, eb)]
        options = [s for s in options if abs(s) <= limit]
        return self.rng.choice(options or [0])

    def _idx_table_offset(self, ieew: int) -> int:
        return self.buf + {8: 0, 16: 1, 32: 2}[ieew] * self.idx_len

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
