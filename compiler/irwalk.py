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
