"""The pass registry (compiler/passes.py), the schedules, per-pass dumps and reproducers, `cosim passes`."""

from __future__ import annotations

import dataclasses
import json
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from compiler import compile_kernel, replay
from compiler.passes import PASSES, STAGES, PassResult
from compiler.pipeline import BACKENDS, PassError, schedule_for
from compiler.targets import target_for

torch = pytest.importorskip("torch")
from compiler.frontend import import_torch  # noqa: E402

COMPILER = Path(__file__).resolve().parent.parent / "compiler"
# Modules of the pass folders that are not passes: a backend's schedule (data), the
# translation + clang driver, Gemmini's RoCC encoder, its OS tiling plan, its pooled-conv
# layer plan and the values its plans share (used by its passes).
NOT_PASSES = {
    "compiler.rvv.schedule",
    "compiler.scalar.schedule",
    "compiler.llvm.codegen",
    "compiler.gemmini.rocc",
    "compiler.gemmini.output_stationary",
    "compiler.gemmini.pooling",
    "compiler.gemmini.plan_values",
}


@pytest.fixture(scope="module")
def mm_imported():
    g = torch.Generator().manual_seed(7)
    a, b = torch.randn(6, 20, generator=g), torch.randn(20, 16, generator=g)
    return import_torch(lambda a, b: a @ b + 1.0, (a, b), name="mm1")


def test_registry_lists_every_pass_module():
    modules = {
        "compiler." + ".".join(p.relative_to(COMPILER).with_suffix("").parts)
        for folder in ("rewrites", "rvv", "scalar", "llvm", "gemmini")
        for p in (COMPILER / folder).glob("*.py")
        if p.name != "__init__.py"
    }
    registered = {p.module for p in PASSES.values() if p.module.startswith("compiler.")}
    assert registered == modules - NOT_PASSES
    for p in PASSES.values():
        assert p.stage in STAGES and p.summary and p.name == p.name.lower(), p
    scheduled = set()
    for backend in BACKENDS.values():
        assert [s for s, _names in backend.stages] == list(STAGES), backend.name
        for stage, names in backend.stages:
            for name in names:
                assert PASSES[name].stage in (stage, "preprocess"), (backend.name, stage, name)  # canonicalize-cse
            scheduled.update(names)
    assert scheduled == set(PASSES), set(PASSES) - scheduled


def test_schedules_of_the_backends():
    rvv = dict(schedule_for(target_for("t1-small")))
    scalar = dict(schedule_for(target_for("rv32")))
    assert rvv["schedule"][:4] == ("generalize-named-ops", "window-views", "index-compare-narrowing", "memory-barriers")
    assert rvv["schedule"].index("tiling") < rvv["schedule"].index("vectorization")
    assert scalar["schedule"] == ()
    assert "data-pointer-noalias" in scalar["to-llvm"] and "data-pointer-noalias" not in rvv["to-llvm"]
    assert "explicit-vector-lengths" in rvv["llvm-ir"] and "explicit-vector-lengths" not in scalar["llvm-ir"]
    assert rvv["preprocess"] == scalar["preprocess"] and rvv["bufferize"] == scalar["bufferize"]


@pytest.mark.parametrize("soc", ["t1-small", "rv32"])
def test_dump_ir_writes_one_file_per_pass_in_run_order(mm_imported, soc, tmp_path):
    compile_kernel(mm_imported, soc, use_cache=False, dump_dir=tmp_path)
    runs = [(stage, name) for stage, names in schedule_for(target_for(soc)) for name in names]
    expected = [f"{n:02d}-{name}.{'ll' if stage == 'llvm-ir' else 'mlir'}" for n, (stage, name) in enumerate(runs, 1)]
    assert sorted(p.name for p in (tmp_path / "passes").iterdir()) == expected
    # the stage snapshots stay: the last pass of a stage wrote the stage's IR
    last_schedule = [f for f in expected if f.endswith("-lane-splats.mlir")] if soc == "t1-small" else []
    for f in last_schedule:
        assert (tmp_path / "passes" / f).read_text() == (tmp_path / "03-schedule.mlir").read_text()
    assert (tmp_path / "passes" / expected[-1]).read_text() == (tmp_path / "07-llvm22.ll").read_text()


