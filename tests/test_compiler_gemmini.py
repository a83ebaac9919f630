"""The Gemmini backend (compiler/gemmini/): quantized layers (cosim_q ops) compiled to RoCC
instructions in the object code, run on Spike with the Gemmini model, checked bit for bit
against the ops' eager implementations (harness/quant/ops.py), with the model's MAC counter
showing that the accelerator did the work."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import torch

import harness.quant.ops  # noqa: F401  (registers torch.ops.cosim_q)
from compiler import compile_kernel
from compiler.errors import CompileError
from compiler.frontend import import_torch
from compiler.gemmini.plan import MatmulPlan, plan_matmul
from compiler.targets import target_for
from configs import load_soc
from harness.elfcheck import ElfImage
from harness.program import build_program, read_outputs
from sim.gemmini import isa
from sim.spike import Dump, run_spike

q = torch.ops.cosim_q
SOC = "gemmini-dim4"
CONFIGS = Path(__file__).resolve().parent.parent / "configs"


def _loop_conv_config(directory: Path) -> Path:
    """gemmini-dim4 with loop_conv_ws (the model has it; the configs turn it off until the RTL does)."""
    text = (CONFIGS / "gemmini-dim4.toml").read_text()
    text = text.replace('name = "gemmini-dim4"', 'name = "gemmini-dim4-loopconv"')
    text = re.sub(r"^loop_conv = false", "loop_conv = true", text, flags=re.M)
    assert re.search(r"^loop_conv = true", text, re.M)
    path = directory / "gemmini-dim4-loopconv.toml"
    path.write_text(text)
    return path


def _dim8_config(directory: Path) -> Path:
    """gemmini-dim4's file with its name and DIM changed, nothing else (the issue's DIM-8 check)."""
    text = (CONFIGS / "gemmini-dim4.toml").read_text()
    text = text.replace('name = "gemmini-dim4"', 'name = "gemmini-dim8"').replace("dim = 4\n", "dim = 8\n")
    assert "dim = 8" in text
    path = directory / "gemmini-dim8.toml"
    path.write_text(text)
    return path


def _int8(gen: torch.Generator, *shape: int) -> torch.Tensor:
    return torch.randint(-128, 128, shape, dtype=torch.int8, generator=gen)


def _run(fn, inputs: tuple, soc: str, tmp_path: Path, dump_dir: Path | None = None):
    """Compile ``fn`` for ``soc``, run it on Spike; (outputs, counters, forward's retired instructions, kernel, elf)."""
    kernel = compile_kernel(import_torch(fn, inputs, name="layer"), soc, dump_dir=dump_dir)
    work = tmp_path / Path(soc).stem  # a config name or a config file's path
    prog = build_program(kernel, load_soc(soc), work)
    out = run_spike(prog.elf, soc, dumps=[Dump(int(o["address"], 16), o["size"]) for o in prog.outputs], workdir=work)
    assert out.ending == "exit" and out.exit_code == 0, f"{out.ending} {out.exit_code}: {out.message}\n{out.uart}"
    got = read_outputs(prog.manifest, out.dumps)
    forward = [p for p in out.profile if p.stop is not None]
    return list(got.values()), out.counters, forward[0].cycles, kernel, prog.elf


def _check(fn, inputs: tuple, macs: int, tmp_path: Path, soc: str = SOC):
    got, counters, _instret, kernel, elf = _run(fn, inputs, soc, tmp_path)
    ref = fn(*inputs)
    assert kernel.target.strategy == "gemmini"
    assert kernel.schedule and all(e["accelerator"] == "gemmini" for e in kernel.schedule), kernel.schedule
    np.testing.assert_array_equal(got[0], ref.numpy())
    assert counters.get("gemmini_macs") == macs, counters
    assert not ElfImage(elf).symbols_with_prefix("tiled_"), "the ELF calls into the C library"
    return counters


@pytest.mark.iss
@pytest.mark.parametrize(
    ("m", "k", "n", "bias", "relu", "scale"),
    [
        (4, 4, 4, False, False, 0.5),
        (7, 13, 5, True, True, 0.5),  # odd sums halve to ties: round half to even
        (33, 20, 17, True, False, 0.0625),
        (33, 20, 17, False, True, 0.013),
        (50, 201, 90, True, True, 0.002),  # a 3 x 4 x 2 grid of loops, every last block padded
        (50, 201, 90, False, False, 0.002),  # K steps after the first accumulate without a bias
    ],
)
def test_matmul_bit_exact(m, k, n, bias, relu, scale, tmp_path):
    outer = plan_matmul(m, n, k, target_for(SOC).gemmini).outer
    if k > 200:
        assert min(outer) > 1, outer  # the case is there for its grid
    gen = torch.Generator().manual_seed(m * 1000 + k * 10 + n)
    a, b = _int8(gen, m, k), _int8(gen, k, n)
    args = (a, b) + ((torch.randint(-3000, 3000, (n,), dtype=torch.int32, generator=gen),) if bias else ())

    def f(a, b, *bias_):
        return q.matmul(a, b, bias_[0] if bias_ else None, scale, relu)

    _check(f, args, m * n * k, tmp_path)


@pytest.mark.iss
@pytest.mark.parametrize(("lead", "k", "n"), [((7,), 13, 5), ((2, 5), 20, 17)])
def test_linear_bit_exact(lead, k, n, tmp_path):
    gen = torch.Generator().manual_seed(k + n)
    x, w = _int8(gen, *lead, k), _int8(gen, n, k)
    bias = torch.randint(-2000, 2000, (n,), dtype=torch.int32, generator=gen)

    def f(x, w, bias):
        return q.linear(x, w, bias, 0.03125, True)

    _check(f, (x, w, bias), int(np.prod(lead)) * n * k, tmp_path)


@pytest.mark.iss
def test_bmm_bit_exact(tmp_path):
    gen = torch.Generator().manual_seed(3)
    a, b = _int8(gen, 3, 6, 9), _int8(gen, 3, 9, 5)

    def f(a, b):
        return q.bmm(a, b, 0.01)

    _check(f, (a, b), 3 * 6 * 5 * 9, tmp_path)


@pytest.mark.iss
def test_layers_and_core_ops_in_one_program(tmp_path):
    """Two layers on Gemmini, an integer op between them on the core: one ELF, one result."""
    gen = torch.Generator().manual_seed(5)
    x, w1, w2 = _int8(gen, 6, 10), _int8(gen, 12, 10), _int8(gen, 7, 12)

    def f(x, w1, w2):
        h = q.linear(x, w1, None, 0.02, False)
        h = torch.clamp(h, min=-20)  # scalar code on the core
        return q.linear(h, w2, None, 0.05, True)

    _check(f, (x, w1, w2), 6 * 12 * 10 + 6 * 7 * 12, tmp_path)


def _plan_of(dump: Path) -> dict[str, str]:
    text = (dump / "passes").glob("*-gemmini-layer-plan.mlir").__next__().read_text()
    return dict(re.findall(r"(tile_ijk|loops_ijk|dim) = (\[[^\]]*\]|\d+)", text))


@pytest.mark.iss
def test_same_source_retiles_for_dim16(tmp_path):
    """The same program on gemmini-dim16: another tiling in the dump, the same bits out."""
    gen = torch.Generator().manual_seed(9)
    a, b = _int8(gen, 64, 64), _int8(gen, 64, 64)

    def f(a, b):
        return q.matmul(a, b, None, 0.004, False)

    plans = {}
    for soc in ("gemmini-dim4", "gemmini-dim16"):
        got, counters, instret, _k, _elf = _run(f, (a, b), soc, tmp_path, dump_dir=tmp_path / f"ir-{soc}")
        np.testing.assert_array_equal(got[0], f(a, b).numpy())
        assert counters["gemmini_macs"] == 64**3
        # the core only issues the loops: fewer instructions than output elements (no copy of C either)
        assert instret < 64 * 64 // 8, instret
        plans[soc] = _plan_of(tmp_path / f"ir-{soc}")
    assert plans["gemmini-dim4"]["dim"] == "4" and plans["gemmini-dim16"]["dim"] == "16"
    assert plans["gemmini-dim4"]["tile_ijk"] != plans["gemmini-dim16"]["tile_ijk"], plans


def test_plan_fits_half_of_each_memory():
    """Every tiling leaves room for loop_ws's double buffering: A + B within half the scratchpad
    minus DIM rows, C within half the accumulator; bigger memories give fewer loops."""
    for soc in ("gemmini-dim4", "gemmini-dim16"):
        g = target_for(soc).gemmini
        for m, n, k in ((1, 1, 1), (33, 17, 20), (256, 256, 256), (12544, 64, 147)):
            p = plan_matmul(m, n, k, g)
            assert p.a_rows + p.b_rows <= g.sp_rows // 2 - g.dim
            assert p.c_rows <= g.acc_rows // 2
            assert all(t <= b for t, b in zip(p.tile, p.blocks, strict=True))
    small = plan_matmul(256, 256, 256, target_for("gemmini-dim4").gemmini)
    big = plan_matmul(256, 256, 256, target_for("gemmini-dim16").gemmini)
    assert big.loops < small.loops


def _banks(first: int, rows: int, bank_rows: int) -> set[int]:
    return set(range(first // bank_rows, (first + rows - 1) // bank_rows + 1))


def test_short_layers_keep_a_and_b_in_different_banks():
    """A layer of one row block preloads a B block for every A block it computes, so A and B
    sharing a scratchpad bank (one read a cycle) would halve the mesh's rate: the tiling gives up
    K depth to keep them apart, and a layer whose A and B fit apart anyway is unchanged."""
    for soc in ("gemmini-dim4", "gemmini-dim16"):
        g = target_for(soc).gemmini
        bank_rows = g.sp_rows // g.sp_banks
        half = g.sp_rows // 2
        for m, n, k in ((16, 256, 2304), (4, 512, 4608), (1, 1000, 512)):
            p = plan_matmul(m, n, k, g)
            b_end = half - g.dim
            a_banks = _banks(0, p.a_rows, bank_rows)
            b_banks = _banks(b_end - p.b_rows, p.b_rows, bank_rows)
            assert not a_banks & b_banks, (soc, (m, n, k), p.tile, a_banks, b_banks)
            assert p.bank_conflict_rows(g.sp_banks) == 0
    # A deep K tile whose B reaches down into A's bank counts every such row once per loop.
    g = target_for("gemmini-dim16").gemmini
    deep = MatmulPlan(16, 256, 2304, 1, 16, (1, 16, 30), g.sp_rows // 2, g.acc_rows // 2, False)
    assert deep.bank_conflict_rows(g.sp_banks) == (4096 - (8192 - 16 - 30 * 16 * 16)) * deep.loops


def test_funct_numbers_match_the_model():
    from compiler.gemmini import instructions as ins

    ours = (ins.CONFIG, ins.MVIN, ins.MVIN2, ins.MVOUT, ins.LOOP_WS, ins.LOOP_WS_CONFIG_BOUNDS, ins.LOOP_CONV_WS)
    model = (isa.CONFIG, isa.MVIN, isa.MVIN2, isa.MVOUT, isa.LOOP_WS, isa.LOOP_WS_CONFIG_BOUNDS, isa.LOOP_CONV_WS)
    assert ours == model
    assert ins.LOOP_WS_CONFIG_STRIDES_DC == isa.LOOP_WS_CONFIG_STRIDES_DC


def test_float_program_on_gemmini_config_stays_scalar():
    """No cosim_q layer: the core's scalar code, with the scalar target (same cache key as before)."""
    kernel = compile_kernel(import_torch(lambda x: x * 2.0, (torch.ones(3),), name="dbl"), SOC)
    assert kernel.target.strategy == "scalar" and kernel.target.gemmini is None


def test_layers_need_a_gemmini_config():
    a = torch.ones(4, 4, dtype=torch.int8)
    imported = import_torch(lambda a: q.matmul(a, a, None, 1.0, False), (a,), name="mm")
    with pytest.raises(CompileError, match="need a Gemmini config"):
        compile_kernel(imported, "rv64")


@pytest.mark.iss
@pytest.mark.parametrize(
    ("shape", "oc", "kernel", "stride", "padding", "dilation", "groups", "bias"),
    [
        ((1, 3, 9, 9), 5, 3, 2, 1, 1, 1, True),  # strided, padded
        ((2, 4, 7, 6), 6, 3, 1, 0, 2, 2, False),  # dilated, two groups, batch 2
        ((1, 6, 8, 8), 6, 3, 1, 1, 1, 6, True),  # depthwise
    ],
)
def test_conv2d_bit_exact(shape, oc, kernel, stride, padding, dilation, groups, bias, tmp_path):
    """im2col on the core, one loop_ws layer per group: the eager conv's bits, all its MACs on Gemmini."""
    gen = torch.Generator().manual_seed(sum(shape) + oc)
    x, w = _int8(gen, *shape), _int8(gen, oc, shape[1] // groups, kernel, kernel)
    args = (x, w) + ((torch.randint(-5000, 5000, (oc,), dtype=torch.int32, generator=gen),) if bias else ())
    st, pa, di = [stride] * 2, [padding] * 2, [dilation] * 2

    def f(x, w, *bias_):
        return q.conv2d(x, w, bias_[0] if bias_ else None, st, pa, di, groups, 0.0078125, True)

    out = f(*args)
    macs = out.numel() * (shape[1] // groups) * kernel * kernel
    _check(f, args, macs, tmp_path)


@pytest.mark.iss
@pytest.mark.parametrize("shape", [(3, 5), (6, 40, 7)])  # under one row; rows of DIM x MAX_BLOCK_LEN and a tail
def test_residual_add_bit_exact(shape, tmp_path):
    """cosim_q.add on Gemmini: scaled mvins into the accumulator (the second accumulating), mvout."""
    gen = torch.Generator().manual_seed(len(shape))
    a, b = _int8(gen, *shape), _int8(gen, *shape)

    def f(a, b):
        return q.add(a, b, 0.75, 0.375, True)

    counters = _check(f, (a, b), 0, tmp_path)
    assert counters["insn_mvin2"] > 0 and counters["insn_mvout"] > 0


@pytest.mark.iss
def test_quantize_and_dequantize_run_on_the_core(tmp_path):
    """A float program around layers: quantize and dequantize on the core."""
    gen = torch.Generator().manual_seed(11)
    x, w = torch.randn(5, 8, generator=gen), _int8(gen, 8, 8)

    def f(x, w):
        xq = q.quantize(x, 0.05)
        h = q.linear(xq, w, None, 0.01, False)
        return q.dequantize(q.add(h, xq, 1.0, 0.5, False), 0.05)

    _check(f, (x, w), 5 * 8 * 8, tmp_path)


MODELS = """
import torch
from torch import nn


def _calib(shape, n=4, seed=1):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(*shape, generator=g),) for _ in range(n)]


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(8)
        self.dw = nn.Conv2d(8, 8, 3, stride=2, padding=1, groups=8)
        self.fc = nn.Linear(8 * 2 * 2, 10)

    def forward(self, x):
        x = torch.relu(self.bn(self.conv(x)))
        x = nn.functional.max_pool2d(torch.relu(self.dw(x)), 2)
        return self.fc(x.flatten(1))


class Attn(nn.Module):
    def __init__(self):
        super().__init__()
        self.q, self.k, self.v, self.o = (nn.Linear(16, 16) for _ in range(4))

    def forward(self, x):
        q, k, v = self.q(x), self.k(x), self.v(x)
        a = torch.softmax(torch.bmm(q, k.transpose(1, 2)) / 4.0, dim=-1)
        return self.o(torch.bmm(a, v))


def cnn():
    torch.manual_seed(2)
    c = _calib((2, 3, 8, 8))
    return SmallCNN().eval(), c[0], {"calibration": c, "top1_disagree": 1.0}


def attn():
    torch.manual_seed(3)
    c = _calib((2, 5, 16))
    return Attn().eval(), c[0], {"calibration": c, "top1_disagree": 1.0}
"""


@pytest.mark.iss
@pytest.mark.slow
@pytest.mark.parametrize(
    ("case", "macs"),
    [
        # conv 3->8 3x3 on 2 x 8x8, depthwise 3x3 stride 2 (8 layers of one channel), linear 32->10
        ("cnn", 2 * 64 * 8 * 27 + 2 * 16 * 8 * 9 + 2 * 32 * 10),
        # four 16x16 linears on 2 x 5 tokens, q @ k^T and a @ v per batch (softmax on the core)
        ("attn", 4 * 10 * 16 * 16 + 2 * 5 * 5 * 16 + 2 * 5 * 16 * 5),
    ],
)
def test_quantized_models_through_the_harness(case, macs, tmp_path):
    from harness.verify import verify

    path = tmp_path / "models.py"
    path.write_text(MODELS)
    result = verify(f"{path}:{case}", SOC, on="iss")
    assert result["status"] == "pass", result.get("message")
    assert result["counters"]["gemmini_macs"] == macs


@pytest.mark.iss
def test_quantized_case_through_the_harness(tmp_path):
    """``cosim verify`` of a float case on gemmini-dim4: the harness quantizes it and keeps the cosim_q
    ops for this backend (``COMPILES_COSIM_Q``): convs, a residual add, max pooling and a linear, bit-exact."""
    from configs import load_soc
    from harness.quant import keeps_cosim_q
    from harness.verify import verify

    assert keeps_cosim_q(load_soc(SOC))
    case = tmp_path / "qblock.py"
    case.write_text(QBLOCK)
    result = verify(f"{case}:make", SOC, on="iss")
    assert result["status"] == "pass", result.get("message")
    assert result["compile"]["strategy"] == "gemmini" and result["accelerator_used"] is True
    # conv 3x3 2->4 and conv 1x1 2->4 on 6x6, linear 36->5
    assert result["counters"]["gemmini_macs"] == 36 * 4 * 18 + 36 * 4 * 2 + 36 * 5


QBLOCK = """
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, padding=1)
        self.skip = nn.Conv2d(2, 4, 1)
        self.fc = nn.Linear(4 * 3 * 3, 5)

    def forward(self, x):
        y = torch.relu(self.conv(x) + self.skip(x))
        y = nn.functional.max_pool2d(y, 2)
        return self.fc(y.flatten(1))


def make():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    calib = [(torch.randn(1, 2, 6, 6, generator=g),) for _ in range(6)]
    return Block(), calib[0], {"calibration": calib, "top1_disagree": 1.0}
"""


@pytest.mark.iss
@pytest.mark.parametrize("config", ["gemmini-dim16", "dim8"])
def test_other_configs_linear_and_conv(config, tmp_path):
    """gemmini-dim16 (MAX_BLOCK_LEN_ACC 1: the bias moves a block at a time) and a DIM-8 config
    derived from gemmini-dim4's file: the same layers, the same bits."""
    gen = torch.Generator().manual_seed(21)
    x, w = _int8(gen, 19, 37), _int8(gen, 23, 37)
    bias = torch.randint(-4000, 4000, (23,), dtype=torch.int32, generator=gen)
    xc, wc = _int8(gen, 1, 5, 9, 9), _int8(gen, 7, 5, 3, 3)

    def lin(x, w, bias):
        return q.linear(x, w, bias, 0.0625, True)

    def conv(x, w):
        return q.conv2d(x, w, None, [2, 2], [1, 1], [1, 1], 1, 0.01, False)

    soc = config if config != "dim8" else str(_dim8_config(tmp_path))
    _check(lin, (x, w, bias), 19 * 23 * 37, tmp_path / "lin", soc)
    _check(conv, (xc, wc), 7 * 5 * 5 * 5 * 9, tmp_path / "conv", soc)


@pytest.mark.iss
@pytest.mark.parametrize(
    ("shape", "oc", "stride", "padding", "dilation", "groups", "bias"),
    [
        ((1, 3, 9, 9), 5, 2, 1, 1, 1, True),  # strided, padded: one loop
        ((2, 6, 7, 7), 9, 1, 1, 2, 1, False),  # dilated, batch 2, no bias (the loop loads zeros)
        ((1, 256, 6, 6), 4, 1, 1, 1, 1, True),  # input channels split: later loops add to the partial sums
        ((1, 6, 8, 8), 6, 1, 1, 1, 6, True),  # depthwise: not a conv loop; im2col + linears instead
    ],
)
def test_conv2d_as_loop_conv_ws(shape, oc, stride, padding, dilation, groups, bias, tmp_path):
    """On a config with loop_conv = true, convolutions run as loop_conv_ws (NHWC/HWIO permutes on the core)."""
    from compiler.frontend import layer_calls
    from compiler.gemmini.plan import plan_conv

    soc = str(_loop_conv_config(tmp_path))
    gen = torch.Generator().manual_seed(sum(shape) + oc + 1)
    x, w = _int8(gen, *shape), _int8(gen, oc, shape[1] // groups, 3, 3)
    args = (x, w) + ((torch.randint(-5000, 5000, (oc,), dtype=torch.int32, generator=gen),) if bias else ())
    st, pa, di = [stride] * 2, [padding] * 2, [dilation] * 2

    def f(x, w, *bias_):
        return q.conv2d(x, w, bias_[0] if bias_ else None, st, pa, di, groups, 0.0078125, True)

    out = f(*args)
    counters = _check(f, args, out.numel() * (shape[1] // groups) * 9, tmp_path, soc)
    loop = layer_calls.loop_conv_legal(x, w, st, pa, di, groups)
    assert (counters.get("insn_loop_conv_ws", 0) > 0) == loop, counters
    if shape[1] == 256:
        geo = {"batch": 1, "in_dim": 6, "cin": 256, "cout": 4, "k": 3, "stride": 1, "padding": 1, "dilation": 1}
        plan = plan_conv({**geo, "out_dim": 6, "bias": True, "scale": 1.0, "relu": False}, target_for(soc).gemmini)
        assert plan.outer[4] > 1, plan  # the case is there for its split input channels
