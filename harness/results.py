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

from configs import GemminiUnit, SocConfig
from harness.check import reason_of, status_of
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

# PROFILE region id that the program builder wraps around forward().
FORWARD_REGION = 1


def derived_counters(counters: dict[str, Any], soc: SocConfig, cycles: int | None) -> dict[str, Any]:
    """``counters`` plus ratios over ``cycles`` (sim/tb/README.md, "Counters").

    vec_lane_utilization = vec_lane_ops / (lanes * cycles) (element operations per
    lane and cycle; SEW 8/16 work packs 4/2 elements into a 32-bit lane, so it can
    exceed 1 there); vec_fma_utilization = vec_fma_ops / (lanes * cycles).
    On a Gemmini SoC's RTL, mesh_utilization = gemmini_macs / (DIM^2 * cycles)
    (useful MACs, as the functional model counts them, per PE and cycle).
    """
    out = dict(counters)
    lanes = getattr(soc.accelerator, "lanes", None)
    if lanes and cycles and "vec_lane_ops" in counters:
        out["vec_lane_utilization"] = round(counters["vec_lane_ops"] / (lanes * cycles), 6)
        out["vec_fma_utilization"] = round(counters.get("vec_fma_ops", 0) / (lanes * cycles), 6)
    if isinstance(soc.accelerator, GemminiUnit) and cycles and "gemmini_macs" in counters:
        dim = soc.accelerator.dim
        out["mesh_utilization"] = round(counters["gemmini_macs"] / (dim * dim * cycles), 6)
    return out


def result_counters(outcome: RunOutcome, soc: SocConfig, cycles_forward: int | None) -> dict[str, Any]:
    """result.json's ``counters``: the run's counters and ratios, and on RTL a nested
    ``forward`` dict with the same counters over the forward PROFILE region."""
    counters = derived_counters(outcome.counters, soc, outcome.counters.get("cycles"))
    region = outcome.region_counters.get(FORWARD_REGION)
    if region and cycles_forward:
        counters["forward"] = derived_counters({**region, "cycles": cycles_forward}, soc, cycles_forward)
    return counters


def profile_entries(outcome: RunOutcome, soc: SocConfig, regions: list[dict] | None = None) -> list[dict[str, Any]]:
    """result.json's ``profile``: each PROFILE region the run closed. With the compiled program's region
    table (:func:`compiler.frontend.profile_regions.regions_of`), an entry also has ``name`` (the layer's
    module path, or the layers a stretch of core work came from), ``where`` (gemmini or core), ``ops``,
    and on RTL ``counters`` (the RTL's counters over that region, Gemmini's included)."""
    table = {r["region"]: r for r in regions or []}
    out = []
    for p in outcome.profile:
        entry = p.to_dict()
        if p.region == FORWARD_REGION and table:
            entry["name"] = "forward"
        elif p.region in table:
            r = table[p.region]
            entry.update(name=r["name"], where=r["where"], ops=r["ops"])
        counters = outcome.region_counters.get(p.region)
        if counters and p.region != FORWARD_REGION and p.cycles:
            entry["counters"] = derived_counters({**counters, "cycles": p.cycles}, soc, p.cycles)
        out.append(entry)
    return out


def make_result(
    outcome: RunOutcome,
    *,
    soc: SocConfig,
    elf: str | os.PathLike,
    case: str | None = None,
    outputs: dict[str, dict] | None = None,
    extra: dict[str, Any] | None = None,
    regions: list[dict] | None = None,
) -> dict[str, Any]:
    """Build the result record. ``extra`` adds keys (never replaces the fixed ones); ``regions``
    names the per-layer PROFILE regions (:func:`profile_entries`)."""
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
        "profile": profile_entries(outcome, soc, regions),
        "uart": outcome.uart,
        "outputs": outputs or {},
        "counters": result_counters(outcome, soc, cycles_forward),
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
    message = reason_of(outcome)
    if message:
        result["message"] = message
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
