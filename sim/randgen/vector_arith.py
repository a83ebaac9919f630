"""The arithmetic items of a random RVV program: one instruction of a family's table under a vtype it is
legal for, with registers aligned to their groups, a mask now and then, and reads of the flags after.

:class:`ArithmeticItems` is a part of :class:`sim.randgen.vector.VectorGenerator` (a mixin: it uses the
generator's register, vtype and vstart helpers and its random stream, so a seed gives the same text).
"""

from __future__ import annotations

from fractions import Fraction

from sim.randgen.vector_ops import CSR_READS, VSTART_TRAP_RATE, WIDE_SHAPES, Unfit
from sim.randgen.vtypes import SEWS, emul_ok


class ArithmeticItems:
    def arith(self, table: list[tuple[str, str]], vstart_trap: bool | None = None) -> list[str]:
        """One item of ``table``; ``vstart_trap`` True/False forces/forbids a nonzero vstart
        (None: now and then, see VSTART_TRAP_RATE)."""
        if vstart_trap is None:
            vstart_trap = self.vstart_traps and self.rng.random() < VSTART_TRAP_RATE
        for _ in range(20):
            mnem, shape = self.rng.choice(table)
            try:
                return self._arith_item(mnem, shape, vstart_trap)
            except Unfit:
                continue
        return []

    def _arith_item(self, mnem: str, shape: str, vstart_trap: bool = False) -> list[str]:
        fp = mnem.startswith(("vf", "vmf")) and shape not in ("mv_fs", "xm")
        out: list[str] = []
        if shape in ("fwcvt", "fncvt"):
            out += self._ensure_vtype((16,), lambda s, m: emul_ok(2 * m) and m <= 4)
        elif fp or shape in ("fred", "sl1up_f", "sl1dn_f", "mv_sf", "mv_fs"):
            out += self._ensure_vtype((32,), lambda s, m: True)
        elif shape in WIDE_SHAPES:
            out += self._ensure_vtype((8, 16), lambda s, m: m <= 4)
        elif shape == "ext2":
            out += self._ensure_vtype((16, 32), lambda s, m: emul_ok(m / 2))
        elif shape == "ext4":
            out += self._ensure_vtype((32,), lambda s, m: emul_ok(m / 4))
        elif shape == "gather16":
            out += self._ensure_vtype(SEWS, lambda s, m: emul_ok(m * 16 / s))
        else:
            out += self._ensure_vtype(SEWS, lambda s, m: True)
        vt = self.vtype
        assert vt is not None
        L = vt.lmul
        W = 2 * L
        masked = self._mask()
        mask = ", v0.t" if masked else ""
        x, f = self._x(), self._f()
        simm = self.rng.choice([-16, -1, 0, 1, 15, self.rng.randrange(-16, 16)])
        uimm = self.rng.choice([0, 1, vt.sew - 1, self.rng.randrange(32)])
        pre: list[str] = []
        if shape.endswith(("x", "xm")) and self.rng.random() < 0.3:
            pre.append(f"li {x}, {self._scalar_value()}")

        def grp(emul: Fraction, avoid: set[int] = frozenset(), nov0: bool = masked) -> int:
            return self._group(emul, avoid, nov0)

        def sp(b: int, emul: Fraction) -> set[int]:
            return self._span(b, emul)

        if shape in ("vv", "vx", "vi", "vu", "vf", "v"):
            vd = grp(L)
            vs2, vs1 = grp(L, nov0=False), grp(L, nov0=False)
            src = {"vv": f"v{vs1}", "vx": x, "vi": str(simm), "vu": str(uimm), "vf": f, "v": None}[shape]
            line = f"{mnem} v{vd}, v{vs2}" + (f", {src}" if src else "") + mask
        elif shape in ("ma_vv", "ma_vx", "ma_vf"):
            vd, vs2 = grp(L), grp(L, nov0=False)
            src = {"ma_vv": f"v{grp(L, nov0=False)}", "ma_vx": x, "ma_vf": f}[shape]
            line = f"{mnem} v{vd}, {src}, v{vs2}{mask}"
        elif shape in ("vvm", "vxm", "vim", "vfm"):  # v0 is the carry / selector
            vd = grp(L, nov0=True)
            vs2 = grp(L, nov0=False)
            src = {"vvm": f"v{grp(L, nov0=False)}", "vxm": x, "vim": str(simm), "vfm": f}[shape]
            line = f"{mnem} v{vd}, v{vs2}, {src}, v0"
        elif shape in ("mv_v", "mv_x", "mv_i", "mv_f"):
            vd = grp(L, nov0=False)
            src = {"mv_v": f"v{grp(L, nov0=False)}", "mv_x": x, "mv_i": str(simm), "mv_f": f}[shape]
            line = f"{mnem} v{vd}, {src}"
        elif shape.startswith("c"):  # mask-producing: compares, vmadc/vmsbc
            base = shape[1:]
            vs2 = grp(L, nov0=False)
            vs1 = grp(L, nov0=False)
            avoid = sp(vs2, L) | sp(vs1, L) if L > 1 else set()
            carry = base.endswith("m")
            vd = grp(Fraction(1), avoid, nov0=masked or carry)
            kind = base[:2]
            src = {"vv": f"v{vs1}", "vx": x, "vi": str(simm), "vf": f}[kind]
            if carry:
                line = f"{mnem} v{vd}, v{vs2}, {src}, v0"
            elif mnem.startswith(("vmadc", "vmsbc")):
                line = f"{mnem} v{vd}, v{vs2}, {src}"
            else:
                line = f"{mnem} v{vd}, v{vs2}, {src}{mask}"
        elif shape in ("wvv", "wvx", "wwv", "wwx", "wma_vv", "wma_vx"):
            vd = grp(W)
            wide_src = shape in ("wwv", "wwx")
            vs2 = grp(W if wide_src else L, sp(vd, W), nov0=False)
            if shape.startswith("wma"):
                src = f"v{grp(L, sp(vd, W), nov0=False)}" if shape == "wma_vv" else x
                line = f"{mnem} v{vd}, {src}, v{vs2}{mask}"
            else:
                src = f"v{grp(L, sp(vd, W), nov0=False)}" if shape[-1] == "v" else x
                line = f"{mnem} v{vd}, v{vs2}, {src}{mask}"
        elif shape in ("nwv", "nwx", "nwi"):
            vs2 = grp(W, nov0=False)
            vd = grp(L, sp(vs2, W))
            src = {"nwv": f"v{grp(L, nov0=False)}", "nwx": x, "nwi": str(uimm)}[shape]
            line = f"{mnem} v{vd}, v{vs2}, {src}{mask}"
        elif shape in ("ext2", "ext4"):
            k = 2 if shape == "ext2" else 4
            vd = grp(L)
            vs2 = grp(L / k, sp(vd, L), nov0=False)
            line = f"{mnem} v{vd}, v{vs2}{mask}"
        elif shape == "fwcvt":
            vd = grp(W)
            vs2 = grp(L, sp(vd, W), nov0=False)
            line = f"{mnem} v{vd}, v{vs2}{mask}"
        elif shape == "fncvt":
            vs2 = grp(W, nov0=False)
            vd = grp(L, sp(vs2, W))
            line = f"{mnem} v{vd}, v{vs2}{mask}"
        elif shape in ("red", "wred", "fred"):
            vd, vs1 = self.rng.randrange(32), self.rng.randrange(32)
            vs2 = grp(L, nov0=False)
            line = f"{mnem} v{vd}, v{vs2}, v{vs1}{mask}"
        elif shape == "mm":
            vd, vs2, vs1 = (self.rng.randrange(32) for _ in range(3))
            line = f"{mnem} v{vd}, v{vs2}, v{vs1}"
        elif shape == "xm":
            line = f"{mnem} {x}, v{self.rng.randrange(32)}{mask}"
        elif shape == "msf":
            vs2 = self.rng.randrange(32)
            vd = grp(Fraction(1), {vs2})
            line = f"{mnem} v{vd}, v{vs2}{mask}"
        elif shape == "iota":
            vs2 = self.rng.randrange(32)
            vd = grp(L, {vs2})
            line = f"{mnem} v{vd}, v{vs2}{mask}"
        elif shape == "vid":
            line = f"{mnem} v{grp(L)}{mask}"
        elif shape in ("slup_x", "slup_i", "sldn_x", "sldn_i", "sl1up_x", "sl1dn_x", "sl1up_f", "sl1dn_f"):
            up = "up" in shape
            vs2 = grp(L, nov0=False)
            vd = grp(L, sp(vs2, L) if up else set())
            kind = shape[-1]
            if kind == "x" and not shape.startswith("sl1"):
                pre.append(f"li {x}, {self.rng.choice([0, 1, 2, 3, self.rng.randrange(2 * vt.vlmax(self.vlen) + 2)])}")
            src = {"x": x, "i": str(self.rng.choice([0, 1, 2, self.rng.randrange(32)])), "f": f}[kind]
            line = f"{mnem} v{vd}, v{vs2}, {src}{mask}"
        elif shape in ("gather_v", "gather_x", "gather_i", "gather16"):
            vs2 = grp(L, nov0=False)
            iemul = L * 16 / vt.sew if shape == "gather16" else L
            vs1 = grp(iemul, nov0=False)
            vd = grp(L, sp(vs2, L) | sp(vs1, iemul))
            if shape == "gather_x":
                pre.append(f"li {x}, {self.rng.choice([0, 1, self.rng.randrange(vt.vlmax(self.vlen) + 3)])}")
            src = {"gather_v": f"v{vs1}", "gather16": f"v{vs1}", "gather_x": x, "gather_i": str(uimm)}[shape]
            line = f"{mnem} v{vd}, v{vs2}, {src}{mask}"
        elif shape == "vcompress":
            vs2 = grp(L, nov0=False)
            vs1 = self.rng.randrange(32)
            vd = grp(L, sp(vs2, L) | {vs1}, nov0=False)
            line = f"{mnem} v{vd}, v{vs2}, v{vs1}"
        elif shape == "mv_xs":
            line = f"{mnem} {x}, v{self.rng.randrange(32)}"
        elif shape == "mv_fs":
            line = f"{mnem} {f}, v{self.rng.randrange(32)}"
        elif shape == "mv_sx":
            line = f"{mnem} v{self.rng.randrange(32)}, {x}"
        elif shape == "mv_sf":
            line = f"{mnem} v{self.rng.randrange(32)}, {f}"
        elif shape.startswith("mvnr"):
            n = int(shape[4:])
            line = f"{mnem} v{self.rng.randrange(0, 32, n)}, v{self.rng.randrange(0, 32, n)}"
        else:
            raise AssertionError(shape)
        if vstart_trap:
            # Every OP-V instruction traps at vstart != 0 (Spike and the RTL); the trap
            # leaves vstart as it was, so read it (compared) and clear it.
            self.prog.expected_traps += 1
            trap = [*self._vstart_trap(), *self._note([line]), f"csrr {self._x()}, vstart", "csrwi vstart, 0"]
            return out + pre + trap + self._after(fp)
        return out + pre + self._note([line]) + self._after(fp)

    def _after(self, fp: bool) -> list[str]:
        """Reads of the accrued flags and vector CSRs, so both sides' values compare."""
        out = []
        if fp and self.rng.random() < 0.5:
            out.append(f"frflags {self._x()}")
            if self.rng.random() < 0.5:
                out.append("csrwi fflags, 0")
        if self.cur == "fixed" and self.rng.random() < 0.5:
            out.append(f"csrr {self._x()}, vxsat")
            if self.rng.random() < 0.5:
                out.append("csrwi vxsat, 0")
        if self.rng.random() < 0.1:
            out.append(f"csrr {self._x()}, {self.rng.choice(CSR_READS)}")
        return out
