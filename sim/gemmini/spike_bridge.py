"""The Python side of Spike's ``cosim_gemmini`` extension (sim/spike/cosim_gemmini.cc).

Spike's embedded interpreter imports this module on the first Gemmini
instruction and makes one :class:`Bridge`; each custom-3 instruction then calls
:meth:`Bridge.execute`, and Spike's exit calls :meth:`Bridge.finish`. The
session file (JSON, written by ``sim/spike/runner.py``) names the SoC config and
the files this side writes:

- ``events``: one line per refused instruction,
  ``gemmini_illegal <pc hex> <word hex> <disassembly with operands>\t<reason>``,
  written before the trap so a killed run keeps it;
- ``counters``: the model's counters as JSON at exit (written atomically).

With ``COSIM_GEMMINI_TRACE=FILE`` in the environment (the difftest sets it through
``run_spike(gemmini_trace=...)``) the bridge also writes the model's side of the
Gemmini difftest (:class:`ModelTracer`, format there); without it nothing is
traced and nothing is paid.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
from pathlib import Path

import numpy as np

from configs import load_soc
from sim.gemmini import isa
from sim.gemmini.disasm import disasm_gemmini
from sim.gemmini.isa import funct_of
from sim.gemmini.model import GemminiIllegal, GemminiModel
from sim.gemmini.params import gemmini_params

_READ = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_uint64, ctypes.c_uint64, ctypes.c_void_p)
_WRITE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_uint64, ctypes.c_uint64, ctypes.c_char_p)


class SpikeMemory:
    """Main memory through Spike's MMU, as the model's ``Memory``."""

    def __init__(self, read_fn: int, write_fn: int):
        self._read = _READ(read_fn)
        self._write = _WRITE(write_fn)

    def read(self, addr: int, size: int) -> bytes:
        buf = ctypes.create_string_buffer(size)
        if size and self._read(addr, size, buf) != 0:
            raise GemminiIllegal(f"DMA read of {size} bytes at 0x{addr:x} leaves the memory map")
        return buf.raw

    def write(self, addr: int, data: bytes) -> None:
        if data and self._write(addr, len(data), bytes(data)) != 0:
            raise GemminiIllegal(f"DMA write of {len(data)} bytes at 0x{addr:x} leaves the memory map")


class ModelTracer:
    """The model's side of the Gemmini difftest (sim/difftest/gemmini.py reads it), one line per event::

        insn <k> <pc> <word> <rs1> <rs2>   Gemmini instruction k (0, 1, ... in the order the unit accepts them)
        sp <owner> <row> <data>            a scratchpad row write: the row after it
        acc <owner> <row> <data>           an accumulator row write: the row after it
        wr <owner> <addr> <bytes>          a main-memory write (bytes in address order, 2 hex digits each)
        close <k>                          instruction k has made all its writes

    Numbers are hex except k and owner (decimal); a row is one number with element e at bits
    [e*W +: W] (W = 8 / 32), as the RTL trace prints it. The owner of a write is the instruction it
    belongs to, as the RTL attributes it: a result (C rows) belongs to the preload that named C, even
    when a later compute, flip or drain writes it; everything else to the running instruction (a
    loop_ws with all its commands is one). An owner closes once nothing pending can still write for
    it. A refused instruction's own writes are dropped and its k is not used; the lines of one
    instruction are written (and flushed) when it ends, so a Spike killed mid-way leaves whole records.
    """

    def __init__(self, path: str):
        self._out = open(path, "w")
        self._lines: list[str] = []
        self._next = 0  # k of the next accepted instruction
        self._current = -1  # owner of writes outside a result
        self._open: set[int] = set()  # owners that may still write
        self._model: GemminiModel | None = None
        self._roots: dict[str, np.ndarray] = {}

    def _root(self, space: str) -> np.ndarray:
        return self._roots[space]

    def memory(self, inner: SpikeMemory) -> _TracedMemory:
        return _TracedMemory(inner, self)

    def attach(self, model: GemminiModel) -> None:
        """Observe ``model``'s scratchpad, accumulator and result writes."""
        self._model = model
        model.sp = _traced(model.sp, self, "sp", 8)
        model.acc = _traced(model.acc, self, "acc", 32)
        write_result = model._write_result

        def traced_write_result(insn: str, out: np.ndarray, pre) -> None:
            saved = self._current
            self._current = getattr(pre, "_cosim_owner", saved)
            try:
                write_result(insn, out, pre)
            finally:
                self._current = saved

        model._write_result = traced_write_result  # type: ignore[method-assign]

    def begin(self, pc: int, word: int, rs1: int, rs2: int) -> None:
        self._current = self._next
        self._lines = [f"insn {self._next} {pc:x} {word:x} {rs1 & (1 << 64) - 1:x} {rs2 & (1 << 64) - 1:x}"]

    def row(self, space: str, row: int, value: int) -> None:
        self._lines.append(f"{space} {self._current} {row:x} {value:x}")

    def write(self, addr: int, data: bytes) -> None:
        self._lines.append(f"wr {self._current} {addr:x} {bytes(data).hex()}")

    def end(self, refused: bool) -> None:
        k = self._next
        if refused:
            # Keep what the instruction wrote for older owners (a drain); drop its own writes.
            lines = [ln for ln in self._lines[1:] if ln.split(" ", 2)[1] != str(k)]
        else:
            lines = self._lines
            self._next += 1
            self._open.add(k)
        live = self._live_owners(k)
        done = sorted(o for o in self._open if o not in live)
        self._open.difference_update(done)
        lines += [f"close {o}" for o in done]
        if lines:
            self._out.write("\n".join(lines) + "\n")
            self._out.flush()
        self._lines = []
        self._current = -1

    def _live_owners(self, k: int) -> set[int]:
        """Owners of the preloads the model still holds whose C is still to be written; new ones become k's."""
        model = self._model
        live: set[int] = set()
        if model is None:
            return live
        for pre in (model._pending, model._os_out):
            if pre is None or pre.c_raw == isa.GARBAGE_ADDR or pre.c_rows == 0 or pre.c_cols == 0:
                continue
            if not hasattr(pre, "_cosim_owner"):
                pre._cosim_owner = k  # type: ignore[attr-defined]
            live.add(pre._cosim_owner)  # type: ignore[attr-defined]
        return live

    def close(self) -> None:
        if self._open:
            self._out.write("".join(f"close {o}\n" for o in sorted(self._open)))
            self._open.clear()
        self._out.close()


