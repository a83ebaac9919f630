"""sim/rtl stays synthesizable: no DPI, no real/shortreal, no delays, no $display
or other simulation-only system tasks (pyslang syntax trees; the `ifdef COSIM_ASSERT
assertion blocks are left out, as synthesis leaves them), and the core and SoC are
Verilator -Wall clean, assertions included, for every XLEN and memory width they
are built with."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from pyslang.syntax import SyntaxKind, SyntaxTree

from configs import load_soc
from sim.verilator_build import ASSERT_FLAGS, RTL_DIR, rtl_sources
from sim.verilator_tool import ensure_verilator_on_path

FORBIDDEN_KINDS = {
    SyntaxKind.DPIImport: "DPI import",
    SyntaxKind.DPIExport: "DPI export",
    SyntaxKind.DelayControl: "delay",
    SyntaxKind.CycleDelay: "cycle delay",
    SyntaxKind.RealType: "real",
    SyntaxKind.ShortRealType: "shortreal",
    SyntaxKind.RealTimeType: "realtime",
    SyntaxKind.InitialBlock: "initial block",
}
# Constant functions, and $error as an elaboration-time check in a generate branch.
ALLOWED_SYSTEM_CALLS = {"$clog2", "$signed", "$unsigned", "$bits", "$error"}
OWN_DIRS = ("core", "soc")


def violations(tree: SyntaxTree) -> list[str]:
    found: list[str] = []

    def visit(node) -> None:
        if node.kind in FORBIDDEN_KINDS:
            found.append(FORBIDDEN_KINDS[node.kind])
        elif node.kind == SyntaxKind.SystemName and str(node).strip() not in ALLOWED_SYSTEM_CALLS:
            found.append(f"system call {str(node).strip()}")

    tree.root.visit(visit)
    return found


def _violations(path: Path) -> list[str]:
    return [f"{path.relative_to(RTL_DIR)}: {v}" for v in violations(SyntaxTree.fromFile(str(path)))]


def test_checker_finds_forbidden_constructs():
    bad = SyntaxTree.fromText(
        'module bad; import "DPI-C" function int f(); real r; logic a;\n'
        'always @(a) begin #5 a = 1; $display("x"); end endmodule\n'
    )
    assert set(violations(bad)) >= {"DPI import", "real", "delay", "system call $display"}


def test_core_and_soc_have_no_simulation_constructs():
    files = [f for d in OWN_DIRS for f in sorted((RTL_DIR / d).glob("*.sv"))]
    assert len(files) >= 8
    problems = [v for f in files for v in _violations(f)]
    assert not problems, problems


def test_all_of_sim_rtl_has_no_simulation_constructs():
    problems = [v for f in sorted(RTL_DIR.rglob("*.sv")) for v in _violations(f)]
    assert not problems, problems


@pytest.mark.parametrize(("soc", "width"), [("rv32", 32), ("rv64", 64), ("rv32", 128)])
def test_verilator_lint_wall_clean(soc, width):
    ensure_verilator_on_path()
    cfg = load_soc(soc)
    cmd = [
        "verilator",
        "--lint-only",
        "-Wall",
        "--top-module",
        "cosim_soc",
        f"-GXLEN={cfg.xlen}",
        f"-GDataW={width}",
        *ASSERT_FLAGS,
        *map(str, rtl_sources(cfg)),
    ]
    out = subprocess.run(cmd, capture_output=True, text=True)
    text = out.stdout + out.stderr
    ours = [ln for ln in text.splitlines() if ln.startswith("%") and any(f"/rtl/{d}/" in ln for d in OWN_DIRS)]
    assert not ours, "\n".join(ours)
    errors = [ln for ln in text.splitlines() if ln.startswith("%Error") and "Exiting due to" not in ln]
    assert not errors, text
