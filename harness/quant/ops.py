"""The quantized op vocabulary, ``torch.ops.cosim_q.*``: what the Gemmini backend compiles.

Each op has an eager integer implementation in plain PyTorch, which IS the reference the
device's output is compared with bit for bit, and a fake kernel, so ``torch.export`` keeps
each op as one node (``torch.ops.cosim_q.matmul.default``, ...). Targets without Gemmini
run the same integer implementation: :func:`decompose` rewrites an exported program's
``cosim_q`` nodes into the aten integer ops those implementations are made of.

Types: int8 tensors are ``torch.int8``, biases ``torch.int32``, scales Python floats that
are used as fp32 (:func:`fp32` rounds them; the quantizer only produces fp32 values).

requant(acc, s, relu), Gemmini's accumulator read-out (AccumulatorScale, mvout)::

    f = fp32(acc)            int32 -> fp32, round to nearest even
    f = f * fp32(s)          fp32 multiply, round to nearest even
    q = round_half_even(f), saturated to [-128, 127]
    relu: q = max(q, 0)      after saturation (the same as before scaling for s > 0)

Accumulation (``a @ b + bias``) is int32 and wraps, as the accumulator's adders do.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
import torch
from torch import Tensor

I8_MIN, I8_MAX = -128, 127

OPS = ("matmul", "linear", "bmm", "conv2d", "conv2d_pool", "add", "quantize", "dequantize")

SCHEMAS = {
    "matmul": "matmul(Tensor a, Tensor b, Tensor? bias, float scale, bool relu) -> Tensor",
    "linear": "linear(Tensor x, Tensor w, Tensor? bias, float scale, bool relu) -> Tensor",
    "bmm": "bmm(Tensor a, Tensor b, float scale) -> Tensor",
    "conv2d": (
        "conv2d(Tensor x, Tensor w, Tensor? bias, int[2] stride, int[2] padding, int[2] dilation, int groups,"
        " float scale, bool relu) -> Tensor"
    ),
    "conv2d_pool": (
        "conv2d_pool(Tensor x, Tensor w, Tensor? bias, int[2] stride, int[2] padding, int[2] dilation, int groups,"
        " float scale, bool relu, int[2] pool_kernel, int[2] pool_stride, int[2] pool_padding) -> Tensor"
    ),
    "add": "add(Tensor a, Tensor b, float a_scale, float b_scale, bool relu) -> Tensor",
    "quantize": "quantize(Tensor x, float scale) -> Tensor",
    "dequantize": "dequantize(Tensor x, float scale) -> Tensor",
}


def fp32(x: float) -> float:
    """``x`` rounded to the nearest fp32 value (a Python float that fp32 holds exactly)."""
    return float(np.float32(x))


# ---------------------------------------------------------------- integer building blocks


def requant(acc: Tensor, scale: float, relu: bool) -> Tensor:
    """int32 accumulator -> int8 with Gemmini's rule (module docstring)."""
    f = acc.to(torch.float32) * fp32(scale)
    q = torch.clamp(torch.round(f), I8_MIN, I8_MAX)
    if relu:
        q = torch.clamp(q, min=0)
    return q.to(torch.int8)


def _check(name: str, t: Tensor, dtype: torch.dtype, what: str) -> None:
    if t.dtype != dtype:
        raise TypeError(f"cosim_q.{name}: {what} must be {dtype}, got {t.dtype}")


def _check_bias(name: str, bias: Tensor | None, n: int) -> None:
    if bias is None:
        return
    _check(name, bias, torch.int32, "bias")
    if tuple(bias.shape) != (n,):
        raise ValueError(f"cosim_q.{name}: bias has shape {tuple(bias.shape)}, expected ({n},)")


def _with_bias(acc: Tensor, bias: Tensor | None) -> Tensor:
    return acc if bias is None else acc + bias


# ---------------------------------------------------------------- reference implementations


def matmul_ref(a: Tensor, b: Tensor, bias: Tensor | None, scale: float, relu: bool) -> Tensor:
    """requant(a @ b (+ bias), scale); a [M, K] int8, b [K, N] int8, bias [N] int32."""
    _check("matmul", a, torch.int8, "a")
    _check("matmul", b, torch.int8, "b")
    _check_bias("matmul", bias, b.shape[-1])
    acc = torch.matmul(a.to(torch.int32), b.to(torch.int32))
    return requant(_with_bias(acc, bias), scale, relu)


def linear_ref(x: Tensor, w: Tensor, bias: Tensor | None, scale: float, relu: bool) -> Tensor:
    """requant(x @ w.T (+ bias), scale); x [..., K] int8, w [N, K] int8 (nn.Linear's layout)."""
    _check("linear", x, torch.int8, "x")
    _check("linear", w, torch.int8, "w")
    _check_bias("linear", bias, w.shape[0])
    acc = torch.matmul(x.to(torch.int32), w.to(torch.int32).t())
    return requant(_with_bias(acc, bias), scale, relu)


