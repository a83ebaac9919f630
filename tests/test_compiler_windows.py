"""Window ops for the vector targets: the torch-level decompositions are exact
rewrites of PyTorch's ops, and the schedule turns them into vector code."""

import pytest

torch = pytest.importorskip("torch")

from compiler import compile_kernel  # noqa: E402
from compiler.frontend import import_torch  # noqa: E402
from compiler.frontend.torch_decompositions import (  # noqa: E402
    conv2d_flat,
    cumsum_as_matmul,
    int_floor_divide,
    matvec_as_mm,
    max_pool2d_slices,
    relu_keeps_signed_zero,
    tril_int32_mask,
    triu_int32_mask,
)


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
@pytest.mark.parametrize("dilation", [1, 2])
def test_conv2d_flat_matches_pytorch(n, c, h, w, oc, k, stride, pad, bias, dilation):
    g = torch.Generator().manual_seed(n * 100 + c)
    kh, kw = (k, k) if isinstance(k, int) else k
    x = torch.randn(n, c, h, w, generator=g)
    wt = torch.randn(oc, c, kh, kw, generator=g)
    b = torch.randn(oc, generator=g) if bias else None
    if (h + 2 * (pad if isinstance(pad, int) else pad[0]) - dilation * (kh - 1)) < 1:
        pytest.skip("the dilated kernel does not fit")
    ref = torch.nn.functional.conv2d(x, wt, b, stride=stride, padding=pad, dilation=dilation)
    got = conv2d_flat(
        x, wt, b, [stride, stride], pad if isinstance(pad, tuple) else [pad, pad], [dilation] * 2, False, [0, 0], 1
    )
    assert got.shape == ref.shape
    assert torch.allclose(got, ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "c, oc, groups, stride, pad",
    [
        (4, 4, 4, 1, 1),  # depthwise
        (6, 6, 6, 2, 0),  # depthwise, stride 2
        (4, 8, 4, 1, 1),  # depthwise with channel multiplier 2 (per-group matmuls)
        (6, 4, 2, 1, 1),  # two groups of 3 input channels
    ],
)
def test_grouped_conv2d_flat_matches_pytorch(c, oc, groups, stride, pad):
    g = torch.Generator().manual_seed(c * 10 + oc + groups)
    x = torch.randn(2, c, 7, 9, generator=g)
    wt = torch.randn(oc, c // groups, 3, 3, generator=g)
    b = torch.randn(oc, generator=g)
    ref = torch.nn.functional.conv2d(x, wt, b, stride=stride, padding=pad, groups=groups)
    got = conv2d_flat(x, wt, b, [stride] * 2, [pad] * 2, [1, 1], False, [0, 0], groups)
    assert got.shape == ref.shape
    assert torch.allclose(got, ref, rtol=1e-5, atol=1e-5)


def test_depthwise_conv_is_vectorized(tmp_path):
    """A depthwise conv (a generic that looks like a convolution) once failed the
    whole vector schedule; decomposed it is multiply-adds of slices, verified on Spike."""
    from harness.cases import Case
    from harness.verify import verify

    torch.manual_seed(0)
    conv = torch.nn.Conv2d(8, 8, 3, padding=1, groups=8)
    x = torch.randn(1, 8, 10, 10, generator=torch.Generator().manual_seed(1))
    result = verify(Case("dw", lambda: (conv, (x,)), "reduction"), "t1-small", on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
    assert all(e["vectorized"] for e in result["compile"]["schedule"]), result["compile"]["schedule"]


@pytest.mark.parametrize(
    "c, oc, groups, k, stride, pad, dilation",
    [
        (3, 2, 1, (4, 3), (1, 2), (0, 1), 1),  # found by random programs: scalar loops before
        (6, 7, 1, (5, 4), (1, 2), (2, 0), 1),
        (4, 1, 1, (4, 5), (2, 1), (1, 0), 1),
        (4, 4, 4, (3, 3), (2, 3), (1, 1), 2),  # depthwise, dilated
        (4, 6, 2, (2, 2), (3, 1), (0, 0), 1),  # two groups
    ],
)
def test_conv2d_flat_unequal_strides_match_pytorch(c, oc, groups, k, stride, pad, dilation):
    """Strides that differ per axis: each B row is a 2-D strided slice."""
    g = torch.Generator().manual_seed(c * 10 + oc)
    x = torch.randn(2, c, 11, 13, generator=g)
    wt = torch.randn(oc, c // groups, *k, generator=g)
    b = torch.randn(oc, generator=g)
    ref = torch.nn.functional.conv2d(x, wt, b, stride=stride, padding=pad, dilation=dilation, groups=groups)
    got = conv2d_flat(x, wt, b, list(stride), list(pad), [dilation] * 2, False, [0, 0], groups)
    assert got.shape == ref.shape
    assert torch.allclose(got, ref, rtol=1e-5, atol=1e-5)


def test_unequal_stride_conv_is_vectorized(tmp_path):
    """Verified on Spike, every op vectorized (it ran as torch-mlir's scalar loops:
    24 270 instructions on t1-small, as many as rv32)."""
    from harness.cases import Case
    from harness.verify import verify

    torch.manual_seed(0)
    conv = torch.nn.Conv2d(3, 2, (4, 3), stride=(1, 2), padding=(0, 1))
    x = torch.randn(2, 3, 9, 10, generator=torch.Generator().manual_seed(1))
    result = verify(Case("conv_s1x2", lambda: (conv, (x,)), "reduction"), "t1-small", on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
    assert all(e["vectorized"] for e in result["compile"]["schedule"]), result["compile"]["schedule"]


def test_conv2d_flat_declines_what_it_does_not_cover():
    x = torch.randn(1, 4, 8, 8)
    wt4 = torch.randn(4, 4, 3, 3)
    assert conv2d_flat(x, wt4, None, [2, 2], [0, 0], [1, 1], True, [0, 0], 1) is NotImplemented  # transposed
    assert conv2d_flat(x[0], wt4[0], None, [1], [0], [1], False, [0], 1) is NotImplemented  # conv1d
    assert conv2d_flat(x.double(), wt4.double(), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1) is NotImplemented


POOL_SHAPES = [
    # (h, w), kernel, stride, padding, dilation, ceil_mode
    ((8, 12), (2, 3), (2, 3), 0, 1, False),  # non-overlapping
    ((9, 11), 3, 1, 0, 1, False),  # overlapping
    ((12, 12), 3, 2, 1, 1, False),  # padding
    ((7, 9), 2, 2, 0, 1, True),  # ceil_mode: last window hangs over
    ((10, 11), 3, 3, 1, 1, True),  # padding and ceil_mode
    ((6, 10), (2, 3), (1, 2), 0, 1, False),  # rectangular
    ((7, 7), 2, 1, 0, 2, False),  # dilation
    ((9, 8), 3, 2, 1, 2, True),  # everything at once
    ((5, 7), (5, 7), (5, 7), 0, 1, False),  # one window: global max
]


def _pool_input(h, w, seed):
    x = torch.randn(2, 3, h, w, generator=torch.Generator().manual_seed(seed))
    x[0, 0, 1, 1] = float("nan")  # NaN inside a window
    x[1, 2, h - 1, w - 1] = float("nan")  # NaN in the last window (or outside every window)
    x[1, 1, 0, :3], x[1, 1, 1, :3] = -0.0, 0.0  # signed-zero ties: the first one wins
    x[0, 1] = float("-inf")  # a channel of -inf: the -inf padding must not change indices
    return x


@pytest.mark.parametrize("hw, k, s, p, d, ceil", POOL_SHAPES)
def test_max_pool2d_slices_is_pytorch_bit_for_bit(hw, k, s, p, d, ceil):
    x = _pool_input(*hw, seed=hw[0] * 31 + hw[1])
    ref_v, ref_i = torch.nn.functional.max_pool2d(x, k, s, p, d, ceil_mode=ceil, return_indices=True)
    values, indices = max_pool2d_slices(x, k, s, p, d, ceil)
    assert values.shape == ref_v.shape
    assert torch.equal(values.view(torch.int32), ref_v.view(torch.int32))  # NaNs and -0.0 included
    assert torch.equal(indices, ref_i)
    assert max_pool2d_slices(x[0, 0, 0], 2) is NotImplemented  # 1-D: not a 2-D pooling


def test_relu_keeps_negative_zero_and_nan():
    x = torch.tensor([-0.0, 0.0, float("nan"), -1.0, 2.0, float("-inf"), float("inf")])
    assert torch.equal(relu_keeps_signed_zero(x).view(torch.int32), torch.relu(x).view(torch.int32))


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

    from compiler.mlir_utils import restore

    ctx = ir.Context()
    with ctx:
        m = ir.Module.parse("func.func @f() { return }")
    restore(m, "module {\n  func.func @g() {\n    return\n  }\n}")
    assert "@g" in str(m) and "@f" not in str(m)


def test_compare_of_two_broadcast_operands_compiles():
    # a causal mask's shape: (1, N) > (M, 1) selecting from (M, N); the vector
    # schedule's pattern sets used to rewrite each other forever on it
    a, b, s = torch.randn(1, 6), torch.randn(6, 1), torch.randn(6, 6)
    imported = import_torch(lambda a, b, s: torch.where(a > b, s, 0.0), (a, b, s), name="where_bcast")
    kernel = compile_kernel(imported, "t1-small", use_cache=False)
    assert kernel.object.is_file() and all(o["vectorized"] for o in kernel.schedule)


def test_float_scalar_compares_stay_f32():
    imported = import_torch(lambda x: torch.where(x > 0.1, x, x * 0.5), (torch.randn(4, 8),), name="thr")
    assert " f64" not in imported.mlir.replace("f64 to f32", "")  # only constants truncated to f32 remain
    assert "arith.extf" not in imported.mlir


@pytest.mark.parametrize("shape, dim", [((7,), 0), ((3, 9), 1), ((3, 9), 0), ((2, 4, 5), -2)])
def test_cumsum_as_matmul_matches_pytorch(shape, dim):
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(len(shape) + dim))
    assert torch.allclose(cumsum_as_matmul(x, dim), torch.cumsum(x, dim), rtol=1e-5, atol=1e-6)
    assert cumsum_as_matmul(x.to(torch.int32), dim) is NotImplemented  # integer scans stay unsupported


def test_int_floor_divide_matches_pytorch():
    a = torch.arange(-30, 30, dtype=torch.int32)
    b = torch.arange(60, dtype=torch.int32) % 9 - 4
    b = torch.where(b == 0, torch.ones_like(b), b)
    assert torch.equal(int_floor_divide(a, b), a // b)
    for d in (3, -4, 1, -1):
        assert torch.equal(int_floor_divide(a, d), a // d)
    assert int_floor_divide(a.float(), 2) is NotImplemented  # float floor division keeps its lowering


def test_padded_input_rows_are_not_forwarded_into_im2col_rows(tmp_path):
    """A 3x3 conv with padding 1 of a 19x19 input on t1-blastoise: LLVM unrolled the
    copy of the 19 rows into the padded buffer and forwarded them into the 399-element
    im2col rows, each rebuilt as a shuffle through the stack (44 496 instructions).
    A memory barrier after the copy keeps the loads (2 192)."""
    from harness.cases import Case
    from harness.verify import verify

    torch.manual_seed(0)
    conv = torch.nn.Conv2d(1, 4, 3, padding=1)
    x = torch.randn(1, 1, 19, 19, generator=torch.Generator().manual_seed(1))
    result = verify(Case("padconv19", lambda: (conv, (x,)), "reduction"), "t1-blastoise", on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
    assert result["instret_forward"] < 5000, result["instret_forward"]


def _bit_equal(a, b) -> bool:
    if a.dtype != b.dtype:
        return False
    if not a.dtype.is_floating_point:
        return torch.equal(a, b)
    same_nan = torch.equal(torch.isnan(a), torch.isnan(b))
    return same_nan and torch.equal(a.nan_to_num(), b.nan_to_num()) and torch.equal(a.signbit(), b.signbit())


@pytest.mark.parametrize("diagonal", [-3, -1, 0, 2, 7])
def test_triangle_masks_match_pytorch_bit_for_bit(diagonal):
    x = torch.randn(2, 5, 6, generator=torch.Generator().manual_seed(4))
    x[0, 4, 0], x[1, 0, 5], x[0, 2, 2] = float("nan"), float("-inf"), -0.0  # kept or zeroed like PyTorch
    for ours, theirs in ((triu_int32_mask, torch.triu), (tril_int32_mask, torch.tril)):
        for t in (x, (x * 10).nan_to_num().to(torch.int32), x > 0):
            assert _bit_equal(ours(t, diagonal), theirs(t, diagonal)), (ours.__name__, t.dtype, diagonal)
    assert triu_int32_mask(torch.randn(4), 0) is NotImplemented  # 1-D: PyTorch's own error


def test_matvec_runs_as_an_n1_matmul(tmp_path):
    """``A @ v`` with a 1-D v (aten.mv) as an N = 1 matmul (flatmm's whole output rows
    per vector): (16, 23) @ (23,) on t1-small was 2 769 instructions with one vfmacc
    per element via slides (RTL 4 340 cycles), now 131 (575 cycles)."""
    from harness.cases import Case
    from harness.verify import verify

    g = torch.Generator().manual_seed(5)
    a, v = torch.randn(16, 23, generator=g), torch.randn(23, generator=g)
    assert torch.allclose(matvec_as_mm(a, v), torch.mv(a, v), rtol=1e-6, atol=1e-6)
    result = verify(
        Case("mv", lambda: ((lambda a, v: a @ v), (a, v)), "reduction"), "t1-small", on="iss", workdir=tmp_path
    )
    assert result["status"] == "pass", result
    assert result["instret_forward"] < 500, result["instret_forward"]


@pytest.mark.parametrize("rows, flat", [(8, True), (5, True), (4, True), (3, False)])
def test_short_matrix_vector_products_on_wide_datapaths(rows, flat, tmp_path):
    """Linear(64, 1) on t1-blastoise (8 lanes): a block of fewer than two datapath
    rows had the row-segment form, one VL-1 FMA per row and k. It runs flat now
    (8 rows 1 315 -> 341 instructions, RTL 2 552 -> 860 cycles), except 3 rows:
    LLVM gathers a non-power-of-two block with indexed loads, which pays from 5."""
    from harness.cases import Case
    from harness.verify import verify

    torch.manual_seed(3)
    lin = torch.nn.Linear(64, 1)
    x = torch.randn(rows, 64, generator=torch.Generator().manual_seed(rows))
    result = verify(Case("head", lambda: (lin, (x,)), "reduction"), "t1-blastoise", on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
    ran_flat = any(op["reason"].startswith("narrow contraction") for op in result["compile"]["schedule"])
    assert ran_flat == flat, result["compile"]["schedule"]


@pytest.mark.parametrize("m", [37, 67])
def test_matrix_vector_product_with_a_prime_row_count(m, tmp_path):
    """M prime and past VLMAX (no block size divides it): full blocks of VLMAX rows
    and a shorter last one. mm 37x13x1 on t1-small had the row form (VL-1 FMAs):
    1 771 instructions (rv32 1 703), RTL 2 395 cycles; now 270 and 890."""
    from harness.cases import Case
    from harness.verify import verify

    g = torch.Generator().manual_seed(m)
    a, b = torch.randn(m, 13, generator=g), torch.randn(13, 1, generator=g)
    result = verify(
        Case("mv", lambda: ((lambda a, b: a @ b), (a, b)), "reduction"), "t1-small", on="iss", workdir=tmp_path
    )
    assert result["status"] == "pass", result
    assert any(op["reason"].startswith("narrow contraction") for op in result["compile"]["schedule"])
    assert result["instret_forward"] < 10 * m, result["instret_forward"]


def test_window_offsets_factor_into_digits():
    from compiler.rvv.window_views import factor_offsets

    # LeNet-5's conv2: rows (ic, kh, kw) of a 15x14 padded input, 6 channels of 5x5
    lenet2 = [ic * 210 + kh * 14 + kw for ic in range(6) for kh in range(5) for kw in range(5)]
    assert factor_offsets(lenet2) == ([6, 5, 5], [210, 14, 1])
    assert factor_offsets([o + 33 for o in lenet2]) == ([6, 5, 5], [210, 14, 1])  # the first row's offset is the view's
    assert factor_offsets([0, 2, 4, 6]) == ([4], [2])  # dilation 2 along one digit
    assert factor_offsets([5]) == ([1], [1])
    assert factor_offsets([0, 1, 3]) is None  # no fixed stride
    assert factor_offsets([0, 1, 10, 11, 20]) is None  # a digit's run does not divide the rows
    assert factor_offsets([0, 1, 10, 12]) is None  # blocks of different patterns
    assert factor_offsets([3, 2, 1]) is None  # decreasing: never a conv2d_flat row order


@pytest.mark.parametrize(
    "c, oc, k, pad, dilation, groups, batch, bias",
    [
        (2, 3, 3, 1, 1, 1, 2, True),  # batch 2: one matmul and one view per image
        (4, 4, 3, 2, 2, 2, 1, True),  # dilation 2, two groups: a view per group
        (3, 5, (2, 4), (1, 0), 1, 1, 1, True),  # rectangular kernel and padding
        (1, 6, 5, 2, 1, 1, 1, True),  # LeNet-5's conv1 shape on a smaller input
        (3, 4, 3, 1, 1, 1, 1, False),  # no bias: the matmul writes the [OC, OH, Wp] output, as [OC, OH*Wp]
    ],
)
def test_stride1_convs_read_their_windows_in_place(c, oc, k, pad, dilation, groups, batch, bias, tmp_path):
    """window-views replaces the im2col copies by a strided view of the padded input:
    verified on Spike against PyTorch, and the scheduled IR has no row copies left
    (no 1-D linalg.generic copy of a window row) and reads a reinterpret_cast view."""
    from harness.cases import Case
    from harness.verify import verify

    torch.manual_seed(c * 7 + oc)
    conv = torch.nn.Conv2d(c, oc, k, padding=pad, dilation=dilation, groups=groups, bias=bias)
    x = torch.randn(batch, c, 9, 11, generator=torch.Generator().manual_seed(2))
    dump = tmp_path / "ir"
    result = verify(Case("winconv", lambda: (conv, (x,)), "reduction"), "t1-small", on="iss", dump_ir=dump)
    assert result["status"] == "pass", result
    after = next((dump / "passes").glob("*-window-views.mlir")).read_text()
    before = next((dump / "passes").glob("*-generalize-named-ops.mlir")).read_text()
    assert after.count("memref.reinterpret_cast") == before.count("memref.reinterpret_cast") + batch * groups
    assert "memref.global" not in after or after.count("memref.global") < before.count("memref.global")
    kh, kw = (k, k) if isinstance(k, int) else k
    one_d = 'iterator_types = ["parallel"]}'  # the 1-D row copies into the im2col temporary
    assert before.count(one_d) - after.count(one_d) == batch * groups * (c // groups) * kh * kw
    # one column dim in every rewritten contraction (its reductions after two parallel loops)
    assert after.count('iterator_types = ["parallel", "parallel", "reduction", "reduction"') == batch * groups


def test_stride2_conv_keeps_its_row_copies(tmp_path):
    """A strided window row would be a vlse32 in every row block of the matmul rather
    than once in its copy: window-views leaves it alone, and the result still verifies."""
    from harness.cases import Case
    from harness.verify import verify

    torch.manual_seed(0)
    conv = torch.nn.Conv2d(3, 4, 3, stride=2, padding=1)
    x = torch.randn(1, 3, 10, 10, generator=torch.Generator().manual_seed(3))
    dump = tmp_path / "ir"
    result = verify(Case("s2conv", lambda: (conv, (x,)), "reduction"), "t1-small", on="iss", dump_ir=dump)
    assert result["status"] == "pass", result
    after = next((dump / "passes").glob("*-window-views.mlir")).read_text()
    before = next((dump / "passes").glob("*-generalize-named-ops.mlir")).read_text()
    assert after == before


def test_window_view_conv_runs_as_outer_products(tmp_path):
    """LeNet-5's conv2 read in place: its contraction tiled by 1 along ic, kh and kw is
    merged to one reduction dim (contractions-to-reductions) and lowered to outer
    products. Lowered with three unit reduction dims it ran 6.6 M instructions; with
    the im2col copies 12 672; read in place 11 069 (t1-blastoise, Spike, forward)."""
    from harness.cases import Case
    from harness.verify import verify

    torch.manual_seed(0)
    conv = torch.nn.Conv2d(6, 16, 5)
    x = torch.randn(1, 6, 14, 14, generator=torch.Generator().manual_seed(4))
    result = verify(Case("lenet_c2", lambda: (conv, (x,)), "reduction"), "t1-blastoise", on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result
    assert result["instret_forward"] < 12_000, result["instret_forward"]
