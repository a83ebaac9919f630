"""A conv's max pool folded into its Gemmini layer (compiler.gemmini.pooling): the quantizer's
cosim_q.conv2d_pool, the frontend's choice between the store unit and the core, the plan's bands and
accumulator half, bit-exact results on Spike and the gemmini-dim4 RTL, and the per-layer check."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import numpy as np
import pytest
import torch

import harness.quant.ops  # noqa: F401  (registers torch.ops.cosim_q)
from compiler import compile_kernel
from compiler.frontend import import_torch
from compiler.frontend.layer_calls import pool_foldable
from compiler.gemmini.pooling import plan_pool
from compiler.targets import target_for
from configs import load_soc
from harness.localize import flip_bit
from harness.program import build_program, read_outputs
from harness.quant.quantize import quantize
from harness.verify import verify
from sim.spike import Dump, run_spike

q = torch.ops.cosim_q
aten = torch.ops.aten


def _int8(gen: torch.Generator, *shape: int) -> torch.Tensor:
    return torch.randint(-128, 128, shape, dtype=torch.int8, generator=gen)


def _conv_pool(conv_stride: int, conv_padding: int, relu: bool, pool: tuple[int, int, int], scale: float = 0.004):
    k, s, p = pool

    def f(x, w, bias):
        return q.conv2d_pool(
            x, w, bias, [conv_stride] * 2, [conv_padding] * 2, [1, 1], 1, scale, relu, [k, k], [s, s], [p, p]
        )

    return f


def _run(fn, inputs: tuple, soc: str, tmp_path: Path, dump_dir: Path | None = None):
    kernel = compile_kernel(import_torch(fn, inputs, name="layer"), soc, dump_dir=dump_dir)
    work = tmp_path / Path(soc).stem
    prog = build_program(kernel, load_soc(soc), work)
    out = run_spike(prog.elf, soc, dumps=[Dump(int(o["address"], 16), o["size"]) for o in prog.outputs], workdir=work)
    assert out.ending == "exit" and out.exit_code == 0, f"{out.ending} {out.exit_code}: {out.message}\n{out.uart}"
    return list(read_outputs(prog.manifest, out.dumps).values()), out.counters, kernel


def _pooled_layers(kernel) -> list[dict]:
    return [e for e in kernel.schedule if "linear_pool" in e["op"]]


CASES = [
    # (input NCHW, out channels, conv kernel, stride, padding, relu, pool (kernel, stride, padding))
    ((1, 3, 12, 12), 6, 3, 1, 1, True, (2, 2, 0)),  # LeNet's 2x2 / 2, channels not a multiple of DIM
    ((1, 3, 29, 29), 5, 7, 2, 3, True, (3, 2, 1)),  # ResNet's stem: 15x15 -> 8x8, padding at every border
    ((2, 4, 20, 20), 8, 3, 1, 1, False, (2, 2, 0)),  # no ReLU (no padding), two images, bands on dim4
    ((1, 2, 9, 9), 4, 3, 1, 1, True, (3, 1, 1)),  # stride 1: bands overlapping by two conv rows
    ((1, 3, 10, 17), 4, 3, 1, 1, True, (2, 2, 0)),  # not square: 10x17 -> 5x8
]


@pytest.mark.iss
@pytest.mark.parametrize("soc", ["gemmini-dim4", "gemmini-dim16"])
@pytest.mark.parametrize(("shape", "oc", "kc", "cs", "cp", "relu", "pool"), CASES)
def test_conv_pool_bit_exact_with_the_pool_on_mvout(soc, shape, oc, kc, cs, cp, relu, pool, tmp_path):
    """One linear_pool layer: the eager conv2d_pool's bits, every pooled pixel from the store unit."""
    gen = torch.Generator().manual_seed(sum(shape) + oc + kc)
    x, w = _int8(gen, *shape), _int8(gen, oc, shape[1], kc, kc)
    bias = torch.randint(-3000, 3000, (oc,), dtype=torch.int32, generator=gen)
    f = _conv_pool(cs, cp, relu, pool)
    ref = f(x, w, bias)
    (got,), counters, kernel = _run(f, (x, w, bias), soc, tmp_path)
    np.testing.assert_array_equal(got, ref.numpy())
    (entry,) = _pooled_layers(kernel)
    assert entry["accelerator"] == "gemmini" and "max pool" in entry["reason"]
    g = target_for(soc).gemmini
    n, _, ph, pw = ref.shape
    oh, ow = ((size + 2 * cp - kc) // cs + 1 for size in shape[2:])
    geo = {"name": "t", "image": [n, oh, ow], "kernel": pool[0], "stride": pool[1], "padding": pool[2]}
    plan = plan_pool({**geo, "n": oc, "k": shape[1] * kc * kc}, g)
    blocks = -(-oc // g.dim)
    assert counters["pool_pixels"] == n * ph * pw * pool[0] ** 2 * blocks, counters
    assert counters["gemmini_macs"] == plan.array_macs >= ref.numel() // (ph * pw) * oh * ow * shape[1] * kc * kc


@pytest.mark.iss
def test_accumulator_half_after_c_storing_loops(tmp_path):
    """A WS linear (one loop_ws storing C: the accumulator half flips) before the pooled conv, and a second
    pooled conv after a second linear: each pooled layer must read the half its loops ran in."""
    gen = torch.Generator().manual_seed(5)
    a, b = _int8(gen, 16, 16), _int8(gen, 16, 16)
    x, w1, w2 = _int8(gen, 1, 2, 8, 8), _int8(gen, 4, 2, 3, 3), _int8(gen, 4, 4, 3, 3)
    conv = _conv_pool(1, 1, True, (2, 2, 0), 0.01)

    def f(a, b, x, w1, w2):
        y = q.linear(a, b, None, 0.002, False)
        z = conv(x, w1, None)
        y2 = q.linear(y, b, None, 0.01, False)
        return y2, conv(z, w2, None)

    args = (a, b, x, w1, w2)
    refs = f(*args)
    dump = tmp_path / "ir"
    got, counters, kernel = _run(f, args, "gemmini-dim4", tmp_path, dump_dir=dump)
    for g_, r in zip(got, refs, strict=True):
        np.testing.assert_array_equal(g_, r.numpy())
    assert len(_pooled_layers(kernel)) == 2
    plan = next((dump / "passes").glob("*gemmini-layer-plan.mlir")).read_text()
    halves = [int(h) for h in re.findall(r"acc_half = (\d) : i64", plan)]
    assert halves == [1, 0], halves  # one C-storing loop before the first, two before the second


def test_dump_shows_the_fused_layer_and_its_pooling(tmp_path):
    gen = torch.Generator().manual_seed(3)
    x, w = _int8(gen, 1, 3, 29, 29), _int8(gen, 5, 3, 7, 7)
    f = _conv_pool(2, 3, True, (3, 2, 1))
    compile_kernel(import_torch(lambda x, w: f(x, w, None), (x, w), name="stem"), "gemmini-dim4", dump_dir=tmp_path)
    text = next((tmp_path / "passes").glob("*gemmini-layer-plan.mlir")).read_text()
    assert 'cosim_q.op = "linear_pool"' in text and "pool_kernel_stride_padding = [3, 2, 1]" in text
    assert "pooled = [8, 8]" in text and "image = [1, 15, 15]" in text
    assert "max_pool2d" not in text  # nothing left on the core


@pytest.mark.parametrize(
    ("image", "relu", "pool", "acc_rows", "why"),
    [
        ((1, 24, 24), True, (2, 2, 0), 128, None),
        ((1, 24, 24), False, (3, 2, 1), 128, "zero"),  # padding counted as zero needs the ReLU
        ((1, 24, 24), True, (4, 4, 0), 128, "fields"),  # a window beyond config_st's 2 bits
        ((1, 64, 64), True, (3, 2, 1), 128, "accumulator"),  # 3 rows of 64 pixels > 128 rows
        ((1, 300, 300), True, (2, 2, 0), 1 << 20, "255"),
    ],
)
def test_pool_foldable(image, relu, pool, acc_rows, why):
    k, s, p = pool
    reason = pool_foldable(image, 1, relu, [k, k], [s, s], [p, p], acc_rows)
    assert (reason is None) if why is None else (why in reason), reason


@pytest.mark.iss
def test_a_pool_the_store_unit_cannot_run_stays_on_the_core(tmp_path):
    """Padding without a ReLU: the conv is a plain linear layer, the pool runs on the core, same bits."""
    gen = torch.Generator().manual_seed(9)
    x, w = _int8(gen, 1, 3, 10, 10), _int8(gen, 4, 3, 3, 3)
    bias = torch.randint(-3000, 3000, (4,), dtype=torch.int32, generator=gen)
    f = _conv_pool(1, 1, False, (3, 2, 1))
    (got,), counters, kernel = _run(f, (x, w, bias), "gemmini-dim4", tmp_path)
    np.testing.assert_array_equal(got, f(x, w, bias).numpy())
    assert not _pooled_layers(kernel) and counters.get("pool_pixels", 0) == 0
    assert any("linear" in e["op"] for e in kernel.schedule)


@pytest.mark.iss
def test_on_a_loop_conv_config_the_pool_runs_on_the_core(tmp_path):
    """gemmini-dim4 with loop_conv = true: the conv is a loop_conv_ws layer, its pool scalar code after it."""
    text = (Path(__file__).resolve().parent.parent / "configs" / "gemmini-dim4.toml").read_text()
    text = re.sub(
        r"^loop_conv = false", "loop_conv = true", text.replace("gemmini-dim4", "gemmini-dim4-lc"), flags=re.M
    )
    soc = tmp_path / "gemmini-dim4-lc.toml"
    soc.write_text(text)
    gen = torch.Generator().manual_seed(2)
    x, w = _int8(gen, 1, 3, 8, 8), _int8(gen, 4, 3, 3, 3)
    bias = torch.randint(-3000, 3000, (4,), dtype=torch.int32, generator=gen)
    f = _conv_pool(1, 1, True, (3, 2, 1))
    (got,), counters, kernel = _run(f, (x, w, bias), str(soc), tmp_path)
    np.testing.assert_array_equal(got, f(x, w, bias).numpy())
    assert not _pooled_layers(kernel) and counters.get("pool_pixels", 0) == 0
    assert counters.get("insn_loop_conv_ws", 0) > 0, counters


def test_quantizer_folds_the_pool_into_the_conv():
    nn = torch.nn
    model = nn.Sequential(nn.Conv2d(2, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(3, 2, 1), nn.Flatten())
    x = torch.randn(1, 2, 9, 9)
    qp = quantize(model.eval(), (x,), [(x,)])
    targets = [str(n.target) for n in qp.module.graph.nodes if n.op == "call_function"]
    assert "cosim_q.conv2d_pool.default" in targets and not any("max_pool" in t for t in targets), targets
    assert [entry["op"] for entry in qp.layers] == ["conv2d_pool"]
    (node,) = [n for n in qp.module.graph.nodes if str(n.target) == "cosim_q.conv2d_pool.default"]
    assert list(node.args[-3:]) == [[3, 3], [2, 2], [1, 1]]
    # the fused op's reference is the conv layer followed by the int8 max pool, bit for bit
    xq = qp.quantize_inputs((x,))[0]
    conv_args = [
        getattr(qp.module, a.target) if isinstance(a, torch.fx.Node) and a.op == "get_attr" else a
        for a in node.args[1:9]
    ]
    unfused = aten.max_pool2d(q.conv2d(xq, *conv_args), [3, 3], [2, 2], [1, 1]).flatten(1)
    assert torch.equal(qp.module(xq), unfused)


CASE = textwrap.dedent(
    """
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 6, 3, padding=1)
            self.fc = nn.Linear(6 * 5 * 5, 7)

        def forward(self, x):
            x = nn.functional.max_pool2d(torch.relu(self.conv(x)), 3, 2, 1)
            return self.fc(x.flatten(1))

    def make():
        torch.manual_seed(0)
        return Net().eval(), (torch.randn(1, 3, 10, 10),), {"classifier": False}
    """
)


@pytest.fixture(scope="module")
def case_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("pool") / "net.py"
    path.write_text(CASE)
    return f"{path}:make"


def test_fused_layer_checked_and_localized(case_file):
    """The per-layer check reads the fused layer's pooled output (reference: conv + ReLU + requant + max
    pool); a flipped weight byte of the conv names that layer."""
    r = verify(case_file, "gemmini-dim4", on="iss", localize="always")
    assert r["status"] == "pass", r.get("message")
    assert r["counters"]["pool_pixels"] > 0
    pooled = [c for c in r["localization"]["checks"] if c["op"].startswith("cosim_q.conv2d_pool")]
    assert [(c["layer"], c["shape"], c["tolerance"], c["mismatches"]) for c in pooled] == [
        ("conv", [1, 6, 5, 5], "exact", 0)
    ]
    assert not any("max_pool" in op for p in r["profile"] for op in p.get("ops", []))

    flipped: list[str] = []

    def patch(program) -> None:
        manifest = json.loads(program.manifest.read_text())
        arg = next(a for a in manifest["inputs"] if "conv_weight_q" in a["name"])
        flip_bit(program.elf, int(arg["address"], 16), 7)
        flipped.append(arg["name"])

    bad = verify(case_file, "gemmini-dim4", on="iss", elf_patch=patch)
    assert bad["status"] == "mismatch" and flipped
    first = bad["localization"]["first_bad"]
    assert first["layer"] == "conv" and first["op"].startswith("cosim_q.conv2d_pool"), first
    assert first["shape"] == [1, 6, 5, 5]


@pytest.mark.rtl
def test_conv_pool_stem_on_dim4_rtl():
    """The stem case (3x3 / 2, padding 1, after a folded BatchNorm and ReLU) on the gemmini-dim4 RTL."""
    r = verify("conv_pool_stem", "gemmini-dim4", on="rtl")
    assert r["status"] == "pass", r.get("message")
    assert r["accelerator_used"] is True


@pytest.mark.iss
@pytest.mark.parametrize(("case", "pooled"), [("lenet5", ["c1", "c2"]), ("conv_pool", ["0"])])
def test_built_in_cases_fold_their_pools(case, pooled):
    """LeNet-5's two conv + ReLU + max pool stages are pooled layers on Gemmini; no max pool is left on the core."""
    r = verify(case, "gemmini-dim4", on="iss")
    assert r["status"] == "pass", r.get("message")
    regions = [p for p in r["profile"] if p.get("ops") == ["cosim_gemmini.linear_pool.default"]]
    assert [p["name"] for p in regions] == pooled and all(p["where"] == "gemmini" for p in regions)
    assert not any("max_pool" in op for p in r["profile"] for op in p.get("ops", []))
    assert r["counters"]["pool_pixels"] > 0
