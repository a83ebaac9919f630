"""The zig cc driver: compile and link C/assembly against the bare-metal runtime.

Everything is derived from the SoC config: the target triple and ``-mcpu``
feature list from ``march``, ``-mabi``, the linker script and the MMIO header
from the memory map. The runtime (``baremetal/``) is compiled once per config
and cached under ``$COSIM_CACHE`` (default ``~/.cache/dsa-cosim``), keyed by a
hash of its sources, the generated files, the flags and the zig version; a
build goes into a temporary directory that is renamed into place, so two
processes can build at once and a reader never sees half a runtime.

Python API::

    from harness.toolchain import build_elf
    build_elf(["main.c", "kernel.o"], "t1-small", "out/prog.elf")
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from configs import SocConfig, load_soc
from configs.paths import cache_root
from harness.errors import CosimError

REPO_ROOT = Path(__file__).resolve().parent.parent
RUNTIME_DIR = REPO_ROOT / "baremetal"
RUNTIME_INCLUDE = RUNTIME_DIR / "include"
TEMPLATE_DIR = RUNTIME_DIR / "templates"
# Gemmini's C API (gemmini.h, gemmini_testutils.h, ...) in the test-suite layout:
# programs include "include/gemmini.h", so this directory's parent goes on the path too.
GEMMINI_INCLUDE = RUNTIME_DIR / "gemmini" / "include"
GEMMINI_PARAMS_HEADER = "gemmini_params.h"
# Gemmini's test programs test for BAREMETAL (no Linux) in their headers and sources.
GEMMINI_DEFINES = ("BAREMETAL",)
CRT0_SOURCE = "src/crt0.S"
LIB_SOURCES = (
    "src/syscalls.c",
    "src/trap.c",
    "src/string.c",
    "src/malloc.c",
    "src/printf.c",
    "src/stdlib.c",
    "src/assert.c",
    "src/time.c",
)

# Stack reserved at the top of SCALAR; the linker script asserts bss stays below it.
STACK_SIZE = 1 << 20

# Flags every compile gets (DESIGN.md, Toolchain facts): medany reaches our
# addresses on RV64, -fno-math-errno keeps sqrtf/fmaf inline instead of libm calls.
# zig cc defines NDEBUG from -O1 up, which would silence assert(); -UNDEBUG undoes
# that (a user's own -D NDEBUG comes later on the command line and still wins).
BASE_CFLAGS = ("-mcmodel=medany", "-ffreestanding", "-fno-stack-protector", "-fno-math-errno", "-UNDEBUG")
RUNTIME_CFLAGS = ("-O2", "-Wall", "-Wextra")
LINK_FLAGS = ("-nostdlib", "-rtlib=compiler-rt")

SOURCE_SUFFIXES = {".c", ".S", ".s", ".o", ".a", ".ll", ".bc"}


class ToolchainError(CosimError):
    """Compiling or linking failed; the message holds the compiler's own output."""


def zig_cc() -> list[str]:
    return [sys.executable, "-m", "ziglang", "cc"]


def zig_version() -> str:
    try:
        return metadata.version("ziglang")
    except metadata.PackageNotFoundError:
        raise ToolchainError("the zig toolchain is missing: pip install ziglang==0.17.0 (or run ./dev true)") from None


# Single-letter extensions as zig/LLVM feature names; 'i' is the base ISA.
_LETTER_FEATURES = {"m": "m", "a": "a", "f": "f", "d": "d", "c": "c", "v": "v"}


def mcpu(soc: SocConfig) -> str:
    """``-mcpu`` for zig: ``rv32imf_zicsr_zve32f`` -> ``generic_rv32+m+f+zicsr+zve32f``.

    Zig's generic CPUs carry no extensions of their own, so every one is named.
    """
    features = []
    for ext in soc.isa_extensions:
        if ext == "i":
            continue
        if len(ext) == 1 and ext not in _LETTER_FEATURES:
            raise ToolchainError(f"{soc.name}: ISA letter {ext!r} in march {soc.march!r} has no zig feature name")
        features.append(_LETTER_FEATURES.get(ext, ext))
    return f"generic_rv{soc.xlen}" + "".join(f"+{f}" for f in features)


def target_flags(soc: SocConfig) -> list[str]:
    """Target selection for zig cc: triple, CPU features, ABI."""
    return ["-target", f"riscv{soc.xlen}-freestanding-none", f"-mcpu={mcpu(soc)}", f"-mabi={soc.mabi}"]


