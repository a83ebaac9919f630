"""Stream a request batch through the Verilator FPU harness and compare every
response (result bits and fflags) with the SoftFloat reference."""

from __future__ import annotations

import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.errors import SimError

from .ops import FpuOp
from .oracle import describe, reference

RESPONSE_DTYPE = np.dtype([("result", "<u8"), ("fflags", "<u4"), ("latency", "<u4")])


@dataclass
class Mismatch:
    op: FpuOp
    rm: int
    a: int
    b: int
    c: int
    int_op: int
    got: tuple[int, int]
    want: tuple[int, int]

    def __str__(self) -> str:
        operands = (
            f"int=0x{self.int_op:016x}"
            if self.op.name.startswith("CVT_S_")
            else f"a=0x{self.a:08x}({describe(self.a)}) b=0x{self.b:08x}({describe(self.b)}) "
            f"c=0x{self.c:08x}({describe(self.c)})"
        )
        return (
            f"{self.op.name} rm={self.rm} {operands}: got 0x{self.got[0]:x} flags {self.got[1]:05b}, "
            f"want 0x{self.want[0]:x} flags {self.want[1]:05b}"
        )


@dataclass
class BatchReport:
    ops: int
    cycles: int
    mismatches: list[Mismatch] = field(default_factory=list)
    mismatch_count: int = 0
    per_op: Counter = field(default_factory=Counter)  # op name -> count checked
    per_op_failed: Counter = field(default_factory=Counter)  # op name -> mismatches
    latency: dict[str, tuple[int, int]] = field(default_factory=dict)  # op -> (min, max)

    @property
    def passed(self) -> int:
        return self.ops - self.mismatch_count

    def summary(self, limit: int = 20) -> str:
        lines = [f"{self.passed}/{self.ops} ops match ({self.cycles} cycles)"]
        lines += [f"  {m}" for m in self.mismatches[:limit]]
        if self.mismatch_count > limit:
            lines.append(f"  ... and {self.mismatch_count - limit} more")
        return "\n".join(lines)


def run_rtl(binary: Path, batch: np.ndarray) -> tuple[np.ndarray, int]:
    """Run the harness on a batch; return its responses and the cycle count."""
    with tempfile.TemporaryDirectory(prefix="fpu_tb-") as tmp:
        inp, out = Path(tmp) / "in.bin", Path(tmp) / "out.bin"
        batch.tofile(inp)
        proc = subprocess.run([str(binary), str(inp), str(out)], capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise SimError(f"FPU harness {binary} failed (exit {proc.returncode}): {proc.stderr.strip()}")
        resp = np.fromfile(out, dtype=RESPONSE_DTYPE)
    if len(resp) != len(batch):
        raise SimError(f"FPU harness returned {len(resp)} responses for {len(batch)} requests")
    cycles = int(proc.stdout.split()[1])
    return resp, cycles


def check_batch(binary: Path, batch: np.ndarray, keep: int = 50) -> BatchReport:
    """Run a batch on the RTL and compare every response with the reference."""
    resp, cycles = run_rtl(binary, batch)
    return compare(batch, resp, cycles, keep)


def _compare_one(report: BatchReport, req: tuple, rsp: tuple, keep: int) -> None:
    op, rm, a, b, c, _pad, int_op = req
    got = (rsp[0], rsp[1])
    want = reference(op, rm, a, b, c, int_op)
    name = FpuOp(op).name
    report.per_op[name] += 1
    lo, hi = report.latency.get(name, (rsp[2], rsp[2]))
    report.latency[name] = (min(lo, rsp[2]), max(hi, rsp[2]))
    if got != want:
        report.mismatch_count += 1
        report.per_op_failed[name] += 1
        if report.per_op_failed[name] <= keep:
            report.mismatches.append(Mismatch(FpuOp(op), rm, a, b, c, int_op, got, want))


def compare(batch: np.ndarray, resp: np.ndarray, cycles: int = 0, keep: int = 50) -> BatchReport:
    """Compare RTL responses with the reference, request by request (bits and fflags)."""
    report = BatchReport(ops=len(batch), cycles=cycles)
    chunk = 1 << 16  # bounded memory for multi-million batches
    for start in range(0, len(batch), chunk):
        reqs = batch[start : start + chunk].tolist()
        rsps = resp[start : start + chunk].tolist()
        for req, rsp in zip(reqs, rsps, strict=True):
            _compare_one(report, req, rsp, keep)
    return report
