"""PyTorch programs written elsewhere (``tests/fuzz_programs``) verify through the
public API (``harness.verify.verify`` / ``cosim verify FILE.py:FUNC``) on Spike,
compared with eager PyTorch by ``harness.check``, on rv32, t1-small,
t1-blastoise and a VLEN-512 config written at test time; unsupported programs
are refused with a message naming the op and the program's line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from compiler.errors import CompileError
from harness.cases import resolve
from harness.errors import CosimError
from harness.verify import verify

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fuzz_programs import HERE, programs  # noqa: E402

pytestmark = pytest.mark.iss

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = programs()


def write_vlen512_config(directory: Path) -> Path:
    """configs/t1-blastoise.toml with VLEN 512 (DLEN stays 256: two beats per
    register), as a user would add a config: nothing else knows this VLEN."""
    text = (ROOT / "configs" / "t1-blastoise.toml").read_text()
    new = text.replace('name = "t1-blastoise"', 'name = "t1-v512"').replace("vlen = 2048", "vlen = 512")
    new = new.replace("zvl2048b", "zvl512b").replace("VLEN 2048", "VLEN 512")
    assert new.count("512") >= 3, "t1-blastoise.toml changed: update write_vlen512_config"
    path = directory / "t1-v512.toml"
    path.write_text(new)
    return path


@pytest.fixture(scope="session")
def v512(tmp_path_factory) -> str:
    return str(write_vlen512_config(tmp_path_factory.mktemp("socs")))


def _spec(short: str) -> str:
    """``module:FUNC`` -> ``<abs path>/module.py:FUNC``."""
    mod, func = short.split(":")
    return f"{HERE / (mod + '.py')}:{func}"


def _short(spec: str) -> str:
    path, func = spec.rsplit(":", 1)
    return f"{Path(path).stem}:{func}"


def _check(spec: str, soc: str) -> dict:
    r = verify(spec, soc)
    detail = {
        k: {kk: v.get(kk) for kk in ("mismatches", "max_abs_err", "max_ulp_err", "first_mismatches")}
        for k, v in (r.get("outputs") or {}).items()
    }
    assert r["status"] == "pass", (r.get("message"), detail)
    assert r["outputs"] and all(o["mismatches"] == 0 for o in r["outputs"].values())
    return r


def test_the_corpus_is_big_and_every_program_builds():
    assert len(PROGRAMS) >= 40
    for spec in PROGRAMS:
        case = resolve(spec)
        got = case.build()
        assert isinstance(got, tuple) and len(got) in (2, 3), spec


# A cross-section for the default tier: every family, the awkward inputs (-0.0,
# NaN, huge), every max_pool2d window kind, odd/prime/size-1 shapes. Compilation
# dominates (about a second per program and config); Spike runs are short.
DEFAULT = [
    "matmuls:mm_3x37x19",
    "matmuls:bmm_on_transposed_views",
    "matmuls:linear_on_1d_input",
    "elementwise:relu_signed_zero_and_huge",
    "elementwise:mul_sub_broadcast_column_row",
    "elementwise:threshold_with_float_scalars",
    "elementwise:gelu_exact_and_tanh",
    "elementwise:log_family_and_rounding",
    "elementwise:bool_inputs_buffers_outputs",
    "elementwise:integer_floor_division",
    "reductions:softmax_odd_last_dim",
    "reductions:layer_norm_last_two_dims",
    "reductions:mean_two_dims_keepdim",
    "reductions:var_std_unbiased_and_not",
    "convs:conv_stride3_pad2",
    "convs:conv_dilation2",
    "pools:pool_nonoverlap_with_nan",
    "pools:pool_overlap_with_nan_and_padding",
    "pools:pool_k2_s2_ceil_mode_odd",
    "pools:pool_signed_zero_ties",
    "shapes:transpose_then_reshape",
    "shapes:permute_reshape_linear",  # a flat tile whose later reader views an unknown buffer
    "models:linear_gelu_layernorm_softmax",
    "models:conv_bn_dropout_relu_eval",  # reciprocal's assert, dropout in eval mode
    "models:depthwise_separable_block",  # grouped convolutions
]


@pytest.mark.parametrize("soc", ["rv32", "t1-small", "v512"])
@pytest.mark.parametrize("name", DEFAULT)
def test_program_verifies(name, soc, request):
    soc = request.getfixturevalue("v512") if soc == "v512" else soc
    r = _check(_spec(name), soc)
    if soc != "rv32":
        # (a rank-0 op, e.g. x.std()'s final square root, is one scalar: nothing to vectorize)
        ops = [op for op in r["compile"]["schedule"] if op.get("loops", [None])]
        assert all(op["vectorized"] for op in ops), r["compile"]["schedule"]


@pytest.mark.slow
@pytest.mark.parametrize("soc", ["rv32", "t1-small", "t1-blastoise", "v512"])
@pytest.mark.parametrize("spec", PROGRAMS, ids=[_short(s) for s in PROGRAMS])
def test_whole_corpus(spec, soc, request):
    soc = request.getfixturevalue("v512") if soc == "v512" else soc
    _check(spec, soc)


def test_cli_verifies_a_program_on_a_config_file(v512, tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "harness", "verify", _spec("pools:pool_k3_s2_pad1"), "--soc", v512, "--on", "iss"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode == 0 and "pass" in out.stdout, out.stdout + out.stderr


UNSUPPORTED = HERE / "unsupported.py"


def _marked_line(marker: str) -> int:
    lines = UNSUPPORTED.read_text().splitlines()
    return next(i for i, ln in enumerate(lines, start=1) if ln.rstrip().endswith(f"# <- {marker}"))


@pytest.mark.parametrize(
    "func, marker, op",
    [
        ("stray_f64", "f64", "float64"),
        ("data_dependent_shape", "dynamic", "dynamic shape"),
        ("sort_op", "sort", "sort"),
        ("random_in_forward", "rand", "aten.rand"),
        ("dropout_in_training", "dropout", "aten.dropout"),
        ("atan_needs_libm", "atan", "math.atan"),
    ],
)
def test_unsupported_programs_name_the_op_and_line(func, marker, op):
    with pytest.raises(CompileError) as err:
        verify(f"{UNSUPPORTED}:{func}", "t1-small")
    msg = str(err.value)
    assert op in msg and f"unsupported.py:{_marked_line(marker)}" in msg, msg


def test_f64_inputs_are_refused_before_compiling():
    with pytest.raises((CompileError, CosimError), match="float64.*float32"):
        verify(f"{UNSUPPORTED}:f64_input", "rv32")


def test_cli_reports_an_unsupported_op_without_a_traceback():
    out = subprocess.run(
        [sys.executable, "-m", "harness", "verify", f"{UNSUPPORTED}:sort_op", "--soc", "rv32"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode == 2, out.stdout + out.stderr
    assert "tm_tensor.sort" in out.stderr and f"unsupported.py:{_marked_line('sort')}" in out.stderr
    assert "Traceback" not in out.stderr
