"""Built-in cases and user cases: what ``cosim verify CASE`` compiles and checks.

A case is a PyTorch module or callable plus example inputs (random, from a
fixed seed, so every run sees the same data and weights) and the op class that
decides the comparison tolerance (:mod:`harness.check`).

CASE may be a built-in name (``cosim cases`` lists them), ``path/to/file.py:FUNC``
where ``FUNC()`` returns ``(module_or_callable, example_inputs_tuple)`` (optionally
a third item: the tolerance class (a str), the calibration inputs of quantization (a list of
input tuples; default: the example inputs), or a dict of quantization options: see
``_third_item``), or a ``.mlir`` file (linalg or tosa on
tensors) with an optional ``<file>.inputs.json`` beside it; its reference is
``<file>.expected.npz`` (``out0``, ``out1``, ...) if present, else the same IR
JIT-compiled and run on the host (:mod:`compiler.hostrun`).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from harness.check import TOLERANCES
from harness.errors import CosimError

SEED = 0


@dataclass
class Case:
    name: str
    build: Callable[[], tuple]  # -> (module_or_callable, inputs)
    tolerance: str = "reduction"
    ops: tuple[str, ...] = ()
    description: str = ""
    mlir_path: Path | None = None
    # Gemmini: "suite" = its int8 form is in ``nox -s verify`` on the Gemmini configs
    # (harness.gemmini_suite), "slow" = only in the slow tests (tests/test_gemmini_cases.py), "" = neither.
    int8: str = ""


@dataclass
class Materialized:
    """A case ready to compile: the callable, its inputs and the reference outputs."""

    case: Case
    fn: object = None
    inputs: tuple = ()
    reference: dict = field(default_factory=dict)  # out<i> -> numpy array
    calibration: list | None = None  # quantization: calibration input tuples (None: the example inputs)
    quant_options: dict = field(default_factory=dict)  # quantization: observer, accuracy thresholds


def _torch():
    import torch

    torch.manual_seed(SEED)
    return torch


def _randn(*shape):
    torch = _torch()
    g = torch.Generator().manual_seed(SEED + sum(shape))
    return torch.randn(*shape, generator=g)


REGISTRY: dict[str, Case] = {}  # float cases: the verify suite runs them on the scalar and vector configs
# int8-only cases: quantized on the Gemmini configs (too large for the scalar configs, or there for a layer shape)
INT8_REGISTRY: dict[str, Case] = {}


def case(name: str, tolerance: str, ops: tuple[str, ...], description: str, int8: str = ""):
    def deco(fn):
        REGISTRY[name] = Case(name, fn, tolerance, ops, description, int8=int8)
        return fn

    return deco


def int8_case(name: str, ops: tuple[str, ...], description: str, int8: str = "suite"):
    """A case run only in int8 on the Gemmini configs (``cosim verify NAME --soc gemmini-dim4``)."""

    def deco(fn):
        INT8_REGISTRY[name] = Case(name, fn, "reduction", ops, description, int8=int8)
        return fn

    return deco


def gemmini_cases(level: str) -> list[Case]:
    """Every built-in case whose int8 form runs at ``level`` ("suite" or "slow") on the Gemmini configs."""
    return [c for c in (*REGISTRY.values(), *INT8_REGISTRY.values()) if c.int8 == level]


@case("addmm", "reduction", ("addmm",), "bias(16) + x(8x32) @ w(32x16)")
def _addmm():
    return (lambda b, x, w: _torch().addmm(b, x, w)), (_randn(16), _randn(8, 32), _randn(32, 16))


@case("mm", "reduction", ("mm",), "(16x32) @ (32x24)", int8="suite")
def _mm():
    return (lambda a, b: a @ b), (_randn(16, 32), _randn(32, 24))


@case("bmm", "reduction", ("bmm",), "two 8x8x8 f32 tensors, as t1's pytorch.matmul", int8="suite")
def _bmm():
    return (lambda a, b: _torch().bmm(a, b)), (_randn(8, 8, 8), _randn(8, 8, 8) * 0.5)


@case("linear", "reduction", ("linear",), "nn.Linear(32, 16) on 4x32", int8="suite")
def _linear():
    torch = _torch()
    return torch.nn.Linear(32, 16), (_randn(4, 32),)


@case("relu", "exact", ("relu",), "relu on 8x64")
def _relu():
    return (lambda x: _torch().relu(x)), (_randn(8, 64),)


@case("gelu", "transcendental", ("gelu",), "exact (erf) gelu on 8x64")
def _gelu():
    return (lambda x: _torch().nn.functional.gelu(x)), (_randn(8, 64) * 2,)


@case("add", "elementwise", ("add", "broadcast"), "(4x8x16) + (16): broadcasting")
def _add():
    return (lambda a, b: a + b), (_randn(4, 8, 16), _randn(16))


@case("mul", "elementwise", ("mul", "broadcast"), "(4x8x16) * (8x1): broadcasting")
def _mul():
    return (lambda a, b: a * b), (_randn(4, 8, 16), _randn(8, 1))


@case("sub", "elementwise", ("sub", "broadcast"), "(4x1x16) - (8x1): broadcasting both ways")
def _sub():
    return (lambda a, b: a - b), (_randn(4, 1, 16), _randn(8, 1))


@case("softmax", "transcendental", ("softmax", "exp"), "softmax over the last dim of 8x32")
def _softmax():
    return (lambda x: _torch().softmax(x, dim=-1)), (_randn(8, 32) * 3,)


@case("layer_norm", "reduction", ("layer_norm",), "nn.LayerNorm(32) on 8x32 (random affine)")
def _layer_norm():
    torch = _torch()
    m = torch.nn.LayerNorm(32)
    with torch.no_grad():
        m.weight.copy_(_randn(32))
        m.bias.copy_(_randn(32) * 0.1 + 0.3)
    return m, (_randn(8, 32) * 2 + 1,)


@case("conv2d", "reduction", ("conv2d",), "nn.Conv2d(3, 8, 3, stride=2, padding=1) on 1x3x16x16 (NCHW)", int8="suite")
def _conv2d():
    torch = _torch()
    return torch.nn.Conv2d(3, 8, 3, stride=2, padding=1), (_randn(1, 3, 16, 16),)


@case("max_pool2d", "exact", ("max_pool2d",), "2x2 stride-2 max pooling of 1x4x16x16")
def _max_pool2d():
    return (lambda x: _torch().nn.functional.max_pool2d(x, 2, 2)), (_randn(1, 4, 16, 16),)


@case("mean", "reduction", ("mean",), "mean over the last dim of 8x32, keepdim")
def _mean():
    return (lambda x: x.mean(dim=-1, keepdim=True)), (_randn(8, 32),)


@case("permute", "exact", ("permute", "transpose", "reshape"), "permute(0,2,1,3), transpose and reshape of 2x3x4x8")
def _permute():
    def f(x):
        y = x.permute(0, 2, 1, 3).contiguous()
        return y.transpose(2, 3).reshape(2, 4, 24) * 1.0

    return f, (_randn(2, 3, 4, 8),)


@case("mlp", "reduction", ("linear", "relu"), "MLP 64 -> 128 -> relu -> 10 on 2x64", int8="suite")
def _mlp():
    torch = _torch()
    m = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))
    return m, (_randn(2, 64),)


def _lenet_module():
    torch = _torch()
    nn = torch.nn

    class LeNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.c1 = nn.Conv2d(1, 6, 5, padding=2)
            self.c2 = nn.Conv2d(6, 16, 5)
            self.f1 = nn.Linear(16 * 5 * 5, 120)
            self.f2 = nn.Linear(120, 84)
            self.f3 = nn.Linear(84, 10)

        def forward(self, x):
            x = nn.functional.max_pool2d(torch.relu(self.c1(x)), 2)
            x = nn.functional.max_pool2d(torch.relu(self.c2(x)), 2)
            x = x.reshape(x.shape[0], -1)
            x = torch.relu(self.f1(x))
            x = torch.relu(self.f2(x))
            return self.f3(x)

    return LeNet()


@case("lenet5", "reduction", ("conv2d", "relu", "max_pool2d", "linear"), "LeNet-5 on a 1x1x28x28 input", int8="suite")
def _lenet5():
    return _lenet_module(), (_randn(1, 1, 28, 28),)


@case(
    "bert",
    "reduction",
    ("embedding", "layer_norm", "linear", "scaled_dot_product_attention", "gelu"),
    "BERT encoder (torch.nn): embeddings, 2 layers, hidden 64, 4 heads, sequence 16 with 4 padding",
)
def _bert():
    _torch()
    from harness.models.bert import Bert, example_inputs

    return Bert().eval(), example_inputs()


# ---------------------------------------------------------------- int8 cases (Gemmini configs only)
# Sizes that are not multiples of 4, 8 or 16 leave every DIM's last blocks padded.


@int8_case("mm_odd", ("mm",), "(37x29) @ (29x19): two activations, no dimension a multiple of DIM")
def _mm_odd():
    return (lambda a, b: a @ b), (_randn(37, 29), _randn(29, 19))


@int8_case("linear_odd", ("linear",), "nn.Linear(45, 23) on 7x45")
def _linear_odd():
    return _torch().nn.Linear(45, 23), (_randn(7, 45),)


@int8_case("linear_wide", ("linear", "relu"), "nn.Linear(200, 96) + relu on 50x200: a grid of loop_ws tiles")
def _linear_wide():
    torch = _torch()
    return torch.nn.Sequential(torch.nn.Linear(200, 96), torch.nn.ReLU()), (_randn(50, 200),)


@int8_case("bmm_odd", ("bmm",), "(3x10x12) @ (3x12x7)")
def _bmm_odd():
    return (lambda a, b: _torch().bmm(a, b)), (_randn(3, 10, 12), _randn(3, 12, 7))


@int8_case("conv2d_padded", ("conv2d", "relu"), "nn.Conv2d(8, 16, 3, padding=1) + relu on 1x8x12x12")
def _conv2d_padded():
    torch = _torch()
    return torch.nn.Sequential(torch.nn.Conv2d(8, 16, 3, padding=1), torch.nn.ReLU()), (_randn(1, 8, 12, 12),)


@int8_case("conv2d_strided", ("conv2d",), "nn.Conv2d(4, 12, 3, stride=2) on 1x4x17x17 (no padding)")
def _conv2d_strided():
    return _torch().nn.Conv2d(4, 12, 3, stride=2), (_randn(1, 4, 17, 17),)


@int8_case("conv2d_depthwise", ("conv2d",), "depthwise nn.Conv2d(16, 16, 3, padding=1, groups=16) on 1x16x10x10")
def _conv2d_depthwise():
    return _torch().nn.Conv2d(16, 16, 3, padding=1, groups=16), (_randn(1, 16, 10, 10),)


@int8_case("conv_pool", ("conv2d", "relu", "max_pool2d"),
           "nn.Conv2d(4, 6, 3, padding=1) + relu + max_pool2d(2) on 1x4x14x14: the pool on mvout")  # fmt: skip
def _conv_pool():
    nn = _torch().nn
    return nn.Sequential(nn.Conv2d(4, 6, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)), (_randn(1, 4, 14, 14),)


@int8_case("conv_pool_stem", ("conv2d", "batch_norm", "relu", "max_pool2d"),
           "ResNet's stem: nn.Conv2d(3, 8, 7, stride=2, padding=3), BatchNorm, relu, max_pool2d(3, 2, padding=1) "
           "on 1x3x30x30: the pool on mvout")  # fmt: skip
def _conv_pool_stem():
    _torch()
    from harness.models.resnet import randomize_batch_norm

    nn = _torch().nn
    stem = nn.Sequential(
        nn.Conv2d(3, 8, 7, stride=2, padding=3, bias=False), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(3, 2, 1)
    )
    return randomize_batch_norm(stem), (_randn(1, 3, 30, 30),)


@int8_case("resnet_block", ("conv2d", "batch_norm", "relu", "add"), "ResNet basic block, 16 channels, 1x16x12x12")
def _resnet_block():
    _torch()
    from harness.models.resnet import BasicBlock, randomize_batch_norm

    return randomize_batch_norm(BasicBlock(16, 16)), (_randn(1, 16, 12, 12),)


@int8_case("attention", ("linear", "bmm", "softmax"), "self-attention, dim 32, 2 heads, 1x16x32: softmax on the core")
def _attention():
    _torch()
    from harness.models.attention import AttentionBlock

    return AttentionBlock(32, 2), (_randn(1, 16, 32),)


def _resnet18(size: int):
    _torch()
    from harness.models.resnet import ResNet18, randomize_batch_norm

    model = randomize_batch_norm(ResNet18())
    # 1000 classes of random weights on one image: top-1 agreement (it agrees) would hang on one near-tie;
    # the error bound (10 % of the output's range) is the accuracy check
    return model, (_randn(1, 3, size, size),), {"classifier": False}


@int8_case("resnet18", ("conv2d", "batch_norm", "relu", "max_pool2d", "add", "avg_pool", "linear"),
           "ResNet-18 (torch.nn), 1x3x64x64", int8="slow")  # fmt: skip
def _resnet18_64():
    return _resnet18(64)


@int8_case("resnet18_224", ("conv2d", "batch_norm", "relu", "max_pool2d", "add", "avg_pool", "linear"),
           "ResNet-18 (torch.nn), 1x3x224x224", int8="slow")  # fmt: skip
def _resnet18_224():
    return _resnet18(224)


def builtin_names() -> list[str]:
    return [*REGISTRY, *INT8_REGISTRY]


def _user_case(spec: str) -> Case:
    path_text, _, func = spec.rpartition(":")
    path = Path(path_text)
    if not path.is_file():
        raise CosimError(f"case file {path_text!r} does not exist (CASE is a built-in name, FILE.py:FUNC or FILE.mlir)")
    modname = f"cosim_user_case_{abs(hash(path.resolve()))}"
    spec_obj = importlib.util.spec_from_file_location(modname, path)
    module = importlib.util.module_from_spec(spec_obj)
    try:
        spec_obj.loader.exec_module(module)
    except Exception as e:
        raise CosimError(f"{path}: importing the case file failed: {type(e).__name__}: {e}") from e
    fn = getattr(module, func, None)
    if not callable(fn):
        raise CosimError(f"{path} has no function {func!r}; define {func}() returning (module_or_callable, inputs)")

    def build():
        got = fn()
        if not isinstance(got, tuple) or len(got) not in (2, 3):
            raise CosimError(
                f"{spec}: {func}() must return (module_or_callable, example_inputs_tuple"
                "[, tolerance | calibration_inputs | options])"
            )
        return got

    return Case(f"{path.stem}:{func}", build, "reduction", (), f"user case {spec}")


def resolve(spec: str) -> Case:
    """A built-in name, ``file.py:FUNC`` or ``file.mlir`` -> Case."""
    if spec in REGISTRY:
        return REGISTRY[spec]
    if spec in INT8_REGISTRY:
        return INT8_REGISTRY[spec]
    if spec.endswith(".mlir"):
        p = Path(spec)
        if not p.is_file():
            raise CosimError(f"MLIR case {spec!r} does not exist")
        return Case(p.stem, lambda: (None, ()), "reduction", (), f"MLIR file {spec}", mlir_path=p)
    if ".py:" in spec:
        return _user_case(spec)
    raise CosimError(
        f"unknown case {spec!r}; built-in cases: {', '.join(builtin_names())} (or pass FILE.py:FUNC or FILE.mlir)"
    )


def materialize(c: Case) -> Materialized:
    """Build the case's callable and inputs and compute the eager PyTorch reference."""
    import numpy as np

    if c.mlir_path is not None:
        ref_path = c.mlir_path.with_suffix(".expected.npz")
        if ref_path.is_file():
            ref = dict(np.load(ref_path))
        else:  # no PyTorch program: the same IR JIT-compiled for the host is the reference
            from compiler.frontend import import_mlir_file
            from compiler.hostrun import run_on_host

            ref = run_on_host(import_mlir_file(c.mlir_path, name=c.name))
        return Materialized(c, None, (), ref)
    torch = _torch()
    got = c.build()
    fn, inputs = got[0], got[1]
    calibration, quant_options = None, {}
    if len(got) == 3:
        tolerance, calibration, quant_options = _third_item(c.name, got[2])
        if tolerance is not None:
            c.tolerance = tolerance
    if not isinstance(inputs, tuple):
        inputs = (inputs,)
    if isinstance(fn, torch.nn.Module):
        fn.eval()
    with torch.no_grad():  # on copies: a program may write its inputs in place
        out = fn(*(x.clone() if isinstance(x, torch.Tensor) else x for x in inputs))
    outs = out if isinstance(out, (tuple, list)) else (out,)
    ref = {}
    for i, o in enumerate(outs):
        if not isinstance(o, torch.Tensor):
            raise CosimError(f"{c.name}: output {i} is a {type(o).__name__}; outputs must be tensors")
        ref[f"out{i}"] = o.detach().contiguous().numpy().copy()
    return Materialized(c, fn, inputs, ref, calibration, quant_options)


