"""Lowering: linalg-on-tensors to the LLVM dialect, as a named pipeline of stages.

Every stage is a name plus a function that rewrites the module in place; the
pipeline prints the IR after each stage when asked (``--dump-ir DIR`` writes
``NN-<stage>.mlir``), so each step can be read and checked in tests.

Stages (``stage_names(target)``):

- ``preprocess``: fuse elementwise ops, ``math-expand-ops`` (tanh, rsqrt, ...),
  then our exp/erf polynomials (:mod:`compiler.mathexpand`).
- ``bufferize``: one-shot bufferization; results become out-parameters of
  ``forward`` (``modify-public-functions``), temporaries up to 1 KiB move to the
  stack, larger ones become static buffers (:mod:`compiler.staticbufs`).
- ``schedule``: the target strategy. Scalar: nothing. RVV: named ops generalized,
  each linalg op tiled and vectorized with sizes from VLEN
  (:func:`compiler.targets.plan_rvv`) by the transform dialect, then
  loop-invariant accumulators hoisted out of reduction loops.
- ``to-loops``: what is left of linalg becomes scf loops; vector transfers of rank
  > 1 become loops of rank-1 transfers.
- ``to-llvm``: LLVM dialect with ``index`` = XLEN bits (memref descriptors of
  ``_mlir_ciface_forward`` match the C side's ``intptr_t`` fields).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from torch_mlir import ir
from torch_mlir.dialects import linalg

from compiler.boolbufs import widen_bool_buffers
from compiler.collapse import collapse_elementwise
from compiler.colsplat import broadcasts_to_lane_splats
from compiler.copyelim import eliminate_output_copies
from compiler.dotcontract import contractions_to_reductions
from compiler.errors import CompileError
from compiler.flatew import flatten_elementwise
from compiler.flatmm import flatten_narrow_matmuls
from compiler.fusion import fuse_elementwise
from compiler.mathexpand import expand_math
from compiler.mlir_utils import (
    child_ops,
    constant_int,
    drop_attribute,
    first_reader,
    identity_layout,
    is_fill,
    iterator_types,
    memory_barrier,
    most_live_values,
    passes,
    restore,
    run_transform,
    transform_sequence,
    walk_ops,
)
from compiler.narrowidx import narrow_index_compares
from compiler.shortred import unroll_short_reductions
from compiler.staticbufs import allocations_to_globals, place_buffers
from compiler.strided import strided_reads_to_gathers, unit_broadcasts_to_splats
from compiler.targets import OpShape, Target, TilePlan, plan_rvv, split_point

TILE_ATTR = "cosim_tile"


@dataclass
class Stage:
    name: str
    run: Callable[[object], None]


@dataclass
class ScheduleReport:
    """What the schedule stage did to each linalg op (for coverage and tests)."""

    ops: list[dict] = field(default_factory=list)

    @property
    def vectorized(self) -> int:
        return sum(1 for o in self.ops if o["vectorized"])


# What MLIR's math-expand-ops rewrites for us: all it knows but ceil, whose
# expansion loses the sign of a -0.0 result (ceil(-0.5)); mathexpand does ceil.
MLIR_EXPANDED = "ctlz,tan,sinh,cosh,asinh,acosh,atanh,tanh,fma,exp2,powf,roundeven,round,rsqrt,fpowi"


def _preprocess(module) -> None:
    fuse_elementwise(module)
    passes(f"canonicalize,cse,func.func(math-expand-ops{{ops={MLIR_EXPANDED}}})")(module)
    expand_math(module)
    passes("canonicalize,cse")(module)


def _mark_noalias(module) -> None:
    """Arguments of ``forward`` never alias (the program builder gives each its own
    buffer): saying so lets accumulators be hoisted and LLVM vectorize freely."""

    with module.context:
        for op in module.body.operations:
            if op.operation.name == "func.func" and op.attributes["sym_name"].value == "forward":
                n = len(op.regions[0].blocks[0].arguments)
                attrs = ir.DictAttr.get({"llvm.noalias": ir.UnitAttr.get()})
                op.attributes["arg_attrs"] = ir.ArrayAttr.get([attrs] * n)


def _mark_data_pointers_noalias(module) -> None:
    """Scalar targets: ``convert-func-to-llvm`` puts ``forward``'s ``llvm.noalias``
    on the C wrapper's descriptor pointers only, which says nothing about the
    data, so LLVM reloaded every operand after each store. Mark each memref's
    aligned pointer (the second of every allocated/aligned pair; the allocated
    one is never dereferenced): rv32's mm 103 104 -> 91 200 instructions, conv2d
    75 430 -> 48 284, mean 1 342 -> 608. harness.program gives every argument its
    own buffer; a caller of ``_mlir_ciface_forward`` must too.

    Vector targets keep may-alias pointers: there the freedom let LLVM's
    scheduler hoist every LMUL-8 load of an unrolled strip loop (the built-in add
    on t1-small spilled 32 register groups, RTL 806 -> 1 504 cycles), and an
    uncaptured noalias buffer is out of reach of the compiler-only barriers
    schedule_rvv places (layer_norm over [5, 8, 9] on t1-blastoise: 1 480 ->
    14 900 instructions; handing the pointers to an empty asm at the entry fixed
    that). Scalar code has no such barriers. compiler/README.md has the
    measurements."""

    with module.context:
        for op in module.body.operations:
            if op.operation.name != "llvm.func" or op.attributes["sym_name"].value != "forward":
                continue
            args = op.regions[0].blocks[0].arguments
            pointers = [i for i, a in enumerate(args) if str(a.type) == "!llvm.ptr"]
            aligned = set(pointers[1::2])
            noalias = ir.DictAttr.get({"llvm.noalias": ir.UnitAttr.get()})
            empty = ir.DictAttr.get({})
            op.attributes["arg_attrs"] = ir.ArrayAttr.get(
                [noalias if i in aligned else empty for i in range(len(args))]
            )


def _copies_to_linalg(module) -> int:
    """memref.copy between strided views (e.g. into the interior of a padded
    buffer) lowers to a call of MLIR's C runner ``memrefCopy``, which bare-metal
    programs do not have: make those copies linalg.copy (loops, or vectors)."""

    with module.context:
        copies = [o for o in walk_ops(module.operation) if o.name == "memref.copy"]
        for op in copies:
            src, dst = op.operands[0], op.operands[1]
            if all(identity_layout(v.type) for v in (src, dst)):
                continue  # contiguous: becomes llvm.memcpy
            with ir.InsertionPoint(op), op.location:
                linalg.copy(src, outs=[dst])
            op.erase()
    return len(copies)


def _bufferize(module) -> None:
    passes(BUFFERIZE)(module)
    eliminate_output_copies(module)
    _copies_to_linalg(module)
    widen_bool_buffers(module)
    allocations_to_globals(module)
    _mark_noalias(module)


BUFFERIZE = (
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},"
    "buffer-results-to-out-params{hoist-static-allocs modify-public-functions},"
    "func.func(promote-buffers-to-stack),"
    "buffer-deallocation-pipeline,"
    "canonicalize,cse"
)

TO_LOOPS = (
    "func.func(convert-linalg-to-loops),"
    "func.func(lower-vector-mask,lower-vector-multi-reduction),"
    "convert-vector-to-scf{full-unroll=true},"
    "canonicalize,"
    "expand-strided-metadata,"
    "lower-affine,"
    "convert-scf-to-cf,"
    "canonicalize,cse"
)


def _to_llvm(target: Target) -> Callable[[object], None]:
    bw = target.index_bitwidth
    # Vector ops convert inside the transform dialect, the only place the LLVM
    # type converter takes an index bit-width (convert-vector-to-llvm has none).
    vector_script = f"""
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    %f = transform.structured.match ops{{["func.func"]}} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {{
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.vector.unroll_from_elements
      transform.apply_patterns.vector.lower_broadcast
      transform.apply_patterns.vector.lower_shape_cast
      transform.apply_patterns.vector.lower_transpose lowering_strategy = "shuffle_1d"
    }} : !transform.any_op
    transform.apply_conversion_patterns to %f {{
      transform.apply_conversion_patterns.vector.vector_to_llvm
    }} with type_converter {{
      transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter {{index_bitwidth = {bw}}}
    }} {{legal_dialects = ["llvm"], partial_conversion}} : !transform.any_op
    transform.yield
  }}
}}"""
    rest = passes(
        "func.func(llvm-request-c-wrappers),"
        # Whatever vector op the transform left (n-D strided slices, ...) has no
        # memref and no index operand left: the plain pass is safe for those.
        "convert-vector-to-llvm,"
        "convert-math-to-llvm,"
        f"finalize-memref-to-llvm{{index-bitwidth={bw}}},"
        f"convert-arith-to-llvm{{index-bitwidth={bw}}},"
        f"convert-index-to-llvm{{index-bitwidth={bw}}},"
        f"convert-cf-to-llvm{{index-bitwidth={bw}}},"
        f"convert-func-to-llvm{{index-bitwidth={bw}}},"
        f"convert-ub-to-llvm{{index-bitwidth={bw}}},"
        "reconcile-unrealized-casts,canonicalize"
    )

    def run(module) -> None:
        if "vector." in str(module):
            run_transform(module, vector_script)
        rest(module)
        if target.vector is None:
            _mark_data_pointers_noalias(module)
        place_buffers(module)

    return run


# ---------------------------------------------------------------------------
# RVV schedule


def _linalg_ops(module) -> list:
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


def _verify(module, rewrite: str) -> None:
    """Our Python rewrites build IR by hand; invalid IR would crash MLIR's transforms
    (a segfault, no message: a ``triu`` mask's ``linalg.index`` once outlived merged
    loops). Check it here and say which rewrite made it."""

    try:
        ok = module.operation.verify()
    except ir.MLIRError as e:
        ok, detail = False, str(e).splitlines()[:6]
    else:
        detail = []
    if not ok:
        raise CompileError(
            f"the {rewrite} rewrite produced invalid IR (a compiler bug; --dump-ir DIR shows its input): "
            + " ".join(detail)
        )


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
        for op in _linalg_ops(module):
            reader = first_reader(op)
            if reader is None or is_fill(op):  # a forwarded fill is a constant: always a win
                continue
            if reader.name == "linalg.generic" and reader != op and op_shape(reader).contraction:
                continue  # a fill or bias forwarded into a matmul's accumulators is a win
            with ir.InsertionPoint.after(op), op.location:
                memory_barrier()
            count += 1
    return count


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
        for i, op in enumerate(_linalg_ops(module)):
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

# Between the two, compiler.dotcontract rewrites contractions along a reduction dim.
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


# Loops that carry a vector accumulator (a hoisted matmul row) run one vfmacc per
# step; unrolling them amortizes the loop's scalar overhead over several.
ACC_UNROLL = 4
# Vector registers the jammed accumulators and their shared B rows may occupy
# (of 32: v0 stays free for masks, a few for the register allocator's slack).
REG_BUDGET = 28
# Registers an unrolled k loop may fill with accumulators and B rows: all 32, v0
# included (its loads and fmas take no mask). At 31, two LMUL-4 column tiles of two
# jammed rows (16 accumulator registers, 8 of B rows) ran k by 1: t1-small mm
# 32x64 @ 64x48 took 12 802 instructions (49.3% vector), unrolled by 2 11 715
# (53.8%) in the same RTL cycles (56 167 -> 56 166; a 3 -> 8 channel 3x3 conv on
# 32x32 +2.4% cycles, 4% fewer instructions).
VECTOR_REGS = 32


def _loop_transform_script(attr: str, op: str, factor: int = ACC_UNROLL) -> str:
    """A transform script applying ``transform.loop.<op>`` by ``factor`` to loops tagged ``attr``."""
    return transform_sequence(
        f"    %l = transform.structured.match attributes {{{attr}}} in %root : (!transform.any_op) -> !transform.any_op\n"
        f"    transform.loop.{op} %l {{factor = {factor}}} : !transform.any_op"
    )


UNROLL_ATTR = "cosim_unroll"
JAM_ATTR = "cosim_jam"


def _trip_count(loop) -> int | None:
    vals = [constant_int(v) for v in loop.operands[:3]]
    if None in vals:
        return None
    lb, ub, step = vals
    return (ub - lb) // step if step > 0 else None


def _vector_regs(vtype, vlen: int) -> int:
    """Registers an LLVM register group of ``vtype`` occupies (LMUL rounded up to a power of two)."""
    vt = ir.VectorType(vtype)
    bits = vt.element_type.width * (vt.shape[-1] if vt.rank else 1)
    lmul = 1
    while lmul * vlen < bits:
        lmul *= 2
    return lmul


def _acc_registers(loop, vlen: int) -> int:
    """Vector registers the accumulators of ``loop`` (an scf.for yielding vectors) occupy."""
    regs = sum(_vector_regs(r.type, vlen) for r in loop.results if isinstance(r.type, ir.VectorType))
    return max(regs, 1)


_VECTOR_READS = ("vector.transfer_read", "vector.load", "vector.gather")


def _vector_reads(loop) -> list:
    return [o for o in walk_ops(loop) if o.name in _VECTOR_READS]


def _load_registers(loop, vlen: int) -> int:
    """Vector registers one step of ``loop`` loads into (the B rows of a matmul step)."""
    return sum(_vector_regs(o.results[0].type, vlen) for o in _vector_reads(loop))


def _depends_on(value, target, depth: int = 6) -> bool:
    """Whether ``value`` is ``target`` or computed from it by a few ops."""
    if value == target:
        return True
    owner = value.owner
    if depth == 0 or not hasattr(owner, "operands"):
        return False
    return any(_depends_on(v, target, depth - 1) for v in owner.operands)


def _loads_vary_with(loop, inner) -> bool:
    """Whether a vector read inside ``inner`` is indexed by ``loop``'s induction variable
    (``loop`` walks column tiles, each with its own B tile, not rows sharing one)."""
    iv = loop.regions[0].blocks[0].arguments[0]
    return any(any(_depends_on(v, iv) for v in o.operands) for o in _vector_reads(inner))


def _single_loop(op):
    """The only scf.for directly in ``op``'s body, or None."""
    loops = [b.operation for b in op.regions[0].blocks[0].operations if b.operation.name == "scf.for"]
    return loops[0] if len(loops) == 1 else None


