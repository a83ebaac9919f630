"""``cosim difftest x.elf --soc S``: the RTL's commit trace against Spike's, instruction by instruction.

The RTL runs first with ``+trace=FILE`` (``sim.rtl_runner.run_rtl(trace=...)``);
then Spike runs with its commit log on a FIFO and the two are compared in
lockstep (:mod:`sim.difftest`), so neither log is ever held in memory. Prints
``no divergence (N instructions compared)`` and exits 0, or names the first
divergence (PC, disassembly, register or memory, expected vs actual, context)
and exits 1. ``--rtl-trace FILE`` compares an existing trace instead of running
the RTL (to re-check a saved trace, or to test the difftest itself).
"""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from configs import SocConfig, load_soc
from harness.disasm import disassemble
from harness.elfcheck import check_elf
from harness.errors import CosimError
from sim.difftest import Comparator, DiffResult
from sim.difftest.spike_stream import spike_commits
from sim.outcome import RunOutcome


@dataclass
class DifftestReport:
    result: DiffResult
    rtl: RunOutcome | None  # None when an existing trace was compared
    spike: RunOutcome | None
    trace: Path

    @property
    def ok(self) -> bool:
        return self.result.ok


def _run_rtl(elf: Path, soc: SocConfig, trace: Path, max_cycles: int | None, corrupt_pc: int | None) -> RunOutcome:
    try:
        from sim.rtl_runner import run_rtl
    except ModuleNotFoundError as e:
        if e.name != "sim.rtl_runner":
            raise
        raise CosimError(
            "the RTL runner (sim/rtl_runner.py) is not in this checkout yet; "
            "compare a saved trace with --rtl-trace FILE meanwhile"
        ) from None
    kwargs: dict = {"trace": trace}
    if max_cycles is not None:
        kwargs["max_cycles"] = max_cycles
    if corrupt_pc is not None:
        kwargs["corrupt_pc"] = corrupt_pc
    return run_rtl(elf, soc, **kwargs)


def run_difftest(
    elf: str | os.PathLike,
    soc: SocConfig | str,
    *,
    max_cycles: int | None = None,
    corrupt_pc: int | None = None,
    rtl_trace: str | os.PathLike | None = None,
    keep_trace: str | os.PathLike | None = None,
    context_lines: int = 6,
    spike_timeout_s: float | None = None,
) -> DifftestReport:
    """Python API: run (or take) the RTL trace, stream Spike against it, return the report."""
    soc = load_soc(soc)
    elf = Path(elf)
    check_elf(elf, soc)
    with tempfile.TemporaryDirectory(prefix="difftest-") as tmp:
        rtl_outcome = None
        if rtl_trace is not None:
            trace = Path(rtl_trace)
            if not trace.is_file():
                raise CosimError(f"RTL trace {str(trace)!r} does not exist")
        else:
            trace = Path(keep_trace) if keep_trace else Path(tmp) / "rtl-trace.txt"
            rtl_outcome = _run_rtl(elf, soc, trace, max_cycles, corrupt_pc)
            if not trace.is_file():
                raise CosimError(
                    f"the RTL run wrote no commit trace to {trace} ({rtl_outcome.ending}: {rtl_outcome.message})"
                )
        comparator = Comparator(
            soc.xlen,
            mmio_base=soc.memory_map.mmio_base,
            mmio_size=soc.memory_map.mmio_size,
            disassembler=lambda pc, insn: disassemble(insn, soc.xlen),
            context_lines=context_lines,
        )
        with trace.open(errors="replace") as rtl_lines, spike_commits(elf, soc, timeout_s=spike_timeout_s) as spike:
            result = comparator.run(spike, rtl_lines)
        return DifftestReport(result, rtl_outcome, spike.outcome, trace)


def _cmd(args) -> int:
    report = run_difftest(
        args.elf,
        args.soc,
        max_cycles=args.max_cycles,
        corrupt_pc=args.corrupt_pc,
        rtl_trace=args.rtl_trace,
        keep_trace=args.keep_trace,
        context_lines=args.context,
        spike_timeout_s=args.spike_timeout,
    )
    rtl = report.rtl
    if rtl is not None:
        how = rtl.message or (f"exit code {rtl.exit_code}" if rtl.exit_code is not None else rtl.ending)
        cycles = f", {rtl.cycles_total} cycles" if rtl.cycles_total is not None else ""
        print(f"RTL: {rtl.ending} ({how}){cycles}", file=sys.stderr)
    print(report.result.summary())
    return 0 if report.ok else 1


def _int(text: str) -> int:
    return int(text, 0)


def register(sub) -> None:
    p = sub.add_parser(
        "difftest",
        help="compare the RTL commit trace with Spike's, instruction by instruction",
        description=__doc__,
    )
    p.add_argument("elf", help="the ELF to run (built by cosim cc)")
    p.add_argument("--soc", required=True, help="SoC config name or path")
    p.add_argument("--max-cycles", type=_int, help="RTL cycle limit (default: the config's)")
    p.add_argument(
        "--corrupt-pc", type=_int, metavar="PC", help="fault injection: flip bit 0 of the first result at PC"
    )
    p.add_argument("--rtl-trace", metavar="FILE", help="compare this existing RTL trace instead of running the RTL")
    p.add_argument("--keep-trace", metavar="FILE", help="write the RTL trace here and keep it")
    p.add_argument("--context", type=int, default=6, help="instructions of context before a divergence")
    p.add_argument("--spike-timeout", type=float, default=600.0, help="wall-clock limit for Spike, seconds")
    p.set_defaults(func=_cmd)
