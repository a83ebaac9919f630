"""MLIR utilities every stage shares: running pass pipelines and transform scripts on
a module, replacing a module's body, walking nested operations (the Python bindings
have no generic walker), the memref layout queries and index helpers the rewrites
use, and a few op-level predicates."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
from torch_mlir import ir, passmanager
from torch_mlir.dialects import arith, llvm, memref, scf, vector


def child_ops(op) -> Iterator:
    """The operations directly inside ``op``'s regions, in order."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                yield inner.operation


def walk_ops(op) -> Iterator:
    """Every operation nested anywhere below ``op``, in pre-order."""
    for child in child_ops(op):
        yield child
        yield from walk_ops(child)


def static_layout(mtype) -> tuple[list[int], int] | None:
    """(strides, offset) of a memref type when all are static, else None."""
    try:
        strides, offset = ir.MemRefType(mtype).get_strides_and_offset()
    except Exception:
        return None
    dyn = ir.ShapedType.get_dynamic_stride_or_offset()
    if offset == dyn or any(s == dyn for s in strides):
        return None
    return list(strides), offset


def identity_layout(mtype) -> bool:
    """Is a memref type's layout the identity map (contiguous, row-major, offset 0)?"""
    layout = ir.MemRefType(mtype).layout
    if not isinstance(layout, ir.AffineMapAttr):
        return False
    amap = ir.AffineMapAttr(layout).value
    return amap == ir.AffineMap.get_identity(amap.n_dims)


def constant_int(value) -> int | None:
    """The value of an integer ``arith.constant`` (index or iN), or None."""
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name != "arith.constant":
        return None
    attr = owner.attributes["value"]
    return ir.IntegerAttr(attr).value if isinstance(attr, ir.IntegerAttr) else None


def dense_i32(vtype, values: list[int]):
    """A dense i32 vector attribute (constant index vectors of gathers)."""
    return ir.DenseElementsAttr.get(np.asarray(values, dtype=np.int32), type=vtype)


def iterator_types(op) -> list[str]:
    """A linalg op's iterator kinds: ``parallel`` or ``reduction`` per loop."""
    return [str(a).split("<")[-1].rstrip(">") for a in ir.ArrayAttr(op.attributes["iterator_types"])]


def map_dims(amap) -> list[int | None] | None:
    """Loop dim per result of an indexing map (None for a constant 0, a broadcast),
    or None if some result is anything else (``d0 + d1``, a constant != 0)."""
    out: list[int | None] = []
    for e in amap.results:
        if isinstance(e, ir.AffineDimExpr):
            out.append(ir.AffineDimExpr(e).position)
        elif isinstance(e, ir.AffineConstantExpr) and ir.AffineConstantExpr(e).value == 0:
            out.append(None)
        else:
            return None
    return out


def operand_dims(op) -> list:
    """:func:`map_dims` of each of a linalg op's indexing maps."""
    return [map_dims(ir.AffineMapAttr(a).value) for a in ir.ArrayAttr(op.attributes["indexing_maps"])]


INDEX_PREFIX = "__cosim_idx"


def index_vector(anchor, vtype, values: list[int]):
    """A constant i32 index vector for a gather, emitted before ``anchor``.

    Left as an ``arith.constant``, LLVM materializes it well when it is an
    arithmetic sequence (the gather becomes one strided load), a repeated one (a
    row broadcast: from ``vid.v``) or all distinct (a load from the constant pool,
    narrowed to i8/i16). With few distinct values repeated in runs (an operand
    broadcast along inner dims, e.g. the built-in mul's ``(8, 1)`` operand) LLVM
    instead merges a splat per value under built masks: on t1-blastoise 52
    instructions, many of them ``vsetvli`` switches, for 256 indices. Those
    patterns are loaded from a public, mutable global instead: one ``vle32``.
    (A global LLVM may not assume unchanged is one it cannot fold back into a
    constant.) Loading every pattern was measured too: the permutes' narrowed
    constant-pool loads read 2-4x fewer bytes (built-in permute on t1-blastoise:
    284 cycles with constants, 398 with a table).
    """

    if llvm_builds_well(values):
        return arith.ConstantOp(vtype, dense_i32(vtype, values)).result
    module = anchor
    while module.name != "builtin.module":
        module = module.parent
    body = module.regions[0].blocks[0]
    taken = {ir.StringAttr(o.attributes["sym_name"]).value for o in body.operations if "sym_name" in o.attributes}
    name = next(f"{INDEX_PREFIX}{n}" for n in range(len(taken) + 1) if f"{INDEX_PREFIX}{n}" not in taken)
    i32 = ir.IntegerType.get_signless(32)
    mtype = ir.MemRefType.get([len(values)], i32)
    init = dense_i32(ir.RankedTensorType.get([len(values)], i32), values)
    with ir.InsertionPoint.at_block_begin(body):
        memref.GlobalOp(name, ir.TypeAttr.get(mtype), initial_value=init, alignment=64)
    index = ir.IndexType.get()
    table = memref.GetGlobalOp(mtype, name).result
    return vector.LoadOp(vtype, table, [arith.ConstantOp(index, 0).result]).result


