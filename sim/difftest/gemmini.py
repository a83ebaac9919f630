"""The Gemmini part of the difftest: per Gemmini instruction, its main-memory writes and the
scratchpad / accumulator rows it wrote, RTL against the functional model on Spike.

Two streams, both in time order:

- the model's (``sim/gemmini/spike_bridge.py`` ``ModelTracer``, written while Spike runs):
  ``insn``, ``sp`` / ``acc`` (the row after each write, with the instruction the write belongs
  to), ``wr`` (DMA writes), ``close k`` once instruction k can write no more;
- the RTL's (``sim/tb/tb_gemmini_trace.sv``, ``+gemmini_trace=FILE``): ``sp`` / ``acc`` row writes
  as the banks take them (accumulator: the whole row the bank wrote back), ``wr`` DMA write requests, each with the core's sequence number, and
  ``issue <seq>`` when the unit accepts an instruction (in program order).

Instruction k is the k-th Gemmini instruction the unit accepted; on the RTL it is the k-th
``issue``, and a write belongs to the latest issue of its sequence number (numbers are reused
only 256 instructions later; completions are no boundary, since a preload completes before the
compute that writes its C rows has written them). The RTL's writes are applied in time order to a shadow scratchpad / accumulator; the
rows an instruction wrote are kept with their content right after its last write to them
(writes of different instructions interleave in time, but the unit's hazard tracking never lets
two in-flight instructions write one row). The model does the same. Then, per instruction:

- memory: the bytes it wrote, address and value, in order, must be the same sequence;
- rows: every row the model wrote must be among the RTL's with the same content; every row the
  RTL wrote must hold what the model holds (a row only the RTL wrote must keep the model's value).

The first difference in program order is reported with the instruction's PC, its disassembly
with fields, the row or address, and expected (model) against actual (RTL).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

Row = tuple[str, int]  # ("sp" | "acc", row)
_BITS = {"sp": 8, "acc": 32}
_NAMES = {"sp": "scratchpad", "acc": "accumulator"}
MAX_DETAILS = 8
# Gemmini instructions the RTL may still be working on at any time: the unit's instruction table (16) and the
# ROB (32) bound them; when a run is cut, the last this many issued are not compared.
IN_FLIGHT = 32


class GemminiTraceError(Exception):
    """A malformed line in one of the Gemmini traces."""


@dataclass
class GemminiInsn:
    """What one Gemmini instruction wrote, on one side."""

    k: int
    rows: dict[Row, int] = field(default_factory=dict)  # row -> content right after its last write
    mem: list[tuple[int, bytes]] = field(default_factory=list)  # (address, bytes) in order
    pc: int = 0
    word: int = 0
    rs1: int = 0
    rs2: int = 0
    seq: int | None = None  # RTL side


@dataclass
class GemminiDivergence:
    k: int  # Gemmini instruction number (0-based, acceptance order)
    pc: int
    word: int
    disassembly: str
    what: str  # rows | memory | order | missing
    details: list[str]
    index: int | None = None  # the instruction's number in the commit trace, when known

    def format(self) -> str:
        where = f" (instruction {self.index} of the commit trace)" if self.index is not None else ""
        lines = [
            f"first Gemmini divergence at Gemmini instruction {self.k}{where} ({self.what}): "
            f"pc 0x{self.pc:08x}: {self.disassembly} (0x{self.word:08x})"
        ]
        lines += [f"  {d}" for d in self.details]
        return "\n".join(lines)


@dataclass
class GemminiResult:
    compared: int  # instructions compared
    divergence: GemminiDivergence | None
    rows: int = 0  # rows compared
    mem_bytes: int = 0  # main-memory bytes compared
    unfinished: int = 0  # instructions not compared: one side had not finished them when its trace ended

    @property
    def ok(self) -> bool:
        return self.divergence is None

    def summary(self) -> str:
        if self.divergence is not None:
            return self.divergence.format()
        extra = f"; {self.unfinished} unfinished at the end, not compared" if self.unfinished else ""
        return (
            f"Gemmini: no divergence ({self.compared} instructions, {self.rows} scratchpad/accumulator rows, "
            f"{self.mem_bytes} main-memory bytes compared{extra})"
        )


def _hex(text: str) -> int:
    return int(text, 16)


def _bytes_of(value: int, length: int) -> bytes:
    return (value & ((1 << (8 * length)) - 1)).to_bytes(length, "little") if length else b""


# ---------------------------------------------------------------- the two sides


class ModelSide:
    """The model's trace: closes instructions (out of program order, when a preload's result comes late)."""

    def __init__(self, lines: Iterable[str]):
        self._lines = iter(lines)
        self._open: dict[int, GemminiInsn] = {}
        self.shadow: dict[Row, int] = {}  # the model's rows as of the last line read (unwritten rows: 0)
        self.ended = False

    def closes(self) -> Iterator[GemminiInsn]:
        for line_no, line in enumerate(self._lines, 1):
            parts = line.split()
            if not parts:
                continue
            try:
                kind = parts[0]
                if kind == "insn":
                    k = int(parts[1])
                    self._open[k] = GemminiInsn(
                        k, pc=_hex(parts[2]), word=_hex(parts[3]), rs1=_hex(parts[4]), rs2=_hex(parts[5])
                    )
                elif kind in _BITS:
                    row, value = (kind, _hex(parts[2])), _hex(parts[3])
                    self.shadow[row] = value
                    self._insn(int(parts[1])).rows[row] = value
                elif kind == "wr":
                    self._insn(int(parts[1])).mem.append((_hex(parts[2]), bytes.fromhex(parts[3])))
                elif kind == "close":
                    yield self._open.pop(int(parts[1]))
                else:
                    raise ValueError(kind)
            except (ValueError, IndexError, KeyError) as e:
                raise GemminiTraceError(f"Gemmini model trace line {line_no}: {line.strip()!r} ({e})") from None
        self.ended = True

    def _insn(self, k: int) -> GemminiInsn:
        return self._open.setdefault(k, GemminiInsn(k))


class RtlSide:
    """The RTL's trace: instructions in program order (the k-th ``issue``), rows from a shadow of the memories."""

    def __init__(self, lines: Iterable[str], dim: int):
        self.dim = dim
        self._lines = enumerate(lines, 1)
        self._by_seq: dict[int, GemminiInsn] = {}
        self._shadow: dict[Row, int] = {}
        self._done: dict[int, GemminiInsn] = {}
        self._next = 0
        self.ended = False

    def get(self, k: int) -> GemminiInsn | None:
        """Instruction k, reading on until its sequence number is reused or the trace ends (then
        everything issued is complete); None if it was never issued."""
        while k not in self._done and not self.ended:
            self._read_one()
        return self._done.pop(k, None)

    @property
    def issued(self) -> int:
        return self._next

    def _read_one(self) -> None:
        nxt = next(self._lines, None)
        if nxt is None:
            self.ended = True
            for insn in self._by_seq.values():
                self._done[insn.k] = insn
            self._by_seq.clear()
            return
        line_no, line = nxt
        parts = line.split()
        if not parts or parts[0].startswith("//"):
            return
        try:
            kind = parts[0]
            if kind in _BITS:
                seq, row, mask, data = int(parts[2]), _hex(parts[3]), _hex(parts[4]), _hex(parts[5])
                bits = _BITS[kind]
                key = (kind, row)
                value = self._shadow.get(key, 0)
                if kind == "acc":
                    mask = 0  # the whole row as the bank wrote it back (its read-modify-write), unmasked lanes too
                    value = data & ((1 << (bits * self.dim)) - 1)
                e = 0
                while mask >> e:
                    if mask >> e & 1:
                        lane = ((1 << bits) - 1) << (bits * e)
                        value = (value & ~lane) | (data & lane)
                    e += 1
                self._shadow[key] = value
                self._insn(seq).rows[key] = value
            elif kind == "wr":
                seq, addr, length, data = int(parts[2]), _hex(parts[3]), int(parts[4]), _hex(parts[5])
                self._insn(seq).mem.append((addr, _bytes_of(data, length)))
            elif kind == "issue":
                seq = int(parts[2])
                old = self._by_seq.pop(seq, None)
                if old is not None:
                    self._done[old.k] = old  # its number is reused: nothing more can be its
                self._by_seq[seq] = GemminiInsn(self._next, seq=seq)
                self._next += 1
            else:
                raise ValueError(kind)
        except (ValueError, IndexError) as e:
            raise GemminiTraceError(f"Gemmini RTL trace line {line_no}: {line.strip()!r} ({e})") from None

    def _insn(self, seq: int) -> GemminiInsn:
        insn = self._by_seq.get(seq)
        if insn is None:
            raise ValueError(f"a write for #{seq}, which no issued instruction has")
        return insn


