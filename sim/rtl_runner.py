"""Run an ELF on the RTL SoC (Verilator under cocotb) and describe how it ended.

The simulation runs entirely in the HDL and DPI C++ (clock, memories, MMIO page,
trace, endings); the cocotb test only waits for ``done``. The test bench writes
``result.txt`` (key/value lines, ending with ``end``), ``uart.txt`` and one
``dump_<addr>.bin`` per requested region into the run directory; this module
turns them into a :class:`sim.outcome.RunOutcome` with target ``rtl``.

On a Gemmini SoC a refused instruction traps as on Spike, with the functional model's reason
(sim/gemmini_refusal.py).
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

from configs import SocConfig, load_soc
from sim import waves as waves_mod
from sim.errors import SimError
from sim.gemmini_refusal import gemmini_refusal
from sim.outcome import TRAP_NAMES, RunOutcome, Trap
from sim.tb_plusargs import dump_regions, tb_plusargs
from sim.tb_report import TbReport, pair_profile, parse_report, region_counters
from sim.verilator_build import TOPLEVEL, Build, build, runner_class

COCOTB_MODULE = "sim.tb.cocotb_run"
# The simulator's environment. cocotb_run.py has no assert to rewrite: without
# pytest's assertion-rewriting hook (whose set-up loads every installed pytest
# plugin) a run starts in ~0.4 CPU-s instead of ~1.3.
SIM_ENV = {"COCOTB_LOG_LEVEL": "WARNING", "COCOTB_REWRITE_ASSERTION_FILES": ""}


def instruction_at(elf: Path, pc: int) -> int | None:
    """The 32-bit word at ``pc`` in the ELF's loadable segments, if any."""
    from elftools.elf.elffile import ELFFile

    with open(elf, "rb") as f:
        ef = ELFFile(f)
        for seg in ef.iter_segments():
            if seg["p_type"] != "PT_LOAD":
                continue
            base, size = seg["p_paddr"], seg["p_filesz"]
            if base <= pc and pc + 4 <= base + size:
                data = seg.data()[pc - base : pc - base + 4]
                return int.from_bytes(data, "little")
    return None


def run_rtl(
    elf: str | os.PathLike,
    soc: SocConfig | str,
    *,
    max_cycles: int | None = None,
    watchdog_cycles: int | None = None,
    trace: str | os.PathLike | None = None,
    corrupt_pc: int | None = None,
    dumps: Iterable = (),
    waves: str | os.PathLike | None = None,
    waves_from: int = 0,
    waves_to: int | None = None,
    workdir: str | os.PathLike | None = None,
    plusargs: Iterable[str] = (),
) -> RunOutcome:
    """Run ``elf`` on the RTL of ``soc`` until EXIT, a trap, ``max_cycles`` or the watchdog.

    ``trace``: write the commit trace (sim/tb/commit_trace.md) to this path.
    ``corrupt_pc``: flip bit 0 of the first register write retired at this PC.
    ``dumps``: ``(addr, size)`` pairs (or objects with ``.addr``/``.size``) read
    from the backing store after the run, returned in ``RunOutcome.dumps``.
    ``waves``: write an FST (VCD without liblz4) of cycles ``waves_from`` .. ``waves_to``
    (default: 20 000 cycles) to this path; the run ends at ``waves_to`` (sim/waves.py).
    ``plusargs``: more test-bench plusargs (sim/tb/README.md), e.g.
    ``+perf_max_fma=1`` to lower a width assertion's bound.
    """
    soc = load_soc(soc)
    elf = Path(elf).resolve()
    if not elf.is_file():
        raise SimError(f"ELF file {str(elf)!r} does not exist")
    dump_list = dump_regions(dumps)
    max_cycles = int(max_cycles or soc.sim.max_cycles)
    watchdog = int(watchdog_cycles or soc.sim.watchdog_cycles)
    b = build(soc, waves=waves is not None)
    with tempfile.TemporaryDirectory(dir=workdir, prefix="rtl-") as tmp_name:
        tmp = Path(tmp_name)
        trace_path = Path(trace).resolve() if trace is not None else None
        window: list[str] = []
        if waves is not None:  # a bounded window, opened by tb_waves.sv; never the whole run
            max_cycles, window = waves_mod.window_plusargs(
                tmp, *waves_mod.check_window(waves_from, waves_to), max_cycles
            )
        args = tb_plusargs(soc, elf, tmp, trace_path, max_cycles, watchdog, corrupt_pc, dump_list, [*plusargs, *window])
        t0 = time.perf_counter()
        simulate(b, args, tmp)
        wall = time.perf_counter() - t0
        report_path = tmp / "result.txt"
        if not report_path.exists():
            raise SimError(f"the simulation wrote no result; its log:\n{log_tail(tmp)}")
        rep = parse_report(report_path)
        uart = (tmp / "uart.txt").read_text(errors="replace") if (tmp / "uart.txt").exists() else ""
        if rep.ending == "error":
            raise SimError(rep.message or f"the simulation failed; its log:\n{log_tail(tmp)}")
        if not rep.complete:
            raise SimError(f"the simulation's result file is incomplete; its log:\n{log_tail(tmp)}")
        if waves is not None:
            waves_mod.collect(tmp, Path(waves))
        outcome = outcome_of(rep, elf, soc, uart, wall, b, watchdog)
        outcome.dumps = {addr: path.read_bytes() for addr, path in rep.dumps.items()}
        return outcome


