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
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Literal

from configs import SocConfig, load_soc
from sim import ext_rtl
from sim.build_cache import MANIFEST, cache_dir, prune, remove_abandoned_builds, valid_entry
from sim.errors import SimError
from sim.soc_parameters import soc_parameters
from sim.verilator_tool import ensure_verilator_on_path, verilator_version

SIM_DIR = Path(__file__).resolve().parent
RTL_DIR = SIM_DIR / "rtl"
TB_DIR = SIM_DIR / "tb"
WAVES_SV = TB_DIR / "tb_waves.sv"  # the waves flavour's dump window (sim/waves.py)
TOPLEVEL = "tb_top"
TIMESCALE = ("1ns", "1ps")
# Bump when the build recipe below changes in a way the inputs do not show.
RECIPE_VERSION = 4

Flavour = Literal["cocotb", "plain"]

# Make variables for the model build: -O2 for the model and runtime, and the
# precompiled-header include flag the wheel's verilated.mk leaves empty (without
# it parallel builds fail with "Vtop__pch.h.fast: linker input file not found").
MAKE_VARS = ["OPT_FAST=-O2", "OPT_GLOBAL=-O2", "CFG_CXXFLAGS_PCH_I=-include"]


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

    manifest = valid_entry(entry, key)
    if manifest:
        return made(manifest, 0.0, True)
    with open(root / f"{entry.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be building the same entry
        manifest = valid_entry(entry, key)
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
        prune(root, entry)
        return made(manifest, seconds, False)
