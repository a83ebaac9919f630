"""Numbers of a Gemmini unit derived from its SoC config.

Every layer that needs DIM, row counts, address widths or block lengths takes
them from :class:`GemminiParams` (the model, the C header generator, the
compiler and the RTL build), so nothing restates them. Names follow the macros
of Gemmini's generated ``gemmini_params.h`` where one exists.
"""

from __future__ import annotations

from dataclasses import dataclass

from configs import GemminiUnit, SocConfig, load_soc

ELEM_BYTES = 1  # int8 inputs
ACC_BYTES = 4  # int32 accumulator
# Gemmini's spatial array outputs 20-bit partial sums (Configs.scala, spatialArrayOutputType).
MESH_OUTPUT_BITS = 20
# A local address is 32 bits: [31] accumulator, [30] accumulate, [29] read full
# width, [28:26] norm command, the rest the row; all ones is the garbage address.
ADDR_LEN = 32
GARBAGE_ADDR = 0xFFFF_FFFF
ROW_BITS = 26  # rows live in bits 25..0 (below the norm command)


@dataclass(frozen=True)
class GemminiParams:
    dim: int
    sp_banks: int
    sp_bank_rows: int
    acc_banks: int
    acc_bank_rows: int
    dma_bytes: int
    dma_max_bytes: int
    dataflows: tuple[str, ...]
    loop_conv: bool

    @property
    def sp_rows(self) -> int:
        return self.sp_banks * self.sp_bank_rows

    @property
    def acc_rows(self) -> int:
        return self.acc_banks * self.acc_bank_rows

    @property
    def sp_row_bits(self) -> int:
        """Bits of a scratchpad row index (14 at Gemmini's default sizes)."""
        return (self.sp_rows - 1).bit_length()

    @property
    def acc_row_bits(self) -> int:
        """Bits of an accumulator row index (10 at Gemmini's default sizes)."""
        return (self.acc_rows - 1).bit_length()

    @property
    def max_block_len(self) -> int:
        """DIM-wide int8 blocks one mvin may move (MAX_BLOCK_LEN)."""
        return max(1, self.dma_max_bytes // (self.dim * ELEM_BYTES))

    @property
    def max_block_len_acc(self) -> int:
        """DIM-wide int32 blocks one mvin/mvout to or from the accumulator may move (MAX_BLOCK_LEN_ACC)."""
        return max(1, self.dma_max_bytes // (self.dim * ACC_BYTES))

    @property
    def has_ws(self) -> bool:
        return "WS" in self.dataflows

    @property
    def has_os(self) -> bool:
        return "OS" in self.dataflows


def gemmini_params(soc: SocConfig | str) -> GemminiParams:
    """The derived parameters of ``soc``'s Gemmini unit; an error names a config without one."""
    soc = load_soc(soc)
    g = soc.accelerator
    if not isinstance(g, GemminiUnit):
        raise ValueError(f"SoC config {soc.name!r} has no Gemmini unit (accelerator kind {g.kind!r})")
    sp_rows = g.scratchpad_kib * 1024 // (g.dim * ELEM_BYTES)
    acc_rows = g.accumulator_kib * 1024 // (g.dim * ACC_BYTES)
    return GemminiParams(
        dim=g.dim,
        sp_banks=g.sp_banks,
        sp_bank_rows=sp_rows // g.sp_banks,
        acc_banks=g.acc_banks,
        acc_bank_rows=acc_rows // g.acc_banks,
        dma_bytes=g.dma_bytes,
        dma_max_bytes=g.dma_max_bytes,
        dataflows=tuple(g.dataflows),
        loop_conv=g.loop_conv,
    )
