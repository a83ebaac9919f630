"""End to end on Spike: cases compile, link, run and match PyTorch; the checks can fail."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from harness.cases import REGISTRY, resolve
from harness.check import compare, ulp_distance
from harness.errors import CosimError
from harness.verify import verify

pytestmark = pytest.mark.iss


def test_registry_has_the_required_cases():
    required = {
        "addmm",
        "mm",
        "bmm",
        "linear",
        "relu",
        "gelu",
        "add",
        "mul",
        "sub",
        "softmax",
        "layer_norm",
        "conv2d",
        "max_pool2d",
        "mean",
        "permute",
        "mlp",
        "lenet5",
    }
    assert required <= set(REGISTRY)


def test_addmm_rv32_vs_t1_small(tmp_path):
    scalar = verify("addmm", "rv32", workdir=tmp_path)
    vector = verify("addmm", "t1-small", workdir=tmp_path, json_path=tmp_path / "r.json")
    for r in (scalar, vector):
        assert r["status"] == "pass", r
        assert r["outputs"]["out0"]["mismatches"] == 0
        assert r["instret_forward"] and r["instret_forward"] > 0
    assert vector["instret_forward"] * 4 < scalar["instret_forward"]
    assert all(op["vectorized"] for op in vector["compile"]["schedule"])
    manifest = json.loads((tmp_path / "addmm-t1-small" / "manifest.json").read_text())
    (out,) = manifest["outputs"]
    assert out["shape"] == [8, 16] and out["dtype"] == "float32" and out["symbol"] == "cosim_out0"
    assert int(out["address"], 16) >= 0xC000_0000  # vector configs keep tensors in SRAM (.vbss)
    on_disk = json.loads((tmp_path / "r.json").read_text())
    assert on_disk["status"] == "pass" and on_disk["soc"] == "t1-small"


def test_user_case_file_with_tuple_output(tmp_path):
    case = tmp_path / "mycase.py"
    case.write_text(
        "import torch\n"
        "def make():\n"
        "    g = torch.Generator().manual_seed(3)\n"
        "    x = torch.randn(4, 16, generator=g)\n"
        "    return (lambda x: (torch.relu(x), x * 2.0)), (x,)\n"
    )
    r = verify(f"{case}:make", "t1-small")
    assert r["status"] == "pass" and set(r["outputs"]) == {"out0", "out1"}


def test_unknown_case_and_missing_function(tmp_path):
    with pytest.raises(CosimError, match="unknown case"):
        resolve("no-such-case")
    (tmp_path / "c.py").write_text("x = 1\n")
    with pytest.raises(CosimError, match="no function 'make'"):
        resolve(f"{tmp_path / 'c.py'}:make")


def test_compare_flags_a_corrupted_word():
    ref = np.linspace(-1, 1, 64, dtype=np.float32).reshape(8, 8)
    got = ref.copy()
    assert compare(got, ref, "exact")["mismatches"] == 0
    got.view(np.uint32)[3, 5] ^= 1  # one ULP
    exact = compare(got, ref, "exact")
    assert exact["mismatches"] == 1 and exact["first_mismatches"][0]["index"] == [3, 5]
    assert compare(got, ref, "elementwise")["mismatches"] == 0
    got[1, 1] = 7.0
    bad = compare(got, ref, "reduction")
    assert bad["mismatches"] == 1 and bad["max_abs_err"] > 6


def test_ulp_distance():
    a = np.array([1.0, -0.0, np.nan, 1.0], dtype=np.float32)
    b = np.array([np.nextafter(np.float32(1), np.float32(2)), 0.0, np.nan, -1.0], dtype=np.float32)
    d = ulp_distance(a, b)
    assert d[0] == 1 and d[1] == 0 and d[2] == 0 and d[3] == 2 * 0x3F800000


def test_cli_verify_and_cases(tmp_path):
    out = subprocess.run([sys.executable, "-m", "harness", "cases", "--json"], capture_output=True, text=True)
    assert out.returncode == 0 and "lenet5" in {c["name"] for c in json.loads(out.stdout)}
    res = tmp_path / "relu.json"
    cmd = [
        sys.executable,
        "-m",
        "harness",
        "verify",
        "relu",
        "--soc",
        "rv32",
        "--json",
        str(res),
        "--dump-ir",
        str(tmp_path / "ir"),
    ]
    out = subprocess.run(cmd, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "pass" in out.stdout and json.loads(res.read_text())["status"] == "pass"
    assert (tmp_path / "ir" / "03-schedule.mlir").is_file()
    bad = subprocess.run(
        [sys.executable, "-m", "harness", "verify", "nope", "--soc", "rv32"], capture_output=True, text=True
    )
    assert bad.returncode == 2 and "unknown case" in bad.stderr


SLOW_SOCS = ["rv32", "t1-small", "t1-blastoise"]


@pytest.mark.slow
@pytest.mark.parametrize("soc", SLOW_SOCS)
@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_case_on_spike(name, soc):
    r = verify(name, soc)
    assert r["status"] == "pass", (r.get("message"), r["outputs"])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["addmm", "bmm", "softmax", "mlp", "conv2d"])
def test_new_vlen_config(name, tmp_path):
    text = Path(__file__).resolve().parents[1].joinpath("configs", "t1-small.toml").read_text()
    cfg = tmp_path / "t1-v512.toml"
    cfg.write_text(
        text.replace('name = "t1-small"', 'name = "t1-v512"')
        .replace("vlen = 256", "vlen = 512")
        .replace("zvl256b", "zvl512b")
    )
    r = verify(name, str(cfg))
    assert r["status"] == "pass", (r.get("message"), r["outputs"])


MLIR_CASE = """
func.func @scale_add(%a: tensor<4x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                                        affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %x : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
"""


def test_mlir_file_case_with_host_reference(tmp_path):
    f = tmp_path / "scale.mlir"
    f.write_text(MLIR_CASE)
    (tmp_path / "scale.inputs.json").write_text(
        json.dumps({"seed": 5, "args": [{"name": "a"}, {"name": "b", "init": "rand"}]})
    )
    r = verify(str(f), "t1-small")
    assert r["status"] == "pass" and r["outputs"]["out0"]["mismatches"] == 0
    assert all(op["vectorized"] for op in r["compile"]["schedule"])


@pytest.mark.slow
@pytest.mark.rtl
@pytest.mark.parametrize("name, soc", [("relu", "rv32"), ("addmm", "t1-small"), ("softmax", "t1-small")])
def test_cases_on_rtl(name, soc):
    r = verify(name, soc, on="rtl")
    assert r["status"] == "pass", (r.get("message"), r["outputs"])
    assert r["target"] == "rtl" and r["cycles_forward"] and r["cycles_forward"] > 0


def test_coverage_row_and_markdown():
    from harness.coverage import case_coverage
    from harness.report.coverage import markdown

    row = case_coverage("relu", "t1-small", mix=True)
    assert row["recognized"] == row["lowered"] == row["compiled"] == row["validated_iss"] == "yes"
    assert row["validated_rtl"] == "not run" and row["vectorized_ops"] == "1/1"
    assert row["mix"]["forward"] == row["iss_forward"] and row["mix"]["vector"] > 0
    md = markdown([row])
    assert "| relu | t1-small | yes | yes | yes | yes | not run | 1/1 |" in md


def test_pooling_runs_on_the_vector_unit(tmp_path):
    scalar = verify("max_pool2d", "rv32", workdir=tmp_path)
    vector = verify("max_pool2d", "t1-small", workdir=tmp_path)
    assert scalar["status"] == vector["status"] == "pass"
    assert all(op["vectorized"] for op in vector["compile"]["schedule"])
    assert vector["instret_forward"] * 4 < scalar["instret_forward"]


@pytest.mark.slow
def test_lenet5_is_mostly_vector_work_on_blastoise(tmp_path):
    from harness.vecstats import forward_mix

    r = verify("lenet5", "t1-blastoise", workdir=tmp_path)
    assert r["status"] == "pass" and all(op["vectorized"] for op in r["compile"]["schedule"])
    # before the conv/pool decompositions: 1.58 M instructions, 2% vector
    assert r["instret_forward"] < 100_000
    mix = forward_mix(next(tmp_path.rglob("*.elf")), "t1-blastoise")
    assert mix.forward == r["instret_forward"] and mix.vector_fraction > 0.4
