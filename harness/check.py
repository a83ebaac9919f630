r"""Compare a run's outputs with eager PyTorch on the host.

Each case names an op class; the class fixes the tolerance (documented here,
the one place it is defined):

| class            | ops                                          | an element passes if |
|------------------|----------------------------------------------|----------------------|
| `exact`          | relu, max pooling, permute/reshape, copies, integer ops | bit-identical (NaN == NaN) |
| `elementwise`    | add/mul/sub, scaling: one rounding per op     | <= 2 ULP |
| `reduction`      | matmul, conv, linear, mean, softmax, layer_norm: sums in another order | <= 64 ULP, or abs err <= 1e-5 * (1 + max\|ref\|) |
| `transcendental` | gelu, exp, tanh, erf (our polynomials)        | <= 64 ULP, or abs err <= 1e-5 * (1 + max\|ref\|) |

The absolute term covers sums that cancel to near zero, where ULPs of the result
say nothing about the accuracy of the computation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Tolerance:
    name: str
    max_ulp: int
    abs_scale: float  # allowed abs error = abs_scale * (1 + max|ref|); 0 = none


TOLERANCES = {
    "exact": Tolerance("exact", 0, 0.0),
    "elementwise": Tolerance("elementwise", 2, 0.0),
    "reduction": Tolerance("reduction", 64, 1e-5),
    "transcendental": Tolerance("transcendental", 64, 1e-5),
}

FIRST_MISMATCHES = 8


def ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """ULPs between binary32 values (0 for equal, including -0 vs +0 and NaN vs NaN)."""
    a = np.asarray(a, dtype=np.float32)
    b = np.asarray(b, dtype=np.float32)

    def ordered(x):
        i = x.view(np.int32).astype(np.int64)
        return np.where(i < 0, -(i & 0x7FFFFFFF), i)

    d = np.abs(ordered(a) - ordered(b))
    both_nan = np.isnan(a) & np.isnan(b)
    one_nan = np.isnan(a) ^ np.isnan(b)
    d = np.where(both_nan, 0, d)
    return np.where(one_nan, np.iinfo(np.int64).max, d)


def compare(got: np.ndarray, ref: np.ndarray, tolerance: str | Tolerance = "exact") -> dict:
    """Metrics for one output: max_abs_err, max_ulp_err, mismatches, first mismatches."""
    tol = TOLERANCES[tolerance] if isinstance(tolerance, str) else tolerance
    got = np.asarray(got)
    ref = np.asarray(ref)
    result: dict = {"tolerance": tol.name, "shape": list(ref.shape), "dtype": str(ref.dtype)}
    if got.shape != ref.shape:
        result.update(max_abs_err=None, max_ulp_err=None, mismatches=int(ref.size) or 1)
        result["error"] = f"shape {list(got.shape)} != reference shape {list(ref.shape)}"
        return result
    if ref.dtype.kind == "f":
        g32, r32 = got.astype(np.float32), ref.astype(np.float32)
        with np.errstate(invalid="ignore", over="ignore"):
            abs_err = np.abs(g32.astype(np.float64) - r32.astype(np.float64))
        # equal values (same infinities included: inf - inf is NaN) and NaN vs NaN differ by 0
        abs_err = np.where((g32 == r32) | (np.isnan(g32) & np.isnan(r32)), 0.0, abs_err)
        abs_err = np.where(np.isnan(abs_err), np.inf, abs_err)
        ulp = ulp_distance(g32, r32)
        if tol.max_ulp == 0:
            ok = (g32.view(np.uint32) == r32.view(np.uint32)) | (np.isnan(g32) & np.isnan(r32))
        else:
            finite = r32[np.isfinite(r32)]
            scale = 1.0 + (float(np.max(np.abs(finite))) if finite.size else 0.0)
            ok = (ulp <= tol.max_ulp) | (abs_err <= tol.abs_scale * scale)
        max_abs = float(np.max(abs_err)) if abs_err.size else 0.0
        max_ulp = int(np.max(ulp)) if ulp.size else 0
    else:
        ok = got == ref
        diff = np.abs(got.astype(np.int64) - ref.astype(np.int64))
        max_abs = float(np.max(diff)) if diff.size else 0.0
        max_ulp = int(max_abs)
    bad = np.argwhere(~ok)
    result.update(max_abs_err=max_abs, max_ulp_err=max_ulp, mismatches=int(bad.shape[0]))
    if bad.shape[0]:
        result["first_mismatches"] = [
            {"index": [int(i) for i in idx], "got": _scalar(got[tuple(idx)]), "expected": _scalar(ref[tuple(idx)])}
            for idx in bad[:FIRST_MISMATCHES]
        ]
    return result


def _scalar(v) -> float | int | str:
    v = v.item()
    if isinstance(v, float) and not np.isfinite(v):
        return str(v)
    return v


def compare_all(got: dict[str, np.ndarray], ref: dict[str, np.ndarray], tolerance: str) -> dict[str, dict]:
    """Compare every reference output; a missing output counts as all mismatches."""
    out = {}
    for name, r in ref.items():
        if name not in got:
            out[name] = {
                "max_abs_err": None,
                "max_ulp_err": None,
                "mismatches": int(np.asarray(r).size) or 1,
                "error": "output missing",
                "tolerance": tolerance,
            }
        else:
            out[name] = compare(got[name], r, tolerance)
    return out
