"""Completion matching: coprocessor results arrive after their instruction retired, tagged with its
sequence number (sim/tb/commit_trace.md), and are matched with what Spike wrote at retirement.

A coprocessor instruction (``#<seq>`` on its RTL line) defers the writes the RTL did not log at
retirement; its ``@<seq>`` completion must deliver exactly those values, once. A vector store's
``@<seq> mem`` lines must write the bytes Spike stored. The RTL logs every register of a vector
destination group, Spike only those it wrote an element of (vl, masks): a register Spike did not
log must keep the value both sides last agreed on (the shadow copy here).
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.difftest.decode import Decoded
from sim.difftest.record import Commit, Completion, RegKey, key_name, normalize_writes, store_bytes
from sim.difftest.report import Reporter, bit_hint, format_value
from sim.difftest.taint import Taint, is_gemmini_counter
from sim.difftest.vstore import PendingStore, compare_store, is_vector_store


@dataclass
class PendingResult:
    commit: Commit  # Spike's commit of the instruction
    expected: dict[RegKey, int]  # the writes still to come
    tainted: bool  # its sources were tainted: take the values, do not compare them


class Completions:
    """The coprocessor results and vector stores still in flight, by sequence number."""

    def __init__(self, xlen: int, taint: Taint, report: Reporter):
        self.xlen = xlen
        self.taint = taint
        self.report = report
        self.pending: dict[int, PendingResult] = {}
        self.stores: dict[int, PendingStore] = {}  # vector stores awaiting the RTL's @<seq> mem line
        self.vector_stores = 0  # vector stores whose data was compared
        # Vector registers as both sides last agreed (Spike and the RTL start at 0).
        self.vshadow: dict[int, int] = dict.fromkeys(range(32), 0)
        self.spike_commits: dict[int, Commit] = {}  # last coprocessor instruction per seq (Spike side)

    def fmt(self, k: RegKey, v: int) -> str:
        return format_value(k, v, self.xlen)

    def expect(self, index: int, s: Commit, r: Commit, d: Decoded, s_w: dict[RegKey, int], r_w: dict) -> int:
        """At the retirement of coprocessor instruction ``r.seq``: defer Spike's writes the RTL did not log
        (removed from ``s_w``). Returns how many deferred values are taken from the RTL (Gemmini counters)."""
        if r.seq in self.pending or r.seq in self.stores:
            self.report.fail(
                index,
                r,
                s,
                "completion",
                [f"sequence number #{r.seq} reused while instruction #{r.seq} still awaits its result"],
            )
        copied = 0
        self.spike_commits[r.seq] = s
        deferred = {k: v for k, v in s_w.items() if k not in r_w}
        for k in deferred:
            del s_w[k]
        if deferred:
            volatile = is_gemmini_counter(r.insn)  # its rd is a cycle/event count: taken from the RTL
            self.pending[r.seq] = PendingResult(s, deferred, volatile or self.taint.touches(d.sources))
            if volatile:
                copied = len(deferred)
        if is_vector_store(r.insn):
            addr_regs = [("x", (r.insn >> 15) & 31), ("x", (r.insn >> 20) & 31)]
            self.stores[r.seq] = PendingStore(s, store_bytes(s.mem), self.taint.touches(addr_regs))
        return copied

    def complete(self, index: int, c: Completion) -> None:
        """One ``@<seq>`` line of the RTL trace."""
        ps = self.stores.pop(c.seq, None)
        if ps is not None:
            self._store_completion(index, ps, c)
            return
        if c.mem:
            self.report.fail_unexpected(
                index,
                c,
                "memory",
                f"the RTL logged memory writes for coprocessor instruction #{c.seq}, not a vector store",
            )
        p = self.pending.get(c.seq)
        if p is None and c.seq in self.spike_commits and all(k[0] == "v" for k in c.writes):
            # Vector registers of the destination group that Spike did not log.
            s = self.spike_commits[c.seq]
            details = self._unlogged_vector_writes(c.writes)
            if details:
                self.report.fail_completion(index, c, s, details)
            return
        if p is None:
            self.report.fail_unexpected(
                index,
                c,
                "completion",
                f"the RTL completed coprocessor instruction #{c.seq}, which has no outstanding result",
            )
        details = []
        for k, v in normalize_writes(c.writes).items():
            if k not in p.expected:
                if k[0] == "v":
                    details += self._unlogged_vector_writes({k: v})
                else:
                    details.append(f"{key_name(k)}: the RTL completed with {self.fmt(k, v)}, Spike wrote nothing")
                continue
            want = p.expected.pop(k)
            if want != v and not p.tainted:
                details.append(
                    f"{key_name(k)}: expected {self.fmt(k, want)} (Spike), actual {self.fmt(k, v)} (RTL)"
                    + bit_hint(want, v)
                )
            self.taint.mark(k, p.tainted)
            if k[0] == "v":
                self.vshadow[k[1]] = v
        if details:
            self.report.fail_completion(index, c, p.commit, details)
        if not p.expected:
            del self.pending[c.seq]

    def check_finished(self, index: int) -> None:
        """At the end of the RTL trace: every vector store wrote and every deferred result came."""
        for seq, ps in self.stores.items():
            self.report.fail_unfinished(
                index,
                ps.commit,
                "memory",
                f"the RTL trace ended without the memory writes of vector store #{seq} "
                f"(Spike wrote {len(ps.expected)} bytes)",
            )
        for seq, p in self.pending.items():
            self.report.fail_unfinished(
                index,
                p.commit,
                "completion",
                f"the RTL trace ended without the result of coprocessor instruction #{seq}: expected "
                + ", ".join(f"{key_name(k)} = {self.fmt(k, v)}" for k, v in p.expected.items()),
            )

    def _store_completion(self, index: int, ps: PendingStore, c: Completion) -> None:
        details = compare_store(ps, c)
        if details:
            self.report.fail_completion(index, c, ps.commit, details, what="memory")
        self.vector_stores += 1
        written = set(ps.expected) | {m.addr + i for m in c.mem for i in range(m.width or 1)}
        self.taint.mark_mem(written, ps.tainted)

    def _unlogged_vector_writes(self, writes: dict[RegKey, int]) -> list[str]:
        """RTL writes of vector registers Spike did not log: they must not change the register."""
        details = []
        for k, v in writes.items():
            old = self.vshadow.get(k[1])
            if k in self.taint.regs or old is None:
                self.vshadow[k[1]] = v
            elif v != old:
                details.append(
                    f"{key_name(k)}: the RTL wrote {self.fmt(k, v)}, Spike left it unchanged at {self.fmt(k, old)}"
                )
        return details
