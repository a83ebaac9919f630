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
