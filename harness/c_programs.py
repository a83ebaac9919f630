"""Freestanding C test programs (``tests/programs/*.c``) as verify cases.

Each program's expected UART text comes from an independent computation: the
same source compiled for the host with gcc and run there. On the target it is
built with the runtime (``build_elf``) and run on Spike (and, for configs without
an accelerator, on the RTL); the case passes when the UART text matches exactly
and the program exits with code 0.

A program lists the configs it runs on in a comment line
``cosim-socs: t1-small t1-blastoise``; without one it runs on rv32 and rv64.

Gemmini's programs (``tests/gemmini_programs/*.c``, written against Gemmini's C
API) check themselves against a CPU reference: they pass when they exit with
code 0 (no host run: the host has no Gemmini). They run on ``gemmini-dim4``
unless they name their configs the same way.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from configs import load_soc
from harness.elfcheck import check_elf
from harness.errors import CosimError
from harness.iss import describe_trap, run_iss
from harness.results import make_result
from harness.toolchain import REPO_ROOT, build_elf, cache_root
from harness.verify_suite import Case

PROGRAM_DIR = REPO_ROOT / "tests" / "programs"
DEFAULT_SOCS = ("rv32", "rv64")
GEMMINI_PROGRAM_DIR = REPO_ROOT / "tests" / "gemmini_programs"
GEMMINI_SOCS = ("gemmini-dim4",)
_SOCS_RE = re.compile(r"cosim-socs:\s*([\w\-. ]+)")


@dataclass(frozen=True)
class CProgram:
    path: Path
    socs: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.path.stem


def discover(directory: Path = PROGRAM_DIR, default_socs: tuple[str, ...] = DEFAULT_SOCS) -> list[CProgram]:
    """Every ``*.c`` in ``directory`` with the configs it names (or ``default_socs``)."""
    programs = []
    for path in sorted(Path(directory).glob("*.c")):
        m = _SOCS_RE.search(path.read_text())
        socs = tuple(m.group(1).split()) if m else default_socs
        programs.append(CProgram(path, socs))
    return programs


def _host_cc() -> list[str]:
    for cc in ("gcc", "cc"):
        if shutil.which(cc):
            return [cc]
    # No system compiler: zig builds host programs too (its own libc).
    return [sys.executable, "-m", "ziglang", "cc"]


def host_expected(program: CProgram, timeout_s: float = 60.0) -> str:
    """The program's stdout when built and run on the host (cached by source hash)."""
    source = program.path.read_bytes()
    cc = _host_cc()
    key = hashlib.sha256(source + " ".join(cc[-1:]).encode()).hexdigest()[:16]
    cache = cache_root() / "host-programs" / f"{program.name}-{key}"
    expected = cache / "expected.txt"
    if expected.is_file():
        return expected.read_text()
    cache.mkdir(parents=True, exist_ok=True)
    exe = cache / f"{program.name}.{os.getpid()}"
    build = subprocess.run(
        [*cc, "-std=gnu11", "-O1", "-o", str(exe), str(program.path), "-lm"], capture_output=True, text=True
    )
    if build.returncode != 0:
        raise CosimError(f"host build of {program.path} failed (needed for its expected output):\n{build.stderr}")
    try:
        run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=timeout_s)
    finally:
        exe.unlink(missing_ok=True)
    if run.returncode != 0:
        raise CosimError(
            f"{program.path} exits with {run.returncode} on the host; its expected output is not trustworthy"
        )
    tmp = cache / f".expected.{os.getpid()}"
    tmp.write_text(run.stdout)
    os.replace(tmp, expected)
    return run.stdout


def uart_mismatches(expected: str, actual: str) -> int:
    """Number of differing lines (missing or extra lines count too)."""
    e, a = expected.splitlines(), actual.splitlines()
    diff = sum(1 for x, y in zip(e, a, strict=False) if x != y) + abs(len(e) - len(a))
    if diff == 0 and expected != actual:
        diff = 1  # e.g. a missing final newline
    return diff


