"""Contractions vectorized along their reduction dim: a multiply and a reduction.

A multiply-add reduction whose tile spans its reduction dim (``(a * v).sum(-1)``,
an op the RVV plan vectorizes along its innermost loop like any reduction) comes
out of MLIR's vectorizer as a ``vector.contract`` such as
``<1x64> x <64> -> <1>``. The schedule lowers contractions to outer products
(right for a matmul row: its k dim is tiled by 1), which for a reduction dim of
64 is 64 rank-1 updates of one element, each an extract, a broadcast and an
FMA at VL 1: ``(a * v).sum(-1)`` of 64x64 took 41 534 instructions on t1-small,
more than rv32 (29 456).

Here such a contraction (reduction dims not all of size 1) becomes
``multi_reduction<add>(lhs * rhs, acc)``, which the schedule lowers row by row to
an ordered reduction (``vfredosum``: the scalar loop's summation order, with one
rounding per product instead of the FMA's fused one).

Only contractions whose operands read the iteration dims in order, each a
suffix of them or all of them (a missing leading dim is a ``vector.broadcast``),
with a plain ``add`` kind, are rewritten.
"""

from __future__ import annotations

from torch_mlir import ir
from torch_mlir.dialects import arith, vector

from compiler.mlir_utils import map_dims, walk_ops


def _plan(op) -> tuple[list[int], list[int]] | None:
    """(iteration shape, reduction dims) of a contraction to rewrite, else None."""

    if "#vector.kind<add>" not in str(op.attributes["kind"]):
        return None
    kinds = [str(t) for t in ir.ArrayAttr(op.attributes["iterator_types"])]
    amaps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["indexing_maps"])]
    maps = [map_dims(m) for m in amaps]
    if any(m is None or None in m for m in maps):
        return None
    n = amaps[0].n_dims
    shape = [0] * n
    reduction = [d for d, k in enumerate(kinds) if "reduction" in k]
    for dims, value in zip(maps[:2], op.operands[:2], strict=True):
        if not isinstance(value.type, ir.VectorType) or dims != list(range(n - len(dims), n)):
            return None  # an operand that reads dims out of order, or misses an inner one
        for d, extent in zip(dims, ir.VectorType(value.type).shape, strict=True):
            shape[d] = extent
    if 0 in shape or all(shape[d] == 1 for d in reduction):
        return None  # a matmul row (k tiled by 1) stays an outer product
    if maps[2] != [d for d in range(n) if d not in reduction]:
        return None
    return shape, reduction


def contractions_to_reductions(module) -> int:
    """Rewrite every qualifying ``vector.contract`` (see the module docstring);
    returns how many."""

    done = 0
    with module.context:
        for op in [o for o in walk_ops(module.operation) if o.name == "vector.contract"]:
            plan = _plan(op)
            if plan is None:
                continue
            shape, reduction = plan
            lhs, rhs, acc = op.operands[0], op.operands[1], op.operands[2]
            with ir.InsertionPoint(op), op.location:
                full = ir.VectorType.get(shape, ir.VectorType(lhs.type).element_type)
                a = lhs if ir.VectorType(lhs.type).shape == shape else vector.BroadcastOp(full, lhs).result
                b = rhs if ir.VectorType(rhs.type).shape == shape else vector.BroadcastOp(full, rhs).result
                product = arith.MulFOp(a, b).result
                kind = ir.Attribute.parse("#vector.kind<add>")
                result = vector.MultiDimReductionOp(kind, product, acc, reduction).result
            op.results[0].replace_all_uses_with(result)
            op.erase()
            done += 1
    return done


def merge_unit_reduction_dims(module) -> int:
    """A contraction over several reduction dims, all of size 1 (a window-views
    convolution tiled by 1 along ``ic``, ``kh`` and ``kw``), as one over a single
    reduction dim: the matmul-row form that lowers to one outer product. MLIR's
    outer-product lowering takes only one reduction dim; with three it falls back to
    an element-by-element chain (LeNet-5's conv2: 6.6 M instructions). Returns how many."""

    done = 0
    with module.context:
        for op in [o for o in walk_ops(module.operation) if o.name == "vector.contract"]:
            if "#vector.kind<add>" not in str(op.attributes["kind"]):
                continue
            kinds = [str(t) for t in ir.ArrayAttr(op.attributes["iterator_types"])]
            maps = [map_dims(ir.AffineMapAttr(m).value) for m in ir.ArrayAttr(op.attributes["indexing_maps"])]
            if any(m is None or None in m for m in maps):
                continue
            reduction = [d for d, k in enumerate(kinds) if "reduction" in k]
            if len(reduction) < 2 or not all(isinstance(v.type, ir.VectorType) for v in op.operands[:3]):
                continue
            extents: dict[int, int] = {}
            for dims, value in zip(maps, op.operands[:3], strict=True):
                extents.update(zip(dims, ir.VectorType(value.type).shape, strict=True))
            if any(extents.get(d) != 1 for d in reduction):
                continue
            dropped = set(reduction[1:])
            keep = [d for d in range(len(kinds)) if d not in dropped]
            renumber = {d: i for i, d in enumerate(keep)}
            with ir.InsertionPoint(op), op.location:
                operands, new_maps = [], []
                for dims, value in zip(maps, op.operands[:3], strict=True):
                    vt = ir.VectorType(value.type)
                    kept = [(d, s) for d, s in zip(dims, vt.shape, strict=True) if d not in dropped]
                    shape = [s for _, s in kept]
                    if shape != list(vt.shape):
                        value = vector.ShapeCastOp(ir.VectorType.get(shape, vt.element_type), value).result
                    operands.append(value)
                    exprs = [ir.AffineDimExpr.get(renumber[d]) for d, _ in kept]
                    new_maps.append(ir.AffineMapAttr.get(ir.AffineMap.get(len(keep), 0, exprs)))
                iters = ir.ArrayAttr.get([ir.ArrayAttr(op.attributes["iterator_types"])[d] for d in keep])
                new = vector.ContractionOp(
                    op.results[0].type, *operands, ir.ArrayAttr.get(new_maps), iters, kind=op.attributes["kind"]
                ).result
            op.results[0].replace_all_uses_with(new)
            op.erase()
            done += 1
    return done
