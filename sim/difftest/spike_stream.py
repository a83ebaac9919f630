"""Run Spike (``sim.spike.run_spike``) with its commit log on a FIFO, and hand out
parsed commits as Spike writes them.

Nothing is stored: Spike writes the log into a FIFO that we read line by line.
When the consumer stops early (a divergence, or the RTL trace ended) we close the
FIFO; Spike's next log write then ends it (SIGPIPE), so it never runs on unobserved.
Spike itself runs in a background thread, so ``run_spike`` keeps its device tree,
MMIO plugin and result decoding, and its :class:`RunOutcome` is available at the end.
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from configs import SocConfig
from sim.errors import SimError
from sim.outcome import RunOutcome
from sim.spike import run_spike

# How long to wait for Spike to finish after we stopped reading its log.
_JOIN_TIMEOUT_S = 30.0


class SpikeStream:
    """The commit-log lines of one running Spike; iterate once. ``outcome`` is set after the run.

    Lines are raw text (parse them with :func:`iter_spike_log`), so the comparator
    can take its fast path."""

    def __init__(self, log, thread: threading.Thread, box: dict) -> None:
        self._log = log
        self._thread = thread
        self._box = box
        self.count = 0

    def __iter__(self) -> Iterator[str]:
        for line in self._log:
            self.count += 1
            yield line
        if self.count == 0:
            self._thread.join(_JOIN_TIMEOUT_S)
            raise SimError(f"Spike produced no commit log: {self._describe()}")

    @property
    def outcome(self) -> RunOutcome | None:
        return self._box.get("outcome")

    def _describe(self) -> str:
        if "error" in self._box:
            return str(self._box["error"])
        out = self.outcome
        return out.message if out is not None and out.message else "no message"


@contextmanager
def spike_commits(
    elf: str | os.PathLike,
    soc: SocConfig | str,
    *,
    max_instructions: int | None = None,
    timeout_s: float | None = None,
) -> Iterator[SpikeStream]:
    """Start Spike on ``elf`` for ``soc`` and yield a :class:`SpikeStream` of its commit-log lines."""
    with tempfile.TemporaryDirectory(prefix="difftest-") as tmp:
        fifo = Path(tmp) / "commits.fifo"
        os.mkfifo(fifo)
        box: dict = {}

        def spike() -> None:
            try:
                box["outcome"] = run_spike(
                    elf, soc, max_instructions=max_instructions, timeout_s=timeout_s, log_commits=fifo
                )
            except Exception as e:  # reported by the consumer, in its own thread
                box["error"] = e

        thread = threading.Thread(target=spike, name="spike-difftest", daemon=True)
        thread.start()
        fd = _open_reader(fifo, thread)
        log = os.fdopen(fd, "r", buffering=1 << 16, errors="replace")
        stream = SpikeStream(log, thread, box)
        try:
            yield stream
        finally:
            log.close()  # Spike's next write gets SIGPIPE if it is still logging
            thread.join(_JOIN_TIMEOUT_S)
        if "error" in box and not isinstance(box["error"], SimError):
            raise box["error"]


def _open_reader(fifo: Path, spike: threading.Thread) -> int:
    """Open the FIFO for reading; don't hang if Spike dies before opening it."""
    box: dict = {}
    opener = threading.Thread(target=lambda: box.setdefault("fd", os.open(fifo, os.O_RDONLY)), daemon=True)
    opener.start()
    while opener.is_alive():
        opener.join(0.05)
        if opener.is_alive() and not spike.is_alive():
            # Spike ended without opening its log: a writer of our own unblocks open().
            w = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            opener.join()
            os.close(w)
    return box["fd"]
