"""Walking nested MLIR operations (the Python bindings have no generic walker), and the
memref layout queries the rewrites share."""

from __future__ import annotations

from collections.abc import Iterator


def child_ops(op) -> Iterator:
    """The operations directly inside ``op``'s regions, in order."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                yield inner.operation


def walk_ops(op) -> Iterator:
    """Every operation nested anywhere below ``op``, in pre-order."""
    for child in child_ops(op):
        yield child
        yield from walk_ops(child)


def static_layout(ir, mtype) -> tuple[list[int], int] | None:
    """(strides, offset) of a memref type when all are static, else None."""
    try:
        strides, offset = ir.MemRefType(mtype).get_strides_and_offset()
    except Exception:
        return None
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    if offset == dyn or any(s == dyn for s in strides):
        return None
    return list(strides), offset


def identity_layout(ir, mtype) -> bool:
    """Is a memref type's layout the identity map (contiguous, row-major, offset 0)?"""
    layout = ir.MemRefType(mtype).layout
    if not isinstance(layout, ir.AffineMapAttr):
        return False
    amap = ir.AffineMapAttr(layout).value
    return amap == ir.AffineMap.get_identity(amap.n_dims)


def constant_int(ir, value) -> int | None:
    """The value of an integer ``arith.constant`` (index or iN), or None."""
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name != "arith.constant":
        return None
    attr = owner.attributes["value"]
    return ir.IntegerAttr(attr).value if isinstance(attr, ir.IntegerAttr) else None


def dense_i32(ir, vtype, values: list[int]):
    """A dense i32 vector attribute (constant index vectors of gathers)."""
    import numpy as np

    return ir.DenseElementsAttr.get(np.asarray(values, dtype=np.int32), type=vtype)


# Ops that give another view of the same buffer (operand 0).
VIEW_OPS = frozenset(
    {
        "memref.subview",
        "memref.reinterpret_cast",
        "memref.expand_shape",
        "memref.collapse_shape",
        "memref.cast",
        "memref.transpose",
    }
)


def buffer_root(value):
    """The buffer a memref value views: a block argument (forward's arguments, which
    never alias: lowering marks them noalias) or an allocation; None if unknown."""
    from torch_mlir import ir

    while True:
        owner = value.owner
        if isinstance(owner, ir.Block):
            return value
        name = owner.name
        if name in ("memref.alloc", "memref.alloca"):
            return value
        if name not in VIEW_OPS:
            return None
        value = owner.operands[0]


def most_live_values(block) -> int:
    """Most values of ``block`` (its arguments and results of its ops, not values
    defined outside: those stay scalars) live at once, in program order."""
    ops = [o.operation for o in block.operations]
    last_use: dict = {}
    for i, o in enumerate(ops):
        for v in o.operands:
            last_use[v] = i
    live = {a for a in block.arguments if a in last_use}
    most = len(live)
    for i, o in enumerate(ops):
        live = {v for v in live if last_use[v] > i}
        live |= {r for r in o.results if r in last_use}
        most = max(most, len(live))
    return max(1, most)
