"""``cosim iss x.elf --soc S``: run an ELF on Spike, print its UART text, write result.json."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from configs import SocConfig, load_soc
from harness.elfcheck import ElfImage, check_elf
from harness.results import make_result, write_json_atomic
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


def _cmd(args) -> int:
    dumps = [Dump.parse(d) for d in args.dump]
    outcome, result = run_iss(
        args.elf, args.soc, dumps=dumps, max_instructions=args.max_instructions, timeout_s=args.timeout
    )
    sys.stdout.write(outcome.uart)
    sys.stdout.flush()
    json_path = Path(args.json)
    if dumps:
        records = []
        for d in dumps:
            data = outcome.dumps.get(d.addr)
            path = json_path.with_name(f"{json_path.stem}.dump-{d.addr:x}-{d.size:x}.bin")
            if data is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            records.append({"addr": f"0x{d.addr:x}", "size": d.size, "file": str(path) if data is not None else None})
        result["dumps"] = records
    write_json_atomic(json_path, result)
    status = result["status"]
    detail = outcome.message or f"exit code {outcome.exit_code}"
    print(
        f"cosim iss: {status}: {detail}; {outcome.instret} instructions, {outcome.wall_s:.3f} s; wrote {json_path}",
        file=sys.stderr,
    )
    return 0 if status == "pass" else 1


def register(sub) -> None:
    p = sub.add_parser(
        "iss",
        help="run an ELF on Spike (golden ISS) with the SoC's memory map and MMIO page",
        description="Run an ELF on Spike (--priv=m, our device tree and MMIO plugin). Prints the UART text, "
        "writes result.json; exits 0 only when the status is pass.",
    )
    p.add_argument("elf", help="ELF built with `cosim cc` for the same config")
    p.add_argument("--soc", required=True, help="SoC config name or path to a .toml")
    p.add_argument("--json", default="result.json", metavar="F", help="result file (default ./result.json)")
    p.add_argument(
        "--max-instructions", type=int, default=None, metavar="N", help="stop after N instructions (status timeout)"
    )
    p.add_argument(
        "--timeout", type=float, default=None, metavar="S", help="wall-clock limit in seconds (status timeout)"
    )
    p.add_argument(
        "--dump",
        action="append",
        default=[],
        metavar="ADDR:SIZE",
        help="memory region to save after EXIT (repeatable); written beside the JSON file",
    )
    p.set_defaults(func=_cmd)
