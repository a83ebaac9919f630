"""Instruction word -> text, for trap reports and difftest messages.

Capstone decodes the scalar ISA (I, M, F, Zicsr). Other decoders (the vector
unit's, Gemmini's RoCC) plug in with :func:`register_decoder`; they are tried
first, in registration order. A word nobody decodes prints as ``.word 0x...``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import capstone

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


def disassemble(word: int, xlen: int = 32) -> str:
    """Assembly text of one 32-bit instruction word."""
    word &= 0xFFFF_FFFF
    for decoder in _decoders:
        text = decoder(word, xlen)
        if text:
            return text
    for insn in _capstone(xlen).disasm(word.to_bytes(4, "little"), 0):
        if insn.size == 4:
            return f"{insn.mnemonic} {insn.op_str}".strip()
    return f".word 0x{word:08x}"
