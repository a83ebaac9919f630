"""Window ops for the vector targets: the torch-level decompositions are exact
rewrites of PyTorch's ops, and the schedule turns them into vector code."""

import pytest

torch = pytest.importorskip("torch")

from compiler import compile_kernel  # noqa: E402
from compiler.decompose import conv2d_flat, max_pool2d_blocks  # noqa: E402
from compiler.frontend import import_torch  # noqa: E402


@pytest.mark.parametrize(
    "n, c, h, w, oc, k, stride, pad, bias",
    [
        (1, 1, 28, 28, 6, 5, 1, 2, True),  # LeNet's first layer
        (1, 6, 14, 14, 16, 5, 1, 0, True),
        (1, 3, 16, 16, 8, 3, 2, 1, True),
        (2, 3, 9, 7, 4, 3, 2, 0, False),  # batch 2, odd sizes, stride 2, no bias
        (1, 2, 5, 6, 3, (2, 3), 1, (1, 0), True),  # rectangular kernel and padding
    ],
)
def test_conv2d_flat_matches_pytorch(n, c, h, w, oc, k, stride, pad, bias):
    g = torch.Generator().manual_seed(n * 100 + c)
    kh, kw = (k, k) if isinstance(k, int) else k
    x = torch.randn(n, c, h, w, generator=g)
    wt = torch.randn(oc, c, kh, kw, generator=g)
    b = torch.randn(oc, generator=g) if bias else None
    ref = torch.nn.functional.conv2d(x, wt, b, stride=stride, padding=pad)
    got = conv2d_flat(
        x, wt, b, [stride, stride], pad if isinstance(pad, tuple) else [pad, pad], [1, 1], False, [0, 0], 1
    )
    assert got.shape == ref.shape
    assert torch.allclose(got, ref, rtol=1e-5, atol=1e-5)


def test_conv2d_flat_declines_what_it_does_not_cover():
    x, wt = torch.randn(1, 4, 8, 8), torch.randn(4, 2, 3, 3)
    assert conv2d_flat(x, wt, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 2) is NotImplemented  # groups
    assert conv2d_flat(x, torch.randn(4, 4, 3, 3), None, [1, 1], [0, 0], [2, 2], False, [0, 0], 1) is NotImplemented


def test_max_pool2d_blocks_values_and_indices():
    x = torch.randn(2, 3, 8, 12, generator=torch.Generator().manual_seed(4))
    values, indices = max_pool2d_blocks(x, [2, 3], [2, 3])
    ref_v, ref_i = torch.nn.functional.max_pool2d(x, (2, 3), (2, 3), return_indices=True)
    assert torch.equal(values, ref_v) and torch.equal(indices, ref_i)
    assert max_pool2d_blocks(x, [3, 3], [2, 2]) is NotImplemented  # overlapping windows


def _lenet_tail():
    class Tail(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = torch.nn.Linear(16 * 5 * 5, 120)

        def forward(self, x):
            x = torch.nn.functional.max_pool2d(torch.relu(x), 2)
            return self.fc(x.reshape(x.shape[0], -1))

    return Tail(), (torch.randn(1, 16, 10, 10),)


def test_vector_schedule_of_pool_flatten_linear(tmp_path):
    m, x = _lenet_tail()
    kernel = compile_kernel(import_torch(m, x, name="tail"), "t1-small", dump_dir=tmp_path)
    # the flatten did not split the matmul's k = 400 into 16 x 5 x 5, and the pooling
    # was not fused into (and recomputed by) the matmul
    mm = [o for o in kernel.schedule if "reduction" in o["iterators"]]
    assert [o["loops"] for o in mm] == [[1, 120, 400]] and mm[0]["vectorized"]
    assert all(o["vectorized"] for o in kernel.schedule)
    # the pooling's stride-2 reads are gathers with a constant stride (one vlse32 each)
    assert "vector.gather" in (tmp_path / "03-schedule.mlir").read_text()


def test_conv_weights_stay_4d_for_scalar_targets():
    conv = torch.nn.Conv2d(3, 8, 3, padding=1)
    imported = import_torch(conv, (torch.randn(1, 3, 8, 8),), name="conv")
    assert imported.window_decomposed and imported.without_window_decompositions is not None
    assert imported.args[0].shape == (8, 27)  # stored as the matmul's A operand
    scalar = compile_kernel(imported, "rv32")
    assert scalar.args[0].shape == (8, 3, 3, 3)  # direct convolution loops
    vector = compile_kernel(imported, "t1-small")
    assert vector.args[0].shape == (8, 27) and all(o["vectorized"] for o in vector.schedule)


def test_size1_broadcast_is_a_scalar_splat(tmp_path):
    a, b = torch.randn(4, 8, 16), torch.randn(8, 1)
    kernel = compile_kernel(import_torch(lambda a, b: a * b, (a, b), name="mulb"), "t1-small", dump_dir=tmp_path)
    assert all(o["vectorized"] for o in kernel.schedule)
    ir_text = (tmp_path / "03-schedule.mlir").read_text()
    assert "memref.load" in ir_text and "vector<1xf32> to vector" not in ir_text


def test_restore_replaces_the_module_body():
    from torch_mlir import ir

    from compiler.lowering import _restore

    ctx = ir.Context()
    with ctx:
        m = ir.Module.parse("func.func @f() { return }")
    _restore(m, "module {\n  func.func @g() {\n    return\n  }\n}")
    assert "@g" in str(m) and "@f" not in str(m)
