"""Where dsa-cosim keeps per-machine state that every layer shares.

One build cache for the whole project: ``$COSIM_CACHE`` if set, else
``$XDG_CACHE_HOME/dsa-cosim``, else ``~/.cache/dsa-cosim``. Each user of it takes a
subdirectory (``verilator/``, ``runtime/``, ``kernels/``, ``spike-plugin/`` ...), and
writes entries atomically so that a crash or two concurrent builds never leave a
half-written entry behind.
"""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "COSIM_CACHE"


def cache_root() -> Path:
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "dsa-cosim"
