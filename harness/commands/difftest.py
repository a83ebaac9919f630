"""``cosim difftest x.elf --soc S``: the RTL's commit trace against Spike's, instruction by instruction.

The RTL runs first with ``+trace=FILE`` (``sim.rtl_runner.run_rtl(trace=...)``);
then Spike runs with its commit log on a FIFO and the two are compared in
lockstep (:mod:`sim.difftest`), so neither log is ever held in memory. Prints
``no divergence (N instructions compared)`` and exits 0, or names the first
divergence (PC, disassembly, register or memory, expected vs actual, context)
and exits 1. ``--stream`` runs both at once with the RTL trace on a FIFO too
(nothing on disk, for long runs). ``--rtl-trace FILE`` compares an existing trace instead of running
the RTL (to re-check a saved trace, or to test the difftest itself).

On a Gemmini SoC the unit's writes are compared too (:mod:`sim.difftest.gemmini`): the RTL
writes its Gemmini trace beside the commit trace (``+gemmini_trace``; ``<trace>.gemmini`` with
``--keep-trace`` / ``--rtl-trace``), the model on Spike its own (``COSIM_GEMMINI_TRACE``), and
the first difference in program order, scalar or Gemmini, is reported.
``--gemmini-corrupt-sp N`` flips a bit of the N-th scratchpad row write in the RTL (fault injection).
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from configs import SocConfig, load_soc
from harness.commands.run import add_waves_file_arguments
from harness.elfcheck import check_elf
from harness.errors import CosimError
from sim.difftest import Comparator, DiffResult, LogFormatError
from sim.difftest.fifo import fifo_producer
from sim.difftest.gemmini import GemminiChecker, GemminiResult, GemminiTraceError
from sim.difftest.spike_stream import spike_commits
from sim.disasm import disassemble
from sim.errors import SimError
from sim.outcome import RunOutcome
from sim.waves import DEFAULT_WINDOW


@dataclass
class DifftestReport:
    result: DiffResult
    rtl: RunOutcome | None  # None when an existing trace was compared
    spike: RunOutcome | None
    trace: Path
    cycle_limit_asked: bool = False  # the user set max_cycles: a run cut there is a clean prefix
    gemmini: GemminiResult | None = None  # Gemmini SoCs: the unit's writes against the model

    @property
    def gemmini_first(self) -> bool:
        """The Gemmini divergence comes before the scalar one in program order (or there is no scalar one)."""
        g = self.gemmini
        if g is None or g.divergence is None:
            return False
        d = self.result.divergence
        return d is None or g.divergence.index is None or g.divergence.index < d.index

    def summary(self) -> str:
        if self.gemmini_first:
            assert self.gemmini is not None
            text = self.gemmini.summary()
            if self.result.divergence is not None:
                text += f"\n(the commit traces diverge later, at instruction {self.result.divergence.index})"
            return text
        text = self.result.summary()
        if self.gemmini is not None and self.result.ok:
            text += "\n" + self.gemmini.summary()
        return text

    @property
    def unfinished(self) -> str | None:
        """Why the RTL run did not finish, when that makes the comparison incomplete:
        a hang (watchdog) or the config's own cycle limit. The comparator stops where
        the RTL trace ends, so "no divergence" alone would hide a hang."""
        rtl = self.rtl
        if rtl is None or rtl.ending != "timeout":
            return None
        if self.cycle_limit_asked and "cycle limit" in (rtl.message or ""):
            return None
        return rtl.message or "the RTL run timed out"

    @property
    def ok(self) -> bool:
        return self.result.ok and self.unfinished is None and (self.gemmini is None or self.gemmini.ok)


def _run_rtl(
    elf: Path,
    soc: SocConfig,
    trace: Path,
    max_cycles: int | None,
    corrupt_pc: int | None,
    gemmini_trace: Path | None = None,
    gemmini_corrupt_sp: int | None = None,
) -> RunOutcome:
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
    plusargs = []
    if gemmini_trace is not None:
        plusargs.append(f"+gemmini_trace={gemmini_trace.resolve()}")
    if gemmini_corrupt_sp is not None:
        plusargs.append(f"+gemmini_corrupt_sp={gemmini_corrupt_sp}")
    if plusargs:
        kwargs["plusargs"] = plusargs
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
    stream: bool = False,
    gemmini_corrupt_sp: int | None = None,
) -> DifftestReport:
    """Python API: run (or take) the RTL trace, stream Spike against it, return the report.

    ``stream=True`` runs the RTL at the same time and reads its trace from a FIFO, so
    no trace is written to disk (for long runs); the RTL is stopped at a divergence.
    """
    soc = load_soc(soc)
    if soc.rtl is not None and rtl_trace is None:  # sim/tb/CONTRACT.md: no commit-trace hook
        raise CosimError(
            f"{soc.name}: its [rtl] core has no commit trace, so difftest cannot run on it (sim/tb/CONTRACT.md); "
            "compare its output with Spike's through `cosim run` and `cosim iss` instead"
        )
    elf = Path(elf)
    check_elf(elf, soc)
    comparator = _comparator(soc, context_lines)
    with tempfile.TemporaryDirectory(prefix="difftest-") as tmp:
        model_trace = Path(tmp) / "gemmini-model.txt" if soc.has_gemmini else None
        if stream and rtl_trace is None and keep_trace is None:
            gm_rtl = Path(tmp) / "gemmini-rtl.txt" if soc.has_gemmini else None
            report = _run_streaming(
                elf, soc, comparator, max_cycles, corrupt_pc, spike_timeout_s, gm_rtl, model_trace, gemmini_corrupt_sp
            )
            report.gemmini = _gemmini(soc, report.result, comparator, model_trace, gm_rtl, report.rtl)
            return report
        rtl_outcome = None
        if rtl_trace is not None:
            trace = Path(rtl_trace)
            if not trace.is_file():
                raise CosimError(f"RTL trace {str(trace)!r} does not exist")
            gm_rtl = _gemmini_sibling(trace) if soc.has_gemmini else None
            if gm_rtl is not None and not gm_rtl.is_file():
                gm_rtl = None  # a trace saved without it: the scalar comparison only
        else:
            trace = Path(keep_trace) if keep_trace else Path(tmp) / "rtl-trace.txt"
            gm_rtl = _gemmini_sibling(trace) if soc.has_gemmini else None
            rtl_outcome = _run_rtl(elf, soc, trace, max_cycles, corrupt_pc, gm_rtl, gemmini_corrupt_sp)
            if not trace.is_file():
                raise CosimError(
                    f"the RTL run wrote no commit trace to {trace} ({rtl_outcome.ending}: {rtl_outcome.message})"
                )
        with (
            trace.open(errors="replace") as rtl_lines,
            spike_commits(elf, soc, timeout_s=spike_timeout_s, gemmini_trace=model_trace) as spike,
        ):
            try:
                result = comparator.run(spike, rtl_lines)
            except LogFormatError as e:
                raise CosimError(f"malformed commit trace or log ({trace} / Spike): {e}") from None
        report = DifftestReport(result, rtl_outcome, spike.outcome, trace, max_cycles is not None)
        report.gemmini = _gemmini(soc, result, comparator, model_trace, gm_rtl, rtl_outcome)
        return report


def _gemmini_sibling(trace: Path) -> Path:
    """Where the RTL's Gemmini trace goes beside a commit trace."""
    return trace.with_name(trace.name + ".gemmini")


