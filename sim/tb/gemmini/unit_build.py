"""Build (cached) and run the cocotb test benches of the Gemmini unit's top (sim/rtl/gemmini/gemmini_unit*.sv).

Each block of the top has a bench of its own (the decoder, the ROB, the arbiter), built through
:func:`sim.tb.gemmini.build.cached_build` under ``$COSIM_CACHE/<toplevel>``. :func:`illegal_reasons` reads the
``gm_illegal_e`` codes from gemmini_unit_pkg.sv and :func:`model_reason` names the code of a model
``GemminiIllegal`` message, so the RTL's ``illegal_reason_o`` and the model's message compare (the harness can use
the same two to print the model's wording for an RTL trap).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from configs import load_soc
from sim.gemmini.params import GemminiParams
from sim.soc_parameters import memory_map_parameters
from sim.tb.gemmini.build import RTL_DIR, TB_DIR, ArrayBuild, cached_build, run_cocotb

COSIM_PKG = RTL_DIR.parent / "cosim_pkg.sv"
PKGS: tuple[Path, ...] = (COSIM_PKG, RTL_DIR / "gemmini_pkg.sv", RTL_DIR / "gemmini_unit_pkg.sv")


@cache
def illegal_reasons() -> dict[str, int]:
    """``gm_illegal_e``'s names and values, from gemmini_unit_pkg.sv."""
    text = (RTL_DIR / "gemmini_unit_pkg.sv").read_text()
    body = text[text.index("typedef enum") : text.index("} gm_illegal_e")]
    return {m[1]: int(m[2]) for m in re.finditer(r"(Ill\w+)\s*=\s*6'd(\d+)", body)}


# model message (sim/gemmini/model.py, loop_ws.py, spike_bridge.py) -> reason; the first match wins
_MESSAGES: tuple[tuple[str, str], ...] = (
    (r"unknown funct", "IllFunct"),
    (r"no loop_conv_ws unit", "IllLoopConv"),
    (r"mvin id = ", "IllLdId"),
    (r"config_norm", "IllCfgNorm"),
    (r"config_st: activation", "IllStAct"),
    (r"config_ex: dataflow", "IllExDataflow"),
    (r"config_ex: activation", "IllExAct"),
    (r"two transposers", "IllExTranspose"),
    (r"loop_ws: pad_", "IllLoopBounds"),
    (r"loop_ws: activation", "IllLoopAct"),
    (r"loop_ws: residual", "IllLoopResidual"),
    (r"loop_ws: A transpose and B transpose", "IllLoopTranspose"),
    (r"loop_ws: .*half the scratchpad", "IllLoopSp"),
    (r"loop_ws: .*half the accumulator", "IllLoopAcc"),
    (r"norm command", "IllNormCmd"),
    (r"accumulator rows .* outside", "IllAccRange"),
    (r"scratchpad rows .* outside", "IllSpRange"),
    (r"rows = \d+ exceeds DIM", "IllRows"),
    (r"cols = \d+ exceeds DIM", "IllCols"),
    (r"cols = \d+ is \d+ blocks", "IllBlocks"),
    (r"pixel repeats", "IllPixelRepeat"),
    (r"cannot pool", "IllPoolFull"),
    (r"needs a pool size", "IllPoolDims"),
    (r"rows below the C address", "IllOsStride"),
    (r"leaves the memory map", "IllDmaRange"),
)


def model_reason(message: str) -> int:
    """The ``gm_illegal_e`` code of a GemminiIllegal message (ValueError for a message no code names)."""
    codes = illegal_reasons()
    for pat, name in _MESSAGES:
        if re.search(pat, message):
            return codes[name]
    raise ValueError(f"no gm_illegal_e code for the model's message {message!r}")


def memory_map(soc: str) -> dict[str, str]:
    """The Mem0/1/2 regions of ``soc`` as gemmini_unit's parameters (cosim_soc's names, sized literals)."""
    return {k: v for k, v in memory_map_parameters(load_soc(soc)).items() if k.startswith("Mem")}


