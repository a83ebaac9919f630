"""Gemmini's self-checking C programs (tests/gemmini_programs/) on the gemmini-dim4 RTL, against Spike.

The ELFs and the Spike runs come from tests/test_gemmini_programs.py's helpers (one build per program and
session); the SoC is built once per session (``gemmini_rtl`` fixture, cached across sessions by
sim/verilator_build). Checks:

- every good program exits 0 on the RTL with its "ok" lines and no FAIL, prints what it prints on Spike
  (except counters.c, whose counter reads legitimately differ), and where it computes counts the same
  ``gemmini_macs`` (> 0) as the functional model on Spike;
- every program in bad/ traps on the RTL with Spike's cause, PC, disassembly, detail and message;
- a probe program: a scalar load after a stream of mvins does not wait for them (only fence orders the
  core's memory against the DMA), the fence does; the Gemmini counters reach result.json, nested under
  ``forward`` for the PROFILE region, with ``mesh_utilization``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import test_gemmini_programs as spike_programs
from test_gemmini_programs import BAD_FIELDS, COMPUTING, GOOD, SOC, program_elf, run_on_spike

from configs import load_soc
from harness.elfcheck import check_elf
from harness.iss import describe_trap
from harness.results import FORWARD_REGION, make_result
from harness.toolchain import build_elf
from sim.outcome import RunOutcome

pytestmark = [pytest.mark.rtl, pytest.mark.iss]

# The Spike tests' session fixture: one ELF build per program and session, shared by both files' tests.
gemmini_elves = spike_programs.gemmini_elves

# Counters the SoC sums from the unit's perf_o (sim/tb/tb_top.sv).
GEMMINI_COUNTERS = (
    "gemmini_macs",
    "gemmini_load_busy_cycles",
    "gemmini_exec_busy_cycles",
    "gemmini_store_busy_cycles",
    "gemmini_mesh_busy_cycles",
    "dma_bytes_read",
    "dma_bytes_written",
    "gemmini_stall_hazard_cycles",
    "gemmini_stall_queue_cycles",
    "gemmini_stall_mem_cycles",
)
# Programs that take ~20 s or more on the RTL: slow tier (measured: conv 2.2 M cycles, 28 s; tiled_matmul 2.5 M
# cycles, 38 s at a load of 6 on 2 cores; both ~60 s on a loaded machine). The others take 1-2 s each (0.1 M cycles or less).
SLOW = {"conv", "tiled_matmul"}
# Programs whose UART text legitimately differs between the RTL and Spike (counter reads).
OWN_TEXT = {"counters"}


@pytest.fixture(scope="session")
def gemmini_rtl():
    """The gemmini-dim4 SoC, built (or found in the cache) once; run_rtl finds the same entry."""
    from sim.verilator_build import build

    return build(SOC)


def _rtl(elf: Path, tmp_path: Path, **kwargs) -> RunOutcome:
    from sim.rtl_runner import run_rtl

    soc = load_soc(SOC)
    (tmp_path / "rtl").mkdir(exist_ok=True)
    out = run_rtl(elf, soc, workdir=tmp_path / "rtl", **kwargs)
    describe_trap(out, check_elf(elf, soc), soc)
    return out


def _params(names):
    return [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in names]


@pytest.mark.parametrize("name", _params([*GOOD, "raw_insn"]))
def test_program_passes_on_rtl(name, gemmini_rtl, gemmini_elves, tmp_path):
    defines = (f"RAW_DIM={load_soc(SOC).accelerator.dim}",) if name == "raw_insn" else ()  # type: ignore[union-attr]
    elf = program_elf(gemmini_elves, name, defines=defines)
    out = _rtl(elf, tmp_path)
    assert out.ending == "exit", f"{name}: ended {out.ending}: {out.message}\n{out.uart}"
    assert out.exit_code == 0, f"{name}: exit code {out.exit_code}\n{out.uart}"
    assert "FAIL" not in out.uart and "MISMATCH" not in out.uart, out.uart
    if name != "raw_insn":
        assert re.search(r"^ok ", out.uart, re.M), out.uart
    iss = run_on_spike(elf, tmp_path)
    assert iss.exited_ok, f"{name} on Spike: {iss.ending} {iss.message}"
    if name not in OWN_TEXT:
        assert out.uart == iss.uart, f"{name}: UART text differs from Spike's\nRTL:\n{out.uart}\nSpike:\n{iss.uart}"
    if name in COMPUTING:
        assert out.counters.get("gemmini_macs", 0) > 0, out.counters
        assert out.counters["gemmini_macs"] == iss.counters["gemmini_macs"], (out.counters, iss.counters)


@pytest.mark.parametrize("name", sorted(BAD_FIELDS))
def test_bad_program_traps_as_on_spike(name, gemmini_rtl, gemmini_elves, tmp_path):
    elf = program_elf(gemmini_elves, name, "bad")
    out = _rtl(elf, tmp_path)
    iss = run_on_spike(elf, tmp_path)
    describe_trap(iss, check_elf(elf, load_soc(SOC)), load_soc(SOC))  # the message as `cosim iss` words it
    assert iss.ending == "trap" and iss.trap is not None, f"Spike: {iss.ending} {iss.message}"
    assert "NOT TRAPPED" not in out.uart, out.uart
    assert out.ending == "trap" and out.trap is not None, f"{name}: ended {out.ending}: {out.message}\n{out.uart}"
    assert (out.trap.cause, out.trap.pc, out.trap.tval) == (iss.trap.cause, iss.trap.pc, iss.trap.tval), (
        out.message,
        iss.message,
    )
    assert out.trap.disassembly == iss.trap.disassembly
    assert out.trap.detail == iss.trap.detail, (out.trap.detail, iss.trap.detail)
    assert out.message == iss.message
    assert any(w in out.message.lower() for w in BAD_FIELDS[name]), out.message


# A scalar load after a stream of mvins, timed with mcycle; then one compute inside PROFILE region 1 (the
# harness's `forward` region), its result checked against a CPU reference.
PROBE_C = r"""
#include <stdint.h>
#include <stdio.h>
#include "cosim.h"
#include "include/gemmini.h"

