#!/usr/bin/env python3
"""Generate COVERAGE.md: every zve32f instruction and whether the vector unit
implements it.

The answer comes from the RTL itself: the decoder (vec_decoder.sv) is built with
Verilator into a small probe (sim/tb/vector/vec_decode_probe.cpp) and asked about
one representative encoding of each instruction under a vtype where the
instruction is legal per RVV 1.0 (e32/m1 unless the instruction needs another
SEW). "yes" means the decoder accepts it (and the unit executes it); "no" means it
answers illegal instruction.

    ./dev python sim/rtl/vector/gen_coverage.py            # rewrite COVERAGE.md
    ./dev python sim/rtl/vector/gen_coverage.py --check    # exit 1 if stale
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
PROBE_CPP = ROOT / "sim" / "tb" / "vector" / "vec_decode_probe.cpp"
SOURCES = [ROOT / "sim" / "rtl" / "cosim_pkg.sv", HERE / "vec_pkg.sv", HERE / "vec_decoder.sv"]
OUT = HERE / "COVERAGE.md"

# representative operands
VD, VS2, VS1, RS1 = 8, 16, 24, 10
OPIVV, OPFVV, OPMVV, OPIVI, OPIVX, OPFVF, OPMVX = 0, 1, 2, 3, 4, 5, 6
SEW_CODE = {8: 0, 16: 1, 32: 2}


def vtype(sew: int = 32, lmul_code: int = 0) -> int:
    return (SEW_CODE[sew] << 3) | lmul_code


@dataclass(frozen=True)
class Insn:
    group: str
    name: str
    word: int
    vtype: int = vtype()
    vstart: int = 0


def opv(f6: int, f3: int, vd: int = VD, vs2: int = VS2, vs1: int = VS1, vm: int = 1) -> int:
    return (f6 << 26) | (vm << 25) | (vs2 << 20) | (vs1 << 15) | (f3 << 12) | (vd << 7) | 0x57


def mem(store: bool, width: int, mop: int, rs2: int, nf: int = 0, vm: int = 1, vd: int = VD) -> int:
    return (
        (nf << 29)
        | (mop << 26)
        | (vm << 25)
        | (rs2 << 20)
        | (RS1 << 15)
        | (width << 12)
        | (vd << 7)
        | (0x27 if store else 0x07)
    )


FORM_F3 = {"vv": OPIVV, "vx": OPIVX, "vi": OPIVI}
MFORM_F3 = {"vv": OPMVV, "vx": OPMVX}
FFORM_F3 = {"vv": OPFVV, "vf": OPFVF}


def table() -> list[Insn]:
    t: list[Insn] = []

    def add(group: str, name: str, word: int, sew: int = 32, lmul_code: int = 0) -> None:
        t.append(Insn(group, name, word, vtype(sew, lmul_code)))

    # --- loads and stores --------------------------------------------------
    widths = {8: 0, 16: 5, 32: 6}
    for e, w in widths.items():
        add("load/store unit-stride", f"vle{e}.v", mem(False, w, 0, 0))
        add("load/store unit-stride", f"vse{e}.v", mem(True, w, 0, 0))
        add("load/store fault-only-first", f"vle{e}ff.v", mem(False, w, 0, 0x10))
        add("load/store strided", f"vlse{e}.v", mem(False, w, 2, 11))
        add("load/store strided", f"vsse{e}.v", mem(True, w, 2, 11))
        for mop, kind in ((1, "u"), (3, "o")):
            add("load/store indexed", f"vl{kind}xei{e}.v", mem(False, w, mop, VS2))
            add("load/store indexed", f"vs{kind}xei{e}.v", mem(True, w, mop, VS2))
    add("load/store mask", "vlm.v", mem(False, 0, 0, 0x0B))
    add("load/store mask", "vsm.v", mem(True, 0, 0, 0x0B))
    for nr in (1, 2, 4, 8):
        for e, w in widths.items():
            add("load/store whole-register", f"vl{nr}re{e}.v", mem(False, w, 0, 0x08, nf=nr - 1))
        add("load/store whole-register", f"vs{nr}r.v", mem(True, 0, 0, 0x08, nf=nr - 1))
    for nf in range(2, 9):
        for e, w in widths.items():
            add("load/store segment", f"vlseg{nf}e{e}.v", mem(False, w, 0, 0, nf=nf - 1, vd=0 + 0))
            add("load/store segment", f"vlseg{nf}e{e}ff.v", mem(False, w, 0, 0x10, nf=nf - 1, vd=0))
            add("load/store segment", f"vsseg{nf}e{e}.v", mem(True, w, 0, 0, nf=nf - 1, vd=0))
            add("load/store segment", f"vlsseg{nf}e{e}.v", mem(False, w, 2, 11, nf=nf - 1, vd=0))
            add("load/store segment", f"vssseg{nf}e{e}.v", mem(True, w, 2, 11, nf=nf - 1, vd=0))
            for mop, kind in ((1, "u"), (3, "o")):
                add("load/store segment", f"vl{kind}xseg{nf}ei{e}.v", mem(False, w, mop, VS2, nf=nf - 1, vd=0))
                add("load/store segment", f"vs{kind}xseg{nf}ei{e}.v", mem(True, w, mop, VS2, nf=nf - 1, vd=0))

    # --- integer -------------------------------------------------------------
    opi = [
        ("integer add/sub", "vadd", 0x00, "vv vx vi"),
        ("integer add/sub", "vsub", 0x02, "vv vx"),
        ("integer add/sub", "vrsub", 0x03, "vx vi"),
        ("integer min/max", "vminu", 0x04, "vv vx"),
        ("integer min/max", "vmin", 0x05, "vv vx"),
        ("integer min/max", "vmaxu", 0x06, "vv vx"),
        ("integer min/max", "vmax", 0x07, "vv vx"),
        ("integer bitwise", "vand", 0x09, "vv vx vi"),
        ("integer bitwise", "vor", 0x0A, "vv vx vi"),
        ("integer bitwise", "vxor", 0x0B, "vv vx vi"),
        ("integer compare", "vmseq", 0x18, "vv vx vi"),
        ("integer compare", "vmsne", 0x19, "vv vx vi"),
        ("integer compare", "vmsltu", 0x1A, "vv vx"),
        ("integer compare", "vmslt", 0x1B, "vv vx"),
        ("integer compare", "vmsleu", 0x1C, "vv vx vi"),
        ("integer compare", "vmsle", 0x1D, "vv vx vi"),
        ("integer compare", "vmsgtu", 0x1E, "vx vi"),
        ("integer compare", "vmsgt", 0x1F, "vx vi"),
        ("fixed-point", "vsaddu", 0x20, "vv vx vi"),
        ("fixed-point", "vsadd", 0x21, "vv vx vi"),
        ("fixed-point", "vssubu", 0x22, "vv vx"),
        ("fixed-point", "vssub", 0x23, "vv vx"),
        ("integer shift", "vsll", 0x25, "vv vx vi"),
        ("fixed-point", "vsmul", 0x27, "vv vx"),
        ("integer shift", "vsrl", 0x28, "vv vx vi"),
        ("integer shift", "vsra", 0x29, "vv vx vi"),
        ("fixed-point", "vssrl", 0x2A, "vv vx vi"),
        ("fixed-point", "vssra", 0x2B, "vv vx vi"),
        ("permutation", "vrgather", 0x0C, "vv vx vi"),
        ("permutation", "vslideup", 0x0E, "vx vi"),
        ("permutation", "vslidedown", 0x0F, "vx vi"),
    ]
    for group, name, f6, forms in opi:
        for form in forms.split():
            add(group, f"{name}.{form}", opv(f6, FORM_F3[form]))
    add("permutation", "vrgatherei16.vv", opv(0x0E, OPIVV))
    for form in ("vv", "vx", "vi"):
        m = form + "m"
        add("integer carry", f"vadc.{m}", opv(0x10, FORM_F3[form], vm=0))
        add("integer carry", f"vmadc.{m}", opv(0x11, FORM_F3[form], vm=0))
        add("integer carry", f"vmadc.{form}", opv(0x11, FORM_F3[form], vm=1))
        add("integer merge/move", f"vmerge.{m}", opv(0x17, FORM_F3[form], vm=0))
        add("integer merge/move", f"vmv.v.{form[1]}", opv(0x17, FORM_F3[form], vs2=0, vm=1))
        if form != "vi":
            add("integer carry", f"vsbc.{m}", opv(0x12, FORM_F3[form], vm=0))
            add("integer carry", f"vmsbc.{m}", opv(0x13, FORM_F3[form], vm=0))
            add("integer carry", f"vmsbc.{form}", opv(0x13, FORM_F3[form], vm=1))
    for nr in (1, 2, 4, 8):
        add("whole-register move", f"vmv{nr}r.v", opv(0x27, OPIVI, vd=8, vs2=16, vs1=nr - 1))
    for name, f6 in (("vnsrl", 0x2C), ("vnsra", 0x2D), ("vnclipu", 0x2E), ("vnclip", 0x2F)):
        group = "integer narrowing shift" if f6 < 0x2E else "fixed-point"
        for form, f3 in (("wv", OPIVV), ("wx", OPIVX), ("wi", OPIVI)):
            add(group, f"{name}.{form}", opv(f6, f3), sew=16)
    add("integer reduction", "vwredsumu.vs", opv(0x30, OPIVV), sew=16)
    add("integer reduction", "vwredsum.vs", opv(0x31, OPIVV), sew=16)
    for k, n in enumerate(["vredsum", "vredand", "vredor", "vredxor", "vredminu", "vredmin", "vredmaxu", "vredmax"]):
        add("integer reduction", f"{n}.vs", opv(k, OPMVV))
    for name, f6 in (("vaaddu", 0x08), ("vaadd", 0x09), ("vasubu", 0x0A), ("vasub", 0x0B)):
        for form in ("vv", "vx"):
            add("fixed-point", f"{name}.{form}", opv(f6, MFORM_F3[form]))
    add("permutation", "vslide1up.vx", opv(0x0E, OPMVX))
    add("permutation", "vslide1down.vx", opv(0x0F, OPMVX))
    add("scalar move", "vmv.x.s", opv(0x10, OPMVV, vs1=0))
    add("scalar move", "vmv.s.x", opv(0x10, OPMVX, vs2=0))
    add("mask", "vcpop.m", opv(0x10, OPMVV, vs1=0x10))
    add("mask", "vfirst.m", opv(0x10, OPMVV, vs1=0x11))
    for name, code, sew in (
        ("vzext.vf4", 0x04, 32),
        ("vsext.vf4", 0x05, 32),
        ("vzext.vf2", 0x06, 32),
        ("vsext.vf2", 0x07, 32),
    ):
        add("integer extension", name, opv(0x12, OPMVV, vs1=code), sew=sew)
    for name, code in (("vmsbf.m", 0x01), ("vmsof.m", 0x02), ("vmsif.m", 0x03), ("viota.m", 0x10)):
        add("mask", name, opv(0x14, OPMVV, vs1=code))
    add("mask", "vid.v", opv(0x14, OPMVV, vs2=0, vs1=0x11))
    add("permutation", "vcompress.vm", opv(0x17, OPMVV))
    for k, n in enumerate(["vmandn", "vmand", "vmor", "vmxor", "vmorn", "vmnand", "vmnor", "vmxnor"]):
        add("mask", f"{n}.mm", opv(0x18 + k, OPMVV))
    mops = [
        ("integer divide", "vdivu", 0x20),
        ("integer divide", "vdiv", 0x21),
        ("integer divide", "vremu", 0x22),
        ("integer divide", "vrem", 0x23),
        ("integer multiply", "vmulhu", 0x24),
        ("integer multiply", "vmul", 0x25),
        ("integer multiply", "vmulhsu", 0x26),
        ("integer multiply", "vmulh", 0x27),
        ("integer multiply-add", "vmadd", 0x29),
        ("integer multiply-add", "vnmsub", 0x2B),
        ("integer multiply-add", "vmacc", 0x2D),
        ("integer multiply-add", "vnmsac", 0x2F),
    ]
    for group, name, f6 in mops:
        for form in ("vv", "vx"):
            add(group, f"{name}.{form}", opv(f6, MFORM_F3[form]))
    wops = [
        ("vwaddu", 0x30),
        ("vwadd", 0x31),
        ("vwsubu", 0x32),
        ("vwsub", 0x33),
        ("vwaddu.w", 0x34),
        ("vwadd.w", 0x35),
        ("vwsubu.w", 0x36),
        ("vwsub.w", 0x37),
        ("vwmulu", 0x38),
        ("vwmulsu", 0x3A),
        ("vwmul", 0x3B),
        ("vwmaccu", 0x3C),
        ("vwmacc", 0x3D),
        ("vwmaccsu", 0x3F),
    ]
    for name, f6 in wops:
        for form in ("vv", "vx"):
            suffix = ("w" + form[1]) if name.endswith(".w") else form
            add("integer widening", f"{name.removesuffix('.w')}.{suffix}", opv(f6, MFORM_F3[form]), sew=16)
    add("integer widening", "vwmaccus.vx", opv(0x3E, OPMVX), sew=16)

    # --- floating point ------------------------------------------------------
    fops = [
        ("fp add", "vfadd", 0x00, "vv vf"),
        ("fp add", "vfsub", 0x02, "vv vf"),
        ("fp add", "vfrsub", 0x27, "vf"),
        ("fp min/max", "vfmin", 0x04, "vv vf"),
        ("fp min/max", "vfmax", 0x06, "vv vf"),
        ("fp sign-injection", "vfsgnj", 0x08, "vv vf"),
        ("fp sign-injection", "vfsgnjn", 0x09, "vv vf"),
        ("fp sign-injection", "vfsgnjx", 0x0A, "vv vf"),
        ("fp compare", "vmfeq", 0x18, "vv vf"),
        ("fp compare", "vmfle", 0x19, "vv vf"),
        ("fp compare", "vmflt", 0x1B, "vv vf"),
        ("fp compare", "vmfne", 0x1C, "vv vf"),
        ("fp compare", "vmfgt", 0x1D, "vf"),
        ("fp compare", "vmfge", 0x1F, "vf"),
        ("fp divide", "vfdiv", 0x20, "vv vf"),
        ("fp divide", "vfrdiv", 0x21, "vf"),
        ("fp multiply", "vfmul", 0x24, "vv vf"),
        ("fp fused multiply-add", "vfmadd", 0x28, "vv vf"),
        ("fp fused multiply-add", "vfnmadd", 0x29, "vv vf"),
        ("fp fused multiply-add", "vfmsub", 0x2A, "vv vf"),
        ("fp fused multiply-add", "vfnmsub", 0x2B, "vv vf"),
        ("fp fused multiply-add", "vfmacc", 0x2C, "vv vf"),
        ("fp fused multiply-add", "vfnmacc", 0x2D, "vv vf"),
        ("fp fused multiply-add", "vfmsac", 0x2E, "vv vf"),
        ("fp fused multiply-add", "vfnmsac", 0x2F, "vv vf"),
    ]
    for group, name, f6, forms in fops:
        for form in forms.split():
            add(group, f"{name}.{form}", opv(f6, FFORM_F3[form]))
    for k, n in ((1, "vfredusum"), (3, "vfredosum"), (5, "vfredmin"), (7, "vfredmax")):
        add("fp reduction", f"{n}.vs", opv(k, OPFVV))
    add("permutation", "vfslide1up.vf", opv(0x0E, OPFVF))
    add("permutation", "vfslide1down.vf", opv(0x0F, OPFVF))
    add("scalar move", "vfmv.f.s", opv(0x10, OPFVV, vs1=0))
    add("scalar move", "vfmv.s.f", opv(0x10, OPFVF, vs2=0))
    add("fp merge/move", "vfmerge.vfm", opv(0x17, OPFVF, vm=0))
    add("fp merge/move", "vfmv.v.f", opv(0x17, OPFVF, vs2=0))
    for name, code, sew in (
        ("vfcvt.xu.f.v", 0x00, 32),
        ("vfcvt.x.f.v", 0x01, 32),
        ("vfcvt.f.xu.v", 0x02, 32),
        ("vfcvt.f.x.v", 0x03, 32),
        ("vfcvt.rtz.xu.f.v", 0x06, 32),
        ("vfcvt.rtz.x.f.v", 0x07, 32),
        ("vfwcvt.f.xu.v", 0x0A, 16),
        ("vfwcvt.f.x.v", 0x0B, 16),
        ("vfncvt.xu.f.w", 0x10, 16),
        ("vfncvt.x.f.w", 0x11, 16),
        ("vfncvt.rtz.xu.f.w", 0x16, 16),
        ("vfncvt.rtz.x.f.w", 0x17, 16),
    ):
        add("fp conversion", name, opv(0x12, OPFVV, vs1=code), sew=sew)
    for name, code in (("vfsqrt.v", 0x00), ("vfrsqrt7.v", 0x04), ("vfrec7.v", 0x05), ("vfclass.v", 0x10)):
        add("fp unary", name, opv(0x13, OPFVV, vs1=code))
    return t


def build_probe() -> Path:
    h = hashlib.sha256()
    for f in [*SOURCES, PROBE_CPP]:
        h.update(f.read_bytes())
    key = h.hexdigest()[:16]
    base = ROOT / "build" / "vector_probe"
    out = base / key
    exe = out / "Vvec_decoder"
    base.mkdir(parents=True, exist_ok=True)
    with open(base / f".{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if exe.exists():
            return exe
        verilator = shutil.which("verilator") or shutil.which("verilator-cli")
        if verilator is None:
            sys.exit("gen_coverage: verilator not found; run through ./dev")
        tmp = Path(tempfile.mkdtemp(dir=base, prefix=".tmp_"))
        cmd = [
            verilator,
            "--cc",
            "--exe",
            "--build",
            "-j",
            "2",
            "-Wno-fatal",
            "--top-module",
            "vec_decoder",
            "-MAKEFLAGS",
            "CFG_CXXFLAGS_PCH_I=-include",
            "--Mdir",
            str(tmp),
            *map(str, SOURCES),
            str(PROBE_CPP),
        ]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            sys.exit(f"gen_coverage: Verilator build of the decoder probe failed:\n{r.stdout}\n{r.stderr}")
        if out.exists():
            shutil.rmtree(out)
        tmp.rename(out)
        return exe


def probe(insns: list[Insn]) -> list[bool]:
    exe = build_probe()
    inp = "".join(f"{i.word:x} {i.vtype:x} {i.vstart:x}\n" for i in insns)
    r = subprocess.run([str(exe)], input=inp, capture_output=True, text=True, check=True)
    return [ln.strip() == "1" for ln in r.stdout.split()]


def render(insns: list[Insn], legal: list[bool]) -> str:
    groups: dict[str, list[tuple[Insn, bool]]] = {}
    for i, ok in zip(insns, legal, strict=True):
        groups.setdefault(i.group, []).append((i, ok))
    total, done = len(insns), sum(legal)
    lines = [
        "# Vector unit: zve32f instruction coverage",
        "",
        "Generated by `sim/rtl/vector/gen_coverage.py` from the decoder RTL (each instruction's",
        'encoding is presented to `vec_decoder.sv`; "yes" = accepted and executed, "no" =',
        "answers illegal instruction). Do not edit by hand.",
        "",
        f"**{done} of {total} instructions implemented.**",
        "",
        "| group | implemented | total |",
        "|---|---|---|",
    ]
    for g, rows in groups.items():
        lines.append(f"| {g} | {sum(ok for _, ok in rows)} | {len(rows)} |")
    lines += ["", "| group | instruction | probe encoding | vtype | implemented |", "|---|---|---|---|---|"]
    for g, rows in groups.items():
        for i, ok in rows:
            lines.append(f"| {g} | `{i.name}` | `{i.word:#010x}` | `{i.vtype:#x}` | {'yes' if ok else 'no'} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if COVERAGE.md is not up to date")
    ap.add_argument("-o", "--output", type=Path, default=OUT)
    args = ap.parse_args()
    insns = table()
    text = render(insns, probe(insns))
    if args.check:
        if not args.output.exists() or args.output.read_text() != text:
            print(f"{args.output} is stale: run sim/rtl/vector/gen_coverage.py", file=sys.stderr)
            return 1
        return 0
    args.output.write_text(text)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