# ---------------------------------------------------------------- comparison


def _fmt_row(space: str, value: int, dim: int) -> str:
    bits = _BITS[space]
    mask = (1 << bits) - 1
    elems = []
    for e in range(dim):
        v = value >> (bits * e) & mask
        elems.append(v - (1 << bits) if v >> (bits - 1) else v)
    return "[" + ", ".join(str(v) for v in elems) + "]"


def _elements_differ(space: str, a: int, b: int, dim: int) -> str:
    bits = _BITS[space]
    mask = (1 << bits) - 1
    diff = [e for e in range(dim) if (a >> (bits * e)) & mask != (b >> (bits * e)) & mask]
    return f" (element{'s' if len(diff) > 1 else ''} {', '.join(map(str, diff))})" if diff else ""


def compare_rows(model: GemminiInsn, rtl: GemminiInsn, model_shadow: dict[Row, int], dim: int) -> list[str]:
    """The rows' differences of one instruction (empty: they agree)."""
    details = []
    for key in sorted(model.rows.keys() | rtl.rows.keys()):
        space, row = key
        name = f"{_NAMES[space]} row {row} (0x{row:x})"
        if key in model.rows:
            want = model.rows[key]
            if key not in rtl.rows:
                details.append(f"{name}: the model wrote {_fmt_row(space, want, dim)}, the RTL did not write it")
                continue
            got = rtl.rows[key]
            if got != want:
                details.append(
                    f"{name}: expected {_fmt_row(space, want, dim)} (model), actual {_fmt_row(space, got, dim)} (RTL)"
                    + _elements_differ(space, want, got, dim)
                )
        else:
            want, got = model_shadow.get(key, 0), rtl.rows[key]
            if got != want:
                details.append(
                    f"{name}: the RTL wrote {_fmt_row(space, got, dim)}, the model did not write it "
                    f"and holds {_fmt_row(space, want, dim)}"
                )
    return details


