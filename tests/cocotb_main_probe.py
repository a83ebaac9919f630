"""cocotb module for tests/test_cocotb_main.py: runs the SoC test bench to `done`
as sim/tb/cocotb_run.py does, and (PROBE_TICKS > 0) meanwhile wakes on a timer
every clock period, going through the ReadWrite and ReadOnly phases of each of
those slots, for PROBE_TICKS periods. It writes what it saw to PROBE_OUT."""

import json
import os

import cocotb
from cocotb.triggers import ReadOnly, ReadWrite, RisingEdge, Timer
from cocotb.utils import get_sim_time

PERIOD_NS = 2  # sim/tb/cocotb_main.cpp: one edge every nanosecond


async def tick(n: int, seen: dict) -> None:
    for _ in range(n):
        await Timer(PERIOD_NS, unit="ns")
        seen["timer_ns"].append(get_sim_time("ns"))
        await ReadWrite()
        await ReadOnly()
        seen["readonly_ns"].append(get_sim_time("ns"))


@cocotb.test()
async def probe(dut) -> None:
    seen = {"timer_ns": [], "readonly_ns": []}
    ticks = int(os.environ["PROBE_TICKS"])
    if ticks:
        cocotb.start_soon(tick(ticks, seen))
    if not int(dut.done.value):
        await RisingEdge(dut.done)
    seen["done_ns"] = get_sim_time("ns")
    with open(os.environ["PROBE_OUT"], "w") as f:
        json.dump(seen, f)
