"""Matmuls with narrow outputs, vectorized over a block of whole output rows.

The row-segment form of a contraction (``acc[j:j+w] += a[i,k] * B[k, j:j+w]``, a
``vfmacc.vf``) needs one scalar A load per FMA when the output row cannot be
split into two or more column tiles (``targets.column_tile``: N < 4 or prime;
a matrix-vector product has N = 1). Then at most half of the instructions are
vector ones and the vectors are short.

Instead, R whole output rows (``R*N`` elements, contiguous in C) become one
vector, and every k step is

    acc[p] += A[i0 + p / N, k] * B[k, p % N]     for p in [0, R*N)

with both operands read by ``vector.gather`` with a constant index vector
(LLVM: ``vluxei32``, or ``vlse32`` when the indices are an arithmetic sequence,
as for a matrix-vector product): two vector loads and one ``vfmacc.vv`` per k,
and no scalar FMA operand. R is the largest divisor of M with ``R*N`` at most
VLMAX at LMUL 4 (accumulator, operands and index vectors fit the registers).

A gather moves, per memory beat, the consecutive elements of a row whose
addresses lie in one aligned memory word on our RTL (a unit-stride load moves the
whole word): A's column costs a beat per output row every k, so this form is only
used where the row-segment form would leave the vector unit mostly idle (N = 1).
Batch rows (``plan_batch_rows``) put the batch in the vector instead: a batched
matmul whose output row fits one datapath row, A[b, i, k] for a block of batches
one gather of N equal indices per batch.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir
from torch_mlir.dialects import arith, scf, vector

from compiler.mlir_utils import (
    fill_before,
    flat_indices,
    flat_view,
    index_constant,
    index_vector,
    is_mul_add,
    iterator_types,
    linear_index,
    loop_nest,
    operand_dims,
    static_layout,
    walk_ops,
)
from compiler.targets import VectorTarget

# Fewest rows a block gathered with indexed loads (a non-power-of-two block) needs.
MIN_INDEXED_ROWS = 5
# Most k steps whose B rows batch-rows keeps in registers (one vector each)
MAX_HELD_K = 8


@dataclass(frozen=True)
class FlatPlan:
    batch: tuple[int, ...]  # batch loop extents (outermost first)
    m: int
    n: int
    k: int
    rows: int  # R: output rows per vector
    tail: int = 0  # rows of one last, shorter block (M % R)


def plan_narrow_matmul(op, vt: VectorTarget) -> FlatPlan | None:
    """A plan if ``op`` (a linalg.generic on memrefs) is a (batched) matmul whose
    output rows cannot be split into column tiles, else None."""

    if op.name != "linalg.generic" or len(op.operands) != 3 or not is_mul_add(op):
        return None
    if any(not isinstance(v.type, ir.MemRefType) for v in op.operands):
        return None
    iters = iterator_types(op)
    n_loops = len(iters)
    if n_loops < 3 or iters[-1] != "reduction" or any(t != "parallel" for t in iters[:-1]):
        return None
    maps = operand_dims(op)  # a broadcast (None) never equals the matmul maps below
    if any(m is None for m in maps):
        return None
    nb = n_loops - 3
    batch = list(range(nb))
    i, j, k = nb, nb + 1, nb + 2
    if maps[0] != [*batch, i, k] or maps[1] != [*batch, k, j] or maps[2] != [*batch, i, j]:
        return None
    shapes = [ir.ShapedType(v.type).shape for v in op.operands]
    if any(d < 0 for s in shapes for d in s):
        return None
    m, kk = shapes[0][-2], shapes[0][-1]
    n = shapes[1][-1]
    layouts = [static_layout(v.type) for v in op.operands]
    if any(lay is None for lay in layouts):
        return None
    if any(lay[0][-1] != 1 for lay in layouts):
        return None  # gathers and loads index the innermost dim linearly
    c_strides = layouts[2][0]
    if c_strides[-1] != 1 or c_strides[-2] != n:  # rows of C must be contiguous
        return None
    if n != 1:
        # For N >= 2 the row-segment form (one unit-stride B row per k, vfmacc.vf)
        # kept the unit busier per cycle when gathers moved one element per memory
        # beat (t1-blastoise RTL: flattened here, bmm 8x8x8 took 10 616 cycles
        # against 2 246, the MLP's 10-column layer 3.9x longer). Gathers now pack a
        # row's elements of one block into a beat, and it still loses: A's column
        # takes a beat per row every k (forward cycles, t1-blastoise RTL, row form /
        # flattened: mlp 4 036 / 34 706, linear 670 / 1 449, addmm 1 395 / 2 960,
        # BERT 298 956 / 349 129). Batched matmuls with one-row outputs use
        # plan_batch_rows instead.
        return None
    vlmax = vt.tile_lanes(4)  # accumulator, two operands and two index vectors fit without spills
    rows = max((r for r in range(1, m + 1) if m % r == 0 and r * n <= vlmax), default=1)
    tail = 0
    if rows == 1 and m > vlmax:
        # a prime M past VLMAX: full blocks and a shorter one (on t1-small mm 37x13x1
        # ran VL-1 FMAs, 1 771 instructions against rv32's 1 703)
        rows, tail = vlmax, m % vlmax
    # The row-segment form is one FMA per row and k at VL N = 1. LLVM gathers a
    # power-of-two block with strided loads, any other with indexed loads whose
    # indices it rebuilds every k step (~15 cycles a step, the row form ~5 a
    # row). Measured on RTL (cycles in forward, Linear(64, 1), row form / flat):
    # t1-blastoise 2 rows 601 / 408, 3 rows 757 / 1 175, 4 rows 924 / 514,
    # 5 rows 1 723 / 1 336, 7 rows 2 259 / 1 449, 8 rows 2 552 / 860, 12 rows
    # 4 873 / 2 122; t1-small 2 rows 601 / 408, 3 rows 757 / 1 369.
    if rows == 1 or (rows & (rows - 1) and rows < MIN_INDEXED_ROWS):
        return None
    return FlatPlan(tuple(shapes[2][:nb]), m, n, kk, rows, tail)


def emit_flat_matmul(op, plan: FlatPlan) -> None:
    """Replace ``op`` by loops over batches and row blocks, each a k loop of two
    constant-index gathers and one vector FMA on a hoisted accumulator (then one
    shorter block for the ``tail`` rows, if any)."""

    a_val, b_val, c_val = op.operands[0], op.operands[1], op.operands[2]
    f32 = ir.MemRefType(c_val.type).element_type
    with ir.InsertionPoint(op), op.location:
        a_flat, a_st, a_off = flat_view(a_val)
        b_flat, b_st, b_off = flat_view(b_val)
        c_flat, c_st, c_off = flat_view(c_val)
        zero = arith.ConstantOp(f32, ir.FloatAttr.get(f32, 0.0)).result
        c0, c1 = index_constant(0), index_constant(1)

        def operands(rows: int) -> tuple:
            """Vector type, index vectors, mask and pass-through of a block of ``rows`` rows
            (built here, before every loop)."""
            width = rows * plan.n
            vtype = ir.VectorType.get([width], f32)
            itype = ir.VectorType.get([width], ir.IntegerType.get_signless(32))
            mtype = ir.VectorType.get([width], ir.IntegerType.get_signless(1))
            idx_a = index_vector(op, itype, [(p // plan.n) * a_st[-2] for p in range(width)])
            idx_b = index_vector(op, itype, [(p % plan.n) * b_st[-1] for p in range(width)])
            mask = arith.ConstantOp(mtype, ir.DenseElementsAttr.get_splat(mtype, ir.BoolAttr.get(True))).result
            return vtype, idx_a, idx_b, mask, vector.BroadcastOp(vtype, zero).result

        shapes = {rows: operands(rows) for rows in {plan.rows, plan.tail} if rows}

        def blocks(ivs: list, first: int, end: int, rows: int):
            """Row blocks of ``rows`` rows from ``first`` to ``end``."""
            vtype, idx_a, idx_b, mask, passthru = shapes[rows]
            loop = scf.ForOp(index_constant(first), index_constant(end), index_constant(rows))
            with ir.InsertionPoint(loop.body):
                i0 = loop.induction_variable
                c_at = linear_index(c_off, [*zip(ivs, c_st[:-2], strict=True), (i0, c_st[-2])])
                acc0 = vector.LoadOp(vtype, c_flat, flat_indices(c_flat, c_at)).result
                kloop = scf.ForOp(c0, index_constant(plan.k), c1, [acc0])
                with ir.InsertionPoint(kloop.body):
                    kv = kloop.induction_variable
                    a_at = linear_index(a_off, [*zip(ivs, a_st[:-2], strict=True), (i0, a_st[-2]), (kv, a_st[-1])])
                    # B may have fewer batch dims than C only through broadcasting maps, excluded by plan_narrow_matmul
                    b_at = linear_index(b_off, [*zip(ivs, b_st[:-2], strict=True), (kv, b_st[-2])])
                    av = vector.GatherOp(vtype, a_flat, flat_indices(a_flat, a_at), idx_a, mask, passthru).result
                    bv = vector.GatherOp(vtype, b_flat, flat_indices(b_flat, b_at), idx_b, mask, passthru).result
                    acc = vector.FMAOp(av, bv, kloop.inner_iter_args[0]).result
                    scf.YieldOp([acc])
                vector.StoreOp(kloop.results[0], c_flat, flat_indices(c_flat, c_at))
                scf.YieldOp([])

        def row_blocks(ivs: list):
            full = plan.m - plan.tail
            blocks(ivs, 0, full, plan.rows)
            if plan.tail:
                blocks(ivs, full, plan.m, plan.tail)

        loop_nest(plan.batch, row_blocks)
    op.erase()


@dataclass(frozen=True)
class BatchRowPlan:
    outer: tuple[int, ...]  # loop extents of the batch dims before the last one
    batch: int  # extent of the last batch dim
    block: int  # batches per vector (a divisor of ``batch``)
    m: int
    n: int
    k: int


def plan_batch_rows(op, vt: VectorTarget) -> BatchRowPlan | None:
    """A plan if ``op`` is a batched matmul whose output rows fit one datapath row
    (N * 32 <= DLEN, N >= 2) over a batch that puts two or more of them in a vector
    and a K whose B rows stay in registers, else None."""

    if op.name != "linalg.generic" or len(op.operands) != 3 or not is_mul_add(op):
        return None
    if any(not isinstance(v.type, ir.MemRefType) for v in op.operands):
        return None
    iters = iterator_types(op)
    nb = len(iters) - 3
    if nb < 1 or iters[-1] != "reduction" or any(t != "parallel" for t in iters[:-1]):
        return None
    batch = list(range(nb))
    i, j, k = nb, nb + 1, nb + 2
    if operand_dims(op) != [[*batch, i, k], [*batch, k, j], [*batch, i, j]]:
        return None
    shapes = [ir.ShapedType(v.type).shape for v in op.operands]
    if any(d < 0 for s in shapes for d in s) or any(static_layout(v.type) is None for v in op.operands):
        return None
    m, kk, n = shapes[0][-2], shapes[0][-1], shapes[1][-1]
    bl = shapes[2][nb - 1]
    if n < 2 or n * 32 > vt.dlen or kk > MAX_HELD_K:
        return None
    vlmax = vt.tile_lanes(1)
    block = max((d for d in range(1, bl + 1) if bl % d == 0 and d * n <= vlmax), default=1)
    if block < 2:
        return None
    return BatchRowPlan(tuple(shapes[2][: nb - 1]), bl, block, m, n, kk)


def emit_batch_rows(op, plan: BatchRowPlan) -> None:
    """Replace ``op`` by loops over outer batches, batch blocks and output rows i: one
    vector holds row i of ``block`` consecutive batches (element p: batch p / N,
    column p % N). Per block, B's K rows of those batches are gathered once; per row
    and k one gather of A[b, i, k] (a run of N equal indices per batch: one memory
    beat each) and one vector FMA; the row is scattered to C. A fill of C right
    before becomes the accumulators' start and goes; otherwise they start from a
    gather of C."""

    a_val, b_val, c_val = op.operands[0], op.operands[1], op.operands[2]
    f32 = ir.MemRefType(c_val.type).element_type
    with ir.InsertionPoint(op), op.location:
        fill = fill_before(op, c_val)
        a_flat, a_st, a_off = flat_view(a_val)
        b_flat, b_st, b_off = flat_view(b_val)
        c_flat, c_st, c_off = flat_view(c_val)
        c0 = index_constant(0)
        width = plan.block * plan.n
        vtype = ir.VectorType.get([width], f32)
        itype = ir.VectorType.get([width], ir.IntegerType.get_signless(32))
        mtype = ir.VectorType.get([width], ir.IntegerType.get_signless(1))
        nb = len(plan.outer) + 1
        idx_a = index_vector(op, itype, [(p // plan.n) * a_st[nb - 1] for p in range(width)])
        idx_b = index_vector(op, itype, [(p // plan.n) * b_st[nb - 1] + (p % plan.n) * b_st[-1] for p in range(width)])
        idx_c = index_vector(op, itype, [(p // plan.n) * c_st[nb - 1] + (p % plan.n) * c_st[-1] for p in range(width)])
        mask = arith.ConstantOp(mtype, ir.DenseElementsAttr.get_splat(mtype, ir.BoolAttr.get(True))).result
        zero = arith.ConstantOp(f32, ir.FloatAttr.get(f32, 0.0)).result
        passthru = vector.BroadcastOp(vtype, zero).result
        start = None if fill is None else vector.BroadcastOp(vtype, fill.operands[0]).result

        def block_body(ivs: list):
            loop = scf.ForOp(c0, index_constant(plan.batch), index_constant(plan.block))
            with ir.InsertionPoint(loop.body):
                b0 = loop.induction_variable
                lead = [*ivs, b0]
                rows_b = []
                for kk in range(plan.k):
                    kv = index_constant(kk)
                    b_at = linear_index(b_off, [*zip(lead, b_st[:nb], strict=True), (kv, b_st[-2])])
                    rows_b.append(
                        vector.GatherOp(vtype, b_flat, flat_indices(b_flat, b_at), idx_b, mask, passthru).result
                    )
                for row in range(plan.m):
                    iv = index_constant(row)
                    c_at = linear_index(c_off, [*zip(lead, c_st[:nb], strict=True), (iv, c_st[-2])])
                    acc = start
                    if acc is None:  # C holds values: start from them
                        acc = vector.GatherOp(vtype, c_flat, flat_indices(c_flat, c_at), idx_c, mask, passthru).result
                    for kk in range(plan.k):
                        kv = index_constant(kk)
                        a_at = linear_index(a_off, [*zip(lead, a_st[:nb], strict=True), (iv, a_st[-2]), (kv, a_st[-1])])
                        av = vector.GatherOp(vtype, a_flat, flat_indices(a_flat, a_at), idx_a, mask, passthru).result
                        acc = vector.FMAOp(av, rows_b[kk], acc).result
                    vector.ScatterOp(None, c_flat, flat_indices(c_flat, c_at), idx_c, mask, acc)
                scf.YieldOp([])

        loop_nest(plan.outer, block_body)
    op.erase()
    if fill is not None:
        fill.erase()


def flatten_narrow_matmuls(module, vt: VectorTarget) -> list[dict]:
    """Rewrite every qualifying contraction (see module docstring); returns what was done."""
    done = []
    with module.context:
        ops = [o for o in walk_ops(module.operation) if o.name == "linalg.generic"]
        for op in ops:
            rows = plan_batch_rows(op, vt)
            if rows is not None:
                loc = str(op.location)
                emit_batch_rows(op, rows)
                done.append(
                    {
                        "loops": [*rows.outer, rows.batch, rows.m, rows.n, rows.k],
                        "tile_sizes": [*(1 for _ in rows.outer), rows.block, 1, rows.n, rows.k],
                        "vectorized": True,
                        "reason": f"batch rows: row i of {rows.block} batches x {rows.n} columns per vector, "
                        "A and B by block gathers (B's rows held), C by scatter",
                        "loc": loc,
                    }
                )
                continue
            plan = plan_narrow_matmul(op, vt)
            if plan is None:
                continue
            loc = str(op.location)
            emit_flat_matmul(op, plan)
            done.append(
                {
                    "loops": [*plan.batch, plan.m, plan.n, plan.k],
                    "tile_sizes": [*(1 for _ in plan.batch), plan.rows, plan.n, 1],
                    "vectorized": True,
                    "reason": f"narrow contraction: {plan.rows} rows x {plan.n} columns per vector, "
                    "A and B read by constant-index gathers, k by 1",
                    "loc": loc,
                }
            )
    return done