def _acc_loop_inside(op):
    """The accumulator loop (an scf.for yielding vectors) directly inside ``op`` or one
    single loop further in (rows -> column tiles -> k), else None."""
    inner = _single_loop(op)
    for _ in range(2):
        if inner is None:
            return None
        if any(isinstance(r.type, ir.VectorType) for r in inner.results):
            return inner
        inner = _single_loop(inner)
    return None


# Most rows (or column tiles) jammed into one k loop: past this the A scalars of
# one k step no longer fit the f registers.
MAX_JAM = 8


def _jam_factor(trips: int | None, acc_regs: int, load_regs: int = 0, loads_per_copy: bool = False) -> int:
    """Largest divisor of ``trips`` (at most MAX_JAM, any value: 3 column tiles of
    24 columns, 5 rows) whose copies of the accumulators plus the B rows in
    flight fit REG_BUDGET (``loads_per_copy``: the loop walks column tiles, each
    with its own B tile)."""
    if not trips:
        return 1
    load_regs = load_regs or acc_regs
    for f in range(min(trips, MAX_JAM), 1, -1):
        # jammed column tiles: each B tile is dead after its fmas, two in flight;
        # jammed rows: the (already jammed) B tiles of a k step serve every row
        loads = 2 * load_regs if loads_per_copy else load_regs
        if trips % f == 0 and f * acc_regs + loads <= REG_BUDGET:
            return f
    return 1


