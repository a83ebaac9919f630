"""Torch-level decompositions that turn window ops into vectorizable linalg, and
that make ops whose torch-mlir lowering differs from eager PyTorch match it.

The RVV schedule vectorizes linalg ops whose indexing maps are projected
permutations (every operand is read along plain loop indices). Convolution and
pooling windows (``oh*s + kh``) are not, and an im2col gather with div/mod index
math vectorizes badly. These decompositions rewrite the ops, during
``torch.export``'s decomposition pass, into ops that only ever read contiguous
(or constant-stride) slices at static offsets:

- ``conv2d`` on the *row-flattened padded input*: with the input padded to
  ``Hp x Wp`` and flattened to one row per channel, output position
  ``j = oh*Wp + ow`` of a "wide" output reads input element
  ``s*j + dh*kh*Wp + dw*kw``. So for every (ic, kh, kw) the needed inputs are
  one 1-D slice (offset ``dh*kh*Wp + dw*kw``, stride ``s``) of the flattened
  input, and the convolution is one matmul ``W[OC, IC*KH*KW] @ B[IC*KH*KW, OH*Wp]``
  whose B rows are those slices (copied side by side, contiguous). Columns
  ``ow >= OW`` of the wide output are garbage and are sliced away. With unequal
  strides on the two axes a B row is a 2-D strided slice (``OH x OW``) instead.
- ``max_pool2d`` (any kernel, stride, padding, dilation, ceil_mode): the input
  padded with -inf (bottom/right as far as ceil_mode's last window needs), then
  the maximum of the ``KH*KW`` strided slices ``xp[..., a*dh::sh, b*dw::sw]``
  folded in window order with PyTorch's kernel rule ``take = v > m or isnan(v)``:
  a NaN anywhere in a window gives NaN (RVV ``vfmax`` and torch-mlir's
  ``maximum`` lowering would return the other operand), and of equal values the
  first wins (``-0.0`` before ``+0.0`` stays ``-0.0``). Indices follow the same
  rule; they are dead code (and vanish) unless the program returns them.
- ``relu`` as ``x < 0 ? 0 : x``: eager PyTorch keeps ``-0.0`` and NaN;
  torch-mlir's ``x > 0 ? x : 0`` turns ``-0.0`` into ``+0.0``.
- ``gelu(approximate="tanh")`` with sqrt(2/pi) (torch-mlir's constant is 0.797724).
- ``cumsum`` as a matmul with a triangular matrix of ones (no scan lowering here).
- integer ``a // b`` by a truncating divide and a sign correction (torch-mlir: f64).
- ``triu``/``tril`` with the row/column indices compared in int32 (torch-mlir: i64).
- ``A @ v`` with a 1-D ``v`` (``aten.mv``) as an N = 1 matmul (vector targets).

Anything outside these shapes returns ``NotImplemented``: PyTorch's and
torch-mlir's own lowering takes over (correct, but scalar loops).
"""

from __future__ import annotations


def _pair(v) -> tuple[int, int]:
    if isinstance(v, int):
        return (v, v)
    v = list(v)
    return (int(v[0]), int(v[0])) if len(v) == 1 else (int(v[0]), int(v[1]))


