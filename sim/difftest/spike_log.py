"""Streaming parser of Spike's ``--log-commits`` output.

A line looks like ``core   0: 3 0x20000024 (0x18317253) c1_fflags 0x1 f4  0x3f36db6e``:
hart, privilege, pc, instruction word, then the writes sorted by register key
(not program order): ``x5 0x…``, ``f1 0x…``, ``c<addr>_<name> 0x…``, vector writes
after an ``e<sew> m<lmul> l<vl>`` triple, loads ``mem 0x<addr>``, stores
``mem 0x<addr> 0x<data>`` (data printed in the access width). A trapping
instruction has no line. The first lines come from Spike's boot ROM at 0x1000.
Lines are parsed one at a time; nothing is kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from sim.difftest.record import Commit, MemAccess, RegKey

# Spike's boot ROM (reset vector) lives here; its few instructions jump to the ELF.
BOOTROM_BASE = 0x1000
BOOTROM_SIZE = 0x1000

_HEAD = re.compile(r"^core\s+(\d+):\s+(\d)\s+0x([0-9a-fA-F]+)\s+\(0x([0-9a-fA-F]+)\)")
_REG = re.compile(r"^([xfv])(\d+)$")
_CSR = re.compile(r"^c(\d+)_(\w+)$")
_VMETA = re.compile(r"^e(\d+)$")


class LogFormatError(ValueError):
    """A line of a commit log does not have the documented shape."""


def parse_spike_line(line: str, line_no: int = 0) -> Commit | None:
    """One commit, or None for a line that is not a commit (Spike's other output)."""
    m = _HEAD.match(line)
    if m is None:
        return None
    commit = Commit(pc=int(m.group(3), 16), insn=int(m.group(4), 16), line_no=line_no, text=line.rstrip("\n"))
    tokens = line[m.end() :].split()
    parse_writes(tokens, commit, line, line_no)
    return commit


def parse_writes(tokens: list[str], commit: Commit, line: str, line_no: int) -> None:
    i = 0
    n = len(tokens)
    while i < n:
        tok = tokens[i]
        if tok == "mem":
            if i + 1 >= n:
                raise LogFormatError(f"line {line_no}: 'mem' without an address: {line.strip()}")
            addr = _hex(tokens[i + 1], line, line_no)
            if i + 2 < n and tokens[i + 2].startswith("0x"):
                data_tok = tokens[i + 2]
                commit.mem.append(MemAccess(addr, _hex(data_tok, line, line_no), (len(data_tok) - 2) // 2))
                i += 3
            else:
                commit.mem.append(MemAccess(addr))
                i += 2
            continue
        vm = _VMETA.match(tok)
        if vm and i + 2 < n and tokens[i + 1].startswith("m") and tokens[i + 2].startswith("l"):
            commit.vector_meta = (int(vm.group(1)), _lmul(tokens[i + 1]), int(tokens[i + 2][1:]))
            i += 3
            continue
        if i + 1 >= n:
            raise LogFormatError(f"line {line_no}: write {tok!r} has no value: {line.strip()}")
        key = _key(tok, commit, line, line_no)
        commit.writes[key] = _hex(tokens[i + 1], line, line_no)
        i += 2


def _key(tok: str, commit: Commit, line: str, line_no: int) -> RegKey:
    rm = _REG.match(tok)
    if rm:
        return (rm.group(1), int(rm.group(2)))
    cm = _CSR.match(tok)
    if cm:
        addr = int(cm.group(1))
        commit.csr_names[addr] = cm.group(2)
        return ("c", addr)
    raise LogFormatError(f"line {line_no}: unknown write {tok!r} in: {line.strip()}")


def _lmul(tok: str) -> int:
    # "m1", "m8", fractional "mf2" kept as negative denominators (-2 = 1/2).
    body = tok[1:]
    return -int(body[1:]) if body.startswith("f") else int(body)


def _hex(tok: str, line: str, line_no: int) -> int:
    try:
        return int(tok, 16)
    except ValueError:
        raise LogFormatError(f"line {line_no}: {tok!r} is not a hex value in: {line.strip()}") from None


def iter_spike_log(lines: Iterable[str], skip_bootrom: bool = True) -> Iterator[Commit]:
    """Commits of the (single) hart, in retirement order, without the boot ROM's prologue."""
    in_prologue = skip_bootrom
    for line_no, line in enumerate(lines, 1):
        c = parse_spike_line(line, line_no)
        if c is None:
            continue
        if in_prologue:
            if BOOTROM_BASE <= c.pc < BOOTROM_BASE + BOOTROM_SIZE:
                continue
            in_prologue = False
        yield c


def spike_commit_lines(lines: Iterable[str], skip_bootrom: bool = True) -> Iterator[tuple[int, str, list[str]]]:
    """The raw commit lines (line number, text, tokens after ``core N: <priv>``), boot ROM skipped.

    The comparator's fast path compares these tokens with the RTL line's directly
    and parses a line only when they differ.
    """
    in_prologue = skip_bootrom
    for line_no, line in enumerate(lines, 1):
        if not line.startswith("core"):
            continue
        tokens = line.split()[3:]
        if len(tokens) < 2:
            raise LogFormatError(f"line {line_no}: a commit without pc and instruction: {line.strip()}")
        if in_prologue:
            try:
                pc = int(tokens[0], 16)
            except ValueError:
                raise LogFormatError(f"line {line_no}: bad pc {tokens[0]!r}: {line.strip()}") from None
            if BOOTROM_BASE <= pc < BOOTROM_BASE + BOOTROM_SIZE:
                continue
            in_prologue = False
        yield line_no, line, tokens
