"""The Gemmini-style array RTL (sim/rtl/gemmini) is Verilator -Wall clean for DIM 4, 8 and 16, module by
module and as the array, the scratchpad and the accumulator (at gemmini-dim4's and gemmini-dim16's sizes), the
unit's top and its helpers (gemmini_unit*.sv: at the configs' parameters; the whole unit's lint reports the top's
own files, the blocks have their owners' lint), and keeps to sim/rtl's rules (no DPI, real, delays, initial blocks
or simulation-only system tasks; the same pyslang check as tests/test_rtl_lint.py)."""

from __future__ import annotations

import subprocess

import pytest

from sim.gemmini.params import gemmini_params
from sim.tb.gemmini.build import RTL_DIR, RTL_SOURCES
from sim.tb.gemmini.mem_build import RTL_SOURCES as MEM_RTL_SOURCES
from sim.tb.gemmini.unit_build import UNIT_SOURCES, unit_parameters
from sim.verilator_tool import ensure_verilator_on_path

# the array's sources (package first), then the memories'
ALL_SOURCES = RTL_SOURCES + tuple(p for p in MEM_RTL_SOURCES if p not in RTL_SOURCES)


def lint(top: str, params: dict[str, int | str], sources=ALL_SOURCES) -> list[str]:
    ensure_verilator_on_path()
    cmd = [
        "verilator",
        "--lint-only",
        "-Wall",
        "--top-module",
        top,
        *[f"-G{k}={v}" for k, v in params.items()],
        *map(str, sources),
    ]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return [ln for ln in (r.stdout + r.stderr).splitlines() if ln.startswith("%")]


def test_sources_are_the_whole_directory():
    assert sorted(p for p in UNIT_SOURCES if p.parent == RTL_DIR) == sorted(RTL_DIR.glob("*.sv"))


@pytest.mark.parametrize("soc", ["gemmini-dim4", "gemmini-dim16"])
def test_unit_lint_wall_clean(soc):
    problems = lint("gemmini_unit", unit_parameters(soc), UNIT_SOURCES)
    own = [ln for ln in problems if "/gemmini_unit" in ln]
    assert not own, "\n".join(own)


@pytest.mark.parametrize(
    ("top", "params"),
    [
        ("gemmini_unit_decode", {"Dim": 4, "SpRows": 4096, "AccRows": 256}),
        ("gemmini_unit_decode", {"Dim": 16, "SpRows": 16384, "AccRows": 1024, "MaxBlockLen": 4, "MaxBlockLenAcc": 1}),
        ("gemmini_unit_sets", {"Dim": 8}),
        ("gemmini_unit_rob", {"Depth": 32, "Tags": 16}),
        ("gemmini_unit_arb", {"Dim": 4, "Banks": 4, "BankRows": 1024}),
        ("gemmini_unit_arb", {"Dim": 16, "Banks": 1, "BankRows": 256, "RowW": 512}),
    ],
)
def test_unit_helpers_lint_wall_clean(top, params):
    problems = lint(top, params, UNIT_SOURCES)
    own = [ln for ln in problems if "/gemmini_unit" in ln]
    assert not own, "\n".join(own)


@pytest.mark.parametrize("dim", [4, 8, 16])
@pytest.mark.parametrize("top", ["gemmini_array", "gemmini_mesh"])
def test_lint_wall_clean(top, dim):
    problems = lint(top, {"Dim": dim})
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("top", "params"), [("gemmini_pe", {}), ("gemmini_delay", {"Width": 3, "Depth": 0})])
def test_leaf_modules_lint_wall_clean(top, params):
    problems = lint(top, params)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("dim", [4, 8, 16])
@pytest.mark.parametrize("top", ["gemmini_spad", "gemmini_acc"])
def test_memories_lint_wall_clean(top, dim):
    """At DIM 4, 8, 16 with gemmini-dim4's banks and rows (DIM 16 also with gemmini-dim16's)."""
    sizes = [gemmini_params(s) for s in ("gemmini-dim4", "gemmini-dim16")]
    for p in sizes if dim == 16 else sizes[:1]:
        banks, rows = (p.sp_banks, p.sp_bank_rows) if top == "gemmini_spad" else (p.acc_banks, p.acc_bank_rows)
        problems = lint(top, {"Dim": dim, "Banks": banks, "BankRows": rows})
        assert not problems, "\n".join(problems)


def test_no_simulation_constructs():
    from pyslang.syntax import SyntaxTree
    from test_rtl_lint import violations  # the project's pyslang checker

    problems = [f"{f.name}: {v}" for f in UNIT_SOURCES for v in violations(SyntaxTree.fromFile(str(f)))]
    assert not problems, problems
