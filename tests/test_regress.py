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
    assert main(["regress", "--baseline", str(base), "--results", str(cur), "--out", str(tmp_path / "o")]) == 0
    cur.write_text(json.dumps([row("a"), row("b", status="mismatch")]))
    out = tmp_path / "delta.json"
    assert (
        main(
            [
                "regress",
                "--baseline",
                str(base),
                "--results",
                str(cur),
                "--json",
                str(out),
                "--out",
                str(tmp_path / "o"),
            ]
        )
        == 1
    )
    assert {d["case"]: d["kind"] for d in json.loads(out.read_text())}["b"] == "regressed"
    assert (
        main(
            ["regress", "--baseline", str(tmp_path / "nope.json"), "--results", str(cur), "--out", str(tmp_path / "o")]
        )
        == 2
    )


def test_cycles_report(tmp_path):
    from harness.report.cycles import main as report

    summary = tmp_path / "summary.json"
    summary.write_text(
        json.dumps([row("a@rv32/rtl", cycles=2000, instret=1000), row("b@rv32/rtl", status="trap", cycles=10)])
    )
    assert report([str(summary)]) == 0
    md = (tmp_path / "cycles.md").read_text()
    assert "| a@rv32/rtl | rv32 | rtl | pass | 2000 | 1000 | 0.500 |" in md
    assert (tmp_path / "cycles.png").stat().st_size > 1000


# --- issue 22: malformed and stale baselines, percentages, --update-baseline, --against errors ---


def write_run(results_dir, rows, config_hash="cafe"):
    """A summary.json with a result.json per case beside it, as the verify suite writes them."""
    from harness.verify_suite import case_dir

    results_dir.mkdir(parents=True, exist_ok=True)
    for r in rows:
        d = case_dir(results_dir, r["case"])
        d.mkdir(parents=True, exist_ok=True)
        (d / "result.json").write_text(json.dumps({"case": r["case"], "config_hash": config_hash, "rtl_hash": "r"}))
    (results_dir / "summary.json").write_text(json.dumps(rows))
    return results_dir / "summary.json"


