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

The verdict (result.json's ``status`` and the ``message`` that gives its reason)
is decided here too and nowhere else: :func:`status_of` maps how a run ended and
its output metrics onto ``pass|mismatch|trap|timeout|error``, :func:`reason_of`
words a failed ending, and the int8 rules (:func:`accept_float_op_steps`,
:func:`apply_accuracy`) adjust the verdict of a quantized case.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.outcome import RunOutcome


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


# ---------------------------------------------------------------------------
# The verdict

STATUSES = ("pass", "mismatch", "trap", "timeout", "error")

# baremetal's abort() (a compiled cf.assert, e.g. an embedding index out of range)
ABORT_EXIT = 134


def status_of(outcome: RunOutcome, outputs: dict[str, dict] | None = None) -> str:
    """Map how a run ended (and its output comparison) onto a result status."""
    if outcome.ending == "trap":
        return "trap"
    if outcome.ending == "timeout":
        return "timeout"
    if outcome.ending == "error" or not outcome.exited_ok:
        return "error"
    if outputs and any(o.get("mismatches", 0) for o in outputs.values()):
        return "mismatch"
    return "pass"


def reason_of(outcome: RunOutcome) -> str | None:
    """result.json's ``message`` for how the run ended: the runner's own words (a trap, a timeout), or for a
    program that exited with a nonzero code, that code (and abort's last UART line); None for a clean exit."""
    if outcome.message:
        return outcome.message
    if outcome.ending == "exit" and not outcome.exited_ok:
        said = outcome.uart.strip().splitlines()[-1] if outcome.uart.strip() else ""
        return f"the program exited with code {outcome.exit_code}" + (
            f" (abort: a failed run-time check; the program said {said!r})" if outcome.exit_code == ABORT_EXIT else ""
        )
    return None


def crashed_result(case: str, soc: str, target: str, error: Exception) -> dict:
    """The record of a case whose run raised instead of ending: status ``error``, the exception as reason
    (the suite reports every case, whatever went wrong)."""
    return {"case": case, "soc": soc, "target": target, "status": "error", "message": str(error)}


# An int8 program whose float ops (softmax, layer_norm on the core) are not ATen's bit for bit may end
# a few int8 steps from the host's int8 program, when every op matched on the device's own inputs: how
# many is the case's ``float_op_steps`` option (result.json's ``quant.float_op_steps``; default
# harness.quant.flow.DEFAULT_FLOAT_OP_STEPS).


def accept_float_op_steps(result: dict, quant_record: dict) -> None:
    """A mismatch of an int8 program with float ops passes when the localization found every op right on
    its device inputs (float ops within their tolerance, int8 ops bit for bit) and every output is within
    the case's ``float_op_steps`` int8 steps of the reference."""
    from harness.quant.flow import DEFAULT_FLOAT_OP_STEPS

    allowed = quant_record.get("float_op_steps", DEFAULT_FLOAT_OP_STEPS)
    loc = result.get("localization") or {}
    outputs = result.get("outputs") or {}
    if result["status"] != "mismatch" or not quant_record.get("float_ops") or not loc.get("done"):
        return
    if loc.get("first_bad") is not None or not outputs:
        return
    steps = [o.get("max_abs_err") for o in outputs.values()]
    if any(s is None or s > allowed for s in steps):
        return
    result["status"] = "pass"
    result["tolerance"] = f"exact, or within {allowed} int8 steps after float ops"
    result["message"] = (
        f"outputs within {int(max(steps))} int8 step(s) of the host's int8 program; every op matched on the "
        f"device's own inputs, so the steps come from float ops ({', '.join(quant_record['float_ops'][:4])})"
    )


def apply_accuracy(result: dict, quant_record: dict) -> None:
    """A bit-exact int8 run still fails when the int8 program is too far from the float32 module."""
    acc = quant_record.get("accuracy") or {}
    if result["status"] == "pass" and not acc.get("passed", True):
        result["status"] = "mismatch"
        result["reason"] = "accuracy"
        result["message"] = "int8 accuracy against the float32 module: " + "; ".join(acc["failures"])
