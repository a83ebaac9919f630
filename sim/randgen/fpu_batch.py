"""Batches of single-precision operations for checking an FPU against Spike.

One batch is one assembly program (``main`` returns 0) that runs thousands of
operations — every RV F operation, every static rounding mode and the dynamic
mode under each legal ``frm`` — over special and random operands, and stores for
each operation its result bits and the fflags it raised (read and cleared after
each operation) into the ``.bss`` array :data:`RESULTS_SYMBOL`. Running the ELF on
two targets and comparing that array bit for bit compares the FPUs; :meth:`FpuBatch.decode`
says which operation each slot holds.

Memory layout: operands, 3 slots of 8 bytes per operation (binary32 in the low 4
bytes, or an XLEN integer); results, 16 bytes per operation (result at +0, XLEN
bytes for integer results, 4 for floats; fflags word at +8).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from sim.randgen.operands import FLOAT_SPECIALS, int_specials

RESULTS_SYMBOL = "fpu_results"
OPERAND_BYTES = 24
SLOT_BYTES = 16
STATIC_MODES = ("rne", "rtz", "rdn", "rup", "rmm")


@dataclass(frozen=True)
class FpuOpSpec:
    mnemonic: str
    sources: str  # one letter per source: f (float register) or x (integer register)
    dest: str  # f or x
    rounded: bool  # takes a rounding-mode operand


def op_specs(xlen: int) -> list[FpuOpSpec]:
    specs = [
        FpuOpSpec("fadd.s", "ff", "f", True),
        FpuOpSpec("fsub.s", "ff", "f", True),
        FpuOpSpec("fmul.s", "ff", "f", True),
        FpuOpSpec("fdiv.s", "ff", "f", True),
        FpuOpSpec("fsqrt.s", "f", "f", True),
        FpuOpSpec("fmadd.s", "fff", "f", True),
        FpuOpSpec("fmsub.s", "fff", "f", True),
        FpuOpSpec("fnmsub.s", "fff", "f", True),
        FpuOpSpec("fnmadd.s", "fff", "f", True),
        FpuOpSpec("fcvt.w.s", "f", "x", True),
        FpuOpSpec("fcvt.wu.s", "f", "x", True),
        FpuOpSpec("fcvt.s.w", "x", "f", True),
        FpuOpSpec("fcvt.s.wu", "x", "f", True),
        FpuOpSpec("fmin.s", "ff", "f", False),
        FpuOpSpec("fmax.s", "ff", "f", False),
        FpuOpSpec("feq.s", "ff", "x", False),
        FpuOpSpec("flt.s", "ff", "x", False),
        FpuOpSpec("fle.s", "ff", "x", False),
        FpuOpSpec("fclass.s", "f", "x", False),
        FpuOpSpec("fsgnj.s", "ff", "f", False),
        FpuOpSpec("fsgnjn.s", "ff", "f", False),
        FpuOpSpec("fsgnjx.s", "ff", "f", False),
        FpuOpSpec("fmv.x.w", "f", "x", False),
        FpuOpSpec("fmv.w.x", "x", "f", False),
    ]
    if xlen == 64:
        specs += [
            FpuOpSpec("fcvt.l.s", "f", "x", True),
            FpuOpSpec("fcvt.lu.s", "f", "x", True),
            FpuOpSpec("fcvt.s.l", "x", "f", True),
            FpuOpSpec("fcvt.s.lu", "x", "f", True),
        ]
    return specs


@dataclass
class FpuGroup:
    """One loop of the batch: one operation under one rounding mode over many operand tuples."""

    spec: FpuOpSpec
    mode: str  # rne..rmm, "dyn", or "" for operations without rounding
    frm: int | None  # frm set for a dyn group
    operands: list[tuple[int, ...]]
    first_slot: int


@dataclass
class FpuResult:
    group: FpuGroup
    operands: tuple[int, ...]
    value: int
    fflags: int

    def describe(self) -> str:
        mode = self.group.mode + (f" (frm={self.group.frm})" if self.group.frm is not None else "")
        ops = ", ".join(f"0x{v:08x}" for v in self.operands)
        return f"{self.group.spec.mnemonic} {mode} ({ops}) -> 0x{self.value:x} flags 0x{self.fflags:02x}"


@dataclass
class FpuBatch:
    seed: int
    xlen: int
    groups: list[FpuGroup] = field(default_factory=list)
    text: str = ""

    @property
    def operations(self) -> int:
        return sum(len(g.operands) for g in self.groups)

    @property
    def results_bytes(self) -> int:
        return self.operations * SLOT_BYTES

    def decode(self, dump: bytes) -> list[FpuResult]:
        """Results array (as read from memory after EXIT) -> one record per operation."""
        if len(dump) < self.results_bytes:
            raise ValueError(f"results dump has {len(dump)} bytes, the batch writes {self.results_bytes}")
        out = []
        for g in self.groups:
            for i, operands in enumerate(g.operands):
                base = (g.first_slot + i) * SLOT_BYTES
                width = self.xlen // 8 if g.spec.dest == "x" else 4
                value = int.from_bytes(dump[base : base + width], "little")
                flags = int.from_bytes(dump[base + 8 : base + 12], "little")
                out.append(FpuResult(g, operands, value, flags))
        return out


class _OperandSource:
    def __init__(self, rng: random.Random, xlen: int):
        self.rng, self.xlen = rng, xlen
        self.ints = int_specials(xlen)

    def float_bits(self) -> int:
        r = self.rng.random()
        if r < 0.45:
            return self.rng.choice(FLOAT_SPECIALS)
        if r < 0.8:  # ordinary magnitudes: where rounding decisions happen
            sign = self.rng.getrandbits(1) << 31
            exp = self.rng.randrange(100, 155)
            return sign | (exp << 23) | self.rng.getrandbits(23)
        if r < 0.9:  # tiny: subnormal results and underflow
            return (self.rng.getrandbits(1) << 31) | (self.rng.randrange(0, 8) << 23) | self.rng.getrandbits(23)
        return self.rng.getrandbits(32)

    def int_bits(self) -> int:
        r = self.rng.random()
        if r < 0.5:
            return self.rng.choice(self.ints)
        if r < 0.75:  # just above float's 24-bit mantissa: inexact conversions
            return (self.rng.getrandbits(26) | (1 << 25)) * self.rng.choice([1, -1]) & ((1 << self.xlen) - 1)
        return self.rng.getrandbits(self.xlen)

    def tuple_for(self, spec: FpuOpSpec) -> tuple[int, ...]:
        vals = tuple(self.float_bits() if s == "f" else self.int_bits() for s in spec.sources)
        if len(vals) == 3 and self.rng.random() < 0.25:
            # a*b + c with c close to -(a*b): cancellation, the hard case for a fused adder
            a, b, _ = vals
            return (a, b, (a ^ 0x80000000) if self.rng.random() < 0.5 else (b ^ 0x80000000))
        return vals


def generate_batch(seed: int, xlen: int, per_group: int = 64) -> FpuBatch:
    """A batch covering every operation x (every static mode + dyn under each frm), or once for unrounded ops."""
    if xlen not in (32, 64):
        raise ValueError(f"xlen must be 32 or 64, not {xlen}")
    if per_group < 1:
        raise ValueError("per_group must be at least 1")
    rng = random.Random(seed)
    src = _OperandSource(rng, xlen)
    batch = FpuBatch(seed, xlen)
    slot = 0
    for spec in op_specs(xlen):
        modes: list[tuple[str, int | None]]
        if spec.rounded:
            modes = [(m, None) for m in STATIC_MODES] + [("dyn", frm) for frm in range(5)]
        else:
            modes = [("", None)]
        for mode, frm in modes:
            operands = [src.tuple_for(spec) for _ in range(per_group)]
            batch.groups.append(FpuGroup(spec, mode, frm, operands, slot))
            slot += per_group
    batch.text = _assemble(batch)
    return batch


def _assemble(batch: FpuBatch) -> str:
    xload, xstore = ("ld", "sd") if batch.xlen == 64 else ("lw", "sw")
    out = [
        f"# FPU batch: seed {batch.seed}, xlen {batch.xlen}, {batch.operations} operations",
        "  .text",
        "  .globl main",
        "  .type main, @function",
        "main:",
    ]
    data = ["  .data", "  .balign 8"]
    for k, g in enumerate(batch.groups):
        spec = g.spec
        out.append(f"  # group {k}: {spec.mnemonic} {g.mode}")
        if g.frm is not None:
            out.append(f"  csrwi frm, {g.frm}")
        out += [
            f"  la a1, .Lfb_ops{k}",
            f"  la a2, {RESULTS_SYMBOL} + {g.first_slot * SLOT_BYTES}",
            f"  li a3, {len(g.operands)}",
            "  csrwi fflags, 0",
            "1:",
        ]
        regs = []
        for i, kind in enumerate(spec.sources):
            if kind == "f":
                out.append(f"  flw ft{i}, {8 * i}(a1)")
                regs.append(f"ft{i}")
            else:
                out.append(f"  {xload} t{i}, {8 * i}(a1)")
                regs.append(f"t{i}")
        dest = "ft3" if spec.dest == "f" else "t3"
        rm = f", {g.mode}" if spec.rounded else ""
        out.append(f"  {spec.mnemonic} {dest}, {', '.join(regs)}{rm}")
        out.append("  fsw ft3, 0(a2)" if spec.dest == "f" else f"  {xstore} t3, 0(a2)")
        out += [
            "  fsflags t4, zero",
            "  sw t4, 8(a2)",
            f"  addi a1, a1, {OPERAND_BYTES}",
            f"  addi a2, a2, {SLOT_BYTES}",
            "  addi a3, a3, -1",
            "  bnez a3, 1b",
        ]
        data.append(f".Lfb_ops{k}:")
        for operands in g.operands:
            words = [*operands, *([0] * (3 - len(operands)))]
            data.append("  .dword " + ", ".join(f"0x{w:x}" for w in words))
    out += ["  csrwi fcsr, 0", "  li a0, 0", "  ret", "  .size main, .-main", ""]
    bss = [
        "  .bss",
        "  .balign 16",
        f"  .globl {RESULTS_SYMBOL}",
        f"{RESULTS_SYMBOL}:",
        f"  .zero {batch.results_bytes}",
        f"  .size {RESULTS_SYMBOL}, {batch.results_bytes}",
    ]
    return "\n".join(out + data + [""] + bss) + "\n"