def run_program(program: CProgram, soc: str, workdir: Path, *, target: str = "iss", timeout_s: float = 300.0) -> dict:
    """Build ``program`` for ``soc``, run it on Spike (``iss``) or the RTL (``rtl``),
    compare its UART text with the host's; return the result record."""
    cfg = load_soc(soc)
    expected = host_expected(program)
    workdir.mkdir(parents=True, exist_ok=True)
    elf = build_elf([program.path], cfg, workdir / f"{program.name}.elf")
    if target == "iss":
        outcome, _ = run_iss(elf, cfg, case=f"c:{program.name}", timeout_s=timeout_s)
    elif target == "rtl":
        from sim.rtl_runner import run_rtl  # imported only here: it pulls in cocotb

        outcome = run_rtl(elf, cfg, workdir=workdir)
        describe_trap(outcome, check_elf(elf, cfg), cfg)
    else:
        raise CosimError(f"unknown target {target!r}: use iss or rtl")
    mismatches = uart_mismatches(expected, outcome.uart)
    outputs = {"uart": {"max_abs_err": None, "max_ulp_err": None, "mismatches": mismatches}}
    result = make_result(outcome, soc=cfg, elf=elf, case=f"c:{program.name}", outputs=outputs)
    if mismatches:
        (workdir / "expected_uart.txt").write_text(expected)
        (workdir / "actual_uart.txt").write_text(outcome.uart)
        result.setdefault("message", f"UART text differs from the host run in {mismatches} line(s); see {workdir}")
    return result


def verify_cases() -> list[Case]:
    """Case source for ``nox -s verify``: every program on each of its configs, on Spike."""
    cases = []
    for program in discover():
        for soc in program.socs:
            cases.append(
                Case(
                    id=f"c:{program.name}@{soc}/iss",
                    soc=soc,
                    target="iss",
                    kind="c-program",
                    run=lambda workdir, p=program, s=soc: run_program(p, s, workdir),
                )
            )
    return cases


def verify_cases_rtl() -> list[Case]:
    """Case source: the programs on the RTL of their configs that have no accelerator
    (the scalar core); vector and Gemmini configs join when their units land."""
    cases = []
    for program in discover():
        for soc in program.socs:
            if load_soc(soc).accelerator.kind != "none":
                continue
            cases.append(
                Case(
                    id=f"c:{program.name}@{soc}/rtl",
                    soc=soc,
                    target="rtl",
                    kind="c-program",
                    run=lambda workdir, p=program, s=soc: run_program(p, s, workdir, target="rtl"),
                )
            )
    return cases


def run_self_checking(
    program: CProgram, soc: str, workdir: Path, *, target: str = "iss", timeout_s: float = 120.0
) -> dict:
    """Build a self-checking program for ``soc`` and run it on Spike (``iss``) or the RTL (``rtl``):
    pass = exit code 0."""
    cfg = load_soc(soc)
    workdir.mkdir(parents=True, exist_ok=True)
    elf = build_elf([program.path], cfg, workdir / f"{program.name}.elf")
    case = f"gemmini:{program.name}"
    if target == "iss":
        outcome, result = run_iss(elf, cfg, case=case, timeout_s=timeout_s)
    elif target == "rtl":
        from sim.rtl_runner import run_rtl  # imported only here: it pulls in cocotb

        outcome = run_rtl(elf, cfg, workdir=workdir)
        describe_trap(outcome, check_elf(elf, cfg), cfg)
        result = make_result(outcome, soc=cfg, elf=elf, case=case)
    else:
        raise CosimError(f"unknown target {target!r}: use iss or rtl")
    (workdir / "uart.txt").write_text(outcome.uart)
    if outcome.ending == "exit" and not outcome.exited_ok:
        # The programs print one "FAIL ..." line per failed check: the first one says most.
        lines = outcome.uart.splitlines()
        fails = [line for line in lines if line.startswith("FAIL")]
        said = fails[0] if fails else (lines[-1] if lines else "")
        if said:
            more = f" ({len(fails)} FAIL lines)" if len(fails) > 1 else ""
            result["message"] = (
                f"{result.get('message', 'failed')}: {said!r}{more}; UART text in {workdir / 'uart.txt'}"
            )
    return result


def gemmini_verify_cases(target: str = "iss") -> list[Case]:
    """Case source for ``nox -s verify``: Gemmini's self-checking C programs on Spike (``iss``) or on the RTL."""
    return [
        Case(
            id=f"gemmini:{program.name}@{soc}/{target}",
            soc=soc,
            target=target,
            kind="gemmini-program",
            run=lambda workdir, p=program, s=soc: run_self_checking(p, s, workdir, target=target),
        )
        for program in discover(GEMMINI_PROGRAM_DIR, GEMMINI_SOCS)
        for soc in program.socs
    ]


def gemmini_verify_cases_rtl() -> list[Case]:
    """Case source: the same programs on the RTL of their configs (the /rtl variant beside each /iss case;
    gemmini-dim4's SoC is built once and cached)."""
    return gemmini_verify_cases("rtl")
