"""Short innermost reductions as elementwise ops over strided slices.

The RVV schedule vectorizes a reduction along its innermost loop, so
``x.mean(dim=-1)`` of a (3, 11, 11, 4) tensor is 363 vectors of 4 elements, each
with its own reduction instruction, store and address arithmetic (3 935
instructions on t1-small; rv32 needs 7 738). Unrolled over its R steps, the
reduction is an elementwise op over the outputs:

    out = f(x[..., R-1], ... f(x[..., 1], f(x[..., 0], out)))

where ``x[..., k]`` is a strided slice of the input (a ``memref.subview``) and
``f`` the reduction's body. That op is vectorized along the outputs like any
elementwise op, one strided load (``vlse32``) per step. The steps run in the
reduction's own order, so the result is the scalar loop's, bit for bit.

Strided loads move one element per memory beat on the RTL, so this pays where a
row is at most a datapath row (R <= lanes), or where the row reduction is slow
anyway: a non-power-of-two row (LLVM widens it, with VL toggles) up to 4 datapath
rows. RTL ``cycles_forward``, row reductions / unrolled: t1-blastoise (8 lanes)
``x.mean(-1)`` R = 2 (3x11x11 rows) 5 051 / 1 261, R = 4 5 051 / 2 263, R = 8
(5x3x11) 2 171 / 1 925; t1-small (2 lanes) R = 2 5 711 / 4 820, R = 3 (9x12x2)
7 478 / 4 527, ``x.var(-1)`` R = 3 15 289 / 5 650, layer_norm(5) 5 530 / 5 155,
but R = 4 6 193 / 6 767 and R = 8 3 313 / 5 574 (kept as rows).
"""

from __future__ import annotations

from math import prod

from torch_mlir import ir
from torch_mlir.dialects import linalg, memref

from compiler.mlir_utils import (
    fill_before,
    identity_layout,
    iterator_types,
    operand_dims,
    reads_loop_indices,
    reassociation_attr,
    static_layout,
    walk_ops,
)
from compiler.targets import VectorTarget

# Most reduction steps unrolled into one elementwise op (its operands and body grow
# with each); longer reductions fill a vector of their own.
MAX_STEPS = 8


