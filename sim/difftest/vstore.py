"""Vector store data: Spike's per-element ``mem`` writes against the RTL's ``@<seq> mem`` line.

Spike logs every element a vector store writes on the instruction's own line
(``mem 0x<addr> 0x<data>``, in element order). The RTL trace lists the bytes the
vector unit's memory port accepted for that store, as runs of consecutive bytes,
in one ``@<seq>`` line at the store's completion (``sim/tb/commit_trace.md``). The
two are compared as the memory images they leave: for each byte address, its final
value. That is independent of element vs beat granularity and of the order within
one instruction, and it still sees every byte written, skipped or wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.difftest.record import Commit, Completion, store_bytes

MAX_DETAILS = 8  # differing byte ranges named in one divergence


def is_vector_store(insn: int) -> bool:
    """STORE-FP opcode with a vector width (0, 5, 6, 7): vse/vsse/vsxei/vsseg/vs<nr>r/vsm."""
    return insn & 0x7F == 0x27 and (insn >> 12) & 7 in (0, 5, 6, 7)


@dataclass
class PendingStore:
    commit: Commit  # Spike's line of the store
    expected: dict[int, int]  # address -> byte
    tainted: bool  # address operands derived from RTL-only values: not compared


def compare_store(p: PendingStore, c: Completion) -> list[str]:
    """What differs between Spike's writes and the RTL's, as messages (empty: identical)."""
    actual = store_bytes(c.mem)
    if p.tainted:
        return []
    wrong = sorted(a for a in p.expected.keys() & actual.keys() if p.expected[a] != actual[a])
    missing = sorted(p.expected.keys() - actual.keys())
    extra = sorted(actual.keys() - p.expected.keys())
    details: list[str] = []
    for lo, hi in _ranges(wrong):
        details.append(
            f"store data at {_span(lo, hi)}: expected {_bytes(p.expected, lo, hi)} (Spike), "
            f"actual {_bytes(actual, lo, hi)} (RTL)"
        )
    for lo, hi in _ranges(missing):
        details.append(f"Spike wrote {_span(lo, hi)} = {_bytes(p.expected, lo, hi)}, the RTL did not")
    for lo, hi in _ranges(extra):
        details.append(f"the RTL wrote {_span(lo, hi)} = {_bytes(actual, lo, hi)}, Spike did not")
    if len(details) > MAX_DETAILS:
        details = details[:MAX_DETAILS] + [f"... and {len(details) - MAX_DETAILS} more byte ranges"]
    if details:
        details.insert(0, f"vector store writes {len(p.expected)} bytes on Spike, {len(actual)} on the RTL:")
    return details


def _ranges(addrs: list[int]) -> list[tuple[int, int]]:
    """Sorted addresses as inclusive runs of consecutive addresses."""
    out: list[tuple[int, int]] = []
    for a in addrs:
        if out and out[-1][1] + 1 == a:
            out[-1] = (out[-1][0], a)
        else:
            out.append((a, a))
    return out


def _span(lo: int, hi: int) -> str:
    return f"0x{lo:08x}" if lo == hi else f"0x{lo:08x}..0x{hi:08x} ({hi - lo + 1} bytes)"


def _bytes(image: dict[int, int], lo: int, hi: int) -> str:
    """Bytes lo..hi as a little-endian number (as Spike prints store data), cut short when long."""
    n = hi - lo + 1
    shown = min(n, 16)
    text = "".join(f"{image[a]:02x}" for a in range(lo + shown - 1, lo - 1, -1))
    return f"0x{text}" + (f" (first {shown} of {n} bytes)" if shown < n else "")
