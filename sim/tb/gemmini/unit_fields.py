"""The fields of every Gemmini v0.7 instruction, as bit ranges of rs1 / rs2, and a decoder of streams into them.

One table (:data:`FIELDS`) names each field of each instruction (config split by rs1[1:0] into config_ex /
config_ld / config_st / config_norm) with its register and bits, in the encoding of Gemmini v0.7's ``gemmini.h``
that ``sim/gemmini/model.py`` parses. :func:`insn_kind` names the instruction of a (funct, rs1, rs2) and
:func:`field_values` reads its fields, so a test stream can be measured: which fields it varies and how many
values each took (``sim/rtl/gemmini/gen_coverage.py`` builds COVERAGE.md from this).
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.gemmini import isa


@dataclass(frozen=True)
class Field:
    kind: str  # instruction (config_ex, mvin, ...)
    name: str
    reg: int  # 1: rs1, 2: rs2
    lo: int
    width: int

    @property
    def bits(self) -> str:
        hi = self.lo + self.width - 1
        return f"rs{self.reg}[{hi}:{self.lo}]" if self.width > 1 else f"rs{self.reg}[{self.lo}]"

    def value(self, rs1: int, rs2: int) -> int:
        return ((rs1 if self.reg == 1 else rs2) >> self.lo) & ((1 << self.width) - 1)


def _local(kind: str, reg: int, what: str, acc_bits: tuple[str, ...]) -> list[Field]:
    """A local-address operand: address row and flags (bits 31..0), cols (47..32), rows (63..48)."""
    p = f"{what} " if what else ""
    out = [Field(kind, f"{p}row", reg, 0, 26), Field(kind, f"{p}acc (bit 31)", reg, 31, 1)]
    if "accumulate" in acc_bits:
        out.append(Field(kind, f"{p}accumulate (bit 30)", reg, 30, 1))
    if "full" in acc_bits:
        out.append(Field(kind, f"{p}read full width (bit 29)", reg, 29, 1))
    out.append(Field(kind, f"{p}norm command (bits 28:26)", reg, 26, 3))
    out += [Field(kind, f"{p}cols", reg, 32, 16), Field(kind, f"{p}rows", reg, 48, 16)]
    return out


def _table() -> tuple[Field, ...]:
    f: list[Field] = []
    ex = "config_ex"
    f += [
        Field(ex, "dataflow", 1, 2, 1),
        Field(ex, "activation", 1, 3, 2),
        Field(ex, "set only strides", 1, 7, 1),
        Field(ex, "A transpose", 1, 8, 1),
        Field(ex, "B transpose", 1, 9, 1),
        Field(ex, "A stride", 1, 16, 16),
        Field(ex, "accumulator scale (fp32)", 1, 32, 32),
        Field(ex, "shift", 2, 0, 5),
        Field(ex, "C stride", 2, 48, 16),
    ]
    ld = "config_ld"
    f += [
        Field(ld, "shrink", 1, 2, 1),
        Field(ld, "mvin id", 1, 3, 2),
        Field(ld, "pixel repeats", 1, 8, 8),
        Field(ld, "block stride", 1, 16, 16),
        Field(ld, "scale (fp32)", 1, 32, 32),
        Field(ld, "DRAM stride", 2, 0, 64),
    ]
    st = "config_st"
    f += [
        Field(st, "activation", 1, 2, 2),
        Field(st, "pool stride", 1, 4, 2),
        Field(st, "pool size", 1, 6, 2),
        Field(st, "upper pad", 1, 8, 2),
        Field(st, "left pad", 1, 10, 2),
        Field(st, "pool out dim", 1, 24, 8),
        Field(st, "pooled out rows", 1, 32, 8),
        Field(st, "pooled out cols", 1, 40, 8),
        Field(st, "out rows", 1, 48, 8),
        Field(st, "out cols", 1, 56, 8),
        Field(st, "DRAM stride", 2, 0, 32),
        Field(st, "scale (fp32; all ones keeps it)", 2, 32, 32),
    ]
    f.append(Field("config_norm", "any (rs1[1:0] = 3)", 1, 2, 62))
    for mv in ("mvin", "mvin2", "mvin3"):
        f.append(Field(mv, "DRAM address", 1, 0, 64))
        f += _local(mv, 2, "", ("accumulate",))
    f.append(Field("mvout", "DRAM address", 1, 0, 64))
    f += _local("mvout", 2, "", ("full",))
    f += _local("preload", 1, "B/D", ())
    f += _local("preload", 2, "C", ("accumulate",))
    for c in ("compute_preloaded", "compute_accumulated"):
        f += _local(c, 1, "A", ())
        f += _local(c, 2, "B/D", ())
    f.append(Field("flush", "rs1 (skip)", 1, 0, 64))
    lw = "loop_ws"
    f += [
        Field(lw, "ex accumulate", 1, 0, 1),
        Field(lw, "full C", 1, 1, 1),
        Field(lw, "low D", 1, 2, 1),
        Field(lw, "activation", 1, 8, 3),
        Field(lw, "A transpose", 2, 0, 1),
        Field(lw, "B transpose", 2, 1, 1),
        Field(lw, "residual add", 2, 2, 1),
    ]
    b = "loop_ws_config_bounds"
    f += [Field(b, f"max {x}", 2, 16 * i, 16) for i, x in enumerate("IJK")]
    f += [Field(b, f"pad {x}", 1, 16 * i, 16) for i, x in enumerate("IJK")]
    for name, (x, y) in (
        ("loop_ws_config_addrs_ab", ("A address", "B address")),
        ("loop_ws_config_addrs_dc", ("D address", "C address")),
        ("loop_ws_config_strides_ab", ("A stride", "B stride")),
        ("loop_ws_config_strides_dc", ("D stride", "C stride")),
    ):
        f += [Field(name, x, 1, 0, 64), Field(name, y, 2, 0, 64)]
    for n in range(isa.LOOP_CONV_WS, isa.LOOP_CONV_WS_CONFIG_6 + 1):
        f.append(Field(isa.FUNCT_NAMES[n], "rs1", 1, 0, 64))
    f.append(Field("clkgate_en", "rs1", 1, 0, 64))
    cn = "counter"
    f += [
        Field(cn, "reset all", 1, 0, 1),
        Field(cn, "clear snapshot", 1, 1, 1),
        Field(cn, "take snapshot", 1, 2, 1),
        Field(cn, "configure", 1, 3, 1),
        Field(cn, "counter index", 1, 4, 3),
        Field(cn, "event", 1, 12, 6),
        Field(cn, "external", 1, 31, 1),
    ]
    return tuple(f)


FIELDS: tuple[Field, ...] = _table()
CONFIG_KINDS = {isa.CONFIG_EX: "config_ex", isa.CONFIG_LD: "config_ld", isa.CONFIG_ST: "config_st", 3: "config_norm"}
# every instruction kind in table order (config split in four), with its funct
KINDS: tuple[tuple[str, int], ...] = tuple(
    [(k, isa.CONFIG) for k in CONFIG_KINDS.values()]
    + [(n, f) for f, n in sorted(isa.FUNCT_NAMES.items()) if f != isa.CONFIG]
)


def insn_kind(funct: int, rs1: int) -> str | None:
    """The instruction kind of funct / rs1 (None for an unknown funct)."""
    if funct == isa.CONFIG:
        return CONFIG_KINDS[rs1 & 3]
    return isa.FUNCT_NAMES.get(funct)


def field_values(funct: int, rs1: int, rs2: int) -> dict[Field, int]:
    kind = insn_kind(funct, rs1)
    return {f: f.value(rs1, rs2) for f in FIELDS if f.kind == kind}