def short_reduction_steps(op, vt: VectorTarget) -> int | None:
    """R if ``op`` is a reduction over a short innermost loop worth unrolling, else None."""

    if op.name != "linalg.generic" or op.results or len(op.operands) < 2 or reads_loop_indices(op):
        return None
    iters = iterator_types(op)
    if len(iters) < 2 or iters[-1] != "reduction" or "reduction" in iters[:-1]:
        return None
    maps = operand_dims(op)
    if any(m is None for m in maps):
        return None
    last = len(iters) - 1
    *inputs, out = list(op.operands)
    if last in maps[-1] or not isinstance(out.type, ir.MemRefType):
        return None
    ranges = {}
    for value, dims in zip(op.operands, maps, strict=True):
        if isinstance(value.type, ir.ShapedType):
            for d, size in zip(dims, ir.ShapedType(value.type).shape, strict=True):
                if d is not None:
                    ranges[d] = size
    steps = ranges.get(last, -1)
    outputs = prod(ranges.get(d, 1) for d in range(last))
    # Too long, or too few outputs to fill a vector. A power-of-two row longer than a
    # datapath row keeps its reduction instruction: strided loads move one element
    # per memory beat on the RTL (module docstring).
    lanes = max(1, vt.dlen // 32)
    pays = steps <= lanes or (steps & (steps - 1) and steps <= 4 * lanes)
    if not (2 <= steps <= MAX_STEPS and pays) or outputs < 2 * lanes or min(ranges.values()) < 0:
        return None
    body = [o.operation for o in op.regions[0].blocks[0].operations]
    if any(len(o.regions) for o in body) or len(body[-1].operands) != 1:
        return None
    parallel = set(range(last))
    if any(o.name in ("arith.mulf", "arith.muli") for o in body) and any(parallel - set(d) for d in maps[:-1] if d):
        return None  # a contraction (an input broadcast along an output dim): its k loop has a schedule of its own
    for value, dims in zip(inputs, maps[:-1], strict=True):
        if last in dims and (dims[-1] != last or static_layout(value.type) is None):
            return None  # read along the reduction but not innermost: not a plain slice
    return steps


def _slice(value, k: int):
    """``value[..., k]`` (its innermost dim, the reduction's, fixed at k): a rank-reduced subview."""

    mtype = ir.MemRefType(value.type)
    shape = list(mtype.shape)
    strides, offset = static_layout(mtype)
    layout = ir.StridedLayoutAttr.get(offset + k * strides[-1], strides[:-1])
    rtype = ir.MemRefType.get(shape[:-1], mtype.element_type, layout, mtype.memory_space)
    rank = len(shape)
    return memref.SubViewOp(
        rtype,
        value,
        [],
        [],
        [],
        [0] * (rank - 1) + [k],
        shape[:-1] + [1],
        [1] * rank,
    ).result


def _drop_trailing_unit_dims(out, amap, dims: list):
    """A keepdim output (``mean(dim=-1, keepdim=True)``: map ``(d0, d1, 0)``) as a view
    without its trailing size-1 dims, so the op's innermost loop is its innermost dim."""

    shape = list(ir.MemRefType(out.type).shape)
    drop = 0
    while drop < len(dims) - 1 and dims[len(dims) - 1 - drop] is None and shape[len(dims) - 1 - drop] == 1:
        drop += 1
    if not drop or static_layout(out.type) is None:
        return out, amap
    keep = len(dims) - drop
    mtype = ir.MemRefType(out.type)
    layout = None
    strides, offset = static_layout(mtype)
    if not identity_layout(mtype):
        layout = ir.StridedLayoutAttr.get(offset, strides[:keep])
    rtype = ir.MemRefType.get(shape[:keep], mtype.element_type, layout, mtype.memory_space)
    groups = [[j] for j in range(keep - 1)] + [list(range(keep - 1, len(dims)))]
    view = memref.CollapseShapeOp(rtype, out, reassociation_attr(groups)).result
    return view, ir.AffineMap.get(amap.n_dims, 0, list(amap.results)[:keep])


def unroll_reduction(op, steps: int) -> None:
    """Replace ``op`` by the elementwise op over its ``steps`` slices (module docstring)."""

    maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]
    dims = operand_dims(op)
    n = len(iterator_types(op)) - 1
    *inputs, out = list(op.operands)
    old_block = op.regions[0].blocks[0]

    def keep(amap, drop_last: bool):
        results = list(amap.results)[:-1] if drop_last else list(amap.results)
        return ir.AffineMapAttr.get(ir.AffineMap.get(n, 0, results))

    fill = fill_before(op, out)
    with ir.InsertionPoint(op), op.location:
        operands, new_maps, arg_of = [], [], {}  # arg_of[(input index, step or None)] -> new operand index
        for i, value in enumerate(inputs):
            if n in dims[i]:
                for k in range(steps):
                    arg_of[(i, k)] = len(operands)
                    operands.append(_slice(value, k))
                    new_maps.append(keep(maps[i], True))
            else:
                arg_of[(i, None)] = len(operands)
                operands.append(value)
                new_maps.append(keep(maps[i], False))
        out, out_map = _drop_trailing_unit_dims(out, maps[-1], dims[-1])
        new_maps.append(keep(out_map, False))
        parallel = ir.Attribute.parse("#linalg.iterator_type<parallel>")
        new = ir.Operation.create(
            "linalg.generic",
            results=[],
            operands=[*operands, out],
            attributes={
                "indexing_maps": ir.ArrayAttr.get(new_maps),
                "iterator_types": ir.ArrayAttr.get([parallel] * n),
                "operandSegmentSizes": ir.DenseI32ArrayAttr.get([len(operands), 1]),
            },
            regions=1,
        )
        arg_types = [
            ir.MemRefType(v.type).element_type if isinstance(v.type, ir.ShapedType) else v.type for v in operands
        ]
        out_type = ir.MemRefType(out.type).element_type
        block = new.regions[0].blocks.append(*arg_types, out_type)
        with ir.InsertionPoint(block):
            # a fill right before: its value starts the chain, and the op no longer
            # reads its output (an elementwise op compiler.rvv.elementwise_collapsing can merge)
            acc = fill.operands[0] if fill is not None else block.arguments[len(operands)]
            for k in range(steps):
                values = {old_block.arguments[len(inputs)]: acc}
                for i in range(len(inputs)):
                    key = (i, k) if (i, k) in arg_of else (i, None)
                    values[old_block.arguments[i]] = block.arguments[arg_of[key]]
                for o in list(old_block.operations)[:-1]:
                    o = o.operation
                    attrs = {o.attributes[a].name: o.attributes[a].attr for a in range(len(o.attributes))}
                    clone = ir.Operation.create(
                        o.name,
                        results=[r.type for r in o.results],
                        operands=[values.get(v, v) for v in o.operands],
                        attributes=attrs,
                    )
                    for r_old, r_new in zip(o.results, clone.results, strict=True):
                        values[r_old] = r_new
                yielded = list(old_block.operations)[-1].operation.operands[0]
                acc = values.get(yielded, yielded)
            linalg.YieldOp([acc])
    op.erase()
    if fill is not None:
        fill.erase()


def unroll_short_reductions(module, vt: VectorTarget) -> int:
    """Rewrite every qualifying reduction (module docstring); returns how many."""
    count = 0
    with module.context:
        for op in [o for o in walk_ops(module.operation) if o.name == "linalg.generic"]:
            steps = short_reduction_steps(op, vt)
            if steps is not None:
                unroll_reduction(op, steps)
                count += 1
    return count
