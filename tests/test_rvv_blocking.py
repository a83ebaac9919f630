"""compiler.rvv.register_blocking: which column-tile and row loops of a matmul are jammed.

A column-tile loop inside a row loop is jammed by the factor that, with the rows the
next round jams around it, costs the fewest estimated cycles per accumulator
(arithmetic, the B tiles' memory beats, the core's issue); jamming every column tile
first can leave no registers for a second row, which re-reads B once per row."""

from __future__ import annotations

import pytest

pytest.importorskip("torch_mlir")

from compiler.rvv.register_blocking import (  # noqa: E402
    JAM_ATTR,
    _column_jam,
    _k_step_cycles,
    mark_jam_loops,
)


def _matmul(m: int, k: int, n: int, tile: int):
    """A (m x k) @ (k x n) as tiling and vectorization leave it: rows by 1, column
    tiles of ``tile``, k by 1 with the accumulator hoisted (as tests/compiler_filecheck/
    unroll-and-jam.mlir's input)."""
    from torch_mlir import ir

    text = f"""
func.func @forward(%arg0: memref<{m}x{k}xf32>, %arg1: memref<{k}x{n}xf32>, %arg2: memref<{m}x{n}xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cm = arith.constant {m} : index
  %ck = arith.constant {k} : index
  %cn = arith.constant {n} : index
  %ct = arith.constant {tile} : index
  scf.for %i = %c0 to %cm step %c1 {{
    scf.for %j = %c0 to %cn step %ct {{
      %0 = vector.load %arg2[%i, %j] : memref<{m}x{n}xf32>, vector<{tile}xf32>
      %1 = scf.for %kk = %c0 to %ck step %c1 iter_args(%acc = %0) -> (vector<{tile}xf32>) {{
        %2 = memref.load %arg0[%i, %kk] : memref<{m}x{k}xf32>
        %3 = vector.load %arg1[%kk, %j] : memref<{k}x{n}xf32>, vector<{tile}xf32>
        %4 = vector.broadcast %2 : f32 to vector<{tile}xf32>
        %5 = vector.fma %4, %3, %acc : vector<{tile}xf32>
        scf.yield %5 : vector<{tile}xf32>
      }}
      vector.store %1, %arg2[%i, %j] : memref<{m}x{n}xf32>, vector<{tile}xf32>
    }}
  }}
  return
}}"""
    ctx = ir.Context()
    with ctx:
        return ctx, ir.Module.parse(text)


def _jams(module) -> list[int]:
    """The jam factor marked on each scf.for, outermost first (0: none)."""
    from torch_mlir import ir

    out = []

    def visit(op):
        for region in op.regions:
            for block in region.blocks:
                for o in block.operations:
                    if o.operation.name == "scf.for":
                        attrs = o.operation.attributes
                        out.append(ir.IntegerAttr(attrs[JAM_ATTR]).value if JAM_ATTR in attrs else 0)
                    visit(o.operation)

    visit(module.operation)
    return out


def test_lenet_first_conv_jams_rows_not_column_tiles():
    # LeNet-5's first convolution as a matmul on t1-blastoise (VLEN 2048, DLEN 256):
    # W[6, 25] @ B[25, 896] in 4 column tiles of 224 (LMUL 4). Jamming the 4 tiles
    # (16 accumulator registers) leaves no room for a second row, so B is read 6 times;
    # the rows jam instead (6 x 4 registers + a B tile of 4 = 28), B is read once.
    ctx, module = _matmul(6, 25, 896, 224)
    with ctx:
        mark_jam_loops(module, 2048, 256)
    assert _jams(module) == [6, 0, 0]


def test_square_matmul_still_jams_its_column_tiles_first():
    # matmul 128^3 on t1-blastoise: 2 tiles of 64 then 8 rows around them (16
    # accumulators) beat 8 rows of one tile (8 accumulators) at the same cycles per FMA.
    ctx, module = _matmul(128, 128, 128, 64)
    with ctx:
        mark_jam_loops(module, 2048, 256)
    assert _jams(module) == [0, 2, 0]


@pytest.mark.parametrize(
    ("cols", "rows", "acc", "load", "rows_per_tile", "expected"),
    [
        (4, 6, 4, 4, 28, 1),  # LeNet conv1 (above): 6 rows of one tile
        (2, 16, 2, 2, 9, 2),  # LeNet conv2, 16 x 150 @ 150 x 140 in tiles of 70: 2 tiles x 4 rows
        (2, 128, 1, 1, 8, 2),  # matmul 128^3 (above)
        (34, 8, 4, 4, 16, 2),  # t1-small: 8 rows x 34 tiles of 32 (register_blocking's example)
    ],
)
def test_column_jam_factor(cols, rows, acc, load, rows_per_tile, expected):
    assert _column_jam(cols, rows, acc, load, rows_per_tile) == expected


def test_k_step_estimate_charges_the_slowest_resource():
    # one row of 4 long tiles: the memory port (5 cycles per 4 beats) is the bound
    assert _k_step_cycles(1, 4, 28) == pytest.approx(28 * 5 / 4)
    # six rows share each tile: the arithmetic is
    assert _k_step_cycles(6, 1, 28) == pytest.approx(28)
    # one-row tiles: the core's issue (flw, load, address add, vfmacc per accumulator)
    assert _k_step_cycles(1, 1, 1) == pytest.approx(4)


@pytest.mark.parametrize(("m", "n", "tile"), [(1, 120, 120), (2, 120, 40), (1, 84, 84), (1, 40, 20), (1, 512, 256)])
def test_one_row_contraction_keeps_its_row_one_vector(m, n, tile):
    # t1-blastoise (8 lanes): a single output row of at least 8 datapath rows that fits an
    # LMUL-4 vector is one tile (LONG_ROW); with two rows, or a shorter or longer row, column_tile decides
    from compiler.targets import OpShape, VectorTarget, plan_rvv

    shape = OpShape("linalg.generic", (m, n, 400), ("parallel", "parallel", "reduction"), True, True)
    assert plan_rvv(shape, VectorTarget(2048, 256)).tile_sizes == (1, tile, 1)


def test_short_k_bmm_reads_a_rows_once_per_batch():
    """bmm 8x8x8 on t1-blastoise: each k run of A (8 floats) fits one datapath row, so
    the k loop is unrolled whole and its A scalars become lane splats of one row load
    per output row (one memory beat, not one per element of a column): 8 rows jammed,
    one batch at a time (8 accumulators, 8 A rows, 8 B rows), 64 FMAs a batch. The
    same contraction with k = 16 keeps the column form. (13 batches: no block of
    batches fills a vector, so narrow-matmul-flattening's batch rows leave it here.)"""
    import torch

    from compiler import compile_kernel
    from compiler.frontend import import_torch

    for k, rows in ((8, True), (16, False)):
        imported = import_torch(torch.bmm, (torch.randn(13, 8, k), torch.randn(13, k, 8)), name=f"bmm{k}")
        ll = compile_kernel(imported, "t1-blastoise", use_cache=False).llvm_ir.read_text()
        assert (ll.count("@llvm.vp.load.v8f32") >= 9) == rows, k  # 8 row loads + the declaration
        assert ("masked.gather" in ll) != rows, k
