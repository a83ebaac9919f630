"""softmax, layer_norm and mean over various dims and odd sizes."""

import torch


def _r(*shape, seed=0, scale=1.0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)) * scale


def softmax_odd_last_dim():
    return (lambda x: torch.softmax(x, dim=-1)), (_r(7, 129, seed=50, scale=4.0),), "transcendental"


def softmax_module_3d():
    return torch.nn.Softmax(dim=2), (_r(2, 3, 37, seed=51, scale=2.0),), "transcendental"


def softmax_middle_dim():
    return (lambda x: torch.nn.functional.softmax(x, dim=1)), (_r(3, 11, 5, seed=52),), "transcendental"


def softmax_large_logits():
    x = _r(4, 23, seed=53, scale=50.0)
    x[0, 0] = 80.0  # exp would overflow without the max subtraction
    return (lambda x: x.softmax(-1)), (x,), "transcendental"


def layer_norm_odd_no_affine():
    return torch.nn.LayerNorm(37, elementwise_affine=False), (_r(5, 37, seed=54, scale=3.0) + 2.0,)


def layer_norm_last_two_dims():
    m = torch.nn.LayerNorm([4, 9], eps=1e-3)
    with torch.no_grad():
        m.weight.copy_(_r(4, 9, seed=55))
        m.bias.copy_(_r(4, 9, seed=56))
    return m, (_r(3, 4, 9, seed=57),)


def functional_layer_norm_batch():
    w, b = _r(63, seed=58), _r(63, seed=59)
    return (lambda x: torch.nn.functional.layer_norm(x, (63,), w, b)), (_r(2, 3, 63, seed=60),)


def mean_dim0():
    return (lambda x: x.mean(0)), (_r(9, 14, seed=61),)


def mean_two_dims_keepdim():
    return (lambda x: torch.mean(x, dim=(2, 3), keepdim=True)), (_r(2, 5, 7, 3, seed=62),)


def mean_all_elements():
    return (lambda x: x.mean()), (_r(6, 31, seed=63),)


def mean_middle_dim_no_keepdim():
    return (lambda x: x.mean(dim=1)), (_r(4, 13, 6, seed=64),)


def softmax_dim0():
    return (lambda x: torch.softmax(x, dim=0)), (_r(13, 6, seed=65),), "transcendental"


def softmax_size1_last_dim():
    return (lambda x: torch.softmax(x, dim=-1)), (_r(4, 1, seed=66),), "transcendental"


def layer_norm_long_rows():
    # 1031 (prime) elements per row: several strips even at VLEN 2048
    return torch.nn.LayerNorm(1031), (_r(2, 1031, seed=67),)


def mean_size1_dims():
    return (lambda x: x.mean(dim=-1)), (_r(1, 1, 1, seed=68),)


def var_std_unbiased_and_not():
    """x.var() / x.std() (torch-mlir computes them in f64, which the targets lack)."""

    def f(x):
        return x.var(dim=-1), x.std(), x.var(dim=(0, 2), unbiased=False, keepdim=True)

    return f, (_r(3, 4, 5, seed=60, scale=2.0),), "reduction"


def cumsum_both_dims():
    """cumsum along rows and columns (torch-mlir: tm_tensor.scan; here a matmul)."""
    return (lambda x: x.cumsum(0) - x.cumsum(dim=-1)), (_r(6, 11, seed=61),), "reduction"
