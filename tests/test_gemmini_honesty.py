"""A PyTorch case on a Gemmini config whose program has nothing for Gemmini (relu: no int8 layer) runs on the
RV64 core only, and `cosim verify`, result.json and the `nox -s verify` summary say so."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from rich.console import Console

from configs import load_soc
from harness import c_programs, verify_suite
from harness.commands.verify import run_verify
from harness.results import RESULT_KEYS, write_json_atomic
from harness.verify import accelerator_use, verify

NOTE = (
    "ran on the RV64 core only: no int8 matmul, linear, bmm, conv2d or residual add in the program for Gemmini to run"
)


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


# ---------------------------------------------------------------- Gemmini's C programs in `nox -s verify`

BAD_MVIN = r"""
#include <stdint.h>
static int8_t buf[256];
int main(void) {
  uint64_t rs2 = ((uint64_t)17 << 48) | ((uint64_t)4 << 32) | 0x10;  /* 17 rows: more than DIM 4 */
  asm volatile(".insn r 0x7b, 3, 2, x0, %0, %1" :: "r"((uint64_t)(uintptr_t)buf), "r"(rs2) : "memory");
  return 0;
}
"""


def test_suite_lists_every_gemmini_program_on_gemmini_dim4():
    cases = c_programs.gemmini_verify_cases()
    names = sorted(p.stem for p in c_programs.GEMMINI_PROGRAM_DIR.glob("*.c"))
    assert names, "no Gemmini programs found"
    assert sorted(c.id for c in cases) == sorted(f"gemmini:{n}@gemmini-dim4/iss" for n in names)
    assert {(c.soc, c.target, c.kind) for c in cases} == {("gemmini-dim4", "iss", "gemmini-program")}
    assert "gemmini-programs" in verify_suite.CASE_SOURCES


@pytest.mark.parametrize(
    "source,status",
    [
        ("int main(void) { return 0; }\n", "pass"),
        ('#include <stdio.h>\nint main(void) { printf("ok a\\nFAIL b: 2 of 4\\n"); return 1; }\n', "error"),
        (BAD_MVIN, "trap"),
    ],
)
def test_self_checking_run_passes_on_exit_0_only(tmp_path, source, status):
    path = tmp_path / "prog.c"
    path.write_text(source)
    result = c_programs.run_self_checking(c_programs.CProgram(path, ("gemmini-dim4",)), "gemmini-dim4", tmp_path)
    assert result["status"] == status and result["soc"] == "gemmini-dim4"
    if status == "error":  # the first failed check is in the message
        assert "exited with code 1: 'FAIL b: 2 of 4'" in result["message"]
    if status == "trap":  # the harness names the Gemmini instruction and the model the refused field
        assert "gemmini mvin" in result["message"] and "rows" in result["trap"]["detail"]
