"""Disassembly for divergence reports, through capstone (no harness import from sim)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import capstone

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
