"""Compiler layer: PyTorch (or linalg/tosa MLIR) to RVV, scalar or Gemmini object code.

Stages: frontend -> targets -> lowering -> codegen. Never imports ``harness`` or ``sim``.
"""
