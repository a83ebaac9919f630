"""Instruction tables and operand conventions of the random RVV programs (:mod:`sim.randgen.vector`):
the registers the frame reserves, the families, each family's (mnemonic, operand shape) table, and the
mnemonics the generator can emit (the tests check the coverage against them)."""

from __future__ import annotations

from sim.randgen.vtypes import SEWS

BASE = "x27"  # s11: the data buffer; never written by the body
ADDR = "x26"  # s10: address of the current memory operand
AUX = "x25"  # s9: stride, or the index table address
AVL = "x5"  # t0
VLOUT = "x6"  # t1
VTREG = "x7"  # t2: vtype for vsetvl
SCALARS = (8, 9, *range(10, 25))  # random scalar operands (.vx forms) and x results
CSR_READS = ("vl", "vtype", "vstart", "vxsat", "vxrm", "vcsr", "vlenb", "fflags", "frm", "fcsr")

FAMILIES = ("int", "widen", "carry", "muldiv", "fixed", "fp", "red", "mask", "perm", "mem", "mix")
# "mix": every item from a random one of the others (interactions: vtype changes,
# memory between arithmetic, dependent instructions of different units).
ARITH_FAMILIES = tuple(f for f in FAMILIES if f not in ("mem", "mix"))
VSTART_TRAP_RATE = 0.06  # arithmetic items run at vstart != 0: both sides must trap


# ---- instruction tables (mnemonic, operand shape) -------------------------------

INT_OPS = [
    *[(f"{op}.{f}", f) for op in ("vadd", "vand", "vor", "vxor") for f in ("vv", "vx", "vi")],
    *[(f"vsub.{f}", f) for f in ("vv", "vx")],
    *[(f"vrsub.{f}", f) for f in ("vx", "vi")],
    *[(f"{op}.{f}", f if f != "vi" else "vu") for op in ("vsll", "vsrl", "vsra") for f in ("vv", "vx", "vi")],
    *[(f"{op}.{f}", f) for op in ("vminu", "vmin", "vmaxu", "vmax") for f in ("vv", "vx")],
    ("vmerge.vvm", "vvm"),
    ("vmerge.vxm", "vxm"),
    ("vmerge.vim", "vim"),
    ("vmv.v.v", "mv_v"),
    ("vmv.v.x", "mv_x"),
    ("vmv.v.i", "mv_i"),
]
WIDEN_OPS = [
    *[(f"{op}.{f}", "w" + f) for op in ("vwaddu", "vwadd", "vwsubu", "vwsub") for f in ("vv", "vx", "wv", "wx")],
    *[(f"{op}.{f}", "w" + f) for op in ("vwmul", "vwmulu", "vwmulsu") for f in ("vv", "vx")],
    *[(f"{op}.{f}", "wma_" + f) for op in ("vwmaccu", "vwmacc", "vwmaccsu") for f in ("vv", "vx")],
    ("vwmaccus.vx", "wma_vx"),
    *[(f"{op}.{f}", "n" + f) for op in ("vnsrl", "vnsra") for f in ("wv", "wx", "wi")],
    ("vzext.vf2", "ext2"),
    ("vsext.vf2", "ext2"),
    ("vzext.vf4", "ext4"),
    ("vsext.vf4", "ext4"),
]
CARRY_OPS = [
    *[(f"vadc.{f}", f) for f in ("vvm", "vxm", "vim")],
    *[(f"vsbc.{f}", f) for f in ("vvm", "vxm")],
    *[(f"vmadc.{f}", "c" + f) for f in ("vvm", "vxm", "vim", "vv", "vx", "vi")],
    *[(f"vmsbc.{f}", "c" + f) for f in ("vvm", "vxm", "vv", "vx")],
    *[(f"{op}.{f}", "c" + f) for op in ("vmseq", "vmsne", "vmsleu", "vmsle") for f in ("vv", "vx", "vi")],
    *[(f"{op}.{f}", "c" + f) for op in ("vmsltu", "vmslt") for f in ("vv", "vx")],
    *[(f"{op}.{f}", "c" + f) for op in ("vmsgtu", "vmsgt") for f in ("vx", "vi")],
]
MULDIV_OPS = [
    *[
        (f"{op}.{f}", f)
        for op in ("vmul", "vmulh", "vmulhu", "vmulhsu", "vdivu", "vdiv", "vremu", "vrem")
        for f in ("vv", "vx")
    ],
    *[(f"{op}.{f}", "ma_" + f) for op in ("vmacc", "vnmsac", "vmadd", "vnmsub") for f in ("vv", "vx")],
]
FIXED_OPS = [
    *[(f"{op}.{f}", f) for op in ("vsaddu", "vsadd") for f in ("vv", "vx", "vi")],
    *[
        (f"{op}.{f}", f)
        for op in ("vssubu", "vssub", "vaaddu", "vaadd", "vasubu", "vasub", "vsmul")
        for f in ("vv", "vx")
    ],
    *[(f"{op}.{f}", f if f != "vi" else "vu") for op in ("vssrl", "vssra") for f in ("vv", "vx", "vi")],
    *[(f"{op}.{f}", "n" + f) for op in ("vnclipu", "vnclip") for f in ("wv", "wx", "wi")],
]
FP_OPS = [
    *[(f"{op}.{f}", f) for op in ("vfadd", "vfsub", "vfmul", "vfdiv", "vfmin", "vfmax") for f in ("vv", "vf")],
    *[(f"{op}.{f}", f) for op in ("vfsgnj", "vfsgnjn", "vfsgnjx") for f in ("vv", "vf")],
    ("vfrsub.vf", "vf"),
    ("vfrdiv.vf", "vf"),
    *[
        (f"{op}.{f}", "ma_" + f)
        for op in ("vfmacc", "vfnmacc", "vfmsac", "vfnmsac", "vfmadd", "vfnmadd", "vfmsub", "vfnmsub")
        for f in ("vv", "vf")
    ],
    *[
        (f"{op}.v", "v")
        for op in (
            "vfsqrt",
            "vfrec7",
            "vfrsqrt7",
            "vfclass",
            "vfcvt.xu.f",
            "vfcvt.x.f",
            "vfcvt.f.xu",
            "vfcvt.f.x",
            "vfcvt.rtz.xu.f",
            "vfcvt.rtz.x.f",
        )
    ],
    ("vfwcvt.f.xu.v", "fwcvt"),
    ("vfwcvt.f.x.v", "fwcvt"),
    *[(f"vfncvt.{t}.f.w", "fncvt") for t in ("xu", "x", "rtz.xu", "rtz.x")],
    *[(f"{op}.{f}", "c" + f) for op in ("vmfeq", "vmfne", "vmflt", "vmfle") for f in ("vv", "vf")],
    *[(f"{op}.vf", "cvf") for op in ("vmfgt", "vmfge")],
    ("vfmerge.vfm", "vfm"),
    ("vfmv.v.f", "mv_f"),
]
RED_OPS = [
    *[
        (f"{op}.vs", "red")
        for op in ("vredsum", "vredmaxu", "vredmax", "vredminu", "vredmin", "vredand", "vredor", "vredxor")
    ],
    ("vwredsumu.vs", "wred"),
    ("vwredsum.vs", "wred"),
    *[(f"{op}.vs", "fred") for op in ("vfredosum", "vfredusum", "vfredmax", "vfredmin")],
]
MASK_OPS = [
    *[(f"{op}.mm", "mm") for op in ("vmand", "vmnand", "vmandn", "vmxor", "vmor", "vmnor", "vmorn", "vmxnor")],
    ("vcpop.m", "xm"),
    ("vfirst.m", "xm"),
    ("vmsbf.m", "msf"),
    ("vmsif.m", "msf"),
    ("vmsof.m", "msf"),
    ("viota.m", "iota"),
    ("vid.v", "vid"),
]
PERM_OPS = [
    ("vslideup.vx", "slup_x"),
    ("vslideup.vi", "slup_i"),
    ("vslidedown.vx", "sldn_x"),
    ("vslidedown.vi", "sldn_i"),
    ("vslide1up.vx", "sl1up_x"),
    ("vslide1down.vx", "sl1dn_x"),
    ("vfslide1up.vf", "sl1up_f"),
    ("vfslide1down.vf", "sl1dn_f"),
    ("vrgather.vv", "gather_v"),
    ("vrgather.vx", "gather_x"),
    ("vrgather.vi", "gather_i"),
    ("vrgatherei16.vv", "gather16"),
    ("vcompress.vm", "vcompress"),
    ("vmv.x.s", "mv_xs"),
    ("vmv.s.x", "mv_sx"),
    ("vfmv.f.s", "mv_fs"),
    ("vfmv.s.f", "mv_sf"),
    *[(f"vmv{n}r.v", f"mvnr{n}") for n in (1, 2, 4, 8)],
]
MEM_KINDS = ("unit", "unit", "strided", "indexed", "indexed", "seg", "seg", "ff", "whole", "mask")

