"""The scalar backend's schedule (RV32/RV64 without a vector unit; Gemmini configs' core
for now): no schedule stage of its own, ``noalias`` data pointers in ``to-llvm``.

Data only: ``compiler.pipeline`` runs it (``cosim passes --target rv32`` prints it)."""

from __future__ import annotations

from compiler.passes import BUFFERIZE, PREPROCESS, TO_LOOPS, Backend

SCALAR = Backend(
    "scalar",
    (
        ("preprocess", PREPROCESS),
        ("bufferize", BUFFERIZE),
        ("schedule", ()),
        ("to-loops", TO_LOOPS),
        ("to-llvm", ("vector-to-llvm", "llvm-dialect", "data-pointer-noalias", "static-buffer-placement")),
        ("llvm-ir", ("downlevel", "no-builtins")),
    ),
)
