"""transpose / reshape / permute / flatten compositions."""

import torch


def _r(*shape, seed=0, scale=1.0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)) * scale


def transpose_then_reshape():
    return (lambda x: x.transpose(1, 2).reshape(2, 15, 7)), (_r(2, 7, 3, 5, seed=110),), "exact"


def permute_nchw_to_nhwc():
    return (lambda x: x.permute(0, 2, 3, 1).contiguous()), (_r(2, 3, 5, 7, seed=111),), "exact"


def matrix_t_plus_one():
    return (lambda x: x.t() + 1.0), (_r(13, 6, seed=112),), "elementwise"


def flatten_unsqueeze_squeeze():
    def f(x):
        y = torch.flatten(x, 1).unsqueeze(1)  # (N, 1, C*H*W)
        return y.squeeze(1) * 3.0

    return f, (_r(2, 3, 4, 5, seed=113),), "elementwise"


def view_split_heads():
    # (B, T, H*D) -> (B, H, T, D), as attention code does
    return (lambda x: x.view(2, 5, 3, 4).permute(0, 2, 1, 3).contiguous()), (_r(2, 5, 12, seed=114),), "exact"


def swapaxes_3d_scaled():
    return (lambda x: torch.transpose(x, 0, 2) * -1.0), (_r(4, 3, 9, seed=115),), "exact"


def permute_reshape_linear():
    w = _r(10, 3 * 4, seed=116, scale=0.3)
    return (lambda x: x.permute(2, 0, 1).reshape(5, 12) @ w.t()), (_r(3, 4, 5, seed=117),)
