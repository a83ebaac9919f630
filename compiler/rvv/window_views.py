"""A convolution's im2col rows read in place from the padded input, not copied.

``torch_decompositions.conv2d_flat`` builds B of ``W[OC, IC*KH*KW] @ B[IC*KH*KW,
OH*Wp]`` from 1-D slices of the row-flattened padded input: row ``(ic, kh, kw)``
starts at ``ic*Hp*Wp + kh*Wp + kw``. Bufferized, that is one copy per row into a
temporary (LeNet-5's conv2: 150 rows of 140 floats, misaligned loads and a store
each) that the matmul then reads. The rows' offsets are a sum of the row index's
digits times fixed strides, so the temporary is itself a strided memref of the
input: ``[IC, KH, KW, N]`` with strides ``[Hp*Wp, Wp, 1, 1]`` (overlapping rows,
legal for reads). Here the copies go and the matmul becomes the same contraction
over ``(m, n, ic, kh, kw)`` reading that view, with A expanded to ``[M, IC, KH, KW]``
(a free reshape of the filters). Tiling, vectorization and unroll-and-jam treat the
three reduction loops as the one k loop they replace.

Only unit-stride rows (stride-1 convolutions): a strided B row would be a ``vlse32``
read by every jammed row block instead of once by the copy.
"""

from __future__ import annotations

from math import prod

from torch_mlir import ir
from torch_mlir.dialects import arith, linalg, memref

from compiler.mlir_utils import (
    VIEW_OPS,
    buffer_root,
    identity_layout,
    is_mul_add,
    iterator_types,
    operand_dims,
    reassociation_attr,
    static_layout,
    walk_ops,
)

_NO_WRITES = ("memref.get_global", "memref.alloc", "memref.alloca", "arith.constant", "llvm.inline_asm")


def _is_copy(op) -> bool:
    """A generalized ``linalg.copy``: one input, one output, identity maps, the input yielded."""
    if op.name != "linalg.generic" or len(op.operands) != 2:
        return False
    body = [o.operation for o in op.regions[0].blocks[0].operations]
    args = list(op.regions[0].blocks[0].arguments)
    dims = operand_dims(op)
    return (
        len(body) == 1
        and body[0].name == "linalg.yield"
        and body[0].operands[0] == args[0]
        and all(d == list(range(len(iterator_types(op)))) for d in dims)
    )


def factor_offsets(offsets: list[int]) -> tuple[list[int], list[int]] | None:
    """Sizes and strides (outermost first) with ``offsets[k] = offsets[0] + sum(digit_d(k)
    * stride_d)`` for the mixed-radix digits of k, or None. ``[0..4, 14..18, ...]`` ->
    ``[.., 5], [.., 1]``."""
    base = [o - offsets[0] for o in offsets]
    sizes: list[int] = []
    strides: list[int] = []
    while len(base) > 1:
        step = base[1] - base[0]
        run = 1
        while run < len(base) and base[run] == run * step:
            run += 1
        if len(base) % run or step <= 0:
            return None
        blocks = [base[b : b + run] for b in range(0, len(base), run)]
        if any(blk != [blk[0] + i * step for i in range(run)] for blk in blocks):
            return None
        sizes.insert(0, run)
        strides.insert(0, step)
        base = [blk[0] for blk in blocks]
    if len(base) == 1 and not sizes:
        return [1], [1]
    return sizes, strides


