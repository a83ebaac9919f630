"""``nox -s verify`` case sources of the built-in int8 cases on the Gemmini configs.

A built-in case whose ``int8`` is ``"suite"`` (:func:`harness.cases.gemmini_cases`) is quantized and
verified bit for bit against its int8 reference (and for accuracy against its float32 module) on
Spike on every config of :data:`ISS_SOCS`, and on the RTL of :data:`RTL_SOCS` (but :data:`RTL_SLOW`). The ``"slow"``
ones (ResNet-18) are in the slow tests (``tests/test_gemmini_cases.py``).
"""

from __future__ import annotations

ISS_SOCS = ("gemmini-dim4", "gemmini-dim16")
# gemmini-dim16's RTL runs are in the slow tests: its build and each run take minutes.
RTL_SOCS = ("gemmini-dim4",)
# Cases whose RTL run is in the slow tests only, to keep ``nox -s verify`` under 5 minutes: lenet5 (551 065
# cycles, 42 s), conv2d_depthwise (16 one-channel layers, 151 591 cycles, 36 s on the shared machine).
RTL_SLOW = ("lenet5", "conv2d_depthwise")


def _cases(socs: tuple[str, ...], target: str, skip: tuple[str, ...] = ()) -> list:
    from harness.cases import gemmini_cases
    from harness.verify import verify
    from harness.verify_suite import Case

    return [
        Case(
            id=f"torch:{c.name}@{soc}/{target}",
            soc=soc,
            target=target,
            kind="torch-int8",
            run=lambda workdir, n=c.name, s=soc: verify(n, s, on=target, workdir=workdir),
        )
        for soc in socs
        for c in gemmini_cases("suite")
        if c.name not in skip
    ]


def verify_cases() -> list:
    """The int8 cases on the Gemmini configs, on Spike."""
    return _cases(ISS_SOCS, "iss")


def verify_cases_rtl() -> list:
    """The int8 cases on the gemmini-dim4 RTL."""
    return _cases(RTL_SOCS, "rtl", skip=RTL_SLOW)
