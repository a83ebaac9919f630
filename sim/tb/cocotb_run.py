"""cocotb entry point of an RTL run: wait for the test bench's `done`, nothing else.

The clock, memories, MMIO page, trace and run endings all live in the HDL and
DPI C++ (tb_top.sv, tb_dpi.cpp), so Python is off the per-cycle path: this
coroutine wakes up once, when the run has ended.
"""

import cocotb
from cocotb.triggers import RisingEdge


@cocotb.test()
async def run_to_done(dut) -> None:
    if not int(dut.done.value):
        await RisingEdge(dut.done)