def decode_parameters(p: GemminiParams, soc: str) -> dict[str, int | str]:
    return {
        "Dim": p.dim,
        "SpRows": p.sp_rows,
        "AccRows": p.acc_rows,
        "MaxBlockLen": p.max_block_len,
        "MaxBlockLenAcc": p.max_block_len_acc,
        "HasWs": int(p.has_ws),
        "HasOs": int(p.has_os),
        **memory_map(soc),
    }


DECODE_TOP = "unit_decode_tb"


def build_decode_tb(p: GemminiParams, soc: str) -> ArrayBuild:
    params = decode_parameters(p, soc)
    srcs = (*PKGS, RTL_DIR / "gemmini_unit_decode.sv", TB_DIR / "unit_decode_tb.sv")
    return cached_build(DECODE_TOP, srcs, params, p.dim, params)  # type: ignore[arg-type]


def run_decode(
    b: ArrayBuild, insns: Sequence[tuple[int, int, int]], workdir: Path
) -> tuple[list[tuple[int, int]], float]:
    """Offer ``insns`` ((funct, rs1, rs2)) one a cycle; per instruction (legal, reason), and the wall time."""
    workdir.mkdir(parents=True, exist_ok=True)
    stim, out = workdir / "stim.json", workdir / "out.json"
    stim.write_text(json.dumps([[str(v) for v in i] for i in insns]))
    out.unlink(missing_ok=True)
    t0 = time.perf_counter()
    env = {"GEMMINI_UDEC_STIM": str(stim), "GEMMINI_UDEC_OUT": str(out)}
    run_cocotb(b, DECODE_TOP, "sim.tb.gemmini.unit_decode_cocotb", workdir, env, out)
    return [(int(a), int(r)) for a, r in json.loads(out.read_text())], time.perf_counter() - t0


UNIT_TOP = "unit_tb"
FPU_DIR = RTL_DIR.parent / "fpu"
# every source of gemmini_unit, packages first
UNIT_SOURCES: tuple[Path, ...] = (
    COSIM_PKG,
    RTL_DIR / "gemmini_pkg.sv",
    RTL_DIR / "gemmini_unit_pkg.sv",
    RTL_DIR / "gemmini_exec_pkg.sv",
    RTL_DIR.parent / "cosim_assert_window.sv",
    *(FPU_DIR / n for n in ("fpu_pkg.sv", "fpu_i2f.sv", "fpu_fma.sv", "fpu_f2i.sv")),
    *(
        RTL_DIR / f"gemmini_{n}.sv"
        for n in (
            "scale",
            "clock_gate",
            "delay",
            "pe",
            "mesh",
            "array",
            "spad",
            "acc",
            "load",
            "exec_intake",
            "exec_fetch",
            "exec_stream",
            "exec_write",
            "exec_done",
            "exec",
            "store",
            "dma",
            "loop_ws",
            "unit_decode",
            "unit_issue",
            "unit_sets",
            "unit_alloc",
            "unit_counters",
            "unit_trace",
            "unit_rob",
            "unit_arb",
            "unit",
        )
    ),
)


def unit_parameters(soc: str) -> dict[str, int | str]:
    from sim.soc_parameters import gemmini_parameters

    s = load_soc(soc)
    g = gemmini_parameters(s, s.accelerator)  # type: ignore[arg-type]
    return {**g, "MemW": max(64, 8 * g["DmaBytes"]), "MemOutstanding": s.memory.outstanding, **memory_map(soc)}


def build_unit_tb(soc: str) -> ArrayBuild:
    params = unit_parameters(soc)
    return cached_build(UNIT_TOP, (*UNIT_SOURCES, TB_DIR / "unit_tb.sv"), params, int(params["Dim"]), params)  # type: ignore[arg-type]


