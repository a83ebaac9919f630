"""compiler.rvv.row_gathers: embedding-style gathers (``table[ids[...], j]`` in a
linalg body) run as one index read and check per output row and one vector load per
table row, instead of a scalar loop over every element. Every case is checked against
PyTorch on Spike; the index checks still abort on an id out of range."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torch_mlir")

from compiler import compile_kernel  # noqa: E402
from compiler.frontend import import_torch  # noqa: E402
from configs import load_soc  # noqa: E402
from harness.cases import Case  # noqa: E402
from harness.verify import verify  # noqa: E402


def _row_gathers(kernel) -> list[dict]:
    return [e for e in kernel.schedule if str(e.get("reason", "")).startswith("row gather")]


class Embeddings(torch.nn.Module):
    """Word, position and token-type tables summed, as BERT's embeddings."""

    def __init__(self, dim: int = 64):
        super().__init__()
        torch.manual_seed(11)
        self.word = torch.nn.Embedding(50, dim)
        self.pos = torch.nn.Embedding(12, dim)
        self.kind = torch.nn.Embedding(2, dim)
        self.register_buffer("pos_ids", torch.arange(12).unsqueeze(0), persistent=False)

    def forward(self, ids, kinds):
        n = ids.shape[1]
        return self.word(ids) + self.pos(self.pos_ids[:, :n]) + self.kind(kinds)


def _ids(n: int = 8):
    g = torch.Generator().manual_seed(n)
    return torch.randint(0, 50, (1, n), generator=g), torch.randint(0, 2, (1, n), generator=g)


def test_embedding_sum_reads_each_table_row_with_one_vector_load(tmp_path):
    """t1-small (VLEN 256: 32 fp32 lanes at LMUL 4): rows of 64 are two 32-element
    chunks; per token 3 index reads, their 6 checks once, 3 row loads a chunk, no
    scalar float load left in the kernel."""
    ids, kinds = _ids()
    kernel = compile_kernel(import_torch(Embeddings(), (ids, kinds), name="emb"), "t1-small", use_cache=False)
    (entry,) = _row_gathers(kernel)
    assert entry["tile_sizes"] == [1, 1, 32], entry
    ll = kernel.llvm_ir.read_text()
    assert "load float" not in ll, "a scalar table read is left"
    assert "@abort" in ll  # the checks are still there
    result = verify(Case("emb", lambda: (Embeddings(), (ids, kinds)), "exact"), "t1-small", on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result


@pytest.mark.parametrize(
    ("dim", "soc", "applies"),
    [
        (64, "t1-blastoise", True),  # one 64-element vector a row
        (96, "t1-small", True),  # three chunks of 32
        (37, "t1-small", False),  # a prime row: no chunk of 2 or more divides it
    ],
)
def test_row_gathers_apply_where_a_chunk_divides_the_row_and_verify(dim, soc, applies, tmp_path):
    ids, kinds = _ids(6)
    kernel = compile_kernel(import_torch(Embeddings(dim), (ids, kinds), name="emb"), soc, use_cache=False)
    assert bool(_row_gathers(kernel)) == applies
    case = Case("emb", lambda: (Embeddings(dim), (ids, kinds)), "exact")
    result = verify(case, soc, on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result


def test_a_gather_along_the_row_is_left_alone(tmp_path):
    """index_select along the last dim reads ``table[i, ids[j]]``: the data-dependent
    index is the innermost one, not a row read; it keeps the scalar loop and
    still matches PyTorch. Scaling each row by its position (the row index used
    as a value) is left alone too."""
    table = torch.randn(4, 40, generator=torch.Generator().manual_seed(2))
    cols = torch.tensor([3, 0, 39, 7, 7, 12])

    def along(t, c):
        return torch.index_select(t, 1, c)

    kernel = compile_kernel(import_torch(along, (table, cols), name="sel"), "t1-small", use_cache=False)
    assert not _row_gathers(kernel)
    result = verify(Case("sel", lambda: (along, (table, cols)), "exact"), "t1-small", on="iss", workdir=tmp_path / "a")
    assert result["status"] == "pass", result

    emb = torch.nn.Embedding(10, 16)
    ids = torch.tensor([[1, 9, 4]])

    def scaled(i):
        return emb(i) * torch.arange(16, dtype=torch.float32)

    kernel = compile_kernel(import_torch(scaled, (ids,), name="scaled"), "t1-small", use_cache=False)
    assert not _row_gathers(kernel)
    result = verify(Case("scaled", lambda: (scaled, (ids,)), "exact"), "t1-small", on="iss", workdir=tmp_path / "s")
    assert result["status"] == "pass", result


def test_an_id_out_of_range_still_aborts(tmp_path):
    """The per-row checks are torch-mlir's: an id patched out of range in the ELF
    prints the message and aborts (exit 134)."""
    from elftools.elf.elffile import ELFFile

    from harness.elfcheck import ElfImage
    from harness.iss import run_iss
    from harness.program import build_program

    ids, kinds = _ids()
    kernel = compile_kernel(import_torch(Embeddings(), (ids, kinds), name="emb"), "t1-small", use_cache=False)
    assert _row_gathers(kernel)
    program = build_program(kernel, load_soc("t1-small"), tmp_path)
    inputs = ElfImage(program.elf).symbols_with_prefix("cosim_in").values()
    addrs = [s.addr for s in inputs if s.size == ids.numel() * 8]
    assert len(addrs) == 2, addrs  # ids and kinds
    with open(program.elf, "r+b") as f:
        elf = ELFFile(f)
        for addr in addrs:  # the fourth of both: 50, past every table
            sec = next(s for s in elf.iter_sections() if s["sh_addr"] <= addr < s["sh_addr"] + s["sh_size"])
            f.seek(sec["sh_offset"] + addr - sec["sh_addr"] + 3 * 8)
            f.write((50).to_bytes(8, "little"))
    outcome, record = run_iss(program.elf, "t1-small")
    assert record["exit_code"] == 134 and record["status"] != "pass", record
    assert "index must be smaller than dim size" in outcome.uart


def test_a_table_that_is_the_output_is_left_alone():
    """Rows gathered from the buffer being written (an in-place permutation of rows)
    depend on the scalar loop's element order: the pass leaves such an op alone."""
    from compiler.replay import load_target, replay

    text = """
#map = affine_map<(d0, d1) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @forward(%ids: memref<4xi64> {llvm.noalias}, %rows: memref<4x64xf32> {llvm.noalias}) {
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]}
        ins(%ids : memref<4xi64>) outs(%rows : memref<4x64xf32>) {
    ^bb0(%in: i64, %out: f32):
      %0 = linalg.index 1 : index
      %1 = arith.index_cast %in : i64 to index
      %2 = memref.load %rows[%1, %0] : memref<4x64xf32>
      linalg.yield %2 : f32
    }
    return
  }
}
"""
    out = replay("row-gathers", load_target("t1-small"), text, locations=False)
    assert "linalg.generic" in out and "vector.load" not in out, out
    # the same gather from another buffer is rewritten
    other = text.replace(
        "%rows: memref<4x64xf32> {llvm.noalias})",
        "%rows: memref<4x64xf32> {llvm.noalias}, %t: memref<9x64xf32> {llvm.noalias})",
    )
    other = other.replace("memref.load %rows[%1, %0] : memref<4x64xf32>", "memref.load %t[%1, %0] : memref<9x64xf32>")
    out = replay("row-gathers", load_target("t1-small"), other, locations=False)
    assert "linalg.generic" not in out and "vector.load" in out, out
