"""Gathers of whole table rows (embeddings) as per-row index reads and row loads.

torch-mlir lowers ``nn.Embedding`` (and ``index_select`` along dim 0) to a
``linalg.generic`` whose body reads ``table[ids[...], d_last]`` with ``memref.load``;
BERT's embeddings fuse three of them and their sum into one op. MLIR's linalg
vectorizer does not take a ``memref.load`` in a body, so such an op ran as a scalar
loop over every output element, its index checks (``cf.assert``) included: about
26 instructions per element of BERT's 16 x 64 embedding sum.

Here an op whose innermost loop L only appears as the last index of its table
reads (a row of a table with innermost stride 1), and whose other values depend
on the outer loops only, becomes loops over the outer dims: per output row the
indices are read and checked once (scalar), then each table row is one vector
load of W elements, the arithmetic runs on vectors (scalars broadcast), and the
row is one vector store. W is the innermost extent, or its largest divisor at most
``tile_lanes(4)`` (then a loop over the row's W-element chunks).

Taken only for all-parallel ops with static shapes, an identity-mapped output
with innermost stride 1, inputs that do not move along L (the ids), a body of
arith/math ops, ``linalg.index``, ``memref.load`` and ``cf.assert`` that never reads
the output, and at least one row read from a buffer known not to be the output's.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir
from torch_mlir.dialects import memref, scf, vector

from compiler.mlir_utils import (
    attributes_of,
    buffer_root,
    index_constant,
    iterator_types,
    loop_nest,
    on_vectors,
    operand_dims,
    splat,
    static_layout,
    walk_ops,
)
from compiler.targets import VectorTarget

_BODY_OPS = ("arith.", "math.", "linalg.index", "linalg.yield", "memref.load", "cf.assert")


@dataclass(frozen=True)
class RowGatherPlan:
    outer: tuple[int, ...]  # extents of the loops before L
    width: int  # W: elements per vector (divides the innermost extent)
    row: int  # the innermost extent
    varying: frozenset  # the body values that vary along L (``_row_values``)


def _index_dim(value) -> int | None:
    """The loop dim ``value`` is the ``linalg.index`` of, else None."""
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name != "linalg.index":
        return None
    return ir.IntegerAttr(owner.attributes["dim"]).value


def _row_values(op, last: int) -> set | None:
    """The body values that vary along loop ``last`` (the row loads and what is
    computed from them), or None if the body is not a row gather."""
    block = op.regions[0].blocks[0]
    row = set()
    loads = 0
    for o in block.operations:
        o = o.operation
        if not o.name.startswith(_BODY_OPS):
            return None
        if o.name == "linalg.index":
            continue
        operands = list(o.operands)
        if any(_index_dim(v) == last for v in operands):
            # the row index may only be the last index of a table read
            if o.name != "memref.load" or _index_dim(operands[-1]) != last:
                return None
            if any(_index_dim(v) == last or v in row for v in operands[1:-1]) or operands[0] in row:
                return None
            layout = static_layout(operands[0].type)
            if layout is None or layout[0][-1] != 1:
                return None
            row.add(o.results[0])
            loads += 1
            continue
        varying = any(v in row for v in operands)
        if o.name == "cf.assert" and varying:
            return None
        if o.name == "memref.load" and varying:
            return None
        if varying and o.name != "linalg.yield":
            row.update(o.results)
    if block.arguments[len(op.operands) - 1] in {v for o in block.operations for v in o.operation.operands}:
        return None  # the body reads the output
    return row if loads else None


def plan_row_gather(op, vt: VectorTarget) -> RowGatherPlan | None:
    """A plan if ``op`` is a row gather (module docstring), else None."""
    if op.name != "linalg.generic" or len(op.results) != 0:
        return None
    if any(t != "parallel" for t in iterator_types(op)):
        return None
    if any(not isinstance(v.type, ir.MemRefType) for v in op.operands):
        return None
    out = op.operands[-1]
    rank = ir.MemRefType(out.type).rank
    maps = operand_dims(op)
    if rank == 0 or maps is None or maps[-1] != list(range(rank)):
        return None
    if any(m is None or (rank - 1) in m for m in maps[:-1]):
        return None  # inputs are read once per row
    shape = ir.ShapedType(out.type).shape
    layout = static_layout(out.type)
    if any(d < 0 for d in shape) or layout is None or layout[0][-1] != 1:
        return None
    if any(static_layout(v.type) is None for v in op.operands[:-1]):
        return None
    varying = _row_values(op, rank - 1)
    if varying is None:
        return None
    # a table that may be the output's buffer: the scalar loop's element order matters
    root = buffer_root(out, globals=True)
    tables = [o.operation.operands[0] for o in op.regions[0].blocks[0].operations if o.operation.name == "memref.load"]
    roots = [buffer_root(t, globals=True) for t in tables]
    if root is None or any(r is None or r == root for r in roots):
        return None
    cap = vt.tile_lanes(4)
    width = max((w for w in range(1, min(cap, shape[-1]) + 1) if shape[-1] % w == 0), default=1)
    if width < 2:
        return None
    return RowGatherPlan(tuple(shape[:-1]), width, shape[-1], frozenset(varying))


def emit_row_gather(op, plan: RowGatherPlan) -> None:
    """Replace ``op`` by its outer loops: the scalar part of the body per row, then
    per W-element chunk the row loads, vector arithmetic and one store."""
    last = len(plan.outer)
    block = op.regions[0].blocks[0]
    body = [o.operation for o in block.operations]
    row = plan.varying
    maps = operand_dims(op)
    out = op.operands[-1]

    def row_body(ivs: list):
        c0 = index_constant(0)
        values = {}
        for n, (value, dims) in enumerate(zip(op.operands[:-1], maps[:-1], strict=True)):
            arg = block.arguments[n]
            if list(arg.uses):
                values[arg] = memref.LoadOp(value, [ivs[d] if d is not None else c0 for d in dims]).result
        for o in body[:-1]:  # the per-row scalars, checks included, in body order
            if o.name == "linalg.index":
                dim = ir.IntegerAttr(o.attributes["dim"]).value
                if dim < last:
                    values[o.results[0]] = ivs[dim]
            elif not any(r in row for r in o.results):
                operands = [values.get(v, v) for v in o.operands]
                new = ir.Operation.create(
                    o.name, results=[r.type for r in o.results], operands=operands, attributes=attributes_of(o)
                )
                values.update(zip(o.results, new.results, strict=True))

        def chunk(at):
            vec = dict(values)
            for o in body[:-1]:
                if not any(r in row for r in o.results):
                    continue
                if o.name == "memref.load":
                    vtype = ir.VectorType.get([plan.width], o.results[0].type)
                    table = o.operands[0]
                    indices = [vec.get(v, v) for v in list(o.operands)[1:-1]]
                    vec[o.results[0]] = vector.LoadOp(vtype, table, [*indices, at]).result
                    continue
                # a per-row scalar or a value from outside: broadcast
                new = on_vectors(o, plan.width, lambda v: vec[v] if v in row else splat(plan.width, vec.get(v, v)))
                vec[o.results[0]] = new[0]
            y = body[-1].operands[0]
            result = vec[y] if y in row else splat(plan.width, vec.get(y, y))
            vector.StoreOp(result, out, [*ivs, at])

        if plan.width == plan.row:
            chunk(c0)
        else:
            loop = scf.ForOp(c0, index_constant(plan.row), index_constant(plan.width))
            with ir.InsertionPoint(loop.body):
                chunk(loop.induction_variable)
                scf.YieldOp([])

    moving = [d for d, e in enumerate(plan.outer) if e != 1]  # unit dims get no loop

    def at_point(loop_ivs: list):
        ivs = [index_constant(0)] * len(plan.outer)
        for d, iv in zip(moving, loop_ivs, strict=True):
            ivs[d] = iv
        row_body(ivs)

    with ir.InsertionPoint(op), op.location:
        loop_nest(tuple(plan.outer[d] for d in moving), at_point)
    op.erase()


def gather_rows(module, vt: VectorTarget) -> list[dict]:
    """Rewrite every row gather; returns schedule entries for the report."""
    done = []
    with module.context:
        for op in [o for o in walk_ops(module.operation) if o.name == "linalg.generic"]:
            plan = plan_row_gather(op, vt)
            if plan is None:
                continue
            loc = str(op.location)
            emit_row_gather(op, plan)
            done.append(
                {
                    "loops": [*plan.outer, plan.row],
                    "tile_sizes": [*(1 for _ in plan.outer), plan.width],
                    "vectorized": True,
                    "reason": f"row gather: indices read and checked once per row, table rows by "
                    f"{plan.width}-element vector loads",
                    "loc": loc,
                }
            )
    return done
