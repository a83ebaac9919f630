"""cocotb driver of loopws_tb: plays a list of loop_ws commands (configs 9..13 and loop_ws 8) into the unroller
with random gaps in ``in_valid_i`` and ``out_ready_i`` and records every primitive command it emits, with the
cycle, and ``busy_o`` (``$GEMMINI_LOOPWS_STIM`` in, ``$GEMMINI_LOOPWS_OUT`` out; see loopws_build.py). Inputs
are set and outputs sampled on the falling edge (the unroller's outputs depend on its state only)."""

import json
import os
import random
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge


@cocotb.test()
async def run_loop(dut) -> None:
    st = json.loads(Path(os.environ["GEMMINI_LOOPWS_STIM"]).read_text())
    cmds = [(int(f), int(a), int(b)) for f, a, b in st["cmds"]]
    rng = random.Random(int(st["seed"]))
    p_in_gap, p_out_stall = float(st["p_in_gap"]), float(st["p_out_stall"])
    Clock(dut.clk_i, 2, unit="ns").start()
    for n in ("in_valid_i", "in_funct_i", "in_rs1_i", "in_rs2_i", "out_ready_i"):
        getattr(dut, n).value = 0
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 3)
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    out, accepted, busy_cycles = [], [], 0
    cycle, nxt, idle = 0, 0, 0
    while cycle < int(st["max_cycles"]):
        await FallingEdge(dut.clk_i)
        cycle += 1
        busy = int(dut.busy_o.value)
        busy_cycles += busy
        valid = int(dut.out_valid_o.value)
        take = rng.random() >= p_out_stall
        dut.out_ready_i.value = int(take)
        if valid and take:
            out.append(
                [int(dut.out_funct_o.value), str(int(dut.out_rs1_o.value)), str(int(dut.out_rs2_o.value)), cycle]
            )
        offer = nxt < len(cmds) and rng.random() >= p_in_gap
        dut.in_valid_i.value = int(offer)
        if offer:
            f, a, b = cmds[nxt]
            dut.in_funct_i.value, dut.in_rs1_i.value, dut.in_rs2_i.value = f, a, b
            if int(dut.in_ready_o.value):
                accepted.append(cycle)
                nxt += 1
        idle = idle + 1 if (nxt == len(cmds) and not busy and not valid) else 0
        if idle > 4:
            break
    Path(os.environ["GEMMINI_LOOPWS_OUT"]).write_text(
        json.dumps({"out": out, "accepted": accepted, "cycles": cycle, "busy_cycles": busy_cycles})
    )
