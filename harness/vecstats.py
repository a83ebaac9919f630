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


def mix_from_log(
    lines, profile_addr: int, region: int = FORWARD_REGION, pc_ranges: list[tuple[int, int]] | None = None
) -> Mix:
    """Count the instruction mix between PROFILE start and stop of ``region``
    (only instructions whose PC lies in one of ``pc_ranges``, if given)."""
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
        if pc_ranges is not None:
            pc = int(m.group(1), 16)
            if not any(lo <= pc < hi for lo, hi in pc_ranges):
                continue
        kind = classify(int(m.group(2), 16))
        mix.forward += 1
        setattr(mix, kind, getattr(mix, kind) + 1)
    return mix


# The compiled kernel's functions (harness.program calls the C interface wrapper).
KERNEL_FUNCTIONS = ("forward", "_mlir_ciface_forward")


def function_ranges(elf: str | os.PathLike, names=KERNEL_FUNCTIONS) -> list[tuple[int, int]]:
    """[start, end) addresses of the named functions in ``elf``."""
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection

    ranges = []
    with open(elf, "rb") as f:
        for section in ELFFile(f).iter_sections():
            if isinstance(section, SymbolTableSection):
                for sym in section.iter_symbols():
                    if sym.name in names and sym["st_info"]["type"] == "STT_FUNC" and sym["st_size"]:
                        ranges.append((sym["st_value"], sym["st_value"] + sym["st_size"]))
    return ranges


def forward_mixes(elf: str | os.PathLike, soc) -> tuple[Mix, Mix]:
    """Run ``elf`` on Spike with a commit log once; returns the mix of the whole
    forward PROFILE region and of the compiled kernel alone (its functions' PCs:
    without the generated main's argument set-up and call around it)."""
    from sim.spike import run_spike

    soc = load_soc(soc)
    ranges = function_ranges(elf)
    with tempfile.TemporaryDirectory(prefix="cosim-mix-") as tmp:
        log = Path(tmp) / "commits.log"
        run_spike(elf, soc, log_commits=log, workdir=tmp)
        with open(log, errors="replace") as f:
            region = mix_from_log(f, soc.memory_map.profile_addr)
        with open(log, errors="replace") as f:
            kernel = mix_from_log(f, soc.memory_map.profile_addr, pc_ranges=ranges)
    return region, kernel


def forward_mix(elf: str | os.PathLike, soc) -> Mix:
    """Run ``elf`` on Spike with a commit log and count the mix inside forward."""
    return forward_mixes(elf, soc)[0]
