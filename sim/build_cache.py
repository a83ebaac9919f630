"""The Verilator build cache's housekeeping: where it lives, which entries are whole, what is removed.

Entries live under ``$COSIM_CACHE/verilator`` (configs.paths; default ``~/.cache/dsa-cosim/verilator``), one
directory per build key holding the executable and a manifest; sim/verilator_build.py builds them.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import time
from pathlib import Path

from configs.paths import cache_root

MANIFEST = "cosim-build.json"


def cache_dir() -> Path:
    return cache_root() / "verilator"


def valid_entry(directory: Path, key: str) -> dict | None:
    """The entry's manifest if the entry is whole: built for ``key``, its executable of the recorded size and hash."""
    try:
        manifest = json.loads((directory / MANIFEST).read_text())
        exe = directory / manifest["executable"]
        if manifest["key"] != key or exe.stat().st_size != manifest["executable_size"]:
            return None
        if hashlib.sha256(exe.read_bytes()).hexdigest() != manifest["executable_sha256"]:
            return None
        return manifest
    except (OSError, ValueError, KeyError, TypeError):
        return None


# A private build directory is .<entry>.<pid>.tmp; it is abandoned when its builder died
# (killed mid-build) or, should the pid have been reused, when nothing in it changed for this long.
_TMP_NAME = re.compile(r"^\..+\.(\d+)\.tmp$")
ABANDONED_AFTER_S = 3600


def pid_alive(pid: int) -> bool:
    """Whether a process with this pid exists (someone else's live process counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_abandoned_builds(root: Path) -> list[Path]:
    """Delete private build directories left by killed builds (a live build's own is never touched)."""
    removed = []
    now = time.time()
    for p in root.iterdir() if root.is_dir() else ():
        m = _TMP_NAME.match(p.name)
        if not m or not p.is_dir() or int(m.group(1)) == os.getpid():
            continue
        try:
            idle = now - p.stat().st_mtime
        except OSError:
            continue  # its builder just renamed or removed it
        if not pid_alive(int(m.group(1))) or idle > ABANDONED_AFTER_S:
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p)
    return removed


KEEP_PER_KIND = 3  # cache entries kept per (config, flavour, waves): RTL edits add new ones


def prune(root: Path, newest: Path) -> None:
    """Drop the oldest entries of the same kind as ``newest`` beyond KEEP_PER_KIND."""
    kind = newest.name.rsplit("-", 1)[0]
    same = [p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".") and p.name.rsplit("-", 1)[0] == kind]
    same.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for old in same[KEEP_PER_KIND:]:
        lock = root / f"{old.name}.lock"
        try:
            with open(lock, "w") as f:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)  # skip entries being (re)built
                shutil.rmtree(old, ignore_errors=True)
        except OSError:
            continue
