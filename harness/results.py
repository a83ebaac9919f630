"""result.json: one record per run, with exactly the keys of DESIGN.md.

Written atomically (temp file + rename) so an interrupted run never leaves a
half-written result behind.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from configs import SocConfig
from sim.outcome import RunOutcome

RESULT_KEYS = (
    "case",
    "soc",
    "elf",
    "target",
    "status",
    "exit_code",
    "cycles_total",
    "cycles_forward",
    "instret",
    "profile",
    "uart",
    "outputs",
    "counters",
    "sim_cycles_per_s",
    "wall_s",
    "rtl_hash",
    "config_hash",
    "tool_versions",
)

STATUSES = ("pass", "mismatch", "trap", "timeout", "error")

# PROFILE region id that the program builder wraps around forward().
FORWARD_REGION = 1


def status_of(outcome: RunOutcome, outputs: dict[str, dict] | None = None) -> str:
    """Map how a run ended (and its output comparison) onto a result status."""
    if outcome.ending == "trap":
        return "trap"
    if outcome.ending == "timeout":
        return "timeout"
    if outcome.ending == "error" or not outcome.exited_ok:
        return "error"
    if outputs and any(o.get("mismatches", 0) for o in outputs.values()):
        return "mismatch"
    return "pass"


def make_result(
    outcome: RunOutcome,
    *,
    soc: SocConfig,
    elf: str | os.PathLike,
    case: str | None = None,
    outputs: dict[str, dict] | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Build the result record. ``extra`` adds keys (never replaces the fixed ones)."""
    forward = [p for p in outcome.profile if p.region == FORWARD_REGION and p.stop is not None]
    cycles_forward = forward[0].cycles if forward and outcome.target == "rtl" else None
    result: dict[str, Any] = {
        "case": case,
        "soc": soc.name,
        "elf": str(elf),
        "target": outcome.target,
        "status": status_of(outcome, outputs),
        "exit_code": outcome.exit_code,
        "cycles_total": outcome.cycles_total,
        "cycles_forward": cycles_forward,
        "instret": outcome.instret,
        "profile": [p.to_dict() for p in outcome.profile],
        "uart": outcome.uart,
        "outputs": outputs or {},
        "counters": dict(outcome.counters),
        "sim_cycles_per_s": outcome.sim_cycles_per_s,
        "wall_s": round(outcome.wall_s, 6),
        "rtl_hash": outcome.rtl_hash,
        "config_hash": soc.config_hash,
        "tool_versions": dict(outcome.tool_versions),
    }
    assert tuple(result) == RESULT_KEYS
    # Additional keys come after the fixed ones: the trap, a message.
    if outcome.trap is not None:
        result["trap"] = outcome.trap.to_dict()
    if outcome.message:
        result["message"] = outcome.message
    for k, v in (extra or {}).items():
        if k in result:
            raise ValueError(f"extra key {k!r} would overwrite a fixed result key")
        result[k] = v
    return result


def write_json_atomic(path: str | os.PathLike, data: Any) -> None:
    """Write JSON so that readers see either the old file or the whole new one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=2, sort_keys=False)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