def _gemmini(
    soc: SocConfig,
    result: DiffResult,
    comparator: Comparator,
    model_trace: Path | None,
    rtl_trace: Path | None,
    rtl: RunOutcome | None = None,
) -> GemminiResult | None:
    """The Gemmini comparison (after the scalar one: both traces are complete by then)."""
    if model_trace is None or rtl_trace is None:
        return None
    if not rtl_trace.is_file():
        raise CosimError(f"the RTL run wrote no Gemmini trace to {rtl_trace}")
    limit = result.divergence.index if result.divergence is not None else None
    cut = rtl is not None and rtl.ending not in ("exit", "trap")  # a saved trace (--rtl-trace) is taken as whole
    dim = soc.accelerator.dim  # type: ignore[union-attr]
    checker = GemminiChecker(dim, comparator.gemmini_commits, limit=limit, rtl_cut=cut)
    model_path = model_trace if model_trace.is_file() else None
    try:
        with rtl_trace.open() as rtl_lines:
            if model_path is None:
                return checker.run([], rtl_lines)
            with model_path.open() as model_lines:
                return checker.run(model_lines, rtl_lines)
    except GemminiTraceError as e:
        if result.divergence is not None:
            return None  # --stream stops the RTL at a divergence, mid-line maybe: the scalar one stands
        raise CosimError(f"malformed Gemmini trace: {e}") from None


def _comparator(soc: SocConfig, context_lines: int) -> Comparator:
    return Comparator(
        soc.xlen,
        mmio_base=soc.memory_map.mmio_base,
        mmio_size=soc.memory_map.mmio_size,
        disassembler=lambda pc, insn: disassemble(insn, soc.xlen),
        context_lines=context_lines,
    )


def _run_streaming(
    elf: Path,
    soc: SocConfig,
    comparator: Comparator,
    max_cycles: int | None,
    corrupt_pc: int | None,
    spike_timeout_s: float | None,
    gemmini_trace: Path | None = None,
    model_trace: Path | None = None,
    gemmini_corrupt_sp: int | None = None,
) -> DifftestReport:
    def produce(fifo: Path) -> RunOutcome:
        return _run_rtl(elf, soc, fifo, max_cycles, corrupt_pc, gemmini_trace, gemmini_corrupt_sp)

    with (
        fifo_producer(produce, name="rtl-trace") as rtl,
        spike_commits(elf, soc, timeout_s=spike_timeout_s, gemmini_trace=model_trace) as spike,
    ):
        try:
            result = comparator.run(spike, rtl)
        except LogFormatError as e:
            raise CosimError(f"malformed commit trace or log (RTL stream / Spike): {e}") from None
        if rtl.running:
            # The simulator embeds Python, which ignores SIGPIPE: it would run on to its
            # cycle limit writing into a closed FIFO. Stop the one we started.
            _stop_simulator(rtl.path)
    if rtl.error is not None and (result.ok or not isinstance(rtl.error, SimError)):
        # A simulator we stopped at a divergence may fail; one that failed on its own is an error.
        raise rtl.error
    return DifftestReport(result, rtl.result, spike.outcome, Path("<fifo>"), max_cycles is not None)