def _writes_vary_with(loop, acc) -> bool:
    """Whether ``loop``'s iterations store ``acc``'s accumulators at different places
    (its induction variable reaches the store indices). A reduction loop around a
    hoisted accumulator (``x.mean(dim=(0, 2))``: dim 0 outside the row loop) stores
    every iteration's sum at the same place; jammed, its copies started from the
    same loaded value and overwrote each other (a wrong result on every vector config)."""
    iv = loop.regions[0].blocks[0].arguments[0]
    results = set(acc.results)
    stores = [
        o
        for o in walk_ops(loop)
        if o.name in ("vector.store", "vector.transfer_write", "memref.store") and o.operands[0] in results
    ]
    if not stores:
        return False
    return all(any(_depends_on(v, iv) for v in o.operands[2:]) for o in stores)


def _mark_jam_loops(module, vlen: int) -> dict[int, int]:
    """A loop directly around an accumulator loop (the column tiles of a matmul row,
    or its rows) is unrolled-and-jammed, so one k step updates several
    accumulators: a B-row load serves every row, an A scalar every column tile.
    Called until nothing changes (column tiles first, then rows around them).
    Returns factor -> number of loops marked."""

    marked: dict[int, int] = {}

    def visit(op):
        for o in child_ops(op):
            if o.name == "scf.for" and not any(isinstance(r.type, ir.VectorType) for r in o.results):
                acc = _acc_loop_inside(o)
                if acc is not None:
                    mid = _single_loop(o)
                    direct = mid == acc
                    # around the k loop, or rows around a column loop that cannot be jammed
                    # (further): a jammable column loop is jammed first, its rows in the
                    # next round. A conv as a matmul of 8 rows by 34 column tiles of 32 on
                    # t1-small jammed tiles by 2 and left the 17 pairs around the k loop:
                    # each row reloaded every B row (50% vector, now 2 rows x 2 tiles).
                    acc_regs, load_regs = _acc_registers(acc, vlen), _load_registers(acc, vlen)
                    stuck = direct or _jam_factor(_trip_count(mid), acc_regs, load_regs, True) == 1
                    if stuck and _writes_vary_with(o, acc):
                        f = _jam_factor(_trip_count(o), acc_regs, load_regs, _loads_vary_with(o, acc))
                        if f > 1:
                            o.attributes[JAM_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), f)
                            marked[f] = marked.get(f, 0) + 1
                            continue
                    if direct:
                        continue
            visit(o)

    with module.context:
        visit(module.operation)
    return marked


