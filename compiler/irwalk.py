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
