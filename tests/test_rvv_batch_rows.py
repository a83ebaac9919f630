"""compiler.rvv.narrow_matmul_flattening, batch rows: a batched matmul whose output
rows fit one datapath row runs with row i of several batches in one vector (element
p: batch p / N, column p % N). B's rows of those batches are gathered once per block,
A[b, i, k] by a gather of N equal indices per batch (one memory beat each on our
RTL), C by a scatter; a fill of C right before is the accumulators' start. Every case
is checked against PyTorch on Spike."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torch_mlir")

from compiler import compile_kernel  # noqa: E402
from compiler.frontend import import_torch  # noqa: E402
from harness.cases import Case  # noqa: E402
from harness.verify import verify  # noqa: E402


def _batch_rows(kernel) -> list[dict]:
    return [e for e in kernel.schedule if str(e.get("reason", "")).startswith("batch rows")]


def test_bmm_holds_b_rows_and_gathers_a_per_row():
    """bmm 8x8x8 on t1-blastoise (DLEN 256: a row of 8 floats per datapath row): one
    block of 8 batches, 64-element vectors; 8 gathers of B rows, 64 of A (one per i and
    k), 8 scatters of C, no zero fill of C in memory."""
    a, b = torch.randn(8, 8, 8), torch.randn(8, 8, 8)
    kernel = compile_kernel(import_torch(torch.bmm, (a, b), name="bmm"), "t1-blastoise", use_cache=False)
    (entry,) = _batch_rows(kernel)
    assert entry["tile_sizes"] == [8, 1, 8, 8]
    ll = kernel.llvm_ir.read_text()
    assert ll.count("call <64 x float> @llvm.masked.gather.v64f32") == 8 + 64
    assert ll.count("call void @llvm.masked.scatter.v64f32") == 8
    assert "zeroinitializer, ptr" not in ll and "store <64 x float> zeroinitializer" not in ll


@pytest.mark.parametrize(
    ("shape", "soc", "applies"),
    [
        ((8, 8, 8, 8), "t1-blastoise", True),
        ((6, 5, 3, 4), "t1-blastoise", True),  # block 6 (24-element vectors), K 3, N 4
        ((8, 8, 9, 8), "t1-blastoise", False),  # K past the B rows held in registers
        ((8, 8, 8, 16), "t1-blastoise", False),  # an output row of 16 floats: two datapath rows
        ((7, 8, 8, 16), "t1-small", False),  # DLEN 64
        ((9, 4, 4, 2), "t1-small", True),  # block 3 of 3 batches x 2 columns (VLMAX 8)
    ],
)
def test_batch_rows_apply_only_where_rows_fit_and_verify(shape, soc, applies, tmp_path):
    batch, m, k, n = shape
    gen = torch.Generator().manual_seed(sum(shape))
    a, b = torch.randn(batch, m, k, generator=gen), torch.randn(batch, k, n, generator=gen)
    kernel = compile_kernel(import_torch(torch.bmm, (a, b), name="bmm"), soc, use_cache=False)
    assert bool(_batch_rows(kernel)) == applies
    result = verify(Case("bmm", lambda: (torch.bmm, (a, b)), "reduction"), soc, on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result


def test_outputs_that_hold_values_and_sliced_operands_verify(tmp_path):
    """Two bmm outputs sharing one zero fill (bufferization fills one and copies it:
    no fill right before either matmul, so both start from a gather of C), and an
    operand sliced from a wider tensor (the gathers' index vectors carry its strides)."""
    gen = torch.Generator().manual_seed(7)
    m0, y = torch.randn(8, 8, 8, generator=gen), torch.randn(8, 8, 8, generator=gen)
    w = torch.randn(8, 8, 16, generator=gen)

    def f(m0, w, y):
        x = w[:, :, 4:12]
        return torch.bmm(x.transpose(1, 2), y.transpose(1, 2)), torch.baddbmm(m0, x, y)

    kernel = compile_kernel(import_torch(f, (m0, w, y), name="views"), "t1-blastoise", use_cache=False)
    assert len(_batch_rows(kernel)) == 2
    ll = kernel.llvm_ir.read_text()
    assert ll.count("call <64 x float> @llvm.masked.gather.v64f32") == 2 * (8 + 64 + 8)  # C's rows gathered too
    result = verify(Case("views", lambda: (f, (m0, w, y)), "reduction"), "t1-blastoise", on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
