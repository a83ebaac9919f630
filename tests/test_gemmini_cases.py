"""The int8 cases on the Gemmini configs, through ``cosim verify`` (quantize, compile, run, compare):

- float programs written as a user writes them (tests/gemmini_user_models/models.py) verify bit for bit
  against their int8 reference, with the accelerator doing at least 90 % of their conv and linear MACs
  (``counters.gemmini_macs``) and no Gemmini C library (``tiled_*``) in the ELF;
- a DIM-8 config derived from gemmini-dim4's file (only ``name`` and ``dim`` changed) verifies built-in
  cases with no other change;
- slow: the built-in int8 cases on the gemmini-dim16 RTL, ResNet-18 on the gemmini-dim16 RTL at 64x64
  and on Spike at 224x224, the DIM-8 config's RTL.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness.cases import gemmini_cases, materialize, resolve
from harness.elfcheck import ElfImage
from harness.gemmini_suite import RTL_SLOW
from harness.models.macs import conv_linear_macs
from harness.verify import verify

HERE = Path(__file__).resolve().parent
USER_MODELS = HERE / "gemmini_user_models" / "models.py"
CONFIGS = HERE.parent / "configs"
USER_PROGRAMS = ["odd_linears", "strided_depthwise", "residual", "attention", "classifier"]
# The default tier runs two of them (about 5 s each on Spike), the slow tier all.
DEFAULT_TIER = ("strided_depthwise", "attention")


def _tiered(names, default) -> list:
    return [n if n in default else pytest.param(n, marks=pytest.mark.slow) for n in names]


def dim8_config(directory: Path) -> Path:
    """gemmini-dim4's file with its ``name`` and ``dim`` changed, nothing else, in ``directory``."""
    text = (CONFIGS / "gemmini-dim4.toml").read_text()
    new = text.replace('name = "gemmini-dim4"', 'name = "gemmini-dim8"')
    new = re.sub(r"^dim = 4\b", "dim = 8", new, flags=re.M)
    changed = [(a, b) for a, b in zip(text.splitlines(), new.splitlines(), strict=True) if a != b]
    assert [b.split("=")[0].strip() for _a, b in changed] == ["name", "dim"], changed
    path = directory / "gemmini-dim8.toml"
    path.write_text(new)
    return path


def _verify_on_gemmini(spec: str, soc: str, on: str, workdir: Path) -> dict:
    result = verify(spec, soc, on=on, workdir=workdir)
    assert result["status"] == "pass", (result.get("message"), result.get("outputs"))
    assert result["tolerance"] == "exact" and result["compile"]["strategy"] == "gemmini"
    assert result["accelerator_used"] is True
    assert not ElfImage(result["elf"]).symbols_with_prefix("tiled_"), "the ELF calls Gemmini's C library"
    return result


def _share_on_gemmini(spec: str, result: dict) -> float:
    """gemmini_macs / the float model's conv and linear MACs on the example inputs."""
    mat = materialize(resolve(spec))
    return result["counters"]["gemmini_macs"] / conv_linear_macs(mat.fn, mat.inputs)


@pytest.mark.iss
@pytest.mark.parametrize("func", _tiered(USER_PROGRAMS, DEFAULT_TIER))
def test_user_programs_run_their_layers_on_gemmini(func, tmp_path):
    spec = f"{USER_MODELS}:{func}"
    result = _verify_on_gemmini(spec, "gemmini-dim4", "iss", tmp_path)
    assert _share_on_gemmini(spec, result) >= 0.9


@pytest.mark.iss
@pytest.mark.parametrize(
    "name",
    _tiered(["linear_odd", "conv2d_strided", "conv_pool_stem", "attention"], ("conv2d_strided", "conv_pool_stem")),
)
def test_derived_dim8_config(name, tmp_path):
    result = _verify_on_gemmini(name, str(dim8_config(tmp_path)), "iss", tmp_path)
    assert result["soc"] == "gemmini-dim8"


def test_every_suite_case_is_int8_and_named():
    names = [c.name for c in gemmini_cases("suite")]
    required = {"mm_odd", "linear_odd", "bmm_odd", "conv2d_strided", "conv2d_padded", "conv2d_depthwise"}
    assert required | {"lenet5", "mlp", "resnet_block", "attention", "conv_pool", "conv_pool_stem"} <= set(names)
    assert {c.name for c in gemmini_cases("slow")} >= {"resnet18", "resnet18_224"}
    assert len(names) == len(set(names))


@pytest.mark.rtl
@pytest.mark.slow
@pytest.mark.parametrize("func", USER_PROGRAMS)
def test_user_programs_on_rtl(func, tmp_path):
    spec = f"{USER_MODELS}:{func}"
    result = _verify_on_gemmini(spec, "gemmini-dim4", "rtl", tmp_path)
    assert _share_on_gemmini(spec, result) >= 0.9


@pytest.mark.rtl
@pytest.mark.slow
@pytest.mark.parametrize("name", [c.name for c in gemmini_cases("suite")])
def test_suite_cases_on_dim16_rtl(name, tmp_path):
    _verify_on_gemmini(name, "gemmini-dim16", "rtl", tmp_path)


@pytest.mark.rtl
@pytest.mark.slow
@pytest.mark.parametrize("name", RTL_SLOW)
def test_cases_left_out_of_the_rtl_suite(name, tmp_path):
    _verify_on_gemmini(name, "gemmini-dim4", "rtl", tmp_path)


@pytest.mark.rtl
@pytest.mark.slow
def test_resnet18_on_dim16_rtl(tmp_path):
    result = _verify_on_gemmini("resnet18", "gemmini-dim16", "rtl", tmp_path)
    assert _share_on_gemmini("resnet18", result) >= 0.9


@pytest.mark.iss
@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "soc"),
    [("resnet18", "gemmini-dim4"), ("resnet18", "gemmini-dim16"), ("resnet18_224", "gemmini-dim16")],
)
def test_resnet18_on_spike(name, soc, tmp_path):
    result = _verify_on_gemmini(name, soc, "iss", tmp_path)
    assert _share_on_gemmini(name, result) >= 0.9


@pytest.mark.rtl
@pytest.mark.slow
@pytest.mark.parametrize("name", ["linear_odd", "conv2d_strided"])
def test_derived_dim8_config_on_rtl(name, tmp_path):
    _verify_on_gemmini(name, str(dim8_config(tmp_path)), "rtl", tmp_path)
