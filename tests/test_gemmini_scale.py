"""The Gemmini scale unit RTL (sim/rtl/gemmini/gemmini_scale.sv) against the functional model's ``scale_to_int``
(sim/gemmini/model.py): int32 -> fp32 (RNE), times an fp32 scale (RNE, subnormals kept), NaN -> hi, then RNE to an
integer saturating to int8 or int32.

Under cocotb (sim/tb/gemmini/scale_tb.sv, 64 units side by side) one run applies several thousand vectors: random
int32 operands with random fp32 bit patterns, plus the edges: ties at every 0.5 step (odd x times 2^-k), integers
above 2^24 that round on the way to fp32, INT32_MIN/MAX, scales that overflow to +-inf or stay just finite,
subnormal scales and products, NaNs of both signs and payloads, +-0 and +-inf scales, every scale exponent,
products just below 2^24 where the fp32 rounding of the product makes integer ties, in both saturation ranges.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.gemmini.model import I8_MAX, I8_MIN, I32_MAX, I32_MIN, scale_to_int
from sim.tb.gemmini.build import ArrayBuild
from sim.tb.gemmini.scale_build import build_scale_tb, run_scale

pytestmark = pytest.mark.rtl


@pytest.fixture(scope="module")
def tb() -> ArrayBuild:
    return build_scale_tb()


def f32_bits(v: float) -> int:
    return int(np.array([v], dtype=np.float32).view(np.uint32)[0])


def expected(vectors: list[tuple[int, int, int]]) -> list[int]:
    out = []
    with np.errstate(all="ignore"):
        for x, s, t in vectors:
            scale = np.array([s], dtype=np.uint32).view(np.float32)[0]
            lo, hi = (I8_MIN, I8_MAX) if t else (I32_MIN, I32_MAX)
            out.append(int(scale_to_int(np.array([x], dtype=np.int64), scale, lo, hi)[0]))
    return out


def edge_scales() -> list[int]:
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 0.25, 1.5, 2.0, 3.0, 1e-3, 0.1, 255.0, 2.0**31, 2.0**-31]
    bits = [f32_bits(v) for v in vals]
    bits += [0x7F80_0000, 0xFF80_0000]  # +-inf
    bits += [0x7FC0_0000, 0xFFC0_0000, 0x7F80_0001, 0xFFA5_A5A5, 0x7FFF_FFFF]  # quiet/signalling NaNs
    bits += [0x7F7F_FFFF, 0xFF7F_FFFF, 0x7F00_0000, 0x5F00_0000, 0x4F00_0000, 0x4EFF_FFFF, 0xCF00_0000]  # huge
    bits += [0x0000_0001, 0x8000_0001, 0x007F_FFFF, 0x0080_0000, 0x0040_0000, 0x0000_1234]  # subnormal, min normal
    bits += [f32_bits(2.0**-k) for k in range(1, 40)] + [f32_bits(-(2.0**-k)) for k in range(1, 24)]
    return bits


def edge_xs() -> list[int]:
    xs = [0, 1, -1, 2, -2, 3, -3, 127, 128, -128, -129, 255, I32_MIN, I32_MAX, I32_MIN + 1, I32_MAX - 1]
    xs += [(1 << 24) + 1, (1 << 24) + 3, -(1 << 24) - 1, (1 << 25) + 2, (1 << 25) + 6, (1 << 30) + 64, 0x7FFF_FFC0]
    return xs


def make_vectors(rng: np.random.Generator, n_random: int) -> list[tuple[int, int, int]]:
    v: list[tuple[int, int, int]] = []
    for s in edge_scales():  # every edge scale against every edge x, both ranges
        for x in edge_xs():
            v += [(x, s, 0), (x, s, 1)]
    for _ in range(n_random):
        kind = rng.integers(0, 9)
        if kind == 0:  # full random: any bit pattern, any integer
            x, s = int(rng.integers(I32_MIN, I32_MAX + 1)), int(rng.integers(0, 1 << 32))
        elif kind == 1:  # ties and near-ties: odd x times 2^-k
            x = int(rng.integers(-(1 << 12), 1 << 12)) | 1
            s = f32_bits(float(rng.choice([-1.0, 1.0])) * 2.0 ** -int(rng.integers(1, 6)))
        elif kind == 2:  # scales near 1 (the usual requantization range) on accumulator-sized values
            x = int(rng.integers(-(1 << 20), 1 << 20))
            s = f32_bits(float(rng.uniform(-1, 1)) * 2.0 ** -int(rng.integers(0, 12)))
        elif kind == 3:  # large x, scales around 1: fp32 rounding of x matters, int32 saturation
            x = int(rng.integers(I32_MIN, I32_MAX + 1))
            s = f32_bits(float(rng.uniform(0.25, 4.0)) * float(rng.choice([-1.0, 1.0])))
        elif kind == 4:  # tiny scales: subnormal products
            x = int(rng.integers(I32_MIN, I32_MAX + 1)) >> int(rng.integers(0, 31))
            s = int(rng.integers(0, 1 << 23)) | (int(rng.integers(0, 2)) << 31)
        elif kind == 6:  # every scale exponent, random significand and x
            x = int(rng.integers(I32_MIN, I32_MAX + 1)) >> int(rng.integers(0, 32))
            s = (int(rng.integers(0, 2)) << 31) | (int(rng.integers(0, 256)) << 23) | int(rng.integers(0, 1 << 23))
        elif kind == 7:  # products in [2^20, 2^25): the fp32 product rounding makes integer ties
            x = int(rng.integers(1 << 24, I32_MAX + 1)) * int(rng.choice([-1, 1]))
            e = 127 - 7 - int(rng.integers(0, 5)) - (31 - int(abs(x)).bit_length())
            s = (int(rng.integers(0, 2)) << 31) | (e << 23) | int(rng.integers(0, 1 << 23))
        elif kind == 8:  # odd x near 2^23 times odd / 2^j: exact ties in the fp32 product, then in the integer
            x = (int(rng.integers(1 << 20, 1 << 24)) | 1) * int(rng.choice([-1, 1]))
            s = f32_bits(
                float(rng.choice([-1, 1]) * (2 * int(rng.integers(0, 8)) + 1)) * 2.0 ** -int(rng.integers(1, 5))
            )
        else:  # moderate x, random exponents near the integer range boundaries
            x = int(rng.integers(-(1 << 16), 1 << 16))
            s = (int(rng.integers(0, 2)) << 31) | (int(rng.integers(100, 160)) << 23) | int(rng.integers(0, 1 << 23))
        v.append((x, s, int(rng.integers(0, 2))))
    return v


@pytest.mark.parametrize("seed", [1])
def test_scale_matches_model(tb, tmp_path: Path, seed: int, record_property) -> None:
    rng = np.random.default_rng(seed)
    vectors = make_vectors(rng, 10000)
    run = run_scale(tb, vectors, tmp_path)
    want = expected(vectors)
    bad = [(vec, g, w) for vec, g, w in zip(vectors, run.y, want, strict=True) if g != w]
    record_property("vectors", len(vectors))
    record_property("wall_s", round(run.wall_s, 2))
    assert not bad, f"{len(bad)} of {len(vectors)} differ; first (x, scale bits, to_i8), rtl, model: " + "; ".join(
        f"({x}, {s:#010x}, {t}) {g} {w}" for (x, s, t), g, w in bad[:8]
    )


def test_lint_wall_clean_and_synthesizable() -> None:
    """Verilator -Wall clean on its own, and none of the constructs sim/rtl forbids (tests/test_rtl_lint.py)."""
    import subprocess

    from pyslang.syntax import SyntaxTree
    from test_rtl_lint import violations

    from sim.tb.gemmini.scale_build import RTL_SOURCES
    from sim.verilator_tool import ensure_verilator_on_path

    ensure_verilator_on_path()
    cmd = ["verilator", "--lint-only", "-Wall", "--top-module", "gemmini_scale", *map(str, RTL_SOURCES)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    problems = [ln for ln in (r.stdout + r.stderr).splitlines() if ln.startswith("%")]
    assert not problems, "\n".join(problems)
    assert not violations(SyntaxTree.fromFile(str(RTL_SOURCES[-1])))
