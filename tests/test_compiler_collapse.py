"""Merging the loop dims an elementwise op (or a reduction's trailing dims) treats alike (compiler.rvv.elementwise_collapsing)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from compiler import compile_kernel  # noqa: E402
from compiler.frontend import import_torch  # noqa: E402
from harness.cases import Case  # noqa: E402
from harness.verify import verify  # noqa: E402


def _rand(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def _loops(fn, inputs, soc="t1-small") -> list[list[int]]:
    imported = import_torch(fn, inputs, name="c", source="c")
    return [e["loops"] for e in compile_kernel(imported, soc, use_cache=False).schedule]


def test_channel_scale_runs_rows_of_h_times_w(tmp_path):
    """x * w.view(C, 1, 1) on 2x8x4x4: x and the output are contiguous over (H, W), w
    reads neither, so the rows are 16 long instead of 4 (t1-small: 358 -> 106
    instructions in forward, RTL 802 -> 411 cycles when measured)."""
    case = Case(
        "chan_scale", lambda: ((lambda x, w: x * w), (_rand(2, 8, 4, 4), _rand(8, 1, 1, seed=1))), "elementwise"
    )
    result = verify(case, "t1-small", on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
    assert [2, 8, 16] in [e["loops"] for e in result["compile"]["schedule"]]
    assert result["instret_forward"] < 200


def test_transposed_or_partial_reads_keep_their_dims():
    # y read transposed over (H, W): only (N, C) may merge, and that does not lengthen rows
    assert _loops(lambda x, y: x + y.transpose(2, 3), (_rand(2, 3, 4, 4), _rand(2, 3, 4, 4, seed=1)))[-1][-2:] == [4, 4]
    # w broadcast over W but not H: H and W stay apart
    assert [2, 8, 4, 4] in _loops(lambda x, w: x * w, (_rand(2, 8, 4, 4), _rand(8, 4, 1, seed=1)))


def test_merged_rows_stay_whole_vectors():
    """7 rows of 50 on t1-blastoise (VLMAX 512 at LMUL 8) stay rows: one row of 350
    was cut by LLVM into six power-of-two pieces joined by slides."""
    assert [7, 50] in _loops(lambda x: torch.relu(x) * 2.0, (_rand(7, 50),), "t1-blastoise")
    # 16 rows of 32 = 512, two whole vectors of 256: merged
    assert [512] in _loops(lambda x, b: x * b, (_rand(16, 32), _rand(1, seed=1)), "t1-blastoise")


@pytest.mark.parametrize("soc", ["t1-small", "t1-blastoise"])
def test_collapsed_ops_match_pytorch(soc, tmp_path):
    def f(x, w, b, s):
        return (x * w + b) - s[..., :4] * 0.5  # channel scale and bias, a strided slice

    inputs = (_rand(2, 6, 3, 4), _rand(6, 1, 1, seed=1), _rand(6, 1, 1, seed=2), _rand(2, 6, 3, 8, seed=3))
    result = verify(Case("collapse_mix", lambda: (f, inputs), "elementwise"), soc, on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result


def test_reduction_dims_merge():
    """layer_norm over [10, 8, 2]: its two reductions run over 160 contiguous
    elements, not 800 vectors of 2; a reduction over non-adjacent dims stays."""
    ln = torch.nn.LayerNorm([10, 8, 2])
    loops = _loops(ln, (_rand(10, 10, 8, 2),))
    assert loops.count([10, 160]) >= 2, loops
    assert [10, 10, 8, 2] not in loops, loops
    # parallel dims inside a reduction merge too: mean over dim 1 of 3x9x11x2 runs rows
    # of 22, not 2 (t1-small 1 381 -> 155 instructions in forward)
    assert [3, 9, 22] in _loops(lambda x: x.mean(dim=1), (_rand(3, 9, 11, 2),)), loops
    # outer parallel dims stay apart: merged, each row's address took a div/mod
    # (mean over the last dim of 5x3x11x9: 7 216 instructions on t1-small, 1 662 now)
    assert [5, 3, 11, 9] in _loops(lambda x: x.mean(dim=-1, keepdim=True), (_rand(5, 3, 11, 9),)), loops
    # dims 1 and 3 are reduced, 2 is kept: nothing to merge among the trailing reductions
    loops = _loops(lambda x: x.sum(dim=(1, 3)), (_rand(2, 10, 8, 11),))
    assert [2, 8, 10, 11] in loops or [2, 10, 8, 11] in loops, loops


@pytest.mark.parametrize("soc", ["t1-small", "t1-blastoise"])
def test_merged_reductions_match_pytorch_and_stay_vector_reductions(soc, tmp_path):
    """Verified on Spike. A reduction row's multi_reduction is lowered row by row
    (vfredosum): the default strategy reduced a 1x40 tile with 40 slides and adds
    (t1-small 7 250 instructions; 1 614 now, rv32 25 861)."""
    torch.manual_seed(0)
    ln = torch.nn.LayerNorm([10, 8, 2])
    case = Case("ln_merged", lambda: (ln, (_rand(10, 10, 8, 2) * 2 + 1,)), "reduction")
    result = verify(case, soc, on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
    assert result["instret_forward"] < 2500, result["instret_forward"]


@pytest.mark.parametrize("soc", ["t1-small", "t1-blastoise"])
def test_ops_reading_loop_indices_keep_their_loops(soc, tmp_path):
    """triu's mask compares linalg.index 0 and 1: with its two loops merged into one
    the IR was invalid and MLIR's vectorizer crashed the process (a segfault). Now
    collapse, shortred and the reduction merges leave such ops alone, and each
    Python rewrite's output is verified."""

    def f(x, y):
        return torch.triu(x) * 2.0, torch.tril(y, -1).sum(-1, keepdim=True)

    inputs = (_rand(4, 5), _rand(3, 6, 4, seed=1))
    result = verify(Case("triu_tril", lambda: (f, inputs), "reduction"), soc, on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
