"""The pass registry: every pass of the compiler, with its name, stage, summary and options.

Every pass has one signature, ``run(module, target) -> PassResult``: ``module`` is a
``torch_mlir.ir.Module`` (stages ``preprocess`` to ``to-llvm``) or, for the
``llvm-ir`` stage, an :class:`LLVMText` (LLVM IR text, rewritten in place);
``target`` a :class:`compiler.targets.Target`. A backend's schedule is a list of pass
names (``compiler.rvv.schedule``, ``compiler.scalar.schedule``); ``compiler.pipeline``
runs it, verifies the IR after each pass, dumps it (``--dump-ir``) and, when a pass
fails, writes a reproducer that ``python -m compiler.replay`` runs. ``cosim passes``
prints this table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from compiler.llvm.conversion import LLVM_DIALECT, vector_to_llvm_script
from compiler.llvm.conversion import TO_LOOPS as TO_LOOPS_PIPELINE
from compiler.llvm.downlevel import downlevel
from compiler.llvm.explicit_vector_lengths import explicit_vector_lengths
from compiler.llvm.no_builtins import no_builtins
from compiler.llvm.splat_row_loads import splat_row_loads
from compiler.mlir_utils import passes, run_transform
from compiler.rewrites.bool_buffer_widening import widen_bool_buffers
from compiler.rewrites.bufferization import BUFFERIZE as BUFFERIZE_PIPELINE
from compiler.rewrites.bufferization import copies_to_linalg, mark_arguments_noalias
from compiler.rewrites.elementwise_fusion import fuse_elementwise
from compiler.rewrites.index_compare_narrowing import narrow_index_compares
from compiler.rewrites.math_expansion import MLIR_EXPANDED, expand_math
from compiler.rewrites.output_copy_elimination import eliminate_output_copies
from compiler.rewrites.static_buffers import allocations_to_globals, place_buffers
from compiler.rvv.contractions_to_reductions import contractions_to_reductions, merge_unit_reduction_dims
from compiler.rvv.elementwise_collapsing import collapse_elementwise
from compiler.rvv.elementwise_flattening import flatten_elementwise
from compiler.rvv.fill_forwarding import forward_fills
from compiler.rvv.lane_splats import broadcasts_to_lane_splats
from compiler.rvv.memory_barriers import barriers_between_ops
from compiler.rvv.narrow_matmul_flattening import flatten_narrow_matmuls
from compiler.rvv.register_blocking import unroll_accumulator_loops, unroll_and_jam, unroll_row_loops
from compiler.rvv.row_gathers import gather_rows
from compiler.rvv.short_reduction_unrolling import unroll_short_reductions
from compiler.rvv.strided_gathers import strided_reads_to_gathers, unit_broadcasts_to_splats
from compiler.rvv.tiling import LOWER_VECTORS_SCRIPT, VECTORIZE_SCRIPT, split_narrow_loops, tile_ops
from compiler.rvv.window_views import read_windows_in_place
from compiler.scalar.data_pointer_noalias import mark_data_pointers_noalias
from compiler.targets import Target

STAGES = ("preprocess", "bufferize", "schedule", "to-loops", "to-llvm", "llvm-ir")


@dataclass(frozen=True)
class PassResult:
    """What a pass changed: ``changed`` counts the ops (or loops, buffers, functions) it
    rewrote, ``None`` where it cannot say (an MLIR pass pipeline); ``report`` holds the
    schedule report's entries it adds (``Kernel.schedule``)."""

    changed: int | None = None
    report: tuple[dict, ...] = ()


@dataclass
class LLVMText:
    """The module of the ``llvm-ir`` stage: LLVM IR text, which its passes replace."""

    text: str


@dataclass(frozen=True)
class Pass:
    name: str
    stage: str
    summary: str
    module: str  # the Python module that implements it
    run: Callable[[object, Target], PassResult]
    options: str = ""  # what it reads from the target
    mlir: bool = True  # works on an MLIR module (False: LLVMText)
    pipeline: str = ""  # the MLIR pass pipeline it runs, if that is all it does


PASSES: dict[str, Pass] = {}


def register(
    name: str, stage: str, summary: str, module: str, options: str = "", *, mlir: bool = True, pipeline: str = ""
):
    """Decorator: register ``run(module, target) -> PassResult`` as pass ``name``."""

    assert stage in STAGES, stage

    def wrap(run: Callable[[object, Target], PassResult]):
        if name in PASSES:
            raise ValueError(f"pass {name!r} registered twice")
        PASSES[name] = Pass(name, stage, summary, module, run, options, mlir, pipeline)
        return run

    return wrap


