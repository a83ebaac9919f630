"""Difftest: the RTL commit trace against Spike's commit log, streamed in lockstep.

- :mod:`spike_log` parses Spike's ``--log-commits`` output line by line;
- :mod:`rtl_trace` parses our test bench's ``+trace=FILE`` output;
- :mod:`compare` walks both and names the first divergence (:mod:`taint`: values that may
  legitimately differ; :mod:`completions`: coprocessor results by sequence number;
  :mod:`report`: the divergence and its words);
- :mod:`spike_stream` runs Spike with its log on a pipe, so nothing is stored.
"""

from sim.difftest.compare import Comparator, compare_streams
from sim.difftest.record import Commit, Completion, MemAccess, TrapEvent
from sim.difftest.report import DiffResult, Divergence
from sim.difftest.rtl_trace import iter_rtl_trace, parse_rtl_line
from sim.difftest.spike_log import LogFormatError, iter_spike_log, parse_spike_line

__all__ = [
    "Commit",
    "Comparator",
    "Completion",
    "DiffResult",
    "Divergence",
    "LogFormatError",
    "MemAccess",
    "TrapEvent",
    "compare_streams",
    "iter_rtl_trace",
    "iter_spike_log",
    "parse_rtl_line",
    "parse_spike_line",
]
