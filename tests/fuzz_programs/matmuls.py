"""Matrix products spelled the ways people write them."""

import torch


def _r(*shape, seed=0, scale=1.0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)) * scale


def mm_3x37x19():
    return torch.mm, (_r(3, 37, seed=1), _r(37, 19, seed=2))


def mm_row_vector_times_matrix():
    # a single row (M = 1) against a wide matrix: several vector strips on t1-small
    return (lambda a, b: a @ b), (_r(1, 61, seed=3), _r(61, 150, seed=4))


def mm_k1_outer_product():
    return (lambda a, b: torch.matmul(a, b)), (_r(13, 1, seed=5), _r(1, 7, seed=6))


def bmm_batch3_odd():
    return torch.bmm, (_r(3, 5, 11, seed=7), _r(3, 11, 9, seed=8))


def matmul_batched_times_matrix():
    # (B, M, K) @ (K, N): broadcasting matmul
    return (lambda a, b: torch.matmul(a, b)), (_r(2, 6, 17, seed=9), _r(17, 10, seed=10))


def addmm_alpha_beta():
    return (lambda c, a, b: torch.addmm(c, a, b, beta=0.5, alpha=2.0)), (
        _r(7, 23, seed=11),
        _r(7, 29, seed=12),
        _r(29, 23, seed=13),
    )


def linear_no_bias_3d_input():
    lin = torch.nn.Linear(24, 33, bias=False)
    with torch.no_grad():
        lin.weight.copy_(_r(33, 24, seed=14, scale=0.2))
    return lin, (_r(2, 5, 24, seed=15),)


def functional_linear_with_bias():
    w, b = _r(12, 40, seed=16, scale=0.3), _r(12, seed=17)
    return (lambda x: torch.nn.functional.linear(x, w, b)), (_r(9, 40, seed=18),)


def einsum_batched_contraction():
    return (lambda a, b: torch.einsum("bij,bjk->bik", a, b)), (_r(2, 4, 13, seed=19), _r(2, 13, 6, seed=20))


def matmul_with_transposed_operand():
    # x @ w.T with w given row-major, as attention scores q @ k^T
    return (lambda q, k: q @ k.transpose(-2, -1)), (_r(8, 16, seed=21), _r(10, 16, seed=22))


def linear_on_1d_input():
    # a matrix-vector product: nn.Linear on an unbatched vector
    torch.manual_seed(23)
    return torch.nn.Linear(45, 21), (_r(45, seed=24),)


def mm_prime_n_wider_than_a_vector():
    # N = 67 is prime: no tile divides it, so the strips must cover a remainder
    return torch.mm, (_r(5, 31, seed=25), _r(31, 67, seed=26))


def matmul_transposed_lhs_chain():
    return (lambda a, b, c: (a.transpose(0, 1) @ b) @ c), (_r(9, 4, seed=27), _r(9, 6, seed=28), _r(6, 3, seed=29))
