"""Write results straight into the output buffer instead of a temporary plus a copy.

Bufferization gives an op whose result is only reshaped and returned (a
permute followed by ``reshape``/``flatten``) a temporary buffer, then copies
the temporary into ``forward``'s output argument (``memref.copy``). When the
temporary has exactly one writer, is read by nothing but the reshapes feeding
that copy, and the output argument has the same number of elements, the writer
can write the output directly (through a ``reinterpret_cast`` of the output to
the temporary's shape): the copy, the stack space and its frame set-up vanish.
"""

from __future__ import annotations

from compiler.irwalk import child_ops, identity_layout, walk_ops

_VIEWS = ("memref.collapse_shape", "memref.expand_shape")


def _elements(ir, t) -> int:
    n = 1
    for d in ir.MemRefType(t).shape:
        n *= d
    return n


def _candidate(ir, copy):
    """(temporary, chain of views, writers) if ``copy`` can be removed, else None.

    The chain runs from the temporary to the copy's source through reshapes; every
    other user of a value in it must be a linalg op writing it as its output only
    (a fill, then the op computing the result), or a dealloc."""
    src, dst = copy.operands[0], copy.operands[1]
    chain = [src]
    while not isinstance(chain[-1].owner, ir.Block) and chain[-1].owner.name in _VIEWS:
        chain.append(chain[-1].owner.operands[0])
    temp_value = chain[-1]
    if isinstance(temp_value.owner, ir.Block) or temp_value.owner.name not in ("memref.alloca", "memref.alloc"):
        return None
    if not isinstance(dst.owner, ir.Block):  # the output must be a function argument
        return None
    if not all(identity_layout(ir, v.type) for v in chain) or not identity_layout(ir, dst.type):
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
            if not owner.name.startswith("linalg.") or operands[-1] != value or value in operands[:-1]:
                return None  # read, or written by something we cannot redirect
            if dst in operands or owner.parent != copy.parent:
                return None
            writers.append(owner)
    if not writers:
        return None
    order = [o for o in child_ops(copy.parent)]
    if any(order.index(w) > order.index(copy) for w in writers):
        return None  # a write after the copy must not reach the output
    return temp_value.owner, chain, writers


def eliminate_output_copies(module) -> int:
    """Apply the rewrite (module docstring) everywhere it is safe; returns how many."""
    from torch_mlir import ir
    from torch_mlir.dialects import memref

    done = 0
    with module.context:
        for copy in [o for o in walk_ops(module.operation) if o.name == "memref.copy"]:
            cand = _candidate(ir, copy)
            if cand is None:
                continue
            temp, chain, writers = cand
            dst = copy.operands[1]
            for writer in writers:
                value = writer.operands[len(writer.operands) - 1]
                if value == chain[0]:
                    target = dst  # the copy's source has the output's shape
                else:
                    vtype = ir.MemRefType(value.type)
                    strides, n = [], 1
                    for d in reversed(vtype.shape):
                        strides.insert(0, n)
                        n *= d
                    with ir.InsertionPoint(writer), writer.location:
                        flat_t = ir.MemRefType.get(vtype.shape, vtype.element_type)
                        target = memref.ReinterpretCastOp(
                            flat_t, dst, [], [], [], [0], list(vtype.shape), strides
                        ).result
                writer.operands[len(writer.operands) - 1] = target
            copy.erase()
            for value in chain[:-1]:
                value.owner.erase()
            for use in list(temp.results[0].uses):
                use.owner.erase()  # a dealloc
            temp.erase()
            done += 1
    return done
