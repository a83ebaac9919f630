"""Constant-stride vector reads as gathers, so LLVM emits one strided load.

Slices with a step (``x[..., ::2]``: pooling windows, strided convolutions) are
memrefs whose innermost stride is not 1. MLIR's ``vector.transfer_read`` cannot
load those as one vector: it unrolls them into one scalar load per element,
which LLVM glues back together with short strided loads and slides. Rewritten
as a ``vector.gather`` from the underlying buffer with the constant index
vector ``[0, s, 2s, ...]``, LLVM's RISC-V backend recognizes the constant
stride and emits a single ``vlse32.v``.

Only 1-D, in-bounds, unmasked reads along the innermost dimension of a memref
with a fully static strided layout are rewritten; anything else is left alone.
"""

from __future__ import annotations

from torch_mlir import ir
from torch_mlir.dialects import arith, memref, vector

from compiler.mlir_utils import child_ops, dense_i32, static_layout, walk_ops


def _candidate(op):
    """(memref type, strides, offset, vector length) if ``op`` is a rewritable read."""
    if len(op.operands) < 2 or not isinstance(op.operands[0].type, ir.MemRefType):
        return None
    if len(op.results) != 1 or not isinstance(op.results[0].type, ir.VectorType):
        return None
    vtype = ir.VectorType(op.results[0].type)
    mtype = ir.MemRefType(op.operands[0].type)
    if vtype.rank != 1 or mtype.rank < 1 or "mask" in str(op.attributes.get("operandSegmentSizes", "")):
        return None
    amap = ir.AffineMapAttr(op.attributes["permutation_map"]).value
    if amap != ir.AffineMap.get_minor_identity(mtype.rank, 1):
        return None
    if "in_bounds" not in op.attributes or str(op.attributes["in_bounds"]) != "[true]":
        return None
    if len(op.operands) != 1 + mtype.rank + 1:  # source, indices, padding: no mask
        return None
    layout = static_layout(mtype)
    if layout is None or layout[0][-1] in (0, 1):
        return None
    return mtype, layout[0], layout[1], vtype.shape[0]


def strided_reads_to_gathers(module) -> int:
    """Rewrite every qualifying strided ``vector.transfer_read``; returns how many."""

    done = 0
    with module.context:
        reads = [o for o in walk_ops(module.operation) if o.name == "vector.transfer_read"]
        for op in reads:
            cand = _candidate(op)
            if cand is None:
                continue
            mtype, strides, offset, n = cand
            with ir.InsertionPoint(op), op.location:
                passthru = vector.BroadcastOp(op.results[0].type, op.operands[-1]).result
                g = strided_gather(
                    op.operands[0], mtype, strides, offset, list(op.operands[1:-1]), strides[-1], n, passthru
                )
            op.results[0].replace_all_uses_with(g)
            op.erase()
            done += 1
    return done


def strided_gather(src, mtype, strides, offset, indices, step: int, n: int, passthru):
    """``n`` elements of ``src`` from ``indices``, ``step`` buffer elements apart, as one
    ``vector.gather`` from the flat buffer (LLVM's RISC-V backend emits ``vlse``). Builds
    at the current insertion point; ``strides``/``offset`` are the memref's static layout."""

    index = ir.IndexType.get()
    # One past the last element the memref can address, from its buffer's start.
    extent = offset + sum((d - 1) * s for d, s in zip(mtype.shape, strides, strict=True)) + 1
    meta = memref.ExtractStridedMetadataOp(src)
    flat_t = ir.MemRefType.get([extent], mtype.element_type)
    flat = memref.ReinterpretCastOp(flat_t, meta.results[0], [], [], [], [0], [extent], [1]).result
    lin = arith.ConstantOp(index, offset).result
    for i, s in zip(indices, strides, strict=True):
        term = arith.MulIOp(i, arith.ConstantOp(index, s).result).result if s != 1 else i
        lin = arith.AddIOp(lin, term).result
    ivt = ir.VectorType.get([n], ir.IntegerType.get_signless(32))
    iv = arith.ConstantOp(ivt, dense_i32(ivt, [k * step for k in range(n)])).result
    mt = ir.VectorType.get([n], ir.IntegerType.get_signless(1))
    mask = arith.ConstantOp(mt, ir.DenseElementsAttr.get_splat(mt, ir.BoolAttr.get(True))).result
    return vector.GatherOp(passthru.type, flat, [lin], iv, mask, passthru).result


def unit_broadcasts_to_splats(module) -> int:
    """``vector.broadcast`` of a 1-element ``vector.load`` becomes a broadcast of a scalar load:
    LLVM lowers the former by doubling slides (log2(n) vslideup + vsetvli pairs),
    the latter is one ``vfmv.v.f`` or a ``.vf`` operand of its user."""

    found = []

    def visit(op):
        for o in child_ops(op):
            if (
                o.name == "vector.broadcast"
                and isinstance(o.operands[0].type, ir.VectorType)
                and not isinstance(o.operands[0].owner, ir.Block)
                and o.operands[0].owner.name == "vector.load"
            ):
                src = ir.VectorType(o.operands[0].type)
                if src.rank == 1 and src.shape == [1]:
                    found.append(o)
            visit(o)

    with module.context:
        visit(module.operation)
        for op in found:
            load = op.operands[0].owner
            with ir.InsertionPoint(op), op.location:
                # a scalar load (canonicalization would fold an extract back into the broadcast)
                scalar = memref.LoadOp(load.operands[0], list(load.operands[1:])).result
                splat = vector.BroadcastOp(op.results[0].type, scalar).result
            op.results[0].replace_all_uses_with(splat)
            op.erase()
    return len(found)
