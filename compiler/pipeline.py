"""The lowering pipeline: a backend's schedule of registered passes, run stage by stage.

Linalg-on-tensors to the LLVM dialect (stages ``preprocess``, ``bufferize``,
``schedule``, ``to-loops``, ``to-llvm``), then the LLVM IR text clang gets (stage
``llvm-ir``, :func:`finish_llvm_ir`). Each pass is looked up in ``compiler.passes``
by name; the IR is verified after every pass. With a dump directory, each stage's
IR is written as ``NN-<stage>.mlir`` and each pass's as ``passes/NN-<pass>.mlir``
(``.ll`` in the ``llvm-ir`` stage), in run order. A pass that raises or leaves
invalid IR is named in the error (:class:`PassError`), which also writes a
reproducer: the pass's input IR, the target, and the command that replays that
pass alone (``python -m compiler.replay``), into ``<dump>/reproducer`` or a
temporary directory the message names.
"""

from __future__ import annotations

import dataclasses
import json
import shlex
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from torch_mlir import ir

from compiler import passes as registry
from compiler.errors import CompileError
from compiler.gemmini import GEMMINI
from compiler.passes import Backend, LLVMText, PassResult
from compiler.rvv.schedule import RVV
from compiler.scalar.schedule import SCALAR
from compiler.targets import Target

BACKENDS: dict[str, Backend] = {"rvv": RVV, "scalar": SCALAR, "gemmini": GEMMINI}
LLVM_IR_STAGE = "llvm-ir"


@dataclass
class ScheduleReport:
    """What the schedule stage did to each linalg op (for coverage and tests)."""

    ops: list[dict] = field(default_factory=list)

    @property
    def vectorized(self) -> int:
        return sum(1 for o in self.ops if o["vectorized"])

    def mark_declined(self, module) -> None:
        """Whatever linalg op is still there after the schedule was not vectorized (its
        loops stay scalar)."""
        from compiler.rvv.tiling import untiled_ops

        left = untiled_ops(module)
        for entry in self.ops:
            if entry["op"] in left and entry["vectorized"]:
                entry["vectorized"] = False
                entry["reason"] += "; the vectorizer declined it (scalar loops)"


def backend_for(target: Target) -> Backend:
    return BACKENDS[target.strategy]


def schedule_for(target: Target) -> list[tuple[str, tuple[str, ...]]]:
    """Every stage ``target`` gets with its pass names, in run order (``llvm-ir`` last)."""
    return list(backend_for(target).stages)


def _mlir_stages(target: Target) -> list[tuple[str, tuple[str, ...]]]:
    return [(s, names) for s, names in schedule_for(target) if s != LLVM_IR_STAGE]


def stage_names(target: Target) -> list[str]:
    """The MLIR stages (each dumped as ``NN-<stage>.mlir``)."""
    return [s for s, _names in _mlir_stages(target)]


class PassFailure(Exception):
    """A pass raised (``kind`` "failed") or left IR that does not verify ("produced invalid IR")."""

    def __init__(self, name: str, kind: str, detail: str):
        super().__init__(f"pass {name!r} {kind}: {detail}")
        self.name, self.kind, self.detail = name, kind, detail


class PassError(CompileError):
    """A pass failed inside ``lower``; ``reproducer`` is the directory with its input IR,
    ``command`` the command line that replays the pass alone."""

    def __init__(self, message: str, failure: PassFailure, reproducer: Path | None, command: str | None):
        super().__init__(message)
        self.failure, self.reproducer, self.command = failure, reproducer, command


def _first_lines(text: str, n: int = 8) -> str:
    return "\n".join(text.strip().splitlines()[:n])


def verify(module) -> str | None:
    """None if ``module`` verifies, else the verifier's first lines."""
    try:
        ok = module.operation.verify()
    except ir.MLIRError as e:
        return " ".join(str(e).splitlines()[:6])
    return None if ok else "the verifier said no"


def apply_pass(module, name: str, target: Target) -> PassResult:
    """Run registered pass ``name``, then verify the IR (MLIR passes); raise
    :class:`PassFailure` naming the pass if it raised or left invalid IR.
    A :class:`CompileError` (a program the compiler refuses) passes through."""
    p = registry.get(name)
    try:
        result = p.run(module, target)
    except CompileError:
        raise
    except Exception as e:
        raise PassFailure(name, "failed", _first_lines(str(e)) or type(e).__name__) from e
    if p.mlir:
        problem = verify(module)
        if problem is not None:
            raise PassFailure(name, "produced invalid IR (a compiler bug)", problem)
    return result if isinstance(result, PassResult) else PassResult()


