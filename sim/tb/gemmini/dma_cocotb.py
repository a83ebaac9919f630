"""cocotb driver of dma_tb: the DMA's two requesters and a Python model of the amem port (sim/tb/tb_mem_port.sv).

The stimulus (``$GEMMINI_DMA_STIM``, written by :func:`sim.tb.gemmini.dma_build.run_dma`) holds the memory's
initial image, the read and write requests and the random-gap probabilities. Every cycle, on the falling edge,
the driver reads the DMA's outputs (all of them depend on its state only), decides the handshakes of the next
rising edge and sets its inputs. The memory model behaves as tb_mem_port: up to ``outstanding`` requests
accepted (plus random cycles with ``mem_req_ready_i`` low), each performed when accepted (a beat outside
``[mem_lo, mem_hi)`` reads zeros and answers with an error), answered in order ``latency`` cycles later, a
response always taken. The result (``$GEMMINI_DMA_OUT``) records every beat, response, write completion and
trace record with its cycle, the final memory image and the port's occupancy.
"""

import json
import os
import random
from collections import deque
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge


@cocotb.test()
async def run_dma(dut) -> None:
    st = json.loads(Path(os.environ["GEMMINI_DMA_STIM"]).read_text())
    mb, latency, outstanding = int(st["port_bytes"]), int(st["latency"]), int(st["outstanding"])
    base, mem_lo, mem_hi = int(st["base"]), int(st["mem_lo"]), int(st["mem_hi"])
    mem = bytearray(bytes.fromhex(st["image"]))
    reads = deque(st["reads"])  # [addr, len, tag]
    writes = deque(st["writes"])  # [addr, len, data hex, id]
    rng = random.Random(int(st["seed"]))
    p_mem_gap, p_req_gap, p_rsp_stall = float(st["p_mem_gap"]), float(st["p_req_gap"]), float(st["p_rsp_stall"])
    n_reads, n_writes = len(reads), len(writes)

    Clock(dut.clk_i, 2, unit="ns").start()
    inputs = ("rd_req_valid_i", "rd_req_addr_i", "rd_req_len_i", "rd_req_tag_i", "rd_resp_ready_i")
    inputs += ("wr_req_valid_i", "wr_req_addr_i", "wr_req_len_i", "wr_req_data_i", "wr_req_id_i")
    inputs += ("mem_req_ready_i", "mem_rsp_valid_i", "mem_rsp_rdata_i", "mem_rsp_err_i")
    for n in inputs:
        getattr(dut, n).value = 0
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 3)
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1

    pending: deque = deque()  # [due cycle, rdata, err, beat index]
    beats, rsps, dones, traces = [], [], [], []
    rd_taken, wr_taken = [], []  # cycle each request was taken
    occupancy = []  # beats in flight per cycle
    cycle = 0
    while len(rsps) < n_reads or len(dones) < n_writes or reads or writes or pending:
        await FallingEdge(dut.clk_i)
        cycle += 1
        if cycle > int(st["max_cycles"]):
            break
        # outputs of the state the last rising edge left
        if int(dut.wr_done_o.value):
            dones.append(cycle)
        if int(dut.trace_wr_valid_o.value):
            traces.append(
                [
                    int(dut.trace_wr_addr_o.value),
                    int(dut.trace_wr_len_o.value),
                    format(int(dut.trace_wr_data_o.value), "x"),
                    int(dut.trace_wr_id_o.value),
                    cycle,
                ]
            )
        # amem port: this edge's handshake, then this edge's response
        ready = len(pending) < outstanding and rng.random() >= p_mem_gap
        dut.mem_req_ready_i.value = int(ready)
        if ready and int(dut.mem_req_valid_o.value):
            addr = int(dut.mem_req_addr_o.value)
            we = int(dut.mem_req_we_o.value)
            wbase = addr & ~(mb - 1)
            ok = mem_lo <= wbase and wbase + mb <= mem_hi
            rdata, be, wdata = 0, 0, 0
            if we:
                be = int(dut.mem_req_be_o.value)
                wdata = int(dut.mem_req_wdata_o.value)
                if ok:
                    for i in range(mb):
                        if be >> i & 1:
                            mem[wbase - base + i] = (wdata >> (8 * i)) & 0xFF
            elif ok:
                rdata = int.from_bytes(mem[wbase - base : wbase - base + mb], "little")
            beats.append([cycle, addr, we, be, format(wdata, "x"), 0])
            pending.append([cycle + latency, rdata, int(not ok), len(beats) - 1])
        occupancy.append(len(pending))
        if pending and pending[0][0] <= cycle:
            _, rdata, err, bi = pending.popleft()
            dut.mem_rsp_valid_i.value = 1
            dut.mem_rsp_rdata_i.value = rdata
            dut.mem_rsp_err_i.value = err
            beats[bi][5] = cycle
        else:
            dut.mem_rsp_valid_i.value = 0
            dut.mem_rsp_rdata_i.value = 0
            dut.mem_rsp_err_i.value = 0
        # read responses
        take = rng.random() >= p_rsp_stall
        dut.rd_resp_ready_i.value = int(take)
        if take and int(dut.rd_resp_valid_o.value):
            rsps.append(
                [
                    int(dut.rd_resp_tag_o.value),
                    format(int(dut.rd_resp_data_o.value), "x"),
                    int(dut.rd_resp_err_o.value),
                    cycle,
                ]
            )
        # requests
        offer = bool(reads) and rng.random() >= p_req_gap
        dut.rd_req_valid_i.value = int(offer)
        if offer:
            a, n, t = reads[0]
            dut.rd_req_addr_i.value, dut.rd_req_len_i.value, dut.rd_req_tag_i.value = a, n, t
            if int(dut.rd_req_ready_o.value):
                reads.popleft()
                rd_taken.append(cycle)
        offer = bool(writes) and rng.random() >= p_req_gap
        dut.wr_req_valid_i.value = int(offer)
        if offer:
            a, n, d, i = writes[0]
            dut.wr_req_addr_i.value, dut.wr_req_len_i.value, dut.wr_req_id_i.value = a, n, i
            dut.wr_req_data_i.value = int(d, 16)
            if int(dut.wr_req_ready_o.value):
                writes.popleft()
                wr_taken.append(cycle)
    for _ in range(3):  # late completions would show here as extra dones
        await FallingEdge(dut.clk_i)
        cycle += 1
        if int(dut.wr_done_o.value):
            dones.append(cycle)
    out = {
        "cycles": cycle,
        "beats": beats,
        "rsps": rsps,
        "dones": dones,
        "traces": traces,
        "occupancy": occupancy,
        "image": mem.hex(),
        "left": [len(reads), len(writes), len(pending)],
        "rd_taken": rd_taken,
        "wr_taken": wr_taken,
    }
    Path(os.environ["GEMMINI_DMA_OUT"]).write_text(json.dumps(out))
