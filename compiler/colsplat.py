"""Broadcast operands from a vector register instead of from scalar loads.

After tiling, unroll-and-jam and unrolling, a contraction's inner loop holds one
``memref.load`` + ``vector.broadcast`` per jammed output row (``A[b, r, k]`` for
r = 0..R-1, the rows' left-hand operand at the current k). Lowered as they are,
each becomes a scalar ``flw`` feeding one ``vfmacc.vf``: when a row is a single
column tile (wide datapaths, short rows: t1-blastoise's 8 lanes), half of the
loop's instructions run on the scalar core, one per vector FMA.

When those loads differ only by constant indices along one dimension, in equal
steps, and each scalar feeds exactly one vector op, this pass reads them with
one strided vector load (``vlse``) and makes each broadcast a lane splat of it
(``vector.shuffle`` with a constant mask, which LLVM emits as ``vrgather.vi``).
A scalar shared by several column tiles (t1-small) stays a scalar load: it is
already amortized. The vector unit writes a splat one datapath row per cycle on
whichever engine is free (the LSU while the sequencer runs the FMAs), so splats
are limited to ``SPLAT_MAX_ROWS`` rows.

Measured on t1-blastoise's RTL (``cycles_forward``; compiler/README.md): the
vector share of the small matmuls rises from 46-48% to 57-85%; mm is as fast
as with scalar operands, bmm and addmm take 10% more cycles, the MLP 29% and
linear 88% (their column loads' latency is exposed: LLVM schedules each
``vlse`` just before its splats). ``SPLAT_MAX_ROWS = 0`` restores the scalar
operands.
"""

from __future__ import annotations

from collections import defaultdict

from compiler.irwalk import child_ops, static_layout
from compiler.strided import strided_gather

# Longest splat, in DLEN-bit datapath rows (24 fp32 columns on t1-blastoise's 256-bit rows = 3).
SPLAT_MAX_ROWS = 4
# vrgather.vi's immediate is 5 bits: lanes 0..31 splat without a scalar index.
MAX_GROUP = 32


def _const_index(value) -> int | None:
    from torch_mlir import ir

    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name != "arith.constant":
        return None
    attr = owner.attributes["value"]
    return ir.IntegerAttr(attr).value if isinstance(attr, ir.IntegerAttr) else None


def _writes(op) -> bool:
    """May ``op`` write memory (or call something that does)?"""
    return op.name in _WRITES or bool(op.regions)


_WRITES = {
    "memref.store", "vector.store", "vector.transfer_write", "vector.scatter", "vector.maskedstore",
    "memref.copy", "func.call", "linalg.generic", "linalg.fill", "linalg.copy",
}


def _splat_users(ir, load, dlen: int) -> list | None:
    """The ``vector.broadcast`` users of a scalar load, if all its users are
    broadcasts to 1-D vectors of at most SPLAT_MAX_ROWS datapath rows."""
    users = [u.owner for u in load.results[0].uses]
    if len(users) != 1 or users[0].name != "vector.broadcast":
        return None
    if len(list(users[0].results[0].uses)) != 1:
        return None  # a scalar feeding several vector ops (column tiles) is already cheap
    for u in users:
        vt = ir.VectorType(u.results[0].type)
        if vt.rank != 1 or vt.scalable or vt.shape[0] * vt.element_type.width > SPLAT_MAX_ROWS * dlen:
            return None
    return users


