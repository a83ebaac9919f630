"""Bounded waves: dump a window of cycles of an RTL run, never the whole run.

    from sim.waves import dump_window
    w = dump_window(elf, "rv32", Path("run.vcd"), start=10_000, stop=30_000)
    w.path, w.start, w.stop, w.bytes

The waves build flavour (``sim/verilator_build.build(soc, waves=True)``, cached by
content like the others) adds ``sim/tb/tb_waves.sv``: the dump opens at cycle
``+waves_from`` and the run is ended at the window's last cycle (``+max_cycles``),
so the file covers exactly ``[start, stop]``. Tracing code costs speed even while
the dump is closed, so the normal build never has it.

Format: FST when Verilator's FST writer can be compiled (it includes ``lz4.h`` and
links ``-llz4 -lz``: Debian's ``liblz4-dev``), VCD otherwise; :func:`trace_format`
reads which one a dump is. A dump over ``cap_bytes`` is redone with a window
shrunk to fit (its start moved towards the end, which is where a failure is), and
one still over the cap is deleted, saying so: the file left behind is never
larger than the cap.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from sim.errors import SimError

DEFAULT_WINDOW = 20_000  # cycles
DEFAULT_CAP_BYTES = 64 * 1024 * 1024
WAVES_NAME = "waves.dump"  # inside the run directory; renamed to .fst/.vcd when collected
SHRINK_MARGIN = 0.8  # a redone window aims at this share of the cap (the rate per cycle varies)


@dataclass
class Waves:
    """A dump that was written: the file and the cycles it covers."""

    path: Path
    start: int
    stop: int
    bytes: int
    format: str  # "fst" or "vcd"
    attempts: int = 1

    def to_dict(self) -> dict:
        return {
            "path": str(self.path),
            "from_cycle": self.start,
            "to_cycle": self.stop,
            "bytes": self.bytes,
            "format": self.format,
        }


def check_window(start: int, stop: int | None, window: int = DEFAULT_WINDOW) -> tuple[int, int]:
    """``(start, stop)`` with ``stop`` defaulting to ``start + window``; bad bounds say what to pass."""
    if start < 0:
        raise SimError(f"waves window start {start} is negative; pass a cycle >= 0")
    if stop is None:
        stop = start + window
    if stop <= start:
        raise SimError(f"waves window ends at cycle {stop}, not after its start {start}; pass --to > --from")
    return start, stop


def window_plusargs(run_dir: Path, start: int, stop: int, max_cycles: int) -> tuple[int, list[str]]:
    """The run's lowered cycle limit (ending at ``stop``) and the plusargs that open the dump at ``start``."""
    from sim.tb_plusargs import check_plusarg_path

    path = check_plusarg_path(str(run_dir / WAVES_NAME))
    # tb_top ends the run in the cycle where cycle + 1 >= max_cycles.
    return min(max_cycles, stop + 1), [f"+waves_file={path}", f"+waves_from={start}"]


def trace_format(path: Path) -> str:
    """``vcd`` or ``fst``, from the file itself: a VCD is text starting with a ``$`` keyword, an FST is a
    binary block file (the cached build keeps no make files that would say which writer it has)."""
    with open(path, "rb") as f:
        head = f.read(64).lstrip()
    return "vcd" if head.startswith(b"$") else "fst"


def collect(run_dir: Path, dest: Path) -> Path:
    """Move the run's dump to ``dest`` with the suffix of its real format; the path written."""
    produced = Path(run_dir) / WAVES_NAME
    if not produced.is_file():
        raise SimError(
            "the waves run wrote no dump: the run ended before the window's start cycle "
            "(pass an earlier --from, at most the run's cycle count)"
        )
    dest = Path(dest).with_suffix("." + trace_format(produced))
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(produced, dest)
    return dest


def dump_window(
    elf: str | os.PathLike,
    soc,
    dest: str | os.PathLike,
    *,
    start: int,
    stop: int,
    cap_bytes: int = DEFAULT_CAP_BYTES,
    **run_kwargs,
):
    """Run ``elf`` on the waves build and dump cycles ``[start, stop]`` into ``dest`` (suffix set by format).

    Returns ``(outcome, waves)``; ``waves`` is None when even a shrunk window was over ``cap_bytes``
    (the file is then deleted and ``outcome.message`` is left alone: the caller says so)."""
    from sim.rtl_runner import run_rtl

    if cap_bytes <= 0:
        raise SimError(f"waves size cap {cap_bytes} bytes: pass a positive size")
    start, stop = check_window(start, stop)
    dest = Path(dest)
    for attempt in (1, 2):
        for stale in (dest.with_suffix(".fst"), dest.with_suffix(".vcd")):
            stale.unlink(missing_ok=True)
        outcome = run_rtl(elf, soc, waves=dest, waves_from=start, waves_to=stop, **run_kwargs)
        written = next(p for p in (dest.with_suffix(".fst"), dest.with_suffix(".vcd")) if p.is_file())
        size = written.stat().st_size
        last = min(stop, outcome.cycles_total or stop)
        if size <= cap_bytes:
            fmt = written.suffix[1:]
            return outcome, Waves(written, start, last, size, fmt, attempt)
        written.unlink()
        if attempt == 2:
            break
        # Same end, fewer cycles: the rate of this window, scaled to the cap.
        cycles = max(1, last - start)
        keep = max(1, int(cycles * cap_bytes * SHRINK_MARGIN / size))
        start = max(start, last - keep)
    return outcome, None


def cycle_of_instruction(elf: str | os.PathLike, soc, index: int, end_cycle: int, **run_kwargs) -> int | None:
    """The cycle in which the ``index``-th instruction (1-based, retirement order) retires, or None if it never does.

    One run on the waves build up to ``end_cycle`` (the first run's length) with a one-cycle dump at its end, which
    is dropped: tb_waves.sv writes the cycle when instret reaches ``index``."""
    import tempfile

    from sim.rtl_runner import run_rtl
    from sim.tb_plusargs import check_plusarg_path

    if index <= 0:
        raise SimError(f"instruction number {index}: instructions count from 1")
    extra = list(run_kwargs.pop("plusargs", ()))
    with tempfile.TemporaryDirectory(prefix="waves-mark-") as tmp:
        mark = Path(tmp) / "mark.txt"
        extra += [f"+waves_mark_instret={index}", f"+waves_mark_file={check_plusarg_path(str(mark))}"]
        start = max(0, end_cycle - 1)
        run_rtl(elf, soc, waves=Path(tmp) / "end", waves_from=start, waves_to=start + 1, plusargs=extra, **run_kwargs)
        return int(mark.read_text()) if mark.is_file() else None
