"""max_pool2d with overlapping windows, padding, ceil_mode and NaNs."""

import torch
import torch.nn.functional as F


def _r(*shape, seed=0, scale=1.0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)) * scale


def pool_k3_s1_overlapping():
    return (lambda x: F.max_pool2d(x, 3, stride=1)), (_r(1, 3, 9, 11, seed=90),), "exact"


def pool_k2_s1():
    return torch.nn.MaxPool2d(2, stride=1), (_r(2, 2, 6, 7, seed=91),), "exact"


def pool_k3_s2_pad1():
    return torch.nn.MaxPool2d(3, stride=2, padding=1), (_r(1, 4, 12, 12, seed=92),), "exact"


def pool_k2_s2_ceil_mode_odd():
    return (lambda x: F.max_pool2d(x, 2, 2, ceil_mode=True)), (_r(1, 2, 7, 9, seed=93),), "exact"


def pool_k3_s3_pad1_ceil():
    return (lambda x: F.max_pool2d(x, 3, 3, padding=1, ceil_mode=True)), (_r(1, 1, 10, 11, seed=94),), "exact"


def pool_rect_kernel_stride():
    return (lambda x: F.max_pool2d(x, (2, 3), stride=(1, 2))), (_r(1, 3, 6, 10, seed=95),), "exact"


def pool_nonoverlap_with_nan():
    x = _r(1, 2, 8, 8, seed=96)
    x[0, 0, 1, 1] = float("nan")  # window (0, 0) of channel 0
    x[0, 1, 6, 7] = float("nan")  # last window of channel 1
    x[0, 1, 0, 0] = float("-inf")
    return (lambda x: F.max_pool2d(x, 2)), (x,), "exact"


def pool_overlap_with_nan_and_padding():
    x = _r(1, 1, 7, 7, seed=97)
    x[0, 0, 3, 3] = float("nan")  # inside several overlapping windows
    x[0, 0, 0, 6] = float("nan")  # a corner next to the padding
    return (lambda x: F.max_pool2d(x, 3, stride=2, padding=1)), (x,), "exact"


def pool_3d_input_unbatched():
    return (lambda x: F.max_pool2d(x, 2)), (_r(3, 10, 6, seed=98),), "exact"


def pool_all_negative_padding():
    # the -inf padding must never win against negative inputs
    x = -(_r(1, 2, 5, 5, seed=99).abs() + 1.0)
    return (lambda x: F.max_pool2d(x, 2, stride=2, padding=1)), (x,), "exact"


def pool_dilation2():
    return (lambda x: F.max_pool2d(x, 2, stride=1, dilation=2)), (_r(1, 2, 7, 7, seed=100),), "exact"


def pool_global_max():
    return (lambda x: F.max_pool2d(x, (5, 7))), (_r(2, 3, 5, 7, seed=101),), "exact"


def pool_signed_zero_ties():
    # PyTorch keeps the first maximum of a window: -0.0 before +0.0 gives -0.0
    x = torch.zeros(1, 1, 4, 4)
    x[0, 0, 0, 0] = -0.0
    x[0, 0, 2, 2] = -0.0
    x[0, 0, 0, 2:] = -1.0
    return (lambda x: F.max_pool2d(x, 2) * 1.0), (x,), "exact"


def pool_then_return_indices():
    def f(x):
        v, i = F.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
        return v, i

    return f, (_r(1, 2, 7, 8, seed=102),), "exact"
