"""Vector type arithmetic for the random vector programs (RVV 1.0, ELEN 32: zve32f)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

ELEN = 32
SEWS = (8, 16, 32)
LMULS = (Fraction(1, 8), Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(4), Fraction(8))


def lmul_text(lmul: Fraction) -> str:
    return f"m{lmul.numerator}" if lmul >= 1 else f"mf{lmul.denominator}"


def legal_lmuls(sew: int) -> list[Fraction]:
    """LMULs a vtype may have with this SEW: LMUL >= SEW/ELEN (else vill)."""
    return [m for m in LMULS if m >= Fraction(sew, ELEN)]


def regs(emul: Fraction) -> int:
    """Registers a group of this EMUL occupies (fractional: one)."""
    return max(1, int(emul))


def emul_ok(emul: Fraction) -> bool:
    return Fraction(1, 8) <= emul <= 8


@dataclass(frozen=True)
class VType:
    sew: int
    lmul: Fraction
    ta: bool = False
    ma: bool = False

    def vlmax(self, vlen: int) -> int:
        return int(vlen * self.lmul / self.sew)

    @property
    def text(self) -> str:
        return f"e{self.sew}, {lmul_text(self.lmul)}, {'ta' if self.ta else 'tu'}, {'ma' if self.ma else 'mu'}"

    @property
    def bits(self) -> int:
        """The vtype CSR value (vsetvl's rs2)."""
        vlmul = self.lmul.numerator.bit_length() - 1 if self.lmul >= 1 else 8 - (self.lmul.denominator.bit_length() - 1)
        vsew = {8: 0, 16: 1, 32: 2}[self.sew]
        return vlmul | vsew << 3 | int(self.ta) << 6 | int(self.ma) << 7

    @property
    def group(self) -> int:
        return regs(self.lmul)


# vtype values that must set vill: reserved vlmul 4, SEW 64 and up (ELEN 32),
# LMUL below SEW/ELEN, reserved high bits.
ILLEGAL_VTYPES = (0x04, 0x18, 0x20, 0x05, 0x0E, 0x17, 0x100, 0x1C0 | 0x08)