def bmm_ref(a: Tensor, b: Tensor, scale: float) -> Tensor:
    """requant(a @ b, scale) per batch; a [B, M, K] int8, b [B, K, N] int8."""
    _check("bmm", a, torch.int8, "a")
    _check("bmm", b, torch.int8, "b")
    return requant(torch.bmm(a.to(torch.int32), b.to(torch.int32)), scale, False)


def conv2d_ref(
    x: Tensor,
    w: Tensor,
    bias: Tensor | None,
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    groups: int,
    scale: float,
    relu: bool,
) -> Tensor:
    """requant(conv2d(x, w) (+ bias per output channel), scale); x NCHW int8, w OIHW int8, zero padding."""
    _check("conv2d", x, torch.int8, "x")
    _check("conv2d", w, torch.int8, "w")
    _check_bias("conv2d", bias, w.shape[0])
    w32 = w.to(torch.int32)
    if tuple(dilation) != (1, 1):  # ATen has no integer dilated convolution: the same sums, zeros between taps
        w32 = _spread(_spread(w32, 2, int(dilation[0])), 3, int(dilation[1]))
    acc = torch.nn.functional.conv2d(x.to(torch.int32), w32, None, list(stride), list(padding), 1, groups)
    if bias is not None:
        acc = acc + bias.reshape(1, -1, 1, 1)
    return requant(acc, scale, relu)


def conv2d_pool_ref(
    x: Tensor,
    w: Tensor,
    bias: Tensor | None,
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    groups: int,
    scale: float,
    relu: bool,
    pool_kernel: Sequence[int],
    pool_stride: Sequence[int],
    pool_padding: Sequence[int],
) -> Tensor:
    """max_pool2d(conv2d_ref(...)) on the int8 result (floor mode, padding counts as -inf): a conv with the
    max pooling that follows it, one layer. The pool commutes with the requantization (monotone), so
    pooling the int8 values is pooling the sums."""
    y = conv2d_ref(x, w, bias, stride, padding, dilation, groups, scale, relu)
    return torch.nn.functional.max_pool2d(y, list(pool_kernel), list(pool_stride), list(pool_padding))


def _spread(w: Tensor, dim: int, d: int) -> Tensor:
    """``w`` with d - 1 zeros between neighbours along ``dim`` (2 or 3); functional (no slice writes),
    so the exported graph needs no in-place ops."""
    if d == 1:
        return w
    k = w.shape[dim]
    zeros_shape = list(w.shape)
    zeros_shape.insert(dim + 1, d - 1)
    zeros_shape[dim] = k
    t = torch.cat([w.unsqueeze(dim + 1), torch.zeros(zeros_shape, dtype=w.dtype)], dim + 1)
    shape = list(w.shape)
    shape[dim] = k * d
    return t.reshape(shape).narrow(dim, 0, (k - 1) * d + 1)


def _mvin_scaled(x: Tensor, scale: float) -> Tensor:
    """int8 -> int32 through Gemmini's mvin scale unit: sat8(rne(fp32(x) * fp32(scale)))."""
    f = x.to(torch.float32) * fp32(scale)
    return torch.clamp(torch.round(f), I8_MIN, I8_MAX).to(torch.int32)


def add_ref(a: Tensor, b: Tensor, a_scale: float, b_scale: float, relu: bool) -> Tensor:
    """Residual add as Gemmini's ``tiled_resadd`` computes it (output scale 1.0)::

        a' = sat8(rne(fp32(a) * fp32(a_scale)))    mvin of a with a_scale into the accumulator
        b' = sat8(rne(fp32(b) * fp32(b_scale)))    mvin2 of b with b_scale, accumulating
        s  = a' + b'                               int32 (|s| <= 256: no wrap)
        out = sat8(s); relu: max(out, 0)           mvout with scale 1.0, then the activation

    Each input is rounded to int8 on its own before the sum (not ``round(a*sa + b*sb)``).
    To add tensors of scales sa, sb into an output of scale so: a_scale = sa / so,
    b_scale = sb / so. Same shapes only (no broadcasting: Gemmini adds row by row).
    """
    _check("add", a, torch.int8, "a")
    _check("add", b, torch.int8, "b")
    if a.shape != b.shape:
        raise ValueError(f"cosim_q.add: shapes {tuple(a.shape)} and {tuple(b.shape)} differ (no broadcasting)")
    s = _mvin_scaled(a, a_scale) + _mvin_scaled(b, b_scale)
    q = torch.clamp(s, I8_MIN, I8_MAX)
    if relu:
        q = torch.clamp(q, min=0)
    return q.to(torch.int8)


def quantize_ref(x: Tensor, scale: float) -> Tensor:
    """float32 -> int8: sat8(round_half_even(x / fp32(scale))).

    One IEEE fp32 division (correctly rounded, so the host, Spike and the RV64 core agree
    bit for bit), not a multiply by a rounded reciprocal. NaN is not defined."""
    _check("quantize", x, torch.float32, "x")
    q = torch.clamp(torch.round(x / fp32(scale)), I8_MIN, I8_MAX)
    return q.to(torch.int8)