def get(name: str) -> Pass:
    try:
        return PASSES[name]
    except KeyError:
        raise KeyError(f"no pass {name!r}; registered: {', '.join(PASSES)}") from None


def _count(n) -> PassResult:
    return PassResult(changed=n)


def _pipeline(name: str, stage: str, summary: str, module: str, pipeline: str) -> None:
    run_pipeline = passes(pipeline)

    def run(module, target: Target) -> PassResult:
        run_pipeline(module)
        return PassResult()

    register(name, stage, summary, module, pipeline=pipeline)(run)


# --- preprocess: linalg on tensors ---------------------------------------------------------

R = "compiler.rewrites"
RVV = "compiler.rvv"
LLVM = "compiler.llvm"
MLIR = "mlir (upstream passes)"


@register("elementwise-fusion", "preprocess", "fuse elementwise producers into consumers", f"{R}.elementwise_fusion")
def _fusion(module, target):
    fuse_elementwise(module)
    return PassResult()


_pipeline(
    "math-expand-ops",
    "preprocess",
    "MLIR's expansions of math ops (all it knows but ceil)",
    MLIR,
    f"canonicalize,cse,func.func(math-expand-ops{{ops={MLIR_EXPANDED}}})",
)


@register(
    "math-expansion", "preprocess", "exp, erf, log, log1p, sin, cos, floor, ceil as f32 arith", f"{R}.math_expansion"
)
def _math(module, target):
    return _count(expand_math(module))


_pipeline("canonicalize-cse", "preprocess", "MLIR's canonicalize and cse (any stage)", MLIR, "canonicalize,cse")

# --- bufferize: tensors to buffers ----------------------------------------------------------

_pipeline(
    "one-shot-bufferize",
    "bufferize",
    "tensors to buffers, results to out-parameters, small buffers to the stack",
    f"{R}.bufferization",
    BUFFERIZE_PIPELINE,
)


@register(
    "output-copy-elimination",
    "bufferize",
    "a temporary only copied into forward's output becomes the output",
    f"{R}.output_copy_elimination",
)
def _output_copies(module, target):
    return _count(eliminate_output_copies(module))


@register(
    "strided-copies-to-linalg", "bufferize", "memref.copy between strided views as linalg.copy", f"{R}.bufferization"
)
def _copies(module, target):
    return _count(copies_to_linalg(module))


@register("bool-buffer-widening", "bufferize", "bool temporaries as i8 buffers", f"{R}.bool_buffer_widening")
def _bools(module, target):
    return _count(widen_bool_buffers(module))


@register(
    "allocations-to-globals",
    "bufferize",
    "temporaries over 1 KiB as private globals in .ddrscratch",
    f"{R}.static_buffers",
)
def _globals(module, target):
    return _count(allocations_to_globals(module))


@register("arguments-noalias", "bufferize", "forward's arguments marked llvm.noalias", f"{R}.bufferization")
def _noalias(module, target):
    mark_arguments_noalias(module)
    return PassResult()


# --- schedule: RVV --------------------------------------------------------------------------

_pipeline(
    "generalize-named-ops",
    "schedule",
    "named linalg ops as linalg.generic",
    MLIR,
    "func.func(linalg-generalize-named-ops),canonicalize",
)


@register(
    "window-views",
    "schedule",
    "a stride-1 convolution's im2col rows read in place as a strided view of its input",
    f"{RVV}.window_views",
)
def _window_views(module, target):
    return _count(len(read_windows_in_place(module)))


@register(
    "index-compare-narrowing",
    "schedule",
    "i64 loop-index compares in the index type",
    f"{R}.index_compare_narrowing",
)
def _index_compares(module, target):
    return _count(narrow_index_compares(module))


@register(
    "memory-barriers",
    "schedule",
    "compiler-only memory barrier after each op a later op reads",
    f"{RVV}.memory_barriers",
)
def _barriers(module, target):
    return _count(barriers_between_ops(module))


@register(
    "short-reduction-unrolling",
    "schedule",
    "short innermost reductions as elementwise chains over strided slices",
    f"{RVV}.short_reduction_unrolling",
    "vlen, dlen",
)
def _short_reductions(module, target):
    return _count(unroll_short_reductions(module, target.vector))


@register(
    "elementwise-collapsing",
    "schedule",
    "adjacent loop dims read alike merged into longer rows",
    f"{RVV}.elementwise_collapsing",
    "vlen, dlen",
)
def _collapse(module, target):
    return _count(collapse_elementwise(module, target.vector))