def run_unit(
    b: ArrayBuild,
    soc: str,
    insns: Sequence[tuple[int, int, int]],
    windows: Sequence[tuple[int, bytes]],
    workdir: Path,
    latency: int | None = None,
    max_cycles: int = 200_000,
) -> dict:
    """Play ``insns`` ((funct, rs1, rs2); the counter writes x5) through unit_tb with ``windows`` as main memory;
    the driver's record (see unit_cocotb.py) plus ``wall_s``."""
    from sim.gemmini import isa
    from sim.gemmini.params import gemmini_params

    s = load_soc(soc)
    p = gemmini_params(s)
    workdir.mkdir(parents=True, exist_ok=True)
    stim, out = workdir / "stim.json", workdir / "out.json"
    words = [[str(isa.encode(f, 10, 11, 5 if f == isa.COUNTER else 0)), str(a), str(c)] for f, a, c in insns]
    stim.write_text(
        json.dumps(
            {
                "insns": words,
                "windows": [[base, bytes(data).hex()] for base, data in windows],
                "latency": latency if latency is not None else s.memory.latency,
                "outstanding": s.memory.outstanding,
                "port_bytes": max(64, 8 * p.dma_bytes) // 8,
                "sp_banks": p.sp_banks,
                "acc_banks": p.acc_banks,
                "dim": p.dim,
                "sp_row_w": p.sp_row_bits,
                "acc_row_w": p.acc_row_bits,
                "max_cycles": max_cycles,
            }
        )
    )
    out.unlink(missing_ok=True)
    t0 = time.perf_counter()
    env = {"GEMMINI_UNIT_STIM": str(stim), "GEMMINI_UNIT_OUT": str(out)}
    run_cocotb(b, UNIT_TOP, "sim.tb.gemmini.unit_cocotb", workdir, env, out)
    res = json.loads(out.read_text())
    res["wall_s"] = time.perf_counter() - t0
    return res


ROB_TOP = "unit_rob_tb"


def build_rob_tb(depth: int = 32) -> ArrayBuild:
    srcs = (
        RTL_DIR / "gemmini_pkg.sv",
        RTL_DIR / "gemmini_unit_pkg.sv",
        RTL_DIR / "gemmini_unit_rob.sv",
        TB_DIR / "unit_rob_tb.sv",
    )
    return cached_build(ROB_TOP, srcs, {"Depth": depth, "Tags": 16}, 0, {"depth": depth})


def pack_sets(rd0, rd1, wr, drd, dwr) -> int:
    """A gm_sets_t: each rows range (v, acc, lo, hi) or None, each DRAM range (lo, hi) or None, MSB first."""
    v = 0
    for r in (rd0, rd1, wr):
        acc, lo, hi = r if r else (0, 0, 0)
        v = (v << 66) | (int(r is not None) << 65) | (acc << 64) | (lo << 32) | hi
    for r in (drd, dwr):
        lo, hi = r if r else (0, 0)
        v = (v << 81) | (int(r is not None) << 80) | (lo << 40) | hi
    return v


def run_rob(
    b: ArrayBuild, cmds: Sequence[tuple[int, int, int]], workdir: Path, seed: int, inflight: int = 3, max_lat: int = 8
) -> list[list[int]]:
    """Per command (ctl, packed sets, tag): [id, alloc cycle, issue cycle, done cycle]."""
    workdir.mkdir(parents=True, exist_ok=True)
    stim, out = workdir / "stim.json", workdir / "out.json"
    stim.write_text(
        json.dumps(
            {"cmds": [[c, str(s), t] for c, s, t in cmds], "seed": seed, "inflight": inflight, "max_lat": max_lat}
        )
    )
    out.unlink(missing_ok=True)
    run_cocotb(
        b,
        ROB_TOP,
        "sim.tb.gemmini.unit_rob_cocotb",
        workdir,
        {"GEMMINI_UROB_STIM": str(stim), "GEMMINI_UROB_OUT": str(out)},
        out,
    )
    return json.loads(out.read_text())
