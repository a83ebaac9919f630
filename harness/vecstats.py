"""Instruction mix inside the ``forward`` PROFILE region, measured on Spike.

Spike's commit log (``--log-commits``) has one line per retired instruction with
its encoding, and shows the PROFILE stores (``mem 0x<PROFILE> 0x<value>``) that
open and close the region. Counting the encodings between them tells how much
of ``forward`` ran on the vector unit:

- vector: OP-V (major opcode 0x57) except ``vset{i}vl{i}``, and LOAD-FP /
  STORE-FP (0x07 / 0x27) with a vector width (funct3 0, 5, 6, 7);
- vset: ``vsetvli``/``vsetivli``/``vsetvl`` (OP-V with funct3 7), counted apart;
- scalar: everything else.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from configs import load_soc
from harness.results import FORWARD_REGION

_LINE = re.compile(r"^core\s+\d+: \d 0x([0-9a-f]+) \(0x([0-9a-f]+)\)(.*)$")


@dataclass
class Mix:
    forward: int = 0
    vector: int = 0
    vset: int = 0
    scalar: int = 0

    @property
    def vector_fraction(self) -> float:
        return self.vector / self.forward if self.forward else 0.0

    def to_dict(self) -> dict:
        return {**asdict(self), "vector_fraction": round(self.vector_fraction, 4)}


def classify(insn: int) -> str:
    """'vector', 'vset' or 'scalar' for one 32-bit instruction word."""
    opcode = insn & 0x7F
    funct3 = (insn >> 12) & 0x7
    if opcode == 0x57:
        return "vset" if funct3 == 7 else "vector"
    if opcode in (0x07, 0x27) and funct3 in (0, 5, 6, 7):
        return "vector"
    return "scalar"


def mix_from_log(lines, profile_addr: int, region: int = FORWARD_REGION) -> Mix:
    """Count the instruction mix between PROFILE start and stop of ``region``."""
    start, stop = f"mem 0x{profile_addr:08x} 0x{(region << 1) | 1:08x}", f"mem 0x{profile_addr:08x} 0x{region << 1:08x}"
    mix = Mix()
    inside = False
    for line in lines:
        m = _LINE.match(line)
        if not m:
            continue
        rest = m.group(3)
        if not inside:
            if start in rest:
                inside = True
            continue
        if stop in rest:
            break
        kind = classify(int(m.group(2), 16))
        mix.forward += 1
        setattr(mix, kind, getattr(mix, kind) + 1)
    return mix


def forward_mix(elf: str | os.PathLike, soc) -> Mix:
    """Run ``elf`` on Spike with a commit log and count the mix inside forward."""
    from sim.spike import run_spike

    soc = load_soc(soc)
    with tempfile.TemporaryDirectory(prefix="cosim-mix-") as tmp:
        log = Path(tmp) / "commits.log"
        run_spike(elf, soc, log_commits=log, workdir=tmp)
        with open(log, errors="replace") as f:
            return mix_from_log(f, soc.memory_map.profile_addr)
