"""Loops and the LLVM dialect: what is left of linalg becomes loops, then everything LLVM."""

from __future__ import annotations

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


def vector_to_llvm_script(bw: int) -> str:
    """Vector ops convert inside the transform dialect, the only place the LLVM type
    converter takes an index bit-width (convert-vector-to-llvm has none)."""
    return f"""
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


# The rest of the conversion (``.format(bw=index bit-width)``).
LLVM_DIALECT = (
    "func.func(llvm-request-c-wrappers),"
    # Whatever vector op the transform left (n-D strided slices, ...) has no
    # memref and no index operand left: the plain pass is safe for those.
    "convert-vector-to-llvm,"
    "convert-math-to-llvm,"
    "finalize-memref-to-llvm{{index-bitwidth={bw}}},"
    "convert-arith-to-llvm{{index-bitwidth={bw}}},"
    "convert-index-to-llvm{{index-bitwidth={bw}}},"
    "convert-cf-to-llvm{{index-bitwidth={bw}}},"
    "convert-func-to-llvm{{index-bitwidth={bw}}},"
    "convert-ub-to-llvm{{index-bitwidth={bw}}},"
    "reconcile-unrealized-casts,canonicalize"
)