def _substitutions(soc: SocConfig) -> dict[str, str]:
    mm = soc.memory_map
    vlen = getattr(soc.accelerator, "vlen", 0)
    return {
        "SOC": soc.name,
        "XLEN": str(soc.xlen),
        "HAS_VECTOR": "1" if soc.has_vector else "0",
        "HAS_GEMMINI": "1" if soc.has_gemmini else "0",
        "MACHINE_CSRS": "1" if soc.csrs == "machine" else "0",
        "VLEN": str(vlen),
        "MMIO_BASE": hex(mm.mmio_base),
        "MMIO_SIZE": hex(mm.mmio_size),
        "EXIT_ADDR": hex(mm.exit_addr),
        "UART_TX_ADDR": hex(mm.uart_tx_addr),
        "PROFILE_ADDR": hex(mm.profile_addr),
        "TRAP_CAUSE_ADDR": hex(mm.trap_cause_addr),
        "TRAP_EPC_ADDR": hex(mm.trap_epc_addr),
        "TRAP_TVAL_ADDR": hex(mm.trap_tval_addr),
        "SCALAR_BASE": hex(mm.scalar_base),
        "SCALAR_SIZE": hex(mm.scalar_size),
        "DDR_BASE": hex(mm.ddr_base),
        "DDR_SIZE": hex(mm.ddr_size),
        "SRAM_BASE": hex(mm.sram_base),
        "SRAM_SIZE": hex(mm.sram_size),
        "STACK_SIZE": hex(STACK_SIZE),
    }


def _render(template: str, soc: SocConfig) -> str:
    text = (TEMPLATE_DIR / template).read_text()
    for key, value in _substitutions(soc).items():
        text = text.replace(f"@{key}@", value)
    leftover = sorted(set(re.findall(r"@[A-Z_]+@", text)))
    if leftover:
        raise ToolchainError(f"template {template} has placeholders the config does not fill: {leftover}")
    return text


def render_mmio_header(soc: SocConfig) -> str:
    """Text of ``cosim_mmio.h`` for this config."""
    return _render("cosim_mmio.h.in", soc)


def render_linker_script(soc: SocConfig) -> str:
    """Text of the linker script for this config's memory map."""
    return _render("link.ld.in", soc)


@dataclass(frozen=True)
class Runtime:
    """A built runtime for one config: what a link needs."""

    soc: SocConfig
    directory: Path

    @property
    def crt0(self) -> Path:
        return self.directory / "crt0.o"

    @property
    def library(self) -> Path:
        return self.directory / "libcosim.a"

    @property
    def linker_script(self) -> Path:
        return self.directory / "link.ld"

    @property
    def generated_include(self) -> Path:
        return self.directory / "include"

    @property
    def include_dirs(self) -> list[Path]:
        return [RUNTIME_INCLUDE, self.generated_include]

    @property
    def user_include_dirs(self) -> list[Path]:
        """What user code sees: the runtime's headers, and on a Gemmini config
        Gemmini's API both as "include/x.h" (the parents) and as "x.h"."""
        dirs = list(self.include_dirs)
        if self.soc.has_gemmini:
            dirs += [GEMMINI_INCLUDE, GEMMINI_INCLUDE.parent, self.directory]
        return dirs

    def complete(self) -> bool:
        files = [self.crt0, self.library, self.linker_script, self.generated_include / "cosim_mmio.h"]
        if self.soc.has_gemmini:
            files.append(self.generated_include / GEMMINI_PARAMS_HEADER)
        return all(f.is_file() and f.stat().st_size > 0 for f in files)


def _generated_headers(soc: SocConfig) -> dict[str, str]:
    """Headers generated from the config besides cosim_mmio.h, by file name."""
    if not soc.has_gemmini:
        return {}
    from harness.gemmini_header import render_gemmini_params_h

    return {GEMMINI_PARAMS_HEADER: render_gemmini_params_h(soc)}


def _runtime_key(soc: SocConfig, header: str, script: str) -> str:
    h = hashlib.sha256()
    for rel in sorted([CRT0_SOURCE, *LIB_SOURCES]):
        h.update(rel.encode() + b"\0" + (RUNTIME_DIR / rel).read_bytes())
    for inc in sorted(RUNTIME_INCLUDE.glob("*.h")):
        h.update(inc.name.encode() + b"\0" + inc.read_bytes())
    h.update(header.encode() + script.encode())
    # Only Gemmini configs have extra headers, so other configs keep their keys.
    for name, text in sorted(_generated_headers(soc).items()):
        h.update(name.encode() + b"\0" + text.encode())
    h.update(" ".join([*target_flags(soc), *BASE_CFLAGS, *RUNTIME_CFLAGS, zig_version()]).encode())
    return h.hexdigest()[:16]


def _run(cmd: Sequence[str], what: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    try:
        proc = subprocess.run(list(map(str, cmd)), capture_output=True, text=True, cwd=cwd)
    except FileNotFoundError as e:
        raise ToolchainError(f"{what}: cannot start {cmd[0]}: {e}") from None
    if proc.returncode != 0:
        output = (proc.stderr + proc.stdout).strip()
        raise ToolchainError(f"{what} failed (exit {proc.returncode}):\n{output}")
    return proc


def runtime(soc: SocConfig | str) -> Runtime:
    """The runtime built for ``soc``, from the cache or built now."""
    soc = load_soc(soc)
    header = render_mmio_header(soc)
    script = render_linker_script(soc)
    root = cache_root() / "runtime"
    final = root / f"{soc.name}-{_runtime_key(soc, header, script)}"
    rt = Runtime(soc, final)
    if rt.complete():
        return rt
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=root, prefix=f".{soc.name}-"))
    try:
        _build_runtime(Runtime(soc, tmp), header, script)
        try:
            os.rename(tmp, final)
        except OSError:
            # Another process finished first (or a broken entry is in the way).
            if not rt.complete():
                shutil.rmtree(final, ignore_errors=True)
                os.rename(tmp, final)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if not rt.complete():
        raise ToolchainError(f"runtime build for {soc.name} in {final} is incomplete; delete that directory and retry")
    return rt