def _flat(mem: list[tuple[int, bytes]]) -> list[tuple[int, int, int]]:
    """(address, byte, request number) of every byte, in order."""
    return [(addr + i, b, n) for n, (addr, data) in enumerate(mem) for i, b in enumerate(data)]


def compare_mem(model: GemminiInsn, rtl: GemminiInsn) -> list[str]:
    """The main-memory writes' differences of one instruction (empty: they agree)."""
    want, got = _flat(model.mem), _flat(rtl.mem)
    for i, (w, g) in enumerate(zip(want, got, strict=False)):
        if w[:2] != g[:2]:
            return [
                f"main-memory write byte {i} (model write {w[2]}, RTL request {g[2]}): expected 0x{w[1]:02x} at "
                f"0x{w[0]:08x} (model), actual 0x{g[1]:02x} at 0x{g[0]:08x} (RTL)"
            ]
    if len(want) != len(got):
        more = want[len(got)] if len(want) > len(got) else got[len(want)]
        who = "the model" if len(want) > len(got) else "the RTL"
        return [
            f"main memory: the model wrote {len(want)} bytes, the RTL {len(got)}; "
            f"{who} goes on with 0x{more[1]:02x} at 0x{more[0]:08x}"
        ]
    return []


Disassembler = Callable[[int, int, int], str]  # (word, rs1, rs2) -> text


