"""Write results straight into the output buffer instead of a temporary plus a copy.

Bufferization gives an op whose result is only reshaped and returned (a
permute followed by ``reshape``/``flatten``) a temporary buffer, then copies
the temporary into ``forward``'s output argument (``memref.copy``). When the
temporary is only written by linalg ops (a fill, the op, in-place elementwise
ops such as a Linear's bias add reading it too) and read by nothing but them and
the reshapes feeding that copy, and the output argument has the same number of
elements, those ops can use the output directly (viewed with the temporary's
shape: an ``expand_shape`` where the shapes allow, else a ``reinterpret_cast``):
the copy, the stack space and its frame set-up vanish. It matters most for a
Linear on a 1-D input: its 1 x N matmul result was a temporary reshaped by
``collapse_shape``, and MLIR does not hoist a matmul row's accumulator out of
the k loop when its buffer has a view or is a ``reinterpret_cast`` (t1-small,
Linear(57, 39) on 57 inputs: 1 426 instructions with the accumulator reloaded and
stored every k step, against 645 for the same layer on one 1 x 57 row).
"""

from __future__ import annotations

from torch_mlir import ir
from torch_mlir.dialects import memref

from compiler.mlir_utils import child_ops, identity_layout, walk_ops

_VIEWS = ("memref.collapse_shape", "memref.expand_shape")


def _elements(t) -> int:
    n = 1
    for d in ir.MemRefType(t).shape:
        n *= d
    return n


def _candidate(copy):
    """(temporary, chain of views, writers) if ``copy`` can be removed, else None.

    The chain runs from the temporary to the copy's source through reshapes; every
    other user of a value in it must be a linalg op writing it as its output (a
    fill, the op computing the result, an in-place elementwise op that also reads
    it), or a dealloc. A reading op needs the output untouched by anything but
    the copy: it then reads what the earlier ops wrote, as it read the temporary."""
    src, dst = copy.operands[0], copy.operands[1]
    chain = [src]
    while not isinstance(chain[-1].owner, ir.Block) and chain[-1].owner.name in _VIEWS:
        chain.append(chain[-1].owner.operands[0])
    temp_value = chain[-1]
    if isinstance(temp_value.owner, ir.Block) or temp_value.owner.name not in ("memref.alloca", "memref.alloc"):
        return None
    if not isinstance(dst.owner, ir.Block):  # the output must be a function argument
        return None
    if not all(identity_layout(v.type) for v in chain) or not identity_layout(dst.type):
        return None
    if any(d < 0 for d in ir.MemRefType(dst.type).shape):
        return None
    views = {v.owner for v in chain[:-1]}
    writers = []
    for value in chain:
        for use in value.uses:
            owner = use.owner
            if owner == copy or owner in views or owner.name == "memref.dealloc":
                continue
            operands = list(owner.operands)
            if not owner.name.startswith("linalg.") or operands[-1] != value:
                return None  # read by something that does not write it, or written by an op we cannot redirect
            if value in operands[:-1] and any(u.owner != copy for u in dst.uses):
                return None
            if dst in operands or owner.parent != copy.parent:
                return None
            writers.append(owner)
    if not writers:
        return None
    order = [o for o in child_ops(copy.parent)]
    if any(order.index(w) > order.index(copy) for w in writers):
        return None  # a write after the copy must not reach the output
    return temp_value.owner, chain, writers


def _groups(outer: list[int], inner: list[int]) -> list[list[int]] | None:
    """Reassociation expanding shape ``outer`` into ``inner`` (each outer dim the
    product of consecutive inner dims), or None if there is none."""
    groups, i = [], 0
    for d in outer:
        group, n = [], 1
        while i < len(inner) and (n < d or (inner[i] == 1 and n == d and not group)):
            group.append(i)
            n *= inner[i]
            i += 1
        while i < len(inner) and inner[i] == 1 and n == d:  # trailing unit dims join the group
            group.append(i)
            i += 1
        if n != d or not group:
            return None
        groups.append(group)
    return groups if i == len(inner) else None


def _view_as(dst, vtype, writer):
    """``dst`` viewed with the temporary's shape: an ``expand_shape`` where the shapes
    allow one (MLIR folds loads and stores through it onto ``dst`` itself, so a
    matmul row's accumulator can be hoisted: it never hoists through a
    ``reinterpret_cast``), else a ``reinterpret_cast``."""
    shape = list(vtype.shape)
    with ir.InsertionPoint(writer), writer.location:
        result_t = ir.MemRefType.get(shape, vtype.element_type)
        groups = _groups(list(ir.MemRefType(dst.type).shape), shape)
        if groups is not None and len(shape) > len(ir.MemRefType(dst.type).shape):
            return memref.ExpandShapeOp(result_t, dst, groups, [], shape).result
        strides, n = [], 1
        for d in reversed(shape):
            strides.insert(0, n)
            n *= d
        return memref.ReinterpretCastOp(result_t, dst, [], [], [], [0], shape, strides).result


def eliminate_output_copies(module) -> int:
    """Apply the rewrite (module docstring) everywhere it is safe; returns how many."""

    done = 0
    with module.context:
        for copy in [o for o in walk_ops(module.operation) if o.name == "memref.copy"]:
            cand = _candidate(copy)
            if cand is None:
                continue
            temp, chain, writers = cand
            dst = copy.operands[1]
            for writer in writers:
                value = writer.operands[len(writer.operands) - 1]
                if value == chain[0]:
                    target = dst  # the copy's source has the output's shape
                else:
                    target = _view_as(dst, ir.MemRefType(value.type), writer)
                for i, operand in enumerate(list(writer.operands)):
                    if operand == value:
                        writer.operands[i] = target
            copy.erase()
            for value in chain[:-1]:
                value.owner.erase()
            for use in list(temp.results[0].uses):
                use.owner.erase()  # a dealloc
            temp.erase()
            done += 1
    return done
