"""RVV: a compiler-only memory barrier after each linalg op whose output a later op reads."""

from __future__ import annotations

from torch_mlir import ir

from compiler.mlir_utils import first_reader, is_fill, memory_barrier
from compiler.rvv.tiling import linalg_ops, op_shape


def barriers_between_ops(module) -> int:
    """A compiler-only memory barrier after each linalg op whose output a later op
    reads. Once LLVM unrolls an op's loops, it forwards the stores into the next
    op's loads of another width and rebuilds each loaded vector element by element,
    often through the stack: a padded input's 19 row copies into 399-element im2col
    rows (a 3x3 conv of 19x19 on t1-blastoise: 44 496 instructions, 2 192 with the
    barrier), rows of 72 into a 360-element reduction (layer_norm over [5, 8, 9]:
    6 800, 1 478). On the built-in cases the barriers cost -0.5% to +2.4%
    instructions, at most +1.6% RTL cycles (softmax on t1-small). A matmul's
    accumulator init is left to forwarding (the bias or zeros it starts from: with a
    barrier there, a Linear of 18 to 43 features on two rows lost 4% of its vector share), and
    so are fills (a reduction's zeros were stored and reloaded with ``flw`` per row).
    Returns how many."""

    count = 0
    with module.context:
        for op in linalg_ops(module):
            reader = first_reader(op)
            if reader is None or is_fill(op):  # a forwarded fill is a constant: always a win
                continue
            if reader.name == "linalg.generic" and reader != op and op_shape(reader).contraction:
                continue  # a fill or bias forwarded into a matmul's accumulators is a win
            with ir.InsertionPoint.after(op), op.location:
                memory_barrier()
            count += 1
    return count
