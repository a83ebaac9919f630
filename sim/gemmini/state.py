"""What the Gemmini functional model holds, and the local-address checks every instruction shares.

:class:`GemminiState` declares the state software can observe (scratchpad, accumulator, config registers,
counters); the model's units (config_decode.py, data_movement.py, mesh.py) are mixins over it, composed into one
object in sim/gemmini/model.py. They share one object rather than holding parts of the state each because its
observers work on the model's attributes: the Spike bridge wraps ``sp``/``acc`` and ``_write_result``
(spike_bridge.py), and the unit test bench snapshots and restores the state attribute by attribute when an
instruction is refused (sim/tb/gemmini/unit_stim.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from sim.gemmini import isa
from sim.gemmini.params import GemminiParams


class GemminiIllegal(Exception):
    """An instruction Gemmini would reject (or whose behaviour is undefined); the message names it and the field."""


class Memory(Protocol):
    """Main memory as the DMA sees it (physical addresses)."""

    def read(self, addr: int, size: int) -> bytes: ...

    def write(self, addr: int, data: bytes) -> None: ...


@dataclass
class LoadConfig:
    """One mvin id's config_ld state (mvin, mvin2, mvin3 each have one)."""

    stride: int = 0
    scale: np.float32 = field(default_factory=lambda: np.float32(1.0))
    shrink: bool = False
    block_stride: int = 0
    pixel_repeats: int = 1


@dataclass
class ExConfig:
    dataflow: int = isa.WS
    activation: int = isa.ACT_NONE
    a_transpose: bool = False
    b_transpose: bool = False
    a_stride: int = 1
    c_stride: int = 1
    acc_scale: np.float32 = field(default_factory=lambda: np.float32(1.0))
    shift: int = 0


@dataclass
class StoreConfig:
    stride: int = 0
    activation: int = isa.ACT_NONE
    scale: np.float32 = field(default_factory=lambda: np.float32(1.0))
    pool_stride: int = 0
    pool_size: int = 0
    pool_out_dim: int = 0
    porows: int = 0
    pocols: int = 0
    orows: int = 0
    ocols: int = 0
    upad: int = 0
    lpad: int = 0


class GemminiState:
    """The model's observable state (set up by GemminiModel.__init__) and the bounds checks on local addresses."""

    p: GemminiParams
    mem: Memory
    sp: np.ndarray  # (sp_rows, DIM) int8
    acc: np.ndarray  # (acc_rows, DIM) int32
    ld: list[LoadConfig]  # one per mvin id
    ex: ExConfig
    st: StoreConfig
    counters: dict[str, int]

    def _acc_row(self, insn: str, raw: int, span: int) -> int:
        row = raw & ((1 << 26) - 1)
        if (raw >> 26) & 7:
            raise GemminiIllegal(
                f"gemmini {insn}: norm command = {(raw >> 26) & 7} (local address bits 28..26) needs "
                "a normalization unit this Gemmini has not"
            )
        if row + span > self.p.acc_rows:
            raise GemminiIllegal(
                f"gemmini {insn}: accumulator rows {row}..{row + span - 1} (local address "
                f"{raw:#010x}) are outside the accumulator ({self.p.acc_rows} rows)"
            )
        return row

    def _sp_row(self, insn: str, raw: int, span: int) -> int:
        row = raw & 0x3FFF_FFFF  # bits 30 and 29 mean nothing for the scratchpad
        if row + span > self.p.sp_rows:
            raise GemminiIllegal(
                f"gemmini {insn}: scratchpad rows {row}..{row + span - 1} (local address "
                f"{raw:#010x}) are outside the scratchpad ({self.p.sp_rows} rows)"
            )
        return row

    def _check_rows(self, insn: str, what: str, rows: int, cols: int, max_cols: int | None = None) -> None:
        d = self.p.dim
        if rows > d:
            raise GemminiIllegal(f"gemmini {insn}: {what}rows = {rows} exceeds DIM = {d}")
        if cols > (max_cols if max_cols is not None else d):
            raise GemminiIllegal(f"gemmini {insn}: {what}cols = {cols} exceeds DIM = {d}")

    def _space(self, raw: int) -> int:
        return self.p.acc_rows if raw >> 31 & 1 else self.p.sp_rows