def _raise_after(name: str):
    original = PASSES[name].run

    def run(module, target):
        original(module, target)
        raise RuntimeError(f"injected failure after {name}")

    return run


def _drop_forward_terminator(name: str):
    original = PASSES[name].run

    def run(module, target):
        result = original(module, target)
        with module.context:
            for op in module.body.operations:
                if op.operation.name == "func.func" and op.attributes["sym_name"].value == "forward":
                    block = op.regions[0].blocks[0]
                    list(block.operations)[-1].erase()  # func.return: a block without terminator
        return result

    return run


@pytest.mark.parametrize(
    ("name", "breaker", "kind", "in_dump"),
    [
        ("tiling", _raise_after, "failed", True),
        ("strided-gathers", _drop_forward_terminator, "produced invalid IR", False),
        ("output-copy-elimination", _drop_forward_terminator, "produced invalid IR", True),
    ],
)
def test_failing_pass_leaves_a_reproducer_that_replays_the_failure(
    mm_imported, name, breaker, kind, in_dump, tmp_path, monkeypatch, capsys
):
    monkeypatch.setitem(PASSES, name, dataclasses.replace(PASSES[name], run=breaker(name)))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where a reproducer without --dump-ir goes
    dump = tmp_path / "ir" if in_dump else None
    with pytest.raises(PassError) as info:
        compile_kernel(mm_imported, "t1-small", use_cache=False, dump_dir=dump)
    e = info.value
    message = str(e)
    assert f"pass {name!r} {kind}" in message and "lowering stage" in message, message
    assert e.command in message and str(e.reproducer) in message
    assert e.reproducer == dump / "reproducer" if dump is not None else e.reproducer.parent == tmp_path
    argv = shlex.split(e.command)
    assert argv[:3] == ["python", "-m", "compiler.replay"] and argv[3] == name
    source = Path(argv[-1])
    assert source.is_file() and source.parent == e.reproducer
    # replayed with the printed command (in this process, where the pass is still broken)
    capsys.readouterr()
    assert replay.main(argv[3:]) == 1
    assert str(e.failure) in capsys.readouterr().err
    # the input is the real one: with the pass repaired, the same command runs it cleanly
    monkeypatch.undo()
    out = tmp_path / "out.mlir"
    proc = subprocess.run(
        [sys.executable, *argv[1:], "-o", str(out)], capture_output=True, text=True, cwd=COMPILER.parent
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "func.func @forward" in out.read_text()


def test_replay_of_a_text_pass(tmp_path, capsys):
    ll = tmp_path / "k.ll"
    ll.write_text("define void @forward() {\n  ret void\n}\n")
    assert replay.main(["no-builtins", "--target", "rv32", str(ll)]) == 0
    assert '"no-builtins" {' in capsys.readouterr().out


def test_pass_result_is_uniform(mm_imported, monkeypatch):
    seen = {}
    for name, p in list(PASSES.items()):

        def run(module, target, p=p):
            result = p.run(module, target)
            seen[p.name] = result
            return result

        monkeypatch.setitem(PASSES, name, dataclasses.replace(p, run=run))
    compile_kernel(mm_imported, "t1-small", use_cache=False, dump_dir=None)
    assert all(isinstance(r, PassResult) for r in seen.values()), seen
    assert seen["tiling"].changed == len(seen["tiling"].report) >= 1


def test_cosim_passes_lists_every_pass(monkeypatch, capsys):
    from harness.cli import main

    assert main(["passes", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == list(PASSES)
    assert all(r["summary"] and r["stage"] for r in rows)
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["passes"]) == 0
    table = capsys.readouterr().out
    for p in PASSES.values():
        assert p.name in table and p.summary in table, p.name
    assert main(["passes", "--target", "t1-small", "--json"]) == 0
    order = [r["name"] for r in json.loads(capsys.readouterr().out)]
    assert order == [n for _stage, names in schedule_for(target_for("t1-small")) for n in names]
    assert main(["passes", "--target", "rv32"]) == 0
    assert "data-pointer-noalias" in capsys.readouterr().out
