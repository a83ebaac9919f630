"""What an import produces: the linalg-on-tensors text of ``forward`` and its arguments' and
results' specs, read from the module."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from torch_mlir import ir

from compiler.errors import CompileError

_MLIR_TO_NUMPY = {"f32": "float32", "i32": "int32", "i64": "int64", "i16": "int16", "i8": "int8", "i1": "bool"}


@dataclass
class TensorSpec:
    """One argument or result of ``forward``."""

    name: str
    shape: tuple[int, ...]
    dtype: str  # numpy dtype name
    role: str = "input"  # input | weight | output
    data: np.ndarray | None = field(default=None, repr=False)

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * np.dtype(self.dtype).itemsize

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "shape": list(self.shape), "dtype": self.dtype, "role": self.role}


@dataclass
class Imported:
    """linalg-on-tensors IR of ``forward`` plus what its arguments and results are."""

    name: str
    mlir: str  # textual module (generic enough to re-parse in any context)
    args: list[TensorSpec]
    outputs: list[TensorSpec]
    source: str  # where the program came from (for messages)
    # Window ops (conv2d, max_pool2d) rewritten for vector targets, and how to import
    # the program again for scalar targets (which run direct convolution loops faster).
    window_decomposed: bool = False
    without_window_decompositions: Callable[[], Imported] | None = field(default=None, repr=False)
    # Quantized convolutions imported as im2col + linears, and how to import them again as
    # Gemmini conv loops (compiler.frontend.layer_calls) for configs that have loop_conv_ws.
    with_loop_conv: Callable[[], Imported] | None = field(default=None, repr=False)
    # Convolutions followed by a max pool (cosim_q.conv2d_pool) imported with the pools on the core, and how
    # to import them again with each pool in its conv's Gemmini layer, given the accumulator rows of a loop.
    with_pool_rows: Callable[[int], Imported] | None = field(default=None, repr=False)

    def ir_hash_text(self) -> str:
        """Everything that determines generated code and data, as text for hashing."""
        meta = json.dumps([[a.to_dict() for a in self.args], [o.to_dict() for o in self.outputs]])
        return self.mlir + meta


def module_text(module) -> str:
    # Keep dense_resource blobs (small constants) inline in the text so it re-parses.
    return module.operation.get_asm(enable_debug_info=True)


def forward_func(module):
    for op in module.body.operations:
        if op.operation.name == "func.func" and op.attributes["sym_name"].value == "forward":
            return op
    raise CompileError("the module has no func.func @forward")


def parse_tensor_type(t) -> tuple[tuple[int, ...], str]:

    rt = ir.RankedTensorType(t)
    if not rt.has_static_shape:
        raise CompileError(f"type {t} has a dynamic shape; only static shapes are supported")
    et = str(rt.element_type)
    if et not in _MLIR_TO_NUMPY:
        hint = " (no D extension: use f32)" if et == "f64" else ""
        raise CompileError(f"element type {et} of {t} is not supported{hint}")
    return tuple(rt.shape), _MLIR_TO_NUMPY[et]


def outputs_of(module) -> list[TensorSpec]:

    fn = forward_func(module)
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    outs = []
    for i, t in enumerate(ftype.results):
        shape, dtype = parse_tensor_type(t)
        outs.append(TensorSpec(f"out{i}", shape, dtype, "output"))
    return outs
