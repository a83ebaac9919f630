"""`nox -s verify` machinery: case sources, parallel run, JUnit XML, summary files."""

from __future__ import annotations

import json
import textwrap
import xml.etree.ElementTree as ET

import pytest

from harness import verify_suite
from harness.errors import CosimError

FAKE_SOURCE = """
from harness.verify_suite import Case

def _result(status, code):
    def run(workdir):
        (workdir / "touched").write_text("x")
        return {"soc": "rv32", "target": "iss", "status": status, "exit_code": code, "instret": 42,
                "cycles_total": None}
    return run

def _boom(workdir):
    raise RuntimeError("case exploded")

def verify_cases():
    return [
        Case("fake:good@rv32/iss", "rv32", "iss", "fake", _result("pass", 0)),
        Case("fake:bad@rv32/iss", "rv32", "iss", "fake", _result("error", 3)),
        Case("fake:boom@rv32/iss", "rv32", "iss", "fake", _boom),
    ]
"""


@pytest.fixture
def fake_source(tmp_path, monkeypatch):
    (tmp_path / "fake_cases.py").write_text(textwrap.dedent(FAKE_SOURCE))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setenv(verify_suite.SOURCES_ENV, "fake_cases:verify_cases")
    monkeypatch.delenv(verify_suite.ONLY_ENV, raising=False)
    return "fake_cases:verify_cases"


def test_registered_sources_are_collected(fake_source, monkeypatch):
    ids = [c.id for c in verify_suite.collect_cases()]
    assert {"fake:good@rv32/iss", "fake:bad@rv32/iss"} <= set(ids)
    assert any(i.startswith("c:sort@rv32") for i in ids)  # the built-in C programs
    monkeypatch.setenv(verify_suite.ONLY_ENV, "nope")
    with pytest.raises(CosimError, match="unknown case source"):
        verify_suite.collect_cases()


def test_suite_writes_junit_and_summary(fake_source, tmp_path, monkeypatch):
    results = tmp_path / "results"
    code = verify_suite.main(["--workers", "2", "--results", str(results), "--source", fake_source])
    monkeypatch.delenv(verify_suite.ONLY_ENV, raising=False)
    assert code != 0  # two cases fail
    suite = ET.parse(results / "junit.xml").getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures")) == ("3", "2")
    rows = {r["case"]: r for r in json.loads((results / "summary.json").read_text())}
    assert rows["fake:good@rv32/iss"]["status"] == "pass" and rows["fake:good@rv32/iss"]["instret"] == 42
    assert rows["fake:bad@rv32/iss"]["status"] == "error"
    assert rows["fake:boom@rv32/iss"]["status"] == "error" and "exploded" in rows["fake:boom@rv32/iss"]["message"]
    text = (results / "summary.txt").read_text()
    assert "fake:good@rv32/iss" in text and "1/3 pass" in text
    assert (verify_suite.case_dir(results, "fake:good@rv32/iss") / "touched").is_file()


def test_duplicate_ids_are_rejected(tmp_path, monkeypatch):
    (tmp_path / "dup_cases.py").write_text(
        "from harness.verify_suite import Case\n"
        "def verify_cases():\n"
        "    return [Case('x', 'rv32', 'iss', 'k', None), Case('x', 'rv32', 'iss', 'k', None)]\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(verify_suite.SOURCES_ENV, "dup_cases:verify_cases")
    monkeypatch.setenv(verify_suite.ONLY_ENV, "dup_cases:verify_cases")
    with pytest.raises(CosimError, match="id 'x'"):
        verify_suite.collect_cases()
