"""Merge the loop dims an elementwise op treats alike, so its rows get longer.

The RVV schedule vectorizes an elementwise op along its innermost loop, one row
at a time, with a scalar operand (``flw`` + ``.vf``) for each broadcast value.
A per-channel scale or bias of an NCHW tensor (``x * w.view(C, 1, 1)``) then runs
rows of W elements, a handful each, and every row pays its address arithmetic,
scalar load and loop control. Yet no operand tells h from w: ``x`` and the output
are contiguous over both, ``w`` is broadcast over both. Two adjacent loop dims
can become one when every operand either reads both at adjacent, contiguous
positions of its layout or reads neither; here the (H, W) loops become one of H*W.

Operands that read the merged dims get a ``memref.collapse_shape`` view, their
indexing maps are renumbered, and the op is rewritten in place (same body).
Only all-parallel ops with static shapes and strided layouts, a read input and
rows shorter than a vector are touched: long rows gain nothing, and fills (no
input) feed matmul accumulators whose row loads must keep their shape.
Reductions merge adjacent dims of one kind the same way (one reduction in the
same order: layer_norm over [10, 8, 2] reduces rows of 160).
"""

from __future__ import annotations

from math import prod

from torch_mlir import ir
from torch_mlir.dialects import memref

from compiler.mlir_utils import (
    identity_layout,
    iterator_types,
    most_live_values,
    operand_dims,
    reads_loop_indices,
    reassociation_attr,
    static_layout,
    walk_ops,
)
from compiler.targets import MAX_FIXED_LANES, VectorTarget, elementwise_lmul

# Longest merged row (LLVM's widest fixed vector, targets.MAX_FIXED_LANES).
MAX_ROW = MAX_FIXED_LANES


def _mergeable(d: int, dims: list[int | None], strides: list[int], sizes: list[int]) -> bool:
    """Can loops d and d + 1 become one for an operand reading ``dims``?"""
    if d not in dims and d + 1 not in dims:
        return True
    if d not in dims or d + 1 not in dims:
        return False
    j = dims.index(d)
    return j + 1 < len(dims) and dims[j + 1] == d + 1 and strides[j] == strides[j + 1] * sizes[j + 1]


def plan_groups(op, vt: VectorTarget) -> list[list[int]] | None:
    """Groups of adjacent loop dims to merge (None if nothing to merge)."""

    if op.name != "linalg.generic" or reads_loop_indices(op):
        return None
    iters = iterator_types(op)
    if len(iters) < 2 or any(t != "parallel" for t in iters):
        return None
    block = op.regions[0].blocks[0]
    n_in = len(op.operands) - 1
    if n_in < 1 or op.results or not any(list(block.arguments[i].uses) for i in range(n_in)):
        return None  # fills and multi-result ops stay as they are
    body = [o.operation for o in block.operations]
    if len(body) == 1:
        return None  # a copy: output_copy_elimination and elementwise_flattening know the copies
    maps = operand_dims(op)
    if any(m is None for m in maps) or maps[-1] != list(range(len(iters))):
        return None
    layouts = [static_layout(v.type) if isinstance(v.type, ir.MemRefType) else None for v in op.operands]
    if any(lay is None for lay in layouts):
        return None
    sizes = [list(ir.ShapedType(v.type).shape) for v in op.operands]
    shape = sizes[-1]
    cap = vt.tile_lanes(elementwise_lmul(most_live_values(block)))
    if shape[-1] * 2 > cap:
        return None  # rows already fill half a register group
    # The merged row must stay one vector LLVM keeps whole (relu on 7x50 as one
    # row of 350 became six power-of-two pieces joined by slides, 22 vsetvli) or
    # whole vectors of a power of two.
    piece = 1 << (cap.bit_length() - 1)
    groups = [[d] for d in range(len(iters))]
    for d in reversed(range(len(iters) - 1)):
        if shape[d] == 1 or not all(
            _mergeable(d, m, lay[0], sz) for m, lay, sz in zip(maps, layouts, sizes, strict=True)
        ):
            break  # only merges that lengthen the rows pay
        row = prod(shape[e] for e in [d, *groups[d + 1]])
        if row > cap and row % piece:
            break
        groups[d] += groups.pop(d + 1)
    return groups if len(groups) < len(iters) else None


