"""Rewrites of torch-mlir's output right after import, where it differs from eager PyTorch
or from what the targets run (zero-divisor asserts, f64 scalar compares, transposed weights)."""

from __future__ import annotations

import numpy as np
from torch_mlir import ir, passmanager
from torch_mlir.dialects import arith

from compiler.frontend.imported import forward_func
from compiler.mlir_utils import walk_ops

# torch-mlir's lowering of aten.reciprocal (``1.0 / x``, ``x.reciprocal()``) asserts
# x != 0 at run time; eager PyTorch returns +-inf there, which is what the divide
# that remains computes (IEEE 754).
ZERO_DIVISOR_ASSERT = "unimplemented: tensor with zero element"


def drop_zero_divisor_asserts(module) -> int:
    """Erase torch-mlir's ``cf.assert`` of a non-zero reciprocal operand (see
    ZERO_DIVISOR_ASSERT); returns how many. Other asserts stay: run-time checks
    (LOWERABLE_OPS)."""

    count = 0
    with module.context:
        for op in [o for o in walk_ops(module.operation) if o.name == "cf.assert"]:
            if ir.StringAttr(op.attributes["msg"]).value == ZERO_DIVISOR_ASSERT:
                cond = op.operands[0].owner
                op.erase()
                if getattr(cond, "name", None) == "arith.cmpf" and not list(cond.results[0].uses):
                    cond.erase()  # (a block argument as the condition has no name)
                count += 1
    return count


def narrow_scalar_compares(module) -> int:
    """``x > 0.5`` on an f32 tensor: torch-mlir compares ``extf(x)`` with an f64
    constant, eager PyTorch compares in f32 with the scalar rounded to f32 (so
    ``f32(0.1) > 0.1`` is False). Rewrite such compares to f32 (which also keeps
    f64, which the targets cannot run, out of the kernel). Returns how many."""

    def as_f32(value, ip):
        owner = value.owner
        owner = getattr(owner, "operation", owner)
        name = getattr(owner, "name", None)  # None for a block argument
        if name == "arith.extf" and str(owner.operands[0].type) == "f32":
            return owner.operands[0]
        if name == "arith.constant" and str(value.type) == "f64":
            v = float(np.float32(ir.FloatAttr(owner.attributes["value"]).value))
            with ip:
                return arith.constant(ir.F32Type.get(), v)
        return None

    count = 0
    with module.context:
        for op in [o for o in walk_ops(module.operation) if o.name == "arith.cmpf"]:
            if not all(str(v.type) == "f64" for v in op.operands):
                continue
            ip = ir.InsertionPoint(op)
            with op.location:
                lhs, rhs = as_f32(op.operands[0], ip), as_f32(op.operands[1], ip)
                if lhs is None or rhs is None:
                    continue
                with ip:
                    new = arith.CmpFOp(op.attributes["predicate"], lhs, rhs)
            op.results[0].replace_all_uses_with(new.result)
            op.erase()
            count += 1
    if count:
        with module.context:
            passmanager.PassManager.parse("builtin.module(canonicalize)").run(module.operation)
    return count


def fold_weight_transposes(module, n_weights: int) -> dict[int, tuple[str, list[int]]]:
    """Weights that ``forward`` only transposes (nn.Linear's W^T) or only reshapes
    (a convolution's filters as a matrix) are stored that way instead: the argument
    takes the result's type and the ``linalg.transpose`` / reshape disappears, so
    no kernel gathers a matrix column by column and no reshape is propagated into
    the consumer's loops. Returns weight index -> ("permute", permutation) or
    ("reshape", shape) to apply to its data."""

    folded: dict[int, tuple[str, list[int]]] = {}
    with module.context:
        fn = forward_func(module)
        block = fn.regions[0].blocks[0]
        for i in range(n_weights):
            arg = block.arguments[i]
            uses = [u.owner for u in arg.uses]
            if len(uses) != 1 or uses[0].name not in (
                "linalg.transpose",
                "tensor.collapse_shape",
                "tensor.expand_shape",
            ):
                continue
            op = uses[0]
            result = op.results[0]
            if op.name == "linalg.transpose":
                perm = [int(x) for x in ir.DenseI64ArrayAttr(op.attributes["permutation"])]
                folded[i] = ("permute", perm)
            else:
                folded[i] = ("reshape", list(ir.RankedTensorType(result.type).shape))
            arg.set_type(result.type)
            result.replace_all_uses_with(arg)
            op.erase()
        if folded:
            ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
            inputs = [a.type for a in block.arguments]
            fn.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(inputs, list(ftype.results)))
    if folded:
        with module.context:
            passmanager.PassManager.parse("builtin.module(canonicalize)").run(module.operation)
    return folded


def apply_fold(w, fold: tuple[str, list[int]] | None):
    if fold is None:
        return w
    kind, arg = fold
    return w.permute(*arg).contiguous() if kind == "permute" else w.reshape(*arg).contiguous()