# Scalar operands (A elements) one unrolled k step may load ahead of its vfmaccs:
# past the f register file they spill.
F_OPERANDS = 16


def _mark_accumulator_loops(module, vlen: int) -> dict[int, int]:
    """Tag every loop carrying vector accumulators with its unroll factor: ACC_UNROLL,
    less when many jammed rows would each load an A scalar per step.
    Returns factor -> loops marked."""

    marked: dict[int, int] = {}

    def visit(op):
        for o in child_ops(op):
            if o.name == "scf.for":
                accs = sum(1 for r in o.results if isinstance(r.type, ir.VectorType))
                if accs:
                    # A scalars one step loads (one per jammed row; column tiles share them)
                    scalars = sum(1 for b in walk_ops(o) if b.name == "memref.load") or accs
                    # and the B rows of the unrolled steps must fit beside the accumulators
                    room = (VECTOR_REGS - _acc_registers(o, vlen)) // max(1, _load_registers(o, vlen))
                    f = max(1, min(ACC_UNROLL, F_OPERANDS // scalars, room))
                    trips = _trip_count(o)
                    # a factor dividing the trip count leaves no remainder loop
                    exact = [d for d in range(f, 1, -1) if trips and trips % d == 0]
                    f = exact[0] if exact else f
                    if f > 1:
                        o.attributes[UNROLL_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), f)
                        marked[f] = marked.get(f, 0) + 1
            visit(o)

    with module.context:
        visit(module.operation)
    return marked


# Innermost scalar loops around vector work (rows of an elementwise op, pooling
# rows) are unrolled by up to this much: addresses become immediates and the
# loop's own increments and branch are paid once per several vector rows.
ROW_UNROLL = 4
ROW_ATTR = "cosim_rows"


def _mark_row_loops(module) -> dict[int, int]:
    """Tag innermost loops (no nested loop, no vector results) that contain vector
    ops with the largest of ROW_UNROLL, 2 dividing their trip count."""

    marked: dict[int, int] = {}

    def visit(op):
        for o in child_ops(op):
            if o.name != "scf.for":
                visit(o)
                continue
            body = [b.operation for b in o.regions[0].blocks[0].operations]
            if any(b.name == "scf.for" for b in body):
                visit(o)
                continue
            if any(isinstance(r.type, ir.VectorType) for r in o.results):
                continue
            if not any(b.name.startswith("vector.") for b in body):
                continue
            trips = _trip_count(o)
            for f in (ROW_UNROLL, 2):
                if trips and trips % f == 0:
                    o.attributes[ROW_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), f)
                    marked[f] = marked.get(f, 0) + 1
                    break

    with module.context:
        visit(module.operation)
    return marked


