"""cocotb driver of load_tb: feeds Gemmini load commands to gemmini_load, answers its DMA reads from a memory image
with a Python DMA model (random latency, random request/response handshakes, responses in request order, at most
``max_out`` requests unanswered), drives the memories' write readies at random, records every handshake, then dumps
every scratchpad and accumulator row through the test bench's read ports.

With ``amem`` set in the stimulus the bench is load_dma_tb (the real gemmini_dma between the controller and the
memory): the driver then models the amem port instead (tb_mem_port's behaviour: up to ``outstanding`` beats
accepted, random cycles with ready low, answered in order ``latency`` cycles later, a beat outside the image
answered with zeros and an error) and only records the controller's read handshakes with the DMA.

Stimulus ``$GEMMINI_LOAD_STIM`` (written by :func:`sim.tb.gemmini.load_build.run_load`), result
``$GEMMINI_LOAD_OUT``. Inputs are set on the falling edge; outputs that are registers are read there too, so a
handshake at the next rising edge is ``valid (read) and ready (just set)``; the combinational counters are read in
the ReadOnly phase after the inputs settle.
"""

import json
import os
import random
from collections import deque
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, ReadOnly

COMMON_INPUTS = (
    "cmd_valid_i",
    "cmd_funct_i",
    "cmd_rs1_i",
    "cmd_rs2_i",
    "cmd_id_i",
    "sp_wr_ready_i",
    "acc_wr_ready_i",
    "sp_rd_en_i",
    "sp_rd_row_i",
    "acc_rd_en_i",
    "acc_rd_row_i",
)
DMA_INPUTS = ("rd_req_ready_i", "rd_resp_valid_i", "rd_resp_tag_i", "rd_resp_data_i", "rd_resp_err_i")
AMEM_INPUTS = ("mem_req_ready_i", "mem_rsp_valid_i", "mem_rsp_rdata_i", "mem_rsp_err_i")


def _read_bytes(mem: bytes, base: int, addr: int, n: int) -> int:
    """Little-endian value of memory[addr .. addr + n); addresses outside the image read as zero."""
    out = 0
    for i in range(n):
        off = addr + i - base
        if 0 <= off < len(mem):
            out |= mem[off] << (8 * i)
    return out