def _plan(op):
    """(root, first offset, sizes, strides, rows' ops to erase) if ``op``'s B is a
    temporary filled by unit-stride row copies of one buffer, else None."""
    if op.name != "linalg.generic" or len(op.operands) != 3 or not is_mul_add(op):
        return None
    iters = iterator_types(op)
    reduction = [d for d, t in enumerate(iters) if t == "reduction"]
    dims = operand_dims(op)
    if len(reduction) != 1 or any(m is None or None in m for m in dims):
        return None
    k_dim = reduction[0]
    a_dims, b_dims, c_dims = dims
    if len(a_dims) != 2 or a_dims[1] != k_dim or b_dims[0] != k_dim or c_dims != [a_dims[0], *b_dims[1:]]:
        return None
    a, b = op.operands[0], op.operands[1]
    if any(d < 0 for v in op.operands for d in ir.ShapedType(v.type).shape) or not identity_layout(b.type):
        return None
    k, *cols = ir.ShapedType(b.type).shape
    n = prod(cols)
    a_layout = static_layout(a.type)
    if a_layout is None or a_layout[0][-1] != 1:
        return None
    expand = b.owner
    if isinstance(expand, ir.Block):
        return None
    expand = expand.operation
    if expand.name != "memref.expand_shape":
        return None
    tmp = expand.operands[0]
    if isinstance(tmp.owner, ir.Block) or tmp.owner.operation.name not in ("memref.get_global", "memref.alloc"):
        return None
    if ir.ShapedType(tmp.type).shape != [k * n] or static_layout(tmp.type) != ([1], 0):
        return None
    if [u.owner.operation for u in b.uses] != [op.operation]:
        return None
    rows: dict[int, tuple] = {}  # row -> (subview of tmp, copy, source offset)
    root = None
    for use in tmp.uses:
        user = use.owner.operation
        if user == expand.operation:
            continue
        if user.name != "memref.subview":
            return None
        dst = user.results[0]
        lay = static_layout(dst.type)
        if lay is None or ir.ShapedType(dst.type).shape != [n] or lay[0] != [1] or lay[1] % n:
            return None
        copies = [u.owner.operation for u in dst.uses]
        if len(copies) != 1 or not _is_copy(copies[0]) or copies[0].operands[1] != dst:
            return None
        src = copies[0].operands[0]
        src_lay = static_layout(src.type)
        if src_lay is None or src_lay[0] != [1]:
            return None  # strided rows (a stride-2 convolution) stay copies: see the docstring
        src_root = buffer_root(src, globals=True)
        if src_root is None or (root is not None and src_root != root):
            return None
        root = src_root
        row = lay[1] // n
        if row in rows:
            return None
        rows[row] = (user, copies[0], src_lay[1])
    if root is None or sorted(rows) != list(range(k)):
        return None
    out_root = buffer_root(op.operands[2], globals=True)
    if out_root is None or out_root == root:
        return None  # the output writing the input would change what the view reads
    root_lay = static_layout(root.type)
    if root_lay is None or root_lay[1] != 0:
        return None
    factored = factor_offsets([rows[r][2] for r in range(k)])
    if factored is None:
        return None
    # The copies run before the matmul, and nothing between them may write the input
    # (the view reads it when the matmul runs, the copies read it earlier).
    seq = [o.operation for o in op.operation.parent.regions[0].blocks[0].operations]
    pos = {o: i for i, o in enumerate(seq)}
    copies = [rows[r][1] for r in range(k)]
    op = op.operation
    if any(c not in pos for c in copies) or op not in pos:
        return None
    first = min(pos[c] for c in copies)
    if max(pos[c] for c in copies) > pos[op]:
        return None
    copy_set = set(copies)
    for other in seq[first : pos[op]]:
        if other in copy_set or other.name in VIEW_OPS or other.name in _NO_WRITES:
            continue
        if other.name in ("linalg.generic", "memref.copy"):  # each writes its last operand only
            written = buffer_root(other.operands[-1], globals=True)
            if written is not None and written != root:
                continue
        return None
    return root, rows[0][2], factored[0], factored[1], [rows[r][1] for r in range(k)] + [rows[r][0] for r in range(k)]


def _strided(shape: list[int], strides: list[int], offset: int, elem):
    return ir.MemRefType.get(shape, elem, layout=ir.StridedLayoutAttr.get(offset, strides))