def simulate(
    b: Build,
    plusargs: list[str],
    tmp: Path,
    *,
    waves: bool = False,
    test_module: str = COCOTB_MODULE,
    env: dict[str, str] | None = None,
) -> None:
    """One run of the built test bench in ``tmp`` (its log ``tmp/sim.log``) under the cocotb module
    ``test_module`` (default sim/tb/cocotb_run.py, which waits for ``done``), with ``env`` added to
    the simulator's environment. A run that wrote no result.txt is a SimError naming the RTL
    assertion that stopped it, or quoting the log."""
    runner = runner_class()()
    log = tmp / "sim.log"
    try:
        runner.test(
            test_module=test_module,
            hdl_toplevel=TOPLEVEL,
            hdl_toplevel_lang="verilog",
            build_dir=b.directory,
            test_dir=tmp,
            plusargs=plusargs,
            results_xml=str(tmp / "results.xml"),
            log_file=log,
            waves=waves,
            timescale=None,
            extra_env={**SIM_ENV, "LD_LIBRARY_PATH": cocotb_library_path(), **(env or {})},
        )
    except (SystemExit, RuntimeError) as e:
        if not (tmp / "result.txt").exists():
            what = failed_assertion(tmp) or f"the simulator failed ({e})"
            raise SimError(f"{what}; its log:\n{log_tail(tmp)}") from None


def cocotb_library_path() -> str:
    """This environment's cocotb libraries first: a cached build's RUNPATH names the
    virtualenv that built it, which may since have been deleted (the cache is shared
    by every checkout; cocotb's version is part of the build key, so the libraries match)."""
    import cocotb_tools.config

    rest = os.environ.get("LD_LIBRARY_PATH")
    return os.pathsep.join([str(cocotb_tools.config.libs_dir), *([rest] if rest else [])])


def failed_assertion(tmp: Path) -> str | None:
    """The first RTL assertion that stopped the simulation (sim/rtl/core/README.md "Assertions")."""
    log = tmp / "sim.log"
    text = log.read_text(errors="replace") if log.exists() else ""
    found = re.search(r"\[(\d+)\] %Error: (\S+): Assertion failed in (\S+): (.*)", text)
    if found is None:
        return None
    stamp, where, name, message = found.groups()
    return f"RTL assertion {name} failed at simulation time {stamp} ({where}): {message}"


