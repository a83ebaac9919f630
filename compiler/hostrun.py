"""Run an imported ``forward`` on the host through MLIR's execution engine.

The reference for ``.mlir`` cases, which have no PyTorch program: the same
frontend IR, lowered by the scalar pipeline with 64-bit indices and JIT-compiled
for the host. (PyTorch cases use eager PyTorch instead.)
"""

from __future__ import annotations

import ctypes

import numpy as np

from compiler.frontend import Imported
from compiler.targets import Target

HOST = Target(soc="host", xlen=64, march="host", mabi="host", features=(), vector=None)


def run_on_host(imported: Imported) -> dict[str, np.ndarray]:
    """``out<i>`` -> array, computed by JIT-compiling ``imported`` for this machine."""
    # the execution engine loads MLIR's JIT runtime libraries: only for .mlir cases' references
    from torch_mlir.execution_engine import ExecutionEngine
    from torch_mlir.runtime.np_to_memref import get_ranked_memref_descriptor

    from compiler.pipeline import lower

    lowered = lower(imported.mlir, HOST)
    engine = ExecutionEngine(lowered.module, opt_level=2)
    args = [np.ascontiguousarray(a.data) for a in imported.args]
    outs = [np.zeros(o.shape, dtype=o.dtype) for o in imported.outputs]
    descs = [get_ranked_memref_descriptor(x) for x in args + outs]
    ptrs = [ctypes.pointer(ctypes.pointer(d)) for d in descs]
    engine.invoke("forward", *ptrs)
    return {o.name: out for o, out in zip(imported.outputs, outs, strict=True)}
