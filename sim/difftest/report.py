"""How the comparator reports: the first :class:`Divergence`, the run's :class:`DiffResult`, and the
words of each kind of failure, with the last few RTL instructions as context.

Every ``fail_*`` method of :class:`Reporter` raises :class:`DivergenceFound`; the comparator's
driver catches it, so the first divergence ends the comparison wherever it is found.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from sim.difftest.record import Commit, Completion, RegKey
from sim.difftest.rtl_trace import parse_rtl_commit
from sim.disasm import Disassembler

UNBOXED = 1 << 64  # marks an RV64 f-register value that lacks its NaN-box


@dataclass
class Divergence:
    """The first place where the RTL and Spike disagree."""

    index: int  # 1-based number of the instruction in retirement order
    pc: int
    insn: int
    disassembly: str
    what: str  # pc | instruction | register | memory | spike-ended | completion
    details: list[str]
    rtl_text: str = ""
    spike_text: str = ""
    rtl_line: int = 0
    spike_line: int = 0
    context: list[str] = field(default_factory=list)
    note: str = ""

    def format(self) -> str:
        lines = [
            f"first divergence at instruction {self.index} ({self.what}): "
            f"pc 0x{self.pc:08x}: {self.disassembly} (0x{self.insn:08x})"
        ]
        lines += [f"  {d}" for d in self.details]
        if self.note:
            lines.append(f"  note: {self.note}")
        if self.rtl_text:
            lines.append(f"  RTL   (trace line {self.rtl_line}): {self.rtl_text}")
        if self.spike_text:
            lines.append(f"  Spike (log line {self.spike_line}): {self.spike_text}")
        if self.context:
            lines.append(f"context (the {len(self.context)} instructions before it, RTL side):")
            lines += [f"  {c}" for c in self.context]
        return "\n".join(lines)


@dataclass
class DiffResult:
    compared: int  # instructions compared
    divergence: Divergence | None
    copied_from_rtl: int = 0  # values taken from the RTL instead of compared
    rtl_traps: int = 0
    unchecked: int = 0  # RTL instructions on paths that depended on counter/MMIO values
    resyncs: int = 0  # times the two sides were realigned after such a path
    vector_stores: int = 0  # vector stores whose memory writes were compared

    @property
    def ok(self) -> bool:
        return self.divergence is None

    def summary(self) -> str:
        if self.divergence is None:
            extra = (
                f"; {self.copied_from_rtl} counter/MMIO-derived values taken from the RTL"
                if self.copied_from_rtl
                else ""
            )
            if self.vector_stores:
                extra += f"; memory writes of {self.vector_stores} vector stores compared"
            if self.resyncs:
                extra += (
                    f"; {self.unchecked} instructions on {self.resyncs} counter-dependent paths realigned, not compared"
                )
            return f"no divergence ({self.compared} instructions compared{extra})"
        return self.divergence.format()


class DivergenceFound(Exception):
    def __init__(self, divergence: Divergence):
        self.divergence = divergence


def format_value(k: RegKey, v: int, xlen: int) -> str:
    """A register value as a report shows it: whole vector registers, f registers in 8 digits (or
    flagged when an RV64 value lacks its NaN-box), the rest in XLEN/4 digits."""
    if k[0] == "v":
        return f"0x{v:x}"  # whole vector register (VLEN bits)
    if k[0] == "f" and v & UNBOXED:
        return f"0x{v ^ UNBOXED:016x} (not NaN-boxed)"
    digits = 8 if k[0] == "f" and v >> 32 == 0 else xlen // 4
    return f"0x{v:0{digits}x}"


def bit_hint(a: int, b: int) -> str:
    """``, bit N differs`` when two values differ in exactly one bit (an injected fault, a stuck line)."""
    x = a ^ b
    if x and x & (x - 1) == 0:
        return f", bit {x.bit_length() - 1} differs"
    return ""


def clip(text: str, limit: int = 400) -> str:
    """A raw line for a message: long vector store lines are cut."""
    return text if len(text) <= limit else text[:limit] + f" ... ({len(text)} characters)"


class Reporter:
    """Builds each kind of :class:`Divergence` and raises it; keeps the last ``context_lines`` RTL lines."""

    def __init__(self, disasm: Disassembler, context_lines: int):
        self.disasm = disasm
        self.context: deque[tuple[int, str, int]] = deque(maxlen=context_lines)  # (index, RTL line, line no)

    def context_lines(self) -> list[str]:
        out = []
        for i, text, line_no in self.context:
            c = parse_rtl_commit(text, line_no)
            out.append(f"{i:>8}  0x{c.pc:08x}  {self.disasm(c.pc, c.insn):<32} {c.text}")
        return out

    def diverge(self, index: int, at: Commit | None, what: str, details: list[str], **texts) -> None:
        """Raise the divergence at instruction ``index``, named by the commit ``at`` (None for an
        RTL completion that matches no commit), with the recent context; ``texts`` are
        Divergence's trace-line fields."""
        raise DivergenceFound(
            Divergence(
                index=index,
                pc=at.pc if at else 0,
                insn=at.insn if at else 0,
                disassembly=self.disasm(at.pc, at.insn) if at else "-",
                what=what,
                details=details,
                context=self.context_lines(),
                **texts,
            )
        )

    def fail(self, index: int, r: Commit, s: Commit | None, what: str, details: list[str], note: str = "") -> None:
        """The pair of commits ``r`` (RTL) and ``s`` (Spike) disagree."""
        spike = {"spike_text": s.text, "spike_line": s.line_no} if s else {}
        self.diverge(index, r, what, details, rtl_text=r.text, rtl_line=r.line_no, note=note, **spike)

    def fail_unfinished(self, index: int, s: Commit, what: str, detail: str) -> None:
        """Spike committed a coprocessor instruction whose RTL completion never came."""
        self.diverge(index, s, what, [detail], spike_text=s.text, spike_line=s.line_no)

    def fail_unexpected(self, index: int, c: Completion, what: str, detail: str) -> None:
        """An RTL completion that matches nothing Spike committed (no pc to name)."""
        self.diverge(index, None, what, [detail], rtl_text=c.text, rtl_line=c.line_no)

    def fail_completion(
        self, index: int, c: Completion, s: Commit, details: list[str], what: str = "completion"
    ) -> None:
        """A coprocessor result (or a vector store's memory writes) differs from what Spike committed."""
        self.diverge(
            index,
            s,
            what,
            [f"result of coprocessor instruction #{c.seq}:", *details],
            rtl_text=clip(c.text),
            rtl_line=c.line_no,
            spike_text=clip(s.text),
            spike_line=s.line_no,
        )
