"""Elementwise ops with broadcasting, constants and awkward values."""

import torch
import torch.nn.functional as F


def _r(*shape, seed=0, scale=1.0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)) * scale


def relu_three_spellings():
    relu = torch.nn.ReLU()

    def f(x):
        return torch.relu(x), relu(x * 2.0), F.relu(x - 1.0)

    return f, (_r(7, 45, seed=30),), "elementwise"


def relu_signed_zero_and_huge():
    x = _r(5, 33, seed=31) * 1e30
    x[0, :4] = torch.tensor([-0.0, 0.0, -1e-45, 3.4e38])
    x[1, :2] = torch.tensor([-3.4e38, float("inf")])
    return torch.relu, (x,), "exact"


def add_broadcast_leading_dims():
    return (lambda a, b: a + b), (_r(3, 1, 5, 7, seed=32), _r(4, 1, 7, seed=33)), "elementwise"


def mul_sub_broadcast_column_row():
    return (lambda a, b, c: a * b - c), (_r(6, 1, seed=34), _r(1, 41, seed=35), _r(41, seed=36))


def scalar_affine_constants():
    return (lambda x: x * 0.5 + 1.0), (_r(3, 19, 5, seed=37),), "elementwise"


def rsub_and_division_by_constant():
    return (lambda x: (1.0 - x) / 4.0), (_r(11, 13, seed=38),), "elementwise"


def gelu_exact_and_tanh():
    def f(x):
        return F.gelu(x), F.gelu(x, approximate="tanh")

    return f, (_r(3, 77, seed=39, scale=3.0),), "transcendental"


def gelu_module_large_inputs():
    x = _r(4, 50, seed=40, scale=8.0)
    x[0, :3] = torch.tensor([-30.0, 30.0, -0.0])
    return torch.nn.GELU(), (x,), "transcendental"


def residual_add_of_relu():
    return (lambda x, y: x + torch.relu(y) * 0.25), (_r(2, 3, 31, seed=41), _r(2, 3, 31, seed=42)), "elementwise"


def size1_tensors():
    return (lambda a, b: a * b + a), (_r(1, 1, seed=43), _r(1, 1, seed=44)), "elementwise"


def relu_long_rows_many_strips():
    # 3 x 1100: more than one LMUL-8 strip even at VLEN 2048
    return torch.relu, (_r(3, 1100, seed=45),), "exact"


def captured_weight_tensor_scale():
    w = _r(1, 17, seed=46)
    return (lambda x: x * w + w), (_r(6, 17, seed=47),), "elementwise"


def subtract_row_mean():
    return (lambda x: x - x.mean(dim=-1, keepdim=True)), (_r(5, 29, seed=48),)


def threshold_with_float_scalars():
    # comparisons with Python floats: PyTorch compares in f32 (f32(0.1) > 0.1 is False)
    def f(x):
        return torch.where(x > 0.1, x, x * 0.5), x.masked_fill(x <= -0.25, 0.0), torch.clamp(x, -0.3, 0.1)

    x = _r(6, 21, seed=49)
    x[0, :3] = torch.tensor([0.1, -0.25, -0.3])
    return f, (x,), "exact"


def log_family_and_rounding():
    """log_softmax (a classifier's head), softplus (log1p), floor/ceil, x ** y (exp of log)."""

    def f(x, y):
        return F.log_softmax(x, dim=-1), F.softplus(x), torch.floor(x * 3.0) + torch.ceil(x), y.abs() ** x

    return f, (_r(3, 21, seed=41, scale=2.0), _r(3, 21, seed=42)), "transcendental"


def upsample_nearest():
    return (lambda x: F.interpolate(x, scale_factor=2, mode="nearest") * 1.0), (_r(1, 2, 3, 5, seed=43),), "exact"


class _BoolMasks(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("keep", torch.ones(5, 7).tril().bool())

    def forward(self, m, x):
        return torch.where(m & self.keep, x, -x), (x > 0.25) | ~self.keep


def bool_inputs_buffers_outputs():
    """A bool input, a bool buffer and a bool output: an i1 vector in memory is packed
    bits for LLVM, a byte per element for the buffer (results came back scrambled)."""
    return _BoolMasks(), (_r(5, 7, seed=44) > 0, _r(5, 7, seed=45)), "exact"


def integer_floor_division():
    """a // b on int32 and int64 with negative operands (torch-mlir divides in f64)."""

    def f(a, b, c):
        return a // 3, a // b.clamp(min=1), torch.div(a, -4, rounding_mode="floor"), c // 7, (a.abs() + b) % 5

    a = torch.arange(-12, 12, dtype=torch.int32).reshape(4, 6)
    b = torch.arange(24, dtype=torch.int32).reshape(4, 6) - 9
    return f, (a, b, torch.arange(-20, 20, dtype=torch.int64).reshape(5, 8) * 1000), "exact"
