"""Operation and rounding-mode codes of ``fpu_pkg`` (sim/rtl/fpu/fpu_pkg.sv)."""

from __future__ import annotations

import enum
import re
from pathlib import Path

PKG_PATH = Path(__file__).resolve().parents[2] / "rtl" / "fpu" / "fpu_pkg.sv"


class FpuOp(enum.IntEnum):
    ADD = 0
    SUB = 1
    MUL = 2
    DIV = 3
    SQRT = 4
    MADD = 5
    MSUB = 6
    NMSUB = 7
    NMADD = 8
    MIN = 9
    MAX = 10
    EQ = 11
    LT = 12
    LE = 13
    CLASS = 14
    SGNJ = 15
    SGNJN = 16
    SGNJX = 17
    CVT_W_S = 18
    CVT_WU_S = 19
    CVT_L_S = 20
    CVT_LU_S = 21
    CVT_S_W = 22
    CVT_S_WU = 23
    CVT_S_L = 24
    CVT_S_LU = 25


class Rm(enum.IntEnum):
    RNE = 0
    RTZ = 1
    RDN = 2
    RUP = 3
    RMM = 4


# fflags bits (fcsr layout; SoftFloat's flag values are the same).
NV, DZ, OF, UF, NX = 16, 8, 4, 2, 1

# Ops whose rounding mode matters; the others are run with every rm anyway.
ROUNDED_OPS = frozenset(
    {
        FpuOp.ADD,
        FpuOp.SUB,
        FpuOp.MUL,
        FpuOp.DIV,
        FpuOp.SQRT,
        FpuOp.MADD,
        FpuOp.MSUB,
        FpuOp.NMSUB,
        FpuOp.NMADD,
        FpuOp.CVT_W_S,
        FpuOp.CVT_WU_S,
        FpuOp.CVT_L_S,
        FpuOp.CVT_LU_S,
        FpuOp.CVT_S_W,
        FpuOp.CVT_S_WU,
        FpuOp.CVT_S_L,
        FpuOp.CVT_S_LU,
    }
)


def rtl_op_names(pkg_path: Path = PKG_PATH) -> list[str]:
    """The ``fpu_op_e`` members in declaration order, parsed from the package."""
    text = pkg_path.read_text()
    m = re.search(r"typedef\s+enum\s+logic\s*\[4:0\]\s*\{(.*?)\}\s*fpu_op_e", text, re.S)
    if not m:
        raise ValueError(f"{pkg_path}: no 'typedef enum logic [4:0] {{...}} fpu_op_e' found")
    body = re.sub(r"//.*", "", m.group(1))
    return [n.strip() for n in body.split(",") if n.strip()]
