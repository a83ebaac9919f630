"""Transposing elementwise ops (permute, transpose) as flat strips of the output.

Vectorized per output row, a permute (rows read along a strided dim) or a
broadcast with short rows spends about as many scalar instructions (addresses,
scalar operands, loop control) as vector ones. Here the output, contiguous and
row-major, is cut into tiles of W elements made of whole trailing dims (plus r
rows of the next dim), so every tile reads each operand at the same pattern
of offsets from a base that depends only on the outer loop indices:

    out[base_o + q] = f(x[base_x + idx_x[q]], y[base_y + idx_y[q]], ...)   q in [0, W)

An operand whose pattern is ``0, 1, 2, ...`` is a plain vector load; any other
(a transpose, a broadcast over a dim, a constant stride) a ``vector.gather``
with the constant index vector (LLVM: ``vluxei32``, or ``vlse32`` for a constant
stride). The op's scalar body is re-emitted on vectors of W elements.

Only ops with parallel loops, static shapes and strided layouts, a contiguous
identity-mapped output and a body of arith/math ops are rewritten, and only when
some input is read transposed (its dims out of loop order) and the output rows
are short (innermost extent below half a vector). Broadcasts alone keep the
row-wise schedule (a scalar load and a ``.vf`` op per row: no indexed loads).
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir
from torch_mlir.dialects import arith, scf, vector

from compiler.mlir_utils import (
    flat_indices,
    flat_view,
    index_vector,
    iterator_types,
    linear_index,
    most_live_values,
    on_vectors,
    operand_dims,
    splat,
    static_layout,
    walk_ops,
)
from compiler.targets import VectorTarget, elementwise_lmul


@dataclass(frozen=True)
class FlatTile:
    shape: tuple[int, ...]  # output (= loop) extents
    split: int  # loops before this index are outer loops; ``split - 1`` steps by ``rows``
    rows: int
    width: int  # W


def _offset(dims: list[int | None], strides: list[int], point: list[int]) -> int:
    return sum(s * point[d] for d, s in zip(dims, strides, strict=True) if d is not None)


def plan_flat_elementwise(op, vt: VectorTarget) -> FlatTile | None:

    if op.name != "linalg.generic":
        return None
    iters = iterator_types(op)
    if not iters or any(t != "parallel" for t in iters):
        return None
    if any(not isinstance(v.type, ir.MemRefType) or ir.MemRefType(v.type).rank == 0 for v in op.operands):
        return None
    body = [o.operation for o in op.regions[0].blocks[0].operations]
    if any(not (o.name.startswith(("arith.", "math.")) or o.name == "linalg.yield") for o in body):
        return None
    out_arg = op.regions[0].blocks[0].arguments[len(op.operands) - 1]
    if list(out_arg.uses):
        return None  # the body reads the output (an accumulation): not elementwise
    n_out = len(op.results) if op.results else None
    maps = operand_dims(op)
    if any(m is None for m in maps) or len(maps) != len(op.operands):
        return None
    out_val, out_map = op.operands[-1], maps[-1]
    if n_out not in (None, 0) or len(body[-1].operands) != 1:
        return None
    shape = tuple(ir.ShapedType(out_val.type).shape)
    if out_map != list(range(len(iters))) or any(d <= 0 for d in shape):
        return None
    layouts = [static_layout(v.type) for v in op.operands]
    if any(lay is None or (lay[0] and lay[0][-1] != 1) for lay in layouts):
        return None  # loads and gathers index the innermost dim linearly
    strides = layouts[-1][0]
    expect, contiguous = 1, True
    for d, s in zip(reversed(shape), reversed(strides), strict=True):
        contiguous &= s == expect or d == 1
        expect *= d
    if not contiguous:
        return None
    inputs = maps[:-1]
    # as wide as the body's live values allow without spills (targets.elementwise_lmul)
    lmul = elementwise_lmul(most_live_values(op.regions[0].blocks[0]))
    if shape[-1] * 2 > vt.tile_lanes(lmul):
        return None  # long rows: the row-wise schedule's unit-stride loads serve them
    # A transposing read (an input's dims out of loop order) is gathered either way.
    transposed = any([d for d in m if d is not None] != sorted(d for d in m if d is not None) for m in inputs if m)
    small = vt.tile_lanes(max(1, lmul // 2))
    for cap in (vt.tile_lanes(lmul), small):
        tile = _tile(shape, cap)
        if tile.width < 2 * max(1, vt.dlen // 32):
            return None
        points = _local_points(tile)
        gathered = [
            m
            for m, lay in zip(inputs, layouts[:-1], strict=True)
            if [_offset(m, lay[0], p) for p in points] != list(range(tile.width))
        ]
        # a broadcast operand whose tile pattern does not move with the outer loops is
        # gathered once (hoisted): then whole-row-multiple tiles of unit-stride loads win
        invariant = all(all(d is None or d >= tile.split for d in m) for m in gathered)
        if transposed and cap == small:
            return tile  # gathers every tile: keep the index vectors small
        tiles = 1
        for d in shape:
            tiles *= d
        tiles //= tile.width
        # the hoisted gather must serve several tiles (one tile of the whole tensor
        # would trade per-row scalar operands for an element-per-beat gather)
        if not transposed and invariant and tile.width > shape[-1] and tiles >= 2:
            return tile
    return None


def _tile(shape: tuple[int, ...], cap: int) -> FlatTile:
    """Tiles of whole trailing dims (plus r rows of the next) of at most ``cap`` elements."""
    rank = len(shape)
    split, inner = rank, 1
    while split > 0 and inner * shape[split - 1] <= cap:
        split -= 1
        inner *= shape[split]
    rows = 1
    if split > 0:
        rows = max(r for r in range(1, shape[split - 1] + 1) if shape[split - 1] % r == 0 and r * inner <= cap)
    return FlatTile(shape, split, rows, rows * inner)


def _local_points(tile: FlatTile) -> list[list[int]]:
    """Loop points (relative to a tile's origin) of the W tile elements, in output order."""
    rank = len(tile.shape)
    first = tile.split - 1 if tile.split > 0 else None
    extents = [1] * rank
    for d in range(tile.split, rank):
        extents[d] = tile.shape[d]
    if first is not None:
        extents[first] = tile.rows
    points = []
    for q in range(tile.width):
        p, rem = [0] * rank, q
        for d in reversed(range(rank)):
            p[d] = rem % extents[d]
            rem //= extents[d]
        points.append(p)
    return points


def _zero(etype):
    return ir.FloatAttr.get(etype, 0.0) if isinstance(etype, ir.FloatType) else ir.IntegerAttr.get(etype, 0)


def emit_flat(op, tile: FlatTile) -> None:

    maps = operand_dims(op)
    block = op.regions[0].blocks[0]
    body = [o.operation for o in block.operations]
    points = _local_points(tile)
    rank = len(tile.shape)
    with ir.InsertionPoint(op), op.location:
        index = ir.IndexType.get()
        views = [flat_view(v) for v in op.operands]
        ivt = ir.VectorType.get([tile.width], ir.IntegerType.get_signless(32))
        mt = ir.VectorType.get([tile.width], ir.IntegerType.get_signless(1))
        mask = arith.ConstantOp(mt, ir.DenseElementsAttr.get_splat(mt, ir.BoolAttr.get(True))).result
        patterns = []
        for (_flat, strides, _off), dims in zip(views, maps, strict=True):
            pat = [_offset(dims, strides, p) for p in points]
            if pat == list(range(tile.width)):
                patterns.append(None)  # unit stride
            else:
                patterns.append(index_vector(op, ivt, pat))
        c0 = arith.ConstantOp(index, 0).result
        # Gathered operands the outer loops do not move (a broadcast row) are read once,
        # here: memory reads are not hoisted out of the loops by LICM.
        hoisted = {}
        for n, ((flat, _strides, off), dims, pat) in enumerate(zip(views[:-1], maps[:-1], patterns[:-1], strict=True)):
            arg = block.arguments[n]
            if pat is not None and list(arg.uses) and all(d is None or d >= tile.split for d in dims):
                etype = ir.MemRefType(flat.type).element_type
                vtype = ir.VectorType.get([tile.width], etype)
                passthru = vector.BroadcastOp(vtype, arith.ConstantOp(etype, _zero(etype)).result).result
                base = arith.ConstantOp(index, off).result
                hoisted[arg] = vector.GatherOp(vtype, flat, flat_indices(flat, base), pat, mask, passthru).result

        def build(level: int, ivs: list):
            outer = tile.split if tile.split > 0 else 0
            if level < outer:
                step = tile.rows if level == outer - 1 else 1
                loop = scf.ForOp(
                    c0, arith.ConstantOp(index, tile.shape[level]).result, arith.ConstantOp(index, step).result
                )
                with ir.InsertionPoint(loop.body):
                    build(level + 1, [*ivs, loop.induction_variable])
                    scf.YieldOp([])
                return
            values = dict(hoisted)
            for n, ((flat, strides, off), dims, pat) in enumerate(
                zip(views[:-1], maps[:-1], patterns[:-1], strict=True)
            ):
                arg = block.arguments[n]
                if not list(arg.uses) or arg in values:
                    continue
                terms = [(ivs[d], s) for d, s in zip(dims, strides, strict=True) if d is not None and d < len(ivs)]
                base = linear_index(off, terms)
                etype = ir.MemRefType(flat.type).element_type
                vtype = ir.VectorType.get([tile.width], etype)
                if pat is None:
                    values[arg] = vector.LoadOp(vtype, flat, flat_indices(flat, base)).result
                else:
                    zero = arith.ConstantOp(etype, _zero(etype)).result
                    passthru = vector.BroadcastOp(vtype, zero).result
                    values[arg] = vector.GatherOp(vtype, flat, flat_indices(flat, base), pat, mask, passthru).result
            for o in body[:-1]:
                # an operand defined outside the body: a scalar to broadcast
                new = on_vectors(o, tile.width, lambda v: values[v] if v in values else splat(tile.width, v))
                values.update(zip(o.results, new, strict=True))
            y = body[-1].operands[0]
            result = values[y] if y in values else splat(tile.width, y)
            flat, strides, off = views[-1]
            terms = [(ivs[d], strides[d]) for d in range(min(len(ivs), rank))]
            vector.StoreOp(result, flat, flat_indices(flat, linear_index(off, terms)))

        build(0, [])
    op.erase()


def flatten_elementwise(module, vt: VectorTarget) -> list[dict]:
    """Rewrite every qualifying elementwise op; returns schedule entries for the report."""
    done = []
    with module.context:
        for op in [o for o in walk_ops(module.operation) if o.name == "linalg.generic"]:
            tile = plan_flat_elementwise(op, vt)
            if tile is None:
                continue
            loc = str(op.location)
            emit_flat(op, tile)
            done.append(
                {
                    "loops": list(tile.shape),
                    "tile_sizes": [1] * max(0, tile.split - 1)
                    + ([tile.rows] if tile.split else [])
                    + list(tile.shape[tile.split :]),
                    "vectorized": True,
                    "reason": f"transposing/broadcasting elementwise op: flat tiles of {tile.width} output elements, "
                    "strided or broadcast operands read by constant-index gathers",
                    "loc": loc,
                }
            )
    return done