def _tile_all(module, plans: list[tuple[int, TilePlan]]) -> dict[int, str]:
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


def schedule_rvv(module, target: Target, report: ScheduleReport) -> None:

    passes("func.func(linalg-generalize-named-ops),canonicalize")(module)
    assert target.vector is not None
    narrow_index_compares(module)
    _verify(module, "narrowidx")
    barriers_between_ops(module)
    unroll_short_reductions(module, target.vector)
    _verify(module, "shortred")
    collapse_elementwise(module, target.vector)
    _verify(module, "collapse")
    for n, entry in enumerate(flatten_narrow_matmuls(module, target.vector)):
        report.ops.append({"op": f"flat{n}", "iterators": [], **entry})
    for n, entry in enumerate(flatten_elementwise(module, target.vector)):
        report.ops.append({"op": f"flatew{n}", "iterators": [], **entry})
    _verify(module, "flatmm/flatew")
    split_narrow_loops(module, target.vector)
    with module.context:
        ops = _linalg_ops(module)
        plans = []
        for i, op in enumerate(ops):
            shape = op_shape(op)
            plan = plan_rvv(shape, target.vector)
            op.attributes[TILE_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), i)
            plans.append((i, shape, plan, str(op.location)))
    failed = _tile_all(module, [(i, plan) for i, _shape, plan, _loc in plans])
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
    _verify(module, "dotcontract")
    run_transform(module, LOWER_VECTORS_SCRIPT)
    strided_reads_to_gathers(module)
    unit_broadcasts_to_splats(module)
    for _round in range(2):  # column tiles, then the rows around them
        snapshot = module.operation.get_asm()
        marked = _mark_jam_loops(module, target.vector.vlen)
        try:
            for factor in marked:
                script = _loop_transform_script(f"{JAM_ATTR} = {factor} : i64", "unroll_and_jam", factor)
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
    for factor in _mark_accumulator_loops(module, target.vector.vlen):
        run_transform(module, _loop_transform_script(f"{UNROLL_ATTR} = {factor} : i64", "unroll", factor))
    for factor in _mark_row_loops(module):
        run_transform(module, _loop_transform_script(f"{ROW_ATTR} = {factor} : i64", "unroll", factor))
    passes("canonicalize,cse")(module)
    if broadcasts_to_lane_splats(module, target.vector.dlen):
        passes("canonicalize,cse")(module)
    # Whatever linalg op is still there was not vectorized (its loops stay scalar).
    with module.context:
        left = {
            int(ir.IntegerAttr(op.attributes[TILE_ATTR]).value)
            for op in _linalg_ops(module)
            if TILE_ATTR in op.attributes
        }
    for entry in report.ops:
        if entry["op"] in left and entry["vectorized"]:
            entry["vectorized"] = False
            entry["reason"] += "; the vectorizer declined it (scalar loops)"


