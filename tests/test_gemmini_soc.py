"""The Gemmini unit attached to the SoC (issue 18, SoC attach), without running programs on the RTL:

- the build passes sim/gemmini/params.py's numbers through tb_top and cosim_soc to gemmini_unit, and refuses
  configs the RTL cannot build with a SimError naming the config key;
- cosim_soc and the core are Verilator -Wall clean with the Gemmini unit (and still without it);
- the core's ordering parameter: only a Gemmini SoC sets it (custom instructions = memory kind 00 there);
- the trap report of a refused instruction (sim/gemmini_refusal.gemmini_refusal) names every reason code the unit
  can give, and its replay through the functional model gives the model's own text or says it disagrees;
- the hang report names the PC, the cycle and the accelerator instructions in flight.

Programs on the RTL: tests/test_gemmini_rtl_programs.py.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from configs import load_soc
from sim.errors import SimError
from sim.gemmini.params import gemmini_params
from sim.gemmini_refusal import GEMMINI_ILLEGAL, gemmini_illegal_names, gemmini_refusal
from sim.rtl_runner import outcome_of
from sim.soc_parameters import soc_parameters
from sim.tb_report import TbReport, parse_report
from sim.verilator_build import RTL_DIR, TB_DIR, rtl_sources
from sim.verilator_tool import ensure_verilator_on_path

SOC = "gemmini-dim4"
GEMMINI_KEYS = (
    "Dim",
    "SpRows",
    "AccRows",
    "SpBanks",
    "AccBanks",
    "DmaBytes",
    "DmaMaxBytes",
    "MaxBlockLen",
    "MaxBlockLenAcc",
    "HasWs",
    "HasOs",
)


def _parameters_of(path: Path, module: str) -> set[str]:
    """Parameter names in the #( ... ) list of ``module`` in ``path``."""
    text = path.read_text()
    m = re.search(rf"module\s+{module}\b.*?#\((.*?)^\)\s*\(", text, re.S | re.M)  # the list closes at a line start
    assert m, f"no parameter list of {module} in {path}"
    return set(re.findall(r"parameter\s+(?:int\s+unsigned|bit|logic\s*\[[^]]*\])\s+(\w+)", m.group(1)))


