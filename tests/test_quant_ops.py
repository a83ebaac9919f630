"""The cosim_q ops' eager references against independent formulations (numpy loops, exact fractions),
with ties and saturation; torch.export keeps them as single nodes; decompose() removes them exactly."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import torch

from harness.quant import ops

q = ops.q
RNG = np.random.default_rng(20)


# ---------------------------------------------------------------- the independent formulation


def wrap32(v: int) -> int:
    return ((v + 2**31) % 2**32) - 2**31


def round_half_even(x: Fraction) -> int:
    lo = x.numerator // x.denominator  # floor
    rest = x - lo
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and lo % 2 == 1):
        return lo + 1
    return lo


def sat8(v: int) -> int:
    return max(-128, min(127, v))


def requant_one(acc: int, scale: float, relu: bool) -> int:
    """Gemmini's rule on one value: fp32(acc) (numpy, RNE), times fp32(scale) (numpy fp32), then exact rounding."""
    f = np.float32(acc) * np.float32(scale)
    v = sat8(round_half_even(Fraction(float(f))))
    return max(v, 0) if relu else v


def requant_np(acc: np.ndarray, scale: float, relu: bool) -> np.ndarray:
    flat = [requant_one(int(v), scale, relu) for v in acc.reshape(-1)]
    return np.array(flat, dtype=np.int8).reshape(acc.shape)


def i8(*shape) -> np.ndarray:
    return RNG.integers(-128, 128, size=shape, dtype=np.int64).astype(np.int8)


def t(a: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(a))


def matmul_loops(a: np.ndarray, b: np.ndarray, bias: np.ndarray | None) -> np.ndarray:
    m, k = a.shape
    n = b.shape[1]
    out = np.zeros((m, n), dtype=np.int64)
    for i in range(m):
        for j in range(n):
            s = sum(int(a[i, p]) * int(b[p, j]) for p in range(k)) + (0 if bias is None else int(bias[j]))
            out[i, j] = wrap32(s)
    return out


def conv_loops(x, w, bias, stride, padding, dilation, groups) -> np.ndarray:
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.zeros((n, c, h + 2 * padding[0], wd + 2 * padding[1]), dtype=np.int64)
    xp[:, :, padding[0] : padding[0] + h, padding[1] : padding[1] + wd] = x
    oh = (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd + 2 * padding[1] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, oh, ow), dtype=np.int64)
    og = o // groups
    for b in range(n):
        for oc in range(o):
            g = oc // og
            for y in range(oh):
                for xx in range(ow):
                    s = 0 if bias is None else int(bias[oc])
                    for ic in range(cg):
                        for i in range(kh):
                            for j in range(kw):
                                yy, xj = y * stride[0] + i * dilation[0], xx * stride[1] + j * dilation[1]
                                s += int(xp[b, g * cg + ic, yy, xj]) * int(w[oc, ic, i, j])
                    out[b, oc, y, xx] = s
    return out


def fp32(x: float) -> float:
    return float(np.float32(x))


# ---------------------------------------------------------------- requantization: ties, saturation, fp32 steps


def test_requant_rounds_ties_to_even_and_saturates():
    acc = np.array([1, 3, 5, -1, -3, -5, 255, 256, 257, -256, -257, -258, 10**6, -(10**6), 2**31 - 1, -(2**31)])
    got = ops.requant(t(acc.astype(np.int32)), 0.5, False).numpy()
    assert np.array_equal(got, requant_np(acc, 0.5, False))
    # the ties themselves went to the even neighbour, the big values to the ends of the range
    assert list(got[:6]) == [0, 2, 2, 0, -2, -2] and list(got[12:]) == [127, -128, 127, -128]


def test_requant_relu_applies_after_saturation():
    acc = np.array([-(10**6), -3, -1, 0, 1, 3, 10**6], dtype=np.int32)
    got = ops.requant(t(acc), 0.5, True).numpy()
    assert np.array_equal(got, requant_np(acc.astype(np.int64), 0.5, True))
    assert got.min() == 0 and got.max() == 127


def test_requant_converts_int32_to_fp32_before_scaling():
    # 2**24 + 1 is not an fp32: it converts (ties to even) to 2**24, and 2**24 * 5 * 2**-25 = 2.5 is then a
    # tie that goes to 2; the exact product (2**24 + 1) * 5 * 2**-25 is above 2.5 and would give 3.
    acc, scale = 2**24 + 1, 5 * 2.0**-25
    got = int(ops.requant(torch.tensor([acc], dtype=torch.int32), scale, False)[0])
    assert got == requant_one(acc, scale, False)
    assert round_half_even(Fraction(acc) * Fraction(scale)) != got


