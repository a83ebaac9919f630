"""Walking nested MLIR operations (the Python bindings have no generic walker)."""

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
