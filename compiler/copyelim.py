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

from compiler.irwalk import walk_ops

_VIEWS = ("memref.collapse_shape", "memref.expand_shape")


def _identity(ir, t) -> bool:
    layout = ir.MemRefType(t).layout
    if not isinstance(layout, ir.AffineMapAttr):
        return False
    amap = ir.AffineMapAttr(layout).value
    return amap == ir.AffineMap.get_identity(amap.n_dims)


def _elements(ir, t) -> int:
    n = 1
    for d in ir.MemRefType(t).shape:
        n *= d
    return n


def _candidate(ir, copy):
    """(temporary, [views], writer) if ``copy`` can be removed, else None."""
    src, dst = copy.operands[0], copy.operands[1]
    views = []
    while not isinstance(src.owner, ir.Block) and src.owner.name in _VIEWS:
        if len(list(src.uses)) != 1:
            return None
        views.append(src.owner)
        src = src.owner.operands[0]
    if isinstance(src.owner, ir.Block) or src.owner.name not in ("memref.alloca", "memref.alloc"):
        return None
    temp = src.owner
    if not isinstance(dst.owner, ir.Block):  # the output must be a function argument
        return None
    if not (_identity(ir, temp.results[0].type) and _identity(ir, dst.type)):
        return None
    if _elements(ir, temp.results[0].type) != _elements(ir, dst.type) or any(d < 0 for d in ir.MemRefType(dst.type).shape):
        return None
    writers = []
    for use in temp.results[0].uses:
        owner = use.owner
        if owner.name == "memref.dealloc" or (views and owner == views[-1]):
            continue
        writers.append(owner)
    if len(writers) != 1 or not writers[0].name.startswith("linalg."):
        return None
    writer = writers[0]
    # the temporary is only the writer's output, and the writer does not read the output argument
    n_inputs = len(writer.operands) - 1
    if any(v == temp.results[0] for v in list(writer.operands)[:n_inputs]) or writer.operands[-1] != temp.results[0]:
        return None
    if any(v == dst for v in writer.operands):
        return None
    if writer.parent != copy.parent:
        return None
    return temp, views, writer


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
            temp, views, writer = cand
            dst = copy.operands[1]
            ttype = ir.MemRefType(temp.results[0].type)
            strides, n = [], 1
            for d in reversed(ttype.shape):
                strides.insert(0, n)
                n *= d
            with ir.InsertionPoint(writer), writer.location:
                flat_t = ir.MemRefType.get(ttype.shape, ttype.element_type)
                cast = memref.ReinterpretCastOp(flat_t, dst, [], [], [], [0], list(ttype.shape), strides).result
            writer.operands[len(writer.operands) - 1] = cast
            copy.erase()
            for view in views:
                view.erase()
            for use in list(temp.results[0].uses):
                use.owner.erase()  # a dealloc
            temp.erase()
            done += 1
    return done
