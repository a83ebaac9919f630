"""cocotb driver of unit_rob_tb (gemmini_unit_rob): allocates a stream of commands (controller, packed
gm_sets_t, tag) in order and plays the three controllers: each takes its queue's head when it has room (up to
``inflight`` commands, random gaps), holds each a random number of cycles and reports them done in order.

Stimulus ``$GEMMINI_UROB_STIM``: ``{"cmds": [[ctl, sets, tag], ...], "seed", "inflight", "max_lat"}``; result
``$GEMMINI_UROB_OUT``: per command [id, alloc cycle, issue cycle, done cycle] (-1: never). Inputs set on the
falling edge (the ROB's outputs depend on its state and, for the queue valids, on nothing driven here).
"""

import json
import os
import random
from collections import deque
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

ID_W = 6


@cocotb.test()
async def run_rob(dut) -> None:
    st = json.loads(Path(os.environ["GEMMINI_UROB_STIM"]).read_text())
    cmds = [(int(c), int(s), int(t)) for c, s, t in st["cmds"]]  # sets as a decimal string
    rng = random.Random(int(st["seed"]))
    inflight, max_lat = int(st["inflight"]), int(st["max_lat"])
    Clock(dut.clk_i, 10, unit="ns").start()
    for n in ("alloc_valid_i", "alloc_ctl_i", "alloc_sets_i", "alloc_tag_i", "q_ready_i", "done_valid_i", "done_id_i"):
        getattr(dut, n).value = 0
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 2)
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    rec = [[-1, -1, -1, -1] for _ in cmds]
    by_id: dict[int, int] = {}
    held: list[deque] = [deque(), deque(), deque()]  # (command index, done cycle) in order
    nxt, cycle, alloc_fire, done_n = 0, 0, False, 0
    while done_n < len(cmds) and cycle < 100_000:
        await FallingEdge(dut.clk_i)
        cycle += 1
        # last cycle's handshakes (inputs were held through the rising edge)
        if alloc_fire:
            by_id[rec[nxt - 1][0]] = nxt - 1
        qv = int(dut.q_valid_o.value)
        ids = int(dut.q_id_o.value)
        # controllers: report one done each (in order) and take the head
        dv, did = 0, 0
        for c in range(3):
            if held[c] and held[c][0][1] <= cycle:
                i, _ = held[c].popleft()
                rec[i][3] = cycle
                done_n += 1
                dv |= 1 << c
                did |= rec[i][0] << (c * ID_W)
        dut.done_valid_i.value = dv
        dut.done_id_i.value = did
        ready = 0
        for c in range(3):
            if len(held[c]) < inflight and rng.random() < 0.8:
                ready |= 1 << c
                if qv >> c & 1:
                    i = by_id[(ids >> (c * ID_W)) & 0x3F]
                    rec[i][2] = cycle
                    held[c].append((i, cycle + rng.randrange(1, max_lat + 1)))
        dut.q_ready_i.value = ready
        # allocation
        alloc_fire = False
        if nxt < len(cmds) and int(dut.alloc_ready_o.value):
            ctl, sets, tag = cmds[nxt]
            dut.alloc_valid_i.value = 1
            dut.alloc_ctl_i.value = ctl
            dut.alloc_sets_i.value = sets
            dut.alloc_tag_i.value = tag
            rec[nxt][0] = int(dut.alloc_id_o.value)
            rec[nxt][1] = cycle
            nxt += 1
            alloc_fire = True
        else:
            dut.alloc_valid_i.value = 0
    Path(os.environ["GEMMINI_UROB_OUT"]).write_text(json.dumps(rec))