@register(
    "narrow-matmul-flattening",
    "schedule",
    "narrow matmuls as blocks of whole output rows in one vector",
    f"{RVV}.narrow_matmul_flattening",
    "vlen, dlen",
)
def _narrow_matmuls(module, target):
    entries = flatten_narrow_matmuls(module, target.vector)
    return PassResult(len(entries), tuple({"op": f"flat{n}", "iterators": [], **e} for n, e in enumerate(entries)))


@register(
    "elementwise-flattening",
    "schedule",
    "transposing and broadcasting elementwise ops as flat tiles of the output",
    f"{RVV}.elementwise_flattening",
    "vlen, dlen",
)
def _flat_elementwise(module, target):
    entries = flatten_elementwise(module, target.vector)
    return PassResult(len(entries), tuple({"op": f"flatew{n}", "iterators": [], **e} for n, e in enumerate(entries)))


@register(
    "row-gathers",
    "schedule",
    "embedding-style gathers as per-row index reads and table-row loads",
    f"{RVV}.row_gathers",
    "vlen",
)
def _row_gathers(module, target):
    entries = gather_rows(module, target.vector)
    return PassResult(len(entries), tuple({"op": f"rowgather{n}", "iterators": [], **e} for n, e in enumerate(entries)))


@register(
    "narrow-loop-splitting",
    "schedule",
    "ops whose loop has no useful full tile split in two",
    f"{RVV}.tiling",
    "vlen, dlen",
)
def _split(module, target):
    return _count(split_narrow_loops(module, target.vector))


@register("tiling", "schedule", "every linalg op tiled by its RVV plan (one interpreter run)", f"{RVV}.tiling", "vlen")
def _tiling(module, target):
    entries = tile_ops(module, target.vector)
    return PassResult(len(entries), tuple(entries))


@register("vectorization", "schedule", "tiled ops vectorized (transform dialect)", f"{RVV}.tiling")
def _vectorize(module, target):
    run_transform(module, VECTORIZE_SCRIPT)
    return PassResult()


@register(
    "contractions-to-reductions",
    "schedule",
    "vector.contract over a reduction dim as multi_reduction(lhs * rhs)",
    f"{RVV}.contractions_to_reductions",
)
def _contractions(module, target):
    return _count(merge_unit_reduction_dims(module) + contractions_to_reductions(module))


@register("vector-lowering", "schedule", "vector ops lowered for the RVV backend (transform dialect)", f"{RVV}.tiling")
def _lower_vectors(module, target):
    run_transform(module, LOWER_VECTORS_SCRIPT)
    return PassResult()


@register(
    "strided-gathers",
    "schedule",
    "constant non-unit-stride reads as vector.gather (vlse32.v)",
    f"{RVV}.strided_gathers",
)
def _strided(module, target):
    return _count(strided_reads_to_gathers(module))


@register(
    "unit-broadcast-splats",
    "schedule",
    "broadcasts of a 1-element load as scalar-load splats",
    f"{RVV}.strided_gathers",
)
def _splats(module, target):
    return _count(unit_broadcasts_to_splats(module))


@register(
    "unroll-and-jam",
    "schedule",
    "column tiles, then rows, unrolled and jammed within the register budget",
    f"{RVV}.register_blocking",
    "vlen, dlen",
)
def _jam(module, target):
    return _count(unroll_and_jam(module, target.vector.vlen, target.vector.dlen))


@register(
    "accumulator-unrolling",
    "schedule",
    "loops carrying vector accumulators unrolled",
    f"{RVV}.register_blocking",
    "vlen",
)
def _acc_unroll(module, target):
    return _count(unroll_accumulator_loops(module, target.vector.vlen, target.vector.dlen))


@register("row-unrolling", "schedule", "innermost vector loops unrolled by 4 or 2", f"{RVV}.register_blocking")
def _row_unroll(module, target):
    return _count(unroll_row_loops(module))


_canonicalize = passes("canonicalize,cse")


@register(
    "fill-forwarding",
    "schedule",
    "accumulator loads of a constant fill become the constant",
    f"{RVV}.fill_forwarding",
    "dlen",
)
def _fill_forwarding(module, target):
    return _count(forward_fills(module, target.vector.dlen))


@register(
    "lane-splats",
    "schedule",
    "broadcast matrix elements as lane splats (then canonicalize,cse if any)",
    f"{RVV}.lane_splats",
    "dlen",
)
def _lane_splats(module, target):
    n = broadcasts_to_lane_splats(module, target.vector.dlen)
    if n:
        _canonicalize(module)
    return _count(n)


# --- to-loops, to-llvm ----------------------------------------------------------------------