def plan_reduction_groups(op) -> list[list[int]] | None:
    """Groups of adjacent loop dims of a reduction to merge (None if nothing to merge).

    A reduction over several trailing dims (layer_norm over [10, 8, 2]) is
    otherwise vectorized along its innermost one alone: vectors of 2. Where every operand
    reads two adjacent dims of the same kind at adjacent, contiguous positions (or
    neither: the output and the reduction dims), they are one loop, in the same
    order: a reduction over 160 elements. Trailing parallel dims of a reduction merge
    the same way (``x.mean(dim=1)`` of 3x9x11x2: rows of 22, not 2), up to MAX_ROW."""

    if op.name != "linalg.generic" or op.results or reads_loop_indices(op):
        return None
    iters = iterator_types(op)
    if "reduction" not in iters or len(iters) < 2:
        return None
    maps = operand_dims(op)
    layouts = [static_layout(v.type) if isinstance(v.type, ir.MemRefType) else None for v in op.operands]
    if any(m is None for m in maps) or any(lay is None for lay in layouts):
        return None
    sizes = [list(ir.ShapedType(v.type).shape) for v in op.operands]
    extent = {}
    for dims, sz in zip(maps, sizes, strict=True):
        for d, n in zip(dims, sz, strict=True):
            if d is not None:
                extent[d] = n
    # Only the innermost run of one kind: merged outer loops lengthen no vector, and
    # their views cost a div/mod per access once folded into the loads (mean over
    # the last dim of 5x3x11x9: the 165 rows' addresses took 35 instructions each).
    groups = [[d] for d in range(len(iters))]
    for d in reversed(range(len(iters) - 1)):
        if iters[d] != iters[d + 1]:
            break
        if iters[d] == "parallel" and prod(extent.get(e, 1) for e in [d, *groups[d + 1]]) > MAX_ROW:
            break
        if not all(_mergeable(d, m, lay[0], sz) for m, lay, sz in zip(maps, layouts, sizes, strict=True)):
            break
        groups[d] += groups.pop(d + 1)
    return groups if len(groups) < len(iters) else None


def collapse_op(op, groups: list[list[int]]) -> None:
    """Rewrite ``op`` over the merged loops of ``groups`` (see :func:`plan_groups`)."""

    new_dim = {g[0]: n for n, g in enumerate(groups)}
    merged_away = {d for g in groups for d in g[1:]}
    maps = operand_dims(op)
    new_maps = []
    with ir.InsertionPoint(op), op.location:
        for i, (value, dims) in enumerate(zip(list(op.operands), maps, strict=True)):
            mtype = ir.MemRefType(value.type)
            shape = list(mtype.shape)
            reassociation: list[list[int]] = []
            exprs = []
            for j, d in enumerate(dims):
                # a merged dim joins its predecessor; so does a size-1 dim read at 0: the
                # vectorizer declined (d0, 0, 0) over two loops, and (d0, d1, 0) (a
                # keepdim statistic read along d1)
                unit = d is None and j and shape[j] == 1
                if (d is not None and d in merged_away) or unit:
                    reassociation[-1].append(j)
                    continue
                reassociation.append([j])
                exprs.append(ir.AffineConstantExpr.get(0) if d is None else ir.AffineDimExpr.get(new_dim[d]))
            new_maps.append(ir.AffineMapAttr.get(ir.AffineMap.get(len(groups), 0, exprs)))
            if len(reassociation) == len(dims):
                continue
            strides, offset = static_layout(mtype)
            new_shape = [prod(shape[j] for j in g) for g in reassociation]
            # a group's stride is its innermost dim's (size-1 members move nothing)
            new_strides = [strides[next((j for j in reversed(g) if shape[j] != 1), g[-1])] for g in reassociation]
            layout = None  # an identity source collapses to an identity view
            if not identity_layout(mtype):
                layout = ir.StridedLayoutAttr.get(offset, new_strides)
            rtype = ir.MemRefType.get(new_shape, mtype.element_type, layout, mtype.memory_space)
            op.operands[i] = memref.CollapseShapeOp(rtype, value, reassociation_attr(reassociation)).result
    kinds = iterator_types(op)
    op.attributes["indexing_maps"] = ir.ArrayAttr.get(new_maps)
    op.attributes["iterator_types"] = ir.ArrayAttr.get(
        [ir.Attribute.parse(f"#linalg.iterator_type<{kinds[g[0]]}>") for g in groups]
    )


def collapse_elementwise(module, vt: VectorTarget) -> int:
    """Merge the loops of every qualifying elementwise op; returns how many (each
    op's own schedule entry then shows its merged loops)."""
    count = 0
    with module.context:
        for op in [o for o in walk_ops(module.operation) if o.name == "linalg.generic"]:
            reduction_groups = plan_reduction_groups(op)
            if reduction_groups is not None:
                collapse_op(op, reduction_groups)
                count += 1
                continue
            groups = plan_groups(op, vt)
            if groups is not None:
                collapse_op(op, groups)
                count += 1
    return count
