"""Bufferization: tensors to buffers and results to out-parameters (``BUFFERIZE``), strided
copies as linalg, ``forward``'s arguments ``noalias``."""

from __future__ import annotations

from torch_mlir import ir
from torch_mlir.dialects import linalg

from compiler.mlir_utils import (
    identity_layout,
    walk_ops,
)


def mark_arguments_noalias(module) -> None:
    """Arguments of ``forward`` never alias (the program builder gives each its own
    buffer): saying so lets accumulators be hoisted and LLVM vectorize freely."""

    with module.context:
        for op in module.body.operations:
            if op.operation.name == "func.func" and op.attributes["sym_name"].value == "forward":
                n = len(op.regions[0].blocks[0].arguments)
                attrs = ir.DictAttr.get({"llvm.noalias": ir.UnitAttr.get()})
                op.attributes["arg_attrs"] = ir.ArrayAttr.get([attrs] * n)


def copies_to_linalg(module) -> int:
    """memref.copy between strided views (e.g. into the interior of a padded
    buffer) lowers to a call of MLIR's C runner ``memrefCopy``, which bare-metal
    programs do not have: make those copies linalg.copy (loops, or vectors)."""

    with module.context:
        copies = [o for o in walk_ops(module.operation) if o.name == "memref.copy"]
        for op in copies:
            src, dst = op.operands[0], op.operands[1]
            if all(identity_layout(v.type) for v in (src, dst)):
                continue  # contiguous: becomes llvm.memcpy
            with ir.InsertionPoint(op), op.location:
                linalg.copy(src, outs=[dst])
            op.erase()
    return len(copies)


BUFFERIZE = (
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},"
    "buffer-results-to-out-params{hoist-static-allocs modify-public-functions},"
    "func.func(promote-buffers-to-stack),"
    "buffer-deallocation-pipeline,"
    "canonicalize,cse"
)
