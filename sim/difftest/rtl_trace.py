"""Streaming parser of our RTL commit trace (written by the test bench for ``+trace=FILE``).

One line per retired instruction, in retirement order::

    0x<pc> (0x<insn>) [x<n> 0x<v>] [f<n> 0x<v>] [c<addr>_<name> 0x<v>] [mem 0x<a> [0x<d>]] [#<seq>]
    @<seq> x<n> 0x<v> | f<n> 0x<v> | v<n> 0x<v>     a coprocessor completion
    @<seq>[ mem 0x<a> 0x<bytes>]*                  the memory writes of a vector store
    trap <cause> 0x<epc> 0x<tval>                   a trap was taken

(sim/tb/commit_trace.md is the authority; sequence numbers are decimal.)

The writes use the same tokens as Spike's commit log, so the token grammar is
shared with :mod:`sim.difftest.spike_log`. Blank lines and ``//`` comments are ignored.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from sim.difftest.record import Commit, Completion, RtlItem, TrapEvent
from sim.difftest.spike_log import LogFormatError, parse_writes

_HEAD = re.compile(r"^0x([0-9a-fA-F]+)\s+\(0x([0-9a-fA-F]+)\)")


def parse_rtl_line(line: str, line_no: int = 0) -> RtlItem | None:
    text = line.strip()
    if not text or text.startswith("//"):
        return None
    if text.startswith("@"):
        head, *rest = text.split()
        try:
            seq = int(head[1:], 10)
        except ValueError:
            raise LogFormatError(f"RTL trace line {line_no}: bad sequence number {head!r}") from None
        holder = Commit(pc=0, insn=0)
        parse_writes(rest, holder, text, line_no)
        return Completion(seq=seq, writes=holder.writes, line_no=line_no, text=text, mem=holder.mem)
    if text.startswith("trap"):
        parts = text.split()
        if len(parts) != 4:
            raise LogFormatError(f"RTL trace line {line_no}: expected 'trap <cause> 0x<epc> 0x<tval>': {text}")
        try:
            cause, epc, tval = (int(p, 0) for p in parts[1:])
        except ValueError:
            raise LogFormatError(f"RTL trace line {line_no}: bad number in {text!r}") from None
        return TrapEvent(cause=cause, epc=epc, tval=tval, line_no=line_no, text=text)
    m = _HEAD.match(text)
    if m is None:
        raise LogFormatError(f"RTL trace line {line_no}: not a commit, completion or trap: {text!r}")
    commit = Commit(pc=int(m.group(1), 16), insn=int(m.group(2), 16), line_no=line_no, text=text)
    tokens = text[m.end() :].split()
    if tokens and tokens[-1].startswith("#"):
        try:
            commit.seq = int(tokens.pop()[1:], 10)
        except ValueError:
            raise LogFormatError(f"RTL trace line {line_no}: bad sequence number in {text!r}") from None
    parse_writes(tokens, commit, text, line_no)
    return commit


def parse_rtl_commit(line: str, line_no: int = 0) -> Commit:
    """One retired-instruction line; a completion, trap or blank line here is a format error."""
    item = parse_rtl_line(line, line_no)
    if not isinstance(item, Commit):
        raise LogFormatError(f"RTL trace line {line_no}: expected a retired instruction: {line.strip()!r}")
    return item


def iter_rtl_trace(lines: Iterable[str]) -> Iterator[RtlItem]:
    for line_no, line in enumerate(lines, 1):
        item = parse_rtl_line(line, line_no)
        if item is not None:
            yield item


def format_rtl_line(c: Commit, xlen: int) -> str:
    """One commit in the RTL trace format (used to build traces in tests and tools)."""
    digits = xlen // 4
    parts = [f"0x{c.pc:0{digits}x} (0x{c.insn:08x})"]
    for (kind, n), v in sorted(c.writes.items(), key=lambda kv: "xfvc".index(kv[0][0])):
        if kind == "c":
            parts.append(f"c{n}_{c.csr_names.get(n, 'csr')} 0x{v:0{digits}x}")
        elif kind == "f":
            fd = 16 if xlen == 64 else 8
            boxed = v | (0xFFFF_FFFF << 32) if xlen == 64 and v >> 32 == 0 else v
            parts.append(f"f{n} 0x{boxed:0{fd}x}")
        else:
            parts.append(f"{kind}{n} 0x{v:0{digits}x}")
    for m in c.mem:
        if m.data is None:
            parts.append(f"mem 0x{m.addr:0{digits}x}")
        else:
            parts.append(f"mem 0x{m.addr:0{digits}x} 0x{m.data:0{2 * (m.width or 1)}x}")
    if c.seq is not None:
        parts.append(f"#{c.seq}")
    return " ".join(parts)
