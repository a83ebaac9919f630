"""Instruction word -> text, for trap reports and difftest messages.

Capstone decodes the scalar ISA (I, M, F, Zicsr). Gemmini's custom-3 words go
to :func:`sim.gemmini.disasm.disasm_gemmini` (fields decoded when the caller knows
rs1 and rs2). Other decoders (the vector unit's) plug in with
:func:`register_decoder`; they are tried first, in registration order. A word
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

_decoders: list[Decoder] = []


def register_decoder(decoder: Decoder) -> None:
    """Add a decoder consulted before capstone (e.g. for RVV or Gemmini words)."""
    if decoder not in _decoders:
        _decoders.append(decoder)


@cache
def _capstone(xlen: int) -> capstone.Cs:
    mode = capstone.CS_MODE_RISCV64 if xlen == 64 else capstone.CS_MODE_RISCV32
    return capstone.Cs(capstone.CS_ARCH_RISCV, mode)


def disassemble(word: int, xlen: int = 32, *, rs1: int | None = None, rs2: int | None = None) -> str:
    """Assembly text of one 32-bit instruction word (``rs1``/``rs2``: register values, for Gemmini's fields)."""
    word &= 0xFFFF_FFFF
    if is_gemmini(word):  # capstone knows no custom-3 words
        return disasm_gemmini(word, rs1, rs2)
    for decoder in _decoders:
        text = decoder(word, xlen)
        if text:
            return text
    for insn in _capstone(xlen).disasm(word.to_bytes(4, "little"), 0):
        if insn.size == 4:
            return f"{insn.mnemonic} {insn.op_str}".strip()
    return f".word 0x{word:08x}"
