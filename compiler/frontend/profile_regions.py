"""PROFILE regions inside a quantized program's ``forward``: one around each layer call and one
around each stretch of work between layers that runs on the core.

A region's start and stop are each an ``llvm.inline_asm`` of four instructions in ``forward``
(:func:`marker_asm`): a ``csrr`` of minstret (Spike's stamps are exact after a CSR read, as
``profile_start`` in baremetal/include/cosim.h does), the word (region id << 1, bit 0 set on
start: the PROFILE register's format) and its store to :data:`PROFILE_SYMBOL`, an absolute
symbol the program builder defines in ``main.c`` (:mod:`harness.program`). Region ids start at
:data:`FIRST_REGION`; 1 is the harness's region around the whole of ``forward``.

The regions are read from the exported program (after its decompositions, in the order the FX
importer imports its nodes): a layer region is named after its layer (the module path the
quantizer put in each node's ``meta["custom"]["cosim_layer"]``, else the node's
``nn_module_stack``), a core region after the layers its nodes came from (a convolution's im2col
on the core carries the convolution's name). The table (id, name, where, ops) is a JSON string
in the module's ``cosim.profile_regions`` attribute, which :func:`regions_of` reads back.

:func:`profile_markers` turns the markers off (``with profile_markers(False): import_torch(...)``);
without them the program is the one compiled before markers existed, cycle for cycle.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import operator
import re
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field

from compiler.errors import CompileError

FIRST_REGION = 2  # 1: harness.results.FORWARD_REGION
PROFILE_SYMBOL = "cosim_profile_reg"  # the PROFILE register's address, defined by harness.program
MARKER_CLOBBERS = "~{x5},~{x6},~{memory}"  # t0, t1; memory: no load or store moves across a marker
REGIONS_ATTR = "cosim.profile_regions"
LAYER_META = "cosim_layer"  # the key harness.quant.rewrite.tag_nodes writes

_MARKERS = contextvars.ContextVar("cosim_profile_markers", default=True)


@dataclass
class Segment:
    region: int
    name: str  # the layer's module path, or the layers a core stretch's ops came from
    where: str  # "gemmini" (a layer call) or "core"
    ops: list[str] = field(default_factory=list)


@contextlib.contextmanager
def profile_markers(on: bool) -> Iterator[None]:
    """Imports inside this block mark PROFILE regions (``on``) or not."""
    token = _MARKERS.set(on)
    try:
        yield
    finally:
        _MARKERS.reset(token)


def markers_enabled() -> bool:
    return _MARKERS.get()


def node_label(n) -> str:
    """A node's layer name: the quantizer's tag, else its innermost module path, else its name."""
    tag = (n.meta.get("custom") or {}).get(LAYER_META)
    if tag:
        return tag
    stack = n.meta.get("nn_module_stack") or {}
    path = list(stack.values())[-1][0] if stack else ""
    return path or n.name


def _op_name(target) -> str:
    return str(getattr(target, "__name__", target)).split(".default")[0]


def segments(ep, is_layer: Callable) -> list[Segment]:
    """The program's layers and the stretches of core work between them, in import order."""
    out: list[Segment] = []
    core: list = []

    def flush() -> None:
        if core:
            labels = list(dict.fromkeys(node_label(n) for n in core))
            ops = list(dict.fromkeys(str(n.target) for n in core))
            out.append(Segment(0, ", ".join(labels), "core", ops))
            core.clear()

    for n in ep.graph.nodes:
        if n.op != "call_function" or n.target is operator.getitem:
            continue
        if is_layer(n):
            flush()
            out.append(Segment(0, node_label(n), "gemmini", [str(n.target)]))
        else:
            core.append(n)
    flush()
    for i, s in enumerate(out):
        s.region = FIRST_REGION + i
    return out


def insert_markers(module, segs: list[Segment], layer_prefix: str) -> None:
    """Markers (:func:`marker_asm`) around each segment in ``module``'s ``forward`` (raw torch
    dialect, layer operators already calls of ``layer_prefix*`` functions), and the region table."""
    from torch_mlir import ir
    from torch_mlir.dialects import llvm

    with module.context, ir.Location.unknown(module.context):
        fwd = next(
            o
            for o in module.body.operations
            if o.operation.name == "func.func" and ir.StringAttr(o.attributes["sym_name"]).value == "forward"
        )
        block = fwd.regions[0].blocks[0]
        ops = list(block.operations)
        calls = [
            o
            for o in ops
            if o.operation.name == "func.call"
            and ir.FlatSymbolRefAttr(o.attributes["callee"]).value.startswith(layer_prefix)
        ]
        layers = [s for s in segs if s.where == "gemmini"]
        if len(calls) != len(layers):
            raise CompileError(
                f"profile markers: {len(calls)} layer calls in forward but {len(layers)} layer nodes in the program"
            )

        def mark(point, region: int, start: bool) -> None:
            with point:
                llvm.InlineAsmOp(
                    None, [], marker_asm((region << 1) | int(start)), MARKER_CLOBBERS, has_side_effects=True
                )

        def after(op):
            i = ops.index(op)
            return ir.InsertionPoint(ops[i + 1])  # a call is never the terminator

        call_of = dict(zip((s.region for s in layers), calls, strict=True))
        open_core: Segment | None = None
        point = ir.InsertionPoint(ops[0])
        for s in segs:
            if s.where == "core":
                mark(point, s.region, True)
                open_core = s
                continue
            call = call_of[s.region]
            before = ir.InsertionPoint(call)
            if open_core is not None:
                mark(before, open_core.region, False)
                open_core = None
            mark(before, s.region, True)
            point = after(call)
            mark(point, s.region, False)
        if open_core is not None:
            mark(ir.InsertionPoint(ops[-1]), open_core.region, False)  # before the return
        module.operation.attributes[REGIONS_ATTR] = ir.StringAttr.get(json.dumps([asdict(s) for s in segs]))


def marker_asm(word: int) -> str:
    """One PROFILE store of ``word``: minstret read first (exact Spike stamps), the register's address
    from the absolute symbol :data:`PROFILE_SYMBOL` the program defines."""
    return (
        f"csrr t0, minstret\n\tli t0, {word}\n\tlui t1, %hi({PROFILE_SYMBOL})\n\t"
        f"sw t0, %lo({PROFILE_SYMBOL})(t1)  # profile {'start' if word & 1 else 'stop'} {word >> 1}"
    )


def regions_of(mlir_text: str) -> list[dict]:
    """The region table of imported IR ([] without markers)."""
    m = re.search(re.escape(REGIONS_ATTR) + r' = "((?:[^"\\]|\\.)*)"', mlir_text)
    if not m:
        return []
    return json.loads(_unescape(m.group(1)))


def _unescape(s: str) -> str:
    # MLIR prints a string attribute's quotes and backslashes as \22 and \5C (hex escapes)
    return re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), s)
