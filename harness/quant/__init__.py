"""int8 quantization in the harness: the cosim_q op vocabulary (``ops``), the quantizer (``quantize``),
calibration, accuracy, and the harness flow (``flow``). See README.md here.

This module imports no torch: the command line reads QUANT_MODES at start-up.
"""

from __future__ import annotations

from harness.errors import CosimError

QUANT_MODES = ("auto", "int8", "none")


def wants_quant(mode: str, soc, *, is_mlir: bool) -> bool:
    """Whether a case on ``soc`` is quantized under ``--quant mode``."""
    if mode not in QUANT_MODES:
        raise CosimError(f"unknown --quant {mode!r}; use one of {', '.join(QUANT_MODES)}")
    if mode == "none":
        return False
    if is_mlir:
        if mode == "int8":
            raise CosimError("--quant int8 needs a PyTorch case: an .mlir case has no float module to quantize")
        return False
    return mode == "int8" or soc.accelerator.kind == "gemmini"


def keeps_cosim_q(soc) -> bool:
    """Whether the compiler for ``soc`` takes cosim_q nodes as they are (a Gemmini backend that maps them)."""
    if soc.accelerator.kind != "gemmini":
        return False
    import compiler.gemmini as gemmini

    return bool(getattr(gemmini, "COMPILES_COSIM_Q", False))
