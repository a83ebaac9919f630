"""What one simulated run produced, independent of the simulator (RTL or Spike).

The harness turns a :class:`RunOutcome` into ``result.json``; runners only fill it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

# How a run ended, before outputs are compared. The harness maps these onto the
# result statuses pass|mismatch|trap|timeout|error.
Ending = Literal["exit", "trap", "timeout", "error"]

# Values written to EXIT that mean success (t1's convention).
PASS_EXIT_CODES = (0, 0xDEADBEEF)

# mcause values a machine-mode-only core can raise (RISC-V privileged spec, table 3.6).
TRAP_NAMES = {
    0: "instruction address misaligned",
    1: "instruction access fault",
    2: "illegal instruction",
    3: "breakpoint",
    4: "load address misaligned",
    5: "load access fault",
    6: "store address misaligned",
    7: "store access fault",
    11: "environment call from M-mode",
}


@dataclass
class ProfileRegion:
    """One PROFILE start/stop pair: region id, stamps and their difference.

    Stamps are cycles on RTL and retired instructions on Spike (which has no cycles).
    """

    region: int
    start: int
    stop: int | None

    @property
    def cycles(self) -> int | None:
        return None if self.stop is None else self.stop - self.start

    def to_dict(self) -> dict:
        return {"region": self.region, "start": self.start, "stop": self.stop, "cycles": self.cycles}


@dataclass
class Trap:
    cause: int
    pc: int
    tval: int
    instruction: int | None = None  # the raw instruction word at pc, if known
    disassembly: str | None = None
    description: str = ""  # e.g. "illegal instruction"
    detail: str | None = None  # why, when the simulator knows (the Gemmini model names the refused field)

    def to_dict(self) -> dict:
        return {
            "cause": self.cause,
            "pc": f"0x{self.pc:08x}",
            "tval": f"0x{self.tval:x}",
            "instruction": None if self.instruction is None else f"0x{self.instruction:08x}",
            "disassembly": self.disassembly,
            "description": self.description,
            "detail": self.detail,
        }


@dataclass
class RunOutcome:
    target: Literal["rtl", "iss"]
    ending: Ending
    exit_code: int | None = None
    cycles_total: int | None = None  # reset to EXIT; None on Spike
    instret: int | None = None
    profile: list[ProfileRegion] = field(default_factory=list)
    uart: str = ""
    # Memory regions read after EXIT: start address -> bytes.
    dumps: dict[int, bytes] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)
    # Counters inside PROFILE regions (RTL only): region id -> counter deltas over
    # the first closed instance of that region (same names as ``counters``).
    region_counters: dict[int, dict[str, int]] = field(default_factory=dict)
    trap: Trap | None = None
    message: str = ""  # human-readable reason for timeout / error
    wall_s: float = 0.0
    sim_cycles_per_s: float | None = None
    rtl_hash: str | None = None
    tool_versions: dict[str, str] = field(default_factory=dict)

    @property
    def exited_ok(self) -> bool:
        return self.ending == "exit" and self.exit_code in PASS_EXIT_CODES
