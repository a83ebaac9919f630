"""compiler.rvv.lane_splats: broadcast scalar loads become one strided load + lane splats,
only where that is safe and where each scalar feeds a single vector op."""

from __future__ import annotations

import pytest

pytest.importorskip("torch_mlir")

from compiler.rvv.lane_splats import SPLAT_MAX_ROWS, broadcasts_to_lane_splats  # noqa: E402


def _module(body: str, width: int = 8):
    """A k step of a 4-row jammed matmul: A[r, k] for r in rows, broadcast, fma into acc."""
    from torch_mlir import ir

    ctx = ir.Context()
    text = f"""
func.func @f(%a: memref<4x16xf32>, %b: memref<16x{width}xf32>, %o: memref<4x{width}xf32>, %k: index) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %z = arith.constant 0.0 : f32
  %brow = vector.load %b[%k, %c0] : memref<16x{width}xf32>, vector<{width}xf32>
  %acc = vector.broadcast %z : f32 to vector<{width}xf32>
{body}
  return
}}"""
    with ctx:
        return ir.Module.parse(text)


def _jammed(rows=("0", "1", "2", "3"), width: int = 8, stores_last: bool = True) -> str:
    loads = "".join(
        f"  %s{r} = memref.load %a[%c{r}, %k] : memref<4x16xf32>\n"
        f"  %v{r} = vector.broadcast %s{r} : f32 to vector<{width}xf32>\n"
        f"  %f{r} = vector.fma %v{r}, %brow, %acc : vector<{width}xf32>\n"
        for r in rows
    )
    stores = "".join(
        f"  vector.store %f{r}, %o[%c{r}, %c0] : memref<4x{width}xf32>, vector<{width}xf32>\n" for r in rows
    )
    return loads + stores if stores_last else stores + loads


def _ops(module) -> list[str]:
    from compiler.mlir_utils import walk_ops

    return [o.name for o in walk_ops(module.operation)]


def test_jammed_rows_become_one_strided_gather_and_lane_splats():
    m = _module(_jammed())
    with m.context:
        assert broadcasts_to_lane_splats(m, dlen=256) == 4
        m.operation.verify()
    names = _ops(m)
    assert names.count("vector.gather") == 1 and names.count("vector.shuffle") == 4
    assert "memref.load" not in names and names.count("vector.broadcast") == 2  # acc, passthru
    text = str(m)
    # stride 16 (a row of A), the lanes 0..3 splatted in order
    assert "dense<[0, 16, 32, 48]>" in text
    for lane in range(4):
        assert f"[{', '.join([str(lane)] * 8)}]" in text


def _store_between(store: str) -> str:
    return (
        "  %s0 = memref.load %a[%c0, %k] : memref<4x16xf32>\n"
        "  %v0 = vector.broadcast %s0 : f32 to vector<8xf32>\n"
        "  %f0 = vector.fma %v0, %brow, %acc : vector<8xf32>\n"
        + store
        + "  %s1 = memref.load %a[%c1, %k] : memref<4x16xf32>\n"
        "  %v1 = vector.broadcast %s1 : f32 to vector<8xf32>\n"
        "  %f1 = vector.fma %v1, %brow, %acc : vector<8xf32>\n"
        "  vector.store %f1, %o[%c1, %c0] : memref<4x8xf32>, vector<8xf32>\n"
    )


@pytest.mark.parametrize(
    "store, moved",
    [
        # forward's arguments never alias (lowering marks them noalias): A's loads may pass
        ("  vector.store %f0, %o[%c0, %c0] : memref<4x8xf32>, vector<8xf32>\n", 2),
        # a store into A itself, directly or through a view, may change the next row's scalar
        ("  vector.store %f0, %a[%c2, %c0] : memref<4x16xf32>, vector<8xf32>\n", 0),
        (
            "  %sv = memref.subview %a[1, 0] [1, 16] [1, 1] : memref<4x16xf32> to"
            " memref<16xf32, strided<[1], offset: 16>>\n"
            "  vector.store %f0, %sv[%c0] : memref<16xf32, strided<[1], offset: 16>>, vector<8xf32>\n",
            0,
        ),
    ],
)
def test_loads_move_above_stores_only_to_other_buffers(store, moved):
    m = _module(_store_between(store))
    with m.context:
        assert broadcasts_to_lane_splats(m, dlen=256) == moved
        m.operation.verify()
    assert _ops(m).count("memref.load") == 2 - moved


def test_unequal_steps_and_shared_scalars_keep_scalar_loads():
    m = _module(_jammed(rows=("0", "1", "3")))  # steps 1 and 2: no constant stride
    with m.context:
        assert broadcasts_to_lane_splats(m, dlen=256) == 0
    # a scalar feeding two vector ops (two column tiles) is cheap already
    body = _jammed(rows=("0", "1")) + "  %g = vector.fma %v0, %brow, %f1 : vector<8xf32>\n"
    m = _module(body)
    with m.context:
        assert broadcasts_to_lane_splats(m, dlen=256) == 0


