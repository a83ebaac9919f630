"""The pipelined scalar core (sim/rtl/core/README.md "Pipeline"): the memory
regions it treats as fault-free match every config, its per-class cycle costs
hold on the RTL (simulated cycles, deterministic), self-modifying code stays
coherent with the instruction cache, and scalar accesses keep their order
against vector memory instructions while passing vector arithmetic."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rtl_support import run_c_on_spike_and_rtl

from configs import load_soc
from harness.toolchain import build_elf
from sim.rtl_runner import run_rtl

REPO = Path(__file__).resolve().parents[1]
CORE = REPO / "sim" / "rtl" / "core" / "cosim_core.sv"
CONFIGS = sorted(p.stem for p in (REPO / "configs").glob("*.toml"))


def _core_parameters() -> dict[str, int]:
    text = CORE.read_text()
    found = {}
    for name, value in re.findall(r"parameter\s+logic\s*\[[^\]]*\]\s*(\w+)\s*=\s*\d+'h([0-9a-fA-F_]+)", text):
        found[name] = int(value.replace("_", ""), 16)
    return found


@pytest.mark.parametrize("soc", CONFIGS)
def test_fault_free_regions_and_mmio_page_match_the_config(soc):
    """Non-blocking accesses are only safe where the test bench never answers with
    an error: the core's region parameters must lie inside the config's regions."""
    params = _core_parameters()
    mm = load_soc(soc).memory_map
    assert params["MmioBase"] == mm.mmio_base and params["MmioSize"] == mm.mmio_size
    regions = list(mm.regions().values())
    for i in range(3):
        base, size = params[f"Mem{i}Base"], params[f"Mem{i}Size"]
        assert any(b <= base and base + size <= b + s for b, s in regions), (soc, i, hex(base), hex(size))


def test_parameter_parser_sees_every_region():
    assert {"MmioBase", "MmioSize", "Mem0Base", "Mem0Size", "Mem2Size"} <= set(_core_parameters())


CPI_C = r"""
#include <stdio.h>
#include <stdint.h>
static inline uint32_t cyc(void) { uint32_t c; __asm__ volatile("csrr %0, mcycle" : "=r"(c)::"memory"); return c; }
static uint32_t data[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static volatile int reps = 2;   /* volatile: the compiler must not unroll the two runs */
/* Each block runs twice; the second run (code in the instruction cache) is reported. */
#define MEASURE(name, ...) do { uint32_t d_ = 0; for (int k_ = 0; k_ < reps; ++k_) { \
    uint32_t t0_ = cyc(); __VA_ARGS__; d_ = cyc() - t0_; } printf(name " %u\n", (unsigned)d_); } while (0)