_pipeline(
    "to-loops", "to-loops", "linalg and vector transfers to loops, then cf", f"{LLVM}.conversion", TO_LOOPS_PIPELINE
)


@register(
    "vector-to-llvm",
    "to-llvm",
    "vector ops to LLVM with the target's index width (if any vector op)",
    f"{LLVM}.conversion",
    "xlen",
)
def _vector_to_llvm(module, target):
    if "vector." in str(module):
        run_transform(module, vector_to_llvm_script(target.index_bitwidth))
        return PassResult(1)
    return PassResult(0)


@register("llvm-dialect", "to-llvm", "everything else to the LLVM dialect, C wrappers", f"{LLVM}.conversion", "xlen")
def _llvm_dialect(module, target):
    passes(LLVM_DIALECT.format(bw=target.index_bitwidth))(module)
    return PassResult()


@register(
    "data-pointer-noalias",
    "to-llvm",
    "forward's aligned data pointers noalias (scalar targets)",
    "compiler.scalar.data_pointer_noalias",
)
def _data_noalias(module, target):
    mark_data_pointers_noalias(module)
    return PassResult()


@register(
    "static-buffer-placement",
    "to-llvm",
    "the .ddrscratch globals placed in their section",
    f"{R}.static_buffers",
)
def _place(module, target):
    return _count(place_buffers(module))


# --- gemmini: quantized layers on Gemmini (compiler.gemmini; the scalar backend does the rest) ---

GEMMINI = "compiler.gemmini"


def _gemmini_unit(target: Target):
    if target.gemmini is None:
        raise ValueError(f"{target.soc} has no Gemmini unit")
    return target.gemmini


@register(
    "gemmini-layer-plan",
    "preprocess",
    "each cosim_q layer function gets its loop_ws plan (gemmini.plan) and a body bufferization reads",
    f"{GEMMINI}.plan",
    "dim, scratchpad and accumulator rows, dma_bytes",
)
def _gemmini_plan(module, target):
    from compiler.gemmini.plan import plan_layers

    return _count(plan_layers(module, _gemmini_unit(target)))


@register(
    "gemmini-instructions",
    "schedule",
    "planned layer functions as fences, configs and loop_ws RoCC instructions (llvm.inline_asm) in scf loops",
    f"{GEMMINI}.instructions",
    "dim, scratchpad and accumulator rows",
)
def _gemmini_instructions(module, target):
    from compiler.gemmini.instructions import emit_layers

    entries = emit_layers(module, _gemmini_unit(target))
    return PassResult(len(entries), tuple(entries))


# --- llvm-ir: LLVM IR text for zig's clang --------------------------------------------------


@register("downlevel", "llvm-ir", "LLVM 24 IR text to what LLVM 22 parses", f"{LLVM}.downlevel", mlir=False)
def _downlevel(module: LLVMText, target):
    module.text = downlevel(module.text)
    return PassResult()


@register(
    "explicit-vector-lengths",
    "llvm-ir",
    "arithmetic on non-power-of-two vectors as VP intrinsics with EVL = N",
    f"{LLVM}.explicit_vector_lengths",
    "vlen",
    mlir=False,
)
def _vector_lengths(module: LLVMText, target):
    module.text = explicit_vector_lengths(module.text, target.vector.vlen)
    return PassResult()


@register(
    "splat-row-loads",
    "llvm-ir",
    "the rows lane-splats reads (nontemporal loads) as vp.load, so LLVM keeps their lane splats",
    f"{LLVM}.splat_row_loads",
    mlir=False,
)
def _splat_row_loads(module: LLVMText, target):
    module.text = splat_row_loads(module.text)
    return PassResult()


@register("no-builtins", "llvm-ir", 'every function "no-builtins"', f"{LLVM}.no_builtins", mlir=False)
def _no_builtins(module: LLVMText, target):
    module.text = no_builtins(module.text)
    return PassResult()


@dataclass(frozen=True)
class Backend:
    """A backend's schedule: the pass names each stage runs, in order."""

    name: str
    stages: tuple[tuple[str, tuple[str, ...]], ...] = field(default=())

    def pass_names(self) -> list[str]:
        return [p for _stage, names in self.stages for p in names]


# The stages every backend shares.
PREPROCESS = ("elementwise-fusion", "math-expand-ops", "math-expansion", "canonicalize-cse")
BUFFERIZE = (
    "one-shot-bufferize",
    "output-copy-elimination",
    "strided-copies-to-linalg",
    "bool-buffer-widening",
    "allocations-to-globals",
    "arguments-noalias",
)
TO_LOOPS = ("to-loops",)
