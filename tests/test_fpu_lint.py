"""sim/rtl/fpu is synthesizable and clean: Verilator -Wall lint passes, and no file
uses DPI, real types, delays or simulation-only system tasks (checked on the pyslang
syntax tree, so comments and strings cannot fool it)."""

from __future__ import annotations

import subprocess

import pytest
from pyslang.syntax import SyntaxKind, SyntaxTree

from sim.tb.fpu.build import FPU_RTL_SOURCES, RTL_DIR, verilator_command

FORBIDDEN_KINDS = {
    SyntaxKind.DPIImport: "DPI import",
    SyntaxKind.DPIExport: "DPI export",
    SyntaxKind.DelayControl: "delay",
    SyntaxKind.RealType: "real",
    SyntaxKind.ShortRealType: "shortreal",
    SyntaxKind.RealTimeType: "realtime",
    SyntaxKind.InitialBlock: "initial block",
}
ALLOWED_SYSTEM_CALLS = {"$clog2", "$signed", "$unsigned", "$bits"}


def violations(tree: SyntaxTree) -> list[str]:
    found: list[str] = []

    def visit(node) -> None:
        kind = node.kind
        if kind in FORBIDDEN_KINDS:
            found.append(FORBIDDEN_KINDS[kind])
        elif kind == SyntaxKind.SystemName:
            name = str(node).strip()
            if name not in ALLOWED_SYSTEM_CALLS:
                found.append(f"system call {name}")

    tree.root.visit(visit)
    return found


def test_source_list_is_complete() -> None:
    assert set(FPU_RTL_SOURCES) == set(RTL_DIR.glob("*.sv")), "build.FPU_RTL_SOURCES must list every FPU file"


@pytest.mark.parametrize("path", FPU_RTL_SOURCES, ids=lambda p: p.name)
def test_no_simulation_only_constructs(path) -> None:
    tree = SyntaxTree.fromFile(str(path))
    assert violations(tree) == [], f"{path.name}: not allowed in sim/rtl"


def test_checker_catches_forbidden_constructs() -> None:
    bad = SyntaxTree.fromText(
        'module m; import "DPI-C" function int f(); real r; always_comb begin #1; $display("x"); end endmodule'
    )
    assert set(violations(bad)) >= {"DPI import", "real", "delay", "system call $display"}


def test_verilator_lint_wall_clean() -> None:
    cmd = [verilator_command(), "--lint-only", "-Wall", "--top-module", "cosim_fpu", *map(str, FPU_RTL_SOURCES)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
