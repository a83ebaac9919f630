"""Reference model of the RVV 1.0 semantics the vector unit implements.

Written from the RVV 1.0 specification (and Spike's observable behaviour:
agnostic elements are left undisturbed), independently of the RTL. State: the
register file as bytes (v0 first, VLEN/8 bytes per register) and a sparse byte
memory. `execute` returns None for an illegal instruction, else a dict with the
x-register result (if any) and vxsat.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from sim.tb.fpu.ops import FpuOp as F
from sim.tb.fpu.oracle import reference as fpu_ref

from .rvv import FVF, FVV, IVI, IVV, IVX, MVV, MVX

CANONICAL_NAN = 0x7FC00000
# OPFVV/OPFVF funct6 -> (name, forms)
FP_OPS = {
    0x00: ("fadd", "vf"),
    0x02: ("fsub", "vf"),
    0x27: ("frsub", "f"),
    0x24: ("fmul", "vf"),
    0x20: ("fdiv", "vf"),
    0x21: ("frdiv", "f"),
    0x28: ("fmadd", "vf"),
    0x29: ("fnmadd", "vf"),
    0x2A: ("fmsub", "vf"),
    0x2B: ("fnmsub", "vf"),
    0x2C: ("fmacc", "vf"),
    0x2D: ("fnmacc", "vf"),
    0x2E: ("fmsac", "vf"),
    0x2F: ("fnmsac", "vf"),
    0x04: ("fmin", "vf"),
    0x06: ("fmax", "vf"),
    0x08: ("fsgnj", "vf"),
    0x09: ("fsgnjn", "vf"),
    0x0A: ("fsgnjx", "vf"),
    0x18: ("mfeq", "vf"),
    0x19: ("mfle", "vf"),
    0x1B: ("mflt", "vf"),
    0x1C: ("mfne", "vf"),
    0x1D: ("mfgt", "f"),
    0x1F: ("mfge", "f"),
}
FCVT = {
    0x00: ("xu.f", F.CVT_WU_S, None),
    0x01: ("x.f", F.CVT_W_S, None),
    0x02: ("f.xu", F.CVT_S_WU, None),
    0x03: ("f.x", F.CVT_S_W, None),
    0x06: ("rtz.xu.f", F.CVT_WU_S, 1),
    0x07: ("rtz.x.f", F.CVT_W_S, 1),
}

INT_OPS = {  # funct6 -> (name, forms) for OPIVV/OPIVX/OPIVI
    0x00: ("add", "vxi"),
    0x02: ("sub", "vx"),
    0x03: ("rsub", "xi"),
    0x04: ("minu", "vx"),
    0x05: ("min", "vx"),
    0x06: ("maxu", "vx"),
    0x07: ("max", "vx"),
    0x09: ("and", "vxi"),
    0x0A: ("or", "vxi"),
    0x0B: ("xor", "vxi"),
    0x0C: ("rgather", "vxi"),
    0x0E: ("slideup", "xiv"),
    0x0F: ("slidedown", "xi"),
    0x10: ("adc", "vxi"),
    0x11: ("madc", "vxi"),
    0x12: ("sbc", "vx"),
    0x13: ("msbc", "vx"),
    0x17: ("merge", "vxi"),
    0x18: ("mseq", "vxi"),
    0x19: ("msne", "vxi"),
    0x1A: ("msltu", "vx"),
    0x1B: ("mslt", "vx"),
    0x1C: ("msleu", "vxi"),
    0x1D: ("msle", "vxi"),
    0x1E: ("msgtu", "xi"),
    0x1F: ("msgt", "xi"),
    0x20: ("saddu", "vxi"),
    0x21: ("sadd", "vxi"),
    0x22: ("ssubu", "vx"),
    0x23: ("ssub", "vx"),
    0x25: ("sll", "vxi"),
    0x27: ("wholemv", "vxi"),
    0x28: ("srl", "vxi"),
    0x29: ("sra", "vxi"),
    0x2A: ("ssrl", "vxi"),
    0x2B: ("ssra", "vxi"),
    0x30: ("wredsumu", "v"),
    0x31: ("wredsum", "v"),
    0x2C: ("nsrl", "vxi"),
    0x2D: ("nsra", "vxi"),
    0x2E: ("nclipu", "vxi"),
    0x2F: ("nclip", "vxi"),
}
M_OPS = {  # funct6 -> name for OPMVV/OPMVX element-wise ops
    0x08: "aaddu",
    0x09: "aadd",
    0x0A: "asubu",
    0x0B: "asub",
    0x20: "divu",
    0x21: "div",
    0x22: "remu",
    0x23: "rem",
    0x24: "mulhu",
    0x25: "mul",
    0x26: "mulhsu",
    0x27: "mulh",
    0x29: "madd",
    0x2B: "nmsub",
    0x2D: "macc",
    0x2F: "nmsac",
}
RED_OPS = ["redsum", "redand", "redor", "redxor", "redminu", "redmin", "redmaxu", "redmax"]
MASK_OPS = ["mandn", "mand", "mor", "mxor", "morn", "mnand", "mnor", "mxnor"]
CMP = {"mseq", "msne", "msltu", "mslt", "msleu", "msle", "msgtu", "msgt"}


def roundoff(v: int, d: int, vxrm: int) -> int:
    """(v >> d) rounded per vxrm (rnu, rne, rdn, rod); v is an exact integer."""
    if d == 0:
        return v
    lsb, half, below = (v >> d) & 1, (v >> (d - 1)) & 1, v & ((1 << (d - 1)) - 1)
    r = [half, half & (below != 0 or lsb), 0, int(not lsb and (half or below != 0))][vxrm]
    return (v >> d) + r


def sx(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


# --- vfrec7.v / vfrsqrt7.v (RVV 1.0 "reciprocal (square-root) estimate") -------------
# Table entry i is the estimate at the midpoint m of input interval i, rounded to 7
# fraction bits: 1/m for the reciprocal (m in [1, 2), interval width 2^-7), 1/sqrt(m) for
# the square root (m in [1, 4): index bit 6 = exponent LSB, bits 5..0 = 6 fraction bits).
REC7_TABLE = [round(128 * (2 / (1 + (i + 0.5) / 128) - 1)) for i in range(128)]
RSQRT7_TABLE = [
    round(128 * (2 / math.sqrt((2 if i < 64 else 1) * (1 + ((i & 63) + 0.5) / 64)) - 1)) for i in range(128)
]
NV, DZ, OF, NX = 0x10, 0x08, 0x04, 0x01


def _est_operand(x: int) -> tuple[int, int, int]:
    """sign, normalized biased exponent (<= 0 for subnormals), 23-bit fraction."""
    sign, exp, frac = x >> 31, (x >> 23) & 0xFF, x & 0x7FFFFF
    if exp == 0:
        while not frac & 0x400000:
            frac <<= 1
            exp -= 1
        frac = (frac << 1) & 0x7FFFFF
    return sign, exp, frac


def frec7(x: int, rm: int) -> tuple[int, int]:
    sign, exp, frac = x >> 31, (x >> 23) & 0xFF, x & 0x7FFFFF
    if exp == 0xFF:
        if frac:
            return CANONICAL_NAN, (0 if frac & 0x400000 else NV)
        return sign << 31, 0
    if exp == 0 and frac == 0:
        return (sign << 31) | 0x7F800000, DZ
    sign, e, f = _est_operand(x)
    if e < -1:  # |x| < 2^-128: 1/x overflows
        to_max = rm == 1 or (rm == 2 and not sign) or (rm == 3 and sign)
        return (sign << 31) | (0x7F7FFFFF if to_max else 0x7F800000), OF | NX
    oe = 2 * 127 - 1 - e
    sig = (1 << 7) | REC7_TABLE[f >> 16]  # 1.ttttttt
    if oe >= 1:
        return (sign << 31) | (oe << 23) | ((sig & 0x7F) << 16), 0
    # subnormal result 1.t x 2^(oe-127) = (1.t >> (1-oe)) x 2^-126, truncated
    return (sign << 31) | ((sig << 16) >> (1 - oe)), 0


def frsqrt7(x: int) -> tuple[int, int]:
    sign, exp, frac = x >> 31, (x >> 23) & 0xFF, x & 0x7FFFFF
    if exp == 0xFF and frac:
        return CANONICAL_NAN, (0 if frac & 0x400000 else NV)
    if exp == 0 and frac == 0:
        return (sign << 31) | 0x7F800000, DZ
    if sign:
        return CANONICAL_NAN, NV
    if exp == 0xFF:
        return 0, 0
    _, e, f = _est_operand(x)
    oe = (3 * 127 - 1 - e) // 2
    return (oe << 23) | (RSQRT7_TABLE[((e & 1) << 6) | (f >> 17)] << 16), 0


@dataclass
class VState:
    vlen: int
    vrf: bytearray = field(default=None)  # type: ignore[assignment]
    mem: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.vrf is None:
            self.vrf = bytearray(32 * self.vlen // 8)

    @property
    def vlenb(self) -> int:
        return self.vlen // 8

    # element access within a register group
    def get(self, reg: int, i: int, eew: int) -> int:
        eb = eew // 8
        o = reg * self.vlenb + i * eb
        return int.from_bytes(self.vrf[o : o + eb], "little")

    def set(self, reg: int, i: int, eew: int, v: int) -> None:
        eb = eew // 8
        o = reg * self.vlenb + i * eb
        self.vrf[o : o + eb] = (v & ((1 << eew) - 1)).to_bytes(eb, "little")

    def mbit(self, reg: int, i: int) -> int:
        return (self.vrf[reg * self.vlenb + i // 8] >> (i % 8)) & 1

    def set_mbit(self, reg: int, i: int, b: int) -> None:
        o = reg * self.vlenb + i // 8
        self.vrf[o] = (self.vrf[o] & ~(1 << (i % 8))) | ((b & 1) << (i % 8))

    def load(self, a: int, n: int) -> int:
        return int.from_bytes(bytes(self.mem.get(a + k, 0) for k in range(n)), "little")

    def store(self, a: int, n: int, v: int) -> None:
        for k in range(n):
            self.mem[a + k] = (v >> (8 * k)) & 0xFF


def _overlap(a: int, an: int, b: int, bn: int) -> bool:
    return a < b + bn and b < a + an


def _aligned(r: int, n: int) -> bool:
    return r % n == 0


def _widen_ok(d: int, dn: int, s: int, sn: int, frac: bool) -> bool:
    """A wider destination group may overlap a narrower source only in its top part."""
    if not _overlap(d, dn, s, sn):
        return True
    return not frac and d < s and s + sn == d + dn


# widening integer ops (OPMVV/OPMVX funct6): name, vs2 narrow?, vs2 signed, vs1/rs1 signed
W_OPS = {
    0x30: ("add", 1, 0, 0),
    0x31: ("add", 1, 1, 1),
    0x32: ("sub", 1, 0, 0),
    0x33: ("sub", 1, 1, 1),
    0x34: ("add", 0, 0, 0),
    0x35: ("add", 0, 1, 1),
    0x36: ("sub", 0, 0, 0),
    0x37: ("sub", 0, 1, 1),
    0x38: ("mul", 1, 0, 0),
    0x3A: ("mul", 1, 1, 0),
    0x3B: ("mul", 1, 1, 1),
    0x3C: ("macc", 1, 0, 0),
    0x3D: ("macc", 1, 1, 1),
    0x3E: ("macc", 1, 1, 0),
    0x3F: ("macc", 1, 0, 1),
}


class Model:
    def __init__(self, vlen: int):
        self.vlen = vlen
        self.s = VState(vlen)

    # -- helpers -------------------------------------------------------------
    def _vt(self, vtype: int):
        vill = (vtype >> 31) & 1
        vsew = (vtype >> 3) & 7
        vlmul = vtype & 7
        ok = not vill and vsew <= 2 and vlmul != 4 and (vtype >> 8) & 0x7FFFFF == 0
        sew = 8 << vsew if vsew <= 3 else 0
        lmul = 2.0 ** (vlmul - 8 if vlmul >= 4 else vlmul)
        return ok, sew, lmul

    def execute(
        self,
        insn: int,
        rs1: int = 0,
        rs2: int = 0,
        vtype: int = 0,
        vl: int = 0,
        vstart: int = 0,
        frs1: int = 0,
        frm: int = 0,
        vxrm: int = 0,
    ) -> dict | None:
        self.vxrm = vxrm
        opc = insn & 0x7F
        if opc == 0x57 and vstart != 0:
            # Arithmetic (every OP-V instruction) at vstart != 0 is illegal: RVV 1.0
            # section 3.7 permits it and Spike does it; loads/stores resume from vstart.
            return None
        if opc == 0x57 and ((insn >> 12) & 7) in (FVV, FVF):
            return self._opf(insn, frs1, vtype, vl, vstart, frm)
        if opc == 0x57:
            return self._opv(insn, rs1, vtype, vl, vstart)
        if opc in (0x07, 0x27):
            return self._mem(insn, rs1, rs2, vtype, vl, vstart)
        return None

    # -- arithmetic ----------------------------------------------------------
    def _opv(self, insn, rs1, vtype, vl, vstart):
        s = self.s
        vd, f3, vs1, vs2, vm, f6 = (
            (insn >> 7) & 31,
            (insn >> 12) & 7,
            (insn >> 15) & 31,
            (insn >> 20) & 31,
            (insn >> 25) & 1,
            insn >> 26,
        )
        ok, sew, lmul = self._vt(vtype)
        g = max(1, int(lmul))
        vlmax = int(self.vlen * lmul) // sew if ok else 0
        if f3 in (FVV, FVF) or f3 == 7:
            return None
        if f3 in (IVV, IVX, IVI):
            if f6 not in INT_OPS:
                return None
            name, forms = INT_OPS[f6]
            form = {IVV: "v", IVX: "x", IVI: "i"}[f3]
            if name == "slideup" and form == "v":
                name = "rgatherei16"
            elif form not in forms:
                return None
            if name == "wholemv" and form != "i":
                name = "smul"  # vsmul.vv/.vx share funct6 with vmv<nr>r.v
            if name == "wholemv":
                nr = vs1 + 1
                if vm != 1 or nr not in (1, 2, 4, 8) or vd % nr or vs2 % nr or not ok:
                    return None  # EEW = SEW: illegal under vill (RVV 1.0 3.4.4, 16.6; Spike)
                eew = sew
                evl = nr * self.vlen // eew
                if vd != vs2:
                    for i in range(vstart, evl):
                        s.set(vd, i, eew, s.get(vs2, i, eew))
                return {}
            if not ok:
                return None
            if form == "v":
                opb = lambda i: s.get(vs1, i, sew)  # noqa: E731
            elif form == "x":
                opb = lambda i: rs1 & ((1 << sew) - 1)  # noqa: E731
            else:
                simm = sx(vs1, 5)
                opb = lambda i: simm & ((1 << sew) - 1)  # noqa: E731
            if name in CMP or name in ("madc", "msbc"):
                if not _aligned(vs2, g) or (vd != vs2 and _overlap(vd, 1, vs2, g)):
                    return None
                if form == "v" and (not _aligned(vs1, g) or (vd != vs1 and _overlap(vd, 1, vs1, g))):
                    return None
                return self._cmp(name, vd, vs2, opb, vm, sew, vl, vstart)
            if name in ("wredsumu", "wredsum"):
                if form != "v" or not ok or sew > 16 or vs2 % g or vstart != 0:
                    return None
                if vl == 0:
                    return {}
                acc = s.get(vs1, 0, 2 * sew)
                for i in range(vl):
                    if vm or s.mbit(0, i):
                        x = s.get(vs2, i, sew)
                        acc += sx(x, sew) if name == "wredsum" else x
                s.set(vd, 0, 2 * sew, acc)
                return {}
            if name in ("nsrl", "nsra", "nclipu", "nclip"):
                return self._narrow(name, form, vd, vs2, vs1, rs1, vm, sew, lmul, vl, vstart)
            if name in ("rgather", "rgatherei16", "slideup", "slidedown"):
                return self._perm(name, form, vd, vs2, vs1, rs1, vm, sew, lmul, g, vl, vstart, vlmax)
            # single-width element-wise
            if not _aligned(vd, g) or not _aligned(vs2, g) or (form == "v" and not _aligned(vs1, g)):
                return None
            if not vm and vd == 0:
                return None
            if name in ("adc", "sbc") and vm:
                return None
            if name == "merge" and vm and vs2 != 0:
                return None
            return self._elementwise(name, vd, vs2, opb, vm, sew, vl, vstart)
        # OPM
        if f6 in W_OPS:
            return self._widening(f6, f3, vd, vs2, vs1, rs1, vm, ok, sew, lmul, vl, vstart)
        if f6 == 0x12 and f3 == MVV and vs1 in (4, 5, 6, 7):
            f = 4 if vs1 in (4, 5) else 2
            if not ok or sew // f < 8 or lmul / f < 0.125:
                return None
            sg = max(1, int(lmul / f))
            if vd % g or vs2 % sg or not _widen_ok(vd, g, vs2, sg, lmul / f < 1) or (not vm and vd == 0):
                return None
            for i in range(vstart, vl):
                if vm or s.mbit(0, i):
                    x = s.get(vs2, i, sew // f)
                    s.set(vd, i, sew, sx(x, sew // f) if vs1 & 1 else x)
            return {}
        if f6 in M_OPS:
            if not ok or not _aligned(vd, g) or not _aligned(vs2, g) or (f3 == MVV and not _aligned(vs1, g)):
                return None
            if not vm and vd == 0:
                return None
            opb = (lambda i: s.get(vs1, i, sew)) if f3 == MVV else (lambda i: rs1 & ((1 << sew) - 1))
            return self._elementwise(M_OPS[f6], vd, vs2, opb, vm, sew, vl, vstart)
        if f6 <= 7:
            if f3 != MVV or not ok or not _aligned(vs2, g) or vstart != 0:
                return None
            return self._red(RED_OPS[f6], vd, vs2, vs1, vm, sew, vl)
        if f6 in (0x0E, 0x0F):
            if f3 != MVX or not ok:
                return None
            return self._perm(
                "slide1up" if f6 == 0x0E else "slide1down", "x", vd, vs2, vs1, rs1, vm, sew, lmul, g, vl, vstart, vlmax
            )
        if f6 == 0x10:
            if not ok:
                return None
            if f3 == MVV:
                if vs1 == 0:
                    if not vm:
                        return None
                    return {"x": sx(s.get(vs2, 0, sew), sew) & 0xFFFFFFFF}
                if vs1 in (0x10, 0x11):
                    if vstart != 0:
                        return None
                    act = [i for i in range(vl) if (vm or s.mbit(0, i)) and s.mbit(vs2, i)]
                    if vs1 == 0x10:
                        return {"x": len(act)}
                    return {"x": (act[0] if act else -1) & 0xFFFFFFFF}
                return None
            if not vm or vs2 != 0:
                return None
            if vl > 0 and vstart < vl:
                s.set(vd, 0, sew, rs1)
            return {}
        if f6 == 0x17 and f3 == MVV:  # vcompress.vm
            if (
                not ok
                or not vm
                or vstart != 0
                or vd % g
                or vs2 % g
                or _overlap(vd, g, vs2, g)
                or _overlap(vd, g, vs1, 1)
            ):
                return None
            k = 0
            for i in range(vl):
                if s.mbit(vs1, i):
                    s.set(vd, k, sew, s.get(vs2, i, sew))
                    k += 1
            return {}
        if f6 == 0x14 and f3 == MVV and vs1 in (1, 2, 3):  # vmsbf / vmsof / vmsif
            if not ok or vstart != 0 or vd == vs2 or (not vm and vd == 0):
                return None
            found, res = False, []
            for i in range(vl):
                if vm or s.mbit(0, i):
                    b = s.mbit(vs2, i)
                    r = {1: not found and not b, 2: not found and b, 3: not found}[vs1]
                    found = found or bool(b)
                    res.append((i, int(r)))
            for i, r in res:
                s.set_mbit(vd, i, r)
            return {}
        if f6 == 0x14 and f3 == MVV and vs1 == 0x10:  # viota.m
            if not ok or vstart != 0 or vd % g or _overlap(vd, g, vs2, 1) or (not vm and vd == 0):
                return None
            cnt, res = 0, []
            for i in range(vl):
                if vm or s.mbit(0, i):
                    res.append((i, cnt))
                    cnt += s.mbit(vs2, i)
            for i, r in res:
                s.set(vd, i, sew, r)
            return {}
        if f6 == 0x14:
            if f3 != MVV or vs1 != 0x11 or not ok or vs2 != 0 or not _aligned(vd, g) or (not vm and vd == 0):
                return None
            for i in range(vstart, vl):
                if vm or s.mbit(0, i):
                    s.set(vd, i, sew, i)
            return {}
        if 0x18 <= f6 <= 0x1F:
            if f3 != MVV or not ok or not vm:
                return None
            name = MASK_OPS[f6 - 0x18]
            res = []
            for i in range(vstart, vl):
                a, b = s.mbit(vs2, i), s.mbit(vs1, i)
                r = {
                    "mandn": a & ~b,
                    "mand": a & b,
                    "mor": a | b,
                    "mxor": a ^ b,
                    "morn": a | ~b,
                    "mnand": ~(a & b),
                    "mnor": ~(a | b),
                    "mxnor": ~(a ^ b),
                }[name] & 1
                res.append((i, r))
            for i, r in res:
                s.set_mbit(vd, i, r)
            return {}
        return None

    def _narrow_ok(self, vd, vs2, vm, sew, lmul):
        g, wg = max(1, int(lmul)), max(1, int(2 * lmul))
        return (
            sew <= 16
            and lmul <= 4
            and vd % g == 0
            and vs2 % wg == 0
            and not (not vm and vd == 0)
            and (vd == vs2 or not _overlap(vd, g, vs2, wg))
        )

    def _narrow(self, name, form, vd, vs2, vs1, rs1, vm, sew, lmul, vl, vstart):
        s = self.s
        if not self._narrow_ok(vd, vs2, vm, sew, lmul) or (form == "v" and vs1 % max(1, int(lmul))):
            return None
        w = 2 * sew
        sat, res = False, []
        for i in range(vstart, vl):
            if not vm and not s.mbit(0, i):
                continue
            a = s.get(vs2, i, w)
            b = s.get(vs1, i, sew) if form == "v" else (rs1 if form == "x" else vs1)
            sh = b & (w - 1)
            if name == "nsrl":
                r = a >> sh
            elif name == "nsra":
                r = sx(a, w) >> sh
            elif name == "nclipu":
                r = roundoff(a, sh, self.vxrm)
                if r > (1 << sew) - 1:
                    r, sat = (1 << sew) - 1, True
            else:
                r = roundoff(sx(a, w), sh, self.vxrm)
                lo, hi = -(1 << (sew - 1)), (1 << (sew - 1)) - 1
                if r > hi or r < lo:
                    r, sat = (hi if r > hi else lo), True
            res.append((i, r))
        for i, r in res:
            s.set(vd, i, sew, r)
        return {"vxsat": sat}

    def _widening(self, f6, f3, vd, vs2, vs1, rs1, vm, ok, sew, lmul, vl, vstart):
        s = self.s
        name, a_narrow, a_sgn, b_sgn = W_OPS[f6]
        if f6 == 0x3E and f3 != MVX:
            return None
        if not ok or sew > 16 or lmul > 4:
            return None
        g, dg = max(1, int(lmul)), max(1, int(2 * lmul))
        if vd % dg or (not vm and vd == 0):
            return None
        if a_narrow:
            if vs2 % g or not _widen_ok(vd, dg, vs2, g, lmul < 1):
                return None
        elif vs2 % dg:
            return None
        if f3 == MVV and (vs1 % g or not _widen_ok(vd, dg, vs1, g, lmul < 1)):
            return None
        dsew = 2 * sew

        def ext(v, sgn):
            return sx(v, sew) if sgn else v & ((1 << sew) - 1)

        for i in range(vstart, vl):
            if not vm and not s.mbit(0, i):
                continue
            a = ext(s.get(vs2, i, sew), a_sgn) if a_narrow else s.get(vs2, i, dsew)
            b = ext(s.get(vs1, i, sew) if f3 == MVV else rs1, b_sgn)
            c = s.get(vd, i, dsew)
            r = {"add": a + b, "sub": a - b, "mul": a * b, "macc": a * b + c}[name]
            s.set(vd, i, dsew, r)
        return {}

    def _cmp(self, name, vd, vs2, opb, vm, sew, vl, vstart):
        s = self.s
        res = []
        for i in range(vstart, vl):
            a, b = s.get(vs2, i, sew), opb(i)
            if name in ("madc", "msbc"):
                cin = 0 if vm else s.mbit(0, i)
                if name == "madc":
                    r = (a + b + cin) >> sew
                else:
                    r = int(a - b - cin < 0)
            else:
                if not vm and not s.mbit(0, i):
                    continue
                sa, sb = sx(a, sew), sx(b, sew)
                r = {
                    "mseq": a == b,
                    "msne": a != b,
                    "msltu": a < b,
                    "mslt": sa < sb,
                    "msleu": a <= b,
                    "msle": sa <= sb,
                    "msgtu": a > b,
                    "msgt": sa > sb,
                }[name]
            res.append((i, int(r)))
        for i, r in res:
            s.set_mbit(vd, i, r)
        return {}

    def _elementwise(self, name, vd, vs2, opb, vm, sew, vl, vstart):
        s = self.s
        m = (1 << sew) - 1
        smax, smin = (1 << (sew - 1)) - 1, -(1 << (sew - 1))
        sat = False
        for i in range(vstart, vl):
            mask = s.mbit(0, i)
            if name in ("adc", "sbc", "merge"):
                pass
            elif not vm and not mask:
                continue
            a, b, c = s.get(vs2, i, sew), opb(i), s.get(vd, i, sew)
            sa, sb = sx(a, sew), sx(b, sew)
            sh = b & (sew - 1)
            if name == "add":
                r = a + b
            elif name == "sub":
                r = a - b
            elif name == "rsub":
                r = b - a
            elif name == "adc":
                r = a + b + mask
            elif name == "sbc":
                r = a - b - mask
            elif name == "and":
                r = a & b
            elif name == "or":
                r = a | b
            elif name == "xor":
                r = a ^ b
            elif name == "sll":
                r = a << sh
            elif name == "srl":
                r = a >> sh
            elif name == "sra":
                r = sa >> sh
            elif name == "minu":
                r = min(a, b)
            elif name == "min":
                r = min(sa, sb)
            elif name == "maxu":
                r = max(a, b)
            elif name == "max":
                r = max(sa, sb)
            elif name == "merge":
                r = b if (vm or mask) else a
            elif name == "mul":
                r = a * b
            elif name == "mulh":
                r = (sa * sb) >> sew
            elif name == "mulhu":
                r = (a * b) >> sew
            elif name == "mulhsu":
                r = (sa * b) >> sew
            elif name == "macc":
                r = b * a + c
            elif name == "nmsac":
                r = c - b * a
            elif name == "madd":
                r = b * c + a
            elif name == "nmsub":
                r = a - b * c
            elif name == "divu":
                r = m if b == 0 else a // b
            elif name == "remu":
                r = a if b == 0 else a % b
            elif name == "div":
                if sb == 0:
                    r = -1
                elif sa == smin and sb == -1:
                    r = sa
                else:
                    r = abs(sa) // abs(sb) * (1 if (sa < 0) == (sb < 0) else -1)
            elif name == "rem":
                if sb == 0:
                    r = sa
                elif sa == smin and sb == -1:
                    r = 0
                else:
                    r = sa - (abs(sa) // abs(sb) * (1 if (sa < 0) == (sb < 0) else -1)) * sb
            elif name == "saddu":
                r = a + b
                if r > m:
                    r, sat = m, True
            elif name == "ssubu":
                r = a - b
                if r < 0:
                    r, sat = 0, True
            elif name in ("aaddu", "asubu"):
                r = roundoff(a + b if name == "aaddu" else a - b, 1, self.vxrm)
            elif name in ("aadd", "asub"):
                r = roundoff(sa + sb if name == "aadd" else sa - sb, 1, self.vxrm)
            elif name == "ssrl":
                r = roundoff(a, sh, self.vxrm)
            elif name == "ssra":
                r = roundoff(sa, sh, self.vxrm)
            elif name == "smul":
                r = roundoff(sa * sb, sew - 1, self.vxrm)
                if r > smax:
                    r, sat = smax, True
            elif name in ("sadd", "ssub"):
                r = sa + sb if name == "sadd" else sa - sb
                if r > smax:
                    r, sat = smax, True
                elif r < smin:
                    r, sat = smin, True
            else:
                raise AssertionError(name)
            s.set(vd, i, sew, r)
        return {"vxsat": sat}

    def _red(self, name, vd, vs2, vs1, vm, sew, vl):
        s = self.s
        if vl == 0:
            return {}
        acc = s.get(vs1, 0, sew)
        for i in range(vl):
            if not vm and not s.mbit(0, i):
                continue
            x = s.get(vs2, i, sew)
            if name == "redsum":
                acc = acc + x
            elif name == "redand":
                acc &= x
            elif name == "redor":
                acc |= x
            elif name == "redxor":
                acc ^= x
            elif name == "redminu":
                acc = min(acc, x)
            elif name == "redmaxu":
                acc = max(acc, x)
            elif name == "redmin":
                acc = acc if sx(acc, sew) <= sx(x, sew) else x
            elif name == "redmax":
                acc = acc if sx(acc, sew) >= sx(x, sew) else x
            acc &= (1 << sew) - 1
        s.set(vd, 0, sew, acc)
        return {}

    def _perm(self, name, form, vd, vs2, vs1, rs1, vm, sew, lmul, g, vl, vstart, vlmax):
        s = self.s
        if not _aligned(vd, g) or not _aligned(vs2, g) or (not vm and vd == 0):
            return None
        if name == "rgatherei16":
            emul = 16 / sew * lmul
            if emul < 0.125 or emul > 8:
                return None
            ig = max(1, int(emul))
            if not _aligned(vs1, ig) or _overlap(vd, g, vs1, ig) or _overlap(vd, g, vs2, g):
                return None
        if name == "rgather":
            if _overlap(vd, g, vs2, g) or (form == "v" and (not _aligned(vs1, g) or _overlap(vd, g, vs1, g))):
                return None
        if name in ("slideup", "slide1up") and _overlap(vd, g, vs2, g):
            return None
        off = rs1 if form == "x" else vs1
        old = [s.get(vs2, i, sew) for i in range(vlmax)]
        idxv = [s.get(vs1, i, 16 if name == "rgatherei16" else sew) for i in range(vl)] if form == "v" else None
        for i in range(vstart, vl):
            if not vm and not s.mbit(0, i):
                continue
            if name == "slideup":
                if i < off:
                    continue
                v = old[i - off]
            elif name == "slidedown":
                v = old[i + off] if i + off < vlmax else 0
            elif name == "slide1up":
                v = rs1 if i == 0 else old[i - 1]
            elif name == "slide1down":
                v = rs1 if i == vl - 1 else old[i + 1]
            else:
                idx = idxv[i] if idxv is not None else off
                v = old[idx] if idx < vlmax else 0
            s.set(vd, i, sew, v)
        return {}

    # -- floating point (binary32, SoftFloat via the FPU oracle) --------------
    def _opf(self, insn, frs1, vtype, vl, vstart, frm):
        s = self.s
        vd, f3, vs1, vs2, vm, f6 = (
            (insn >> 7) & 31,
            (insn >> 12) & 7,
            (insn >> 15) & 31,
            (insn >> 20) & 31,
            (insn >> 25) & 1,
            insn >> 26,
        )
        ok, sew, lmul = self._vt(vtype)
        if f6 == 0x12 and f3 == FVV and vs1 in (0x0A, 0x0B):  # vfwcvt.f.x[u].v: int16 -> binary32
            g, dg = max(1, int(lmul)), max(1, int(2 * lmul))
            if (
                not ok
                or sew != 16
                or lmul > 4
                or frm > 4
                or vd % dg
                or vs2 % g
                or (not vm and vd == 0)
                or not _widen_ok(vd, dg, vs2, g, lmul < 1)
            ):
                return None
            flags, res = 0, []
            for i in range(vstart, vl):
                if vm or s.mbit(0, i):
                    x = s.get(vs2, i, 16)
                    r, fl = fpu_ref(
                        F.CVT_S_W if vs1 & 1 else F.CVT_S_WU, frm, 0, 0, 0, sx(x, 16) & 0xFFFFFFFF if vs1 & 1 else x
                    )
                    flags |= fl
                    res.append((i, r))
            for i, r in res:
                s.set(vd, i, 32, r)
            return {"fflags": flags}
        if f6 == 0x12 and f3 == FVV and vs1 in (0x10, 0x11, 0x16, 0x17):  # vfncvt.[rtz.]x[u].f.w
            if not ok or sew != 16 or frm > 4 or not self._narrow_ok(vd, vs2, vm, sew, lmul):
                return None
            uns, rm = not vs1 & 1, (1 if vs1 & 4 else frm)
            flags, res = 0, []
            for i in range(vstart, vl):
                if vm or s.mbit(0, i):
                    r, fl = fpu_ref(F.CVT_WU_S if uns else F.CVT_W_S, rm, s.get(vs2, i, 32), 0, 0, 0)
                    v = r & 0xFFFFFFFF if uns else sx(r, 32)
                    lo, hi = (0, 0xFFFF) if uns else (-0x8000, 0x7FFF)
                    if v > hi or v < lo:  # SoftFloat f32_to_[u]i16: saturate, invalid only
                        v, fl = (hi if v > hi else lo), 0x10
                    flags |= fl
                    res.append((i, v))
            for i, v in res:
                s.set(vd, i, 16, v)
            return {"fflags": flags}
        if not ok or sew != 32:
            return None
        g = max(1, int(lmul))
        vlmax = int(self.vlen * lmul) // sew
        form = "v" if f3 == FVV else "f"
        opb = (lambda i: s.get(vs1, i, 32)) if form == "v" else (lambda i: frs1 & 0xFFFFFFFF)
        flags = 0
        if f6 == 0x10:  # vfmv.f.s / vfmv.s.f
            if not vm:
                return None
            if form == "v":
                return {"f": s.get(vs2, 0, 32)} if vs1 == 0 else None
            if vs2 != 0:
                return None
            if vl > 0 and vstart < vl:
                s.set(vd, 0, 32, frs1)
            return {}
        if f6 == 0x17:  # vfmerge.vfm / vfmv.v.f
            if form != "f" or not _aligned(vd, g) or (vm and vs2 != 0) or (not vm and (vd == 0 or vs2 % g)):
                return None
            for i in range(vstart, vl):
                s.set(vd, i, 32, frs1 if (vm or s.mbit(0, i)) else s.get(vs2, i, 32))
            return {}
        if f6 in (0x0E, 0x0F):  # vfslide1up / vfslide1down
            if form != "f":
                return None
            return self._perm(
                "slide1up" if f6 == 0x0E else "slide1down", "x", vd, vs2, vs1, frs1, vm, 32, lmul, g, vl, vstart, vlmax
            )
        if frm > 4:
            return None
        if f6 in (0x01, 0x03, 0x05, 0x07):  # reductions
            if form != "v" or vs2 % g or vstart != 0:
                return None
            if vl == 0:
                return {"fflags": 0}
            acc, any_active = s.get(vs1, 0, 32), False
            op = {0x01: F.ADD, 0x03: F.ADD, 0x05: F.MIN, 0x07: F.MAX}[f6]
            for i in range(vl):
                if vm or s.mbit(0, i):
                    any_active = True
                    acc, fl = fpu_ref(op, frm, acc, s.get(vs2, i, 32), 0, 0)
                    flags |= fl
            if f6 == 0x01 and not any_active and (acc & 0x7F800000) == 0x7F800000 and acc & 0x7FFFFF:
                acc = CANONICAL_NAN
            s.set(vd, 0, 32, acc)
            return {"fflags": flags}
        unary = None
        if f6 == 0x12 and form == "v" and vs1 in FCVT:
            unary = FCVT[vs1]
        elif f6 == 0x13 and form == "v" and vs1 == 0x10:
            unary = ("class", F.CLASS, None)
        elif f6 == 0x13 and form == "v" and vs1 == 0x00:
            unary = ("sqrt", F.SQRT, None)
        elif f6 == 0x13 and form == "v" and vs1 in (0x04, 0x05):
            unary = ("rsqrt7" if vs1 == 0x04 else "rec7", None, None)
        elif f6 not in FP_OPS or form not in FP_OPS[f6][1]:
            return None
        name = FP_OPS[f6][0] if unary is None else unary[0]
        cmp = name.startswith("mf")
        if cmp:
            if vs2 % g or (vd != vs2 and _overlap(vd, 1, vs2, g)):
                return None
            if form == "v" and (vs1 % g or (vd != vs1 and _overlap(vd, 1, vs1, g))):
                return None
        else:
            if vd % g or vs2 % g or (form == "v" and unary is None and vs1 % g) or (not vm and vd == 0):
                return None
        res = []
        for i in range(vstart, vl):
            if not vm and not s.mbit(0, i):
                continue
            a, b, c = s.get(vs2, i, 32), opb(i), s.get(vd, i, 32)
            if unary is not None:
                op, rm = unary[1], (unary[2] if unary[2] is not None else frm)
                if unary[0] == "rec7":
                    r, fl = frec7(a, frm)
                elif unary[0] == "rsqrt7":
                    r, fl = frsqrt7(a)
                else:
                    r, fl = fpu_ref(op, rm, a, 0, 0, a)
                r &= 0xFFFFFFFF
            else:
                r, fl = {
                    "fadd": lambda: fpu_ref(F.ADD, frm, a, b, 0, 0),
                    "fsub": lambda: fpu_ref(F.SUB, frm, a, b, 0, 0),
                    "frsub": lambda: fpu_ref(F.SUB, frm, b, a, 0, 0),
                    "fmul": lambda: fpu_ref(F.MUL, frm, a, b, 0, 0),
                    "fdiv": lambda: fpu_ref(F.DIV, frm, a, b, 0, 0),
                    "frdiv": lambda: fpu_ref(F.DIV, frm, b, a, 0, 0),
                    "fmacc": lambda: fpu_ref(F.MADD, frm, b, a, c, 0),
                    "fnmacc": lambda: fpu_ref(F.NMADD, frm, b, a, c, 0),
                    "fmsac": lambda: fpu_ref(F.MSUB, frm, b, a, c, 0),
                    "fnmsac": lambda: fpu_ref(F.NMSUB, frm, b, a, c, 0),
                    "fmadd": lambda: fpu_ref(F.MADD, frm, b, c, a, 0),
                    "fnmadd": lambda: fpu_ref(F.NMADD, frm, b, c, a, 0),
                    "fmsub": lambda: fpu_ref(F.MSUB, frm, b, c, a, 0),
                    "fnmsub": lambda: fpu_ref(F.NMSUB, frm, b, c, a, 0),
                    "fmin": lambda: fpu_ref(F.MIN, frm, a, b, 0, 0),
                    "fmax": lambda: fpu_ref(F.MAX, frm, a, b, 0, 0),
                    "fsgnj": lambda: fpu_ref(F.SGNJ, frm, a, b, 0, 0),
                    "fsgnjn": lambda: fpu_ref(F.SGNJN, frm, a, b, 0, 0),
                    "fsgnjx": lambda: fpu_ref(F.SGNJX, frm, a, b, 0, 0),
                    "mfeq": lambda: fpu_ref(F.EQ, frm, a, b, 0, 0),
                    "mfne": lambda: fpu_ref(F.EQ, frm, a, b, 0, 0),
                    "mfle": lambda: fpu_ref(F.LE, frm, a, b, 0, 0),
                    "mflt": lambda: fpu_ref(F.LT, frm, a, b, 0, 0),
                    "mfgt": lambda: fpu_ref(F.LT, frm, b, a, 0, 0),
                    "mfge": lambda: fpu_ref(F.LE, frm, b, a, 0, 0),
                }[name]()
                if name == "mfne":
                    r = 1 - r
            flags |= fl
            res.append((i, r))
        for i, r in res:
            if cmp:
                s.set_mbit(vd, i, r)
            else:
                s.set(vd, i, 32, r)
        return {"fflags": flags}

    # -- memory --------------------------------------------------------------
    def _mem(self, insn, rs1, rs2, vtype, vl, vstart):
        s = self.s
        store = (insn & 0x7F) == 0x27
        vd, width, lumop, vm, mop, mew, nf = (
            (insn >> 7) & 31,
            (insn >> 12) & 7,
            (insn >> 20) & 31,
            (insn >> 25) & 1,
            (insn >> 26) & 3,
            (insn >> 28) & 1,
            insn >> 29,
        )
        eew = {0: 8, 5: 16, 6: 32}.get(width)
        if eew is None or mew:
            return None
        ok, sew, lmul = self._vt(vtype)
        if mop == 0 and lumop == 0x08:
            nr = nf + 1
            if nr not in (1, 2, 4, 8) or vd % nr or not vm or (store and eew != 8):
                return None
            evl = nr * self.vlen // eew
            self._access(store, vd, eew, range(vstart, evl), lambda i: rs1 + i * eew // 8)
            return {}
        if not ok:
            return None
        if not vm and vd == 0 and not store:
            return None
        nfields = nf + 1
        if mop == 0 and lumop == 0x0B:
            if eew != 8 or not vm or nf:
                return None
            evl = (vl + 7) // 8
            self._access(store, vd, 8, range(vstart, evl), lambda i: rs1 + i)
            return {}
        act = [i for i in range(vstart, vl) if vm or s.mbit(0, i)]
        if mop in (1, 3):
            iemul = eew / sew * lmul
            if iemul < 0.125 or iemul > 8:
                return None
            dg, ig = max(1, int(lmul)), max(1, int(iemul))
            vs2 = lumop
            if vd % dg or vs2 % ig or nfields * dg > 8 or vd + nfields * dg > 32:
                return None
            if not store and (eew != sew or nf) and _overlap(vd, nfields * dg, vs2, ig):
                return None
            idx = {i: s.get(vs2, i, eew) for i in act}
            self._segments(store, vd, sew, dg, nfields, act, lambda i, f: rs1 + idx[i] + f * sew // 8)
            return {}
        emul = eew / sew * lmul
        g = max(1, int(emul))
        if emul < 0.125 or emul > 8 or vd % g or nfields * g > 8 or vd + nfields * g > 32:
            return None
        eb = eew // 8
        if mop == 0:
            if lumop not in (0, 0x10) or (store and lumop != 0):
                return None
            self._segments(store, vd, eew, g, nfields, act, lambda i, f: rs1 + (i * nfields + f) * eb)
        else:
            self._segments(store, vd, eew, g, nfields, act, lambda i, f: rs1 + i * rs2 + f * eb)
        return {}

    def _segments(self, store, vd, eew, g, nfields, elems, addr):
        """Element by element, field by field (fields in vd, vd+g, ...)."""
        s = self.s
        for i in elems:
            for f in range(nfields):
                a = addr(i, f) & 0xFFFFFFFF
                if store:
                    s.store(a, eew // 8, s.get(vd + f * g, i, eew))
                else:
                    s.set(vd + f * g, i, eew, s.load(a, eew // 8))

    def _access(self, store, vd, eew, elems, addr):
        s = self.s
        for i in elems:
            a = addr(i)
            if store:
                s.store(a, eew // 8, s.get(vd, i, eew))
            else:
                s.set(vd, i, eew, s.load(a, eew // 8))