# Keys of the options dict a case may return as its third item.
QUANT_OPTION_KEYS = (
    "tolerance",
    "calibration",
    "observer",
    "max_err_pct",
    "top1_disagree",
    "classifier",
    "float_op_steps",
    "dataflow",
)


def _third_item(name: str, item) -> tuple[str | None, list | None, dict]:
    """(tolerance, calibration inputs, quantization options) from a case's third item, told apart by type:
    a str is the tolerance class, a list the calibration input tuples, a dict any of QUANT_OPTION_KEYS."""
    if isinstance(item, str):
        item = {"tolerance": item}
    elif isinstance(item, list):
        item = {"calibration": item}
    elif not isinstance(item, dict):
        raise CosimError(
            f"{name}: the third item must be a tolerance name, a list of calibration input tuples or a dict,"
            f" not a {type(item).__name__}"
        )
    unknown = sorted(set(item) - set(QUANT_OPTION_KEYS))
    if unknown:
        raise CosimError(f"{name}: unknown option(s) {', '.join(unknown)}; known: {', '.join(QUANT_OPTION_KEYS)}")
    tolerance = item.get("tolerance")
    if tolerance is not None and tolerance not in TOLERANCES:
        raise CosimError(f"{name}: tolerance {tolerance!r} is not one of {', '.join(TOLERANCES)}")
    calibration = item.get("calibration")
    if calibration is not None:
        if not isinstance(calibration, list) or not calibration:
            raise CosimError(f"{name}: calibration must be a non-empty list of input tuples")
        calibration = [c if isinstance(c, tuple) else (c,) for c in calibration]
    options = {k: v for k, v in item.items() if k not in ("tolerance", "calibration")}
    return tolerance, calibration, options
