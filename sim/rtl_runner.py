"""Run an ELF on the RTL SoC (Verilator under cocotb) and describe how it ended.

The simulation runs entirely in the HDL and DPI C++ (clock, memories, MMIO page,
trace, endings); the cocotb test only waits for ``done``. The test bench writes
``result.txt`` (key/value lines, ending with ``end``), ``uart.txt`` and one
``dump_<addr>.bin`` per requested region into the run directory; this module
turns them into a :class:`sim.outcome.RunOutcome` with target ``rtl``.

On a Gemmini SoC a refused instruction traps as on Spike: the test bench reports
the refused instruction with its PC, source registers and the unit's
``illegal_reason_o`` code, and the Gemmini instructions the unit accepted before
it; :func:`gemmini_refusal` replays those through the functional model
(``sim/gemmini/model.py``, memory reads as zeros) to get the model's own
wording of the refused field, and checks it against the RTL's code.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from configs import SocConfig, load_soc
from sim import waves as waves_mod
from sim.errors import SimError
from sim.outcome import TRAP_NAMES, ProfileRegion, RunOutcome, Trap
from sim.verilator_build import TOPLEVEL, Build, build, check_plusarg_path, runner_class

COCOTB_MODULE = "sim.tb.cocotb_run"
# The simulator's environment. cocotb_run.py has no assert to rewrite: without
# pytest's assertion-rewriting hook (whose set-up loads every installed pytest
# plugin) a run starts in ~0.4 CPU-s instead of ~1.3.
SIM_ENV = {"COCOTB_LOG_LEVEL": "WARNING", "COCOTB_REWRITE_ASSERTION_FILES": ""}


@dataclass
class TbReport:
    """What tb_dpi.cpp wrote into result.txt."""

    ending: str = "error"
    message: str = ""
    cycle: int = 0
    pc: int = 0
    instret: int = 0
    exit_code: int | None = None
    trap_mmio: tuple[int, int, int] | None = None
    trap_loop: tuple[int, int, int] | None = None
    profile: list[tuple[int, int]] = field(default_factory=list)  # (value, cycle)
    counters: dict[str, int] = field(default_factory=dict)
    # performance counters sampled at each PROFILE store: event index -> name -> value
    profile_counters: dict[int, dict[str, int]] = field(default_factory=dict)
    failure: str = ""  # why the test bench stopped the run (width assertions)
    cop_inflight: int | None = None  # coprocessor instructions in flight when a hang ended the run
    # Gemmini: refused instructions (pc, word, rs1, rs2, illegal_reason_o, accepted before it) and the
    # accepted ones before the last refusal (pc, word, rs1, rs2); gemmini_issues_kept when that was cut short
    gemmini_refused: list[tuple[int, int, int, int, int, int]] = field(default_factory=list)
    gemmini_issues: list[tuple[int, int, int, int]] = field(default_factory=list)
    gemmini_issues_kept: int | None = None
    dumps: dict[int, Path] = field(default_factory=dict)
    complete: bool = False


def parse_report(path: Path) -> TbReport:
    rep = TbReport()
    for line in path.read_text(errors="replace").splitlines():
        key, _, rest = line.partition(" ")
        parts = rest.split()
        if key == "ending":
            rep.ending = rest.strip()
        elif key == "message":
            rep.message = rest
        elif key == "failure":
            rep.failure = rest
        elif key in ("cycle", "instret"):
            setattr(rep, key, int(rest))
        elif key == "pc":
            rep.pc = int(rest, 16)
        elif key == "exit_code":
            rep.exit_code = int(rest)
        elif key in ("trap_mmio", "trap_loop"):
            setattr(rep, key, (int(parts[0]), int(parts[1], 16), int(parts[2], 16)))
        elif key == "profile":
            rep.profile.append((int(parts[0]), int(parts[1])))
        elif key == "counter":
            rep.counters[parts[0]] = int(parts[1])
        elif key == "profile_counter":
            rep.profile_counters.setdefault(int(parts[0]), {})[parts[1]] = int(parts[2])
        elif key == "cop_inflight":
            rep.cop_inflight = int(rest)
        elif key == "gemmini_refused":
            pc, word, rs1, rs2 = (int(x, 16) for x in parts[:4])
            rep.gemmini_refused.append((pc, word, rs1, rs2, int(parts[4]), int(parts[5])))
        elif key == "gemmini_issue":
            pc, word, rs1, rs2 = (int(x, 16) for x in parts[:4])
            rep.gemmini_issues.append((pc, word, rs1, rs2))
        elif key == "gemmini_issues_kept":
            rep.gemmini_issues_kept = int(rest)
        elif key == "dump":
            rep.dumps[int(parts[0], 16)] = Path(parts[2])
        elif key == "end":
            rep.complete = True
    return rep


def pair_profile(events: Iterable[tuple[int, int]]) -> list[ProfileRegion]:
    """PROFILE writes (bit 0 start/stop, bits 31..1 region) -> regions in cycles."""
    regions: list[ProfileRegion] = []
    open_: dict[int, ProfileRegion] = {}
    for value, cycle in events:
        region = value >> 1
        if value & 1:
            r = ProfileRegion(region=region, start=cycle, stop=None)
            open_[region] = r
            regions.append(r)
        elif region in open_:
            open_.pop(region).stop = cycle
    return regions


def region_counters(events: list[tuple[int, int]], samples: dict[int, dict[str, int]]) -> dict[int, dict[str, int]]:
    """Counter deltas over the first closed instance of each PROFILE region.

    ``samples[k]`` holds the counters when PROFILE event ``k`` was stored (events of
    cycles up to its stamp), so a delta covers exactly the region's cycles. A region
    whose start or stop has no sample is left out.
    """
    out: dict[int, dict[str, int]] = {}
    open_: dict[int, int] = {}
    for k, (value, _cycle) in enumerate(events):
        region = value >> 1
        if value & 1:
            open_[region] = k
        elif region in open_:
            start = open_.pop(region)
            if region in out or start not in samples or k not in samples:
                continue
            a, b = samples[start], samples[k]
            out[region] = {name: b[name] - a.get(name, 0) for name in b}
    return out


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


def _dump_arg(dumps: Iterable) -> list[tuple[int, int]]:
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
    dump_list = _dump_arg(dumps)
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
        _simulate(b, args, tmp, waves=False)
        wall = time.perf_counter() - t0
        report_path = tmp / "result.txt"
        if not report_path.exists():
            raise SimError(f"the simulation wrote no result; its log:\n{_log_tail(tmp)}")
        rep = parse_report(report_path)
        uart = (tmp / "uart.txt").read_text(errors="replace") if (tmp / "uart.txt").exists() else ""
        if rep.ending == "error":
            raise SimError(rep.message or f"the simulation failed; its log:\n{_log_tail(tmp)}")
        if not rep.complete:
            raise SimError(f"the simulation's result file is incomplete; its log:\n{_log_tail(tmp)}")
        if waves is not None:
            waves_mod.collect(tmp, Path(waves))
        outcome = _outcome(rep, elf, soc, uart, wall, b, watchdog)
        outcome.dumps = {addr: path.read_bytes() for addr, path in rep.dumps.items()}
        return outcome


def _simulate(b: Build, plusargs: list[str], tmp: Path, waves: bool) -> None:
    runner = runner_class()()
    log = tmp / "sim.log"
    try:
        runner.test(
            test_module=COCOTB_MODULE,
            hdl_toplevel=TOPLEVEL,
            hdl_toplevel_lang="verilog",
            build_dir=b.directory,
            test_dir=tmp,
            plusargs=plusargs,
            results_xml=str(tmp / "results.xml"),
            log_file=log,
            waves=waves,
            timescale=None,
            extra_env={**SIM_ENV, "LD_LIBRARY_PATH": cocotb_library_path()},
        )
    except (SystemExit, RuntimeError) as e:
        if not (tmp / "result.txt").exists():
            what = _failed_assertion(tmp) or f"the simulator failed ({e})"
            raise SimError(f"{what}; its log:\n{_log_tail(tmp)}") from None


def cocotb_library_path() -> str:
    """This environment's cocotb libraries first: a cached build's RUNPATH names the
    virtualenv that built it, which may since have been deleted (the cache is shared
    by every checkout; cocotb's version is part of the build key, so the libraries match)."""
    import cocotb_tools.config

    rest = os.environ.get("LD_LIBRARY_PATH")
    return os.pathsep.join([str(cocotb_tools.config.libs_dir), *([rest] if rest else [])])


def _failed_assertion(tmp: Path) -> str | None:
    """The first RTL assertion that stopped the simulation (sim/rtl/core/README.md "Assertions")."""
    log = tmp / "sim.log"
    text = log.read_text(errors="replace") if log.exists() else ""
    found = re.search(r"\[(\d+)\] %Error: (\S+): Assertion failed in (\S+): (.*)", text)
    if found is None:
        return None
    stamp, where, name, message = found.groups()
    return f"RTL assertion {name} failed at simulation time {stamp} ({where}): {message}"


def _log_tail(tmp: Path, lines: int = 25) -> str:
    log = tmp / "sim.log"
    if not log.exists():
        return "(no log)"
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


def _outcome(rep: TbReport, elf: Path, soc: SocConfig, uart: str, wall: float, b: Build, watchdog: int) -> RunOutcome:
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


# gemmini_unit_pkg::gm_illegal_e by name: (what the RTL says it refused, a pattern the functional model's reason
# for the same instruction must match: the two name the same check, or the trap detail says they do not).
GEMMINI_ILLEGAL: dict[str, tuple[str, str]] = {
    "IllFunct": ("unknown funct (or a funct3 the funct does not take)", r"unknown funct"),
    "IllLoopConv": ("loop_conv_ws: this config has no loop_conv_ws unit (loop_conv = false)", r"no loop_conv_ws unit"),
    "IllLdId": ("config_ld: mvin id (rs1[4:3]) = 3", r"mvin id"),
    "IllCfgNorm": ("config_norm (rs1[1:0] = 3): no normalization unit", r"config_norm"),
    "IllStAct": ("config_st: activation (rs1[3:2]) > 1 needs a normalization unit", r"config_st: activation"),
    "IllExDataflow": ("config_ex: dataflow (rs1[2]) not in this config", r"config_ex: dataflow"),
    "IllExAct": ("config_ex: activation (rs1[4:3]) > 1 needs a normalization unit", r"config_ex: activation"),
    "IllExTranspose": ("config_ex: the transposes need two transposers", r"transposer"),
    "IllNormCmd": ("local address with a norm command (bits 28..26)", r"norm command"),
    "IllAccRange": ("accumulator rows outside the accumulator", r"accumulator rows .* outside"),
    "IllSpRange": ("scratchpad rows outside the scratchpad", r"scratchpad rows .* outside"),
    "IllRows": ("rows exceed DIM", r"rows = \d+ exceeds DIM"),
    "IllCols": ("cols exceed DIM", r"cols = \d+ exceeds DIM"),
    "IllBlocks": ("cols in more blocks than MAX_BLOCK_LEN(_ACC) allows", r"cols = \d+ is \d+ blocks"),
    "IllPixelRepeat": ("pixel repeats > 1 on a mvin to the accumulator", r"pixel repeats"),
    "IllPoolFull": ("pooled mvout with the full-width accumulator bit (29)", r"full-width accumulator read"),
    "IllPoolDims": ("pooled mvout without a pool size or output dims", r"needs a pool size"),
    "IllOsStride": ("OS result rows below the C address (C stride)", r"below the C address"),
    "IllDmaRange": ("DMA bytes outside the memory map", r"leaves the memory map"),
    "IllLoopBounds": ("loop_ws: pad_I/J/K not below DIM", r"loop_ws: pad_"),
    "IllLoopAct": ("loop_ws: activation (rs1[10:8]) > 1", r"loop_ws: activation"),
    "IllLoopResidual": ("loop_ws: residual add (rs2[2])", r"loop_ws: residual"),
    "IllLoopTranspose": ("loop_ws: A and B transpose together", r"loop_ws: A transpose and B transpose"),
    "IllLoopSp": ("loop_ws: A and B tiles need more than half the scratchpad minus DIM", r"loop_ws: .*scratchpad"),
    "IllLoopAcc": ("loop_ws: C tiles need more than half the accumulator", r"loop_ws: .*accumulator"),
    "IllLoopCmd": ("loop_ws: one of the commands it generates is illegal", r"."),
}
UNIT_PKG = Path(__file__).resolve().parent / "rtl" / "gemmini" / "gemmini_unit_pkg.sv"


def gemmini_illegal_names() -> dict[int, str]:
    """gm_illegal_e's codes -> names, read from gemmini_unit_pkg.sv (the unit's owner may renumber them)."""
    text = UNIT_PKG.read_text() if UNIT_PKG.is_file() else ""
    body = re.search(r"enum\s+logic\s*\[[^]]*\]\s*\{(.*?)\}\s*gm_illegal_e", text, re.S)
    return {int(v): n for n, v in re.findall(r"(\w+)\s*=\s*\d+'d(\d+)", body.group(1))} if body else {}


@dataclass
class GemminiRefusal:
    """Why the Gemmini RTL refused an instruction, in the functional model's words where it has them."""

    pc: int
    word: int
    rs1: int
    rs2: int
    code: int
    disassembly: str
    detail: str


class _NullMemory:
    """Main memory for the replay: reads are zeros (legality never depends on data), writes go nowhere; a range
    outside the memory map fails as Spike's MMU makes it fail (sim/gemmini/spike_bridge.SpikeMemory)."""

    def __init__(self, soc: SocConfig):
        self._regions = list(soc.memory_map.regions().values())

    def _inside(self, addr: int, size: int) -> bool:
        return any(b <= addr and addr + size <= b + s for b, s in self._regions)

    def read(self, addr: int, size: int) -> bytes:
        from sim.gemmini.model import GemminiIllegal

        if size and not self._inside(addr, size):
            raise GemminiIllegal(f"DMA read of {size} bytes at 0x{addr:x} leaves the memory map")
        return bytes(size)

    def write(self, addr: int, data: bytes) -> None:
        from sim.gemmini.model import GemminiIllegal

        if data and not self._inside(addr, len(data)):
            raise GemminiIllegal(f"DMA write of {len(data)} bytes at 0x{addr:x} leaves the memory map")


def gemmini_refusal(rep: TbReport, soc: SocConfig, pc: int) -> GemminiRefusal | None:
    """The last refusal at ``pc``, its disassembly with fields and its reason (the detail Spike gives).

    The accepted instructions before it are replayed through the functional model, then the refused one: the
    model's GemminiIllegal text (without its ``gemmini <insn>:`` prefix, as Spike's bridge strips it) is the
    detail, provided it names the same check as the RTL's illegal_reason_o. Otherwise (the model accepts it,
    refuses an earlier one, or the history was cut short) the detail is the RTL code's text, saying so."""
    import numpy as np

    from sim.gemmini.disasm import disasm_gemmini
    from sim.gemmini.isa import funct_of
    from sim.gemmini.model import GemminiIllegal, GemminiModel
    from sim.gemmini.params import gemmini_params

    hits = [r for r in rep.gemmini_refused if r[0] == pc]
    if not hits:
        return None
    rpc, word, rs1, rs2, code, accepted = hits[-1]
    name = gemmini_illegal_names().get(code, f"code {code}")
    rtl_text, pattern = GEMMINI_ILLEGAL.get(name, (f"illegal_reason_o = {name}", r"$^"))
    found = GemminiRefusal(rpc, word, rs1, rs2, code, disasm_gemmini(word, rs1, rs2), rtl_text)
    if rep.gemmini_issues_kept is not None and rep.gemmini_issues_kept < accepted:
        found.detail += f" (RTL reason {name}; the model's replay needs the {accepted} instructions before it)"
        return found
    model = GemminiModel(gemmini_params(soc), _NullMemory(soc))
    with np.errstate(all="ignore"):
        for k, (ipc, iword, irs1, irs2) in enumerate(rep.gemmini_issues[:accepted]):
            try:
                model.execute(funct_of(iword), irs1, irs2)
            except GemminiIllegal as e:
                found.detail += (
                    f" (RTL reason {name}; the functional model already refuses accepted instruction {k} "
                    f"at pc 0x{ipc:x}: {e})"
                )
                return found
        try:
            model.execute(funct_of(word), rs1, rs2)
        except GemminiIllegal as e:
            reason = re.sub(r"^gemmini( [a-z0-9_]+)?: ", "", str(e))
            if re.search(pattern, str(e)):
                found.detail = reason
            else:
                found.detail = f"{reason} [the RTL refused it for another reason: {rtl_text} ({name})]"
            return found
    found.detail += f" (RTL reason {name}; the functional model accepts this instruction)"
    return found


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
