"""The RVV strategy really uses the vector unit, for shapes nobody tuned for.

Matmul-like and elementwise PyTorch programs with shapes other than the
built-in cases (odd sizes, a single row or column, batches, broadcasting over
leading dims, transposing copies) are compiled for t1-small and for a VLEN-512
config written at test time, verified on Spike against PyTorch, and the
instructions retired inside ``forward`` are counted (:mod:`harness.vecstats`):
more than half must be vector instructions (``vset*`` not counted as vector).
The flw-per-vfmacc form of a matmul (one A scalar per vector FMA) stays below
half by construction, so these tests fail if the strategy regresses to it.

    python tests/test_vector_share.py [SOC_OR_TOML ...]   # prints the table
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from configs import CONFIG_DIR  # noqa: E402
from harness.cases import Case  # noqa: E402
from harness.vecstats import forward_mix, forward_mixes  # noqa: E402
from harness.verify import verify  # noqa: E402

# Vector share the default-tier programs must exceed (the "most").
MIN_SHARE = 0.5


def _randn(*shape: int, seed: int = 0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed + 7 * sum(shape)))


def _linear(k: int, n: int):
    torch.manual_seed(3)
    return torch.nn.Linear(k, n)


def _mlp(k: int, h: int, n: int):
    torch.manual_seed(4)
    return torch.nn.Sequential(torch.nn.Linear(k, h), torch.nn.ReLU(), torch.nn.Linear(h, n))


# name -> (builder returning (fn, inputs), tolerance class)
PROGRAMS: dict[str, tuple] = {
    "mm_33x65x17": (lambda: ((lambda a, b: a @ b), (_randn(33, 65), _randn(65, 17, seed=1))), "reduction"),
    "mm_1x48x40": (lambda: ((lambda a, b: a @ b), (_randn(1, 48), _randn(48, 40, seed=1))), "reduction"),
    "mm_20x24x1": (lambda: ((lambda a, b: a @ b), (_randn(20, 24), _randn(24, 1, seed=1))), "reduction"),
    "mm_5x7x3": (lambda: ((lambda a, b: a @ b), (_randn(5, 7), _randn(7, 3, seed=1))), "reduction"),
    "addmm_12x20x36": (
        lambda: ((lambda c, a, b: torch.addmm(c, a, b)), (_randn(36, seed=2), _randn(12, 20), _randn(20, 36, seed=1))),
        "reduction",
    ),
    "bmm_3x6x10x12": (
        lambda: ((lambda a, b: torch.bmm(a, b)), (_randn(3, 6, 10), _randn(3, 10, 12, seed=1))),
        "reduction",
    ),
    "bmm_3x6x10x16": (
        lambda: ((lambda a, b: torch.bmm(a, b)), (_randn(3, 6, 10), _randn(3, 10, 16, seed=1))),
        "reduction",
    ),
    "linear_6x40x24": (lambda: (_linear(40, 24), (_randn(6, 40),)), "reduction"),
    "mlp_3x32x48x12": (lambda: (_mlp(32, 48, 12), (_randn(3, 32),)), "reduction"),
    "add_bcast_3x5x40_40": (lambda: ((lambda a, b: a + b), (_randn(3, 5, 40), _randn(40, seed=1))), "elementwise"),
    "mul_bcast_2x6x24_6x1": (lambda: ((lambda a, b: a * b), (_randn(2, 6, 24), _randn(6, 1, seed=1))), "elementwise"),
    "sub_bcast_3x1x20_4x1": (lambda: ((lambda a, b: a - b), (_randn(3, 1, 20), _randn(4, 1, seed=1))), "elementwise"),
    "relu_7x50": (lambda: ((lambda x: torch.relu(x)), (_randn(7, 50),)), "exact"),
    "gelu_5x36": (lambda: ((lambda x: torch.nn.functional.gelu(x)), (_randn(5, 36) * 2,)), "transcendental"),
    "permute_3x4x10": (lambda: ((lambda x: x.permute(2, 0, 1).contiguous() * 1.0), (_randn(3, 4, 10),)), "exact"),
    "transpose_12x20": (lambda: ((lambda x: x.t().contiguous() + 1.0), (_randn(12, 20),)), "elementwise"),
}

# Default tier: a cross-section (compilation is the cost); every program runs in the slow tier.
DEFAULT = (
    "gelu_5x36",
    "addmm_12x20x36",
    "bmm_3x6x10x12",
    "linear_6x40x24",
    "mlp_3x32x48x12",
    "add_bcast_3x5x40_40",
)
DEFAULT_V512 = ("bmm_3x6x10x16", "linear_6x40x24", "mlp_3x32x48x12")
# One column tile per row on 8 lanes: above half only through lane splats (compiler.colsplat).
DEFAULT_BLASTOISE = ("bmm_3x6x10x12", "linear_6x40x24", "mlp_3x32x48x12")

# Still at or below half on some config (measured; see compiler/README.md "Known weak spots"):
# short broadcast rows and permutes are dominated by address adds and the fixed
# prologue, a prime N with an M without a small divisor keeps the flw-per-FMA form.
KNOWN_BELOW_HALF = {
    "add_bcast_3x5x40_40",  # 41 instructions on blastoise: the call set-up is a third
    "mm_33x65x17",  # 46% on t1-small and VLEN 512: N = 17 (prime), two column tiles per row
    "mm_1x48x40",  # 49.6% on blastoise: one row, one scalar per column tile
    "mm_20x24x1",  # 39% on t1-small: a matrix-vector product, flw per vfmacc (compiler/README.md)
    "mul_bcast_2x6x24_6x1",
    "sub_bcast_3x1x20_4x1",
    "permute_3x4x10",
    "transpose_12x20",  # 22 instructions on blastoise (5 vector): the call set-up is a third
    # sub_bcast: 56% on t1-blastoise with lane splats, 42% where a row is over 4 datapath rows
}


def write_vlen_config(directory: Path, vlen: int, dlen: int = 128) -> Path:
    """A vector config with another VLEN/DLEN, modelled on t1-small."""
    text = (CONFIG_DIR / "t1-small.toml").read_text()
    text = text.replace('name = "t1-small"', f'name = "t1-v{vlen}"').replace("vlen = 256", f"vlen = {vlen}")
    text = text.replace("dlen = 64", f"dlen = {dlen}").replace("zvl256b", f"zvl{vlen}b")
    path = directory / f"t1-v{vlen}.toml"
    path.write_text(text)
    return path


def measure(name: str, soc, workdir: Path, *, kernel: bool = False):
    """Verify program ``name`` on Spike for ``soc``; returns (result, Mix inside forward)
    or, with ``kernel``, (result, region Mix, kernel-only Mix)."""
    build, tolerance = PROGRAMS[name]
    case = Case(name, build, tolerance)
    result = verify(case, soc, on="iss", workdir=workdir)
    elf = next(Path(workdir).rglob(f"{name}.elf"))
    if kernel:
        return (result, *forward_mixes(elf, soc))
    return result, forward_mix(elf, soc)


@pytest.fixture(scope="module")
def v512(tmp_path_factory) -> Path:
    return write_vlen_config(tmp_path_factory.mktemp("cfg"), 512)


def _check(name: str, soc, tmp_path: Path) -> None:
    result, mix = measure(name, soc, tmp_path)
    assert result["status"] == "pass", (result.get("message"), result["outputs"])
    assert all(op["vectorized"] for op in result["compile"]["schedule"]), result["compile"]["schedule"]
    # the commit-log count and minstret around the markers agree (within the marker stores)
    assert abs(mix.forward - result["instret_forward"]) <= 4, (mix.forward, result["instret_forward"])
    assert mix.vector_fraction > MIN_SHARE, f"{name} on {soc}: {mix.to_dict()}"


@pytest.mark.parametrize("name", DEFAULT)
def test_vector_share_t1_small(name, tmp_path):
    _check(name, "t1-small", tmp_path)


@pytest.mark.parametrize("name", DEFAULT_V512)
def test_vector_share_vlen512(name, v512, tmp_path):
    _check(name, v512, tmp_path)


@pytest.mark.parametrize("name", DEFAULT_BLASTOISE)
def test_vector_share_t1_blastoise(name, tmp_path):
    _check(name, "t1-blastoise", tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("soc", ["t1-small", "t1-blastoise", "v512"])
@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(reason="known below half on some config", strict=False))
        if n in KNOWN_BELOW_HALF
        else n
        for n in PROGRAMS
    ],
)
def test_vector_share_everywhere(name, soc, v512, tmp_path):
    _check(name, v512 if soc == "v512" else soc, tmp_path)


def test_flw_per_fma_form_is_below_half():
    """The share metric separates the two matmul forms: a k step of R rows with one
    column tile (R flw + 1 vle + R vfmacc + 1 address add) is under half vector."""
    from harness.vecstats import Mix

    for rows in (1, 2, 4, 8, 16):
        assert Mix(forward=3 * rows + 2, vector=rows + 1, scalar=2 * rows + 1).vector_fraction < MIN_SHARE


def main(argv: list[str]) -> int:
    import tempfile

    socs = argv or ["t1-small", "t1-blastoise"]
    for soc in socs:
        for name in PROGRAMS:
            with tempfile.TemporaryDirectory() as tmp:
                result, mix, kmix = measure(name, soc, Path(tmp), kernel=True)
                no_vset = mix.vector / max(1, mix.forward - mix.vset)
                print(
                    f"| {Path(str(soc)).stem} | {name} | {result['status']} | {mix.forward} | "
                    f"{mix.vector_fraction:.1%} | {no_vset:.1%} | {kmix.vector_fraction:.1%} |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
