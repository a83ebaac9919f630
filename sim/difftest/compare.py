"""Lockstep comparison of the RTL commit trace with Spike's commit log.

Both sides arrive as iterators (see :mod:`spike_log`, :mod:`rtl_trace`), so logs
of any length are compared in constant memory: only a few lines of context, the
coprocessor completions still in flight and the set of "tainted" locations are
kept.

The driver here pairs the two streams and compares each pair of commits (pc,
instruction word, register and memory writes); :mod:`taint` says which values may
legitimately differ, :mod:`completions` matches coprocessor results by sequence
number, :mod:`report` words the first divergence.

Values that legitimately differ are not compared but taken from the RTL side:
reads of time and counter CSRs (``mcycle``, ``minstret``, ``cycle``, ``time``,
``instret``) and loads from the MMIO page. Anything later computed from such a
value is tainted too (registers, CSRs, memory bytes), so a program that prints
its cycle count still compares cleanly; a branch on a tainted value that sends
the two sides different ways is reported with a note saying so.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

from sim.difftest.completions import Completions
from sim.difftest.decode import Decoded, decode
from sim.difftest.record import CSR_FFLAGS, Commit, Completion, MemAccess, RegKey, TrapEvent, key_name, normalize_writes
from sim.difftest.report import UNBOXED, DiffResult, Divergence, DivergenceFound, Reporter, bit_hint, format_value
from sim.difftest.rtl_trace import parse_rtl_commit, parse_rtl_line
from sim.difftest.spike_log import parse_spike_line, spike_commit_lines
from sim.difftest.taint import Taint, expand
from sim.disasm import Disassembler, capstone_disassembler, with_vector_fallback

# Only the CSR a Zicsr instruction names is compared (sim/tb/commit_trace.md: the
# RTL logs no side-effect CSR writes such as fflags accrual, mstatus.FS dirtying or
# mret's mstatus); side effects show up when the program reads the CSR. These are
# never compared, even when named (Spike-only debug state).
DEFAULT_IGNORED_CSRS = frozenset({0x7A5})
CSR_MTVEC = 0x305


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
        self.taint = Taint()
        self.report = Reporter(self.disasm, context_lines)
        self.completions = Completions(xlen, self.taint, self.report)
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
                    self.completions.complete(self._index, item)
                else:
                    self._retire_text(item.text, rtl_no)
            self.completions.check_finished(self._index)
        except DivergenceFound as found:
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
            self.completions.vector_stores,
        )

    def _retire_text(self, rline: str, rtl_no: int) -> None:
        self._index += 1
        nxt = next(self._spike_it, None)
        if nxt is None:
            r = parse_rtl_commit(rline, rtl_no)
            self.report.fail(
                self._index,
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
            self._commit(parse_spike_line(sline, s_no), parse_rtl_commit(rline, rtl_no))
        self._last_trap = None
        self.report.context.append((self._index, rline, rtl_no))
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
        if not self.taint.regs and not self.taint.mem:
            return True
        d = decode(int(r_tokens[1][3:-1], 16))
        if d.csr is not None or d.is_load or d.is_store or not d.known or self.taint.touches(d.sources):
            return False
        if d.dest is not None:
            self.taint.regs.discard(d.dest)
        return ("c", CSR_FFLAGS) not in self.taint.regs  # FP ops accrue fflags: full path

    # ---- one instruction ----------------------------------------------------

    def _commit(self, s: Commit, r: Commit) -> bool:
        """Compare one pair; False when the streams were realigned instead (nothing compared)."""
        if s.pc != r.pc:
            if self._control_tainted and self.resync_window and self._resync(s, r):
                return False
            self.report.fail(
                self._index,
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
            self.report.fail(
                self._index,
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
            self._copied += self.completions.expect(self._index, s, r, d, s_w, r_w)
        written = s_w.keys() | r_w.keys()
        mmio_load = d.is_load and any(self._is_mmio(m.addr) for m in r.mem)
        tainted_keys = self.taint.dests(d, r, written, mmio_load)
        self._copied += len(tainted_keys & written)
        self._compare_writes(s, r, s_w, r_w, tainted_keys)
        self._compare_mem(s, r, d)
        for k in written:
            self.taint.mark(k, k in tainted_keys)
        if (r.insn & 0x7F) in (0x63, 0x67):
            self._control_tainted = self.taint.touches(d.sources)
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
            self.taint.absorb(parse_spike_line(text, line_no))
        for line_no, text in r_buf[:j]:
            self.taint.absorb(parse_rtl_commit(text, line_no))
        # r_buf[0] was already counted as retired; r_buf[j:] will be counted again.
        self._index += j - 1
        self._unchecked += j
        self._resyncs += 1
        self._spike_it = itertools.chain(s_buf[i:], self._spike_it)
        self._rtl_it = itertools.chain(r_buf[j:], self._rtl_it)
        return True

    def _filtered(self, c: Commit, d: Decoded, rtl: bool = False) -> dict[RegKey, int]:
        named = expand(("c", d.csr)) if d.csr is not None else set()
        writes = c.writes
        if rtl and self.xlen == 64:
            # RV64 RTL prints f registers NaN-boxed; an unboxed value must not pass as
            # Spike's 8-digit one, so mark it out of range (shown as "not NaN-boxed").
            writes = {k: (v | UNBOXED if k[0] == "f" and v >> 32 != 0xFFFF_FFFF else v) for k, v in writes.items()}
        w = normalize_writes(writes)
        return {
            k: v
            for k, v in w.items()
            if k != ("x", 0) and (k[0] != "c" or (k in named and k[1] not in self.ignored_csrs))
        }

    def _is_mmio(self, addr: int) -> bool:
        return self.mmio[0] <= addr < self.mmio[1]

    def _compare_writes(self, s: Commit, r: Commit, s_w: dict, r_w: dict, tainted: set[RegKey]) -> None:
        details = []
        for k in sorted(s_w.keys() | r_w.keys()):
            if k in tainted:
                continue
            name = key_name(k, s.csr_names or r.csr_names)
            if k not in r_w:
                details.append(f"{name}: Spike wrote {format_value(k, s_w[k], self.xlen)}, the RTL wrote nothing")
            elif k not in s_w:
                details.append(f"{name}: the RTL wrote {format_value(k, r_w[k], self.xlen)}, Spike wrote nothing")
            elif s_w[k] != r_w[k]:
                details.append(
                    f"{name}: expected {format_value(k, s_w[k], self.xlen)} (Spike), actual {format_value(k, r_w[k], self.xlen)} (RTL)"
                    + bit_hint(s_w[k], r_w[k])
                )
        if details:
            self.report.fail(self._index, r, s, "register", details)

    def _compare_mem(self, s: Commit, r: Commit, d: Decoded) -> None:
        if r.seq is not None and not r.mem:
            # A coprocessor instruction's memory accesses are the accelerator's own; the
            # scalar trace does not list them (sim/tb/commit_trace.md).
            return
        addr_tainted = d.address_base is not None and d.address_base in self.taint.regs
        data_tainted = d.store_data is not None and d.store_data in self.taint.regs
        if len(s.mem) != len(r.mem):
            self.report.fail(
                self._index,
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
            self.report.fail(self._index, r, s, "memory", details)

    def _compare_store(self, sm: MemAccess, rm: MemAccess, data_tainted: bool, details: list[str]) -> None:
        width = rm.width or sm.width or 1
        if not data_tainted:
            if sm.width != rm.width:
                details.append(f"store width: Spike {sm.width} B, RTL {rm.width} B")
            elif sm.data != rm.data:
                details.append(
                    f"store data at 0x{rm.addr:x}: expected 0x{sm.data:0{2 * width}x} (Spike), "
                    f"actual 0x{rm.data:0{2 * width}x} (RTL)" + bit_hint(sm.data or 0, rm.data or 0)
                )
        self.taint.mark_mem(range(rm.addr, rm.addr + width), data_tainted)

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


def _depth_after(depth: int, insn: int) -> int:
    """Call depth after ``insn``: calls link through ra/t0, returns jump through them."""
    op, rd, rs1 = insn & 0x7F, (insn >> 7) & 31, (insn >> 15) & 31
    if op in (0x6F, 0x67) and rd in (1, 5):
        return depth + 1
    if op == 0x67 and rd == 0 and rs1 in (1, 5):
        return depth - 1
    return depth


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
