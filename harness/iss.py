"""Spike runs of a checked ELF: the Python API behind ``cosim iss`` and the suites' ISS runs.

    from harness.iss import run_iss
    outcome, result = run_iss("x.elf", "rv32")     # RunOutcome and the result.json dict

:func:`describe_trap` words a trap the way every report shows it: the instruction
word and its disassembly from the ELF, the symbol it is in, mcause and mtval.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from configs import SocConfig, load_soc
from harness.elfcheck import ElfImage, check_elf
from harness.results import make_result
from sim.disasm import disassemble
from sim.outcome import RunOutcome
from sim.spike import Dump, run_spike


def describe_trap(outcome: RunOutcome, img: ElfImage, soc: SocConfig) -> None:
    """Fill the trap's instruction word and disassembly from the ELF (Spike only knows the PC)."""
    trap = outcome.trap
    if trap is None:
        return
    trap.instruction = img.word_at(trap.pc)
    # A simulator that knew the operands (Spike's Gemmini extension) has disassembled already.
    if trap.instruction is not None and trap.disassembly is None:
        trap.disassembly = disassemble(trap.instruction, soc.xlen)
    where = img.symbol_at(trap.pc)
    if where:
        trap.description = f"{trap.description} in {where}"
    outcome.message = (
        f"{trap.description} at pc 0x{trap.pc:x}: {trap.disassembly or 'instruction not in the ELF'}"
        f" (mcause {trap.cause:#x}, mtval {trap.tval:#x})" + (f": {trap.detail}" if trap.detail else "")
    )


def run_iss(
    elf: str | os.PathLike,
    soc: SocConfig | str,
    *,
    case: str | None = None,
    dumps: Sequence[Dump] = (),
    max_instructions: int | None = None,
    timeout_s: float | None = None,
) -> tuple[RunOutcome, dict]:
    """Python API: check the ELF, run it on Spike, return the outcome and the result record."""
    soc = load_soc(soc)
    img = check_elf(elf, soc)
    outcome = run_spike(elf, soc, dumps=dumps, max_instructions=max_instructions, timeout_s=timeout_s)
    describe_trap(outcome, img, soc)
    return outcome, make_result(outcome, soc=soc, elf=elf, case=case)
