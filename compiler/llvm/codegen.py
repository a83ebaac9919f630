"""Codegen: LLVM dialect -> LLVM IR text -> (down-leveled; on vector targets with
explicit vector lengths, compiler.llvm.explicit_vector_lengths) -> RISC-V object via zig's clang.

The object defines ``forward`` and ``_mlir_ciface_forward`` (memref descriptors
passed by pointer). Before compiling, the IR is checked for what the bare-metal
targets cannot run: ``double`` arithmetic (no D extension) and calls to libm.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from torch_mlir.dialects import llvm as llvm_d

from compiler.errors import CompileError
from compiler.llvm.explicit_vector_lengths import declared_functions
from compiler.llvm.no_builtins import no_builtins  # noqa: F401  (re-exported)
from compiler.pipeline import finish_llvm_ir
from compiler.targets import Target

# Same flags the runtime is built with (DESIGN.md, toolchain facts).
CFLAGS = ("-O2", "-mcmodel=medany", "-ffreestanding", "-fno-stack-protector", "-fno-math-errno")

# Functions the generated code may call: the runtime provides them.
RUNTIME_FUNCTIONS = {"malloc", "free", "memcpy", "memset", "memmove", "aligned_alloc", "puts", "abort"}  # cf.assert

_LIBM = re.compile(r"@llvm\.(exp|exp2|exp10|log|log2|log10|pow|sin|cos|tan|tanh|atan|atan2|asin|acos|sinh|cosh|erf)\.")


def translate(module) -> str:
    """LLVM dialect module -> LLVM IR text (LLVM 24 spelling)."""

    leftover = _non_llvm_ops(module)
    if leftover:
        name, loc = leftover[0]
        raise CompileError(
            f"operation {name} at {loc} was not lowered to the LLVM dialect ({len(leftover)} such op(s)); "
            "rerun with --dump-ir DIR and look at the to-llvm stage"
        )
    try:
        return llvm_d.translate_module_to_llvmir(module.operation)
    except Exception as e:
        raise CompileError(f"translating the LLVM dialect to LLVM IR failed: {e}") from e


def _non_llvm_ops(module) -> list[tuple[str, str]]:
    """Ops translation would choke on (it can crash the process instead of failing)."""
    bad = []

    def visit(op):
        for region in op.regions:
            for block in region.blocks:
                for inner in block.operations:
                    name = inner.operation.name
                    if not name.startswith("llvm."):
                        bad.append((name, str(inner.operation.location)))
                    visit(inner.operation)

    visit(module.operation)
    return bad


def check_llvm_ir(text: str) -> None:
    """Reject IR that would need the D extension or libm."""
    for line in text.splitlines():
        code = line.split(";", 1)[0]
        if re.search(r"\bdouble\b", code) and not code.lstrip().startswith(("declare", "!")):
            raise CompileError(
                "the kernel computes in double precision (a float64 value survived into LLVM IR: "
                f"`{code.strip()[:120]}`); the targets have no D extension: keep the model and inputs float32"
            )
    m = _LIBM.search(text)
    if m:
        raise CompileError(f"the kernel calls libm's {m.group(1)}, which bare-metal programs do not have")
    for name in declared_functions(text):
        if not name.startswith("llvm.") and name not in RUNTIME_FUNCTIONS:
            raise CompileError(f"the kernel calls {name}(), which the runtime does not provide")


def zig_cc() -> list[str]:
    return [sys.executable, "-m", "ziglang", "cc"]


def compile_llvm_ir(
    text: str,
    target: Target,
    out: str | Path,
    *,
    opt: str = "-O2",
    dump_dir: str | Path | None = None,
    first_index: int = 1,
) -> Path:
    """Run the ``llvm-ir`` stage on ``text`` (down-leveling, ...: ``pipeline.finish_llvm_ir``)
    and compile it to an object for ``target``."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    ll = out.with_suffix(".ll")
    ll.write_text(finish_llvm_ir(text, target, dump_dir=dump_dir, first_index=first_index))
    flags = [f for f in CFLAGS if f != "-O2"] + [opt]
    cmd = [*zig_cc(), *target.clang_flags(), *flags, "-Wno-override-module", "-c", str(ll), "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CompileError(f"zig cc could not compile the kernel ({ll}):\n{proc.stderr.strip()[:2000]}")
    return out