#define NMVIN 12
static elem_t big[NMVIN][DIM][MAX_BLOCK_LEN * DIM] row_align(1);
static elem_t A[DIM][DIM] row_align(1), B[DIM][DIM] row_align(1);
static acc_t C[DIM][DIM] row_align_acc(1);
static volatile uint64_t probe = 42;

static inline uint64_t cyc(void) { uint64_t c; __asm__ volatile("csrr %0, mcycle" : "=r"(c)); return c; }

int main(void) {
  for (int i = 0; i < DIM; i++)
    for (int j = 0; j < DIM; j++) { A[i][j] = (elem_t)(i + 2 * j - 3); B[i][j] = (elem_t)(3 * i - j + 1); }
  gemmini_config_ld(MAX_BLOCK_LEN * DIM * sizeof(elem_t));
  uint64_t t0 = cyc();
  for (int n = 0; n < NMVIN; n++) gemmini_extended_mvin(big[n], 256 + n * MAX_BLOCK_LEN * DIM, MAX_BLOCK_LEN * DIM, DIM);
  uint64_t t1 = cyc();
  uint64_t v = probe;
  uint64_t t2 = cyc();
  gemmini_fence();
  uint64_t t3 = cyc();
  printf("probe issue %lu load %lu fence %lu value %lu\n", (unsigned long)(t1 - t0), (unsigned long)(t2 - t1),
         (unsigned long)(t3 - t2), (unsigned long)v);

  profile_start(1);
  gemmini_config_ld(DIM * sizeof(elem_t));
  gemmini_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0);
  gemmini_config_st(DIM * sizeof(acc_t));
  gemmini_mvin(A, 0);
  gemmini_mvin(B, DIM);
  gemmini_preload(DIM, (uint32_t)(1u << 31));
  gemmini_compute_preloaded(0, GARBAGE_ADDR);
  gemmini_mvout(C, (uint32_t)(1u << 31) | (uint32_t)(1u << 29));
  gemmini_fence();
  profile_stop(1);
  int bad = 0;
  for (int i = 0; i < DIM; i++)
    for (int j = 0; j < DIM; j++) {
      int32_t s = 0;
      for (int k = 0; k < DIM; k++) s += (int32_t)A[i][k] * B[k][j];
      bad += C[i][j] != s;
    }
  printf(bad ? "FAIL %d wrong\n" : "ok matmul\n", bad);
  return bad != 0;
}
"""


@pytest.fixture(scope="module")
def probe_elf(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("gemmini-probe")
    src = d / "probe.c"
    src.write_text(PROBE_C)
    return build_elf([src], SOC, d / "probe.elf")


def test_probe_fence_orders_the_dma_and_counters_reach_result_json(probe_elf, gemmini_rtl, tmp_path):
    soc = load_soc(SOC)
    out = _rtl(probe_elf, tmp_path)
    assert out.exited_ok, f"{out.ending} {out.message}\n{out.uart}"
    m = re.search(r"probe issue (\d+) load (\d+) fence (\d+) value 42", out.uart)
    assert m, out.uart
    issue, load, fence = map(int, m.groups())
    # The mvins move 12 x 256 bytes at 16 bytes a beat: far more cycles than a scalar load takes. The load
    # does not wait for them (it is not ordered against the DMA); the fence does.
    assert load < 40 and fence > 4 * load, (issue, load, fence)

    iss = run_on_spike(probe_elf, tmp_path)
    assert iss.exited_ok, iss.message
    result = make_result(out, soc=soc, elf=probe_elf)
    counters = result["counters"]
    for name in GEMMINI_COUNTERS:
        assert name in counters, (name, sorted(counters))
    assert counters["gemmini_macs"] == iss.counters["gemmini_macs"] > 0
    assert counters["dma_bytes_read"] >= iss.counters["dma_bytes_read"] > 0
    assert counters["dma_bytes_written"] >= iss.counters["dma_bytes_written"] > 0
    dim = soc.accelerator.dim  # type: ignore[union-attr]
    assert counters["mesh_utilization"] == round(counters["gemmini_macs"] / (dim * dim * counters["cycles"]), 6)
    fwd = counters["forward"]
    region = next(p for p in out.profile if p.region == FORWARD_REGION)
    assert fwd["cycles"] == region.cycles == result["cycles_forward"]
    # the only compute is inside the region; the mvins before it are not
    assert fwd["gemmini_macs"] == counters["gemmini_macs"]
    assert 0 < fwd["dma_bytes_read"] < counters["dma_bytes_read"]
    assert fwd["mesh_utilization"] == round(fwd["gemmini_macs"] / (dim * dim * fwd["cycles"]), 6)
    assert fwd["gemmini_exec_busy_cycles"] > 0 and fwd["gemmini_mesh_busy_cycles"] > 0


def test_watchdog_does_not_fire_while_the_unit_works(probe_elf, gemmini_rtl, tmp_path):
    """The probe's first fence waits ~700 cycles with nothing retiring: only the unit's progress_o keeps a
    300-cycle watchdog quiet (the scalar core alone stalls at most ~70 cycles, a 64-bit divide; the hang report
    is tested in tests/test_gemmini_soc.py)."""
    out = _rtl(probe_elf, tmp_path, watchdog_cycles=300)
    assert out.exited_ok, f"{out.ending}: {out.message}"