@pytest.mark.parametrize("soc", ["gemmini-dim4", "gemmini-dim16"])
def test_build_parameters_are_params_py(soc):
    p = gemmini_params(soc)
    params = soc_parameters(load_soc(soc))
    expected = {
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
    assert {k: params[k] for k in GEMMINI_KEYS} == expected
    assert params["Accel"] == 2
    assert params["AccDataW"] == max(64, 8 * p.dma_bytes)


def test_parameters_reach_the_unit():
    """Every build parameter is a tb_top parameter, tb_top passes each Gemmini one to cosim_soc, and cosim_soc
    passes each to gemmini_unit (which declares them all)."""
    params = soc_parameters(load_soc(SOC))
    assert set(params) <= _parameters_of(TB_DIR / "tb_top.sv", "tb_top")
    soc_sv = RTL_DIR / "soc" / "cosim_soc.sv"
    assert set(GEMMINI_KEYS) | {"MemOutstanding"} <= _parameters_of(soc_sv, "cosim_soc")
    assert set(GEMMINI_KEYS) <= _parameters_of(RTL_DIR / "gemmini" / "gemmini_unit.sv", "gemmini_unit")
    tb = (TB_DIR / "tb_top.sv").read_text()
    soc_text = soc_sv.read_text()
    unit_inst = soc_text[
        soc_text.index("gemmini_unit #(") : soc_text.index(") u_acc", soc_text.index("gemmini_unit #("))
    ]
    for key in GEMMINI_KEYS:
        assert re.search(rf"\.{key}\s*\(\s*{key}\s*\)", tb), f"tb_top does not pass {key} to cosim_soc"
        assert re.search(rf"\.{key}\s*\(\s*{key}\s*\)", unit_inst), f"cosim_soc does not pass {key} to gemmini_unit"
    assert re.search(r"\.progress_o\s*\(\s*acc_progress\s*\)", soc_text), "progress_o is not the watchdog's"


def test_other_socs_have_no_gemmini_parameters():
    for soc in ("rv64", "t1-small"):
        assert not set(GEMMINI_KEYS) & set(soc_parameters(load_soc(soc)))


@pytest.mark.parametrize(
    ("edit", "key"),
    [
        ({"loop_conv": "true"}, "loop_conv"),
        ({"dma_max_bytes": "8"}, "dma_max_bytes"),  # an int32 row of DIM 4 is 16 bytes
        ({"dma_bytes": "128", "dma_max_bytes": "128"}, "dma_bytes"),  # a 1024-bit amem port
        ({"dim": "128", "dma_max_bytes": "512", "scratchpad_kib": "256", "accumulator_kib": "256"}, "dim"),
    ],
)
def test_unbuildable_config_names_the_key(edit, key, tmp_path):
    src = load_soc(SOC).path.read_text()
    for k, v in edit.items():
        src, n = re.subn(rf"^{k}\s*=.*$", f"{k} = {v}", src, count=1, flags=re.M)
        assert n == 1, k
    src = src.replace(f'name = "{SOC}"', 'name = "gemmini-bad"')
    path = tmp_path / "gemmini-bad.toml"
    path.write_text(src)
    with pytest.raises(SimError, match=rf"accelerator\.{key} = "):
        soc_parameters(load_soc(str(path)))


def _lint(soc: str) -> list[str]:
    ensure_verilator_on_path()
    cfg = load_soc(soc)
    params = {k: v for k, v in soc_parameters(cfg).items() if k != "MemLatency"}
    cmd = [
        "verilator",
        "--lint-only",
        "-Wall",
        "--top-module",
        "cosim_soc",
        *[f"-G{k}={v}" for k, v in params.items()],
        *map(str, rtl_sources(cfg)),
    ]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return [ln for ln in (r.stdout + r.stderr).splitlines() if ln.startswith("%")]


@pytest.mark.parametrize("soc", ["gemmini-dim4", "t1-small"])  # rv32/rv64: tests/test_rtl_lint.py
def test_soc_and_core_lint_wall_clean(soc):
    lines = _lint(soc)
    ours = [ln for ln in lines if "/rtl/soc/" in ln or "/rtl/core/" in ln]
    assert not ours, "\n".join(ours)
    errors = [ln for ln in lines if ln.startswith("%Error") and "Exiting due to" not in ln]
    assert not errors, "\n".join(lines)


def test_only_gemmini_orders_custom_instructions_by_fence_alone():
    core = (RTL_DIR / "core" / "cosim_core.sv").read_text()
    assert re.search(r"parameter\s+bit\s+CustomFenceOnly\s*=\s*1'b0", core), "the default must be today's ordering"
    tracker = (RTL_DIR / "core" / "core_cop_tracker.sv").read_text()  # where the ordering kind is decided
    assert re.search(r"parameter\s+bit\s+CustomFenceOnly\s*=\s*1'b0", tracker)
    assert re.search(r"kind\s*=\s*CustomFenceOnly\s*\?\s*2'b00\s*:\s*2'b11", tracker)
    assert re.search(r"\.CustomFenceOnly\s*\(\s*CustomFenceOnly\s*\)", core), "the core passes it on"
    soc = (RTL_DIR / "soc" / "cosim_soc.sv").read_text()
    assert re.search(r"\.CustomFenceOnly\s*\(\s*Accel\s*==\s*2\s*\)", soc)


# ---------------------------------------------------------------------------
# Trap report of a refused Gemmini instruction
# ---------------------------------------------------------------------------

MVIN, CONFIG, MVOUT = 2, 0, 3


def _word(funct: int) -> int:
    """A custom-3 word with rs1 = x10, rs2 = x11, funct3 011 (no rd)."""
    return (funct << 25) | (11 << 20) | (10 << 15) | (0b011 << 12) | 0x7B


def _code(name: str) -> int:
    return {n: c for c, n in gemmini_illegal_names().items()}[name]


def test_every_reason_code_has_a_text():
    names = set(gemmini_illegal_names().values())
    assert "IllNone" in names and len(names) > 10, names
    assert names - {"IllNone"} <= set(GEMMINI_ILLEGAL), sorted(names - {"IllNone"} - set(GEMMINI_ILLEGAL))


def _report(issues, refused) -> TbReport:
    rep = TbReport(ending="exit", complete=True)
    rep.gemmini_issues = list(issues)
    rep.gemmini_refused = [refused]
    return rep


def test_refusal_detail_is_the_models_text_after_a_replay():
    """config_ld (accepted) sets a stride; a mvin of DIM + 1 rows is refused: the model (after the replay) says
    `rows = 5 exceeds DIM = 4`, as Spike does; the RTL's code agrees."""
    soc = load_soc(SOC)
    cfg = (0x2000_1000, _word(CONFIG), 0x1, 4)  # config_ld id 0, stride 4
    rows5 = (5 << 48) | (4 << 32) | 0x0
    rep = _report([cfg], (0x2000_1004, _word(MVIN), 0x4000_0000, rows5, _code("IllRows"), 1))
    found = gemmini_refusal(rep, soc, 0x2000_1004)
    assert found is not None
    assert found.detail == "rows = 5 exceeds DIM = 4"
    assert found.disassembly.startswith("gemmini mvin dram=0x40000000 sp=0x00000000 rows 5 cols 4")
    assert gemmini_refusal(rep, soc, 0x2000_1008) is None  # no refusal at another PC


def test_refusal_detail_flags_a_disagreement():
    soc = load_soc(SOC)
    rows5 = (5 << 48) | (4 << 32)
    # the RTL names another check than the model
    rep = _report([], (0x100, _word(MVIN), 0x4000_0000, rows5, _code("IllSpRange"), 0))
    found = gemmini_refusal(rep, soc, 0x100)
    assert found is not None and "the RTL refused it for another reason" in found.detail, found
    # the model accepts what the RTL refused
    ok = (4 << 48) | (4 << 32)
    rep = _report([], (0x100, _word(MVIN), 0x4000_0000, ok, _code("IllRows"), 0))
    found = gemmini_refusal(rep, soc, 0x100)
    assert found is not None and "the functional model accepts this instruction" in found.detail, found
    # a history cut short (more accepted instructions than the test bench kept) is said so
    rep = _report([], (0x100, _word(MVIN), 0x4000_0000, rows5, _code("IllRows"), 3))
    rep.gemmini_issues_kept = 1
    found = gemmini_refusal(rep, soc, 0x100)
    assert found is not None and found.detail.startswith("rows exceed DIM") and "needs the 3" in found.detail


def test_result_file_round_trip(tmp_path):
    """tb_dpi.cpp's lines for refusals, the accepted history and the hang note parse back."""
    (tmp_path / "result.txt").write_text(
        "ending watchdog\ncycle 1234\npc 0x20001040\ninstret 99\ncop_inflight 3\n"
        "gemmini_refused 0x20001044 0x0cb5b07b 0x40000000 0x5000400000000 12 1\n"
        "gemmini_issue 0x20001040 0x00b5b07b 0x1 0x4\ngemmini_issues_kept 1\nend\n"
    )
    rep = parse_report(tmp_path / "result.txt")
    assert rep.complete and rep.cop_inflight == 3 and rep.gemmini_issues_kept == 1
    assert rep.gemmini_refused == [(0x20001044, 0x0CB5B07B, 0x4000_0000, 0x5_0004_0000_0000, 12, 1)]
    assert rep.gemmini_issues == [(0x20001040, 0x00B5B07B, 1, 4)]
    out = outcome_of(rep, tmp_path / "x.elf", load_soc(SOC), "", 1.0, SimpleNamespace(rtl_hash="h"), 500)
    assert out.ending == "timeout"
    assert "pc 0x0000000020001040, cycle 1234" in out.message, out.message
    assert "3 Gemmini instruction(s) accepted and not completed" in out.message, out.message
