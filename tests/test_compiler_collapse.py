"""Merging the loop dims an elementwise op treats alike (compiler.collapse)."""

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
