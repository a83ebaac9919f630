"""Run a producer that writes a text log to a path, in a thread, with the path a FIFO
we read as it is written. Used for Spike's commit log and, with ``--stream``, the
RTL's commit trace: nothing is stored, and closing our end early stops the producer
(its next write gets SIGPIPE).
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

# How long to wait for the producer to finish after we stopped reading.
JOIN_TIMEOUT_S = 30.0


class FifoStream:
    """Lines of a running producer; iterate once. ``result``/``error`` are set when it ends."""

    def __init__(self, log, thread: threading.Thread, box: dict, path: Path) -> None:
        self.path = path  # the FIFO the producer writes
        self._log = log
        self._thread = thread
        self._box = box
        self.count = 0

    def __iter__(self) -> Iterator[str]:
        for line in self._log:
            self.count += 1
            yield line

    def wait(self, timeout: float = JOIN_TIMEOUT_S) -> None:
        self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    @property
    def result(self) -> Any:
        return self._box.get("result")

    @property
    def error(self) -> BaseException | None:
        return self._box.get("error")


@contextmanager
def fifo_producer(produce: Callable[[Path], Any], name: str = "producer") -> Iterator[FifoStream]:
    """Call ``produce(fifo_path)`` in a thread and yield a :class:`FifoStream` of what it writes."""
    with tempfile.TemporaryDirectory(prefix=f"{name}-") as tmp:
        fifo = Path(tmp) / f"{name}.fifo"
        os.mkfifo(fifo)
        box: dict = {}

        def run() -> None:
            try:
                box["result"] = produce(fifo)
            except BaseException as e:  # handed to the consumer's thread
                box["error"] = e

        thread = threading.Thread(target=run, name=name, daemon=True)
        thread.start()
        log = os.fdopen(_open_reader(fifo, thread), "r", buffering=1 << 16, errors="replace")
        try:
            yield FifoStream(log, thread, box, fifo)
        finally:
            log.close()  # a producer still writing gets SIGPIPE
            thread.join(JOIN_TIMEOUT_S)


def _open_reader(fifo: Path, producer: threading.Thread) -> int:
    """Open the FIFO for reading; don't hang if the producer ends before opening it."""
    box: dict = {}
    opener = threading.Thread(target=lambda: box.setdefault("fd", os.open(fifo, os.O_RDONLY)), daemon=True)
    opener.start()
    while opener.is_alive():
        opener.join(0.05)
        if opener.is_alive() and not producer.is_alive():
            # The producer never opened its end: a writer of our own unblocks open().
            w = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            opener.join()
            os.close(w)
    return box["fd"]