class _TracedMemory:
    """The model's memory, with every write reported to the tracer (the DMA's writes, in order)."""

    def __init__(self, inner: SpikeMemory, tracer: ModelTracer):
        self._inner = inner
        self._tracer = tracer

    def read(self, addr: int, size: int) -> bytes:
        return self._inner.read(addr, size)

    def write(self, addr: int, data: bytes) -> None:
        self._inner.write(addr, data)
        if data:
            self._tracer.write(addr, data)


class _TracedRows(np.ndarray):
    """A scratchpad / accumulator whose row writes (also through views of it) reach the tracer."""

    _trace: tuple[ModelTracer, str, int, int, int, int] | None = None  # tracer, space, bits, data ptr, row stride, size

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        info = type(self)._trace
        if info is None:
            return
        tracer, space, bits, base_ptr, row_stride, nbytes = info
        ptr = self.__array_interface__["data"][0]
        if not base_ptr <= ptr < base_ptr + nbytes:
            return  # a copy (astype), not the memory itself
        first = (ptr - base_ptr) // row_stride
        index = np.arange(self.shape[0])
        k0 = key[0] if isinstance(key, tuple) else key
        if self.ndim == 2:
            if isinstance(key, tuple) and len(key) > 1 and key[0] is not Ellipsis:
                if np.arange(self.shape[1])[key[1]].size == 0:
                    return  # no column written
            picked = index if k0 is Ellipsis else np.atleast_1d(index[k0])
            rows = first + picked * (self.strides[0] // row_stride)
        else:
            rows = np.array([first])  # one row (a view of it)
        root = tracer._root(space)
        mask = (1 << bits) - 1
        for r in sorted(set(int(x) for x in rows)):
            value = 0
            for e, v in enumerate(root[r].tolist()):
                value |= (int(v) & mask) << (bits * e)
            tracer.row(space, r, value)


def _traced(arr: np.ndarray, tracer: ModelTracer, space: str, bits: int) -> np.ndarray:
    cls = type(f"_Traced_{space}", (_TracedRows,), {})
    view = arr.view(cls)
    cls._trace = (tracer, space, bits, arr.__array_interface__["data"][0], arr.strides[0], arr.nbytes)
    tracer._roots[space] = arr  # the plain array: reading it does not go through the subclass
    return view


class Bridge:
    def __init__(self, session_path: str, read_fn: int, write_fn: int):
        # Overflow and NaN in the fp32 scale are defined by the ISA (saturation); numpy's warnings about them
        # would only clutter Spike's stderr, which the runner shows when a run fails.
        np.seterr(all="ignore")
        session = json.loads(Path(session_path).read_text())
        memory: SpikeMemory = SpikeMemory(read_fn, write_fn)
        trace_path = os.environ.get("COSIM_GEMMINI_TRACE")
        self.tracer: ModelTracer | None = None
        if trace_path:
            self.tracer = ModelTracer(trace_path)
            memory = self.tracer.memory(memory)  # type: ignore[assignment]
        self.model = GemminiModel(gemmini_params(load_soc(session["soc"])), memory)
        if self.tracer is not None:
            self.tracer.attach(self.model)
        self._events = open(session["events"], "a", buffering=1)  # line-buffered: survives a kill
        self._counters_path = Path(session["counters"])

    def execute(self, word: int, rs1: int, rs2: int, pc: int) -> int | None:
        """The rd value, or None when the instruction is illegal (the shim traps)."""
        tracer = self.tracer
        if tracer is not None:
            tracer.begin(pc, word, rs1, rs2)
        try:
            rd = self.model.execute(funct_of(word), rs1, rs2) & 0xFFFF_FFFF_FFFF_FFFF
            if tracer is not None:
                tracer.end(refused=False)
            return rd
        except GemminiIllegal as e:
            if tracer is not None:
                tracer.end(refused=True)
            text = disasm_gemmini(word, rs1, rs2)
            # The disassembly already names the instruction: keep only the reason.
            reason = re.sub(r"^gemmini( [a-z0-9_]+)?: ", "", str(e))
            self._events.write(f"gemmini_illegal {pc:x} {word:x} {text}\t{reason}\n")
            return None

    def finish(self) -> None:
        tmp = self._counters_path.with_name(self._counters_path.name + ".tmp")
        tmp.write_text(json.dumps(dict(self.model.counters), sort_keys=True))
        os.replace(tmp, self._counters_path)
        self._events.close()
        if self.tracer is not None:
            self.tracer.close()