def _stop_simulator(trace_fifo: Path) -> None:
    """Terminate our own simulator process: a descendant of this process whose
    command line carries ``+trace=<our FIFO>``."""
    marker = f"+trace={trace_fifo.resolve()}".encode()
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if marker not in (entry / "cmdline").read_bytes().split(b"\0"):
                continue
            if not _descends_from(int(entry.name), me):
                continue
            os.kill(int(entry.name), signal.SIGTERM)
        except (OSError, ValueError):
            continue  # gone meanwhile, or not ours to read


def _descends_from(pid: int, ancestor: int) -> bool:
    while pid > 1:
        if pid == ancestor:
            return True
        stat = Path(f"/proc/{pid}/stat").read_text()
        pid = int(stat.rsplit(")", 1)[1].split()[1])  # field 4: ppid (after the "(comm)")
    return False


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
        stream=args.stream,
        gemmini_corrupt_sp=args.gemmini_corrupt_sp,
    )
    rtl = report.rtl
    if rtl is not None:
        how = rtl.message or (f"exit code {rtl.exit_code}" if rtl.exit_code is not None else rtl.ending)
        cycles = f", {rtl.cycles_total} cycles" if rtl.cycles_total is not None else ""
        print(f"RTL: {rtl.ending} ({how}){cycles}", file=sys.stderr)
    print(report.summary())
    if report.unfinished:
        print(f"the RTL run did not finish, so the comparison is incomplete: {report.unfinished}")
    if args.waves:
        _waves(args, report)
    return 0 if report.ok else 1


def _waves(args, report: DifftestReport) -> None:
    """--waves: a bounded dump of the cycles up to the first (scalar) divergence (harness/failure_waves.py)."""
    from harness.failure_waves import divergence_waves

    div = report.result.divergence
    if div is None or report.rtl is None or not report.rtl.cycles_total:
        why = "no divergence" if div is None else "no RTL run here (--rtl-trace)"
        print(f"cosim difftest: no waves: {why}", file=sys.stderr)
        return
    elf = Path(args.elf)
    plusargs = [f"+gemmini_corrupt_sp={args.gemmini_corrupt_sp}"] if args.gemmini_corrupt_sp is not None else []
    cycle, waves = divergence_waves(
        elf,
        args.soc,
        div.index,
        report.rtl.cycles_total,
        Path(args.waves_file or elf.with_suffix(".fst")),
        window=args.waves_window,
        cap_bytes=int(args.waves_cap * 2**20),
        corrupt_pc=args.corrupt_pc,
        max_cycles=args.max_cycles,
        plusargs=plusargs,
    )
    if cycle is None:
        print(f"cosim difftest: no waves: the rerun never retired instruction {div.index}", file=sys.stderr)
    elif waves is None:
        print(f"cosim difftest: no waves: the window was over the {args.waves_cap:g} MiB cap", file=sys.stderr)
    else:
        print(
            f"cosim difftest: waves of cycles {waves.start}..{waves.stop} (instruction {div.index} retired in "
            f"cycle {cycle}) in {waves.path} ({waves.format.upper()}, {waves.bytes / 2**20:.1f} MiB)",
            file=sys.stderr,
        )


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
    p.add_argument(
        "--gemmini-corrupt-sp",
        type=_int,
        metavar="N",
        help="fault injection (Gemmini SoCs): flip bit 0 of the N-th scratchpad row write (from 1) in the RTL",
    )
    p.add_argument("--rtl-trace", metavar="FILE", help="compare this existing RTL trace instead of running the RTL")
    p.add_argument("--keep-trace", metavar="FILE", help="write the RTL trace here and keep it")
    p.add_argument(
        "--stream",
        action="store_true",
        help="run RTL and Spike together, the RTL trace through a FIFO (no trace file; for long runs)",
    )
    p.add_argument("--context", type=int, default=6, help="instructions of context before a divergence")
    p.add_argument(
        "--waves",
        action="store_true",
        help="at a divergence, rerun the RTL with waves of the cycles up to it (FST, or VCD without liblz4-dev)",
    )
    p.add_argument("--waves-window", type=int, default=DEFAULT_WINDOW, metavar="N", help="cycles of waves")
    add_waves_file_arguments(p)
    p.add_argument("--spike-timeout", type=float, default=600.0, help="wall-clock limit for Spike, seconds")
    p.set_defaults(func=_cmd)