def dequantize_ref(x: Tensor, scale: float) -> Tensor:
    """int8 -> float32: fp32(x) * fp32(scale) (exact conversion, one rounded multiply)."""
    _check("dequantize", x, torch.int8, "x")
    return x.to(torch.float32) * fp32(scale)


REFERENCES = {
    "matmul": matmul_ref,
    "linear": linear_ref,
    "bmm": bmm_ref,
    "conv2d": conv2d_ref,
    "conv2d_pool": conv2d_pool_ref,
    "add": add_ref,
    "quantize": quantize_ref,
    "dequantize": dequantize_ref,
}


# ---------------------------------------------------------------- fake kernels (shapes only)


def _fake_matmul(a: Tensor, b: Tensor, bias: Tensor | None, scale: float, relu: bool) -> Tensor:
    return a.new_empty((a.shape[0], b.shape[1]), dtype=torch.int8)


def _fake_linear(x: Tensor, w: Tensor, bias: Tensor | None, scale: float, relu: bool) -> Tensor:
    return x.new_empty((*x.shape[:-1], w.shape[0]), dtype=torch.int8)


def _fake_bmm(a: Tensor, b: Tensor, scale: float) -> Tensor:
    return a.new_empty((a.shape[0], a.shape[1], b.shape[2]), dtype=torch.int8)


def _conv_out(size: int, k: int, s: int, p: int, d: int) -> int:
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def _fake_conv2d(
    x: Tensor,
    w: Tensor,
    bias: Tensor | None,
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    groups: int,
    scale: float,
    relu: bool,
) -> Tensor:
    h = _conv_out(x.shape[2], w.shape[2], stride[0], padding[0], dilation[0])
    wd = _conv_out(x.shape[3], w.shape[3], stride[1], padding[1], dilation[1])
    return x.new_empty((x.shape[0], w.shape[0], h, wd), dtype=torch.int8)


def _fake_conv2d_pool(
    x, w, bias, stride, padding, dilation, groups, scale, relu, pool_kernel, pool_stride, pool_padding
):
    y = _fake_conv2d(x, w, bias, stride, padding, dilation, groups, scale, relu)
    h = _conv_out(y.shape[2], pool_kernel[0], pool_stride[0], pool_padding[0], 1)
    wd = _conv_out(y.shape[3], pool_kernel[1], pool_stride[1], pool_padding[1], 1)
    return y.new_empty((y.shape[0], y.shape[1], h, wd), dtype=torch.int8)


def _fake_add(a: Tensor, b: Tensor, a_scale: float, b_scale: float, relu: bool) -> Tensor:
    return torch.empty_like(a, dtype=torch.int8)


def _fake_quantize(x: Tensor, scale: float) -> Tensor:
    return torch.empty_like(x, dtype=torch.int8)


def _fake_dequantize(x: Tensor, scale: float) -> Tensor:
    return torch.empty_like(x, dtype=torch.float32)


_FAKES = {
    "matmul": _fake_matmul,
    "linear": _fake_linear,
    "bmm": _fake_bmm,
    "conv2d": _fake_conv2d,
    "conv2d_pool": _fake_conv2d_pool,
    "add": _fake_add,
    "quantize": _fake_quantize,
    "dequantize": _fake_dequantize,
}


# ---------------------------------------------------------------- registration

NAMESPACE = "cosim_q"


def _register() -> torch.library.Library:
    lib = torch.library.Library(NAMESPACE, "DEF")
    for name in OPS:
        lib.define(SCHEMAS[name])
        # CompositeExplicitAutograd: a real kernel on every backend, so export does not trace into it
        lib.impl(name, REFERENCES[name], "CompositeExplicitAutograd")
        torch.library.register_fake(f"{NAMESPACE}::{name}", _FAKES[name], lib=lib)
    return lib


# Importing this module twice (e.g. under two names) must not define the ops twice.
if not hasattr(torch.ops, NAMESPACE) or not hasattr(getattr(torch.ops, NAMESPACE), "matmul"):
    _LIB = _register()

q = torch.ops.cosim_q  # q.matmul(a, b, bias, scale, relu), ...


def overloads() -> dict:
    """``OpOverload -> reference implementation`` for every cosim_q op."""
    return {getattr(q, name).default: REFERENCES[name] for name in OPS}


def is_cosim_q(target: object) -> bool:
    """Whether an FX node's target is a cosim_q op."""
    return isinstance(target, torch._ops.OpOverload) and target.namespace == NAMESPACE


def decompose(ep: torch.export.ExportedProgram) -> torch.export.ExportedProgram:
    """``ep`` with every cosim_q node replaced by the aten integer ops of its reference
    (the RV64 scalar path: targets without a Gemmini backend compile those)."""
    with warnings.catch_warnings():  # torch's deprecation notes about its own pytree specs, copied here
        warnings.filterwarnings("ignore", category=FutureWarning, message=r".*treespec.*")
        return ep.run_decompositions(overloads())
