"""cocotb driver of exec_tb (the execute controller with the real scratchpad and accumulator).

The stimulus (``$GEMMINI_EXEC_STIM``, written by :func:`sim.tb.gemmini.exec_build.run_exec`) holds the memories'
preload, segments of commands and the port randomness. Each segment's commands are offered in order (a command is
offered in a cycle with probability ``p_cmd`` and then held until taken) with ids assigned round robin (an id is
reused only after its done); after a segment every done is awaited and the rows ``dump_sp`` / ``dump_acc`` of both
memories are read back. The result (``$GEMMINI_EXEC_OUT``) has every accept and done (cycle, id), the dumps, and
per segment the cycle of its first accept and last done and the perf counters there.
Inputs are set and outputs sampled on the falling edge.
"""

import json
import os
import random
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

COUNTERS = ("cycle_o", "macs_o", "busy_cycles_o", "mesh_cycles_o", "stall_mem_o", "stall_operand_o")


def _counters(dut) -> dict[str, int]:
    return {n: int(getattr(dut, n).value) for n in COUNTERS}


@cocotb.test()
async def run_exec(dut) -> None:
    stim = json.loads(Path(os.environ["GEMMINI_EXEC_STIM"]).read_text())
    rng = random.Random(stim["seed"])
    Clock(dut.clk_i, 2, unit="ns").start()
    for n in ("pre_sp_en_i", "pre_acc_en_i", "dump_en_i", "cmd_valid_i", "cmd_funct_i", "cmd_rs1_i", "cmd_rs2_i"):
        getattr(dut, n).value = 0
    dut.ready_pct_i.value = stim["ready_pct"]
    dut.seed_i.value = stim["seed"] & 0xFFFF
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 3)
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    # preload
    sp = sorted((int(r), int(v)) for r, v in stim["sp"].items())
    acc = sorted((int(r), int(v)) for r, v in stim["acc"].items())
    for i in range(max(len(sp), len(acc))):
        dut.pre_sp_en_i.value = i < len(sp)
        if i < len(sp):
            dut.pre_sp_row_i.value, dut.pre_sp_data_i.value = sp[i]
        dut.pre_acc_en_i.value = i < len(acc)
        if i < len(acc):
            dut.pre_acc_row_i.value, dut.pre_acc_data_i.value = acc[i]
        await FallingEdge(dut.clk_i)
    dut.pre_sp_en_i.value = 0
    dut.pre_acc_en_i.value = 0
    await FallingEdge(dut.clk_i)

    accepts: list[list[int]] = []
    dones: list[list[int]] = []
    dumps: list[dict] = []
    segs: list[dict] = []
    trace: list[list[int]] = []
    want_trace = bool(stim.get("trace"))
    outstanding: set[int] = set()
    next_id = 0
    max_cycles = stim["max_cycles"]
    t0 = int(dut.cycle_o.value)
    for seg in stim["segments"]:
        cmds = seg
        i = 0
        offering = None
        first = last = None
        c0 = _counters(dut)
        while i < len(cmds) or outstanding:
            await FallingEdge(dut.clk_i)
            cyc = int(dut.cycle_o.value)
            if want_trace:
                trace.append([cyc, int(dut.trace_o.value)])  # this cycle (until the next rising edge)
            if cyc - t0 > max_cycles:
                raise AssertionError(f"no progress: {len(outstanding)} commands outstanding at cycle {cyc}")
            if int(dut.cmd_fire_q_o.value):
                assert offering is not None
                outstanding.add(offering)
                accepts.append([cyc - 1, offering])
                first = cyc - 1 if first is None else first
                i += 1
                offering = None
            if int(dut.done_valid_o.value):
                did = int(dut.done_id_o.value)
                assert did in outstanding, f"cycle {cyc}: done for id {did}, which is not outstanding"
                outstanding.remove(did)
                dones.append([cyc, did])
                last = cyc
            if offering is None and i < len(cmds) and next_id not in outstanding and rng.random() < stim["p_cmd"]:
                f, rs1, rs2 = cmds[i]
                dut.cmd_funct_i.value = f
                dut.cmd_rs1_i.value = int(rs1)
                dut.cmd_rs2_i.value = int(rs2)
                dut.cmd_id_i.value = next_id
                offering = next_id
                next_id = (next_id + 1) % 64
            dut.cmd_valid_i.value = offering is not None
        dut.cmd_valid_i.value = 0
        c1 = _counters(dut)
        segs.append({"first": first, "last": last, "counters": {n: c1[n] - c0[n] for n in COUNTERS}})
        # read back
        await FallingEdge(dut.clk_i)
        lo_s, hi_s = stim["dump_sp"]
        lo_a, hi_a = stim["dump_acc"]
        n = max(hi_s - lo_s, hi_a - lo_a)
        got_sp: list[str] = []
        got_acc: list[str] = []
        dut.dump_en_i.value = 1
        for k in range(n + 1):
            if k:
                if k - 1 < hi_s - lo_s:
                    got_sp.append(str(int(dut.dump_sp_data_o.value)))
                if k - 1 < hi_a - lo_a:
                    got_acc.append(str(int(dut.dump_acc_data_o.value)))
            if k < n:
                dut.dump_sp_row_i.value = lo_s + min(k, hi_s - lo_s - 1)
                dut.dump_acc_row_i.value = lo_a + min(k, hi_a - lo_a - 1)
            await FallingEdge(dut.clk_i)
        dut.dump_en_i.value = 0
        dumps.append({"sp": got_sp, "acc": got_acc})
    out = {"accepts": accepts, "dones": dones, "dumps": dumps, "segments": segs, "trace": trace}
    Path(os.environ["GEMMINI_EXEC_OUT"]).write_text(json.dumps(out))
