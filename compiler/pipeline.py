"""The lowering pipeline: linalg-on-tensors to the LLVM dialect, as named stages."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from torch_mlir import ir

from compiler.errors import CompileError
from compiler.llvm.conversion import TO_LOOPS, to_llvm
from compiler.mlir_utils import (
    passes,
)
from compiler.rewrites.bufferization import bufferize
from compiler.rewrites.elementwise_fusion import fuse_elementwise
from compiler.rewrites.math_expansion import expand_math
from compiler.rvv.schedule import schedule_rvv
from compiler.targets import Target


@dataclass
class Stage:
    name: str
    run: Callable[[object], None]


@dataclass
class ScheduleReport:
    """What the schedule stage did to each linalg op (for coverage and tests)."""

    ops: list[dict] = field(default_factory=list)

    @property
    def vectorized(self) -> int:
        return sum(1 for o in self.ops if o["vectorized"])


# What MLIR's math-expand-ops rewrites for us: all it knows but ceil, whose
# expansion loses the sign of a -0.0 result (ceil(-0.5)); math_expansion does ceil.
MLIR_EXPANDED = "ctlz,tan,sinh,cosh,asinh,acosh,atanh,tanh,fma,exp2,powf,roundeven,round,rsqrt,fpowi"


def _preprocess(module) -> None:
    fuse_elementwise(module)
    passes(f"canonicalize,cse,func.func(math-expand-ops{{ops={MLIR_EXPANDED}}})")(module)
    expand_math(module)
    passes("canonicalize,cse")(module)


def build_stages(target: Target, report: ScheduleReport) -> list[Stage]:
    def schedule(module) -> None:
        if target.vector is not None:
            schedule_rvv(module, target, report)

    return [
        Stage("preprocess", _preprocess),
        Stage("bufferize", bufferize),
        Stage("schedule", schedule),
        Stage("to-loops", passes(TO_LOOPS)),
        Stage("to-llvm", to_llvm(target)),
    ]


def stage_names(target: Target) -> list[str]:
    return [s.name for s in build_stages(target, ScheduleReport())]


@dataclass
class Lowered:
    module: object  # torch_mlir.ir.Module in the LLVM dialect
    report: ScheduleReport
    stage_seconds: dict[str, float]


def lower(mlir_text: str, target: Target, *, dump_dir: str | Path | None = None, first_index: int = 1) -> Lowered:
    """Run every stage on a fresh context; dump IR after each one if asked."""

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
        dump.mkdir(parents=True, exist_ok=True)
    for n, stage in enumerate(build_stages(target, report), start=first_index):
        t0 = time.perf_counter()
        try:
            stage.run(module)
        except CompileError:
            raise
        except Exception as e:
            raise CompileError(
                f"lowering stage {stage.name!r} failed for {target.soc}: {_first_lines(str(e))}"
                + (f" (IR before the stage: {dump})" if dump else " (rerun with --dump-ir DIR to see the IR)")
            ) from e
        times[stage.name] = time.perf_counter() - t0
        if dump:
            (dump / f"{n:02d}-{stage.name}.mlir").write_text(module.operation.get_asm(enable_debug_info=False))
    return Lowered(module, report, times)


def _first_lines(text: str, n: int = 8) -> str:
    return "\n".join(text.strip().splitlines()[:n])
