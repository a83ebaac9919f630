"""The Gemmini backend: quantized layers (``cosim_q`` matmul, linear, bmm, residual add; conv2d
arrives as im2col plus linears) as Gemmini RoCC instruction sequences; the scalar backend
compiles everything else of the same program.

- :mod:`compiler.gemmini.plan` (pass gemmini-layer-plan, last in ``preprocess``, on tensors):
  the loop_ws tiling computed from the config, attached to each layer function as
  ``gemmini.plan``, and a body bufferization understands;
- :mod:`compiler.gemmini.instructions` (pass gemmini-instructions, the ``schedule`` stage,
  after bufferization): the bodies as fences, configs and loop_ws instructions.

:data:`GEMMINI` is the backend's schedule (data only: ``compiler.pipeline`` runs it,
``cosim passes --target gemmini-dim4`` prints it)."""

from __future__ import annotations

from compiler.passes import Backend
from compiler.scalar.schedule import SCALAR

# Read by the harness (harness.quant.keeps_cosim_q): on a Gemmini config the quantized program's
# cosim_q ops come here as they are, not decomposed for the core.
COMPILES_COSIM_Q = True

# The scalar backend's stages with the two Gemmini passes added.
_ADDED = {"preprocess": ("gemmini-layer-plan",), "schedule": ("gemmini-instructions",)}

GEMMINI = Backend("gemmini", tuple((stage, (*names, *_ADDED.get(stage, ()))) for stage, names in SCALAR.stages))


def with_dataflow(imported, dataflow: str):
    """``imported`` (:class:`compiler.frontend.imported.Imported`) with every matmul, bmm and linear layer
    asking for ``dataflow``: "auto" (the plan's estimate decides), "WS" or "OS" (forced where the layer can
    run it; the dump's ``why_dataflow`` says when it cannot). The request is part of the IR, so of the
    compile cache's key."""
    import dataclasses

    from torch_mlir import ir

    from compiler.frontend.imported import module_text
    from compiler.gemmini.output_stationary import DATAFLOWS
    from compiler.gemmini.plan import DATAFLOW_ATTR, layer_functions

    if dataflow not in DATAFLOWS:
        raise ValueError(f"dataflow {dataflow!r}: use one of {', '.join(DATAFLOWS)}")
    with ir.Context():
        module = ir.Module.parse(imported.mlir)
        for fn in layer_functions(module):
            if ir.StringAttr(fn.attributes["cosim_q.op"]).value in ("matmul", "bmm", "linear"):  # not linear_pool
                fn.attributes[DATAFLOW_ATTR] = ir.StringAttr.get(dataflow)
        text = module_text(module)
    again, pooled = imported.with_loop_conv, imported.with_pool_rows
    return dataclasses.replace(
        imported,
        mlir=text,
        with_loop_conv=(lambda: with_dataflow(again(), dataflow)) if again else None,
        with_pool_rows=(lambda rows: with_dataflow(pooled(rows), dataflow)) if pooled else None,
    )
