"""Gemmini instruction words as text, for trap messages, difftest reports and ``cosim`` listings.

With the register values known (the model's trap messages, a difftest with
operands) the fields are decoded by name::

    gemmini mvin dram=0x40001000 sp=0x00000010 rows 4 cols 4
    gemmini config_ex dataflow WS act relu a_stride 1 scale 0.5 shift 0 c_stride 1

Without them, the mnemonic and register numbers: ``gemmini mvin x10, x11``.
Text conventions: addresses as ``name=0x...``, counts as ``name N``, a set flag
as its bare name (absent = clear), a local address as ``sp=0x<row>``/``acc=0x<row>``
followed by ``accumulate``/``full``/``norm N`` and ``rows R cols C``, or
``garbage``. Bits no field covers are listed at the end (``ignored rs1 0x...``)
so a malformed operand stays visible. Field positions: DESIGN.md, Gemmini unit.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from sim.gemmini import isa
from sim.gemmini.isa import FUNCT_NAMES, LocalAddr, funct_of, split_rs2

MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class Field:
    """``width`` bits of rs1 (``reg`` 1) or rs2 (``reg`` 2) from bit ``lo``, rendered as ``kind``."""

    name: str
    reg: int
    lo: int
    width: int
    # n: decimal; n0: decimal, left out when 0; addr: hex; flag: name when set;
    # act: activation name; f32: float from its bits; dataflow: WS/OS; local: an rs2-style operand
    kind: str = "n"

    def bits(self, rs1: int, rs2: int) -> int:
        return ((rs1 if self.reg == 1 else rs2) >> self.lo) & ((1 << self.width) - 1)

    @property
    def mask(self) -> int:
        return ((1 << self.width) - 1) << self.lo


def _f(name: str, reg: int, lo: int, width: int, kind: str = "n") -> Field:
    return Field(name, reg, lo, width, kind)


def _quads(reg: int, names: tuple[str, ...]) -> list[Field]:
    """Up to four 16-bit fields of one register, lowest first (loop_ws/loop_conv configs)."""
    return [_f(n, reg, 16 * i, 16) for i, n in enumerate(names) if n]


_MOVE = [_f("dram", 1, 0, 64, "addr"), _f("", 2, 0, 64, "local")]

FORMATS: dict[str, list[Field]] = {
    "mvin": _MOVE,
    "mvin2": _MOVE,
    "mvin3": _MOVE,
    "mvout": _MOVE,
    "preload": [_f("bd", 1, 0, 64, "local"), _f("c", 2, 0, 64, "local")],
    "compute_preloaded": [_f("a", 1, 0, 64, "local"), _f("bd", 2, 0, 64, "local")],
    "compute_accumulated": [_f("a", 1, 0, 64, "local"), _f("bd", 2, 0, 64, "local")],
    "config_ex": [
        _f("dataflow", 1, 2, 1, "dataflow"),
        _f("act", 1, 3, 2, "act"),
        _f("set_only_strides", 1, 7, 1, "flag"),
        _f("a_transpose", 1, 8, 1, "flag"),
        _f("b_transpose", 1, 9, 1, "flag"),
        _f("a_stride", 1, 16, 16),
        _f("scale", 1, 32, 32, "f32"),
        _f("shift", 2, 0, 32),
        _f("c_stride", 2, 48, 16),
    ],
    "config_ld": [
        _f("id", 1, 3, 2),
        _f("stride", 2, 0, 64),
        _f("scale", 1, 32, 32, "f32"),
        _f("shrink", 1, 2, 1, "flag"),
        _f("block_stride", 1, 16, 16),
        _f("pixel_repeats", 1, 8, 8),
    ],
    "config_st": [
        _f("stride", 2, 0, 32),
        _f("act", 1, 2, 2, "act"),
        _f("scale", 2, 32, 32, "f32"),
        _f("pool_stride", 1, 4, 2, "n0"),
        _f("pool_size", 1, 6, 2, "n0"),
        _f("upad", 1, 8, 2, "n0"),
        _f("lpad", 1, 10, 2, "n0"),
        _f("pool_out_dim", 1, 24, 8, "n0"),
        _f("porows", 1, 32, 8, "n0"),
        _f("pocols", 1, 40, 8, "n0"),
        _f("orows", 1, 48, 8, "n0"),
        _f("ocols", 1, 56, 8, "n0"),
    ],
    "config_norm": [],
    "flush": [_f("skip", 1, 0, 1, "flag")],
    "loop_ws": [
        _f("ex_accumulate", 1, 0, 1, "flag"),
        _f("full_c", 1, 1, 1, "flag"),
        _f("low_d", 1, 2, 1, "flag"),
        _f("act", 1, 8, 3, "act"),
        _f("b_spad_id", 1, 16, 2),
        _f("a_spad_id", 1, 18, 2),
        _f("a_transpose", 2, 0, 1, "flag"),
        _f("b_transpose", 2, 1, 1, "flag"),
        _f("resadd", 2, 2, 1, "flag"),
    ],
    "loop_ws_config_bounds": _quads(2, ("I", "J", "K")) + _quads(1, ("pad_I", "pad_J", "pad_K")),
    "loop_ws_config_addrs_ab": [_f("a", 1, 0, 64, "addr"), _f("b", 2, 0, 64, "addr")],
    "loop_ws_config_addrs_dc": [_f("d", 1, 0, 64, "addr"), _f("c", 2, 0, 64, "addr")],
    "loop_ws_config_strides_ab": [_f("a_stride", 1, 0, 64), _f("b_stride", 2, 0, 64)],
    "loop_ws_config_strides_dc": [_f("d_stride", 1, 0, 64), _f("c_stride", 2, 0, 64)],
    "loop_conv_ws": [
        _f("no_bias", 1, 0, 1, "flag"),
        _f("wrot180", 1, 1, 1, "flag"),
        _f("trans_output_1203", 1, 2, 1, "flag"),
        _f("trans_weight_1203", 1, 3, 1, "flag"),
        _f("trans_weight_0132", 1, 4, 1, "flag"),
        _f("trans_input_3120", 1, 5, 1, "flag"),
        _f("dw", 1, 6, 1, "flag"),
        _f("max_pixels_per_row", 1, 8, 8),
        _f("no_pool", 2, 0, 1, "flag"),
        _f("downsample", 2, 1, 1, "flag"),
        _f("input_dilated", 2, 2, 1, "flag"),
        _f("act", 2, 3, 2, "act"),
    ],
    "loop_conv_ws_config_1": _quads(1, ("batch_size", "in_dim", "in_channels", "out_channels"))
    + _quads(2, ("out_dim", "pool_out_dim", "stride", "padding")),
    "loop_conv_ws_config_2": _quads(1, ("pool_padding", "pool_stride", "pool_size", "kernel_dim"))
    + _quads(2, ("pochs", "pocols", "porows", "batches")),
    "loop_conv_ws_config_3": _quads(1, ("lpad", "kchs", "kcols", "krows"))
    + _quads(2, ("plpad", "dpad", "upad", "rpad")),
    "loop_conv_ws_config_4": _quads(1, ("pdpad", "pupad", "prpad", "orows")) + _quads(2, ("ocols", "kernel_dilation")),
    "loop_conv_ws_config_5": [_f("weights", 1, 0, 64, "addr"), _f("output", 2, 0, 64, "addr")],
    "loop_conv_ws_config_6": [_f("bias", 1, 0, 64, "addr"), _f("input", 2, 0, 64, "addr")],
    "clkgate_en": [_f("enable", 1, 0, 1, "flag")],
    # counter: rs1 [0] reset, [1] snapshot reset, [2] snapshot take, [3] configure,
    # [6:4] counter index, [17:12] event, [31] external (non-incremental) event
    "counter": [
        _f("reset", 1, 0, 1, "flag"),
        _f("snapshot_reset", 1, 1, 1, "flag"),
        _f("snapshot_take", 1, 2, 1, "flag"),
        _f("configure", 1, 3, 1, "flag"),
        _f("index", 1, 4, 3),
        _f("event", 1, 12, 6, "n0"),
        _f("external", 1, 31, 1, "flag"),
    ],
}

CONFIG_SUBOPS = {isa.CONFIG_EX: "config_ex", isa.CONFIG_LD: "config_ld", isa.CONFIG_ST: "config_st"}


def f32_text(bits: int) -> str:
    """Shortest decimal that reads back as the same float32 (NaNs keep their bits)."""
    value = struct.unpack("<f", struct.pack("<I", bits & 0xFFFF_FFFF))[0]
    if value != value:
        return f"nan(0x{bits:08x})"
    for digits in range(1, 10):
        text = f"{value:.{digits}g}"
        if struct.unpack("<f", struct.pack("<f", float(text)))[0] == value:
            return text
    return repr(value)  # not reached: 9 significant digits always round-trip a float32


def local_text(rs2: int) -> str:
    """An rs2-style operand: local address[31:0], cols[47:32], rows[63:48]."""
    addr, cols, rows = split_rs2(rs2)
    return f"{address_text(addr)} rows {rows} cols {cols}"


def address_text(addr: LocalAddr) -> str:
    if addr.garbage:
        return "garbage"
    parts = [f"{'acc' if addr.is_acc else 'sp'}=0x{addr.row:08x}"]
    if addr.accumulate:
        parts.append("accumulate")
    if addr.read_full:
        parts.append("full")
    if addr.norm_cmd:
        parts.append(f"norm {addr.norm_cmd}")
    return " ".join(parts)


def _activation(code: int) -> str:
    return isa.ACTIVATION_NAMES.get(code, str(code))


def _render(field: Field, value: int) -> str | None:
    kind = field.kind
    if kind == "local":
        text = local_text(value)
        return f"{field.name} {text}" if field.name else text
    if kind == "addr":
        return f"{field.name}=0x{value:x}"
    if kind == "flag":
        return field.name if value else None
    if kind == "act":
        return f"{field.name} {_activation(value)}"
    if kind == "f32":
        return f"{field.name} {f32_text(value)}"
    if kind == "dataflow":
        return f"{field.name} {'WS' if value == isa.WS else 'OS'}"
    if kind == "n0" and value == 0:
        return None
    return f"{field.name} {value}"


def mnemonic(funct: int, rs1: int | None = None) -> str | None:
    """``config_ex``/``config_ld``/... for config when rs1 is known, else the funct's name (None: unknown)."""
    name = FUNCT_NAMES.get(funct)
    if funct == isa.CONFIG and rs1 is not None:
        return CONFIG_SUBOPS.get(rs1 & 3, "config_norm")
    return name