int main(void) {
  uint32_t acc = 0, n = 0, s = 0;
  MEASURE("alu", __asm__ volatile(".rept 64\n addi %0, %0, 1\n .endr" : "+r"(acc)));
  MEASURE("loop", n = 64; __asm__ volatile("1: addi %0, %0, -1\n bnez %0, 1b" : "+r"(n)));
  MEASURE("loads", __asm__ volatile(".rept 8\n lw t1, 0(%0)\n lw t2, 4(%0)\n lw t3, 8(%0)\n lw t4, 12(%0)\n .endr"
                                    :: "r"(data) : "t1", "t2", "t3", "t4", "memory"));
  MEASURE("stores", __asm__ volatile(".rept 8\n sw %1, 32(%0)\n sw %1, 36(%0)\n sw %1, 40(%0)\n sw %1, 44(%0)\n .endr"
                                     :: "r"(data), "r"(acc) : "memory"));
  MEASURE("loaduse", s = 0; __asm__ volatile(".rept 8\n lw t1, 16(%1)\n add %0, %0, t1\n .endr"
                                             : "+r"(s) : "r"(data) : "t1", "memory"));
  printf("check %u %u %u %u\n", (unsigned)acc, (unsigned)n, (unsigned)s, (unsigned)data[8]);
  return 0;
}
"""


def _values(uart: str) -> dict[str, int]:
    return {m[0]: int(m[1]) for m in re.findall(r"^(\w+) (\d+)$", uart, re.M)}


@pytest.mark.rtl
def test_cycles_per_instruction_class(tmp_path):
    src = tmp_path / "cpi.c"
    src.write_text(CPI_C)
    elf = build_elf([src], "rv32", tmp_path / "cpi.elf")
    rtl = run_rtl(elf, "rv32", workdir=tmp_path)
    assert rtl.exited_ok, rtl.message
    v = _values(rtl.uart)
    assert "check 128 0 40 128" in rtl.uart, rtl.uart
    print(v)
    # Each figure includes one csrr (and the drain before it): a few cycles.
    assert v["alu"] <= 64 + 6, v  # dependent ALU ops: 1 cycle each
    assert v["loop"] <= 2 * 64 + 8, v  # addi + taken bnez into cached code: 2 cycles
    assert v["loads"] <= 32 * 3 // 2 + 8, v  # independent loads overlap the memory latency
    assert v["stores"] <= 32 * 3 // 2 + 8, v  # stores do not wait for their response
    assert v["loaduse"] >= 8 * 5, v  # a load used at once still pays the latency (4)


SMC_C = r"""
#include <stdio.h>
#include <stdint.h>
__attribute__((noinline, aligned(16))) int patched(void) {
  int r;
  __asm__ volatile("li %0, 1" : "=r"(r));
  return r;
}
int main(void) {
  int before = patched(), sum = 0;
  volatile uint32_t *code = (volatile uint32_t *)(uintptr_t)&patched;
  for (int k = 2; k < 6; ++k) {
    uint32_t i = 0;
    while ((code[i] & 0xfffu) != 0x513u) ++i;   /* the `addi a0, zero, imm` word */
    code[i] = ((uint32_t)k << 20) | 0x513u;
    __asm__ volatile("fence.i" ::: "memory");
    sum = sum * 10 + patched();
  }
  printf("smc %d %d\n", before, sum);
  return 0;
}
"""


@pytest.mark.rtl
def test_self_modifying_code_sees_the_new_words(tmp_path):
    """The instruction cache does not keep a word the program overwrote."""
    spike, rtl = run_c_on_spike_and_rtl(SMC_C, "rv32", tmp_path, "smc")
    assert spike.exited_ok and "smc 1 2345" in spike.uart, spike.uart
    assert rtl.exited_ok, rtl.message
    assert rtl.uart == spike.uart


ORDER_C = r"""
#include <riscv_vector.h>
#include <stdio.h>
#include <stdint.h>
static float a[64], b[64];
static uint32_t w[16];
int main(void) {
  uint32_t h = 0;
  for (int i = 0; i < 64; ++i) { a[i] = (float)i; b[i] = 0.5f * (float)(i + 1); }
  size_t vl = __riscv_vsetvl_e32m1(8);
  for (int r = 0; r < 8; ++r) {
    vfloat32m1_t x = __riscv_vle32_v_f32m1(a + 8 * r, vl);
    vfloat32m1_t y = __riscv_vle32_v_f32m1(b + 8 * r, vl);
    for (int k = 0; k < 6; ++k) y = __riscv_vfmacc_vv_f32m1(y, x, x, vl);   /* arithmetic in flight */
    float s = a[8 * r + 3];                 /* scalar load may pass the arithmetic */
    __riscv_vse32_v_f32m1(b + 8 * r, y, vl);
    float t = b[8 * r + 5];                 /* ... but not the older vector store */
    vuint32m1_t u = __riscv_vle32_v_u32m1(w, vl);
    w[2] = (uint32_t)r * 7u + 1u;            /* a store must not pass the older vector load */
    u = __riscv_vadd_vx_u32m1(u, (uint32_t)r, vl);
    __riscv_vse32_v_u32m1(w + 8, u, vl);
    w[1] = (uint32_t)(s + t);                /* a vector load below reads this store */
    vuint32m1_t z = __riscv_vle32_v_u32m1(w, vl);
    h = h * 31u + __riscv_vmv_x_s_u32m1_u32(__riscv_vredsum_vs_u32m1_u32m1(z, __riscv_vmv_s_x_u32m1(0, vl), vl));
    h = h * 31u + w[8 + (r & 7)] + (uint32_t)t;
  }
  printf("order %08x\n", (unsigned)h);
  return 0;
}
"""


@pytest.mark.rtl
def test_scalar_and_vector_memory_order_matches_spike(tmp_path):
    spike, rtl = run_c_on_spike_and_rtl(ORDER_C, "t1-small", tmp_path, "order")
    assert spike.exited_ok and "order " in spike.uart, spike.uart
    assert rtl.exited_ok, rtl.message
    assert rtl.uart == spike.uart
