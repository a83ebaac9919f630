"""Broadcast operands from a vector register instead of from scalar loads.

After tiling, unroll-and-jam and unrolling, a contraction's inner loop holds one
``memref.load`` + ``vector.broadcast`` per jammed output row (``A[b, r, k]`` for
r = 0..R-1, the rows' left-hand operand at the current k). Lowered as they are,
each becomes a scalar ``flw`` feeding one ``vfmacc.vf``: when a row is a single
column tile (wide datapaths, short rows: t1-blastoise's 8 lanes), half of the
loop's instructions run on the scalar core, one per vector FMA.

When those loads differ only by constant offsets along one dimension (``c``
or ``i + c``), in equal steps, and each scalar feeds exactly one vector op,
this pass reads them with one vector load and makes each broadcast a lane splat of it
(``vector.shuffle`` with a constant mask, which LLVM emits as ``vrgather.vi``):
a strided one (``vlse``, one memory beat per element) for a column, a unit-stride
one for a run along the innermost dimension (one beat; marked ``nontemporal`` so
that the llvm-ir stage makes it a ``vp.load``, ``compiler.llvm.splat_row_loads``:
LLVM folds every lane splat of a plain load into a scalar load feeding a ``.vf``).
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

A group's splats are placed together before the first FMA they feed. Interleaved
(splat, FMA, splat, ...) LLVM gives every splat the same temporary register, and the
unit's scoreboard makes each splat wait for the FMA reading the previous one (WAR):
bmm 8x8x8 on t1-blastoise 2 306 cycles grouped, 2 402 interleaved.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import pairwise

from torch_mlir import ir
from torch_mlir.dialects import arith, vector

from compiler.mlir_utils import buffer_root, constant_int, static_layout
from compiler.rvv.strided_gathers import strided_gather

# Longest splat, in DLEN-bit datapath rows (24 fp32 columns on t1-blastoise's 256-bit rows = 3).
SPLAT_MAX_ROWS = 4
# vrgather.vi's immediate is 5 bits: lanes 0..31 splat without a scalar index.
MAX_GROUP = 32


def _const_index(value) -> int | None:

    return constant_int(value)


# Consumers a splat may feed: vector ops the lanes do at one row per cycle, like the
# .vf form they replace (a scalar operand of anything else may be computed on once).
_ONE_ROW_PER_CYCLE = {"vector.fma", "arith.addf", "arith.subf", "arith.mulf"}

# Stores: the operand index of the memref they write.
_STORES = {
    "memref.store": 1,
    "vector.store": 1,
    "vector.transfer_write": 1,
    "vector.scatter": 0,
    "vector.maskedstore": 0,
}


def _may_write(op, root) -> bool:
    """May ``op`` write the buffer ``root`` (or call something that does)?"""
    if op.name in _STORES:
        other = buffer_root(op.operands[_STORES[op.name]])
        return root is None or other is None or other == root
    return op.name in _OTHER_WRITES or bool(op.regions)


_OTHER_WRITES = {"memref.copy", "func.call", "linalg.generic", "linalg.fill", "linalg.copy"}


def _splat_users(load, dlen: int) -> list | None:
    """The ``vector.broadcast`` user of a scalar load, if that is its only user, it
    has one user itself (an FMA, add, sub or mul), and its 1-D vector (at least 2
    elements) spans at most SPLAT_MAX_ROWS datapath rows."""
    users = [u.owner for u in load.results[0].uses]
    if len(users) != 1 or users[0].name != "vector.broadcast":
        return None
    consumers = [u.owner for u in users[0].results[0].uses]
    if len(consumers) != 1:
        return None  # a scalar feeding several vector ops (column tiles) is already cheap
    if consumers[0].name not in _ONE_ROW_PER_CYCLE:
        return None  # e.g. a divf: LLVM divides the scalar once, a splat would divide every element
    for u in users:
        vt = ir.VectorType(u.results[0].type)
        if vt.rank != 1 or vt.scalable or vt.shape[0] * vt.element_type.width > SPLAT_MAX_ROWS * dlen:
            return None
        if vt.shape[0] < 2:
            return None  # a one-element "broadcast" is a scalar moved into a register: no splat
    return users


def _split_index(value) -> tuple[object, int]:
    """(base, constant) with value = base + constant; base None for a constant."""
    c = _const_index(value)
    if c is not None:
        return None, c
    owner = value.owner
    if not hasattr(owner, "name") or owner.name != "arith.addi":
        return value, 0
    for a, b in ((0, 1), (1, 0)):
        c = _const_index(owner.operands[b])
        if c is not None:
            return owner.operands[a], c
    return value, 0


def _groups(block_ops, dlen: int) -> list[tuple[int, int, list[tuple[int, object, list]]]]:
    """Loads of one block whose indices differ only in a constant offset along one
    dimension d (``c`` or ``i + c``), as (d, step, [(offset, load, broadcast users)])
    with the offsets in equal steps, sorted."""
    by_key: dict = defaultdict(list)
    for op in block_ops:
        if op.name != "memref.load":
            continue
        mtype = op.operands[0].type
        if not isinstance(mtype, ir.MemRefType) or not isinstance(ir.MemRefType(mtype).element_type, ir.FloatType):
            continue
        users = _splat_users(op, dlen)
        if users is None:
            continue
        idx = [_split_index(v) for v in op.operands[1:]]
        for d, (base, c) in enumerate(idx):
            others = tuple(x if b is None else (b, x) for i, (b, x) in enumerate(idx) if i != d)
            by_key[(op.operands[0], d, base, others)].append((c, op, users))
    groups, taken = [], set()

    def usable(members):
        """The members not yet taken, sorted, if their offsets are in equal steps."""
        members = sorted((m for m in members if id(m[1]) not in taken), key=lambda m: m[0])
        consts = [m[0] for m in members]
        if len(consts) < 2 or len(set(consts)) != len(consts):
            return None
        step = consts[1] - consts[0]
        return (step, members) if all(b - a == step for a, b in pairwise(consts)) else None

    # Largest group first, re-ranked after every pick (a load belongs to one group
    # only): the unrolled k copies of R jammed rows form R-row and k-long groups
    # alike, and ranking once mixed them (one 4-row column, then 3-long k runs:
    # LLVM reads 3 lanes with a masked or indexed load).
    pending = dict(by_key)
    while pending:
        ranked = {key: usable(members) for key, members in pending.items()}
        ranked = {key: u for key, u in ranked.items() if u is not None}
        if not ranked:
            break
        # on a tie, the run along the innermost dimension: one memory beat, not one per element
        key = max(ranked, key=lambda k: (len(ranked[k][1]), k[1] == ir.MemRefType(k[0].type).rank - 1))
        step, members = ranked.pop(key)
        del pending[key]
        for i in range(0, len(members), MAX_GROUP):
            chunk = members[i : i + MAX_GROUP]
            if len(chunk) >= 2:
                groups.append((key[1], step, chunk))
                taken.update(id(m[1]) for m in chunk)
    return groups


def broadcasts_to_lane_splats(module, dlen: int) -> int:
    """Rewrite every qualifying group of broadcast scalar loads; returns how many loads."""

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
                groups = sorted(_groups(ops, dlen), key=lambda g: min(ops.index(m[1]) for m in g[2]))
                # Every column load goes to the top (before the first group's first load)
                # when nothing in between writes memory: the LSU then fetches the next
                # columns while the splats of the first one run.
                top = min((ops.index(m[1]) for g in groups for m in g[2]), default=0)
                placed = []
                for d, step, chunk in groups:
                    first_load = chunk[0][1]
                    root = buffer_root(first_load.operands[0])
                    dim_base, _c0 = _split_index(first_load.operands[1 + d])
                    shared = [v for i, v in enumerate(first_load.operands) if i != 1 + d]
                    if dim_base is not None:
                        shared.append(dim_base)
                    pos = sorted(ops.index(m[1]) for m in chunk)
                    at = top
                    if any(_may_write(o, root) for o in ops[at : pos[-1]]) or not all(
                        defined_before(v, ops, at) for v in shared
                    ):
                        at = pos[0]
                    if any(_may_write(o, root) for o in ops[at : pos[-1]]):
                        continue  # the loads cannot move above a store to their buffer
                    src = first_load.operands[0]
                    mtype = ir.MemRefType(src.type)
                    layout = static_layout(mtype)
                    if layout is None:
                        continue
                    strides, offset = layout
                    elem_step = step * strides[d]
                    lanes = list(range(len(chunk)))
                    start = chunk[0][0]
                    row = elem_step == 1 and step == 1 and d == mtype.rank - 1
                    if elem_step == 1 and not row:
                        # contiguous along a dimension that is not the innermost: read it
                        # backwards (vlse, stride -1 element; a gather of stride 1 would fold
                        # to a plain load, see below) and splat the lanes in reverse
                        elem_step, start, lanes = -1, chunk[-1][0], lanes[::-1]
                    vt = ir.VectorType.get([len(chunk)], mtype.element_type)
                    anchor = ops[at]
                    with ir.InsertionPoint(anchor), anchor.location:
                        index_t = ir.IndexType.get()
                        base = list(first_load.operands[1:])
                        base[d] = arith.ConstantOp(index_t, start).result
                        if dim_base is not None:
                            base[d] = arith.AddIOp(dim_base, base[d]).result
                        if row:
                            # contiguous: one unit-stride load (a memory beat), marked so the
                            # llvm-ir stage makes it a vp.load (splat_row_loads): LLVM turns
                            # each lane splat of a plain load into a scalar load + .vf operand
                            col = vector.LoadOp(vt, src, base, nontemporal=True).result
                        else:
                            zero = arith.ConstantOp(mtype.element_type, 0.0).result
                            passthru = vector.BroadcastOp(vt, zero).result
                            col = strided_gather(src, mtype, strides, offset, base, elem_step, len(chunk), passthru)
                    placed.append((col, [(lane, m) for lane, m in zip(lanes, chunk, strict=True)]))

                # only now erase: the loads above anchor the later groups' insertion points
                def position(b, ops=ops):
                    """Where ``b`` is in this block (len(ops): not in it)."""
                    try:
                        return ops.index(getattr(b, "operation", b))
                    except ValueError:
                        return len(ops)

                # a group's splats all go before its first consumer (when all its consumers are
                # in this block): each gets its own register, so the splats run ahead of the
                # FMAs they feed instead of waiting, one temporary at a time, for the FMA before
                firsts = []
                for _, members in placed:
                    consumers = [b for _l, (_c, _ld, us) in members for b in us]
                    inside = all(position(b) < len(ops) for b in consumers)
                    firsts.append(min(consumers, key=position) if inside else None)
                for (col, members), first in zip(placed, firsts, strict=True):
                    splats = []
                    for lane, (_c, _load, users) in members:
                        for b in users:
                            width = ir.VectorType(b.results[0].type).shape[0]
                            with ir.InsertionPoint(b if first is None else first), b.location:
                                splats.append((b, vector.ShuffleOp(col, col, [lane] * width).result))
                    for b, splat in splats:
                        b.results[0].replace_all_uses_with(splat)
                        b.erase()
                    for _lane, (_c, load, _users) in members:
                        load.erase()
                        done += 1
                for o in block.operations:
                    visit(o.operation)

    with module.context, ir.Location.unknown():
        visit(module.operation)
    return done
