"""The RVV backend's schedule: the passes a vector target gets, stage by stage, in order.

Data only: ``compiler.pipeline`` runs it; ``compiler.passes`` registers each name
(``cosim passes --target t1-small`` prints it)."""

from __future__ import annotations

from compiler.passes import BUFFERIZE, PREPROCESS, TO_LOOPS, Backend

SCHEDULE = (
    "generalize-named-ops",
    "window-views",
    "index-compare-narrowing",
    "memory-barriers",
    "short-reduction-unrolling",
    "elementwise-collapsing",
    "narrow-matmul-flattening",
    "elementwise-flattening",
    "row-gathers",
    "narrow-loop-splitting",
    "tiling",
    "vectorization",
    "contractions-to-reductions",
    "vector-lowering",
    "strided-gathers",
    "unit-broadcast-splats",
    "unroll-and-jam",
    "accumulator-unrolling",
    "row-unrolling",
    "fill-forwarding",
    "canonicalize-cse",
    "lane-splats",
)

RVV = Backend(
    "rvv",
    (
        ("preprocess", PREPROCESS),
        ("bufferize", BUFFERIZE),
        ("schedule", SCHEDULE),
        ("to-loops", TO_LOOPS),
        ("to-llvm", ("vector-to-llvm", "llvm-dialect", "static-buffer-placement")),
        ("llvm-ir", ("downlevel", "splat-row-loads", "explicit-vector-lengths", "no-builtins")),
    ),
)
