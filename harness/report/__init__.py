"""harness.report: every report a run produces, from its result records.

summary   the verify suite's summary table (terminal, summary.txt)
cycles    cycles.md, the cycle report's entry point (python -m harness.report.cycles), deltas.md
regress   cosim regress's terminal table and regress.md
coverage  coverage.md
sweep     sweep.md and sweep.json
plots     every PNG: cycles, layers, deltas, sweep
perfetto  trace.json for ui.perfetto.dev (python -m harness.report.perfetto)
"""
