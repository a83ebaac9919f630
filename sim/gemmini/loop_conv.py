"""loop_conv_ws (funct 15..21): Gemmini's hardware convolution loop, unrolled.

Gemmini v0.7's LoopConv unit takes six config registers (funct 16..21) and a
start command (funct 15) and issues primitive commands from five sequencers:
bias loader (config_ld id 2 + mvin3 into the accumulator), weight loader
(config_ld id 1 + mvin2), input loader (config_ld id 0 + mvin, zero rows for
padding), execute (preload + compute over the kernel window, accumulating into
the accumulator) and store (mvout, or config_st + pooled mvouts + config_st).
In hardware the sequencers overlap and Gemmini's ROB orders their hazards; a
functional model gets the same memory effect by running them one after the
other, which is what :meth:`LoopConv.commands` yields. The fields, their checks and the
tile geometry are in conv_geometry.py, the five sequencers in conv_sequencers.py.

Double buffering is kept as in hardware: two loop slots alternate (each owns one
half of the scratchpad: input rows from the bottom of the half, weights from its
top) and the accumulator half flips after every loop that writes an output
(a loop with output address 0 keeps its partial sums where the next loop adds to
them).

Register packing follows gemmini.h's ``gemmini_loop_conv_ws`` (see
:data:`FIELDS`). Supported: batch, stride, padding, kernel dilation, input
dilation, downsampling, max pooling, ReLU, wrot180, the four transposes, no_bias
and max_pixels_per_row (first-layer optimization; the mvin's pixel repeats do the
work). The ``dw`` bit (rs1[6]) is ignored, as v0.7's LoopConv ignores it: a
depthwise conv runs as one loop per channel with the strides chosen by software.
"""

from __future__ import annotations

from collections.abc import Iterator

from sim.gemmini.conv_geometry import FIELDS, ConvLoop, check, conv_illegal, decode, derive
from sim.gemmini.conv_sequencers import generate
from sim.gemmini.params import GemminiParams


class LoopConv:
    """The config registers of Gemmini's conv loop and its two double-buffered loop slots."""

    def __init__(self) -> None:
        self._regs: list[dict[int, tuple[int, int]]] = [{}, {}]
        self._slot = 0  # the loop slot the next configs and start go to
        self._acc_start = 0  # accumulator row where the next loop's bias/outputs start
        self.last: ConvLoop | None = None  # the most recent loop, for diagnostics

    def configure(self, funct: int, rs1: int, rs2: int) -> None:
        if funct not in FIELDS:
            raise conv_illegal(f"funct {funct} is not a loop_conv_ws config (16..21)")
        self._regs[self._slot][funct] = (rs1, rs2)

    def commands(self, rs1: int, rs2: int, params: GemminiParams) -> Iterator[tuple[int, int, int]]:
        """The primitive commands (funct, rs1, rs2) of the loop that this start command (funct 15) runs.

        Validation and the double-buffer bookkeeping happen now, at the start command; the commands
        themselves are generated as they are consumed.
        """
        c = decode(self._regs[self._slot], rs1, rs2)
        check(c, params)
        d = derive(c, params.dim)
        half_sp = params.sp_rows // 2
        half_acc = params.acc_rows // 2
        if d.a_rows + d.b_rows > half_sp:
            raise conv_illegal(
                f"tile needs {d.a_rows} input + {d.b_rows} weight scratchpad rows but a loop has half the "
                f"scratchpad ({half_sp} rows): reduce batches/orows/ocols/kchs/pochs/krows/kcols"
            )
        if d.c_rows > half_acc:
            raise conv_illegal(
                f"tile needs {d.c_rows} accumulator rows (pochs {c.pochs} x batches {c.batches} x orows "
                f"{c.orows} x ocols {c.ocols}) but a loop has half the accumulator ({half_acc} rows)"
            )
        a_start = self._slot * half_sp
        b_end = (self._slot + 1) * half_sp
        acc_start = self._acc_start
        self._slot ^= 1
        if c.output != 0:
            self._acc_start = (self._acc_start + half_acc) % params.acc_rows
        self.last = c
        return generate(c, d, params, a_start, b_end - d.b_rows, acc_start)