def test_requant_random_values_and_scales():
    for _ in range(20):
        acc = RNG.integers(-(2**31), 2**31, size=64)
        scale = fp32(10.0 ** RNG.uniform(-9, 0))
        assert np.array_equal(ops.requant(t(acc.astype(np.int32)), scale, False).numpy(), requant_np(acc, scale, False))


# ---------------------------------------------------------------- the ops


@pytest.mark.parametrize("with_bias", [False, True])
@pytest.mark.parametrize("relu", [False, True])
def test_matmul(with_bias, relu):
    a, b = i8(5, 7), i8(7, 6)
    bias = RNG.integers(-5000, 5000, size=6).astype(np.int32) if with_bias else None
    scale = fp32(1 / 97)
    got = q.matmul(t(a), t(b), None if bias is None else t(bias), scale, relu).numpy()
    assert got.dtype == np.int8
    assert np.array_equal(got, requant_np(matmul_loops(a, b, bias), scale, relu))


def test_matmul_accumulator_wraps_at_32_bits():
    a, b = np.full((1, 4), 127, np.int8), np.full((4, 1), 127, np.int8)
    bias = np.array([2**31 - 1 - 100], dtype=np.int32)  # 4 * 127 * 127 more overflows int32
    acc = matmul_loops(a, b, bias)
    assert acc[0, 0] < 0  # wrapped
    got = q.matmul(t(a), t(b), t(bias), 1e-9, False).numpy()
    assert np.array_equal(got, requant_np(acc, 1e-9, False))


def test_linear_on_batched_input():
    x, w = i8(2, 3, 9), i8(4, 9)
    bias = RNG.integers(-300, 300, size=4).astype(np.int32)
    scale = fp32(0.01)
    got = q.linear(t(x), t(w), t(bias), scale, True).numpy()
    want = np.stack([requant_np(matmul_loops(x[i], w.T.copy(), bias), scale, True) for i in range(2)])
    assert got.shape == (2, 3, 4) and np.array_equal(got, want)


def test_bmm():
    a, b = i8(3, 4, 5), i8(3, 5, 2)
    scale = fp32(0.003)
    got = q.bmm(t(a), t(b), scale).numpy()
    want = np.stack([requant_np(matmul_loops(a[i], b[i], None), scale, False) for i in range(3)])
    assert np.array_equal(got, want)


