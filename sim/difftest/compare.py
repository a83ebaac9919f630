"""Lockstep comparison of the RTL commit trace with Spike's commit log.

Both sides arrive as iterators (see :mod:`spike_log`, :mod:`rtl_trace`), so logs
of any length are compared in constant memory: only a few lines of context, the
coprocessor completions still in flight and the set of "tainted" locations are
kept.

Values that legitimately differ are not compared but taken from the RTL side:
reads of time and counter CSRs (``mcycle``, ``minstret``, ``cycle``, ``time``,
``instret``) and loads from the MMIO page. Anything later computed from such a
value is tainted too (registers, CSRs, memory bytes), so a program that prints
its cycle count still compares cleanly; a branch on a tainted value that sends
the two sides different ways is reported with a note saying so.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from sim.difftest.decode import VOLATILE_CSRS, Decoded, decode
from sim.difftest.record import (
    CSR_FCSR,
    CSR_FFLAGS,
    CSR_FRM,
    CSR_VCSR,
    CSR_VXRM,
    CSR_VXSAT,
    Commit,
    Completion,
    MemAccess,
    RegKey,
    TrapEvent,
    key_name,
    normalize_writes,
    store_bytes,
)
from sim.difftest.rtl_trace import parse_rtl_line
from sim.difftest.spike_log import LogFormatError, parse_spike_line, spike_commit_lines
from sim.difftest.vstore import PendingStore, compare_store, is_vector_store
from sim.disasm import Disassembler, capstone_disassembler, with_vector_fallback

# Only the CSR a Zicsr instruction names is compared (sim/tb/commit_trace.md: the
# RTL logs no side-effect CSR writes such as fflags accrual, mstatus.FS dirtying or
# mret's mstatus); side effects show up when the program reads the CSR. These are
# never compared, even when named (Spike-only debug state).
DEFAULT_IGNORED_CSRS = frozenset({0x7A5})
CSR_MTVEC = 0x305
_UNBOXED = 1 << 64  # marks an RV64 f-register value that lacks its NaN-box


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


@dataclass
class _Pending:
    commit: Commit
    expected: dict[RegKey, int]
    tainted: bool


class _Found(Exception):
    def __init__(self, divergence: Divergence):
        self.divergence = divergence


class Comparator:
    """Compares one RTL trace with one Spike log; use :meth:`run` once."""

    def __init__(
        self,
        xlen: int,
        mmio_base: int = 0x1000_0000,
        mmio_size: int = 0x1000,
        disassembler: Disassembler | None = None,
        ignored_csrs: Iterable[int] = DEFAULT_IGNORED_CSRS,
        context_lines: int = 6,
        resync_window: int = 200_000,
    ):
        self.xlen = xlen
        self.mmio = (mmio_base, mmio_base + mmio_size)
        self.disasm = with_vector_fallback(disassembler or capstone_disassembler(xlen), xlen)
        self.ignored_csrs = frozenset(ignored_csrs)
        self._context: deque[tuple[int, str, int]] = deque(maxlen=context_lines)  # (index, RTL line, line no)
        self._taint: set[RegKey] = set()
        self._taint_mem: set[int] = set()
        self._pending: dict[int, _Pending] = {}
        self._pending_stores: dict[int, PendingStore] = {}  # vector stores awaiting the RTL's @<seq> mem line
        self.vector_stores = 0  # vector stores whose data was compared
        # Vector registers as both sides last agreed (Spike and the RTL start at 0).
        # The RTL logs every register of an instruction's destination group; Spike
        # only those it wrote an element of (vl, masks), so an RTL write Spike did
        # not log must leave the register as it was.
        self._vshadow: dict[int, int] = dict.fromkeys(range(32), 0)
        self._cop_commits: dict[int, Commit] = {}  # last coprocessor instruction per seq (Spike side)
        self._index = 0
        self._copied = 0
        self._traps = 0
        self._last_trap: TrapEvent | None = None
        self._control_tainted = False
        self._spike_mtvec: int | None = None
        self.resync_window = resync_window
        self._unchecked = 0  # RTL instructions on counter-dependent paths, not compared
        self._resyncs = 0
        # Gemmini instructions in retirement order: (index, pc, insn, seq), for sim/difftest/gemmini.py.
        self.gemmini_commits: list[tuple[int, int, int, int]] = []
        self._spike_it: Iterator[tuple[int, str, list[str]]] = iter(())
        self._rtl_it: Iterator[tuple[int, str]] = iter(())

    # ---- driver -------------------------------------------------------------

    def run(self, spike_lines: Iterable[str], rtl_lines: Iterable[str]) -> DiffResult:
        """Compare Spike's commit-log lines with the RTL trace lines; stops at the first divergence."""
        self._spike_it = spike_commit_lines(spike_lines)
        self._rtl_it = enumerate(rtl_lines, 1)
        try:
            while (nxt := next(self._rtl_it, None)) is not None:
                rtl_no, rline = nxt
                if rline.startswith("0x"):
                    self._retire_text(rline, rtl_no)
                    continue
                item = parse_rtl_line(rline, rtl_no)
                if item is None:
                    continue
                if isinstance(item, TrapEvent):
                    self._traps += 1
                    self._last_trap = item
                elif isinstance(item, Completion):
                    self._completion(item)
                else:
                    self._retire_text(item.text, rtl_no)
            for seq, ps in self._pending_stores.items():
                self._fail_unfinished(
                    ps.commit,
                    "memory",
                    f"the RTL trace ended without the memory writes of vector store #{seq} "
                    f"(Spike wrote {len(ps.expected)} bytes)",
                )
            for seq, p in self._pending.items():
                self._fail_unfinished(
                    p.commit,
                    "completion",
                    f"the RTL trace ended without the result of coprocessor instruction #{seq}: expected "
                    + ", ".join(f"{key_name(k)} = {self._fmt(k, v)}" for k, v in p.expected.items()),
                )
        except _Found as found:
            return self._result(found.divergence)
        return self._result(None)

    def _result(self, divergence: Divergence | None) -> DiffResult:
        return DiffResult(
            self._index - self._unchecked,
            divergence,
            self._copied,
            self._traps,
            self._unchecked,
            self._resyncs,
            self.vector_stores,
        )

    def _retire_text(self, rline: str, rtl_no: int) -> None:
        self._index += 1
        nxt = next(self._spike_it, None)
        if nxt is None:
            r = self._parse_rtl(rline, rtl_no)
            self._fail(
                r,
                None,
                "spike-ended",
                [
                    f"Spike's log ended after {self._index - 1} instructions; "
                    f"the RTL retired one more at pc 0x{r.pc:08x}"
                ],
            )
        s_no, sline, s_tokens = nxt
        if self._fast_match(s_tokens, rline.split()):
            self._control_tainted = False
        else:
            self._commit(parse_spike_line(sline, s_no), self._parse_rtl(rline, rtl_no))
        self._last_trap = None
        self._context.append((self._index, rline, rtl_no))
        if "#" in rline:
            self._note_gemmini(rline)

    def _note_gemmini(self, rline: str) -> None:
        tokens = rline.split()
        try:
            insn = int(tokens[1][3:-1], 16)
            if insn & 0x7F == 0x7B and tokens[-1].startswith("#"):
                self.gemmini_commits.append((self._index, int(tokens[0], 16), insn, int(tokens[-1][1:])))
        except (ValueError, IndexError):
            return  # the full parser reports malformed lines

    def _fast_match(self, s_tokens: list[str], r_tokens: list[str]) -> bool:
        """True when the two lines certainly describe the same state change and no
        taint bookkeeping is needed; anything else takes the full comparison."""
        if r_tokens != s_tokens:
            if len(r_tokens) < 2 or r_tokens[1] != s_tokens[1] or _is_zicsr(r_tokens[1]):
                return False
            if self.xlen == 64:
                r_tokens = _unbox_tokens(r_tokens)
            if r_tokens != _drop_csr_tokens(s_tokens):
                return False
        elif _is_zicsr(r_tokens[1]):
            return False  # the full path tracks mtvec and CSR taint
        if not self._taint and not self._taint_mem:
            return True
        d = decode(int(r_tokens[1][3:-1], 16))
        if d.csr is not None or d.is_load or d.is_store or not d.known or self._tainted_any(d.sources):
            return False
        if d.dest is not None:
            self._taint.discard(d.dest)
        return ("c", CSR_FFLAGS) not in self._taint  # FP ops accrue fflags: full path

    @staticmethod
    def _parse_rtl(rline: str, rtl_no: int) -> Commit:
        r = parse_rtl_line(rline, rtl_no)
        if not isinstance(r, Commit):
            raise LogFormatError(f"RTL trace line {rtl_no}: expected a retired instruction: {rline.strip()!r}")
        return r

    # ---- one instruction ----------------------------------------------------

    def _commit(self, s: Commit, r: Commit) -> bool:
        """Compare one pair; False when the streams were realigned instead (nothing compared)."""
        if s.pc != r.pc:
            if self._control_tainted and self.resync_window and self._resync(s, r):
                return False
            self._fail(
                r,
                s,
                "pc",
                [
                    f"Spike retired pc 0x{s.pc:08x} ({self.disasm(s.pc, s.insn)}), "
                    f"the RTL retired pc 0x{r.pc:08x} ({self.disasm(r.pc, r.insn)})"
                ],
                note=self._pc_note(s, r),
            )
        if s.insn != r.insn:
            self._fail(
                r,
                s,
                "instruction",
                [
                    f"instruction word: Spike 0x{s.insn:08x} ({self.disasm(s.pc, s.insn)}), "
                    f"RTL 0x{r.insn:08x} — memory contents differ (ELF loading or a wild store)"
                ],
            )
        d = decode(r.insn)
        s_w = self._filtered(s, d)
        r_w = self._filtered(r, d, rtl=True)
        if r.seq is not None:
            if r.seq in self._pending or r.seq in self._pending_stores:
                self._fail(
                    r,
                    s,
                    "completion",
                    [f"sequence number #{r.seq} reused while instruction #{r.seq} still awaits its result"],
                )
            self._cop_commits[r.seq] = s
            deferred = {k: v for k, v in s_w.items() if k not in r_w}
            for k in deferred:
                del s_w[k]
            if deferred:
                volatile = _is_gemmini_counter(r.insn)  # its rd is a cycle/event count: taken from the RTL
                self._pending[r.seq] = _Pending(s, deferred, volatile or self._tainted_any(d.sources))
                if volatile:
                    self._copied += len(deferred)
            if is_vector_store(r.insn):
                addr_regs = [("x", (r.insn >> 15) & 31), ("x", (r.insn >> 20) & 31)]
                self._pending_stores[r.seq] = PendingStore(s, store_bytes(s.mem), self._tainted_any(addr_regs))
        tainted_keys = self._tainted_dests(d, r, s_w.keys() | r_w.keys())
        self._compare_writes(s, r, s_w, r_w, tainted_keys)
        self._compare_mem(s, r, d)
        for k in s_w.keys() | r_w.keys():
            if k in tainted_keys:
                self._taint.add(k)
            else:
                self._taint.discard(k)
        if (r.insn & 0x7F) in (0x63, 0x67):
            self._control_tainted = self._tainted_any(d.sources)
        if ("c", CSR_MTVEC) in s_w:
            self._spike_mtvec = s_w[("c", CSR_MTVEC)]
        return True

    # ---- realignment after a counter-dependent branch ---------------------------

    def _resync(self, s: Commit, r: Commit) -> bool:
        """The sides went different ways on a branch that read counter/MMIO-derived
        values. Read ahead on both until they retire the same pc at the same call
        depth; taint everything either side wrote on the way; resume from there."""
        s_buf: list[tuple[int, str, list[str]]] = [(s.line_no, s.text, s.text.split()[3:])]
        r_buf: list[tuple[int, str]] = [(r.line_no, r.text)]
        s_seen = {(s.pc, 0): 0}
        r_seen = {(r.pc, 0): 0}
        s_depth, r_depth = _depth_after(0, s.insn), _depth_after(0, r.insn)
        s_live = r_live = True
        while (s_live or r_live) and len(s_buf) + len(r_buf) < 2 * self.resync_window:
            if s_live:
                nxt = next(self._spike_it, None)
                if nxt is None:
                    s_live = False
                else:
                    pc, insn = int(nxt[2][0], 16), int(nxt[2][1][3:-1], 16)
                    s_buf.append(nxt)
                    if (pc, s_depth) in r_seen:
                        return self._realign(s_buf, r_buf, len(s_buf) - 1, r_seen[(pc, s_depth)])
                    s_seen.setdefault((pc, s_depth), len(s_buf) - 1)
                    s_depth = _depth_after(s_depth, insn)
            if r_live:
                nxt_r = next(self._rtl_it, None)
                if nxt_r is None:
                    r_live = False
                    continue
                item = parse_rtl_line(nxt_r[1], nxt_r[0])
                if item is None:
                    continue
                if not isinstance(item, Commit):
                    return False  # a trap or completion inside the detour: don't guess
                r_buf.append(nxt_r)
                key = (item.pc, r_depth)
                if key in s_seen:
                    return self._realign(s_buf, r_buf, s_seen[key], len(r_buf) - 1)
                r_seen.setdefault(key, len(r_buf) - 1)
                r_depth = _depth_after(r_depth, item.insn)
        return False

    def _realign(self, s_buf: list, r_buf: list, i: int, j: int) -> bool:
        for line_no, text, _ in s_buf[:i]:
            self._taint_commit(parse_spike_line(text, line_no))
        for line_no, text in r_buf[:j]:
            self._taint_commit(self._parse_rtl(text, line_no))
        # r_buf[0] was already counted as retired; r_buf[j:] will be counted again.
        self._index += j - 1
        self._unchecked += j
        self._resyncs += 1
        self._spike_it = itertools.chain(s_buf[i:], self._spike_it)
        self._rtl_it = itertools.chain(r_buf[j:], self._rtl_it)
        return True

    def _taint_commit(self, c: Commit) -> None:
        for k in normalize_writes(c.writes):
            if k != ("x", 0):
                self._taint.add(k)
        for m in c.mem:
            if m.is_store:
                self._taint_mem.update(range(m.addr, m.addr + (m.width or 1)))

    def _filtered(self, c: Commit, d: Decoded, rtl: bool = False) -> dict[RegKey, int]:
        named = self._expand(("c", d.csr)) if d.csr is not None else set()
        writes = c.writes
        if rtl and self.xlen == 64:
            # RV64 RTL prints f registers NaN-boxed; an unboxed value must not pass as
            # Spike's 8-digit one, so mark it out of range (shown as "not NaN-boxed").
            writes = {k: (v | _UNBOXED if k[0] == "f" and v >> 32 != 0xFFFF_FFFF else v) for k, v in writes.items()}
        w = normalize_writes(writes)
        return {
            k: v
            for k, v in w.items()
            if k != ("x", 0) and (k[0] != "c" or (k in named and k[1] not in self.ignored_csrs))
        }

    def _tainted_any(self, keys: Iterable[RegKey]) -> bool:
        return any(self._expand(k) & self._taint for k in keys)

    @staticmethod
    def _expand(k: RegKey) -> set[RegKey]:
        # fcsr is fflags + frm, vcsr is vxsat + vxrm; the comparator tracks the parts.
        if k == ("c", CSR_FCSR):
            return {("c", CSR_FFLAGS), ("c", CSR_FRM)}
        if k == ("c", CSR_VCSR):
            return {("c", CSR_VXSAT), ("c", CSR_VXRM)}
        return {k}

    def _tainted_dests(self, d: Decoded, r: Commit, written: set[RegKey]) -> set[RegKey]:
        """Which of this instruction's writes may legitimately differ."""
        mmio_load = d.is_load and any(self._is_mmio(m.addr) for m in r.mem)
        if d.csr is not None:
            csr_keys = self._expand(("c", d.csr))
            old_differs = d.csr in VOLATILE_CSRS or bool(csr_keys & self._taint)
            rs1_tainted = self._tainted_any(k for k in d.sources if k[0] == "x")
            out: set[RegKey] = set()
            if old_differs and d.dest is not None:
                out.add(d.dest)
            if rs1_tainted or (old_differs and not d.csr_overwrites):
                out |= csr_keys
            self._copied += len(out & written)
            return out
        load_tainted = d.is_load and any(
            (m.addr + i) in self._taint_mem for m in r.mem for i in range(self._load_width(r.insn))
        )
        if mmio_load or load_tainted or self._tainted_any(d.sources) or _is_gemmini_counter(r.insn):
            self._copied += len(written)
            return set(written)
        return set()

    @staticmethod
    def _load_width(insn: int) -> int:
        return 1 << ((insn >> 12) & 3)

    def _is_mmio(self, addr: int) -> bool:
        return self.mmio[0] <= addr < self.mmio[1]

    def _compare_writes(self, s: Commit, r: Commit, s_w: dict, r_w: dict, tainted: set[RegKey]) -> None:
        details = []
        for k in sorted(s_w.keys() | r_w.keys()):
            if k in tainted:
                continue
            name = key_name(k, s.csr_names or r.csr_names)
            if k not in r_w:
                details.append(f"{name}: Spike wrote {self._fmt(k, s_w[k])}, the RTL wrote nothing")
            elif k not in s_w:
                details.append(f"{name}: the RTL wrote {self._fmt(k, r_w[k])}, Spike wrote nothing")
            elif s_w[k] != r_w[k]:
                details.append(
                    f"{name}: expected {self._fmt(k, s_w[k])} (Spike), actual {self._fmt(k, r_w[k])} (RTL)"
                    + self._bit_hint(s_w[k], r_w[k])
                )
        if details:
            self._fail(r, s, "register", details)

    def _fmt(self, k: RegKey, v: int) -> str:
        if k[0] == "v":
            return f"0x{v:x}"  # whole vector register (VLEN bits)
        if k[0] == "f" and v & _UNBOXED:
            return f"0x{v ^ _UNBOXED:016x} (not NaN-boxed)"
        digits = 8 if k[0] == "f" and v >> 32 == 0 else self.xlen // 4
        return f"0x{v:0{digits}x}"

    @staticmethod
    def _bit_hint(a: int, b: int) -> str:
        x = a ^ b
        if x and x & (x - 1) == 0:
            return f", bit {x.bit_length() - 1} differs"
        return ""

    def _compare_mem(self, s: Commit, r: Commit, d: Decoded) -> None:
        if r.seq is not None and not r.mem:
            # A coprocessor instruction's memory accesses are the accelerator's own; the
            # scalar trace does not list them (sim/tb/commit_trace.md).
            return
        addr_tainted = d.address_base is not None and d.address_base in self._taint
        data_tainted = d.store_data is not None and d.store_data in self._taint
        if len(s.mem) != len(r.mem):
            self._fail(
                r,
                s,
                "memory",
                [f"memory accesses: Spike {[m.describe() for m in s.mem]}, RTL {[m.describe() for m in r.mem]}"],
            )
        details = []
        for sm, rm in zip(s.mem, r.mem, strict=True):
            if sm.is_store != rm.is_store:
                details.append(f"access kind: Spike {sm.describe()}, RTL {rm.describe()}")
                continue
            if sm.addr != rm.addr and not addr_tainted:
                details.append(f"address: expected 0x{sm.addr:x} (Spike), actual 0x{rm.addr:x} (RTL)")
            if rm.is_store:
                self._compare_store(sm, rm, data_tainted, details)
        if details:
            self._fail(r, s, "memory", details)

    def _compare_store(self, sm: MemAccess, rm: MemAccess, data_tainted: bool, details: list[str]) -> None:
        width = rm.width or sm.width or 1
        if not data_tainted:
            if sm.width != rm.width:
                details.append(f"store width: Spike {sm.width} B, RTL {rm.width} B")
            elif sm.data != rm.data:
                details.append(
                    f"store data at 0x{rm.addr:x}: expected 0x{sm.data:0{2 * width}x} (Spike), "
                    f"actual 0x{rm.data:0{2 * width}x} (RTL)" + self._bit_hint(sm.data or 0, rm.data or 0)
                )
        for i in range(width):
            if data_tainted:
                self._taint_mem.add(rm.addr + i)
            else:
                self._taint_mem.discard(rm.addr + i)

    # ---- coprocessor completions -------------------------------------------

    def _completion(self, c: Completion) -> None:
        ps = self._pending_stores.pop(c.seq, None)
        if ps is not None:
            self._store_completion(ps, c)
            return
        if c.mem:
            self._fail_unexpected(
                c, "memory", f"the RTL logged memory writes for coprocessor instruction #{c.seq}, not a vector store"
            )
        p = self._pending.get(c.seq)
        if p is None and c.seq in self._cop_commits and all(k[0] == "v" for k in c.writes):
            # Vector registers of the destination group that Spike did not log.
            s = self._cop_commits[c.seq]
            details = self._unlogged_vector_writes(c.writes)
            if details:
                self._fail_completion(c, s, details)
            return
        if p is None:
            self._fail_unexpected(
                c, "completion", f"the RTL completed coprocessor instruction #{c.seq}, which has no outstanding result"
            )
        details = []
        for k, v in normalize_writes(c.writes).items():
            if k not in p.expected:
                if k[0] == "v":
                    details += self._unlogged_vector_writes({k: v})
                else:
                    details.append(f"{key_name(k)}: the RTL completed with {self._fmt(k, v)}, Spike wrote nothing")
                continue
            want = p.expected.pop(k)
            if want != v and not p.tainted:
                details.append(
                    f"{key_name(k)}: expected {self._fmt(k, want)} (Spike), actual {self._fmt(k, v)} (RTL)"
                    + self._bit_hint(want, v)
                )
            if p.tainted:
                self._taint.add(k)
            else:
                self._taint.discard(k)
            if k[0] == "v":
                self._vshadow[k[1]] = v
        if details:
            self._fail_completion(c, p.commit, details)
        if not p.expected:
            del self._pending[c.seq]

    def _store_completion(self, ps: PendingStore, c: Completion) -> None:
        details = compare_store(ps, c)
        if details:
            self._fail_completion(c, ps.commit, details, what="memory")
        self.vector_stores += 1
        written = set(ps.expected) | {m.addr + i for m in c.mem for i in range(m.width or 1)}
        if ps.tainted:
            self._taint_mem.update(written)
        else:
            self._taint_mem.difference_update(written)

    def _unlogged_vector_writes(self, writes: dict[RegKey, int]) -> list[str]:
        """RTL writes of vector registers Spike did not log: they must not change the register."""
        details = []
        for k, v in writes.items():
            old = self._vshadow.get(k[1])
            if k in self._taint or old is None:
                self._vshadow[k[1]] = v
            elif v != old:
                details.append(
                    f"{key_name(k)}: the RTL wrote {self._fmt(k, v)}, Spike left it unchanged at {self._fmt(k, old)}"
                )
        return details

    def _fail_unfinished(self, s: Commit, what: str, detail: str) -> None:
        """Spike committed a coprocessor instruction whose RTL completion never came."""
        raise _Found(
            Divergence(
                index=self._index,
                pc=s.pc,
                insn=s.insn,
                disassembly=self.disasm(s.pc, s.insn),
                what=what,
                details=[detail],
                spike_text=s.text,
                spike_line=s.line_no,
                context=self._context_lines(),
            )
        )

    def _fail_unexpected(self, c: Completion, what: str, detail: str) -> None:
        """An RTL completion that matches nothing Spike committed (no pc to name)."""
        raise _Found(
            Divergence(
                index=self._index,
                pc=0,
                insn=0,
                disassembly="-",
                what=what,
                details=[detail],
                rtl_text=c.text,
                rtl_line=c.line_no,
                context=self._context_lines(),
            )
        )

    def _fail_completion(self, c: Completion, s: Commit, details: list[str], what: str = "completion") -> None:
        raise _Found(
            Divergence(
                index=self._index,
                pc=s.pc,
                insn=s.insn,
                disassembly=self.disasm(s.pc, s.insn),
                what=what,
                details=[f"result of coprocessor instruction #{c.seq}:", *details],
                rtl_text=_clip(c.text),
                rtl_line=c.line_no,
                spike_text=_clip(s.text),
                spike_line=s.line_no,
                context=self._context_lines(),
            )
        )

    # ---- reporting ------------------------------------------------------------

    def _pc_note(self, s: Commit, r: Commit) -> str:
        if self._last_trap is not None:
            t = self._last_trap
            return (
                f"the RTL trapped just before (cause {t.cause}, epc 0x{t.epc:08x}, tval 0x{t.tval:x}); "
                "Spike did not trap there"
            )
        if self._spike_mtvec is not None and s.pc == self._spike_mtvec & ~3 and r.pc != s.pc:
            return (
                f"Spike went to the trap vector 0x{s.pc:08x}: it took a trap at pc 0x{r.pc:08x} "
                f"({self.disasm(r.pc, r.insn)}) which the RTL retired normally"
            )
        if self._control_tainted:
            return (
                f"no common pc found within {self.resync_window} instructions; "
                "the previous branch/jump depended on values taken from the RTL (counter CSRs or MMIO "
                "loads), so the two sides may legitimately take different paths here"
            )
        return ""

    def _context_lines(self) -> list[str]:
        out = []
        for i, text, line_no in self._context:
            c = self._parse_rtl(text, line_no)
            out.append(f"{i:>8}  0x{c.pc:08x}  {self.disasm(c.pc, c.insn):<32} {c.text}")
        return out

    def _fail(self, r: Commit, s: Commit | None, what: str, details: list[str], note: str = "") -> None:
        raise _Found(
            Divergence(
                index=self._index,
                pc=r.pc,
                insn=r.insn,
                disassembly=self.disasm(r.pc, r.insn),
                what=what,
                details=details,
                rtl_text=r.text,
                spike_text=s.text if s else "",
                rtl_line=r.line_no,
                spike_line=s.line_no if s else 0,
                context=self._context_lines(),
                note=note,
            )
        )