def test_splats_longer_than_the_limit_keep_scalar_loads():
    width = SPLAT_MAX_ROWS * 64 // 32 + 1  # one fp32 element more than SPLAT_MAX_ROWS rows of DLEN 64
    m = _module(_jammed(width=width), width=width)
    with m.context:
        assert broadcasts_to_lane_splats(m, dlen=64) == 0
        assert broadcasts_to_lane_splats(m, dlen=64 * 4) == 4


def test_a_scalar_divided_once_stays_scalar():
    # x / n broadcast: LLVM divides the scalar once; a splat would divide every element
    body = "".join(
        f"  %s{r} = memref.load %a[%c{r}, %k] : memref<4x16xf32>\n"
        f"  %v{r} = vector.broadcast %s{r} : f32 to vector<8xf32>\n"
        f"  %f{r} = arith.divf %v{r}, %brow : vector<8xf32>\n"
        f"  vector.store %f{r}, %o[%c{r}, %c0] : memref<4x8xf32>, vector<8xf32>\n"
        for r in "0123"
    )
    m = _module(body)
    with m.context:
        assert broadcasts_to_lane_splats(m, dlen=256) == 0


def test_unrolled_k_steps_of_jammed_rows_form_groups_of_one_orientation():
    """4 rows x 4 unrolled k steps: A[r, k + u] groups as 4 columns or 4 row runs,
    never one column and then 3-long runs (3 lanes: a masked or indexed load). On
    the tie the rows win: a row is one memory beat, a column one per element."""
    body = ""
    for u in range(4):
        kidx = "%k" if u == 0 else f"%k{u}"
        if u:
            body += f"  %k{u} = arith.addi %k, %c{u} : index\n"
        for r in range(4):
            body += (
                f"  %s{r}_{u} = memref.load %a[%c{r}, {kidx}] : memref<4x16xf32>\n"
                f"  %v{r}_{u} = vector.broadcast %s{r}_{u} : f32 to vector<8xf32>\n"
                f"  %f{r}_{u} = vector.fma %v{r}_{u}, %brow, %acc : vector<8xf32>\n"
                f"  vector.store %f{r}_{u}, %o[%c{r}, %c0] : memref<4x8xf32>, vector<8xf32>\n"
            )
    m = _module(body)
    with m.context:
        assert broadcasts_to_lane_splats(m, dlen=256) == 16
        m.operation.verify()
    reads = [o for o in _ops_objects(m) if o.name == "vector.load" and "nontemporal" in str(o)]
    assert not [o for o in _ops_objects(m) if o.name == "vector.gather"]
    assert len(reads) == 4
    assert all(str(g.results[0].type) == "vector<4xf32>" for g in reads), [str(g.results[0].type) for g in reads]


def _ops_objects(module) -> list:
    from compiler.mlir_utils import walk_ops

    return list(walk_ops(module.operation))


def test_a_run_along_the_innermost_dimension_is_one_marked_row_load():
    """One row of A (A[0, k..k+3]) feeding four FMAs: a unit-stride load marked
    nontemporal (the llvm-ir stage makes it a vp.load) and four lane splats in order."""
    body = "".join(
        f"  %k{u} = arith.addi %k, %c{u} : index\n"
        f"  %s{u} = memref.load %a[%c0, %k{u}] : memref<4x16xf32>\n"
        f"  %v{u} = vector.broadcast %s{u} : f32 to vector<8xf32>\n"
        f"  %f{u} = vector.fma %v{u}, %brow, %acc : vector<8xf32>\n"
        f"  vector.store %f{u}, %o[%c{u}, %c0] : memref<4x8xf32>, vector<8xf32>\n"
        for u in "0123"
    )
    m = _module(body)
    with m.context:
        assert broadcasts_to_lane_splats(m, dlen=256) == 4
        m.operation.verify()
    names = _ops(m)
    assert "vector.gather" not in names and names.count("vector.shuffle") == 4
    text = str(m)
    assert text.count("nontemporal = true") == 1
    for lane in range(4):
        assert f"[{', '.join([str(lane)] * 8)}]" in text


def test_marked_row_loads_become_vp_loads_and_nothing_else_does():
    from compiler.llvm.splat_row_loads import splat_row_loads

    text = (
        "define void @f(ptr %p, ptr %q) {\n"
        "  %1 = load <8 x float>, ptr %p, align 4, !nontemporal !1\n"
        "  %2 = load <8 x float>, ptr %q, align 4\n"
        "  %3 = load <4 x half>, ptr %q, align 2, !nontemporal !1\n"
        "  ret void\n}\n!1 = !{i32 1}\n"
    )
    out = splat_row_loads(text)
    assert "%1 = call <8 x float> @llvm.vp.load.v8f32.p0(ptr align 4 %p, <8 x i1> splat (i1 true), i32 8)" in out
    assert "%2 = load <8 x float>, ptr %q, align 4\n" in out
    assert "%3 = call <4 x half> @llvm.vp.load.v4f16.p0(ptr align 2 %q, <4 x i1> splat (i1 true), i32 4)" in out
    assert out.count("declare <8 x float> @llvm.vp.load.v8f32.p0(ptr, <8 x i1>, i32)") == 1
    assert out.count("declare <4 x half> @llvm.vp.load.v4f16.p0(ptr, <4 x i1>, i32)") == 1
    assert splat_row_loads(out) == out  # nothing marked is left
