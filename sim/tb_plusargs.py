"""The test bench's plusargs for one run (sim/tb/README.md), shared by the cocotb runner and the plain loop."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from configs import SocConfig
from sim.errors import SimError


def dump_regions(dumps: Iterable) -> list[tuple[int, int]]:
    """``(addr, size)`` pairs or objects with ``.addr``/``.size`` -> checked ``(addr, size)`` pairs."""
    out = []
    for d in dumps:
        addr, size = (d.addr, d.size) if hasattr(d, "addr") else d
        if size <= 0:
            raise SimError(f"dump region at 0x{addr:x} has size {size}; it must be positive")
        out.append((int(addr), int(size)))
    return out


def tb_plusargs(
    soc: SocConfig,
    elf: Path,
    out: Path,
    trace: Path | None,
    max_cycles: int,
    watchdog: int,
    corrupt_pc: int | None,
    dumps: list[tuple[int, int]],
    extra: Iterable[str] = (),
) -> list[str]:
    """The test bench's plusargs for one run (sim/tb/README.md); the plain loop takes the same."""
    mm = soc.memory_map
    regions = ",".join(f"0x{b:x}:0x{s:x}" for b, s in mm.regions().values())
    offsets = ",".join(f"0x{o:x}" for o in mm.mmio_offsets)
    args = [
        f"+elf={check_plusarg_path(str(elf))}",
        f"+out={check_plusarg_path(str(out))}",
        f"+regions={regions}",
        f"+mmio={mm.mmio_base:x}",
        f"+mmio_offsets={offsets}",
        f"+max_cycles={max_cycles}",
        f"+watchdog={watchdog}",
    ]
    if trace is not None:
        args.append(f"+trace={check_plusarg_path(str(trace))}")
    if corrupt_pc is not None:
        args.append(f"+corrupt_pc={corrupt_pc:x}")
    if dumps:
        args.append("+dumps=" + ",".join(f"0x{a:x}:{s}" for a, s in dumps))
    for a in extra:
        if not a.startswith("+"):
            raise SimError(f"plusarg {a!r} must start with '+', e.g. +perf_max_fma=1")
        args.append(a)
    return args


_PLUSARG_SAFE = re.compile(r"^[\w./:,+=-]*$")


def check_plusarg_path(path: str) -> str:
    """Plusargs cannot carry spaces through the simulator's argv parsing reliably."""
    if not _PLUSARG_SAFE.match(path):
        raise SimError(f"path {path!r} has characters the simulator's plusargs cannot carry; use a plain path")
    return path