def _registers(word: int, funct: int) -> str:
    rd, rs1, rs2 = (word >> 7) & 31, (word >> 15) & 31, (word >> 20) & 31
    regs = f"x{rs1}, x{rs2}"
    return f"x{rd}, {regs}" if funct == isa.COUNTER else regs


def _funct3_note(word: int, funct: int) -> str:
    funct3 = (word >> 12) & 7
    expected = isa.FUNCT3_RD if funct == isa.COUNTER else isa.FUNCT3_NO_RD
    return "" if funct3 == expected else f" (funct3 {funct3:03b}, expected {expected:03b})"


def disasm_gemmini(word: int, rs1: int | None = None, rs2: int | None = None) -> str:
    """Text of a custom-3 (Gemmini) instruction word; fields decoded when rs1 and rs2 are given."""
    funct = funct_of(word)
    note = _funct3_note(word, funct)
    name = mnemonic(funct, rs1 if rs2 is not None else None)
    if name is None:
        values = f" rs1=0x{rs1 & MASK64:x} rs2=0x{rs2 & MASK64:x}" if rs1 is not None and rs2 is not None else ""
        return f"gemmini funct {funct} (unknown) {_registers(word, funct)}{values}{note}"
    if rs1 is None or rs2 is None:
        return f"gemmini {name} {_registers(word, funct)}{note}"
    rs1 &= MASK64
    rs2 &= MASK64
    fields = FORMATS[name]
    parts = [text for f in fields if (text := _render(f, f.bits(rs1, rs2))) is not None]
    if name == "config_norm":
        parts.append("(needs normalization units)")
    if name == "counter":
        if not rs1 & 0xF:
            parts.insert(0, "read")
        parts.append(f"-> x{(word >> 7) & 31}")
    known = {1: 3 if name.startswith("config") else 0, 2: 0}  # config's rs1[1:0] picks the sub-op
    for f in fields:
        known[f.reg] |= f.mask
    ignored = [f"{r} 0x{v:x}" for r, v in (("rs1", rs1 & ~known[1]), ("rs2", rs2 & ~known[2])) if v]
    if ignored:
        parts.append("ignored " + " ".join(ignored))
    # Two operands (preload, compute) are told apart by a comma, as in assembly.
    sep = ", " if sum(f.kind == "local" for f in fields) > 1 else " "
    return (f"gemmini {name} " + sep.join(parts)).rstrip() + note
