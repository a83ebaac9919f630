"""Loops and the LLVM dialect: what is left of linalg becomes loops, then everything LLVM."""

from __future__ import annotations

from collections.abc import Callable

from compiler.mlir_utils import (
    passes,
    run_transform,
)
from compiler.rewrites.static_buffers import place_buffers
from compiler.scalar.data_pointer_noalias import mark_data_pointers_noalias
from compiler.targets import Target

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


def to_llvm(target: Target) -> Callable[[object], None]:
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
            mark_data_pointers_noalias(module)
        place_buffers(module)

    return run