def _build_runtime(rt: Runtime, header: str, script: str) -> None:
    rt.generated_include.mkdir(parents=True)
    (rt.generated_include / "cosim_mmio.h").write_text(header)
    for name, text in _generated_headers(rt.soc).items():
        (rt.generated_include / name).write_text(text)
    rt.linker_script.write_text(script)
    base = [*zig_cc(), *target_flags(rt.soc), *BASE_CFLAGS, *RUNTIME_CFLAGS]
    base += [f"-I{d}" for d in rt.include_dirs]
    # Compile all runtime sources concurrently: each is a separate zig process.
    jobs = []
    for rel in [CRT0_SOURCE, *LIB_SOURCES]:
        obj = rt.directory / (Path(rel).stem + ".o")
        cmd = [*base, "-c", str(RUNTIME_DIR / rel), "-o", str(obj)]
        jobs.append((rel, obj, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
    errors = []
    for rel, _obj, proc in jobs:
        out, err = proc.communicate()
        if proc.returncode != 0:
            errors.append(f"{rel}:\n{(err + out).strip()}")
    if errors:
        raise ToolchainError(f"building the runtime for {rt.soc.name} failed:\n" + "\n".join(errors))
    objs = [str(rt.directory / (Path(rel).stem + ".o")) for rel in LIB_SOURCES]
    _run([sys.executable, "-m", "ziglang", "ar", "rcs", str(rt.library), *objs], "archiving the runtime")
    if not rt.crt0.is_file():
        raise ToolchainError(f"building the runtime for {rt.soc.name}: crt0.o was not produced")


def _check_sources(sources: Iterable[str | os.PathLike]) -> list[Path]:
    paths = [Path(s) for s in sources]
    if not paths:
        raise ToolchainError("no source files given: pass at least one .c, .S or .o file")
    for p in paths:
        if not p.is_file():
            raise ToolchainError(f"source file {str(p)!r} does not exist")
        if p.suffix not in SOURCE_SUFFIXES:
            raise ToolchainError(
                f"{p}: unsupported file type {p.suffix!r}; cosim cc takes {', '.join(sorted(SOURCE_SUFFIXES))}"
            )
    return paths


def compile_flags(
    soc: SocConfig,
    *,
    opt: str = "-O2",
    include_dirs: Iterable[str | os.PathLike] = (),
    defines: Iterable[str] = (),
    extra_cflags: Iterable[str] = (),
) -> list[str]:
    """Flags for compiling user code for ``soc`` (the runtime's headers included)."""
    rt = runtime(soc)
    flags = [*target_flags(soc), *BASE_CFLAGS, opt]
    flags += [f"-I{d}" for d in include_dirs]
    flags += [f"-I{d}" for d in rt.user_include_dirs]
    if soc.has_gemmini:
        flags += [f"-D{d}" for d in GEMMINI_DEFINES]
    flags += [f"-D{d}" for d in defines]
    flags += list(extra_cflags)
    return flags


def compile_object(
    source: str | os.PathLike,
    soc: SocConfig | str,
    out: str | os.PathLike,
    **kwargs,
) -> Path:
    """Compile one C/assembly/LLVM IR file to an object for ``soc``."""
    soc = load_soc(soc)
    (src,) = _check_sources([source])
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    _run([*zig_cc(), *compile_flags(soc, **kwargs), "-c", str(src), "-o", str(out)], f"compiling {src}")
    return out


def build_elf(
    sources: Iterable[str | os.PathLike],
    soc: SocConfig | str,
    out: str | os.PathLike,
    *,
    opt: str = "-O2",
    include_dirs: Iterable[str | os.PathLike] = (),
    defines: Iterable[str] = (),
    extra_cflags: Iterable[str] = (),
    check: bool = True,
) -> Path:
    """Compile and link ``sources`` (C, assembly, objects, archives, LLVM IR) with the
    runtime into the ELF ``out`` for ``soc``; then check it against the memory map.

    Raises :class:`ToolchainError` with the compiler's own message on failure.
    """
    soc = load_soc(soc)
    paths = _check_sources(sources)
    rt = runtime(soc)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    # Link into a temporary name first so a failed link never leaves a stale ELF behind.
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    cmd = [
        *zig_cc(),
        *compile_flags(soc, opt=opt, include_dirs=include_dirs, defines=defines, extra_cflags=extra_cflags),
        str(rt.crt0),
        *map(str, paths),
        str(rt.library),
        *LINK_FLAGS,
        "-T",
        str(rt.linker_script),
        "-o",
        str(tmp),
    ]
    try:
        _run(cmd, f"building {out.name} for {soc.name}")
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    if check:
        from harness.elfcheck import check_elf

        check_elf(out, soc)
    return out
