"""Bit-exact functional model of Gemmini v0.7's ISA (DESIGN.md, Gemmini unit).

One :meth:`GemminiModel.execute` call is one RoCC instruction. State is what
software can observe: the scratchpad (int8 rows of DIM), the accumulator
(int32 rows of DIM), the config registers, the weights/partial sums held in
the mesh between a preload and its computes, and the counters. Timing is not
modelled; every instruction completes before the next one starts, which is
what Gemmini's ROB guarantees for its own commands.

Numbers follow Gemmini's RTL (ExecuteController, LoadController,
StoreController, AccumulatorScale, PE, LoopMatmul); where a choice was made
where the RTL leaves one open, the comment says so.

The model is composed of one unit a job, each in its own module: the state and
local-address checks (state.py), the datapath arithmetic (numerics.py), config
decoding (config_decode.py), mvin/mvout (data_movement.py), the array
(mesh.py), the counters (counters.py) and the loop unrollers (loop_ws.py,
loop_conv.py). This module wires them to the funct numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from sim.gemmini import isa
from sim.gemmini.config_decode import ConfigDecoder
from sim.gemmini.counters import BASE_COUNTERS, COUNTER_NAMES, CounterFile
from sim.gemmini.data_movement import DataMover
from sim.gemmini.mesh import MESH_STREAM, Mesh
from sim.gemmini.numerics import I8_MAX, I8_MIN, I32_MAX, I32_MIN, scale_to_int, wrap
from sim.gemmini.params import ELEM_BYTES, GemminiParams
from sim.gemmini.state import ExConfig, GemminiIllegal, LoadConfig, Memory, StoreConfig

# The model's public API: the class, its refusal, and the arithmetic tests check it with.
__all__ = [
    "BASE_COUNTERS",
    "COUNTER_NAMES",
    "I8_MAX",
    "I8_MIN",
    "I32_MAX",
    "I32_MIN",
    "CounterFile",
    "ExConfig",
    "GemminiIllegal",
    "GemminiModel",
    "LoadConfig",
    "Memory",
    "StoreConfig",
    "scale_to_int",
    "wrap",
]


class GemminiModel(ConfigDecoder, DataMover, Mesh):
    def __init__(self, params: GemminiParams, mem: Memory):
        self.p = params
        self.mem = mem
        d = params.dim
        self.sp = np.zeros((params.sp_rows, d), dtype=np.int8)
        self.acc = np.zeros((params.acc_rows, d), dtype=np.int32)
        # Gemmini's RTL leaves the DRAM strides unset at reset; like Gemmini's own Spike model we start them at one
        # int8 row (DIM bytes), which Gemmini's older tests rely on (they mvin/mvout without a config_ld/st).
        self.ld = [LoadConfig(stride=d * ELEM_BYTES, block_stride=d) for _ in range(3)]
        self.ex = ExConfig(dataflow=isa.WS if params.has_ws else isa.OS)
        self.st = StoreConfig(stride=d * ELEM_BYTES)
        self.counters: dict[str, int] = {k: 0 for k in BASE_COUNTERS}
        for n in COUNTER_NAMES:
            self.counters[n] = 0
        self._init_mesh()
        from sim.gemmini.loop_ws import LoopWs

        self.loop_ws = LoopWs()
        self._loop_conv = None
        self.counter_file = CounterFile(self.counters)
        self._dispatch: dict[int, Callable[[int, int], int]] = {
            isa.CONFIG: self._config,
            isa.MVIN: self._mvin0,
            isa.MVIN2: self._mvin1,
            isa.MVIN3: self._mvin2,
            isa.MVOUT: self._mvout,
            isa.PRELOAD: self._preload,
            isa.COMPUTE_PRELOADED: self._compute_preloaded,
            isa.COMPUTE_ACCUMULATED: self._compute_accumulated,
            isa.FLUSH: self._flush,
            isa.LOOP_WS: self._loop_ws,
            isa.CLKGATE_EN: lambda rs1, rs2: 0,
            isa.COUNTER: self.counter_file.execute,
        }
        for f in range(isa.LOOP_WS_CONFIG_BOUNDS, isa.LOOP_WS_CONFIG_STRIDES_DC + 1):
            self._dispatch[f] = self._loop_ws_config(f)
        for f in range(isa.LOOP_CONV_WS, isa.LOOP_CONV_WS_CONFIG_6 + 1):
            self._dispatch[f] = self._loop_conv_cmd(f)

    # ------------------------------------------------------------ entry point

    def execute(self, funct: int, rs1: int, rs2: int) -> int:
        """Run one RoCC instruction; returns the rd value (0 when it writes none)."""
        fn = self._dispatch.get(funct)
        if fn is None:
            raise GemminiIllegal(f"gemmini: unknown funct {funct} (Gemmini v0.7 defines {sorted(isa.FUNCT_NAMES)})")
        self.counters["insn_" + isa.FUNCT_NAMES[funct]] += 1
        if self._os_out is not None and funct not in MESH_STREAM:
            self._os_drain()
        return fn(rs1 & 0xFFFF_FFFF_FFFF_FFFF, rs2 & 0xFFFF_FFFF_FFFF_FFFF)

    def run(self, cmds: Iterable[tuple[int, int, int]]) -> None:
        """Execute unrolled primitive commands (loop_ws/loop_conv); they count like the instructions they are."""
        disp, cnt = self._dispatch, self.counters
        n = 0
        for funct, rs1, rs2 in cmds:
            cnt["insn_" + isa.FUNCT_NAMES[funct]] += 1
            if self._os_out is not None and funct not in MESH_STREAM:
                self._os_drain()
            disp[funct](rs1, rs2)
            n += 1
        cnt["loop_cmds"] += n

    def _flush(self, rs1: int, rs2: int) -> int:
        """Funct 7 flushes Gemmini's TLB (Controller.scala sends it to the TLB, not to the ROB): nothing of the
        array or a pending preload changes; execute() has already written a pending OS result (_os_drain)."""
        self.counters["flushes"] += 1
        return 0

    # ------------------------------------------------------------ loops

    def _loop_ws_config(self, funct: int) -> Callable[[int, int], int]:
        def run(rs1: int, rs2: int) -> int:
            self.loop_ws.configure(funct, rs1, rs2)
            return 0

        return run

    def _loop_ws(self, rs1: int, rs2: int) -> int:
        self.run(self.loop_ws.commands(rs1, rs2, self.p))
        return 0

    def _loop_conv_cmd(self, funct: int) -> Callable[[int, int], int]:
        def run(rs1: int, rs2: int) -> int:
            name = isa.FUNCT_NAMES[funct]
            if not self.p.loop_conv:
                raise GemminiIllegal(f"gemmini {name}: this config has no loop_conv_ws unit (loop_conv = false)")
            if self._loop_conv is None:
                from sim.gemmini.loop_conv import LoopConv  # lazily: the conv unroller is optional

                self._loop_conv = LoopConv()
            if funct == isa.LOOP_CONV_WS:
                self.run(self._loop_conv.commands(rs1, rs2, self.p))
            else:
                self._loop_conv.configure(funct, rs1, rs2)
            return 0

        return run
