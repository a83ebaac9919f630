"""Run Spike (``sim.spike.run_spike``) with its commit log on a FIFO, and hand out
its lines as Spike writes them.

Nothing is stored: Spike writes the log into a FIFO that we read line by line.
When the consumer stops early (a divergence, or the RTL trace ended) we close the
FIFO; Spike's next log write then ends it (SIGPIPE), so it never runs on unobserved.
Spike runs in a background thread, so ``run_spike`` keeps its device tree, MMIO
plugin and result decoding, and its :class:`RunOutcome` is available at the end.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from configs import SocConfig
from sim.difftest.fifo import FifoStream, fifo_producer
from sim.errors import SimError
from sim.outcome import RunOutcome
from sim.spike import run_spike


class SpikeStream:
    """The commit-log lines of one running Spike (raw text; parse with ``iter_spike_log``);
    iterate once. ``outcome`` is Spike's :class:`RunOutcome` once it has ended."""

    def __init__(self, stream: FifoStream) -> None:
        self._stream = stream

    def __iter__(self) -> Iterator[str]:
        yield from self._stream
        if self._stream.count == 0:
            self._stream.wait()
            err = self._stream.error
            out = self._stream.result
            why = str(err) if err else (out.message if out is not None and out.message else "no message")
            raise SimError(f"Spike produced no commit log: {why}")

    @property
    def count(self) -> int:
        return self._stream.count

    @property
    def outcome(self) -> RunOutcome | None:
        return self._stream.result


@contextmanager
def spike_commits(
    elf: str | os.PathLike,
    soc: SocConfig | str,
    *,
    max_instructions: int | None = None,
    timeout_s: float | None = None,
    gemmini_trace: str | os.PathLike | None = None,
) -> Iterator[SpikeStream]:
    """Start Spike on ``elf`` for ``soc`` and yield a :class:`SpikeStream` of its commit-log lines
    (``gemmini_trace``: where the Gemmini model writes its side of the Gemmini difftest)."""

    def produce(fifo):
        return run_spike(
            elf,
            soc,
            max_instructions=max_instructions,
            timeout_s=timeout_s,
            log_commits=fifo,
            gemmini_trace=gemmini_trace,
        )

    with fifo_producer(produce, name="spike") as stream:
        yield SpikeStream(stream)
    err = stream.error
    if err is not None and not isinstance(err, SimError):
        raise err
