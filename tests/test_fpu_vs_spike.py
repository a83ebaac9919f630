"""FPU batches: thousands of F operations (special operands, every rounding mode,
dynamic frm) in one ELF per batch; results (bits + fflags) compared bit for bit.

- Spike's results are checked against an independent reference (Berkeley
  SoftFloat through sim/tb/fpu/oracle.py), which proves the batch program, the
  dump and the decoding right, so a later RTL-vs-Spike mismatch is the RTL's.
- The RTL half runs the same ELF with ``sim.rtl_runner.run_rtl`` and compares its
  results array with Spike's; it is skipped until the RTL runner is in the tree.
"""

from __future__ import annotations

import pytest

from harness.elfcheck import ElfImage
from harness.toolchain import build_elf
from sim.randgen.fpu_batch import RESULTS_SYMBOL, STATIC_MODES, FpuBatch, FpuResult, generate_batch
from sim.spike import Dump, run_spike
from sim.tb.fpu.ops import FpuOp
from sim.tb.fpu.oracle import reference

pytestmark = pytest.mark.iss

XLEN = {"rv32": 32, "rv64": 64}

OP_OF = {
    "fadd.s": FpuOp.ADD,
    "fsub.s": FpuOp.SUB,
    "fmul.s": FpuOp.MUL,
    "fdiv.s": FpuOp.DIV,
    "fsqrt.s": FpuOp.SQRT,
    "fmadd.s": FpuOp.MADD,
    "fmsub.s": FpuOp.MSUB,
    "fnmsub.s": FpuOp.NMSUB,
    "fnmadd.s": FpuOp.NMADD,
    "fmin.s": FpuOp.MIN,
    "fmax.s": FpuOp.MAX,
    "feq.s": FpuOp.EQ,
    "flt.s": FpuOp.LT,
    "fle.s": FpuOp.LE,
    "fclass.s": FpuOp.CLASS,
    "fsgnj.s": FpuOp.SGNJ,
    "fsgnjn.s": FpuOp.SGNJN,
    "fsgnjx.s": FpuOp.SGNJX,
    "fcvt.w.s": FpuOp.CVT_W_S,
    "fcvt.wu.s": FpuOp.CVT_WU_S,
    "fcvt.l.s": FpuOp.CVT_L_S,
    "fcvt.lu.s": FpuOp.CVT_LU_S,
    "fcvt.s.w": FpuOp.CVT_S_W,
    "fcvt.s.wu": FpuOp.CVT_S_WU,
    "fcvt.s.l": FpuOp.CVT_S_L,
    "fcvt.s.lu": FpuOp.CVT_S_LU,
}


def expected(r: FpuResult, xlen: int) -> tuple[int, int]:
    """Independent reference for one operation: (result as stored, fflags)."""
    spec, g = r.group.spec, r.group
    mask = (1 << xlen) - 1
    if spec.mnemonic == "fmv.w.x":
        return r.operands[0] & 0xFFFF_FFFF, 0
    if spec.mnemonic == "fmv.x.w":
        v = r.operands[0]
        return (v | (mask ^ 0xFFFF_FFFF) if v >> 31 else v) & mask, 0
    rm = g.frm if g.mode == "dyn" else (STATIC_MODES.index(g.mode) if g.mode else 0)
    a, b, c = (*r.operands, 0, 0)[:3]
    int_op = r.operands[0] if spec.sources == "x" else 0
    value, flags = reference(OP_OF[spec.mnemonic], rm, a, b, c, int_op)
    return value & (mask if spec.dest == "x" else 0xFFFF_FFFF), flags


# (soc, operations per op x mode group): the default tier runs ~2-3k operations per
# XLEN (every op, every mode); the slow tier ~45k per XLEN with another seed.
BATCHES = [
    pytest.param(("rv32", 16, 2024), id="rv32"),
    pytest.param(("rv64", 16, 2024), id="rv64"),
    pytest.param(("rv32", 256, 7), id="rv32-large", marks=pytest.mark.slow),
    pytest.param(("rv64", 256, 7), id="rv64-large", marks=pytest.mark.slow),
]


@pytest.fixture(scope="module", params=BATCHES)
def batch(request, tmp_path_factory) -> tuple[str, FpuBatch, object, Dump]:
    soc, per_group, seed = request.param
    d = tmp_path_factory.mktemp(f"fpu-{soc}")
    b = generate_batch(seed=seed, xlen=XLEN[soc], per_group=per_group)
    (d / "batch.S").write_text(b.text)
    elf = build_elf([d / "batch.S"], soc, d / "batch.elf")
    sym = ElfImage(elf).symbol(RESULTS_SYMBOL)
    assert sym.size == b.results_bytes
    return soc, b, elf, Dump(sym.addr, b.results_bytes)


@pytest.fixture(scope="module")
def spike_results(batch) -> list[FpuResult]:
    soc, b, elf, dump = batch
    out = run_spike(elf, soc, dumps=[dump], max_instructions=50_000_000)
    assert out.exited_ok, (out.ending, out.message)
    return b.decode(out.dumps[dump.addr])


def test_batch_covers_every_operation_and_mode(batch):
    soc, b, _, _ = batch
    rounded = 17 if soc == "rv64" else 13  # ops with a rounding-mode operand
    assert len(b.groups) == rounded * 10 + 11  # 5 static modes + dyn under 5 frm values; 11 unrounded ops
    assert b.operations == sum(len(g.operands) for g in b.groups) >= 16 * len(b.groups)
    mnemonics = {g.spec.mnemonic for g in b.groups}
    assert mnemonics == set(OP_OF) - (
        {"fcvt.l.s", "fcvt.lu.s", "fcvt.s.l", "fcvt.s.lu"} if soc == "rv32" else set()
    ) | {"fmv.x.w", "fmv.w.x"}
    modes = {(g.spec.mnemonic, g.mode, g.frm) for g in b.groups}
    for m in STATIC_MODES:
        assert ("fmadd.s", m, None) in modes
    assert {("fdiv.s", "dyn", frm) for frm in range(5)} <= modes


def test_spike_batch_matches_independent_softfloat_reference(batch, spike_results):
    soc, b, _, _ = batch
    bad = [(r, expected(r, b.xlen)) for r in spike_results if (r.value, r.fflags) != expected(r, b.xlen)]
    assert not bad, "\n".join(f"{r.describe()}; reference 0x{v:x} flags 0x{f:02x}" for r, (v, f) in bad[:10])
    # The batch exercises every flag and special result, not only easy cases.
    flags = 0
    for r in spike_results:
        flags |= r.fflags
    assert flags == 0x1F
    assert any(r.value == 0x7FC00000 for r in spike_results)  # canonical NaN produced


def test_rtl_batch_matches_spike_bit_for_bit(batch, spike_results):
    from sim.rtl_runner import run_rtl

    soc, b, elf, dump = batch
    out = run_rtl(elf, soc, dumps=[dump])
    assert out.exited_ok, (out.ending, out.message)
    rtl = b.decode(out.dumps[dump.addr])
    bad = [(s, r) for s, r in zip(spike_results, rtl, strict=True) if (s.value, s.fflags) != (r.value, r.fflags)]
    assert not bad, f"{len(bad)} of {len(rtl)} operations differ; first ones (Spike | RTL):\n" + "\n".join(
        f"{s.describe()} | 0x{r.value:x} flags 0x{r.fflags:02x}" for s, r in bad[:10]
    )
