"""Gemmini v0.7 instruction encodings (DESIGN.md, Gemmini unit).

Every Gemmini instruction is a RoCC R-type word on custom-3 (opcode 0x7b):
funct7 selects the operation; funct3 is 011 (rs1 and rs2 read, no rd) except
for the counter instruction, 111 (rd written too). This module holds the
numbers and the local-address fields; :mod:`sim.gemmini.model` gives them
meaning and :mod:`sim.gemmini.disasm` text.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.gemmini.params import GARBAGE_ADDR

OPCODE = 0x7B
FUNCT3_NO_RD = 0b011
FUNCT3_RD = 0b111

CONFIG = 0
MVIN2 = 1
MVIN = 2
MVOUT = 3
COMPUTE_PRELOADED = 4
COMPUTE_ACCUMULATED = 5
PRELOAD = 6
FLUSH = 7
LOOP_WS = 8
LOOP_WS_CONFIG_BOUNDS = 9
LOOP_WS_CONFIG_ADDRS_AB = 10
LOOP_WS_CONFIG_ADDRS_DC = 11
LOOP_WS_CONFIG_STRIDES_AB = 12
LOOP_WS_CONFIG_STRIDES_DC = 13
MVIN3 = 14
LOOP_CONV_WS = 15
LOOP_CONV_WS_CONFIG_1 = 16
LOOP_CONV_WS_CONFIG_2 = 17
LOOP_CONV_WS_CONFIG_3 = 18
LOOP_CONV_WS_CONFIG_4 = 19
LOOP_CONV_WS_CONFIG_5 = 20
LOOP_CONV_WS_CONFIG_6 = 21
CLKGATE_EN = 22
COUNTER = 126

# config's rs1[1:0]
CONFIG_EX = 0
CONFIG_LD = 1
CONFIG_ST = 2
CONFIG_NORM = 3

FUNCT_NAMES: dict[int, str] = {
    CONFIG: "config",
    MVIN2: "mvin2",
    MVIN: "mvin",
    MVOUT: "mvout",
    COMPUTE_PRELOADED: "compute_preloaded",
    COMPUTE_ACCUMULATED: "compute_accumulated",
    PRELOAD: "preload",
    FLUSH: "flush",
    LOOP_WS: "loop_ws",
    LOOP_WS_CONFIG_BOUNDS: "loop_ws_config_bounds",
    LOOP_WS_CONFIG_ADDRS_AB: "loop_ws_config_addrs_ab",
    LOOP_WS_CONFIG_ADDRS_DC: "loop_ws_config_addrs_dc",
    LOOP_WS_CONFIG_STRIDES_AB: "loop_ws_config_strides_ab",
    LOOP_WS_CONFIG_STRIDES_DC: "loop_ws_config_strides_dc",
    MVIN3: "mvin3",
    LOOP_CONV_WS: "loop_conv_ws",
    LOOP_CONV_WS_CONFIG_1: "loop_conv_ws_config_1",
    LOOP_CONV_WS_CONFIG_2: "loop_conv_ws_config_2",
    LOOP_CONV_WS_CONFIG_3: "loop_conv_ws_config_3",
    LOOP_CONV_WS_CONFIG_4: "loop_conv_ws_config_4",
    LOOP_CONV_WS_CONFIG_5: "loop_conv_ws_config_5",
    LOOP_CONV_WS_CONFIG_6: "loop_conv_ws_config_6",
    CLKGATE_EN: "clkgate_en",
    COUNTER: "counter",
}

# Activation codes (config_ex rs1[4:3], config_st rs1[3:2], loop_ws rs1[10:8]).
# 2..4 exist only with Gemmini's optional normalization units, which the default
# build (and ours) has not: they are errors.
ACT_NONE = 0
ACT_RELU = 1
ACTIVATION_NAMES = {0: "none", 1: "relu", 2: "layernorm", 3: "igelu", 4: "softmax"}

# Dataflow (config_ex rs1[2]).
OS = 0
WS = 1


def encode(funct: int, rs1: int = 0, rs2: int = 0, rd: int = 0) -> int:
    """The 32-bit instruction word ``.insn r 0x7b, f3, funct, rd, rs1, rs2`` (register numbers)."""
    funct3 = FUNCT3_RD if funct == COUNTER else FUNCT3_NO_RD
    return (funct << 25) | (rs2 << 20) | (rs1 << 15) | (funct3 << 12) | (rd << 7) | OPCODE


def is_gemmini(word: int) -> bool:
    """Whether a 32-bit instruction word is on Gemmini's opcode (custom-3)."""
    return word & 0x7F == OPCODE


def funct_of(word: int) -> int:
    return (word >> 25) & 0x7F


@dataclass(frozen=True)
class LocalAddr:
    """A 32-bit scratchpad/accumulator address, split into its fields."""

    raw: int

    @property
    def garbage(self) -> bool:
        return self.raw & 0xFFFF_FFFF == GARBAGE_ADDR

    @property
    def is_acc(self) -> bool:
        return bool(self.raw >> 31 & 1)

    @property
    def accumulate(self) -> bool:
        return bool(self.raw >> 30 & 1)

    @property
    def read_full(self) -> bool:
        return bool(self.raw >> 29 & 1)

    @property
    def norm_cmd(self) -> int:
        return self.raw >> 26 & 0x7

    @property
    def row(self) -> int:
        return self.raw & ((1 << 26) - 1)


def split_rs2(rs2: int) -> tuple[LocalAddr, int, int]:
    """mvin/mvout/preload/compute operand: (local address, cols, rows)."""
    return LocalAddr(rs2 & 0xFFFF_FFFF), (rs2 >> 32) & 0xFFFF, (rs2 >> 48) & 0xFFFF