@cocotb.test()
async def run_commands(dut) -> None:
    stim = json.loads(Path(os.environ["GEMMINI_LOAD_STIM"]).read_text())
    rng = random.Random(int(stim["seed"]))
    cmds = [[int(v) for v in c] for c in stim["cmds"]]
    mem, base = bytes.fromhex(stim["mem_hex"]), int(stim["mem_base"])
    lat_min, lat_max = int(stim["lat_min"]), int(stim["lat_max"])
    p_cmd, p_req, p_resp = float(stim["p_cmd"]), float(stim["p_req_ready"]), float(stim["p_resp_valid"])
    p_sp, p_acc = float(stim["p_sp_ready"]), float(stim["p_acc_ready"])
    max_out, max_cycles = int(stim["max_out"]), int(stim["max_cycles"])
    p_err = float(stim.get("p_err", 0.0))
    errs_sent = err_pulses = 0
    resp_err = 0
    sp_rows, acc_rows = int(stim["sp_rows"]), int(stim["acc_rows"])
    amem = stim.get("amem")
    inputs = COMMON_INPUTS + (AMEM_INPUTS if amem else DMA_INPUTS)
    if amem:
        mb, latency, outstanding = int(amem["port_bytes"]), int(amem["latency"]), int(amem["outstanding"])
        p_mem_gap = float(amem["p_mem_gap"])
    beats: deque[list[int]] = deque()  # amem: [due cycle, rdata, err] per beat in flight
    n_beats = max_beats = 0

    Clock(dut.clk_i, 2, unit="ns").start()
    for n in inputs:
        getattr(dut, n).value = 0
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 3)
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1

    ci, presenting = 0, False
    dma: deque[list[int]] = deque()  # [addr, len, tag, due cycle] per unanswered request
    last_due = 0
    resp_on = False
    accepts: list[int] = []
    dones: list[list[int]] = []
    writes: list[list[int]] = []  # [cycle, 0 = scratchpad / 1 = accumulator, id]
    reqs: list[list[int]] = []  # [cycle, addr, len, tag]
    resps: list[int] = []
    max_inflight = bytes_counter = stall_cycles = stall_seen = busy_cycles = 0
    finished = False
    t = 0
    for t in range(max_cycles):
        await FallingEdge(dut.clk_i)
        # registered outputs of this cycle
        cmd_ready = int(dut.cmd_ready_o.value)
        req_valid = int(dut.rd_req_valid_o.value)
        resp_ready = int(dut.rd_resp_ready_o.value)
        sp_valid, acc_valid = int(dut.sp_wr_valid_o.value), int(dut.acc_wr_valid_o.value)
        busy = int(dut.busy_o.value)
        busy_cycles += busy
        if int(dut.done_valid_o.value):
            dones.append([t, int(dut.done_id_o.value)])
        if ci == len(cmds) and not presenting and not busy and not dma and len(dones) >= len(cmds):
            finished = True
            break
        # inputs for the next rising edge
        if not presenting and ci < len(cmds) and rng.random() < p_cmd:
            presenting = True
            funct, rs1, rs2, cid = cmds[ci]
            dut.cmd_funct_i.value = funct
            dut.cmd_rs1_i.value = rs1
            dut.cmd_rs2_i.value = rs2
            dut.cmd_id_i.value = cid
        dut.cmd_valid_i.value = int(presenting)
        if amem:
            # the amem port: this edge's handshake, then this edge's response
            mready = len(beats) < outstanding and rng.random() >= p_mem_gap
            dut.mem_req_ready_i.value = int(mready)
            if mready and int(dut.mem_req_valid_o.value):
                assert not int(dut.mem_req_we_o.value), "the load side never writes"
                wbase = int(dut.mem_req_addr_o.value) & ~(mb - 1)
                ok = base <= wbase and wbase + mb <= base + len(mem)
                beats.append([t + latency, _read_bytes(mem, base, wbase, mb) if ok else 0, int(not ok)])
                n_beats += 1
            max_beats = max(max_beats, len(beats))
            if beats and beats[0][0] <= t:
                _, rdata, err = beats.popleft()
                dut.mem_rsp_valid_i.value = 1
                dut.mem_rsp_rdata_i.value = rdata
                dut.mem_rsp_err_i.value = err
            else:
                dut.mem_rsp_valid_i.value = 0
                dut.mem_rsp_err_i.value = 0
        else:
            req_ready = int(len(dma) < max_out and rng.random() < p_req)
            dut.rd_req_ready_i.value = req_ready
            if not resp_on and dma and dma[0][3] <= t and rng.random() < p_resp:
                resp_on = True
                addr, n, tag, _ = dma[0]
                dut.rd_resp_data_i.value = _read_bytes(mem, base, addr, n)
                dut.rd_resp_tag_i.value = tag
                resp_err = int(rng.random() < p_err)
                dut.rd_resp_err_i.value = resp_err
            dut.rd_resp_valid_i.value = int(resp_on)
        sp_ready, acc_ready = int(rng.random() < p_sp), int(rng.random() < p_acc)
        dut.sp_wr_ready_i.value = sp_ready
        dut.acc_wr_ready_i.value = acc_ready
        if req_valid:
            addr, n, tag = int(dut.rd_req_addr_o.value), int(dut.rd_req_len_o.value), int(dut.rd_req_tag_o.value)
        await ReadOnly()
        if amem:  # the DMA's side of the read handshakes, once its inputs settled
            req_ready = int(dut.rd_req_ready_o.value)
            resp_on = bool(int(dut.rd_resp_valid_o.value))
        bytes_counter += int(dut.rd_bytes_o.value)
        err_pulses += int(dut.rd_err_o.value)
        stall = int(dut.stall_mem_o.value)
        stall_cycles += stall
        stall_seen += int((sp_valid and not sp_ready) or (acc_valid and not acc_ready))
        # the handshakes of the next rising edge
        if presenting and cmd_ready:
            presenting = False
            ci += 1
            accepts.append(t)
        if req_valid and req_ready:
            last_due = max(last_due, t + rng.randint(lat_min, lat_max))
            dma.append([addr, n, tag, last_due])
            reqs.append([t, addr, n, tag])
        if resp_on and resp_ready:
            resp_on = False
            errs_sent += resp_err
            dma.popleft()
            resps.append(t)
        if sp_valid and sp_ready:
            writes.append([t, 0, int(dut.sp_wr_id_o.value)])
        if acc_valid and acc_ready:
            writes.append([t, 1, int(dut.acc_wr_id_o.value)])
        max_inflight = max(max_inflight, len(dma))

    # dump every row of both memories (read latency one cycle)
    sp: list[str] = []
    acc: list[str] = []
    await FallingEdge(dut.clk_i)
    for n in ("cmd_valid_i", "sp_wr_ready_i", "acc_wr_ready_i") + (("mem_req_ready_i",) if amem else DMA_INPUTS[:2]):
        getattr(dut, n).value = 0
    if finished:
        for i in range(max(sp_rows, acc_rows) + 1):
            if i:
                if i - 1 < sp_rows:
                    sp.append(str(int(dut.sp_rd_data_o.value)))
                if i - 1 < acc_rows:
                    acc.append(str(int(dut.acc_rd_data_o.value)))
            dut.sp_rd_en_i.value = int(i < sp_rows)
            dut.sp_rd_row_i.value = i if i < sp_rows else 0
            dut.acc_rd_en_i.value = int(i < acc_rows)
            dut.acc_rd_row_i.value = i if i < acc_rows else 0
            await FallingEdge(dut.clk_i)
    Path(os.environ["GEMMINI_LOAD_OUT"]).write_text(
        json.dumps(
            {
                "finished": finished,
                "cycles": t,
                "accepts": accepts,
                "dones": dones,
                "writes": writes,
                "reqs": reqs,
                "resps": resps,
                "max_inflight": max_inflight,
                "bytes_counter": bytes_counter,
                "stall_cycles": stall_cycles,
                "stall_seen": stall_seen,
                "busy_cycles": busy_cycles,
                "errs_sent": errs_sent,
                "err_pulses": err_pulses,
                "amem_beats": n_beats,
                "amem_max_beats": max_beats,
                "sp": sp,
                "acc": acc,
            }
        )
    )
