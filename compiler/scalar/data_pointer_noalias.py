"""Scalar targets: ``noalias`` on the data pointers of ``forward``'s memref arguments."""

from __future__ import annotations

from torch_mlir import ir


def mark_data_pointers_noalias(module) -> None:
    """Scalar targets: ``convert-func-to-llvm`` puts ``forward``'s ``llvm.noalias``
    on the C wrapper's descriptor pointers only, which says nothing about the
    data, so LLVM reloaded every operand after each store. Mark each memref's
    aligned pointer (the second of every allocated/aligned pair; the allocated
    one is never dereferenced; without it rv32's built-in mm retires 13% more
    instructions, conv2d 56% more, mean 2.2x as many). harness.program gives every argument its
    own buffer; a caller of ``_mlir_ciface_forward`` must too.

    Vector targets keep may-alias pointers: there the freedom let LLVM's
    scheduler hoist every LMUL-8 load of an unrolled strip loop (the built-in add
    on t1-small spilled 32 register groups and took 1 504 RTL cycles against 806), and an
    uncaptured noalias buffer is out of reach of the compiler-only barriers
    the memory-barriers pass places (layer_norm over [5, 8, 9] on t1-blastoise: 14 900
    instructions against 1 480; handing the pointers to an empty asm at the entry fixed
    that). Scalar code has no such barriers. compiler/README.md has the
    measurements."""

    with module.context:
        for op in module.body.operations:
            if op.operation.name != "llvm.func" or op.attributes["sym_name"].value != "forward":
                continue
            args = op.regions[0].blocks[0].arguments
            pointers = [i for i, a in enumerate(args) if str(a.type) == "!llvm.ptr"]
            aligned = set(pointers[1::2])
            noalias = ir.DictAttr.get({"llvm.noalias": ir.UnitAttr.get()})
            empty = ir.DictAttr.get({})
            op.attributes["arg_attrs"] = ir.ArrayAttr.get(
                [noalias if i in aligned else empty for i in range(len(args))]
            )