def _clip(text: str, limit: int = 400) -> str:
    """A raw line for a message: long vector store lines are cut."""
    return text if len(text) <= limit else text[:limit] + f" ... ({len(text)} characters)"


def _depth_after(depth: int, insn: int) -> int:
    """Call depth after ``insn``: calls link through ra/t0, returns jump through them."""
    op, rd, rs1 = insn & 0x7F, (insn >> 7) & 31, (insn >> 15) & 31
    if op in (0x6F, 0x67) and rd in (1, 5):
        return depth + 1
    if op == 0x67 and rd == 0 and rs1 in (1, 5):
        return depth - 1
    return depth


def _is_gemmini_counter(insn: int) -> bool:
    """Gemmini's counter instruction (custom-3, funct7 126): rd counts cycles/events, which legitimately differ."""
    return insn & 0x7F == 0x7B and insn >> 25 == 126


def _is_zicsr(insn_token: str) -> bool:
    """``(0x........)`` of a Zicsr instruction (SYSTEM opcode, funct3 != 0)."""
    try:
        insn = int(insn_token[3:-1], 16)
    except ValueError:
        return True  # malformed: let the full parser report it
    return insn & 0x7F == 0x73 and (insn >> 12) & 7 != 0


def _drop_csr_tokens(tokens: list[str]) -> list[str]:
    """Spike's tokens without CSR side-effect writes (``c1_fflags 0x..``)."""
    out = []
    skip = False
    for t in tokens:
        if skip:
            skip = False
        elif t[0] == "c" and "_" in t:
            skip = True
        else:
            out.append(t)
    return out


def _unbox_tokens(tokens: list[str]) -> list[str]:
    """RV64 RTL f values ``0xffffffffXXXXXXXX`` as Spike prints them (``0xXXXXXXXX``)."""
    out = list(tokens)
    for i in range(len(out) - 1):
        t = out[i]
        if t[0] == "f" and t[1:].isdigit():
            v = out[i + 1]
            if len(v) == 18 and v[2:10] in ("ffffffff", "FFFFFFFF"):
                out[i + 1] = "0x" + v[10:]
    return out


def compare_streams(spike_lines: Iterable[str], rtl_lines: Iterable[str], xlen: int, **options) -> DiffResult:
    """Compare Spike's commit log with an RTL trace, both as lines (see :class:`Comparator` for the options)."""
    return Comparator(xlen, **options).run(spike_lines, rtl_lines)
