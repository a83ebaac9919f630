"""Programs the compiler must refuse with a message naming the op and this file's
line (the line carrying the ``# <-`` marker). Not part of the corpus."""

import torch
import torch.nn.functional as F


def _r(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def stray_f64():
    def f(x):
        y = x.double() * 2  # <- f64
        return y.float()

    return f, (_r(4, 5),)


def f64_input():
    return (lambda x: x + 1), (_r(4, 5).double(),)


def data_dependent_shape():
    def f(x):
        return x[x > 0] * 2  # <- dynamic

    return f, (_r(4, 5),)


def sort_op():
    def f(x):
        return torch.sort(x, dim=-1).values  # <- sort

    return f, (_r(4, 5),)


def random_in_forward():
    def f(x):
        return x + torch.rand(4, 5)  # <- rand

    return f, (_r(4, 5),)


def dropout_in_training():
    def f(x):
        return F.dropout(x, 0.5, training=True)  # <- dropout

    return f, (_r(4, 5),)


def atan_needs_libm():
    def f(x):
        return torch.atan(x) + 1.0  # <- atan

    return f, (_r(4, 5),)
