"""One C program on Spike and on the RTL: the shared set-up of the tests that check
the RTL prints exactly what Spike prints."""

from __future__ import annotations

from pathlib import Path

from harness.toolchain import build_elf
from sim.outcome import RunOutcome
from sim.rtl_runner import run_rtl
from sim.spike.runner import run_spike


def run_c_on_spike_and_rtl(source: str, soc: str, tmp_path: Path, name: str) -> tuple[RunOutcome, RunOutcome]:
    """Build `source` for `soc` and run the same ELF on Spike and on the RTL."""
    src = tmp_path / f"{name}.c"
    src.write_text(source)
    elf = build_elf([src], soc, tmp_path / f"{name}.elf")
    return run_spike(elf, soc), run_rtl(elf, soc, workdir=tmp_path)
