"""cocotb driver of gemmini_array_tb: plays a recorded beat stream into the array and records every output row.

The stimulus file (``$GEMMINI_ARRAY_STIM``, written by :func:`sim.tb.gemmini.stream.write_stimulus`) holds one
entry per cycle; the result file (``$GEMMINI_ARRAY_OUT``) every cycle with ``out_valid_o`` high. Comparison
with the reference happens in the test, not here. One trigger per cycle: inputs are set and outputs sampled on
the falling edge, so both sides of the rising edge are settled.
"""

import json
import os
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

INPUTS = ("in_valid_i", "in_flip_i", "in_ws_i", "in_shift_i", "in_tag_i", "in_a_i", "in_b_i", "in_d_i")


@cocotb.test()
async def stream_rows(dut) -> None:
    stim = json.loads(Path(os.environ["GEMMINI_ARRAY_STIM"]).read_text())
    beats, drain = stim["beats"], stim["drain"]
    Clock(dut.clk_i, 2, unit="ns").start()
    for name in INPUTS:
        getattr(dut, name).value = 0
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 3)
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1

    rows, in_cycles = [], []
    ports = [getattr(dut, n) for n in INPUTS]
    idle = 0
    i = 0
    while i < len(beats) or idle < drain:
        await FallingEdge(dut.clk_i)
        cycle = int(dut.cycle_o.value)
        if int(dut.out_valid_o.value):
            rows.append(
                [
                    cycle,
                    int(dut.out_row_o.value),
                    int(dut.out_flip_o.value),
                    int(dut.out_ws_o.value),
                    int(dut.out_tag_o.value),
                    str(int(dut.out_c_o.value)),
                ]
            )
        if i < len(beats):
            for port, v in zip(ports, beats[i], strict=True):
                port.value = v
            if beats[i][0]:
                in_cycles.append(cycle)
            i += 1
        else:
            dut.in_valid_i.value = 0
            idle += 1
    assert not int(dut.busy_o.value), f"the array is still busy {drain} cycles after the last beat"
    out = {"rows": rows, "in_cycles": in_cycles, "cycles": int(dut.cycle_o.value)}
    Path(os.environ["GEMMINI_ARRAY_OUT"]).write_text(json.dumps(out))
