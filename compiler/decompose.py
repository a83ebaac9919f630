"""Torch-level decompositions that turn window ops into vectorizable linalg.

The RVV schedule vectorizes linalg ops whose indexing maps are projected
permutations (every operand is read along plain loop indices). Convolution and
pooling windows (``oh*s + kh``) are not, and an im2col gather with div/mod index
math vectorizes badly. These decompositions rewrite the ops, during
``torch.export``'s decomposition pass, into ops that only ever read contiguous
(or constant-stride) slices at static offsets:

- ``conv2d`` on the *row-flattened padded input*: with the input padded to
  ``Hp x Wp`` and flattened to one row per channel, output position
  ``j = oh*Wp + ow`` of a "wide" output reads input element
  ``s*j + kh*Wp + kw``. So for every (ic, kh, kw) the needed inputs are one 1-D
  slice (offset ``kh*Wp + kw``, stride ``s``) of the flattened input, and the
  convolution is one matmul ``W[OC, IC*KH*KW] @ B[IC*KH*KW, OH*Wp]`` whose B rows
  are those slices (copied side by side, contiguous). Columns ``ow >= OW`` of the
  wide output are garbage and are sliced away.
- ``max_pool2d`` with non-overlapping windows (kernel == stride, no padding, no
  dilation, sizes divisible): the input reshaped (free, contiguous) to
  ``N, C, OH, KH, OW, KW`` and reduced with ``amax`` over the two window dims;
  the window offsets are loop indices, not index arithmetic.

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
    """``aten.convolution`` (2-D, groups 1, dilation 1, not transposed) as one matmul
    over slices of the row-flattened padded input (module docstring)."""
    import torch

    if (
        transposed
        or groups != 1
        or x.dim() != 4
        or weight.dim() != 4
        or x.dtype != torch.float32
        or _pair(dilation) != (1, 1)
    ):
        return NotImplemented
    (sh, sw), (ph, pw) = _pair(stride), _pair(padding)
    n, c, h, w = (int(d) for d in x.shape)
    oc, ic, kh, kw = (int(d) for d in weight.shape)
    hp, wp = h + 2 * ph, w + 2 * pw
    oh, ow = (hp - kh) // sh + 1, (wp - kw) // sw + 1
    if ic != c or oh <= 0 or ow <= 0 or sh != sw:
        return NotImplemented
    s = sh
    wide = oh * wp  # output columns per channel, ow in [0, wp)
    last = s * (wide - 1) + (kh - 1) * wp + (kw - 1)  # highest flat input index read
    extra_rows = max(0, -(-(last + 1 - hp * wp) // wp))  # zero rows below so every slice is in bounds
    xp = torch.nn.functional.pad(x, (pw, pw, ph, ph + extra_rows))
    flat = xp.reshape(n, c, (hp + extra_rows) * wp)
    w2 = weight.reshape(oc, ic * kh * kw)  # rows ordered (ic, kh, kw): a free reshape
    outs = []
    for b in range(n):
        rows = [
            flat[b, ci, dy * wp + dx : dy * wp + dx + s * (wide - 1) + 1 : s]
            for ci in range(ic)
            for dy in range(kh)
            for dx in range(kw)
        ]
        cols = torch.stack(rows, dim=0)  # (IC*KH*KW, OH*Wp)
        y = torch.mm(w2, cols)
        if bias is not None:
            y = y + bias.reshape(oc, 1)
        outs.append(y.reshape(oc, oh, wp)[:, :, :ow])
    return torch.stack(outs, dim=0)


def max_pool2d_blocks(x, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """``aten.max_pool2d_with_indices`` for non-overlapping windows: amax over the
    window dims of a free reshape. Indices (argmax within the window, as PyTorch
    numbers them) are computed too; when unused they are dead code and vanish."""
    import torch

    kh, kw = _pair(kernel_size)
    sh, sw = _pair(stride) if stride not in ((), [], None) else (kh, kw)
    if (
        x.dim() not in (3, 4)
        or (sh, sw) != (kh, kw)
        or _pair(padding) != (0, 0)
        or _pair(dilation) != (1, 1)
        or x.shape[-2] % kh
        or x.shape[-1] % kw
    ):
        return NotImplemented
    lead = tuple(int(d) for d in x.shape[:-2])
    h, w = int(x.shape[-2]), int(x.shape[-1])
    oh, ow = h // kh, w // kw
    blocks = x.reshape(*lead, oh, kh, ow, kw)
    values = None
    for a in range(kh):
        for b in range(kw):
            part = x[..., a::kh, b::kw]
            values = part if values is None else torch.maximum(values, part)
    # Indices: argmax over the window (row-major within it, first maximum wins as in
    # PyTorch's kernel), turned into the flat h*w index PyTorch reports.
    r = len(lead)
    win = blocks.permute(*range(r), r, r + 2, r + 1, r + 3).reshape(*lead, oh, ow, kh * kw)
    arg = torch.argmax(win, dim=-1)
    rows = torch.arange(oh, dtype=torch.int64).reshape(oh, 1) * kh + arg // kw
    cols = torch.arange(ow, dtype=torch.int64).reshape(1, ow) * kw + arg % kw
    return values, rows * w + cols


# Which decompositions pay off on scalar code: pooling as maxima of slices is
# cheaper there too; the convolution's copies and wide columns are not.
SCALAR_TOO = ("max_pool2d_blocks",)


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
        aten.max_pool2d_with_indices.default: max_pool2d_blocks,
    }
    return {op: recording(fn) for op, fn in chosen.items() if not scalar or fn.__name__ in SCALAR_TOO}
