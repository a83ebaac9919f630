"""cosim regress: status regressions and cycle deltas against a file or a git ref."""

import json
import subprocess

import pytest

from harness.cli import main
from harness.errors import CosimError
from harness.regress import compare, is_regression, load_baseline


def row(case, status="pass", cycles=1000, instret=500):
    return {"case": case, "soc": "rv32", "target": "rtl", "status": status, "cycles": cycles, "instret": instret}


def index(*rows):
    return {r["case"]: r for r in rows}


def test_classification():
    base = index(row("a"), row("b"), row("c", cycles=1000), row("d", status="mismatch"), row("e"))
    cur = index(row("a"), row("b", status="trap"), row("c", cycles=1100), row("d"), row("f"))
    kinds = {d.case: d.kind for d in compare(base, cur)}
    assert kinds == {"a": "same", "b": "regressed", "c": "slower", "d": "fixed", "e": "missing", "f": "new"}


def test_tolerance_and_faster():
    base, cur = index(row("a", cycles=1000)), index(row("a", cycles=1015))
    assert compare(base, cur, tolerance=0.02)[0].kind == "same"
    assert compare(base, cur, tolerance=0.01)[0].kind == "slower"
    assert compare(base, index(row("a", cycles=500)))[0].kind == "faster"


def test_is_regression():
    assert not is_regression(compare(index(row("a")), index(row("a"))))
    slower = compare(index(row("a", cycles=100)), index(row("a", cycles=200)))
    assert is_regression(slower)
    assert not is_regression(slower, fail_on_slower=False)


def test_baseline_from_git_ref(tmp_path):
    repo = tmp_path / "repo"
    (repo / "baselines").mkdir(parents=True)
    (repo / "baselines" / "summary.json").write_text(json.dumps([row("a", cycles=7)]))
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(repo)]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "baseline"], check=True)
    base = load_baseline("HEAD", repo=repo)
    assert base["a"]["cycles"] == 7
    with pytest.raises(CosimError, match="neither a file nor a git ref"):
        load_baseline("no-such-ref", repo=repo)


def test_cli_exit_codes(tmp_path):
    base, cur = tmp_path / "base.json", tmp_path / "cur.json"
    base.write_text(json.dumps([row("a"), row("b")]))
    cur.write_text(json.dumps([row("a"), row("b")]))
    assert main(["regress", "--baseline", str(base), "--results", str(cur)]) == 0
    cur.write_text(json.dumps([row("a"), row("b", status="mismatch")]))
    out = tmp_path / "delta.json"
    assert main(["regress", "--baseline", str(base), "--results", str(cur), "--json", str(out)]) == 1
    assert {d["case"]: d["kind"] for d in json.loads(out.read_text())}["b"] == "regressed"
    assert main(["regress", "--baseline", str(tmp_path / "nope.json"), "--results", str(cur)]) == 2


def test_cycles_report(tmp_path):
    from harness.cycles_report import main as report

    summary = tmp_path / "summary.json"
    summary.write_text(
        json.dumps([row("a@rv32/rtl", cycles=2000, instret=1000), row("b@rv32/rtl", status="trap", cycles=10)])
    )
    assert report([str(summary)]) == 0
    md = (tmp_path / "cycles.md").read_text()
    assert "| a@rv32/rtl | rv32 | rtl | pass | 2000 | 1000 | 0.500 |" in md
    assert (tmp_path / "cycles.png").stat().st_size > 1000
