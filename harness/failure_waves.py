"""Waves where an RTL case failed: rerun it with a bounded dump ending at the failure.

A suite case on the RTL that ends as ``mismatch``, ``trap``, ``timeout`` or a
test-bench ``error`` with a cycle count is run once more on the waves build
(``sim/waves.py``), dumping the ``window`` cycles before the cycle where the first
run ended (the trap report, the timeout or the EXIT whose outputs mismatched: the
simulation is deterministic, so the rerun ends at the same cycle). The result gets
a ``waves`` record naming the file and its cycles, or ``waves_note`` saying why
there is none (over the size cap, the rerun failed).

A difftest divergence is named by instruction, not cycle: ``cosim difftest --waves``
first reruns to find the cycle in which that instruction retired
(:func:`sim.waves.cycle_of_instruction`), then dumps the window ending there
(:func:`divergence_waves`).
"""

from __future__ import annotations

import os
from pathlib import Path

WINDOW_ENV = "COSIM_WAVES_WINDOW"  # cycles; 0 turns the rerun off
CAP_ENV = "COSIM_WAVES_CAP_MB"
FAILED = ("mismatch", "trap", "timeout", "error")


def settings() -> tuple[int, int]:
    """(window cycles, cap bytes) from the environment the suite sets (defaults: sim/waves.py)."""
    from sim.waves import DEFAULT_CAP_BYTES, DEFAULT_WINDOW

    window = int(os.environ.get(WINDOW_ENV, DEFAULT_WINDOW))
    cap_mb = os.environ.get(CAP_ENV)
    return window, int(float(cap_mb) * 1024 * 1024) if cap_mb else DEFAULT_CAP_BYTES


def wants_waves(target: str, result: dict) -> bool:
    return (
        target == "rtl"
        and result.get("status") in FAILED
        and bool(result.get("cycles_total"))
        and bool(result.get("elf"))
        and Path(result["elf"]).is_file()
    )


def add_failure_waves(soc: str, target: str, result: dict, workdir: Path) -> None:
    """Rerun a failed RTL case with waves of the window before its failure; record the file in ``result``."""
    window, cap = settings()
    if window <= 0 or not wants_waves(target, result):
        return
    from sim.waves import dump_window

    end = int(result["cycles_total"])
    try:
        _, waves = dump_window(
            result["elf"], soc, Path(workdir) / "waves", start=max(0, end - window), stop=end, cap_bytes=cap
        )
    except Exception as e:  # the case's own result stands; say why there are no waves
        result["waves_note"] = f"the waves rerun failed: {e}"
        return
    if waves is None:
        result["waves_note"] = f"no waves: even a shrunk window was over the {cap / 2**20:.0f} MiB cap (--waves-cap)"
        return
    result["waves"] = waves.to_dict()


def divergence_waves(
    elf: str | Path,
    soc: str,
    index: int,
    end_cycle: int,
    dest: Path,
    *,
    window: int,
    cap_bytes: int,
    **run_kwargs,
) -> tuple[int | None, object]:
    """Waves of the ``window`` cycles up to the cycle where difftest's diverging instruction ``index`` retired.

    Returns ``(cycle, waves)``: the divergence's cycle (None when the rerun never retired that many instructions)
    and the :class:`sim.waves.Waves` written (None when none was)."""
    from sim.waves import cycle_of_instruction, dump_window

    cycle = cycle_of_instruction(elf, soc, index, end_cycle, **run_kwargs)
    if cycle is None:
        return None, None
    _, waves = dump_window(
        elf, soc, dest, start=max(0, cycle - window), stop=cycle + 1, cap_bytes=cap_bytes, **run_kwargs
    )
    return cycle, waves