# ---------------------------------------------------------------------------
# The pipeline


def build_stages(target: Target, report: ScheduleReport) -> list[Stage]:
    def schedule(module) -> None:
        if target.vector is not None:
            schedule_rvv(module, target, report)

    return [
        Stage("preprocess", _preprocess),
        Stage("bufferize", _bufferize),
        Stage("schedule", schedule),
        Stage("to-loops", passes(TO_LOOPS)),
        Stage("to-llvm", _to_llvm(target)),
    ]


def stage_names(target: Target) -> list[str]:
    return [s.name for s in build_stages(target, ScheduleReport())]


@dataclass
class Lowered:
    module: object  # torch_mlir.ir.Module in the LLVM dialect
    report: ScheduleReport
    stage_seconds: dict[str, float]


def lower(mlir_text: str, target: Target, *, dump_dir: str | Path | None = None, first_index: int = 1) -> Lowered:
    """Run every stage on a fresh context; dump IR after each one if asked."""

    ctx = ir.Context()
    ctx.allow_unregistered_dialects = False
    try:
        with ctx:
            module = ir.Module.parse(mlir_text)
    except Exception as e:
        raise CompileError(f"the frontend's IR does not parse: {e}") from None
    report = ScheduleReport()
    times: dict[str, float] = {}
    dump = Path(dump_dir) if dump_dir else None
    if dump:
        dump.mkdir(parents=True, exist_ok=True)
    for n, stage in enumerate(build_stages(target, report), start=first_index):
        t0 = time.perf_counter()
        try:
            stage.run(module)
        except CompileError:
            raise
        except Exception as e:
            raise CompileError(
                f"lowering stage {stage.name!r} failed for {target.soc}: {_first_lines(str(e))}"
                + (f" (IR before the stage: {dump})" if dump else " (rerun with --dump-ir DIR to see the IR)")
            ) from e
        times[stage.name] = time.perf_counter() - t0
        if dump:
            (dump / f"{n:02d}-{stage.name}.mlir").write_text(module.operation.get_asm(enable_debug_info=False))
    return Lowered(module, report, times)


def _first_lines(text: str, n: int = 8) -> str:
    return "\n".join(text.strip().splitlines()[:n])
