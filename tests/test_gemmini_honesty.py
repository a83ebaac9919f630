"""A PyTorch case on a Gemmini config runs on the RV64 core only (no Gemmini compiler backend yet),
and `cosim verify`, result.json and the `nox -s verify` summary say so."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from rich.console import Console

from configs import load_soc
from harness import verify_suite
from harness.commands.verify import run_verify
from harness.results import RESULT_KEYS, write_json_atomic
from harness.verify import accelerator_use, verify

NOTE = "ran on the RV64 core only: no Gemmini compiler backend yet"


@pytest.fixture(scope="module")
def gemmini_result(tmp_path_factory):
    out = tmp_path_factory.mktemp("honesty") / "result.json"
    return verify("relu", "gemmini-dim4", on="iss", json_path=out), out


def test_verify_on_gemmini_says_it_ran_on_the_scalar_core(gemmini_result):
    result, path = gemmini_result
    assert result["status"] == "pass" and result["target"] == "iss" and result["soc"] == "gemmini-dim4"
    assert result["compile"]["strategy"] == "scalar"
    assert result["accelerator_used"] is False and result["note"] == NOTE
    assert tuple(result)[: len(RESULT_KEYS)] == RESULT_KEYS  # every fixed key kept, in order
    on_disk = json.loads(path.read_text())
    assert on_disk["accelerator_used"] is False and on_disk["note"] == NOTE


def test_cosim_verify_prints_the_note(monkeypatch, capsys, gemmini_result):
    result, _ = gemmini_result
    monkeypatch.setattr("harness.commands.verify.verify", lambda *a, **k: result)
    args = SimpleNamespace(case="relu", soc="gemmini-dim4", on="iss", json=None, dump_ir=None, workdir=None)
    assert run_verify(SimpleNamespace(**vars(args), print_json=False)) == 0
    out = capsys.readouterr().out
    assert "relu on gemmini-dim4 (iss): pass" in out and f"note: {NOTE}" in out


def test_suite_summary_carries_the_note(tmp_path, gemmini_result):
    result, _ = gemmini_result
    cases = [
        verify_suite.Case("torch:relu@gemmini-dim4/iss", "gemmini-dim4", "iss", "torch", None),
        verify_suite.Case("torch:relu@rv32/iss", "rv32", "iss", "torch", None),
    ]
    write_json_atomic(verify_suite.case_dir(tmp_path, cases[0].id) / "result.json", result)
    write_json_atomic(verify_suite.case_dir(tmp_path, cases[1].id) / "result.json", {"status": "pass"})
    console = Console(record=True, width=160, file=open("/dev/null", "w"))  # noqa: SIM115
    rows = verify_suite.summarize(cases, tmp_path, console)
    assert rows[0]["accelerator_used"] is False and rows[0]["note"] == NOTE
    assert rows[1]["accelerator_used"] is None and rows[1]["note"] == ""
    text = console.export_text()
    assert f"torch:relu@gemmini-dim4/iss: note: {NOTE}" in text
    assert "torch:relu@rv32/iss: note" not in text


def test_accelerator_use_by_config_and_strategy():
    assert accelerator_use(load_soc("rv32"), "scalar") == {}  # no accelerator: nothing to say
    assert accelerator_use(load_soc("t1-small"), "rvv") == {"accelerator_used": True}
    assert accelerator_use(load_soc("gemmini-dim16"), "gemmini") == {"accelerator_used": True}
    assert accelerator_use(load_soc("gemmini-dim16"), "scalar") == {"accelerator_used": False, "note": NOTE}
