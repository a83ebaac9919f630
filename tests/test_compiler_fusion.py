"""Elementwise fusion (compiler.rewrites.elementwise_fusion): which producers are folded into their users."""

from __future__ import annotations

import re

import pytest

torch = pytest.importorskip("torch")

from compiler import compile_kernel  # noqa: E402
from compiler.frontend import import_torch  # noqa: E402
from harness.cases import Case  # noqa: E402
from harness.verify import verify  # noqa: E402


def _preprocessed(fn, inputs, name: str, tmp_path) -> str:
    imported = import_torch(fn, inputs, name=name, source=name)
    compile_kernel(imported, "t1-small", use_cache=False, dump_dir=tmp_path)
    return (tmp_path / "01-preprocess.mlir").read_text()


def test_transpose_folds_into_its_elementwise_user(tmp_path):
    text = _preprocessed(lambda x: x.t() + 1.0, (torch.randn(12, 20),), "tadd", tmp_path)
    assert "linalg.transpose" not in text
    assert text.count("linalg.generic") == 1
    # the add reads the input along swapped dims: no copy in between
    assert re.search(r"affine_map<\(d0, d1\) -> \(d1, d0\)>", text), text
    assert "cosim.fuse_transpose" not in text  # the rewrite's mark does not leak


def test_transpose_into_matmul_stays_named(tmp_path):
    # folding it into the contraction would change the matmul's B reads (its schedule)
    text = _preprocessed(lambda a, b: a.t() @ b, (torch.randn(8, 6), torch.randn(8, 5)), "tmm", tmp_path)
    assert "linalg.transpose" in text and "linalg.matmul" in text


def test_transpose_with_two_users_stays_one_copy(tmp_path):
    text = _preprocessed(lambda x: (x.t() + 1.0, x.t() * 2.0), (torch.randn(8, 6),), "t2", tmp_path)
    assert "cosim.fuse_transpose" not in text
    assert text.count("linalg.generic") + text.count("linalg.transpose") == 3


def test_fused_transpose_costs_no_more_on_wider_vectors(tmp_path):
    """x.t() + 1 on t1-blastoise (VLEN 2048) retires no more instructions than on
    t1-small (VLEN 256): before the fusion the copy's wide gather came back as
    element-by-element slides (2,236 instructions against 120)."""

    def build():
        return (lambda x: x.t().contiguous() + 1.0), (torch.randn(12, 20, generator=torch.Generator().manual_seed(5)),)

    counts = {}
    for soc in ("t1-small", "t1-blastoise"):
        result = verify(Case("transpose_add", build, "elementwise"), soc, on="iss", workdir=tmp_path / soc)
        assert result["status"] == "pass", (result.get("message"), result["outputs"])
        counts[soc] = result["instret_forward"]
    assert counts["t1-blastoise"] <= counts["t1-small"], counts


def test_wide_transpose_copy_is_not_forwarded_into_row_loads(tmp_path):
    """A transpose with two users stays one flat copy (a 240-element gather on
    t1-blastoise). Its store must not be forwarded into the users' 12-element row
    loads, which LLVM rebuilt with slides: 291 instructions on t1-blastoise
    against 137 on t1-small; with flatew's barrier 196 against 138."""

    def build():
        x = torch.randn(12, 20, generator=torch.Generator().manual_seed(6))
        return (lambda x: (x.t() + 1.0, x.t() * 2.0)), (x,)

    counts = {}
    for soc in ("t1-small", "t1-blastoise"):
        result = verify(Case("transpose_two_users", build, "elementwise"), soc, on="iss", workdir=tmp_path / soc)
        assert result["status"] == "pass", (result.get("message"), result["outputs"])
        counts[soc] = result["instret_forward"]
    assert counts["t1-blastoise"] <= 1.5 * counts["t1-small"], counts


class _Embeddings(torch.nn.Module):
    """BERT's embeddings: word, position and token type tables summed."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(3)
        self.word = torch.nn.Embedding(20, 8)
        self.pos = torch.nn.Embedding(6, 8)
        self.kind = torch.nn.Embedding(2, 8)
        self.register_buffer("pos_ids", torch.arange(6).unsqueeze(0), persistent=False)

    def forward(self, ids, kinds):
        return self.word(ids) + self.pos(self.pos_ids) + self.kind(kinds)


def test_fused_gather_producers_are_erased(tmp_path):
    """Fusing the three embedding gathers into the sum leaves the gathers (and the
    partial sum fused on the way) with unused results, kept alive only by their
    index-check cf.asserts: they are erased, the one fused op keeps every check
    (2 per table) and the result matches PyTorch."""
    ids, kinds = torch.tensor([[1, 7, 19, 0, 3, 3]]), torch.tensor([[0, 1, 1, 0, 0, 1]])
    text = _preprocessed(_Embeddings(), (ids, kinds), "emb3", tmp_path)
    generics = text.split("linalg.generic")[1:]
    gathers = [g for g in generics if "tensor.extract " in g.split("linalg.yield")[0]]
    assert len(gathers) == 1, text
    assert gathers[0].split("linalg.yield")[0].count("cf.assert") == 6
    assert "cosim.unused_before_fusion" not in text
    result = verify(
        Case("emb3", lambda: (_Embeddings(), (ids, kinds)), "exact"), "t1-small", on="iss", workdir=tmp_path
    )
    assert result["status"] == "pass", result


def test_a_generic_unused_before_fusion_keeps_its_checks():
    """A generic whose result nobody used before the fusion (an index check PyTorch
    would make on a value it then drops) stays; only what fusion made unused goes."""
    from torch_mlir import ir

    from compiler.rewrites.elementwise_fusion import fuse_elementwise

    gather = """
  %{name} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel"]}}
      ins(%ids : tensor<4xi64>) outs(%e : tensor<4xf32>) {{
  ^bb0(%i: i64, %o: f32):
    %x = arith.index_cast %i : i64 to index
    %ok = arith.cmpi slt, %x, %c8 : index
    cf.assert %ok, "index must be smaller than dim size"
    %v = tensor.extract %t[%x] : tensor<8xf32>
    linalg.yield %v : f32
  }} -> tensor<4xf32>"""
    text = f"""
#id = affine_map<(d0) -> (d0)>
func.func @f(%ids: tensor<4xi64>, %t: tensor<8xf32>) -> tensor<4xf32> {{
  %c8 = arith.constant 8 : index
  %e = tensor.empty() : tensor<4xf32>{gather.format(name="dead")}{gather.format(name="g")}
  %s = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel"]}}
      ins(%g : tensor<4xf32>) outs(%e : tensor<4xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %a : f32
    linalg.yield %y : f32
  }} -> tensor<4xf32>
  return %s : tensor<4xf32>
}}
"""
    with ir.Context():
        module = ir.Module.parse(text)
        fuse_elementwise(module)
        out = str(module)
    # %dead stays; %g was fused into the add and goes: two generics, two checks
    assert out.count("linalg.generic") == 2, out
    assert out.count("cf.assert") == 2, out
    assert "cosim.unused_before_fusion" not in out