def conv2d_flat(x, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    """``aten.convolution`` (2-D, not transposed) over slices of the row-flattened
    padded input (module docstring; 2-D slices for unequal strides): one matmul per group; a
    depthwise convolution (one input channel per group) as a multiply-add of each
    window offset's slice by its per-channel weight column."""
    import torch

    if transposed or x.dim() != 4 or weight.dim() != 4 or x.dtype != torch.float32:
        return NotImplemented
    (sh, sw), (ph, pw), (dh, dw) = _pair(stride), _pair(padding), _pair(dilation)
    n, c, h, w = (int(d) for d in x.shape)
    oc, icg, kh, kw = (int(d) for d in weight.shape)
    hp, wp = h + 2 * ph, w + 2 * pw
    oh, ow = (hp - dh * (kh - 1) - 1) // sh + 1, (wp - dw * (kw - 1) - 1) // sw + 1
    if groups < 1 or icg * groups != c or oc % groups or oh <= 0 or ow <= 0:
        return NotImplemented
    if sh == sw:
        s, cols = sh, wp  # a "wide" output row of Wp columns, the last Wp - OW garbage
        wide = oh * wp
        last = s * (wide - 1) + dh * (kh - 1) * wp + dw * (kw - 1)  # highest flat input index read
        extra_rows = max(0, -(-(last + 1 - hp * wp) // wp))  # zero rows below so every slice is in bounds
        xp = torch.nn.functional.pad(x, (pw, pw, ph, ph + extra_rows))
        flat = xp.reshape(n, c, (hp + extra_rows) * wp)

        def window(b, channels, ky, kx):
            off = dh * ky * wp + dw * kx
            return flat[b, channels, off : off + s * (wide - 1) + 1 : s]

    else:
        # Unequal strides have no single stride along the flattened rows: a window
        # offset's inputs are a 2-D strided slice (OH x OW), copied into its B row.
        cols = ow
        xp = torch.nn.functional.pad(x, (pw, pw, ph, ph))

        def window(b, channels, ky, kx):
            r0, c0 = dh * ky, dw * kx
            v = xp[b, channels, r0 : r0 + sh * (oh - 1) + 1 : sh, c0 : c0 + sw * (ow - 1) + 1 : sw]
            return v.reshape(*v.shape[:-2], oh * ow)

    taps = [(ky, kx) for ky in range(kh) for kx in range(kw)]
    outs = []
    for b in range(n):
        if groups == c and oc == c:  # depthwise: y[c] = sum_k w[c, k] * slice_k[c]
            wk = weight.reshape(c, kh * kw)
            y = None
            for k, (ky, kx) in enumerate(taps):
                term = wk[:, k : k + 1] * window(b, slice(None), ky, kx)
                y = term if y is None else y + term
        else:
            ocg, parts = oc // groups, []
            for g in range(groups):
                # rows ordered (ic, kh, kw) within the group: a free reshape of its filters
                w2 = weight[g * ocg : (g + 1) * ocg].reshape(ocg, icg * kh * kw)
                rows = [window(b, ci, ky, kx) for ci in range(g * icg, (g + 1) * icg) for ky, kx in taps]
                parts.append(torch.mm(w2, torch.stack(rows, dim=0)))  # (ocg, OH*cols)
            y = parts[0] if groups == 1 else torch.cat(parts, dim=0)
        if bias is not None:
            y = y + bias.reshape(oc, 1)
        y = y.reshape(oc, oh, cols)
        outs.append(y[:, :, :ow] if cols != ow else y)
    return torch.stack(outs, dim=0)


def pool_output_size(size: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    """PyTorch's pooling output length (``pooling_output_shape``): with ceil_mode
    the last window may hang over the end, but must start inside input or left padding."""
    out = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def max_pool2d_slices(x, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """``aten.max_pool2d_with_indices`` as maxima of strided slices of the -inf
    padded input, with PyTorch's NaN and tie rules (module docstring)."""
    import torch

    if x.dim() not in (3, 4) or not x.dtype.is_floating_point:
        return NotImplemented
    kh, kw = _pair(kernel_size)
    sh, sw = _pair(stride) if stride not in ((), [], None) else (kh, kw)
    (ph, pw), (dh, dw) = _pair(padding), _pair(dilation)
    h, w = int(x.shape[-2]), int(x.shape[-1])
    oh = pool_output_size(h, kh, sh, ph, dh, ceil_mode)
    ow = pool_output_size(w, kw, sw, pw, dw, ceil_mode)
    if oh <= 0 or ow <= 0 or ph > kh // 2 or pw > kw // 2:
        return NotImplemented  # PyTorch rejects these; let its own error surface
    # -inf padding never wins (take needs strictly greater), so windows hanging over
    # the border see only their real elements, as PyTorch's kernel does.
    bottom = max(0, (oh - 1) * sh + dh * (kh - 1) + 1 - h - ph)
    right = max(0, (ow - 1) * sw + dw * (kw - 1) + 1 - w - pw)
    xp = x
    if ph or pw or bottom or right:
        xp = torch.nn.functional.pad(x, (pw, right, ph, bottom), value=float("-inf"))

    # Flat input index of window offset (a, b) per output position, and PyTorch's
    # initial index (the window's first in-bounds element).
    rows0 = torch.arange(oh, dtype=torch.int64).reshape(oh, 1) * sh - ph
    cols0 = torch.arange(ow, dtype=torch.int64).reshape(1, ow) * sw - pw
    first_r, first_c = _first_in_bounds(rows0, kh, dh), _first_in_bounds(cols0, kw, dw)

    values, indices = None, first_r * w + first_c
    for a in range(kh):
        for b in range(kw):
            r0, c0 = a * dh, b * dw
            part = xp[..., r0 : r0 + (oh - 1) * sh + 1 : sh, c0 : c0 + (ow - 1) * sw + 1 : sw]
            here = (rows0 + r0) * w + (cols0 + c0)
            if values is None:  # the running maximum starts at -inf
                take = (part > float("-inf")) | torch.isnan(part)
                values = part  # == where(take, part, -inf), bit for bit
            else:
                take = (part > values) | torch.isnan(part)
                values = torch.where(take, part, values)
            indices = torch.where(take, here, indices)
    return values, indices


def _first_in_bounds(start, k: int, d: int):
    """Per window, the first of ``start + a*d`` (a < k) that is >= 0: where-chains,
    no tensor division (integer division lowers through a float floor)."""
    import torch

    first = start + (k - 1) * d
    for a in reversed(range(k - 1)):
        first = torch.where(start + a * d >= 0, start + a * d, first)
    return first


def relu_keeps_signed_zero(x):
    """``aten.relu`` as eager PyTorch computes it: ``x < 0 ? 0 : x`` (keeps -0.0, NaN)."""
    import torch

    return torch.where(x < 0, torch.zeros_like(x), x)


def gelu_tanh_exact_constant(x, approximate="none"):
    """``aten.gelu(approximate="tanh")`` as PyTorch's kernel computes it:
    ``0.5 * x * (1 + tanh(b * (x + 0.044715 * x^3)))`` with ``b = sqrt(2 / pi)``.
    torch-mlir's lowering uses ``b = 0.797724`` (sqrt(2 / pi) is 0.7978846): 5e-5
    off near x = -1. The exact-erf gelu keeps torch-mlir's lowering."""
    if approximate != "tanh":
        return NotImplemented
    import math

    import torch

    inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * (x * x * x))
    return 0.5 * x * (1.0 + torch.tanh(inner))


def cumsum_as_matmul(x, dim, dtype=None):
    """``aten.cumsum`` (torch-mlir: ``tm_tensor.scan``, which nothing here lowers)
    as a matmul with an upper-triangular matrix of ones along ``dim``: n^2 work
    instead of n, but vectorized, and sums of the same terms (in another order:
    the reduction tolerance)."""
    import torch

    if not x.dtype.is_floating_point or (dtype is not None and dtype != x.dtype):
        return NotImplemented
    dim = dim % x.dim()
    n = int(x.shape[dim])
    rows = torch.arange(n).reshape(n, 1)
    cols = torch.arange(n).reshape(1, n)
    upper = (rows <= cols).to(x.dtype)  # upper[i, j] = 1 where i <= j
    moved = x.movedim(dim, -1)
    return torch.matmul(moved, upper).movedim(-1, dim)


def int_floor_divide(a, b, rounding_mode="floor"):
    """Integer ``a // b`` (``aten.floor_divide``, ``div(rounding_mode="floor")``) by
    a truncating divide and a correction where the remainder's sign differs from
    b's. torch-mlir divides in f64 and floors, which the targets cannot run."""
    import torch

    ints = not a.dtype.is_floating_point and not a.dtype == torch.bool
    if rounding_mode != "floor" or not ints or (isinstance(b, torch.Tensor) and b.dtype.is_floating_point):
        return NotImplemented
    if isinstance(b, float):
        return NotImplemented
    q = torch.div(a, b, rounding_mode="trunc")
    r = a - q * b
    if isinstance(b, torch.Tensor):
        off = (r != 0) & ((r < 0) != (b < 0))
    else:  # a Python int: its sign picks the test
        off = (r < 0) if b > 0 else (r > 0)
    return q - off.to(q.dtype)


def int_div_floor_mode(a, b, *, rounding_mode=None):
    """``torch.div(a, b, rounding_mode="floor")`` on integers: :func:`int_floor_divide`."""
    return int_floor_divide(a, b, rounding_mode)


def matvec_as_mm(a, v):
    """``aten.mv`` (a 2-D @ 1-D product) as ``mm(a, v[:, None])[:, 0]``: an N = 1
    matmul, which compiler.rvv.narrow_matmul_flattening runs as whole output rows per vector. As a
    reduction that multiplies, the row dot products were lowered with one
    ``vfmacc`` per element and slides ((16, 23) @ (23,) on t1-small: 2 769
    instructions, rv32 3 102)."""
    return (a @ v.unsqueeze(-1)).squeeze(-1)


def _triangle(x, diagonal: int, upper: bool):
    import torch

    if x.dim() < 2:
        return NotImplemented
    rows, cols = int(x.shape[-2]), int(x.shape[-1])
    i = torch.arange(rows, dtype=torch.int32).reshape(rows, 1)
    j = torch.arange(cols, dtype=torch.int32).reshape(1, cols)
    keep = (j - i >= diagonal) if upper else (j - i <= diagonal)
    return torch.where(keep, x, torch.zeros((), dtype=x.dtype))


def triu_int32_mask(x, diagonal=0):
    """``aten.triu``: ``x`` where ``j - i >= diagonal``, else 0, with the indices in
    int32. torch-mlir computes ``j - i`` in i64, which no vector config has (ELEN
    32): LLVM built the mask element by element, and a difference shared by a triu
    and a tril became an i64 buffer read with scalar loads (both of 5x11x6 on
    t1-blastoise: 11 000 instructions with i64 indices, 81 with int32)."""
    return _triangle(x, int(diagonal), upper=True)


def tril_int32_mask(x, diagonal=0):
    """``aten.tril``: ``x`` where ``j - i <= diagonal``, else 0 (see :func:`triu_int32_mask`)."""
    return _triangle(x, int(diagonal), upper=False)


# Window decompositions: the names in ``fired`` that make an import "window
# decomposed" (scalar targets re-import without those not in SCALAR_TOO).
WINDOW_OPS = ("conv2d_flat", "max_pool2d_slices")
# Which decompositions pay off on scalar code (or are needed for correctness there):
# pooling as maxima of slices is cheaper there too, relu and gelu must match
# PyTorch; the convolution's copies and wide columns are not worth it.
SCALAR_TOO = (
    "max_pool2d_slices",
    "relu_keeps_signed_zero",
    "gelu_tanh_exact_constant",
    "cumsum_as_matmul",
    "int_floor_divide",
    "int_div_floor_mode",
    "triu_int32_mask",
    "tril_int32_mask",
)


def table(fired: list[str] | None = None, *, scalar: bool = False) -> dict:
    """Decompositions keyed by ATen overload, for ``run_decompositions``; the name of
    every one that applies is appended to ``fired``. ``scalar``: only SCALAR_TOO."""
    import torch

    aten = torch.ops.aten

    def recording(fn):
        def run(*args, **kwargs):
            out = fn(*args, **kwargs)
            if out is not NotImplemented and fired is not None:
                fired.append(fn.__name__)
            return out

        return run

    chosen = {
        aten.convolution.default: conv2d_flat,
        aten.max_pool2d_with_indices.default: max_pool2d_slices,
        aten.relu.default: relu_keeps_signed_zero,
        aten.gelu.default: gelu_tanh_exact_constant,
        aten.cumsum.default: cumsum_as_matmul,
        aten.floor_divide.default: int_floor_divide,
        aten.div.Tensor_mode: int_div_floor_mode,
        aten.mv.default: matvec_as_mm,
        aten.triu.default: triu_int32_mask,
        aten.tril.default: tril_int32_mask,
    }
    return {op: recording(fn) for op, fn in chosen.items() if not scalar or fn.__name__ in SCALAR_TOO}
