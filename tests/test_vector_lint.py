"""The vector unit RTL is Verilator -Wall clean for several geometries and keeps
to sim/rtl's rules (no DPI, real, delays or $display)."""

from __future__ import annotations

import re
import subprocess

import pytest
from vector_support.harness import SOURCES, VEC, verilator_bin

RTL_SOURCES = [p for p in SOURCES if "tb" not in p.parts]


@pytest.mark.rtl
@pytest.mark.parametrize("vlen,dlen,memw", [(256, 64, 64), (2048, 256, 256), (512, 128, 64), (128, 32, 32)])
def test_lint_clean(vlen, dlen, memw):
    cmd = [
        verilator_bin(),
        "--lint-only",
        "-Wall",
        f"-GVLEN={vlen}",
        f"-GDLEN={dlen}",
        f"-GMemW={memw}",
        "--top-module",
        "vec_unit",
        *map(str, RTL_SOURCES),
    ]
    r = subprocess.run(cmd, capture_output=True, text=True)
    ours = [ln for ln in r.stderr.splitlines() if ln.startswith("%") and "/vector/" in ln]
    assert not ours, "\n".join(ours)
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("%Error") and "Exiting due to" not in ln]
    assert not errors, "\n".join(errors)


def test_synthesizable_subset():
    banned = re.compile(r"\bimport\s+\"DPI|\breal\b|\bshortreal\b|#\s*\d|\$display|\$write|\$finish|initial\b")
    for f in sorted(VEC.glob("*.sv")):
        code = re.sub(r"//.*", "", f.read_text())
        assert not banned.search(code), f"{f.name}: {banned.search(code).group(0)!r}"
