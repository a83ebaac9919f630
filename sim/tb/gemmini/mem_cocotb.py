"""cocotb driver of gemmini_mem_tb: plays one recorded input cycle a cycle into the scratchpad and accumulator and
records both read-data outputs after every cycle.

The stimulus (``$GEMMINI_MEM_STIM``, written by :func:`sim.tb.gemmini.mem_build.run_mem`) is one list of the
input ports' values per cycle; the result (``$GEMMINI_MEM_OUT``) has, per cycle, the read data sampled one cycle
later (the memories' read latency). Inputs are set and outputs sampled on the falling edge.
"""

import json
import os
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

INPUTS = (
    "sp_wr_en_i",
    "sp_wr_row_i",
    "sp_wr_mask_i",
    "sp_wr_data_i",
    "sp_rd_en_i",
    "sp_rd_row_i",
    "acc_wr_en_i",
    "acc_wr_acc_i",
    "acc_wr_row_i",
    "acc_wr_mask_i",
    "acc_wr_data_i",
    "acc_rd_en_i",
    "acc_rd_row_i",
)


@cocotb.test()
async def play_cycles(dut) -> None:
    cycles = json.loads(Path(os.environ["GEMMINI_MEM_STIM"]).read_text())
    Clock(dut.clk_i, 2, unit="ns").start()
    ports = [getattr(dut, n) for n in INPUTS]
    for port in ports:
        port.value = 0
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 3)
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    sp, acc = [], []
    for i, c in enumerate(cycles):
        await FallingEdge(dut.clk_i)
        if i:
            sp.append(str(int(dut.sp_rd_data_o.value)))
            acc.append(str(int(dut.acc_rd_data_o.value)))
        for port, v in zip(ports, c, strict=True):
            port.value = int(v)
    await FallingEdge(dut.clk_i)
    sp.append(str(int(dut.sp_rd_data_o.value)))
    acc.append(str(int(dut.acc_rd_data_o.value)))
    Path(os.environ["GEMMINI_MEM_OUT"]).write_text(json.dumps({"sp": sp, "acc": acc}))
