"""Perfetto traces (Chrome trace-event JSON) of RTL results: format, tracks, spans that add up."""

import json

import pytest

from harness.report.perfetto import BUSY_SUFFIX, main, trace


def check_format(data: dict) -> list[dict]:
    """What ui.perfetto.dev needs of a JSON trace; returns the span ("X") events."""
    assert set(data) >= {"traceEvents"} and data["otherData"]["time_unit"] == "1 simulated cycle = 1 us"
    events = data["traceEvents"]
    json.dumps(data)  # plain JSON
    assert {e["ph"] for e in events} <= {"X", "M"}
    for e in events:
        assert isinstance(e["pid"], int) and isinstance(e["tid"], int) and isinstance(e["name"], str)
    spans = [e for e in events if e["ph"] == "X"]
    for e in spans:
        # timestamps and durations in microseconds: whole cycles
        assert isinstance(e["ts"], int) and isinstance(e["dur"], int) and e["ts"] >= 0 and e["dur"] >= 0
    named = {(e["pid"], e["tid"]) for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    assert {(e["pid"], e["tid"]) for e in spans} <= named  # every span is on a named track
    return spans


def tracks(data: dict, pid: int) -> dict[str, int]:
    return {
        e["args"]["name"]: e["tid"]
        for e in data["traceEvents"]
        if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"] == pid
    }


def check_result(result: dict, data: dict, pid: int) -> None:
    spans = [e for e in check_format(data) if e["pid"] == pid]
    names = tracks(data, pid)
    run = [e for e in spans if e["tid"] == names["run"]]
    assert sum(e["dur"] for e in run) == result["cycles_total"]  # the run track tiles the whole run
    assert run[0]["ts"] == 0 and all(a["ts"] + a["dur"] == b["ts"] for a, b in zip(run, run[1:], strict=False))
    if result.get("cycles_forward"):
        assert [e["dur"] for e in run if e["name"] == "forward"] == [result["cycles_forward"]]
    regions = [p for p in result["profile"] if p["region"] != 1]
    on_regions = [e for e in spans if e["tid"] == names["regions"]]
    assert [(e["ts"], e["dur"]) for e in on_regions] == [(p["start"], p["cycles"]) for p in regions]
    # one track per unit busy at all, counted per region where regions have counters, else over the run
    windows = [p["counters"] for p in regions if p.get("counters")] or [result["counters"]]
    units = {k[: -len(BUSY_SUFFIX)] for c in windows for k, v in c.items() if k.endswith(BUSY_SUFFIX) and v}
    assert {n for n in names if n.startswith("busy: ")} == {f"busy: {u}" for u in units}
    for unit in units:  # the busy spans of a unit add up to its busy counter
        busy = sum(e["dur"] for e in spans if e["tid"] == names[f"busy: {unit}"])
        assert busy == sum(c.get(unit + BUSY_SUFFIX, 0) for c in windows)
    assert len(set(names.values())) == len(names)


def layered_result() -> dict:
    """A result record of the shape result.json has with per-layer profile entries."""
    return {
        "case": "torch:lenet5@gemmini-dim4/rtl",
        "target": "rtl",
        "cycles_total": 5000,
        "cycles_forward": 4000,
        "profile": [
            {"region": 1, "start": 600, "stop": 4600, "cycles": 4000, "name": "forward"},
            {
                "region": 2,
                "start": 600,
                "stop": 2600,
                "cycles": 2000,
                "name": "conv1",
                "where": "gemmini",
                "ops": ["conv2d"],
                "counters": {"gemmini_exec_busy_cycles": 900, "dmem_busy_cycles": 100, "cycles": 2000},
            },
            {
                "region": 3,
                "start": 2600,
                "stop": 4600,
                "cycles": 2000,
                "name": "relu",
                "where": "core",
                "ops": ["relu"],
                "counters": {"dmem_busy_cycles": 1500, "cycles": 2000},
            },
        ],
        "counters": {"gemmini_exec_busy_cycles": 900, "dmem_busy_cycles": 1700, "imem_busy_cycles": 3000},
    }


def test_trace_of_per_layer_profile():
    result = layered_result()
    data = trace([result, {"case": "x@rv32/iss", "cycles_total": None, "profile": []}])
    assert data["otherData"]["cases"] == [result["case"]]  # Spike runs have no cycles: left out
    check_result(result, data, pid=1)
    busy = {e["name"]: e for e in data["traceEvents"] if e["ph"] == "X" and "busy" in e["name"]}
    assert busy["gemmini_exec busy 45%"]["dur"] == 900 and busy["gemmini_exec busy 45%"]["ts"] == 600
    assert busy["dmem busy 75%"]["args"]["region"] == "relu"


@pytest.mark.slow
def test_trace_of_a_real_rtl_run(tmp_path, capsys):
    from harness.cli import main as cosim

    result_json, out = tmp_path / "result.json", tmp_path / "trace.json"
    args = ["verify", "relu", "--soc", "rv32", "--on", "rtl", "--json", str(result_json), "--perfetto", str(out)]
    assert cosim(args) == 0
    assert f"perfetto trace: {out}" in capsys.readouterr().out
    result = json.loads(result_json.read_text())
    check_result(result, json.loads(out.read_text()), pid=1)
    again = tmp_path / "again.json"
    assert main([str(result_json), "-o", str(again)]) == 0  # from the finished result.json: the same trace
    assert json.loads(again.read_text()) == json.loads(out.read_text())
    assert {"busy: imem", "busy: dmem"} <= set(tracks(json.loads(out.read_text()), 1))


def test_cosim_verify_perfetto_without_cycles(tmp_path, capsys, monkeypatch):
    """The option's plumbing (the real RTL run is the slow test above): a Spike run has no cycles, no trace."""
    import harness.commands.verify as verify_command
    from harness.cli import main as cosim

    iss = {"case": "relu", "soc": "rv32", "target": "iss", "status": "pass", "cycles_total": None, "profile": []}
    monkeypatch.setattr(verify_command, "verify", lambda *a, **k: dict(iss, instret=10))
    out = tmp_path / "t.json"
    assert cosim(["verify", "relu", "--soc", "rv32", "--on", "iss", "--perfetto", str(out)]) == 0
    assert "no trace (no cycle counts: run --on rtl)" in capsys.readouterr().out and not out.exists()
