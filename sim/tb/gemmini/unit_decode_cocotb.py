"""cocotb driver of gemmini_unit_decode (the Gemmini unit's legality checks): offers one instruction a cycle and
takes it when the decoder calls it legal (the handshake of gemmini_unit), recording legal and reason.

The stimulus (``$GEMMINI_UDEC_STIM``) is a list of ``[funct, rs1, rs2]`` (decimal strings); the result
(``$GEMMINI_UDEC_OUT``) one ``[legal, reason]`` per instruction. Inputs are set on the falling edge, the outputs
read a quarter cycle later (the decoder is combinational), and accept_i set from legal_o before the rising edge.
"""

import json
import os
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, Timer


@cocotb.test()
async def play(dut) -> None:
    insns = json.loads(Path(os.environ["GEMMINI_UDEC_STIM"]).read_text())
    Clock(dut.clk_i, 8, unit="ns").start()
    dut.funct_i.value = 0
    dut.rs1_i.value = 0
    dut.rs2_i.value = 0
    dut.accept_i.value = 0
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 2)
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    out = []
    for funct, rs1, rs2 in insns:
        await FallingEdge(dut.clk_i)
        dut.funct_i.value = int(funct)
        dut.rs1_i.value = int(rs1)
        dut.rs2_i.value = int(rs2)
        await Timer(2, unit="ns")
        legal = int(dut.legal_o.value)
        out.append([legal, int(dut.reason_o.value)])
        dut.accept_i.value = legal
    await FallingEdge(dut.clk_i)
    dut.accept_i.value = 0
    Path(os.environ["GEMMINI_UDEC_OUT"]).write_text(json.dumps(out))
