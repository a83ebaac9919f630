"""Taint tracking: the registers, CSRs and memory bytes whose values may legitimately differ between
the RTL and Spike, so the comparator takes them from the RTL instead of comparing them.

A value is tainted when it was read from a time or counter CSR or from the MMIO page, or computed
from a tainted value (a load from tainted bytes, an instruction with a tainted source). A write
of an untainted value clears the taint of its destination.
"""

from __future__ import annotations

from collections.abc import Iterable

from sim.difftest.decode import VOLATILE_CSRS, Decoded
from sim.difftest.record import (
    CSR_FCSR,
    CSR_FFLAGS,
    CSR_FRM,
    CSR_VCSR,
    CSR_VXRM,
    CSR_VXSAT,
    Commit,
    RegKey,
    normalize_writes,
)


def is_gemmini_counter(insn: int) -> bool:
    """Gemmini's counter instruction (custom-3, funct7 126): rd counts cycles/events, which legitimately differ."""
    return insn & 0x7F == 0x7B and insn >> 25 == 126


def load_width(insn: int) -> int:
    return 1 << ((insn >> 12) & 3)


def expand(k: RegKey) -> set[RegKey]:
    """The locations a key stands for: fcsr is fflags + frm, vcsr is vxsat + vxrm (the parts are tracked)."""
    if k == ("c", CSR_FCSR):
        return {("c", CSR_FFLAGS), ("c", CSR_FRM)}
    if k == ("c", CSR_VCSR):
        return {("c", CSR_VXSAT), ("c", CSR_VXRM)}
    return {k}


class Taint:
    """The tainted registers/CSRs (``regs``) and memory bytes (``mem``)."""

    def __init__(self) -> None:
        self.regs: set[RegKey] = set()
        self.mem: set[int] = set()

    def touches(self, keys: Iterable[RegKey]) -> bool:
        """Whether any of ``keys`` (or a part of one) is tainted."""
        return any(expand(k) & self.regs for k in keys)

    def dests(self, d: Decoded, r: Commit, written: set[RegKey], mmio_load: bool) -> set[RegKey]:
        """Which of this instruction's writes may legitimately differ (``r``: the RTL's commit)."""
        if d.csr is not None:
            csr_keys = expand(("c", d.csr))
            old_differs = d.csr in VOLATILE_CSRS or bool(csr_keys & self.regs)
            rs1_tainted = self.touches(k for k in d.sources if k[0] == "x")
            out: set[RegKey] = set()
            if old_differs and d.dest is not None:
                out.add(d.dest)
            if rs1_tainted or (old_differs and not d.csr_overwrites):
                out |= csr_keys
            return out
        load_tainted = d.is_load and any((m.addr + i) in self.mem for m in r.mem for i in range(load_width(r.insn)))
        if mmio_load or load_tainted or self.touches(d.sources) or is_gemmini_counter(r.insn):
            return set(written)
        return set()

    def mark(self, k: RegKey, tainted: bool) -> None:
        if tainted:
            self.regs.add(k)
        else:
            self.regs.discard(k)

    def mark_mem(self, addrs: Iterable[int], tainted: bool) -> None:
        if tainted:
            self.mem.update(addrs)
        else:
            self.mem.difference_update(addrs)

    def absorb(self, c: Commit) -> None:
        """Taint everything ``c`` wrote (an instruction on a path that was realigned, not compared)."""
        for k in normalize_writes(c.writes):
            if k != ("x", 0):
                self.regs.add(k)
        for m in c.mem:
            if m.is_store:
                self.mem.update(range(m.addr, m.addr + (m.width or 1)))