@pytest.mark.parametrize(
    ("cin", "cout", "k", "stride", "padding", "dilation", "groups"),
    [
        (3, 4, 3, (1, 1), (1, 1), (1, 1), 1),
        (2, 4, 3, (2, 1), (0, 2), (1, 1), 1),
        (4, 4, 3, (1, 1), (1, 1), (1, 1), 4),  # depthwise
        (4, 6, 2, (2, 2), (1, 0), (2, 1), 2),
    ],
)
def test_conv2d(cin, cout, k, stride, padding, dilation, groups):
    x, w = i8(2, cin, 7, 6), i8(cout, cin // groups, k, k)
    bias = RNG.integers(-2000, 2000, size=cout).astype(np.int32)
    scale = fp32(0.004)
    got = q.conv2d(t(x), t(w), t(bias), list(stride), list(padding), list(dilation), groups, scale, True).numpy()
    want = requant_np(conv_loops(x, w, bias, stride, padding, dilation, groups), scale, True)
    assert got.shape == want.shape and np.array_equal(got, want)


def mvin_one(v: int, s: float) -> int:
    return sat8(round_half_even(Fraction(float(np.float32(v) * np.float32(s)))))


def test_add_rounds_each_input_before_the_sum():
    a = np.array([1, 3, -1, 127, -128, 100, 1], dtype=np.int8)
    b = np.array([1, 3, -1, 127, -128, -100, 0], dtype=np.int8)
    for sa, sb, relu in [(0.5, 0.5, False), (1.5, 2.0, False), (0.7, 0.3, True)]:
        got = q.add(t(a), t(b), sa, sb, relu).numpy()
        want = [sat8(mvin_one(int(x), sa) + mvin_one(int(y), sb)) for x, y in zip(a, b, strict=True)]
        want = [max(v, 0) for v in want] if relu else want
        assert list(got) == want
    # 1*0.5 + 1*0.5: each input rounds to 0 first (tie to even), so the sum is 0, not round(1.0) = 1
    assert int(q.add(t(a[:1]), t(b[:1]), 0.5, 0.5, False)[0]) == 0


def test_add_random_and_shapes_must_match():
    a, b = i8(2, 3, 5), i8(2, 3, 5)
    sa, sb = fp32(0.83), fp32(0.41)
    got = q.add(t(a), t(b), sa, sb, False).numpy()
    want = np.vectorize(lambda x, y: sat8(mvin_one(int(x), sa) + mvin_one(int(y), sb)))(a, b)
    assert np.array_equal(got, want.astype(np.int8))
    with pytest.raises(ValueError, match="no broadcasting"):
        q.add(t(a), t(b[:, :1]), sa, sb, False)


def test_quantize_is_one_fp32_division_rounded_half_to_even():
    s = fp32(0.5)
    ties = np.array([0.25, 0.75, 1.25, -0.25, -0.75, 100.0, -100.0, 1e30, -1e30], dtype=np.float32)
    got = q.quantize(t(ties), s).numpy()
    assert list(got) == [0, 2, 2, 0, -2, 127, -128, 127, -128]
    # a scale whose reciprocal is not exact: division and multiply-by-reciprocal differ on some inputs
    s = fp32(0.0123)
    # the two rules can only round apart next to a tie: take the fp32 values around each (k + 1/2) * s
    mid = ((np.arange(-130, 130) + 0.5) * float(s)).astype(np.float32)
    x = np.concatenate([mid, *(np.nextafter(mid, np.float32(d * np.inf)) for d in (1, -1))])
    by_div = np.clip(np.rint(x / np.float32(s)), -128, 127).astype(np.int8)
    by_mul = np.clip(np.rint(x * np.float32(1 / np.float32(s))), -128, 127).astype(np.int8)
    got = q.quantize(t(x), s).numpy()
    assert np.array_equal(got, by_div)
    assert not np.array_equal(by_div, by_mul)  # so the test above can tell the two rules apart


def test_dequantize():
    x = i8(3, 4)
    s = fp32(0.037)
    got = q.dequantize(t(x), s).numpy()
    assert got.dtype == np.float32 and np.array_equal(got, x.astype(np.float32) * np.float32(s))


def test_wrong_dtypes_are_refused():
    with pytest.raises(TypeError, match="int8"):
        q.matmul(torch.zeros(2, 2), torch.zeros(2, 2, dtype=torch.int8), None, 1.0, False)
    with pytest.raises(TypeError, match="int32"):
        q.linear(torch.zeros(2, 2, dtype=torch.int8), torch.zeros(2, 2, dtype=torch.int8), torch.zeros(2), 1.0, False)


def test_max_pool2d_on_int8_is_aten():
    x = i8(1, 2, 4, 6)
    got = torch.nn.functional.max_pool2d(t(x), 2).numpy()
    assert np.array_equal(got, x.reshape(1, 2, 2, 2, 3, 2).max(axis=(3, 5)))


# ---------------------------------------------------------------- export and decomposition


class _AllOps(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("cw", t(i8(4, 2, 3, 3)))
        self.register_buffer("cb", t(RNG.integers(-99, 99, size=4).astype(np.int32)))
        self.register_buffer("lw", t(i8(3, 16)))

    def forward(self, x, a, b):
        y = q.conv2d(q.quantize(x, 0.05), self.cw, self.cb, [2, 2], [2, 2], [2, 2], 1, 0.002, True)
        y = q.add(y, y, 0.6, 0.4, False)
        z = q.linear(y.reshape(2, 16), self.lw, None, 0.01, False)
        m = q.matmul(a[0], b[0], None, 0.02, True)
        return q.dequantize(z, 0.1), m, q.bmm(a, b, 0.01)


def _all_ops_inputs():
    return (torch.from_numpy(RNG.standard_normal((2, 2, 4, 4)).astype(np.float32)), t(i8(2, 3, 5)), t(i8(2, 5, 4)))


def test_export_keeps_each_cosim_q_op_as_one_node_and_decompose_removes_them():
    m, args = _AllOps(), _all_ops_inputs()
    ep = torch.export.export(m, args)
    targets = [n.target for n in ep.graph.nodes if n.op == "call_function"]
    names = sorted(str(x) for x in targets if ops.is_cosim_q(x))
    assert names == sorted(
        f"cosim_q.{n}.default" for n in ("quantize", "conv2d", "add", "linear", "matmul", "bmm", "dequantize")
    )
    dec = ops.decompose(ep)
    assert not any(ops.is_cosim_q(n.target) for n in dec.graph.nodes if n.op == "call_function")
    for want, got in zip(m(*args), dec.module()(*args), strict=True):
        assert torch.equal(want, got)


def test_fake_kernels_give_the_eager_shapes():
    from torch._subclasses.fake_tensor import FakeTensorMode

    m, args = _AllOps(), _all_ops_inputs()
    eager = m(*args)
    with FakeTensorMode(allow_non_fake_inputs=True) as mode:
        fake = m(*(mode.from_tensor(a) for a in args))
    assert [(tuple(f.shape), f.dtype) for f in fake] == [(tuple(e.shape), e.dtype) for e in eager]
