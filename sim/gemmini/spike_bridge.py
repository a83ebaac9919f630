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
"""

from __future__ import annotations

import ctypes
import json
import os
import re
from pathlib import Path

import numpy as np

from configs import load_soc
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


class Bridge:
    def __init__(self, session_path: str, read_fn: int, write_fn: int):
        # Overflow and NaN in the fp32 scale are defined by the ISA (saturation); numpy's warnings about them
        # would only clutter Spike's stderr, which the runner shows when a run fails.
        np.seterr(all="ignore")
        session = json.loads(Path(session_path).read_text())
        self.model = GemminiModel(gemmini_params(load_soc(session["soc"])), SpikeMemory(read_fn, write_fn))
        self._events = open(session["events"], "a", buffering=1)  # line-buffered: survives a kill
        self._counters_path = Path(session["counters"])

    def execute(self, word: int, rs1: int, rs2: int, pc: int) -> int | None:
        """The rd value, or None when the instruction is illegal (the shim traps)."""
        try:
            return self.model.execute(funct_of(word), rs1, rs2) & 0xFFFF_FFFF_FFFF_FFFF
        except GemminiIllegal as e:
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
