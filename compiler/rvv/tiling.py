"""RVV tiling: each linalg op's shape, the transform scripts that tile and vectorize it."""

from __future__ import annotations

from torch_mlir import ir

from compiler.mlir_utils import (
    child_ops,
    iterator_types,
    most_live_values,
    restore,
    run_transform,
    transform_sequence,
)
from compiler.targets import OpShape, TilePlan, VectorTarget, plan_rvv, split_point

TILE_ATTR = "cosim_tile"


def linalg_ops(module) -> list:
    out = []

    def visit(op):
        for o in child_ops(op):
            if o.name == "linalg.generic":
                out.append(o)
            else:
                visit(o)

    visit(module.operation)
    return out


def _projected_or_broadcast(amap) -> bool:
    """A projected permutation, allowing constant-0 results (a size-1 dim being
    broadcast, e.g. a bias of shape (C, 1)): both vectorize as plain reads."""
    seen = set()
    for expr in amap.results:
        if isinstance(expr, ir.AffineDimExpr):
            pos = ir.AffineDimExpr(expr).position
            if pos in seen:
                return False
            seen.add(pos)
        elif not (isinstance(expr, ir.AffineConstantExpr) and ir.AffineConstantExpr(expr).value == 0):
            return False
    return True


def op_shape(op) -> OpShape:
    """Loop ranges, iterator kinds and map properties of a linalg.generic on buffers."""

    maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]
    iters = tuple(iterator_types(op))
    ranges = [-1] * len(iters)
    for operand, amap in zip(op.operands, maps, strict=False):
        if not isinstance(operand.type, ir.ShapedType):
            continue
        shape = ir.ShapedType(operand.type).shape
        for dim, expr in zip(shape, amap.results, strict=False):
            if isinstance(expr, ir.AffineDimExpr):
                pos = ir.AffineDimExpr(expr).position
                if ranges[pos] < 0 and dim >= 0:
                    ranges[pos] = dim
    projected = all(_projected_or_broadcast(m) for m in maps)
    last = len(iters) - 1

    def innermost(results):  # the last result that is a dim (trailing constants index size-1 dims)
        dims = [e for e in results if isinstance(e, ir.AffineDimExpr)]
        return ir.AffineDimExpr(dims[-1]).position if dims else None

    transposed = any(
        any(isinstance(e, ir.AffineDimExpr) and ir.AffineDimExpr(e).position == last for e in m.results)
        and innermost(list(m.results)) != last
        for m in maps
        if len(m.results)
    )
    body = [o.operation.name for o in op.regions[0].blocks[0].operations]
    # A matmul: some input is broadcast along an output dim (A along N, B along M).
    # A sum of squares about a kept mean (var) multiplies and adds too, but is a
    # row reduction: planned as a contraction it ran column tiles of 2 (9x12x2x3 on
    # t1-small: 8 933 instructions).
    parallel = {d for d, kind in enumerate(iters) if kind == "parallel"}
    inputs_dims = [
        {ir.AffineDimExpr(e).position for e in m.results if isinstance(e, ir.AffineDimExpr)} for m in maps[:-1]
    ]
    contraction = (
        "reduction" in iters
        and len(op.operands) == 3
        and any(n in body for n in ("arith.mulf", "arith.muli"))
        and any(n in body for n in ("arith.addf", "arith.addi"))
        and any(parallel - dims for dims in inputs_dims)
    )
    return OpShape(
        "linalg.generic",
        tuple(ranges),
        iters,
        projected,
        contraction,
        transposed and not contraction,
        most_live_values(op.regions[0].blocks[0]),
    )


def _match(tile_id: int, n: int) -> str:
    return (
        f"    %op{n} = transform.structured.match attributes {{{TILE_ATTR} = {tile_id} : i64}} in %root "
        f": (!transform.any_op) -> !transform.any_op"
    )


def _tile_steps(tile_id: int, plan: TilePlan, n: int = 0) -> str:
    """Transform steps tiling the op tagged ``tile_id`` by ``plan`` (handles suffixed ``n``)."""
    loops = sum(1 for s in plan.tile_sizes if s)
    steps = [_match(tile_id, n)]
    if loops:
        results = ", ".join(["!transform.any_op"] * (loops + 1))
        steps.append(
            f"    %t{n}, %loops{n}{':' + str(loops) if loops > 1 else ''} = transform.structured.tile_using_for "
            f"%op{n} tile_sizes {list(plan.tile_sizes)} : (!transform.any_op) -> ({results})"
        )
        if plan.unroll > 1 and plan.tile_sizes[-1]:
            handle = f"%loops{n}#{loops - 1}" if loops > 1 else f"%loops{n}"
            steps.append(f"    transform.loop.unroll {handle} {{factor = {plan.unroll}}} : !transform.any_op")
    return "\n".join(steps)


def _to_loops_steps(tile_id: int, n: int = 0) -> str:
    return (
        _match(tile_id, n)
        + f"\n    %l{n} = transform.structured.convert_to_loops %op{n} : (!transform.any_op) -> !transform.any_op"
    )


def _tile_script(tile_id: int, plan: TilePlan) -> str:
    return transform_sequence(_tile_steps(tile_id, plan))


def _split_script(tile_id: int, loop: int, at: int) -> str:
    return transform_sequence(
        _match(tile_id, 0)
        + f"\n    %parts = transform.structured.split %op0 after {at} {{dimension = {loop}}} : !transform.any_op"
    )


