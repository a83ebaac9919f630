"""What the test bench reports about one run: ``result.txt`` parsed, PROFILE events paired into regions.

tb_dpi.cpp writes ``result.txt`` as key/value lines ending with ``end`` (sim/tb/README.md); :func:`parse_report`
reads it into a :class:`TbReport`. The RTL runner (sim/rtl_runner.py) and the plain-loop bench both read it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from sim.outcome import ProfileRegion


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
