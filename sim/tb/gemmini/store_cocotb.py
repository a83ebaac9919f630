"""cocotb driver of store_tb (the store controller with the real scratchpad and accumulator).

Preloads the memories through their write ports, then plays the commands into the controller (offered at random
cycles, held until taken), drives the read ports' ready at random (the top's bank arbitration) and models the DMA's
write side: random ``wr_req_ready``, each accepted request recorded (cycle, address, the ``len`` data bytes, id)
and answered by a ``wr_done`` pulse after a random latency, in request order, at most one a cycle. Inputs are set
on the falling edge and handshakes sampled in the read-only phase of the same cycle (``$GEMMINI_STORE_STIM`` in,
``$GEMMINI_STORE_OUT`` out; see store_build.py).

With ``amem`` in the stimulus the bench is store_dma_tb: the real DMA answers the writes, and the driver models
the amem port as tb_mem_port behaves (up to ``outstanding`` beats accepted, random cycles with the ready low, each
write beat applied with its byte strobes when accepted, answered in order ``latency`` cycles later); it records
the store's write handshake, the DMA's wr_done pulses and write trace, and returns the memory image.
"""

import json
import os
import random
from collections import deque
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, ReadOnly


@cocotb.test()
async def play_store(dut) -> None:
    st = json.loads(Path(os.environ["GEMMINI_STORE_STIM"]).read_text())
    rng = random.Random(st["seed"])
    cmds = [[int(x) for x in c] for c in st["cmds"]]
    lat_lo, lat_hi = st["done_latency"]
    am = st["amem"]
    dma = am is not None
    Clock(dut.clk_i, 2, unit="ns").start()
    inputs = ["pre_sp_en_i", "pre_acc_en_i", "cmd_valid_i", "sp_rd_ready_i", "acc_rd_ready_i"]
    inputs += ["cmd_funct_i", "cmd_rs1_i", "cmd_rs2_i", "cmd_id_i"]
    inputs += ["mem_req_ready_i", "mem_rsp_valid_i", "mem_rsp_rdata_i", "mem_rsp_err_i"] if dma else []
    inputs += [] if dma else ["wr_req_ready_i", "wr_done_i"]
    for n in inputs:
        getattr(dut, n).value = 0
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 3)
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    sp, acc = st["sp"], st["acc"]
    for i in range(max(len(sp), len(acc))):
        await FallingEdge(dut.clk_i)
        dut.pre_sp_en_i.value = i < len(sp)
        if i < len(sp):
            dut.pre_sp_row_i.value = sp[i][0]
            dut.pre_sp_data_i.value = int(sp[i][1])
        dut.pre_acc_en_i.value = i < len(acc)
        if i < len(acc):
            dut.pre_acc_row_i.value = acc[i][0]
            dut.pre_acc_data_i.value = int(acc[i][1])
    await FallingEdge(dut.clk_i)
    dut.pre_sp_en_i.value = 0
    dut.pre_acc_en_i.value = 0

    writes, dones, wr_dones, accepts, traces = [], [], [], [], []
    if dma:
        base, mb, image = int(am["base"]), int(am["port_bytes"]), bytearray(bytes.fromhex(am["image"]))
        beats: deque[int] = deque()  # due cycles of the accepted beats' responses
        max_in_flight = 0
        wr_ready, done_sig = dut.wr_req_ready_o, dut.wr_done_o
    else:
        wr_ready, done_sig = dut.wr_req_ready_i, None
    pending: deque[int] = deque()  # cycles the outstanding writes' wr_done pulses are due
    last_due = -1
    nxt, offered = 0, False
    busy = stall = 0
    cycle, idle_after = 0, 0
    timeout = False
    while True:
        await FallingEdge(dut.clk_i)
        dut.sp_rd_ready_i.value = rng.random() < st["p_sp_ready"]
        dut.acc_rd_ready_i.value = rng.random() < st["p_acc_ready"]
        if dma:
            mem_ready = len(beats) < int(am["outstanding"]) and rng.random() >= float(am["p_gap"])
            dut.mem_req_ready_i.value = mem_ready
            rsp = bool(beats) and beats[0] <= cycle
            if rsp:
                beats.popleft()
            dut.mem_rsp_valid_i.value = rsp
        else:
            dut.wr_req_ready_i.value = rng.random() < st["p_wr_ready"]
            pulse = bool(pending) and pending[0] <= cycle
            if pulse:
                pending.popleft()
                wr_dones.append(cycle)
            dut.wr_done_i.value = pulse
        if not offered and nxt < len(cmds) and rng.random() < st["p_cmd"]:
            f, rs1, rs2, cid = cmds[nxt]
            dut.cmd_funct_i.value = f
            dut.cmd_rs1_i.value = rs1
            dut.cmd_rs2_i.value = rs2
            dut.cmd_id_i.value = cid
            offered = True
        dut.cmd_valid_i.value = offered
        await ReadOnly()
        if offered and dut.cmd_ready_o.value:
            accepts.append(cycle)
            nxt += 1
            offered = False
        if dut.wr_req_valid_o.value and wr_ready.value:
            n = int(dut.wr_req_len_o.value)
            data = int(dut.wr_req_data_o.value).to_bytes(len(dut.wr_req_data_o) // 8, "little")[:n]
            writes.append([cycle, int(dut.wr_req_addr_o.value), data.hex(), int(dut.wr_req_id_o.value)])
            if not dma:
                last_due = max(last_due + 1, cycle + rng.randint(lat_lo, lat_hi))
                pending.append(last_due)
        if dma:
            if mem_ready and dut.mem_req_valid_o.value:
                assert dut.mem_req_we_o.value, "the store bench's DMA read"
                addr, be = int(dut.mem_req_addr_o.value), int(dut.mem_req_be_o.value)
                wdata = int(dut.mem_req_wdata_o.value)
                wbase = (addr & ~(mb - 1)) - base
                for i in range(mb):
                    if be >> i & 1:
                        assert 0 <= wbase + i < len(image), f"DMA beat at {addr:#x} outside the test memory"
                        image[wbase + i] = (wdata >> (8 * i)) & 0xFF
                beats.append(cycle + int(am["latency"]))
                max_in_flight = max(max_in_flight, len(beats))
            if done_sig.value:
                wr_dones.append(cycle)
            if dut.trace_wr_valid_o.value:
                n = int(dut.trace_wr_len_o.value)
                data = int(dut.trace_wr_data_o.value).to_bytes(len(dut.trace_wr_data_o) // 8, "little")[:n]
                traces.append([cycle, int(dut.trace_wr_addr_o.value), data.hex(), int(dut.trace_wr_id_o.value)])
        if dut.done_valid_o.value:
            dones.append([cycle, int(dut.done_id_o.value)])
        b = int(dut.busy_o.value)
        busy += b
        stall += int(dut.stall_mem_o.value)
        cycle += 1
        quiet = not pending and not (dma and beats)
        if nxt == len(cmds) and not offered and len(dones) >= len(cmds) and quiet and not b:
            idle_after += 1
            if idle_after > 4:
                break
        if cycle >= st["max_cycles"]:
            timeout = True
            break
    out = {
        "writes": writes,
        "dones": dones,
        "wr_dones": wr_dones,
        "accepts": accepts,
        "cycles": cycle,
        "busy_cycles": busy,
        "stall_cycles": stall,
        "bytes_written": int(dut.bytes_written_o.value),
        "timeout": timeout,
    }
    if dma:
        out.update({"image": image.hex(), "traces": traces, "max_in_flight": max_in_flight})
    Path(os.environ["GEMMINI_STORE_OUT"]).write_text(json.dumps(out))