def log_tail(tmp: Path, lines: int = 25) -> str:
    """The last ``lines`` lines of the run's simulator log (error messages quote it)."""
    log = tmp / "sim.log"
    if not log.exists():
        return "(no log)"
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


def outcome_of(rep: TbReport, elf: Path, soc: SocConfig, uart: str, wall: float, b: Build, watchdog: int) -> RunOutcome:
    """The run's RunOutcome from the test bench's report: its ending, message, trap, counters and regions."""
    out = RunOutcome(target="rtl", ending="exit", uart=uart, wall_s=wall, rtl_hash=b.rtl_hash)
    out.cycles_total = rep.cycle
    out.instret = rep.instret
    out.profile = pair_profile(rep.profile)
    out.counters = dict(rep.counters)
    out.counters["cycles"] = rep.cycle
    out.region_counters = region_counters(rep.profile, rep.profile_counters)
    out.sim_cycles_per_s = rep.cycle / wall if wall > 0 else None
    out.tool_versions = {"verilator": metadata.version("verilator"), "cocotb": metadata.version("cocotb")}
    where = f"pc 0x{rep.pc:0{soc.xlen // 4}x}, cycle {rep.cycle}"
    if rep.ending == "exit":
        out.exit_code = rep.exit_code
        if rep.trap_mmio is not None:
            out.ending = "trap"
            out.trap = _trap(*rep.trap_mmio, elf)
            out.message = f"trap: {out.trap.description} at pc 0x{out.trap.pc:x} (reported by the trap handler)"
    elif rep.ending == "trap_loop":
        out.ending = "trap"
        out.trap = _trap(*rep.trap_loop, elf)
        out.message = (
            f"trap: {out.trap.description} at pc 0x{out.trap.pc:x}, and the trap vector faulted too "
            f"(no handler installed?); stopped at {where}"
        )
    elif rep.ending == "max_cycles":
        out.ending = "timeout"
        out.message = (
            f"timeout: cycle limit reached at {where}{_inflight(rep, soc)}; "
            "raise --max-cycles if the program needs longer"
        )
    elif rep.ending == "watchdog":
        out.ending = "timeout"
        out.message = (
            f"timeout: watchdog, no instruction retired and no accelerator progress for {watchdog} cycles, at {where}"
            + _inflight(rep, soc)
        )
    elif rep.ending == "assertion":
        out.ending = "error"
        out.message = f"{rep.failure or 'test-bench assertion failed'} ({where})"
    else:
        out.ending = "error"
        out.message = f"unknown ending {rep.ending!r} at {where}"
    if out.trap is not None and out.trap.cause == 2 and rep.gemmini_refused:
        _gemmini_trap(out, rep, soc)
    return out


def _inflight(rep: TbReport, soc: SocConfig) -> str:
    """A hang report's note on the accelerator: how many instructions it accepted and has not completed."""
    if not rep.cop_inflight:
        return ""
    unit = {"gemmini": "Gemmini", "vector": "vector"}.get(soc.accelerator.kind, "coprocessor")
    return f"; {rep.cop_inflight} {unit} instruction(s) accepted and not completed"


def _gemmini_trap(out: RunOutcome, rep: TbReport, soc: SocConfig) -> None:
    """An illegal-instruction trap at a refused Gemmini instruction: Spike's disassembly, detail and message."""
    assert out.trap is not None
    found = gemmini_refusal(rep, soc, out.trap.pc)
    if found is None:
        return
    out.trap.disassembly, out.trap.detail = found.disassembly, found.detail
    out.message = f"trap: illegal Gemmini instruction at pc 0x{found.pc:x}: {found.disassembly}: {found.detail}"


def _trap(cause: int, epc: int, tval: int, elf: Path) -> Trap:
    code = cause & 0xFF
    return Trap(
        cause=cause,
        pc=epc,
        tval=tval,
        instruction=instruction_at(elf, epc),
        description=TRAP_NAMES.get(code, f"cause {cause}"),
    )
