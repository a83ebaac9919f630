"""The memory items of a random RVV program: unit-stride, strided, indexed, segment, fault-only-first,
whole-register and mask loads and stores, inside the data buffer and naturally aligned.

:class:`MemoryItems` is a part of :class:`sim.randgen.vector.VectorGenerator` (a mixin: it uses the
generator's register, vtype and vstart helpers and its random stream, so a seed gives the same text).
"""

from __future__ import annotations

from fractions import Fraction

from sim.randgen.vector_ops import ADDR, AUX, BASE, MEM_KINDS, Unfit
from sim.randgen.vtypes import SEWS, VType, emul_ok, regs


class MemoryItems:
    def mem(self) -> list[str]:
        for _ in range(20):
            try:
                return self._mem_item(self.rng.choice(MEM_KINDS))
            except Unfit:
                continue
        return []

    def _addr(self, off: int) -> list[str]:
        return [f"li {ADDR}, {off}", f"add {ADDR}, {ADDR}, {BASE}"]

    def _mem_item(self, kind: str) -> list[str]:
        store = self.rng.random() < 0.45
        eew = self.rng.choice(SEWS)
        eb = eew // 8
        out: list[str] = []
        if kind == "whole":
            n = self.rng.choice([1, 2, 4, 8])
            reg = self.rng.randrange(0, 32, n)
            off = self.rng.randrange(0, self.buf - n * self.vlenb + 1, eb)
            line = f"vs{n}r.v v{reg}, ({ADDR})" if store else f"vl{n}re{eew}.v v{reg}, ({ADDR})"
            return self._addr(off) + self._vstart() + self._note([line])
        if kind == "mask":
            out += self._ensure_vtype(SEWS, lambda s, m: True)
            off = self.rng.randrange(0, self.buf - self.vlenb + 1)
            reg = self.rng.randrange(32)
            line = f"vsm.v v{reg}, ({ADDR})" if store else f"vlm.v v{reg}, ({ADDR})"
            return out + self._addr(off) + self._vstart() + self._note([line])
        nf = self.rng.randint(2, 8) if kind == "seg" else 1
        mode = self.rng.choice(["unit", "strided", "indexed", "indexed"]) if kind == "seg" else kind
        ff = kind == "ff" or (kind == "seg" and mode == "unit" and not store and self.rng.random() < 0.3)
        if ff:  # fault-only-first (no faults: the buffer is mapped), segment too
            mode, store = "unit", False
        if mode == "indexed":
            ieew = eew
            eew = self.rng.choice(SEWS)  # data EEW is SEW for indexed accesses
            eb = eew // 8
            out += self._ensure_vtype(
                (eew,), lambda s, m: emul_ok(m * ieew / s) and nf * regs(m) <= 8 and regs(m * ieew / s) <= 8
            )
            vt = self.vtype
            assert vt is not None
            demul, iemul = vt.lmul, vt.lmul * ieew / vt.sew
        else:
            out += self._ensure_vtype(SEWS, lambda s, m: emul_ok(m * eew / s) and nf * regs(m * eew / s) <= 8)
            vt = self.vtype
            assert vt is not None
            demul, iemul = vt.lmul * eew / vt.sew, Fraction(0)
        vlmax = vt.vlmax(self.vlen)
        masked = self._mask() if not store or self.rng.random() < 0.9 else False
        mask = ", v0.t" if masked else ""
        seg = f"seg{nf}" if nf > 1 else ""
        pre: list[str] = []
        if mode == "indexed":
            vidx = self._group(iemul, no_v0=masked)
            data = self._group(demul, self._span(vidx, iemul), no_v0=masked, count=nf)
            # the index vector: aligned offsets from a table, loaded at the same vl
            itype = VType(ieew, iemul, vt.ta, vt.ma)
            ioff = self._idx_table_offset(ieew) + self.rng.randrange(0, 64) * (ieew // 8)
            pre += [
                f"li {AUX}, {ioff}",
                f"add {AUX}, {AUX}, {BASE}",
                f"vsetvli x0, x0, {itype.text}",
                f"vle{ieew}.v v{vidx}, ({AUX})",
                f"vsetvli x0, x0, {vt.text}",
            ]
            self.prog.vector_instructions += 3
            span = self.idx_span[ieew] + nf * eb
            off = self.rng.randrange(0, self.buf - span + 1, eb)
            order = self.rng.choice(["u", "o"])
            op = f"v{'s' if store else 'l'}{order}x{seg}ei{ieew}.v"
            line = f"{op} v{data}, ({ADDR}), v{vidx}{mask}"
        else:
            data = self._group(demul, no_v0=masked, count=nf)
            if mode == "strided":
                stride = self._stride(eb, nf, vlmax)
                span = abs(stride) * max(vlmax - 1, 0) + nf * eb
                lo = abs(stride) * max(vlmax - 1, 0) if stride < 0 else 0
                off = self.rng.randrange(lo, lo + self.buf - span + 1, eb) if span <= self.buf else None
                if off is None:
                    raise Unfit
                pre += [f"li {AUX}, {stride}"]
                op = f"v{'s' if store else 'l'}s{seg}e{eew}.v"
                line = f"{op} v{data}, ({ADDR}), {AUX}{mask}"
            else:
                span = vlmax * nf * eb
                if span > self.buf:
                    raise Unfit
                off = self.rng.randrange(0, self.buf - span + 1, eb)
                op = f"v{'s' if store else 'l'}{seg}e{eew}{'ff' if ff else ''}.v"
                line = f"{op} v{data}, ({ADDR}){mask}"
        return out + pre + self._addr(off) + self._vstart() + self._note([line]) + self._after(False)

    def _stride(self, eb: int, nf: int, vlmax: int) -> int:
        limit = (self.buf - nf * eb) // max(vlmax - 1, 1) // eb * eb
        options = [0, eb, nf * eb, 2 * nf * eb, -nf * eb, -eb, self.rng.randrange(0, 64, eb)]
        options = [s for s in options if abs(s) <= limit]
        return self.rng.choice(options or [0])

    def _idx_table_offset(self, ieew: int) -> int:
        return self.buf + {8: 0, 16: 1, 32: 2}[ieew] * self.idx_len
