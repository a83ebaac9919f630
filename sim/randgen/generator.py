"""Random instruction programs for the scalar ISA (RV32/RV64 IMF + Zicsr).

A program is one assembly file with a ``main`` that the runtime calls and that
returns 0. Its body is a random mix of integer, M, F (special operands, every
static rounding mode and dynamic ``frm``), CSR, load/store (every width, aligned
at every legal offset) and control-flow instructions. Branches and jumps only go
forward, so every program terminates; loads and stores only touch the program's
own data block through a base register the body never writes. The same seed and
options always give the same text (``random.Random`` is stable across platforms).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from sim.randgen.frame import Frame, trap_handler
from sim.randgen.operands import FLOAT_SPECIALS, int_specials

BASE_REG = 27  # s11: the data block's address; never a random destination
# Random destinations/sources: everything but zero, sp, gp, tp and the base.
X_POOL = (1, *range(5, 27), 28, 29, 30, 31)
ROUNDING = ("rne", "rtz", "rdn", "rup", "rmm", "dyn")
MAX_FORWARD = 12  # farthest branch target, in body items
# CSRs the "csr" class reads and writes with every Zicsr form (mscratch twice as often).
CSR_TARGETS = ("mscratch", "mscratch", "mepc", "mtval")

# Relative frequency of each instruction class in the body.
DEFAULT_WEIGHTS: dict[str, float] = {
    "alu_rr": 10,
    "alu_ri": 10,
    "upper": 2,
    "li": 3,
    "muldiv": 8,
    "muldiv_corner": 3,
    "load": 7,
    "store": 7,
    "fp_arith": 10,
    "fp_fma": 5,
    "fp_misc": 6,
    "fp_cvt": 6,
    "fp_move": 3,
    "fp_special": 4,
    "fflags": 4,
    "frm": 3,
    "csr": 4,
    "counter": 1,
    "branch": 6,
    "jump": 2,
    "trap": 1,
}


@dataclass
class Program:
    seed: int
    xlen: int
    text: str
    classes: Counter = field(default_factory=Counter)  # instruction class -> count
    mnemonics: Counter = field(default_factory=Counter)  # body mnemonic -> count
    rounding_modes: Counter = field(default_factory=Counter)


@dataclass
class _Body:
    items: list[list[str]] = field(default_factory=list)
    labels: dict[int, list[str]] = field(default_factory=dict)  # item index -> labels placed before it


class Generator:
    def __init__(
        self,
        seed: int,
        xlen: int,
        length: int = 300,
        data_bytes: int = 1024,
        weights: dict[str, float] | None = None,
        csr_targets: tuple[str, ...] = CSR_TARGETS,
    ):
        if xlen not in (32, 64):
            raise ValueError(f"xlen must be 32 or 64, not {xlen}")
        if data_bytes % 8 or not 64 <= data_bytes <= 2048:
            raise ValueError(f"data_bytes must be a multiple of 8 in [64, 2048] (12-bit offsets), not {data_bytes}")
        self.seed, self.xlen, self.length, self.data_bytes = seed, xlen, length, data_bytes
        self.rng = random.Random(seed)
        self.weights = dict(weights or DEFAULT_WEIGHTS)
        unknown = set(self.weights) - set(DEFAULT_WEIGHTS)
        if unknown:
            raise ValueError(f"unknown instruction classes {sorted(unknown)}; known: {sorted(DEFAULT_WEIGHTS)}")
        if not csr_targets or set(csr_targets) - set(CSR_TARGETS):
            raise ValueError(f"csr_targets must be a non-empty selection of {sorted(set(CSR_TARGETS))}")
        self.csr_targets = tuple(csr_targets)
        self.ints = int_specials(xlen)
        self.prog = Program(seed, xlen, "")
        self._label_no = 0

    # ---- helpers ------------------------------------------------------------

    def x(self) -> str:
        return f"x{self.rng.choice(X_POOL)}"

    def f(self) -> str:
        return f"f{self.rng.randrange(32)}"

    def rm(self) -> str:
        mode = self.rng.choice(ROUNDING)
        self.prog.rounding_modes[mode] += 1
        return mode

    def int_value(self) -> int:
        r = self.rng.random()
        if r < 0.6:
            return self.rng.choice(self.ints)
        if r < 0.8:
            return self.rng.randrange(-64, 64) & ((1 << self.xlen) - 1)
        return self.rng.getrandbits(self.xlen)

    def signed(self, v: int) -> int:
        return v - (1 << self.xlen) if v >> (self.xlen - 1) else v

    def _note(self, cls: str, lines: list[str]) -> list[str]:
        self.prog.classes[cls] += 1
        for ln in lines:
            if not ln.endswith(":"):
                self.prog.mnemonics[ln.split()[0]] += 1
        return lines

    # ---- instruction classes --------------------------------------------------

    def alu_rr(self) -> list[str]:
        ops = ["add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and"]
        if self.xlen == 64:
            ops += ["addw", "subw", "sllw", "srlw", "sraw"]
        return [f"{self.rng.choice(ops)} {self.x()}, {self.x()}, {self.x()}"]

    def alu_ri(self) -> list[str]:
        r = self.rng.random()
        if r < 0.55:
            op = self.rng.choice(["addi", "slti", "sltiu", "xori", "ori", "andi"])
            imm = self.rng.choice([-2048, -1, 0, 1, 2047, self.rng.randrange(-2048, 2048)])
            return [f"{op} {self.x()}, {self.x()}, {imm}"]
        if r < 0.85 or self.xlen == 32:
            op = self.rng.choice(["slli", "srli", "srai"])
            return [f"{op} {self.x()}, {self.x()}, {self.rng.randrange(self.xlen)}"]
        op = self.rng.choice(["addiw", "slliw", "srliw", "sraiw"])
        imm = self.rng.randrange(-2048, 2048) if op == "addiw" else self.rng.randrange(32)
        return [f"{op} {self.x()}, {self.x()}, {imm}"]

    def upper(self) -> list[str]:
        return [f"{self.rng.choice(['lui', 'auipc'])} {self.x()}, 0x{self.rng.randrange(1 << 20):x}"]

    def li(self) -> list[str]:
        return [f"li {self.x()}, {self.signed(self.int_value())}"]

    def _muldiv_ops(self) -> list[str]:
        ops = ["mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"]
        if self.xlen == 64:
            ops += ["mulw", "divw", "divuw", "remw", "remuw"]
        return ops

    def muldiv(self) -> list[str]:
        return [f"{self.rng.choice(self._muldiv_ops())} {self.x()}, {self.x()}, {self.x()}"]

    def muldiv_corner(self) -> list[str]:
        """Division by zero and signed overflow (most negative / -1), word and full width."""
        op = self.rng.choice([o for o in self._muldiv_ops() if o.startswith(("div", "rem", "mulh"))])
        rs1, rs2, rd = self.x(), self.x(), self.x()
        while rs2 == rs1:
            rs2 = self.x()
        word = op.endswith("w")
        smin = -(1 << 31) if word else -(1 << (self.xlen - 1))
        if self.rng.random() < 0.5:
            setup = [f"li {rs1}, {self.signed(self.int_value())}", f"li {rs2}, 0"]
        else:
            setup = [f"li {rs1}, {smin}", f"li {rs2}, -1"]
        return [*setup, f"{op} {rd}, {rs1}, {rs2}"]

    def _offset(self, width: int) -> int:
        return self.rng.randrange(0, self.data_bytes, width)

    def load(self) -> list[str]:
        widths = {"lb": 1, "lbu": 1, "lh": 2, "lhu": 2, "lw": 4, "flw": 4}
        if self.xlen == 64:
            widths |= {"lwu": 4, "ld": 8}
        op = self.rng.choice(sorted(widths))
        rd = self.f() if op == "flw" else self.x()
        return [f"{op} {rd}, {self._offset(widths[op])}(x{BASE_REG})"]

    def store(self) -> list[str]:
        widths = {"sb": 1, "sh": 2, "sw": 4, "fsw": 4}
        if self.xlen == 64:
            widths["sd"] = 8
        op = self.rng.choice(sorted(widths))
        rs = self.f() if op == "fsw" else self.x()
        return [f"{op} {rs}, {self._offset(widths[op])}(x{BASE_REG})"]

    def fp_arith(self) -> list[str]:
        op = self.rng.choice(["fadd.s", "fsub.s", "fmul.s", "fdiv.s", "fsqrt.s"])
        if op == "fsqrt.s":
            return [f"{op} {self.f()}, {self.f()}, {self.rm()}"]
        return [f"{op} {self.f()}, {self.f()}, {self.f()}, {self.rm()}"]

    def fp_fma(self) -> list[str]:
        op = self.rng.choice(["fmadd.s", "fmsub.s", "fnmsub.s", "fnmadd.s"])
        return [f"{op} {self.f()}, {self.f()}, {self.f()}, {self.f()}, {self.rm()}"]

    def fp_misc(self) -> list[str]:
        op = self.rng.choice(
            ["fmin.s", "fmax.s", "fsgnj.s", "fsgnjn.s", "fsgnjx.s", "feq.s", "flt.s", "fle.s", "fclass.s"]
        )
        if op == "fclass.s":
            return [f"{op} {self.x()}, {self.f()}"]
        rd = self.x() if op in ("feq.s", "flt.s", "fle.s") else self.f()
        return [f"{op} {rd}, {self.f()}, {self.f()}"]

    def fp_cvt(self) -> list[str]:
        to_int = ["fcvt.w.s", "fcvt.wu.s"] + (["fcvt.l.s", "fcvt.lu.s"] if self.xlen == 64 else [])
        from_int = ["fcvt.s.w", "fcvt.s.wu"] + (["fcvt.s.l", "fcvt.s.lu"] if self.xlen == 64 else [])
        op = self.rng.choice(to_int + from_int)
        if op in to_int:
            return [f"{op} {self.x()}, {self.f()}, {self.rm()}"]
        return [f"{op} {self.f()}, {self.x()}, {self.rm()}"]

    def fp_move(self) -> list[str]:
        if self.rng.random() < 0.5:
            return [f"fmv.x.w {self.x()}, {self.f()}"]
        return [f"fmv.w.x {self.f()}, {self.x()}"]

    def fp_special(self) -> list[str]:
        tmp = self.x()
        pattern = self.rng.choice(FLOAT_SPECIALS)
        return [f"li {tmp}, {pattern if pattern < 1 << 31 else pattern - (1 << 32)}", f"fmv.w.x {self.f()}, {tmp}"]

    def fflags(self) -> list[str]:
        # The RTL trace does not log fflags accrual, so reading the flags is how they are checked.
        choice = self.rng.randrange(4)
        if choice == 0:
            return [f"frflags {self.x()}"]
        if choice == 1:
            return [f"fsflags {self.x()}, x0"]  # read and clear
        if choice == 2:
            return [f"csrrci {self.x()}, fflags, {self.rng.randrange(32)}"]
        return [f"frcsr {self.x()}"]

    def frm(self) -> list[str]:
        # Only legal modes (0..4): a dynamic op under frm 5..7 is an illegal instruction.
        choice = self.rng.randrange(3)
        mode = self.rng.randrange(5)
        if choice == 0:
            return [f"fsrmi {self.x()}, {mode}"]
        if choice == 1:
            return [f"csrwi frm, {mode}"]
        tmp = self.x()
        return [f"li {tmp}, {(mode << 5) | self.rng.randrange(32)}", f"fscsr {self.x()}, {tmp}"]

    def csr(self) -> list[str]:
        csr = self.rng.choice(self.csr_targets)
        if self.rng.random() < 0.15:
            regs = ["mstatus", "mtvec", "mscratch", "mcause", "mtval", "mepc"]
            return [f"csrr {self.x()}, {self.rng.choice(regs)}"]
        if self.rng.random() < 0.5:
            op = self.rng.choice(["csrrw", "csrrs", "csrrc"])
            return [f"{op} {self.x()}, {csr}, {self.x()}"]
        op = self.rng.choice(["csrrwi", "csrrsi", "csrrci"])
        return [f"{op} {self.x()}, {csr}, {self.rng.randrange(32)}"]

    def trap(self) -> list[str]:
        """An instruction that traps; the program's own handler skips it (mepc += 4), and
        later ``csr`` items read mcause/mtval/mepc, so both sides must trap the same way."""
        kind = self.rng.randrange(5)
        if kind == 0:
            return [self.rng.choice(["ecall", "ebreak", ".word 0x00000000", "csrr x5, 0x7c0"])]
        widths = {"lh": 2, "lhu": 2, "lw": 4, "flw": 4, "sh": 2, "sw": 4, "fsw": 4}
        if self.xlen == 64:
            widths |= {"lwu": 4, "ld": 8, "sd": 8}
        op = self.rng.choice(sorted(widths))
        w = widths[op]
        off = self.rng.randrange(0, self.data_bytes - w, w) + self.rng.randrange(1, w)  # misaligned
        reg = self.f() if op in ("flw", "fsw") else self.x()
        return [f"{op} {reg}, {off}(x{BASE_REG})"]

    def counter(self) -> list[str]:
        # The value differs between RTL and Spike, so the difftest takes it from the RTL
        # and stops comparing whatever is computed from it; overwriting the register at
        # once keeps that taint from spreading through the rest of the program.
        names = ["mcycle", "minstret"] + (["mcycleh", "minstreth"] if self.xlen == 32 else [])
        rd = self.x()
        return [f"csrr {rd}, {self.rng.choice(names)}", f"li {rd}, {self.signed(self.int_value())}"]

    def _label(self, body: _Body, here: int) -> str:
        self._label_no += 1
        name = f".Lrg{self._label_no}"
        target = min(here + self.rng.randrange(1, MAX_FORWARD + 1), self.length)
        body.labels.setdefault(target, []).append(name)
        return name

    def branch(self, body: _Body, here: int) -> list[str]:
        op = self.rng.choice(["beq", "bne", "blt", "bge", "bltu", "bgeu"])
        rs1 = self.x()
        rs2 = rs1 if self.rng.random() < 0.25 else self.x()
        return [f"{op} {rs1}, {rs2}, {self._label(body, here)}"]

    def jump(self, body: _Body, here: int) -> list[str]:
        label = self._label(body, here)
        if self.rng.random() < 0.5:
            return [f"jal {self.x()}, {label}"]
        tmp = self.x()
        return [f"la {tmp}, {label}", f"jalr {self.x()}, 0({tmp})"]

    # ---- whole program --------------------------------------------------------

    def body(self) -> _Body:
        body = _Body()
        classes = sorted(self.weights)
        weights = [self.weights[c] for c in classes]
        for i in range(self.length):
            cls = self.rng.choices(classes, weights)[0]
            emit = getattr(self, cls)
            lines = emit(body, i) if cls in ("branch", "jump") else emit()
            body.items.append(self._note(cls, lines))
        return body

    def data_words(self) -> list[int]:
        words = []
        for _ in range(self.data_bytes // 4):
            r = self.rng.random()
            if r < 0.4:
                words.append(self.rng.choice(FLOAT_SPECIALS))
            elif r < 0.7:
                words.append(self.rng.choice(self.ints) & 0xFFFF_FFFF)
            else:
                words.append(self.rng.getrandbits(32))
        return words

    def generate(self) -> Program:
        frame = Frame(self.xlen)
        out = [
            f"# random scalar program: seed {self.seed}, xlen {self.xlen}, {self.length} items",
            "  .text",
            "  .globl main",
            "  .type main, @function",
            "main:",
            *frame.enter(".Lrg_trap"),
        ]
        out.append(f"  la x{BASE_REG}, .Lrg_data")
        for reg in X_POOL:
            out.append(f"  li x{reg}, {self.signed(self.int_value())}")
        for reg in range(32):
            pattern = self.rng.choice(FLOAT_SPECIALS)
            out += [f"  li x5, {pattern if pattern < 1 << 31 else pattern - (1 << 32)}", f"  fmv.w.x f{reg}, x5"]
        out.append("  csrwi fcsr, 0")
        body = self.body()
        for i, item in enumerate(body.items):
            out += [f"{lab}:" for lab in body.labels.get(i, [])]
            out += [f"  {ln}" for ln in item]
        out += [f"{lab}:" for lab in body.labels.get(self.length, [])]
        out.append("  csrwi fcsr, 0")
        out += frame.leave()
        out += ["  .size main, .-main", "", *trap_handler(".Lrg_trap"), "", "  .data", "  .balign 64", ".Lrg_data:"]
        out += [f"  .word 0x{w:08x}" for w in self.data_words()]
        self.prog.text = "\n".join(out) + "\n"
        return self.prog


def generate(seed: int, xlen: int, length: int = 300, **options) -> Program:
    """A random program for ``xlen`` from ``seed`` (see :class:`Generator` for options)."""
    return Generator(seed, xlen, length, **options).generate()
