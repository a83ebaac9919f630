"""Random PyTorch programs from the issue's op families, with random shapes.

``generate(seed)`` draws one program: its family (matmuls, elementwise with
broadcasting, softmax, layer_norm, conv2d, max_pool2d, mean, short reductions,
permutes, triangle masks, MLPs, small CNNs, attention, chains of layers), its
shapes (odd, prime and size-1 dims included) and its inputs, all from ``seed``.
They are what a user writes, not what the compiler was tuned on. Campaigns of
2 277 programs on four configs found one wrong result (a reduction loop jammed
like a matmul's rows), performance cliffs the corpus had missed (a prime N above
VLMAX ran one-element vectors, a conv with unequal strides ran scalar loops, an
i64 triangle mask cost 4.6x rv32's instructions) and a compiler segfault
(compiler/README.md, "Random programs").
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

FAMILIES = (
    "mm",
    "addmm",
    "bmm",
    "matmul_broadcast",
    "linear",
    "mlp",
    "unary",
    "binary",
    "softmax",
    "layer_norm",
    "conv2d",
    "max_pool2d",
    "mean",
    "short_reduction",
    "permute",
    "masked",
    "cnn",
    "attention",
    "chain",
)


@dataclass
class RandomProgram:
    seed: int
    family: str
    description: str
    fn: Callable
    inputs: tuple
    tolerance: str  # harness.check's class

    @property
    def name(self) -> str:
        return f"rand{self.seed}_{self.family}"


def generate(seed: int) -> RandomProgram:
    rnd = random.Random(seed)
    gen = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)  # module parameters

    def dim(lo: int = 1, hi: int = 40) -> int:
        return rnd.randint(lo, hi)

    def shape(rank_lo: int = 1, rank_hi: int = 4, hi: int = 12) -> list[int]:
        return [dim(1, hi) for _ in range(rnd.randint(rank_lo, rank_hi))]

    def randn(*s: int):
        return torch.randn(*s, generator=gen)

    family = rnd.choice(FAMILIES)
    out = _BUILDERS[family](rnd, dim, shape, randn)
    return RandomProgram(seed, family, *out)


def _mm(rnd, dim, shape, randn):
    m, k, n = dim(), dim(), dim()
    return f"mm {m}x{k}x{n}", (lambda a, b: a @ b), (randn(m, k), randn(k, n)), "reduction"


def _addmm(rnd, dim, shape, randn):
    m, k, n = dim(), dim(), dim()
    bias = rnd.choice([(n,), (m, n), (1, n), (m, 1)])
    beta, alpha = rnd.choice([1.0, 0.5]), rnd.choice([1.0, 2.0])
    return (
        f"addmm {m}x{k}x{n} bias {bias} beta {beta} alpha {alpha}",
        lambda c, a, b: torch.addmm(c, a, b, beta=beta, alpha=alpha),
        (randn(*bias), randn(m, k), randn(k, n)),
        "reduction",
    )


def _bmm(rnd, dim, shape, randn):
    b, m, k, n = dim(1, 5), dim(1, 20), dim(1, 20), dim(1, 20)
    return f"bmm {b}x{m}x{k}x{n}", torch.bmm, (randn(b, m, k), randn(b, k, n)), "reduction"


def _matmul_broadcast(rnd, dim, shape, randn):
    b, m, k, n = dim(1, 4), dim(1, 16), dim(1, 24), dim(1, 16)
    inputs = rnd.choice(
        [
            (randn(b, m, k), randn(k, n)),
            (randn(m, k), randn(b, k, n)),
            (randn(k), randn(k, n)),
            (randn(m, k), randn(k)),
            (randn(2, 1, m, k), randn(1, b, k, n)),
        ]
    )
    return f"matmul {[tuple(t.shape) for t in inputs]}", torch.matmul, inputs, "reduction"


def _linear(rnd, dim, shape, randn):
    k, n = dim(1, 64), dim(1, 64)
    lead = rnd.choice([(), (dim(1, 8),), (dim(1, 3), dim(1, 6))])
    layer = nn.Linear(k, n, bias=rnd.random() < 0.7)
    return f"linear {lead}x{k} -> {n} bias={layer.bias is not None}", layer, (randn(*lead, k),), "reduction"


def _mlp(rnd, dim, shape, randn):
    widths = [dim(2, 48) for _ in range(rnd.randint(3, 4))]
    layers: list[nn.Module] = []
    for i in range(len(widths) - 1):
        layers.append(nn.Linear(widths[i], widths[i + 1]))
        if i < len(widths) - 2:
            layers.append(rnd.choice([nn.ReLU(), nn.GELU(), nn.GELU("tanh"), nn.Tanh(), nn.Sigmoid()]))
    names = [type(layer).__name__ for layer in layers]
    return f"mlp {widths} {names}", nn.Sequential(*layers), (randn(dim(1, 6), widths[0]),), "transcendental"


def _unary(rnd, dim, shape, randn):
    s = shape()
    op = rnd.choice(["relu", "gelu", "gelu_tanh", "relu6", "neg_relu"])
    fn = {
        "relu": torch.relu,
        "gelu": F.gelu,
        "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
        "relu6": F.relu6,
        "neg_relu": lambda x: torch.relu(-x) * 2.0,
    }[op]
    return f"{op} {s}", fn, (randn(*s) * 3,), "transcendental" if "gelu" in op else "exact"


def _binary(rnd, dim, shape, randn):
    s = shape(hi=10)
    other = [d if rnd.random() < 0.6 else 1 for d in s]
    if rnd.random() < 0.4:
        other = other[rnd.randint(0, len(s) - 1) :]  # fewer dims: broadcast from the left
    a, b = randn(*s), randn(*other)
    if rnd.random() < 0.5:
        a, b = b, a
    op = rnd.choice(["add", "mul", "sub", "add_alpha", "rsub", "scalar"])
    fn = {
        "add": lambda x, y: x + y,
        "mul": lambda x, y: x * y,
        "sub": lambda x, y: x - y,
        "add_alpha": lambda x, y: torch.add(x, y, alpha=0.5),
        "rsub": lambda x, y: torch.sub(y, x),
        "scalar": lambda x, y: (x * 1.5 - y) + 2.0,
    }[op]
    return f"{op} {list(a.shape)} {list(b.shape)}", fn, (a, b), "elementwise"


def _softmax(rnd, dim, shape, randn):
    s = shape()
    d = rnd.randint(-len(s), len(s) - 1)
    log = rnd.random() < 0.3
    fn = (lambda x: F.log_softmax(x, d)) if log else (lambda x: torch.softmax(x, d))
    return f"{'log_' if log else ''}softmax {s} dim={d}", fn, (randn(*s) * 2,), "transcendental"


def _layer_norm(rnd, dim, shape, randn):
    s = shape(hi=10)
    normalized = s[-rnd.randint(1, len(s)) :]
    layer = nn.LayerNorm(normalized, elementwise_affine=rnd.random() < 0.7, eps=rnd.choice([1e-5, 1e-6]))
    if layer.elementwise_affine:
        with torch.no_grad():
            layer.weight.copy_(randn(*normalized))
            layer.bias.copy_(randn(*normalized))
    return f"layer_norm {s} over {normalized}", layer, (randn(*s) * 2 + 1,), "reduction"


def _conv2d(rnd, dim, shape, randn):
    cin, cout = dim(1, 6), dim(1, 8)
    groups = rnd.choice([1, 1, 1, cin]) if cout % cin == 0 else 1
    kh, kw = dim(1, 5), dim(1, 5)
    stride = (dim(1, 3), dim(1, 3))
    padding = (rnd.randint(0, kh // 2), rnd.randint(0, kw // 2))
    dilation = rnd.choice([1, 1, 1, 2])
    h, w = dim(max(kh * dilation, 3), 20), dim(max(kw * dilation, 3), 20)
    conv = nn.Conv2d(cin, cout, (kh, kw), stride, padding, dilation, groups, bias=rnd.random() < 0.7)
    n = rnd.choice([1, 1, 2])
    desc = f"conv2d {n}x{cin}x{h}x{w} -> {cout} k{kh}x{kw} s{stride} p{padding} d{dilation} g{groups}"
    return desc, conv, (randn(n, cin, h, w),), "reduction"


def _max_pool2d(rnd, dim, shape, randn):
    k = dim(1, 4)
    stride = rnd.choice([None, dim(1, 3)])
    padding = rnd.randint(0, k // 2)
    dilation = rnd.choice([1, 1, 2])
    ceil = rnd.random() < 0.3
    c, h, w = dim(1, 4), dim(k * dilation + 1, 16), dim(k * dilation + 1, 16)
    fn = lambda x: F.max_pool2d(x, k, stride, padding, dilation, ceil_mode=ceil)  # noqa: E731
    desc = f"max_pool2d {c}x{h}x{w} k{k} s{stride} p{padding} d{dilation} ceil={ceil}"
    return desc, fn, (randn(rnd.choice([1, 2]), c, h, w),), "exact"


def _mean(rnd, dim, shape, randn):
    s = shape()
    dims = sorted(rnd.sample(range(len(s)), rnd.randint(1, len(s))))
    keep = rnd.random() < 0.5
    return f"mean {s} dims={dims} keepdim={keep}", lambda x: x.mean(dim=dims, keepdim=keep), (randn(*s),), "reduction"


def _short_reduction(rnd, dim, shape, randn):
    s = [*shape(1, 3, hi=12), dim(2, 8)]
    op = rnd.choice(["mean", "sum", "amax", "var", "softmax"])
    fn = {
        "mean": lambda x: x.mean(dim=-1, keepdim=True),
        "sum": lambda x: x.sum(dim=-1),
        "amax": lambda x: x.amax(dim=-1),
        "var": lambda x: x.var(dim=-1),
        "softmax": lambda x: torch.softmax(x, -1),
    }[op]
    tolerance = {"amax": "exact", "softmax": "transcendental"}.get(op, "reduction")
    return f"{op} over the last dim of {s}", fn, (randn(*s),), tolerance


def _permute(rnd, dim, shape, randn):
    s = shape(2, 4, hi=9)
    perm = list(range(len(s)))
    rnd.shuffle(perm)
    form = rnd.choice(["permute", "transpose", "reshape"])
    if form == "permute":
        fn = lambda x: x.permute(*perm).contiguous() * 1.0  # noqa: E731
    elif form == "transpose":
        i, j = perm[0], perm[1]
        fn = lambda x: x.transpose(i, j) + 1.0  # noqa: E731
    else:
        fn = lambda x: x.permute(*perm).reshape(-1, s[perm[-1]]) - 0.5  # noqa: E731
    return f"{form} {s} {perm}", fn, (randn(*s),), "elementwise"


def _masked(rnd, dim, shape, randn):
    s = [*shape(0, 2, hi=5), dim(1, 12), dim(1, 12)]
    k = rnd.randint(-2, 2)
    form = rnd.choice(["triu", "tril", "masked_fill"])
    if form == "triu":
        fn = lambda x: torch.triu(x, k) * 2.0  # noqa: E731
    elif form == "tril":
        fn = lambda x: torch.tril(x, k) + 1.0  # noqa: E731
    else:
        mask = torch.ones(s[-2], s[-1], dtype=torch.bool).tril(k)
        fn = lambda x: x.masked_fill(~mask, -1.0)  # noqa: E731
    return f"{form} {s} k={k}", fn, (randn(*s),), "exact"


def _cnn(rnd, dim, shape, randn):
    c1, c2, size = dim(2, 6), dim(2, 8), dim(10, 20)
    cin = rnd.choice([1, 3])
    model = nn.Sequential(
        nn.Conv2d(cin, c1, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(c1, c2, 3, stride=rnd.choice([1, 2])),
        nn.ReLU(),
        nn.Flatten(),
    )
    x = randn(1, cin, size, size)
    with torch.no_grad():
        features = model(x).shape[-1]
    model.append(nn.Linear(features, dim(2, 10)))
    return f"cnn {cin}x{size}x{size} channels {c1},{c2}", model, (x,), "reduction"


def _attention(rnd, dim, shape, randn):
    b, length, e = dim(1, 2), dim(2, 10), rnd.choice([4, 8, 12, 16])
    wq, wk, wv = (randn(e, e) / e**0.5 for _ in range(3))

    causal = rnd.random() < 0.5
    mask = torch.ones(length, length, dtype=torch.bool).tril()

    def attend(x):
        scores = (x @ wq) @ (x @ wk).transpose(-1, -2) / e**0.5
        if causal:
            scores = scores.masked_fill(~mask, float("-inf"))
        return torch.softmax(scores, -1) @ (x @ wv)

    desc = f"{'causal ' if causal else ''}attention {b}x{length}x{e}"
    return desc, attend, (randn(b, length, e),), "transcendental"


def _chain(rnd, dim, shape, randn):
    """2-5 stages on an activation of shape (*lead, width): what a model's forward does."""
    lead = [dim(1, 6) for _ in range(rnd.randint(1, 2))]
    width = first = dim(2, 40)
    names: list[str] = []
    stages: list[Callable] = []
    layers = nn.ModuleList()  # the parameters, so export lifts them
    for _ in range(rnd.randint(2, 5)):
        kind = rnd.choice(["linear", "layer_norm", "gelu", "relu", "softmax", "residual", "scale", "gram"])
        if kind == "linear":
            out = dim(2, 40)
            layers.append(nn.Linear(width, out))
            stages.append(layers[-1])
            names.append(f"linear {width}->{out}")
            width = out
        elif kind == "layer_norm":
            layers.append(nn.LayerNorm(width))
            stages.append(layers[-1])
            names.append("layer_norm")
        elif kind == "residual":
            layers.append(nn.Linear(width, width))
            stages.append(lambda x, layer=layers[-1]: x + torch.relu(layer(x)))
            names.append("residual")
        elif kind == "scale":
            weight = randn(width)
            stages.append(lambda x, w=weight: x * w - 0.5)
            names.append("scale")
        elif kind == "gram":  # a product with its own transpose and back
            stages.append(lambda x: (x @ x.transpose(-1, -2)) @ x / x.shape[-1])
            names.append("x x^T x")
        else:
            stages.append({"gelu": F.gelu, "relu": torch.relu, "softmax": lambda x: torch.softmax(x, -1)}[kind])
            names.append(kind)

    class Chain(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = layers

        def forward(self, x):
            for stage in stages:
                x = stage(x)
            return x

    return f"chain {lead}x{first}: " + " -> ".join(names), Chain(), (randn(*lead, first),), "transcendental"


_BUILDERS = {name: globals()[f"_{name}"] for name in FAMILIES}
