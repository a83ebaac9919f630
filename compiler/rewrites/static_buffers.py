"""Heap temporaries of ``forward`` as static buffers.

Bufferization leaves temporaries over ``promote-buffers-to-stack``'s size limit
(1 KiB) as ``memref.alloc`` + ``memref.dealloc``, which lower to calls of the
runtime's ``malloc`` and ``free``: scalar code inside the forward region (the
built-in conv2d: 330 instructions of ``malloc``/``free``/``sbrk`` for its three
buffers, 15% of forward on t1-blastoise). ``forward`` is never re-entered (one
bare-metal program, no threads, no recursion), so each fixed-size temporary in
the function's entry block can be a private global instead: no call, no
bookkeeping, and the linker checks at build time that the buffers fit the
memory map (a heap that ran out was a trap at run time).

The globals go to ``.ddrscratch`` (``baremetal/templates/link.ld.in``: DDR, not
loaded), the memory ``malloc``'s heap used, so the simulated timing of the
accesses is unchanged. Unlike ``.ddrbss`` it is not cleared at start-up: an
allocation's contents are undefined (the heap did not clear them either), and
clearing LeNet-5's temporaries took 243K instructions before ``main``.
"""

from __future__ import annotations

from torch_mlir import ir
from torch_mlir.dialects import memref

from compiler.mlir_utils import child_ops, identity_layout

BUFFER_PREFIX = "__cosim_tmp"
BUFFER_SECTION = ".ddrscratch"


def allocations_to_globals(module) -> int:
    """Replace every static ``memref.alloc`` directly in a function's entry block by
    a ``memref.get_global`` of its own private global; drop its deallocations."""

    count = 0
    with module.context:
        for fn in [o for o in child_ops(module.operation) if o.name == "func.func"]:
            if not fn.regions[0].blocks:
                continue
            entry = fn.regions[0].blocks[0]
            allocs = [o.operation for o in entry.operations if o.operation.name == "memref.alloc"]
            for op in allocs:
                mtype = ir.MemRefType(op.results[0].type)
                if op.operands or not mtype.has_static_shape or not identity_layout(mtype):
                    continue
                users = [u.owner for u in op.results[0].uses]
                if any(u.name == "memref.dealloc" and u.parent != fn for u in users):
                    continue  # freed in a nested region: lifetimes the rewrite does not model
                name = f"{BUFFER_PREFIX}{count}"
                align = op.attributes["alignment"] if "alignment" in op.attributes else None
                with ir.InsertionPoint.at_block_begin(module.body), op.location:
                    memref.GlobalOp(
                        name,
                        ir.TypeAttr.get(mtype),
                        sym_visibility="private",
                        initial_value=ir.UnitAttr.get(),
                        alignment=align,
                    )
                with ir.InsertionPoint(op), op.location:
                    buffer = memref.GetGlobalOp(mtype, name).result
                for u in users:
                    if u.name == "memref.dealloc":
                        u.erase()
                op.results[0].replace_all_uses_with(buffer)
                op.erase()
                count += 1
    return count


def place_buffers(module) -> int:
    """Put the globals of :func:`allocations_to_globals` (now ``llvm.mlir.global``)
    in BUFFER_SECTION."""

    placed = 0
    with module.context:
        for op in child_ops(module.operation):
            if op.name == "llvm.mlir.global" and ir.StringAttr(op.attributes["sym_name"]).value.startswith(
                BUFFER_PREFIX
            ):
                op.attributes["section"] = ir.StringAttr.get(BUFFER_SECTION)
                placed += 1
    return placed
