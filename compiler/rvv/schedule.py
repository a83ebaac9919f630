"""The RVV schedule: the rewrites, tiling and register blocking a vector target gets, in order."""

from __future__ import annotations

from typing import TYPE_CHECKING

from compiler.mlir_utils import verify_after
from compiler.rvv.register_blocking import (
    JAM_ATTR,
    ROW_ATTR,
    UNROLL_ATTR,
    loop_transform_script,
    mark_accumulator_loops,
    mark_jam_loops,
    mark_row_loops,
)
from compiler.rvv.tiling import (
    LOWER_VECTORS_SCRIPT,
    TILE_ATTR,
    VECTORIZE_SCRIPT,
    linalg_ops,
    op_shape,
    split_narrow_loops,
    tile_all,
)

if TYPE_CHECKING:
    from compiler.pipeline import ScheduleReport

from torch_mlir import ir

from compiler.mlir_utils import (
    drop_attribute,
    first_reader,
    is_fill,
    memory_barrier,
    passes,
    restore,
    run_transform,
)
from compiler.rewrites.index_compare_narrowing import narrow_index_compares
from compiler.rvv.contractions_to_reductions import contractions_to_reductions
from compiler.rvv.elementwise_collapsing import collapse_elementwise
from compiler.rvv.elementwise_flattening import flatten_elementwise
from compiler.rvv.lane_splats import broadcasts_to_lane_splats
from compiler.rvv.narrow_matmul_flattening import flatten_narrow_matmuls
from compiler.rvv.short_reduction_unrolling import unroll_short_reductions
from compiler.rvv.strided_gathers import strided_reads_to_gathers, unit_broadcasts_to_splats
from compiler.targets import Target, plan_rvv


def barriers_between_ops(module) -> int:
    """A compiler-only memory barrier after each linalg op whose output a later op
    reads. Once LLVM unrolls an op's loops, it forwards the stores into the next
    op's loads of another width and rebuilds each loaded vector element by element,
    often through the stack: a padded input's 19 row copies into 399-element im2col
    rows (a 3x3 conv of 19x19 on t1-blastoise: 44 496 instructions, 2 192 with the
    barrier), rows of 72 into a 360-element reduction (layer_norm over [5, 8, 9]:
    6 800, 1 478). On the built-in cases the barriers cost -0.5% to +2.4%
    instructions, at most +1.6% RTL cycles (softmax on t1-small). A matmul's
    accumulator init is left to forwarding (the bias or zeros it starts from: with a
    barrier there, a Linear of 18 -> 43 on two rows lost 4% of its vector share), and
    so are fills (a reduction's zeros were stored and reloaded with ``flw`` per row).
    Returns how many."""

    count = 0
    with module.context:
        for op in linalg_ops(module):
            reader = first_reader(op)
            if reader is None or is_fill(op):  # a forwarded fill is a constant: always a win
                continue
            if reader.name == "linalg.generic" and reader != op and op_shape(reader).contraction:
                continue  # a fill or bias forwarded into a matmul's accumulators is a win
            with ir.InsertionPoint.after(op), op.location:
                memory_barrier()
            count += 1
    return count


def schedule_rvv(module, target: Target, report: ScheduleReport) -> None:

    passes("func.func(linalg-generalize-named-ops),canonicalize")(module)
    assert target.vector is not None
    narrow_index_compares(module)
    verify_after(module, "narrowidx")
    barriers_between_ops(module)
    unroll_short_reductions(module, target.vector)
    verify_after(module, "shortred")
    collapse_elementwise(module, target.vector)
    verify_after(module, "collapse")
    for n, entry in enumerate(flatten_narrow_matmuls(module, target.vector)):
        report.ops.append({"op": f"flat{n}", "iterators": [], **entry})
    for n, entry in enumerate(flatten_elementwise(module, target.vector)):
        report.ops.append({"op": f"flatew{n}", "iterators": [], **entry})
    verify_after(module, "flatmm/flatew")
    split_narrow_loops(module, target.vector)
    with module.context:
        ops = linalg_ops(module)
        plans = []
        for i, op in enumerate(ops):
            shape = op_shape(op)
            plan = plan_rvv(shape, target.vector)
            op.attributes[TILE_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), i)
            plans.append((i, shape, plan, str(op.location)))
    failed = tile_all(module, [(i, plan) for i, _shape, plan, _loc in plans])
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
        report.ops.append(entry)
    run_transform(module, VECTORIZE_SCRIPT)
    contractions_to_reductions(module)
    verify_after(module, "dotcontract")
    run_transform(module, LOWER_VECTORS_SCRIPT)
    strided_reads_to_gathers(module)
    unit_broadcasts_to_splats(module)
    for _round in range(2):  # column tiles, then the rows around them
        snapshot = module.operation.get_asm()
        marked = mark_jam_loops(module, target.vector.vlen)
        try:
            for factor in marked:
                script = loop_transform_script(f"{JAM_ATTR} = {factor} : i64", "unroll_and_jam", factor)
                run_transform(module, script)
        except Exception:  # a loop MLIR cannot jam: keep the round's input (correct, less blocked)
            restore(module, snapshot)
            break
        # A jammed loop keeps its mark: the next round's script would jam it again
        # (a conv's 17 remaining column-tile pairs by 2: MLIR refused, and the rows
        # around them were not jammed either).
        drop_attribute(module, JAM_ATTR)
        passes("canonicalize,cse")(module)
        if not marked:
            break
    for factor in mark_accumulator_loops(module, target.vector.vlen):
        run_transform(module, loop_transform_script(f"{UNROLL_ATTR} = {factor} : i64", "unroll", factor))
    for factor in mark_row_loops(module):
        run_transform(module, loop_transform_script(f"{ROW_ATTR} = {factor} : i64", "unroll", factor))
    passes("canonicalize,cse")(module)
    if broadcasts_to_lane_splats(module, target.vector.dlen):
        passes("canonicalize,cse")(module)
    # Whatever linalg op is still there was not vectorized (its loops stay scalar).
    with module.context:
        left = {
            int(ir.IntegerAttr(op.attributes[TILE_ATTR]).value)
            for op in linalg_ops(module)
            if TILE_ATTR in op.attributes
        }
    for entry in report.ops:
        if entry["op"] in left and entry["vectorized"]:
            entry["vectorized"] = False
            entry["reason"] += "; the vectorizer declined it (scalar loops)"
