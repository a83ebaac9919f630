"""cocotb driver of unit_tb (gemmini_unit): plays a Gemmini instruction stream through the coprocessor port with a
Python main memory on the memory port, and records what the unit did.

The stimulus (``$GEMMINI_UNIT_STIM``) holds the instructions ``[insn, rs1, rs2]``, the memory windows
``[[base, hex bytes], ...]`` (bytes outside them read as zero and are answered with an error), the memory's
latency and requests in flight. One instruction is offered per cycle while the unit is ready (its illegal flag
is read in the handshake, the registered reason in the cycle after); the run ends when every accepted instruction has completed and the unit
has been idle for a few cycles. The result (``$GEMMINI_UNIT_OUT``): per instruction [illegal, reason], the
completions [seq, x_we, wdata, cycle], the scratchpad / accumulator trace records [bank, row, mask, data, seq],
the DMA's write trace [addr, len, data, seq], the memory windows after the run, the MACs perf_o counted and
the cycles from the first offer to the last completion. Inputs are set on the falling edge.
"""

import json
import os
from collections import deque
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, Timer


def _field(v: int, i: int, w: int) -> int:
    return (v >> (i * w)) & ((1 << w) - 1)


@cocotb.test()
async def run_unit(dut) -> None:
    st = json.loads(Path(os.environ["GEMMINI_UNIT_STIM"]).read_text())
    insns = [[int(x) for x in i] for i in st["insns"]]
    windows = [(int(b), bytearray.fromhex(h)) for b, h in st["windows"]]
    latency, outstanding, mb = int(st["latency"]), int(st["outstanding"]), int(st["port_bytes"])
    sp_banks, acc_banks, dim = int(st["sp_banks"]), int(st["acc_banks"]), int(st["dim"])
    sp_row_w, acc_row_w, max_cycles = int(st["sp_row_w"]), int(st["acc_row_w"]), int(st["max_cycles"])

    def win(addr: int):
        for base, buf in windows:
            if base <= addr and addr + mb <= base + len(buf):
                return base, buf
        return None

    Clock(dut.clk_i, 10, unit="ns").start()
    for n in (
        "req_valid_i",
        "req_insn_i",
        "req_rs1_i",
        "req_rs2_i",
        "req_seq_i",
        "mem_req_ready_i",
        "mem_rsp_valid_i",
        "mem_rsp_rdata_i",
        "mem_rsp_err_i",
    ):
        getattr(dut, n).value = 0
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 3)
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1

    verdicts, cmps, sp_tr, acc_tr, wr_tr = [], [], [], [], []
    pending: deque = deque()
    nxt, seq, accepted, macs, idle, cycle, last_cmp = 0, 0, 0, 0, 0, 0, 0
    refused = None  # index of the instruction refused at the last edge: illegal_reason_o is registered
    while cycle < max_cycles:
        await FallingEdge(dut.clk_i)
        cycle += 1
        if refused is not None:
            verdicts[refused][1] = int(dut.reason_o.value)
            refused = None
        # outputs of the state the last rising edge left
        if int(dut.cmp_valid_o.value):
            cmps.append([int(dut.cmp_seq_o.value), int(dut.cmp_xwe_o.value), int(dut.cmp_wdata_o.value), cycle])
            last_cmp = cycle
        macs += int(dut.macs_o.value)
        v = int(dut.tsp_valid_o.value)
        if v:
            rows, masks, data, seqs = (
                int(dut.tsp_row_o.value),
                int(dut.tsp_mask_o.value),
                int(dut.tsp_data_o.value),
                int(dut.tsp_seq_o.value),
            )
            for b in range(sp_banks):
                if v >> b & 1:
                    sp_tr.append(
                        [
                            b,
                            _field(rows, b, sp_row_w),
                            _field(masks, b, dim),
                            format(_field(data, b, dim * 8), "x"),
                            _field(seqs, b, 8),
                        ]
                    )
        v = int(dut.tacc_valid_o.value)
        if v:
            rows, data, seqs = int(dut.tacc_row_o.value), int(dut.tacc_data_o.value), int(dut.tacc_seq_o.value)
            for b in range(acc_banks):
                if v >> b & 1:
                    acc_tr.append(
                        [b, _field(rows, b, acc_row_w), 0, format(_field(data, b, dim * 32), "x"), _field(seqs, b, 8)]
                    )
        if int(dut.twr_valid_o.value):
            wr_tr.append(
                [
                    int(dut.twr_addr_o.value),
                    int(dut.twr_len_o.value),
                    format(int(dut.twr_data_o.value), "x"),
                    int(dut.twr_seq_o.value),
                ]
            )
        # memory port: this edge's handshake, then this edge's response
        ready = len(pending) < outstanding
        dut.mem_req_ready_i.value = int(ready)
        if ready and int(dut.mem_req_valid_o.value):
            addr = int(dut.mem_req_addr_o.value)
            wbase = addr & ~(mb - 1)
            w = win(wbase)
            rdata = 0
            if int(dut.mem_req_we_o.value):
                be, wdata = int(dut.mem_req_be_o.value), int(dut.mem_req_wdata_o.value)
                if w:
                    for i in range(mb):
                        if be >> i & 1:
                            w[1][wbase - w[0] + i] = (wdata >> (8 * i)) & 0xFF
            elif w:
                rdata = int.from_bytes(w[1][wbase - w[0] : wbase - w[0] + mb], "little")
            pending.append((cycle + latency, rdata, int(w is None)))
        if pending and pending[0][0] <= cycle:
            _, rdata, err = pending.popleft()
            dut.mem_rsp_valid_i.value = 1
            dut.mem_rsp_rdata_i.value = rdata
            dut.mem_rsp_err_i.value = err
        else:
            dut.mem_rsp_valid_i.value = 0
            dut.mem_rsp_rdata_i.value = 0
            dut.mem_rsp_err_i.value = 0
        # issue (ready depends on the unit's state only)
        dut.req_valid_i.value = 0
        if nxt < len(insns) and int(dut.req_ready_o.value):
            insn, rs1, rs2 = insns[nxt]
            dut.req_valid_i.value = 1
            dut.req_insn_i.value = insn
            dut.req_rs1_i.value = rs1
            dut.req_rs2_i.value = rs2
            dut.req_seq_i.value = seq
            await Timer(1, unit="ns")
            ill = int(dut.illegal_o.value)
            verdicts.append([ill, 0])
            if ill:
                refused = len(verdicts) - 1
            else:
                accepted += 1
                seq = (seq + 1) & 0xFF
            nxt += 1
        done = nxt == len(insns) and len(cmps) == accepted
        idle = idle + 1 if done and not int(dut.busy_o.value) and not pending else 0
        if idle > 4:
            break
    await FallingEdge(dut.clk_i)
    dut.req_valid_i.value = 0
    if refused is not None:
        verdicts[refused][1] = int(dut.reason_o.value)
    out = {
        "verdicts": verdicts,
        "cmps": cmps,
        "sp": sp_tr,
        "acc": acc_tr,
        "wr": wr_tr,
        "windows": [[b, bytes(buf).hex()] for b, buf in windows],
        "macs": macs,
        "cycles": last_cmp,
        "timeout": cycle >= max_cycles,
        "issued": nxt,
    }
    Path(os.environ["GEMMINI_UNIT_OUT"]).write_text(json.dumps(out))
