"""Short innermost reductions unrolled into elementwise ops over strided slices
(compiler.rvv.short_reduction_unrolling), verified against PyTorch on Spike."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from compiler import compile_kernel  # noqa: E402
from compiler.frontend import import_torch  # noqa: E402
from harness.cases import Case  # noqa: E402
from harness.verify import verify  # noqa: E402


def _rand(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def _schedule(fn, inputs, soc="t1-small") -> list[dict]:
    imported = import_torch(fn, inputs, name="s", source="s")
    return compile_kernel(imported, soc, use_cache=False).schedule


def test_only_short_innermost_reductions_unroll():
    # mean over a last dim of 4: one elementwise op over the 363 outputs, no reduction left
    ops = _schedule(lambda x: x.mean(dim=-1, keepdim=True), (_rand(3, 11, 11, 4),), "t1-blastoise")
    assert all("reduction" not in op["iterators"] for op in ops), ops
    # a sum of squares about the mean multiplies too, but is no contraction: unrolled
    # (var over a last dim of 3 of 9x12x2x3: t1-blastoise 6 904 -> 99 instructions)
    ops = _schedule(lambda x: x.var(dim=-1), (_rand(9, 12, 2, 3),), "t1-blastoise")
    assert all("reduction" not in op["iterators"] for op in ops), ops
    # a reduction of 32 fills vectors of its own; a matmul with k = 2 keeps its contraction schedule
    ops = _schedule(lambda x: x.sum(dim=-1), (_rand(6, 32),))
    assert any("reduction" in op["iterators"] for op in ops), ops
    ops = _schedule(lambda a, b: a @ b, (_rand(18, 2), _rand(2, 31, seed=1)))
    assert any("contraction" in op["reason"] for op in ops), ops
    # too few outputs to fill a vector: left alone
    ops = _schedule(lambda x: x.sum(dim=-1), (_rand(1, 3),))
    assert any("reduction" in op["iterators"] for op in ops), ops


PROGRAMS = {
    "mean_keepdim": (lambda x: x.mean(dim=-1, keepdim=True), (_rand(3, 11, 11, 4),), "reduction"),
    "sum_last3": (lambda x: x.sum(dim=-1), (_rand(5, 7, 3),), "reduction"),
    "amax_nan": (
        lambda x: x.amax(dim=-1),
        (torch.where(_rand(20, 5) > 1.5, float("nan"), _rand(20, 5, seed=1)),),
        "exact",
    ),
    "softmax_short": (lambda x: torch.softmax(x, dim=-1), (_rand(16, 6) * 3,), "transcendental"),
    "var_short": (lambda x: x.var(dim=-1, keepdim=True), (_rand(9, 4),), "reduction"),
    "layer_norm_short": (torch.nn.LayerNorm(5), (_rand(4, 6, 5),), "reduction"),
}


@pytest.mark.parametrize("soc", ["rv32", "t1-small", "t1-blastoise"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_short_reductions_match_pytorch(name, soc, tmp_path):
    fn, inputs, tolerance = PROGRAMS[name]
    if name == "layer_norm_short":
        torch.manual_seed(0)
    result = verify(Case(name, lambda: (fn, inputs), tolerance), soc, on="iss", workdir=tmp_path)
    assert result["status"] == "pass", (result.get("message"), result["outputs"])


def test_short_reduction_runs_along_the_outputs(tmp_path):
    """mean over a last dim of 4 of 3x11x11x4 on t1-blastoise: 3 816 instructions
    as 363 reductions of 4; unrolled into four strided loads over all outputs."""
    case = Case("mean4", lambda: ((lambda x: x.mean(dim=-1, keepdim=True)), (_rand(3, 11, 11, 4),)), "reduction")
    result = verify(case, "t1-blastoise", on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
    assert result["instret_forward"] < 200, result["instret_forward"]


@pytest.mark.parametrize(
    "name, build, bound",
    [
        # (9, 12, 2, 1) means read along (9, 24): the vectorizer declined the (d0, d1, 0)
        # map until the size-1 dim merged into its neighbour (t1-small 999 -> 383)
        ("var_keepdim_stat", lambda: ((lambda x: x.var(dim=-1)), (_rand(9, 12, 2, 3),)), 600),
        # unrolled reductions that read their output (their fill is shared) merge
        # their rows too: 30 outputs in one vector, not rows of 3 (1 464 -> 745)
        ("layer_norm_5", lambda: (torch.nn.LayerNorm(5), (_rand(10, 3, 5),)), 1000),
    ],
)
def test_unrolled_reductions_run_whole_vectors(name, build, bound, tmp_path):
    torch.manual_seed(0)
    result = verify(Case(name, build, "reduction"), "t1-small", on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
    assert all(op["vectorized"] for op in result["compile"]["schedule"]), result["compile"]["schedule"]
    assert result["instret_forward"] < bound, result["instret_forward"]


@pytest.mark.parametrize("soc", ["t1-small", "t1-blastoise"])
def test_reductions_over_outer_dims_add_whole_rows(soc, tmp_path):
    """A mean over dims (1, 2) keeping a last dim of 7 accumulates rows of 7. Its
    vectorized step is a reduction over a unit dim, which MLIR's multi-reduction
    unrolling had turned into 7 scalar adds (+ a VL switch per piece: t1-small
    649 instructions, 130 vsetvli); canonicalized first it is one vector add."""
    from harness.vecstats import forward_mixes

    x = _rand(2, 5, 6, 7)
    c = Case("outer_mean", lambda: (lambda x: x.mean(dim=(1, 2), keepdim=True), (x,)), "reduction")
    result = verify(c, soc, on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
    region, _ = forward_mixes(next(tmp_path.rglob("*.elf")), soc)
    assert region.vset <= 4 and region.vector_fraction > 0.5, region