def _rewrite(op, plan) -> None:
    root, offset, sizes, strides, dead = plan
    a, b, c = op.operands
    elem = ir.MemRefType(c.type).element_type
    m = ir.ShapedType(a.type).shape[0]
    cols = ir.ShapedType(b.type).shape[1:]  # C is [M, *cols] in the same order (_plan)
    a_strides, a_offset = static_layout(a.type)
    with ir.InsertionPoint(op), op.location:
        c_flat = _collapsed_columns(c, len(cols))
        if c_flat is not None:
            # One column dim, as the matmul with a bias has it (its output a [M, OH*Wp]
            # temporary): tiled along (oh, w) the vectors are rows of Wp (LeNet-5's conv2
            # without its bias: 80 245 cycles against 50 372 on t1-blastoise).
            c, cols = c_flat, [prod(cols)]
        view_shape, view_strides = [*sizes, *cols], [*strides, *_row_major(cols)]
        view_t = _strided(view_shape, view_strides, offset, elem)
        view = memref.ReinterpretCastOp(view_t, root, [], [], [], [offset], view_shape, view_strides).result
        a4_t = (
            ir.MemRefType.get([m, *sizes], elem)
            if identity_layout(a.type)
            else _strided([m, *sizes], [a_strides[0], *_row_major(sizes)], a_offset, elem)
        )
        a4 = memref.ExpandShapeOp(
            a4_t, a, reassociation_attr([[0], list(range(1, len(sizes) + 1))]), [], [m, *sizes]
        ).result
        # Loops (m, *cols, *digits of k): the reductions innermost, as in a generalized matmul.
        n_par = 1 + len(cols)
        rank = n_par + len(sizes)
        col_dims, red = list(range(1, n_par)), list(range(n_par, rank))

        def amap(dims):
            return ir.AffineMapAttr.get(ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(d) for d in dims]))

        maps = [amap([0, *red]), amap([*red, *col_dims]), amap([0, *col_dims])]
        kinds = ["parallel"] * n_par + ["reduction"] * len(sizes)
        attrs = ir.ArrayAttr.get([ir.Attribute.parse(f"#linalg.iterator_type<{t}>") for t in kinds])
        g = linalg.GenericOp([], [a4, view], [c], ir.ArrayAttr.get(maps), attrs)
        body = g.regions[0].blocks.append(elem, elem, elem)
        with ir.InsertionPoint(body):
            x, y, acc = body.arguments
            linalg.YieldOp([arith.AddFOp(acc, arith.MulFOp(x, y).result).result])
    expand, tmp = b.owner, b.owner.operands[0]
    op.erase()
    expand.erase()
    for d in dead:
        d.erase()
    if not list(tmp.uses):
        tmp.owner.erase()  # its memref.global goes in _erase_unreferenced_globals


def _collapsed_columns(c, n_cols: int):
    """``c`` ([M, *cols]) with its column dims as one, when they are contiguous and there
    are several; else None."""
    if n_cols < 2:
        return None
    lay = static_layout(c.type)
    shape = ir.ShapedType(c.type).shape
    if lay is None or lay[0][1:] != _row_major(shape[1:]):
        return None
    strides, offset = lay
    flat = prod(shape[1:])
    rtype = (
        ir.MemRefType.get([shape[0], flat], ir.MemRefType(c.type).element_type)
        if identity_layout(c.type)
        else _strided([shape[0], flat], [strides[0], 1], offset, ir.MemRefType(c.type).element_type)
    )
    return memref.CollapseShapeOp(rtype, c, reassociation_attr([[0], list(range(1, n_cols + 1))])).result


def _row_major(shape: list[int]) -> list[int]:
    """Strides of a contiguous row-major array of ``shape``."""
    out = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        out[d] = out[d + 1] * shape[d + 1]
    return out


def read_windows_in_place(module) -> list[dict]:
    """Rewrite every matmul whose B is a temporary of unit-stride row copies of one
    buffer with offsets of a fixed digit pattern (module docstring); returns what was done."""
    done = []
    with module.context:
        for op in [o for o in walk_ops(module.operation) if o.name == "linalg.generic"]:
            plan = _plan(op)
            if plan is None:
                continue
            loc = str(op.location)
            _rewrite(op, plan)
            done.append({"rows": len(plan[4]) // 2, "view": [*plan[2]], "strides": [*plan[3]], "loc": loc})
        if done:
            _erase_unreferenced_globals(module)
    return done


def _erase_unreferenced_globals(module) -> None:
    """The temporaries' ``memref.global`` declarations once no ``get_global`` names them."""
    ops = list(walk_ops(module.operation))
    used = {ir.FlatSymbolRefAttr(o.attributes["name"]).value for o in ops if o.name == "memref.get_global"}
    for o in ops:
        if o.name == "memref.global" and ir.StringAttr(o.attributes["sym_name"]).value not in used:
            o.erase()