TABLES: dict[str, list[tuple[str, str]]] = {
    "int": INT_OPS,
    "widen": WIDEN_OPS,
    "carry": CARRY_OPS,
    "muldiv": MULDIV_OPS,
    "fixed": FIXED_OPS,
    "fp": FP_OPS,
    "red": RED_OPS,
    "mask": MASK_OPS,
    "perm": PERM_OPS,
}

# SEW constraints of operand shapes (the vtype the instruction runs under).
WIDE_SHAPES = {"wvv", "wvx", "wwv", "wwx", "wma_vv", "wma_vx", "nwv", "nwx", "nwi", "wred", "fwcvt", "fncvt"}


def mem_mnemonics() -> set[str]:
    """Every load/store mnemonic the memory family can emit."""
    out = {"vlm.v", "vsm.v"}
    for e in SEWS:
        out |= {f"vl{n}re{e}.v" for n in (1, 2, 4, 8)}
        for nf in range(1, 9):
            seg = f"seg{nf}" if nf > 1 else ""
            out |= {f"vl{seg}e{e}.v", f"vs{seg}e{e}.v", f"vl{seg}e{e}ff.v", f"vls{seg}e{e}.v", f"vss{seg}e{e}.v"}
            out |= {f"v{ls}{o}x{seg}ei{e}.v" for ls in "ls" for o in "uo"}
    return out | {f"vs{n}r.v" for n in (1, 2, 4, 8)}


def all_mnemonics() -> set[str]:
    """Every vector mnemonic the generator can emit (vset* aside)."""
    return {m for table in TABLES.values() for m, _ in table} | mem_mnemonics()


class Unfit(Exception):
    """The chosen instruction has no legal form under the constraints; pick another."""
