"""Bool temporaries as bytes.

A ``memref<...xi1>`` has a byte per element, but LLVM stores and loads an
``<N x i1>`` vector as packed bits (RVV ``vsm.v``/``vlm.v``). As long as one op
writes a bool buffer in rows and the next reads the same rows, the bits land
where they are read; once the two ops tile differently (one in flat tiles of 35,
the other in rows of 7) the reader sees another row's bits: a mask used by two
ops gave 7 wrong elements of 35 on t1-small. ``forward``'s own bool arguments
and results are bytes already (``frontend._bool_as_bytes``).

Every bool allocation used only by linalg ops and scalar ``memref.load`` /
``memref.store`` (a gather inside a linalg body: ``mask[i, idx[j]]``, as
model libraries index their attention masks) becomes an ``i8`` one: writers
``extui`` what they yield or store, readers ``trunci`` what they read. Runs
after bufferization, before the schedule.
"""

from __future__ import annotations

from torch_mlir import ir
from torch_mlir.dialects import arith

from compiler.mlir_utils import walk_ops

ALLOCATIONS = ("memref.alloc", "memref.alloca")
SCALAR_ACCESSES = ("memref.load", "memref.store")


def widen_bool_buffers(module) -> int:
    """Rewrite every i1 allocation whose users are all linalg ops; returns how many."""

    count = 0
    with module.context:
        i1 = ir.IntegerType.get_signless(1)
        for op in [o for o in walk_ops(module.operation) if o.name in ALLOCATIONS]:
            mtype = ir.MemRefType(op.results[0].type)
            if mtype.element_type != i1 or op.operands:
                continue
            users = [u.owner for u in op.results[0].uses]
            if not users or any(
                u.name not in SCALAR_ACCESSES and (not u.name.startswith("linalg.") or not u.regions) for u in users
            ):
                continue  # views, copies, calls: left as they are
            _widen(op, mtype, users)
            count += 1
    return count


def _widen(alloc, mtype, users) -> None:

    i8 = ir.IntegerType.get_signless(8)
    attrs = {alloc.attributes[i].name: alloc.attributes[i].attr for i in range(len(alloc.attributes))}
    with ir.InsertionPoint(alloc), alloc.location:
        wide = ir.MemRefType.get(list(mtype.shape), i8, mtype.layout, mtype.memory_space)
        new = ir.Operation.create(alloc.name, results=[wide], attributes=attrs).result
    old = alloc.results[0]
    for user in users:
        if user.name == "linalg.fill":
            _widen_fill(user, new, i8)
            continue
        if user.name in SCALAR_ACCESSES:
            _widen_scalar_access(user, old, new, i8)
            continue
        block = user.regions[0].blocks[0]
        n_in = _inputs(user)
        for k, value in enumerate(list(user.operands)):
            if value != old:
                continue
            user.operands[k] = new
            arg = block.arguments[k]
            arg.set_type(i8)
            uses = list(arg.uses)
            if uses:  # read: as i1 again
                with ir.InsertionPoint.at_block_begin(block), user.location:
                    narrow = arith.TruncIOp(ir.IntegerType.get_signless(1), arg).result
                for use in uses:
                    use.owner.operands[use.operand_number] = narrow
            if k >= n_in:  # written: widen what the body yields for it
                yield_op = block.operations[len(block.operations) - 1]
                j = k - n_in
                with ir.InsertionPoint(yield_op), user.location:
                    yield_op.operands[j] = arith.ExtUIOp(i8, yield_op.operands[j]).result
    alloc.erase()


def _widen_fill(fill, new, i8) -> None:
    """A fill's scalar must have the output's element type (its verifier checks it): widen the scalar before
    the fill rather than what its body yields."""
    with ir.InsertionPoint(fill), fill.location:
        value = arith.ExtUIOp(i8, fill.operands[0]).result
    fill.operands[0] = value
    fill.operands[1] = new
    block = fill.regions[0].blocks[0]
    block.arguments[0].set_type(i8)
    block.arguments[1].set_type(i8)


def _widen_scalar_access(op, old, new, i8) -> None:
    """A load reads a byte and truncates it; a store widens its value (operand 0) and writes the byte."""
    if op.name == "memref.store":
        with ir.InsertionPoint(op), op.location:
            op.operands[0] = arith.ExtUIOp(i8, op.operands[0]).result
        op.operands[1] = new
        return
    op.operands[0] = new
    result = op.results[0]
    uses = list(result.uses)
    result.set_type(i8)
    with ir.InsertionPoint.after(op), op.location:
        narrow = arith.TruncIOp(ir.IntegerType.get_signless(1), result).result
    for use in uses:
        use.owner.operands[use.operand_number] = narrow


def _inputs(op) -> int:
    """Number of input operands of a linalg op (its ``operandSegmentSizes``)."""

    sizes = ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])
    return sizes[0]