def _default_disasm(word: int, rs1: int, rs2: int) -> str:
    from sim.gemmini.disasm import disasm_gemmini

    return disasm_gemmini(word, rs1, rs2)


class GemminiChecker:
    """Compares the model's and the RTL's Gemmini traces; use :meth:`run` once.

    ``commits``: the Gemmini instructions of the commit trace in order, ``(index, pc, insn, seq)``
    (``Comparator.gemmini_commits``), to name the commit-trace position and check the sequence numbers.
    ``limit``: compare only instructions before this commit-trace index (the scalar divergence's)."""

    def __init__(
        self,
        dim: int,
        commits: list[tuple[int, int, int, int]] | None = None,
        disassembler: Disassembler | None = None,
        limit: int | None = None,
        rtl_cut: bool = False,
    ):
        self.dim = dim
        self.commits = commits
        self.disasm = disassembler or _default_disasm
        self.limit = limit
        self.rtl_cut = rtl_cut  # the RTL run was stopped (cycle limit, watchdog): its last instructions may be partial

    def run(self, model_lines: Iterable[str], rtl_lines: Iterable[str]) -> GemminiResult:
        model, rtl = ModelSide(model_lines), RtlSide(rtl_lines, self.dim)
        best: GemminiDivergence | None = None
        compared = rows = nbytes = unfinished = 0
        closed: set[int] = set()
        for m in model.closes():
            closed.add(m.k)
            if best is not None and m.k > best.k:
                if all(j in closed for j in range(best.k)):
                    break
                continue
            index = self._index(m.k)
            if index is not None and self.limit is not None and index >= self.limit:
                continue  # at or after the scalar divergence: Spike and the RTL no longer agree on the program
            r = rtl.get(m.k)
            if r is None or (self.rtl_cut and rtl.ended and m.k >= rtl.issued - IN_FLIGHT):
                unfinished += 1  # the RTL run ended before this instruction completed (or may have)
                continue
            div = self._compare(m, r, model.shadow, index)
            if div is not None:
                if best is None or div.k < best.k:
                    best = div
                if all(j in closed for j in range(best.k)):
                    break
                continue
            compared += 1
            rows += len(m.rows.keys() | r.rows.keys())
            nbytes += sum(len(d) for _, d in m.mem)
        else:
            if best is None:
                unfinished += self._rtl_only(rtl, model, compared + unfinished)
        return GemminiResult(compared, best, rows, nbytes, unfinished)

    def _rtl_only(self, rtl: RtlSide, model: ModelSide, seen: int) -> int:
        """Instructions the RTL completed that the model never closed (its trace ended first)."""
        n = 0
        while rtl.get(seen + n) is not None:
            n += 1
        return n

    def _index(self, k: int) -> int | None:
        if self.commits is None or k >= len(self.commits):
            return None
        return self.commits[k][0]

    def _compare(self, m: GemminiInsn, r: GemminiInsn, shadow: dict[Row, int], index: int | None):
        text = self._text(m)
        if self.commits is not None and m.k < len(self.commits):
            _, pc, insn, seq = self.commits[m.k]
            if pc != m.pc or insn != m.word or seq != r.seq:
                return GemminiDivergence(
                    m.k,
                    m.pc,
                    m.word,
                    text,
                    "order",
                    [
                        f"Gemmini instruction {m.k}: the commit trace has pc 0x{pc:08x} #{seq}, the model "
                        f"pc 0x{m.pc:08x}, the RTL completed #{r.seq}"
                    ],
                    index,
                )
        details = compare_rows(m, r, shadow, self.dim)
        what = "rows"
        if not details:
            details, what = compare_mem(m, r), "memory"
        if not details:
            return None
        if len(details) > MAX_DETAILS:
            details = [*details[:MAX_DETAILS], f"... and {len(details) - MAX_DETAILS} more"]
        return GemminiDivergence(m.k, m.pc, m.word, text, what, details, index)

    def _text(self, m: GemminiInsn) -> str:
        try:
            return self.disasm(m.word, m.rs1, m.rs2)
        except Exception as e:  # a message must still come out
            return f"gemmini funct {m.word >> 25} (no disassembly: {e})"