def _arithmetic(values: list[int]) -> bool:
    return all(values[i] - values[i - 1] == values[1] - values[0] for i in range(2, len(values)))


def llvm_builds_well(values: list[int]) -> bool:
    """See :func:`index_vector`: arithmetic, periodic with an arithmetic period, or
    all distinct."""
    n = len(values)
    if n < 3 or _arithmetic(values) or len(set(values)) == n:
        return True
    return any(
        n % p == 0 and _arithmetic(values[:p]) and all(values[q] == values[q % p] for q in range(n))
        for p in range(2, n // 2 + 1)
    )


# Ops that give another view of the same buffer (operand 0).
VIEW_OPS = frozenset(
    {
        "memref.subview",
        "memref.reinterpret_cast",
        "memref.expand_shape",
        "memref.collapse_shape",
        "memref.cast",
        "memref.transpose",
    }
)


def buffer_root(value, *, globals: bool = False):
    """The buffer a memref value views: a block argument (forward's arguments, which
    never alias: lowering marks them noalias) or an allocation, with ``globals`` also a
    ``memref.get_global`` (one static buffer per temporary after allocations-to-globals);
    None if unknown."""

    roots = ("memref.alloc", "memref.alloca", "memref.get_global") if globals else ("memref.alloc", "memref.alloca")
    while True:
        owner = value.owner
        if isinstance(owner, ir.Block):
            return value
        name = owner.operation.name  # an OpView's .name may be its symbol attribute (get_global)
        if name in roots:
            return value
        if name not in VIEW_OPS:
            return None
        value = owner.operands[0]


def most_live_values(block) -> int:
    """Most values of ``block`` (its arguments and results of its ops, not values
    defined outside: those stay scalars) live at once, in program order."""
    ops = [o.operation for o in block.operations]
    last_use: dict = {}
    for i, o in enumerate(ops):
        for v in o.operands:
            last_use[v] = i
    live = {a for a in block.arguments if a in last_use}
    most = len(live)
    for i, o in enumerate(ops):
        live = {v for v in live if last_use[v] > i}
        live |= {r for r in o.results if r in last_use}
        most = max(most, len(live))
    return max(1, most)


def first_reader(op):
    """The first op after ``op`` in its block that uses ``op``'s output buffer (or a
    view of it, or a buffer that may alias it): the op, ``op`` itself when the output's
    buffer is unknown, or None when no later op uses it."""

    root = buffer_root(op.operands[-1])
    if root is None:
        return op
    seen = False
    for other in op.parent.regions[0].blocks[0].operations:
        other = other.operation
        if other == op:
            seen = True
        elif seen and other.name not in VIEW_OPS:
            for v in other.operands:
                if isinstance(v.type, ir.MemRefType):
                    r = buffer_root(v)
                    if r is None or r == root:  # unknown: may alias
                        return other
    return None


def memory_barrier() -> None:
    """A compiler-only memory barrier (an empty asm clobbering memory) at the current
    insertion point. Where a wide vector store is followed by narrower loads of the
    same buffer, LLVM forwards the stored value into them and rebuilds each load's
    vector element by element with slides; the barrier keeps the loads."""

    llvm.InlineAsmOp(None, [], "", "~{memory}", has_side_effects=True)


def reads_loop_indices(op) -> bool:
    """Whether a linalg op's body uses ``linalg.index`` (``triu``'s mask): renumbering
    or merging its loops would change what the body computes."""
    return any(o.name == "linalg.index" for o in walk_ops(op))


def is_mul_add(op) -> bool:
    """A linalg op whose body is ``out + a * b`` (either operand order): a contraction's."""
    body = [o.operation for o in op.regions[0].blocks[0].operations]
    if [o.name for o in body] != ["arith.mulf", "arith.addf", "linalg.yield"]:
        return False
    args = list(op.regions[0].blocks[0].arguments)
    mul, add = body[0], body[1]
    if {mul.operands[0], mul.operands[1]} != {args[0], args[1]}:
        return False
    return {add.operands[0], add.operands[1]} == {args[2], mul.results[0]}


def fill_before(op, out):
    """The fill (``is_fill``) of ``out`` directly before ``op`` in its block (an
    accumulator's init), or None."""
    previous = None
    for other in op.operation.block.operations:
        other = other.operation
        if other == op.operation:
            break
        if other.name != "llvm.inline_asm":  # a barrier (rvv.memory_barriers) moves nothing
            previous = other
    if previous is None or previous.operands[-1] != out or not is_fill(previous):
        return None
    return previous


def is_fill(op) -> bool:
    """A ``linalg.fill``, named or generalized: one scalar input, yielded as it is."""

    if op.name not in ("linalg.fill", "linalg.generic") or len(op.operands) != 2:
        return False
    if isinstance(op.operands[0].type, ir.ShapedType):
        return False
    if op.name == "linalg.fill":
        return True
    block = op.regions[0].blocks[0]
    body = [o.operation for o in block.operations]
    return len(body) == 1 and body[0].operands[0] == block.arguments[0]


# ---------------------------------------------------------------------------
# Running pipelines and transform scripts


def passes(pipeline: str) -> Callable[[object], None]:
    """A function running the pass ``pipeline`` (nested in ``builtin.module(...)``) on a module."""

    def run(module) -> None:
        with module.context:
            pm = passmanager.PassManager.parse(f"builtin.module({pipeline})")
            pm.run(module.operation)

    run.pipeline = pipeline  # type: ignore[attr-defined]
    return run


def transform_sequence(steps: str) -> str:
    """A transform module whose entry sequence runs ``steps`` on the payload root."""
    return f"""
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
{steps}
    transform.yield
  }}
}}"""


def run_transform(module, script: str) -> None:
    """Run the transform module ``script`` (its ``@__transform_main``) on ``module``."""
    with module.context:
        seq_module = ir.Module.parse(script)
        module.operation.attributes["transform.with_named_sequence"] = ir.UnitAttr.get()
        ops = list(seq_module.body.operations)
        for op in ops:
            module.body.append(op)
        try:
            passmanager.PassManager.parse("builtin.module(transform-interpreter)").run(module.operation)
        finally:
            for op in list(module.body.operations):
                if op.operation.name == "transform.named_sequence":
                    op.operation.erase()
            del module.operation.attributes["transform.with_named_sequence"]


def restore(module, text: str) -> None:
    """Replace ``module``'s body with the module printed as ``text``."""
    with module.context:
        parsed = ir.Module.parse(text)
        for op in list(module.body.operations):
            op.operation.erase()
        for op in list(parsed.body.operations):
            module.body.append(op)


def drop_attribute(module, name: str) -> None:
    """Remove the attribute ``name`` from every op of ``module``."""
    with module.context:
        for op in walk_ops(module.operation):
            if name in op.attributes:
                del op.attributes[name]


# ---------------------------------------------------------------------------
# Index arithmetic on flat memrefs


def reassociation_attr(groups: list[list[int]]):
    """A collapse/expand_shape reassociation attribute: the dims of each group."""
    i64 = ir.IntegerType.get_signless(64)
    return ir.ArrayAttr.get([ir.ArrayAttr.get([ir.IntegerAttr.get(i64, j) for j in g]) for g in groups])


def index_constant(value: int):
    """An ``index`` constant at the current insertion point."""
    return arith.ConstantOp(ir.IndexType.get(), value).result


def flat_view(value):
    """``value`` with its strides and an offset of 0: element offsets are taken from
    the memref's own first element and applied to its innermost index
    (:func:`flat_indices`). No reinterpret_cast: a view aliasing a buffer stops MLIR
    from hoisting the other contractions' accumulators out of their k loops."""
    strides, _offset = static_layout(value.type)
    return value, strides, 0


def flat_indices(value, lin) -> list:
    """Indices of element ``lin`` (a linear offset, innermost stride 1) of ``value``."""
    rank = ir.MemRefType(value.type).rank
    return [index_constant(0)] * (rank - 1) + [lin]


def loop_nest(extents, body, ivs: tuple = ()) -> None:
    """scf.for loops over ``extents`` (outermost first) at the insertion point, and
    ``body(induction variables)`` inside the innermost."""
    if not extents:
        body(list(ivs))
        return
    loop = scf.ForOp(index_constant(0), index_constant(extents[0]), index_constant(1))
    with ir.InsertionPoint(loop.body):
        loop_nest(extents[1:], body, (*ivs, loop.induction_variable))
        scf.YieldOp([])


def attributes_of(op) -> dict:
    """``op``'s attributes by name (to create a copy with other operands or types)."""
    return {op.attributes[i].name: op.attributes[i].attr for i in range(len(op.attributes))}


def splat(width: int, value):
    """``value`` (a scalar) broadcast to a vector of ``width`` elements."""
    return vector.BroadcastOp(ir.VectorType.get([width], value.type), value).result


def on_vectors(op, width: int, vector_of) -> list:
    """The scalar body op ``op`` re-emitted on vectors of ``width`` elements at the
    insertion point (a constant becomes its splat), its operands ``vector_of(v)``;
    returns the new results."""
    rtypes = [ir.VectorType.get([width], r.type) for r in op.results]
    if op.name == "arith.constant":
        return [splat(width, arith.ConstantOp(op.results[0].type, op.attributes["value"]).result)]
    operands = [vector_of(v) for v in op.operands]
    return list(ir.Operation.create(op.name, results=rtypes, operands=operands, attributes=attributes_of(op)).results)


def linear_index(offset: int, terms: list[tuple[object, int]]):
    """``offset + sum(iv * stride)`` as index arithmetic (zero strides skipped)."""
    lin = index_constant(offset)
    for iv, stride in terms:
        if stride:
            lin = arith.AddIOp(lin, arith.MulIOp(iv, index_constant(stride)).result).result
    return lin
