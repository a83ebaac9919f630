"""COVERAGE.md is generated from the decoder RTL and is up to date; the decoder's
answers for every zve32f instruction agree with the reference model's idea of
what is implemented (two independent implementations of the legality rules)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from vector_support.model import Model

ROOT = Path(__file__).resolve().parents[1]
GEN = ROOT / "sim" / "rtl" / "vector" / "gen_coverage.py"


def _gen():
    spec = importlib.util.spec_from_file_location("vec_gen_coverage", GEN)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["vec_gen_coverage"] = mod  # dataclasses need the module registered
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.rtl
def test_coverage_table_is_current():
    r = subprocess.run([sys.executable, str(GEN), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.rtl
def test_decoder_agrees_with_model_on_every_zve32f_instruction():
    gen = _gen()
    insns = gen.table()
    legal = gen.probe(insns)
    assert len(insns) > 500 and len({i.name for i in insns}) == len(insns)
    disagree = []
    for i, rtl in zip(insns, legal, strict=True):
        m = Model(256)
        ref = m.execute(i.word, 0x4000_0000, 4, i.vtype, 4, i.vstart) is not None
        if ref != rtl:
            disagree.append(f"{i.name} ({i.word:#010x}): RTL {rtl}, model {ref}")
    assert not disagree, "\n".join(disagree)
    names = {i.name for i, ok in zip(insns, legal, strict=True) if ok}
    # the families the random tests exercise are all present
    for n in (
        "vle32.v",
        "vsse16.v",
        "vluxei8.v",
        "vl8re32.v",
        "vsm.v",
        "vadd.vi",
        "vmsgtu.vx",
        "vmacc.vv",
        "vredmax.vs",
        "vslide1down.vx",
        "vrgatherei16.vv",
        "vmv4r.v",
        "vcpop.m",
        "vid.v",
        "vfmacc.vf",
        "vfredosum.vs",
        "vmfge.vf",
        "vfcvt.rtz.x.f.v",
        "vfmv.f.s",
        "vfdiv.vf",
        "vfsqrt.v",
        "vwmaccsu.vx",
        "vsext.vf4",
        "vfwcvt.f.x.v",
        "vsmul.vx",
        "vaaddu.vv",
        "vssra.vi",
        "vmsbf.m",
        "viota.m",
        "vcompress.vm",
        "vlseg8e8.v",
        "vssseg3e32.v",
        "vloxseg2ei16.v",
        "vlseg4e16ff.v",
        "vnclip.wi",
        "vnsra.wx",
        "vfncvt.rtz.xu.f.w",
        "vwredsumu.vs",
    ):
        assert n in names, n


def test_unimplemented_families_listed():
    text = (ROOT / "sim" / "rtl" / "vector" / "COVERAGE.md").read_text()
    assert "| load/store segment | 0 |" in text or "load/store segment" in text
    assert "`vfrec7.v`" in text
