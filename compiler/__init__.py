"""Compiler layer: PyTorch (or linalg/tosa MLIR) to RVV or scalar RISC-V object code.

Stages: :mod:`compiler.frontend` -> :mod:`compiler.pipeline` (target-independent
:mod:`compiler.rewrites`, then a backend's schedule: :mod:`compiler.rvv`, :mod:`compiler.scalar`;
then :mod:`compiler.llvm.conversion`) -> :mod:`compiler.llvm.codegen`. compiler/README.md
describes the layout. Never imports ``harness``; of ``sim`` only ``sim.gemmini.params`` (lazily, in
``targets``: the Gemmini numbers the model and the RTL use).

    from compiler import compile_kernel
    from compiler.frontend import import_torch
    imported = import_torch(model, (x,), name="mlp")
    kernel = compile_kernel(imported, "t1-small")      # kernel.object: an ELF .o defining forward
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from compiler.errors import CompileError
from compiler.frontend import Imported, TensorSpec
from compiler.frontend.layer_calls import has_layer_calls
from compiler.targets import Target, target_for, without_gemmini

__all__ = ["CompileError", "Kernel", "compile_kernel", "compiler_version", "cache_dir"]


@functools.cache
def compiler_version() -> str:
    """Hash of the compiler's own sources: any change invalidates cached objects.
    Read once per process, when its first kernel compiles (the code it runs was
    loaded then too): a long test run whose files are edited meanwhile must not
    file objects of the old code under the new sources' key."""
    h = hashlib.sha256()
    here = Path(__file__).parent
    for p in sorted(here.rglob("*.py")):
        h.update(p.relative_to(here).as_posix().encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def cache_dir() -> Path:
    """``<cache root>/kernels``: the project's one cache root (``$COSIM_CACHE``)."""
    from configs.paths import cache_root

    return cache_root() / "kernels"


@dataclass
class Kernel:
    """A compiled ``forward``: the object plus what its arguments are."""

    name: str
    soc: str
    target: Target
    object: Path
    llvm_ir: Path
    args: list[TensorSpec]
    outputs: list[TensorSpec]
    key: str
    cached: bool
    seconds: dict[str, float] = field(default_factory=dict)  # lowering / codegen
    schedule: list[dict] = field(default_factory=list)  # per linalg op: tiles, vectorized?


def _key(imported: Imported, target: Target) -> str:
    h = hashlib.sha256()
    for part in (imported.ir_hash_text(), target.key(), compiler_version()):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:24]


def for_target(imported: Imported, target: Target) -> Imported:
    """The import :func:`compile_kernel` compiles for ``target``: on a Gemmini config with loop_conv_ws the
    quantized convolutions as conv loops, else the convs' max pools in their layers (the store unit pools on
    mvout) where a loop's half of the accumulator holds them; ``imported`` itself otherwise."""
    if target.gemmini is not None and target.gemmini.loop_conv and imported.with_loop_conv is not None:
        return imported.with_loop_conv()
    if target.gemmini is not None and imported.with_pool_rows is not None:
        return imported.with_pool_rows(target.gemmini.acc_rows // 2)
    return imported


def compile_kernel(
    imported: Imported,
    soc,
    *,
    dump_dir: str | Path | None = None,
    use_cache: bool = True,
) -> Kernel:
    """Lower and compile ``imported`` for ``soc`` (name, path or SocConfig).

    Cached by a hash of (IR, target, compiler version); ``dump_dir`` (which
    bypasses the cache so every stage really runs) gets the IR of every stage."""
    from compiler.llvm.codegen import check_llvm_ir, compile_llvm_ir, translate
    from compiler.pipeline import lower

    target = target_for(soc)
    imported = for_target(imported, target)
    if target.gemmini is not None and not has_layer_calls(imported.mlir):
        # nothing for Gemmini to run: the core's scalar code, compiled (and cached) as before
        target = without_gemmini(target)
    elif target.gemmini is None and has_layer_calls(imported.mlir):
        raise CompileError(
            f"{imported.source}: cosim_q layers need a Gemmini config ({target.soc} has none); "
            "decompose them into aten integer ops for this target"
        )
    if target.vector is None and imported.without_window_decompositions is not None:
        # conv2d/max_pool2d were rewritten into slices for the vector unit; scalar
        # code runs the direct window loops faster (fewer copies, no wide columns).
        imported = imported.without_window_decompositions()
    key = _key(imported, target)
    entry = cache_dir() / key
    obj, ll, meta = entry / "kernel.o", entry / "kernel.ll", entry / "kernel.json"
    if use_cache and dump_dir is None and obj.is_file() and meta.is_file():
        info = json.loads(meta.read_text())
        return Kernel(
            imported.name, target.soc, target, obj, ll, imported.args, imported.outputs, key, True, {}, info["schedule"]
        )
    if dump_dir is not None:
        Path(dump_dir).mkdir(parents=True, exist_ok=True)
        (Path(dump_dir) / "00-frontend.mlir").write_text(imported.mlir)
    lowered = lower(imported.mlir, target, dump_dir=dump_dir)
    t0 = time.perf_counter()
    text = translate(lowered.module)
    check_llvm_ir(text)
    seconds = {
        "lowering": sum(lowered.stage_seconds.values()),
        **{f"stage:{k}": v for k, v in lowered.stage_seconds.items()},
    }
    entry.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=entry.parent, prefix=f".{key}."))
    try:
        compile_llvm_ir(text, target, tmp / "kernel.o", dump_dir=dump_dir, first_index=len(lowered.passes_run) + 1)
        if dump_dir is not None:
            (Path(dump_dir) / "06-llvm.ll").write_text(text)
            shutil.copy(tmp / "kernel.ll", Path(dump_dir) / "07-llvm22.ll")
        (tmp / "kernel.json").write_text(json.dumps({"schedule": lowered.report.ops, "soc": target.soc}, indent=1))
        seconds["codegen"] = time.perf_counter() - t0
        if not use_cache and entry.exists():
            # a forced rebuild replaces the entry (else the old object would be returned)
            stale = Path(tempfile.mkdtemp(dir=entry.parent, prefix=f".{key}.stale."))
            os.replace(entry, stale / "entry")
            shutil.rmtree(stale, ignore_errors=True)
        try:
            os.replace(tmp, entry)  # atomic publish; a concurrent builder may have won
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    if not obj.is_file():
        raise CompileError(f"kernel cache entry {entry} is incomplete; delete it and retry")
    return Kernel(
        imported.name,
        target.soc,
        target,
        obj,
        ll,
        imported.args,
        imported.outputs,
        key,
        False,
        seconds,
        lowered.report.ops,
    )