def split_narrow_loops(module, vt) -> int:
    """Split ops whose loop has no useful full-tile size in two (targets.split_point):
    each part is planned on its own. Returns how many ops were split."""

    with module.context:
        splits = []
        for i, op in enumerate(linalg_ops(module)):
            point = split_point(op_shape(op), vt)
            if point is not None:
                op.attributes[TILE_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), i)
                splits.append((i, *point))
    for i, loop, at in splits:
        run_transform(module, _split_script(i, loop, at))
    return len(splits)


def _to_loops_script(tile_id: int) -> str:
    return transform_sequence(_to_loops_steps(tile_id))


# After tiling: drop unit dimensions (a 1 x n tile becomes a rank-1 op, a k-by-1
# matmul step becomes acc[j] += a * b[j]), vectorize every tiled op and
# canonicalize (a reduction over a unit dim becomes an add before the
# multi-reduction patterns of LOWER_VECTORS_SCRIPT could unroll it into scalars).
# Then (LOWER_VECTORS_SCRIPT) lower and keep loop-invariant accumulators in
# registers across reduction loops (CSE first: hoisting needs the accumulator's
# read and write at the same index values, and a split op's offset column index
# was computed once for each).
# fold_unit_extent_dims and canonicalization run as two pattern sets: applied
# together they rewrite each other's output forever on a tile comparing two
# broadcast operands (torch.where(a > b, ...) with a (1, N), b (M, 1), e.g. triu).
VECTORIZE_SCRIPT = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices
    } : !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %v {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}"""


# Between the two, compiler.rvv.contractions_to_reductions rewrites contractions along a reduction dim.
LOWER_VECTORS_SCRIPT = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %v = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %v {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.lower_outerproduct
      transform.apply_patterns.vector.reorder_multi_reduction_dims lowering_strategy = "innerreduction"
      transform.apply_patterns.vector.multi_reduction_flattening lowering_strategy = "innerreduction"
      transform.apply_patterns.vector.multi_reduction_unrolling lowering_strategy = "innerreduction"
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %loops = transform.structured.match ops{["scf.for"]} in %v : (!transform.any_op) -> !transform.any_op
    transform.apply_licm to %loops : !transform.any_op
    transform.apply_cse to %v : !transform.any_op
    %h = transform.structured.hoist_redundant_vector_transfers %v : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %h {
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.vector.sink_mem_ops
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}"""


def tile_all(module, plans: list[tuple[int, TilePlan]]) -> dict[int, str]:
    """Tile every op tagged with its plan's id, or (plan not vectorized) turn it into
    loops now, so the function-wide vectorizer never sees it: a generic that looks
    like a convolution (a depthwise conv) passed its precondition and then failed
    the whole function. Returns the ops whose tiling failed, with the reason.

    One interpreter run does them all: a run costs about 40 ms on a CIFAR-size CNN
    (its convolutions' slices are ~500 ops: 19.8 of its 22.8 s of lowering). If
    the combined run fails, the module is restored and each op runs alone."""
    steps = [_tile_steps(i, plan, i) if plan.vectorize else _to_loops_steps(i, i) for i, plan in plans]
    snapshot = module.operation.get_asm(enable_debug_info=True)
    try:
        run_transform(module, transform_sequence("\n".join(steps)))
        return {}
    except Exception:
        restore(module, snapshot)
    failed = {}
    for i, plan in plans:
        if not plan.vectorize:
            run_transform(module, _to_loops_script(i))
            continue
        try:
            run_transform(module, _tile_script(i, plan))
        except Exception as e:
            failed[i] = str(e).splitlines()[0][:200]
    return failed


def tile_ops(module, vt: VectorTarget) -> list[dict]:
    """Plan every linalg op (``targets.plan_rvv``), tag it with its index and tile them
    all (``tile_all``). Returns the schedule report's entry of each op: loops, tile
    sizes, vectorized or why not."""

    with module.context:
        plans = []
        for i, op in enumerate(linalg_ops(module)):
            shape = op_shape(op)
            plan = plan_rvv(shape, vt)
            op.attributes[TILE_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), i)
            plans.append((i, shape, plan, str(op.location)))
    failed = tile_all(module, [(i, plan) for i, _shape, plan, _loc in plans])
    entries = []
    for i, shape, plan, loc in plans:
        entry = {
            "op": i,
            "loops": list(shape.loop_ranges),
            "iterators": list(shape.iterators),
            "tile_sizes": list(plan.tile_sizes),
            "vectorized": False,
            "reason": plan.reason,
            "loc": loc,
        }
        if plan.vectorize and i in failed:  # the op stays scalar: correct, just slower
            entry["reason"] = f"tiling failed, scalar loops instead: {failed[i]}"
        elif plan.vectorize:
            entry["vectorized"] = True
        entries.append(entry)
    return entries


def untiled_ops(module) -> set[int]:
    """The indices (``TILE_ATTR``) of the linalg ops still in ``module``: after the
    schedule, those the vectorizer declined (their loops stay scalar)."""

    with module.context:
        return {
            int(ir.IntegerAttr(op.attributes[TILE_ATTR]).value)
            for op in linalg_ops(module)
            if TILE_ATTR in op.attributes
        }