def test_malformed_baseline_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('[{"case": "a", ')
    cur = write_run(tmp_path / "cur", [row("a")])
    assert main(["regress", "--baseline", str(bad), "--results", str(cur), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert f"{bad} is not valid JSON" in err and "Traceback" not in err
    bad.write_text(json.dumps([row("a", cycles="many")]))
    assert main(["regress", "--baseline", str(bad), "--results", str(cur), "--out", str(tmp_path / "o")]) == 2
    assert "cycles = 'many'" in capsys.readouterr().err


def test_stale_baseline_named_per_case(tmp_path, capsys):
    from harness.regress import load_results

    base = write_run(tmp_path / "base", [row("a"), row("b"), row("gone")], config_hash="old")
    cur = write_run(tmp_path / "cur", [row("a", cycles=5000), row("b")], config_hash="new")
    current = load_results(cur)
    assert current["a"]["config_hash"] == "new"  # provenance read from the case's result.json
    deltas = {d.case: d for d in compare(load_results(base), current, known_cases={"a", "b"})}
    assert deltas["a"].kind == "stale" and "config_hash old, now new" in deltas["a"].why
    assert deltas["gone"].kind == "stale" and "another case set" in deltas["gone"].why
    assert is_regression(list(deltas.values()))  # a slowdown would go unseen: stale fails by default
    assert not is_regression(list(deltas.values()), fail_on_stale=False)
    args = ["regress", "--baseline", str(base), "--results", str(cur), "--out", str(tmp_path / "o")]
    assert main(args) == 1  # `gone` is no case of this tree's registry either: stale, not missing
    out = capsys.readouterr().out
    assert "are stale" in out and "--allow-stale" in out
    md = (tmp_path / "o" / "regress.md").read_text()
    assert "| a | stale (baseline config_hash old, now new) | pass |" in md
    assert main([*args, "--allow-stale"]) == 0


def test_deltas_signed_with_percent(tmp_path):

    base = write_run(tmp_path / "base", [row("a", cycles=1000, instret=500), row("b", cycles=1000)])
    cur = write_run(tmp_path / "cur", [row("a", cycles=1010, instret=503), row("b", cycles=800)])
    out = tmp_path / "o"
    assert main(["regress", "--baseline", str(base), "--results", str(cur), "--out", str(out)]) == 0
    md = (out / "regress.md").read_text()
    assert "| a | same | pass | 1000 | 1010 | +10 | +1.00% | +3 |" in md
    assert "| b | faster | pass | 1000 | 800 | -200 | -20.00% | +0 |" in md
    assert (out / "regress.png").stat().st_size > 1000
    kinds = {d["case"]: (d["kind"], d["cycles_pct"]) for d in json.loads((out / "regress.json").read_text())}
    assert kinds["b"] == ("faster", -20.0)
    cur = write_run(tmp_path / "cur", [row("a", cycles=1100), row("b")])
    assert main(["regress", "--baseline", str(base), "--results", str(cur), "--out", str(out)]) == 1
    assert main(["regress", "--baseline", str(base), "--results", str(cur), "--out", str(out), "--allow-slower"]) == 0


def test_update_baseline(tmp_path, capsys):
    base = write_run(tmp_path / "base", [row("a", cycles=1000)])
    cur = write_run(tmp_path / "cur", [row("a", cycles=1200)])
    target = tmp_path / "baselines" / "summary.json"
    args = ["regress", "--baseline", str(base), "--results", str(cur), "--out", str(tmp_path / "o")]
    assert main([*args, "--update-baseline", "--baseline-path", str(target)]) == 0  # slower accepted
    recorded = json.loads(target.read_text())
    assert recorded[0]["cycles"] == 1200 and recorded[0]["config_hash"] == "cafe"
    broken = write_run(tmp_path / "broken", [row("a", status="mismatch")])
    args = ["regress", "--baseline", str(target), "--results", str(broken), "--out", str(tmp_path / "o")]
    assert main([*args, "--update-baseline", "--baseline-path", str(target)]) == 1
    assert "baseline not updated" in capsys.readouterr().out
    assert json.loads(target.read_text())[0]["status"] == "pass"


def test_baseline_and_against_are_alternatives(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["regress"])
    with pytest.raises(SystemExit):
        main(["regress", "--baseline", "x", "--against", "HEAD"])
    assert "not allowed with" in capsys.readouterr().err


def test_against_unknown_ref(capsys):
    assert main(["regress", "--against", "no-such-ref-xyz", "-k", "nothing"]) == 2
    assert "unknown git revision 'no-such-ref-xyz'" in capsys.readouterr().err


def test_cycles_report_layers_trace_and_deltas(tmp_path, capsys):
    from harness.report.cycles import main as report
    from harness.verify_suite import case_dir

    summary = write_run(tmp_path / "cycles", [row("q@gemmini-dim4/rtl", cycles=3000)])
    profile = [
        {"region": 1, "start": 100, "stop": 2900, "cycles": 2800},
        {"region": 2, "start": 100, "stop": 1100, "cycles": 1000, "name": "conv1"},
        {"region": 3, "start": 1100, "stop": 2900, "cycles": 1800, "name": "fc"},
    ]
    record = {"case": "q@gemmini-dim4/rtl", "cycles_total": 3000, "profile": profile, "counters": {}}
    (case_dir(summary.parent, "q@gemmini-dim4/rtl") / "result.json").write_text(json.dumps(record))
    base = write_run(tmp_path / "base", [row("q@gemmini-dim4/rtl", cycles=2000)])
    assert report([str(summary), "--baseline", str(base)]) == 0
    assert (tmp_path / "cycles" / "layers.png").stat().st_size > 1000
    trace = json.loads((tmp_path / "cycles" / "trace.json").read_text())
    assert {e["name"] for e in trace["traceEvents"] if e["ph"] == "X"} >= {"forward", "conv1", "fc"}
    assert (
        "| q@gemmini-dim4/rtl | slower | pass | 2000 | 3000 | +1000 | +50.00% | +0 |"
        in (tmp_path / "cycles" / "deltas.md").read_text()
    )
    assert (tmp_path / "cycles" / "deltas.png").stat().st_size > 1000