def _groups(ir, block_ops, dlen: int) -> list[list[tuple[int, object, list]]]:
    """Loads of one block that differ in a single constant index, as lists of
    (constant, load op, broadcast users), each sorted by the constant."""
    by_key: dict = defaultdict(list)
    for op in block_ops:
        if op.name != "memref.load":
            continue
        mtype = op.operands[0].type
        if not isinstance(mtype, ir.MemRefType) or not isinstance(ir.MemRefType(mtype).element_type, ir.FloatType):
            continue
        users = _splat_users(ir, op, dlen)
        if users is None:
            continue
        idx = list(op.operands[1:])
        for d, v in enumerate(idx):
            c = _const_index(v)
            if c is None:
                continue
            others = tuple(("c", _const_index(x)) if _const_index(x) is not None else x for i, x in enumerate(idx) if i != d)
            by_key[(op.operands[0], d, others)].append((c, op, users))
    groups, taken = [], set()
    # prefer the largest groups; a load belongs to one group only
    for (_src, d, _o), members in sorted(by_key.items(), key=lambda kv: -len(kv[1])):
        members = [m for m in members if id(m[1]) not in taken]
        consts = sorted({m[0] for m in members})
        if len(consts) < 2 or len(consts) != len(members):
            continue
        step = consts[1] - consts[0]
        if any(b - a != step for a, b in zip(consts, consts[1:])):
            continue
        members.sort(key=lambda m: m[0])
        for i in range(0, len(members), MAX_GROUP):
            chunk = members[i : i + MAX_GROUP]
            if len(chunk) >= 2:
                groups.append((d, step, chunk))
                taken.update(id(m[1]) for m in chunk)
    return groups


def broadcasts_to_lane_splats(module, dlen: int) -> int:
    """Rewrite every qualifying group of broadcast scalar loads; returns how many loads."""
    from torch_mlir import ir
    from torch_mlir.dialects import arith, vector

    done = 0

    def defined_before(value, ops, limit: int) -> bool:
        owner = value.owner
        if isinstance(owner, ir.Block):
            return True
        try:
            return ops.index(owner.operation) < limit
        except ValueError:  # defined outside this block: dominates all of it
            return True

    def visit(op) -> None:
        nonlocal done
        for region in op.regions:
            for block in region.blocks:
                ops = [o.operation for o in block.operations]
                groups = sorted(_groups(ir, ops, dlen), key=lambda g: min(ops.index(m[1]) for m in g[2]))
                # Every column load goes to the top (before the first group's first load)
                # when nothing in between writes memory: the LSU then fetches the next
                # columns while the splats of the first one run.
                top = min((ops.index(m[1]) for g in groups for m in g[2]), default=0)
                placed = []
                for d, step, chunk in groups:
                    first_load = chunk[0][1]
                    pos = sorted(ops.index(m[1]) for m in chunk)
                    at = top
                    if any(_writes(o) for o in ops[at : pos[-1]]) or not all(
                        defined_before(v, ops, at) for v in first_load.operands
                    ):
                        at = pos[0]
                    if any(_writes(o) for o in ops[at : pos[-1]]):
                        continue  # the loads cannot move above a store
                    src = first_load.operands[0]
                    mtype = ir.MemRefType(src.type)
                    layout = static_layout(ir, mtype)
                    if layout is None:
                        continue
                    strides, offset = layout
                    vt = ir.VectorType.get([len(chunk)], mtype.element_type)
                    anchor = ops[at]
                    with ir.InsertionPoint(anchor), anchor.location:
                        base = list(first_load.operands[1:])
                        base[d] = arith.ConstantOp(ir.IndexType.get(), chunk[0][0]).result
                        zero = arith.ConstantOp(mtype.element_type, 0.0).result
                        passthru = vector.BroadcastOp(vt, zero).result
                        col = strided_gather(src, mtype, strides, offset, base, step * strides[d], len(chunk), passthru)
                    placed.append((col, chunk))
                # only now erase: the loads above anchor the later groups' insertion points
                for col, chunk in placed:
                    for lane, (_c, load, users) in enumerate(chunk):
                        for b in users:
                            width = ir.VectorType(b.results[0].type).shape[0]
                            with ir.InsertionPoint(b), b.location:
                                splat = vector.ShuffleOp(col, col, [lane] * width).result
                            b.results[0].replace_all_uses_with(splat)
                            b.erase()
                        load.erase()
                        done += 1
                for o in block.operations:
                    visit(o.operation)

    with module.context, ir.Location.unknown():
        visit(module.operation)
    return done
