"""Elementwise fusion that leaves contractions' loop structure alone.

``linalg-fuse-elementwise-ops`` also propagates reshapes through linalg ops: a
``collapse_shape`` feeding a matmul (LeNet's flatten before its first Linear)
re-expands the matmul's reduction into several loops (k = 400 becomes
16 x 5 x 5), after which the pooling that produced the flattened input is fused
*into* the matmul and recomputed for every output column. Both make the
contraction unschedulable as a matmul.

So reshapes that feed an op with reduction loops are hidden in private
functions (a call is opaque to the fusion patterns) while the fusion pass runs,
and inlined back afterwards.
"""

from __future__ import annotations

from torch_mlir import ir
from torch_mlir.dialects import func

from compiler.mlir_utils import child_ops, passes, run_transform, walk_ops

SHIELD_PREFIX = "__cosim_shield_"
RESHAPES = ("tensor.collapse_shape", "tensor.expand_shape")


# Named linalg ops without reduction loops (everything else named is a contraction
# or a reduction: matmul, batch_matmul, matvec, reduce, ...).
_PARALLEL_NAMED = {
    "linalg.map",
    "linalg.copy",
    "linalg.fill",
    "linalg.transpose",
    "linalg.broadcast",
    "linalg.elementwise",
}


def _feeds_reduction(op) -> bool:
    for use in op.results[0].uses:
        owner = use.owner
        if owner.name == "linalg.generic":
            if "reduction" in str(owner.attributes["iterator_types"]):
                return True
        elif owner.name.startswith("linalg.") and owner.name not in _PARALLEL_NAMED:
            return True
    return False


def shield_reshapes(module) -> int:
    """Replace reshapes feeding reductions by calls of private one-op functions."""

    found = []

    def visit(op):
        for o in child_ops(op):
            if o.name in RESHAPES and len(o.operands) == 1 and _feeds_reduction(o):
                found.append(o)
            visit(o)

    with module.context:
        visit(module.operation)
        for n, op in enumerate(found):
            src = op.operands[0]
            rtype = op.results[0].type
            name = f"{SHIELD_PREFIX}{n}"
            with ir.InsertionPoint.at_block_begin(module.body), op.location:
                fn = func.FuncOp(name, ([src.type], [rtype]), visibility="private")
                entry = fn.add_entry_block()
            with ir.InsertionPoint(entry), op.location:
                clone = op.clone()
                clone.operands[0] = entry.arguments[0]
                func.ReturnOp([clone.results[0]])
            with ir.InsertionPoint(op), op.location:
                call = func.CallOp([rtype], ir.FlatSymbolRefAttr.get(name), [src])
            op.results[0].replace_all_uses_with(call.results[0])
            op.erase()
    return len(found)


def _all_parallel_generic(op) -> bool:
    return op.name == "linalg.generic" and "reduction" not in str(op.attributes["iterator_types"])


TRANSPOSE_MARK = "cosim.fuse_transpose"


def generalize_transposes(module) -> int:
    """A ``linalg.transpose`` whose only user is an elementwise ``linalg.generic``
    becomes a generic, so the fusion pass folds it into that user, which then
    reads the input transposed in place. Left named, the transpose copies into
    the output buffer and the elementwise op re-reads it; LLVM forwarded that
    copy's one wide gather into the re-reads as element-by-element slides
    (x.t() + 1 of 12x20 on t1-blastoise: 2,236 instructions instead of 22).
    A transpose with several users stays a copy (the fusion pass would not fold
    it into more than one)."""

    marked = 0
    with module.context:
        for op in [o for o in walk_ops(module.operation) if o.name == "linalg.transpose"]:
            users = [u.owner for u in op.results[0].uses] if op.results else []
            if len(users) == 1 and _all_parallel_generic(users[0]):
                op.attributes[TRANSPOSE_MARK] = ir.UnitAttr.get()
                marked += 1
    if marked:
        run_transform(
            module,
            f"""
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    %t = transform.structured.match ops{{["linalg.transpose"]}} attributes{{{TRANSPOSE_MARK}}} in %root
      : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.generalize %t : (!transform.any_op) -> !transform.any_op
    transform.yield
  }}
}}""",
        )
        with module.context:
            for op in walk_ops(module.operation):
                if TRANSPOSE_MARK in op.attributes:
                    del op.attributes[TRANSPOSE_MARK]
    return marked


UNUSED_MARK = "cosim.unused_before_fusion"
# Body ops of a producer that fusion cloned: values, reads and index checks, no writes
_CLONABLE_BODY = ("arith.", "math.", "linalg.index", "linalg.yield", "tensor.extract", "cf.assert")


def _results_used(op) -> bool:
    return any(len(list(r.uses)) for r in op.results)


def _fused_producer(op) -> bool:
    """``op`` has lost every use of its results in fusion and its body only computes
    values, reads tensors and checks indices: every former user now holds a copy of
    that body, checks included."""
    if op.name != "linalg.generic" or UNUSED_MARK in op.attributes:
        return False
    if _results_used(op):
        return False
    body = op.regions[0].blocks[0].operations
    return all(o.name.startswith(_CLONABLE_BODY) for o in body)


def erase_fused_producers(module) -> int:
    """Erase the generics the fusion pass left behind with unused results.

    The pass replaces a producer's uses by the fused op but keeps the producer when
    its body has side effects, and torch-mlir's index checks (``cf.assert`` in an
    embedding's gather) are side effects: BERT's embeddings kept four dead gathers,
    each a scalar loop over all 1 024 outputs (about 50 000 instructions on
    t1-blastoise). Generics already unused before the pass stay (``UNUSED_MARK``), so
    a check PyTorch would have made on an unused result is not dropped; the others,
    the producers and the fused ops the pass made along the way, go."""
    erased = 0
    with module.context:
        changed = True
        while changed:  # a producer of an erased op may be next
            changed = False
            for op in [o for o in walk_ops(module.operation) if _fused_producer(o)]:
                op.erase()
                erased += 1
                changed = True
        for op in walk_ops(module.operation):
            if UNUSED_MARK in op.attributes:
                del op.attributes[UNUSED_MARK]
    return erased


def _mark_unused_generics(module) -> None:
    with module.context:
        for op in walk_ops(module.operation):
            if op.name == "linalg.generic" and not _results_used(op):
                op.attributes[UNUSED_MARK] = ir.UnitAttr.get()


def fuse_elementwise(module) -> None:
    """``linalg-fuse-elementwise-ops`` with reshapes into reductions shielded and
    transposes into elementwise users generalized first; the producers it leaves
    behind unused are erased."""
    generalize_transposes(module)
    shielded = shield_reshapes(module)
    _mark_unused_generics(module)
    passes("func.func(linalg-fuse-elementwise-ops)")(module)
    erase_fused_producers(module)
    if shielded:
        passes("inline,symbol-dce")(module)
