"""conv2d (NCHW) with other strides, paddings, kernels and batches."""

import torch


def _r(*shape, seed=0, scale=1.0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)) * scale


def _conv(seed, *args, **kw):
    torch.manual_seed(seed)
    return torch.nn.Conv2d(*args, **kw)


def conv1x1_pointwise():
    return _conv(70, 5, 7, 1), (_r(1, 5, 6, 9, seed=71),)


def conv_stride2_pad0_batch2():
    return _conv(72, 3, 4, 3, stride=2), (_r(2, 3, 11, 13, seed=73),)


def conv_stride3_pad2():
    return _conv(74, 2, 3, 4, stride=3, padding=2), (_r(1, 2, 17, 10, seed=75),)


def conv_nonsquare_kernel_no_bias():
    return _conv(76, 4, 6, (3, 1), padding=(1, 0), bias=False), (_r(1, 4, 8, 5, seed=77),)


def conv_rect_stride_and_padding():
    # different strides per axis and asymmetric kernel
    return _conv(78, 2, 3, (2, 3), stride=(1, 2), padding=(0, 1)), (_r(1, 2, 7, 9, seed=79),)


def conv_dilation2():
    return _conv(80, 3, 4, 3, dilation=2, padding=2), (_r(1, 3, 10, 10, seed=81),)


def functional_conv_wide_channels():
    w = _r(16, 8, 3, 3, seed=82, scale=0.2)
    b = _r(16, seed=83)
    return (lambda x: torch.nn.functional.conv2d(x, w, b, padding=1)), (_r(1, 8, 12, 12, seed=84),)


def conv_relu_1x1_input():
    # 1x1 spatial input with a 1x1 kernel: a linear layer in disguise
    conv = _conv(85, 16, 8, 1)
    return (lambda x: torch.relu(conv(x))), (_r(3, 16, 1, 1, seed=86),)


def conv_single_output_channel_pad_larger_than_input():
    return _conv(87, 2, 1, 3, padding=2), (_r(1, 2, 2, 3, seed=88),)


def conv_stride2_pad1_even_kernel():
    return _conv(89, 3, 5, 4, stride=2, padding=1), (_r(2, 3, 9, 8, seed=90),)
