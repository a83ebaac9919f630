"""The Gemmini plan's dataflow choice (compiler/gemmini/output_stationary.py): output-stationary
layers issued by the core (preload of C, computes, mvout; no loop_ws), checked bit for bit against
the cosim_q ops' eager reference on Spike (and, slow, on the gemmini-dim4 RTL), the choice and its
reason in ``--dump-ir``, and the 20-bit rule that keeps OS exact."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import torch

import harness.quant.ops  # noqa: F401  (registers torch.ops.cosim_q)
from compiler import compile_kernel
from compiler.frontend import import_torch
from compiler.gemmini import with_dataflow
from compiler.gemmini.output_stationary import OS_CHAIN_K, choose_dataflow, plan_os
from compiler.gemmini.plan import LOOP_COST_BEATS, plan_matmul
from compiler.targets import target_for
from harness.program import build_program, read_outputs
from sim.gemmini.params import MESH_OUTPUT_BITS
from sim.spike import Dump, run_spike

q = torch.ops.cosim_q
CONFIGS = Path(__file__).resolve().parent.parent / "configs"


def _dim8_config(directory: Path) -> Path:
    text = (CONFIGS / "gemmini-dim4.toml").read_text()
    text = text.replace('name = "gemmini-dim4"', 'name = "gemmini-dim8"')
    text = re.sub(r"^dim = 4\b", "dim = 8", text, flags=re.M)
    path = directory / "gemmini-dim8.toml"
    path.write_text(text)
    return path


def _matmul_program(m: int, k: int, n: int, bias: bool, batch: int = 0):
    """A cosim_q matmul (or bmm with ``batch``) of extreme int8 operands: sums as large as int8 allows."""
    gen = torch.Generator().manual_seed(m * 100 + k * 10 + n)
    lead = (batch,) if batch else ()
    a = torch.randint(-128, 128, (*lead, m, k), dtype=torch.int8, generator=gen)
    b = torch.randint(-128, 128, (*lead, k, n), dtype=torch.int8, generator=gen)
    if batch:
        return (lambda a, b: q.bmm(a, b, 0.004)), (a, b)
    extra = (torch.randint(-3000, 3000, (n,), dtype=torch.int32, generator=gen),) if bias else ()

    def f(a, b, *bias_):
        return q.matmul(a, b, bias_[0] if bias_ else None, 0.013, True)

    return f, (a, b, *extra)


def _compile(fn, inputs, soc, dataflow: str, dump_dir: Path | None = None):
    return compile_kernel(with_dataflow(import_torch(fn, inputs, name="layer"), dataflow), soc, dump_dir=dump_dir)


def _run(kernel, soc, work: Path, on: str = "iss"):
    from configs import load_soc

    soc = load_soc(soc)
    prog = build_program(kernel, soc, work)
    dumps = [(int(o["address"], 16), o["size"]) for o in prog.outputs]
    if on == "iss":
        out = run_spike(prog.elf, soc, dumps=[Dump(a, s) for a, s in dumps], workdir=work)
    else:
        from sim.rtl_runner import run_rtl

        out = run_rtl(prog.elf, soc, dumps=dumps)
    assert out.ending == "exit" and out.exit_code == 0, f"{out.ending} {out.exit_code}: {out.message}"
    return list(read_outputs(prog.manifest, out.dumps).values())[0], out.counters


def _check(fn, inputs, soc, tmp_path, dataflow: str, on: str = "iss") -> None:
    kernel = _compile(fn, inputs, soc, dataflow)
    assert all(f"Gemmini {dataflow}" in e["reason"] or f"({dataflow})" in e["reason"] for e in kernel.schedule), (
        kernel.schedule
    )
    got, counters = _run(kernel, soc, tmp_path / Path(soc).stem, on)
    ref = fn(*inputs)
    np.testing.assert_array_equal(got, ref.numpy())
    assert counters.get("gemmini_macs") == ref.shape.numel() // ref.shape[-1] * inputs[0].shape[-1] * ref.shape[-1]


OS_SHAPES = [
    pytest.param("gemmini-dim4", 7, 13, 5, True, 0, id="dim4-one-block-row-bias"),
    pytest.param("gemmini-dim4", 9, 60, 6, False, 0, id="dim4-3-chains"),
    pytest.param("gemmini-dim4", 50, 201, 90, False, 0, id="dim4-8-chains-B-panels", marks=pytest.mark.slow),
    pytest.param("gemmini-dim16", 40, 70, 36, True, 0, id="dim16-one-block-chains"),
    pytest.param("gemmini-dim4", 10, 12, 7, False, 3, id="dim4-bmm", marks=pytest.mark.slow),
    pytest.param("dim8", 33, 20, 17, True, 0, id="dim8", marks=pytest.mark.slow),
]


@pytest.mark.iss
@pytest.mark.parametrize(("soc", "m", "k", "n", "bias", "batch"), OS_SHAPES)
def test_os_bit_exact_on_spike(soc, m, k, n, bias, batch, tmp_path):
    soc = str(_dim8_config(tmp_path)) if soc == "dim8" else soc
    fn, inputs = _matmul_program(m, k, n, bias, batch)
    _check(fn, inputs, soc, tmp_path, "OS")


@pytest.mark.rtl
@pytest.mark.slow
@pytest.mark.parametrize("dataflow", ["OS", "WS"])
@pytest.mark.parametrize(
    ("m", "k", "n", "bias", "batch"), [(7, 13, 5, True, 0), (50, 201, 90, True, 0), (10, 12, 7, False, 3)]
)
def test_both_dataflows_bit_exact_on_dim4_rtl(m, k, n, bias, batch, dataflow, tmp_path):
    fn, inputs = _matmul_program(m, k, n, bias, batch)
    _check(fn, inputs, "gemmini-dim4", tmp_path, dataflow, on="rtl")


def test_dump_shows_the_choice_and_why(tmp_path):
    fn, inputs = _matmul_program(4, 4, 4, False)
    _compile(fn, inputs, "gemmini-dim4", "auto", dump_dir=tmp_path)
    (plan,) = [p for p in (tmp_path / "passes").iterdir() if "gemmini-layer-plan" in p.name]
    text = plan.read_text()
    assert 'dataflow = "OS"' in text and 'why_dataflow = "OS cheaper (estimate WS' in text, text
    assert 'gemmini.dataflow = "auto"' in text


def _geo(m, n, k, *, batch=1, bias=True, b_transposed=False) -> dict:
    return {"m": m, "n": n, "k": k, "batch": batch, "bias": bias, "b_transposed": b_transposed}


def _choose(requested, geo, soc="gemmini-dim4"):
    g = target_for(soc).gemmini
    ws = plan_matmul(geo["m"], geo["n"], geo["k"], g, batch=geo["batch"], bias=geo["bias"])
    return choose_dataflow(requested, ws, geo, g, LOOP_COST_BEATS)


def test_auto_takes_the_cheaper_estimate():
    df, os_plan, why = _choose("auto", _geo(4, 4, 4))
    assert df == "OS" and os_plan is not None and why.startswith("OS cheaper")
    df, os_plan, why = _choose("auto", _geo(64, 64, 64))  # one loop_ws of 16x16x16 blocks
    assert df == "WS" and os_plan is None and why.startswith("WS cheaper")
    est = [float(x) for x in re.findall(r"(?:WS|OS) (\d+)", why)]
    assert est[0] < est[1], why


def test_os_is_refused_where_it_cannot_run():
    # a linear's weights are B transposed; OS's one transposer carries A
    df, _p, why = _choose("OS", _geo(4, 4, 4, b_transposed=True))
    assert df == "WS" and why.startswith("OS forced, but") and "transposed" in why
    df, _p, why = _choose("auto", _geo(4, 4, 4, b_transposed=True))
    assert df == "WS" and "OS impossible" in why
    df, _p, why = _choose("WS", _geo(4, 4, 4))
    assert df == "WS" and why == "WS forced"
    with pytest.raises(ValueError, match="use one of auto, WS, OS"):
        _choose("os", _geo(4, 4, 4))


@pytest.mark.parametrize("soc", ["gemmini-dim4", "gemmini-dim16"])
def test_an_os_chain_cannot_wrap_the_20_bit_sums(soc):
    g = target_for(soc).gemmini
    plan = plan_os(33, 17, 500, g)
    worst = plan.chain_blocks * g.dim * 128 * 128  # every product (-128) x (-128)
    assert worst <= (1 << (MESH_OUTPUT_BITS - 1)) - 1 < worst + 128 * 128 * g.dim
    assert plan.chain_blocks * g.dim <= OS_CHAIN_K


@pytest.mark.iss
def test_case_option_forces_the_dataflow_through_verify(tmp_path):
    from harness.errors import CosimError
    from harness.verify import verify

    src = tmp_path / "model.py"
    src.write_text(
        "import torch\n"
        "def f(df='OS'):\n"
        "    g = torch.Generator().manual_seed(3)\n"
        "    return (lambda a, b: a @ b), (torch.randn(9, 13, generator=g), torch.randn(13, 6, generator=g)),"
        " {'dataflow': df}\n"
        "def bad():\n"
        "    return f('os')\n"
    )
    result = verify(f"{src}:f", "gemmini-dim4", on="iss", workdir=tmp_path)
    assert result["status"] == "pass", result.get("message")
    assert result["quant"]["dataflow"] == "OS"
    assert [e["reason"].split(",")[0] for e in result["compile"]["schedule"] if e["accelerator"] == "gemmini"] == [
        "Gemmini OS"
    ]
    with pytest.raises(CosimError, match="dataflow 'os': use auto"):
        verify(f"{src}:bad", "gemmini-dim4", on="iss", workdir=tmp_path)


def _forced_case_file(directory: Path, name: str, dataflow: str) -> str:
    """A ``file.py:FUNC`` spec: the built-in case ``name`` (its module and inputs) with ``dataflow`` forced."""
    src = directory / f"forced_{name}_{dataflow}.py"
    src.write_text(
        "from harness.cases import resolve\n"
        "def case():\n"
        f"    fn, inputs = resolve({name!r}).build()[:2]\n"
        f"    return fn, inputs, {{'dataflow': {dataflow!r}}}\n"
    )
    return f"{src}:case"


@pytest.mark.rtl
@pytest.mark.slow
@pytest.mark.parametrize("dataflow", ["OS", "WS"])
@pytest.mark.parametrize("name", ["bmm", "bmm_odd", "attention"])
def test_compiled_bmm_cases_both_dataflows_on_dim16_rtl(name, dataflow, tmp_path):
    """The built-in bmm cases (attention: its two bmms; its linears are WS whatever is forced) bit-exact on
    the gemmini-dim16 RTL with each dataflow forced; each bmm layer's schedule shows the forced one."""
    from harness.verify import verify

    result = verify(_forced_case_file(tmp_path, name, dataflow), "gemmini-dim16", on="rtl", workdir=tmp_path)
    assert result["status"] == "pass", (result.get("message"), result.get("outputs"))
    assert result["tolerance"] == "exact" and result["quant"]["dataflow"] == dataflow
    layers = [e for e in result["compile"]["schedule"] if e["accelerator"] == "gemmini"]
    bmms = [e for e in layers if "bmm" in e["op"]]  # a linear is WS either way (B transposed)
    assert bmms and all(
        e["reason"].startswith(f"Gemmini {'OS' if dataflow == 'OS' else 'loop_ws (WS)'}") for e in bmms
    ), [e["reason"] for e in layers]
    assert result["counters"]["gemmini_macs"] > 0
    print(f"{name} {dataflow}: forward {result['cycles_forward']} cycles")
