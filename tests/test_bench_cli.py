"""`python -m harness.bench`: its own options, and a benchmark's options passed on to it."""

import types

from harness import bench


def test_a_benchmarks_option_is_passed_on_not_read_as_only(monkeypatch):
    """`nox -s bench -- --only markers --on rtl` (harness/quant/README.md): `--on` is
    bench_markers' option; abbreviated to `--only` it ran the rtl benchmark instead."""
    calls = []
    fake = types.SimpleNamespace(run=lambda rest: calls.append(list(rest)))
    monkeypatch.setattr(bench.importlib, "import_module", lambda name: fake)
    assert bench.main(["--only", "markers", "--on", "rtl"]) == 0
    assert calls == [["--on", "rtl"]]