def _write_reproducer(
    failure: PassFailure, target: Target, input_text: str, suffix: str, dump: Path | None
) -> tuple[Path, str]:
    if dump is not None:
        d = dump / "reproducer"
        d.mkdir(parents=True, exist_ok=True)
    else:
        d = Path(tempfile.mkdtemp(prefix=f"cosim-reproducer-{failure.name}-"))
    source = d / f"{failure.name}.input{suffix}"
    source.write_text(input_text)
    target_file = d / "target.json"
    target_file.write_text(json.dumps(dataclasses.asdict(target), indent=1) + "\n")
    command = shlex.join(["python", "-m", "compiler.replay", failure.name, "--target", str(target_file), str(source)])
    (d / "replay.sh").write_text(f"#!/bin/sh\n# {failure}\n{command}\n")
    (d / "error.txt").write_text(str(failure) + "\n")
    return d, command


def _input_of(mlir_text: str, target: Target, before: list[str]) -> str:
    """The IR a failed pass got: the passes before it replayed on a fresh module."""
    ctx = ir.Context()
    ctx.allow_unregistered_dialects = False
    with ctx:
        module = ir.Module.parse(mlir_text)
    for name in before:
        registry.get(name).run(module, target)
    return module.operation.get_asm(enable_debug_info=True)


def _fail(failure: PassFailure, stage: str, target: Target, input_text, suffix: str, dump: Path | None):
    try:
        d, command = _write_reproducer(failure, target, input_text(), suffix, dump)
    except Exception as e:  # the reproducer is a courtesy: never hide the pass's own error
        d, command, where = None, None, f" (no reproducer: {_first_lines(str(e), 2)})"
    else:
        where = f"\nreproducer in {d}: {command}"
    raise PassError(
        f"lowering stage {stage!r}, pass {failure.name!r} {failure.kind} for {target.soc}: {failure.detail}{where}",
        failure,
        d,
        command,
    ) from failure


@dataclass
class Lowered:
    module: object  # torch_mlir.ir.Module in the LLVM dialect
    report: ScheduleReport
    stage_seconds: dict[str, float]
    passes_run: list[str] = field(default_factory=list)


def lower(mlir_text: str, target: Target, *, dump_dir: str | Path | None = None, first_index: int = 1) -> Lowered:
    """Run every MLIR stage of ``target``'s schedule on a fresh context; dump IR after
    each stage and each pass if asked."""

    ctx = ir.Context()
    ctx.allow_unregistered_dialects = False
    try:
        with ctx:
            module = ir.Module.parse(mlir_text)
    except Exception as e:
        raise CompileError(f"the frontend's IR does not parse: {e}") from None
    report = ScheduleReport()
    times: dict[str, float] = {}
    dump = Path(dump_dir) if dump_dir else None
    if dump:
        (dump / "passes").mkdir(parents=True, exist_ok=True)
    done: list[str] = []
    for n, (stage, names) in enumerate(_mlir_stages(target), start=first_index):
        t0 = time.perf_counter()
        for name in names:
            try:
                result = apply_pass(module, name, target)
            except PassFailure as f:
                _fail(f, stage, target, lambda: _input_of(mlir_text, target, done), ".mlir", dump)
            report.ops.extend(result.report)
            done.append(name)
            if dump:
                text = module.operation.get_asm(enable_debug_info=False)
                (dump / "passes" / f"{len(done):02d}-{name}.mlir").write_text(text)
        if stage == "schedule" and report.ops:
            report.mark_declined(module)
        times[stage] = time.perf_counter() - t0
        if dump:
            (dump / f"{n:02d}-{stage}.mlir").write_text(module.operation.get_asm(enable_debug_info=False))
    return Lowered(module, report, times, done)


def finish_llvm_ir(text: str, target: Target, *, dump_dir: str | Path | None = None, first_index: int = 1) -> str:
    """The ``llvm-ir`` stage: translated LLVM IR text to what clang gets. With a dump
    directory, each pass's output is ``passes/NN-<pass>.ll`` from ``first_index`` on."""

    holder = LLVMText(text)
    names = dict(schedule_for(target)).get(LLVM_IR_STAGE, ())
    for n, name in enumerate(names, start=first_index):
        before = holder.text
        try:
            apply_pass(holder, name, target)
        except PassFailure as f:
            _fail(f, LLVM_IR_STAGE, target, lambda before=before: before, ".ll", Path(dump_dir) if dump_dir else None)
        if dump_dir:
            (Path(dump_dir) / "passes").mkdir(parents=True, exist_ok=True)
            (Path(dump_dir) / "passes" / f"{n:02d}-{name}.ll").write_text(holder.text)
    return holder.text
