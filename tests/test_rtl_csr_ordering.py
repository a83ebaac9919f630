"""CSRs that coprocessor completions update (fflags, vxsat, vl) are read in program
order: a `frflags` right after a vector divide sees its DZ flag, on RTL as on Spike."""

import pytest
from rtl_support import run_c_on_spike_and_rtl

PROGRAM = r"""
#include <riscv_vector.h>
#include <stdio.h>
static float num[8] = {1, 2, 3, 4, 5, 6, 7, 8}, den[8] = {0, 1, 0, 1, 0, 1, 0, 1};
static float quo[8];
int main(void) {
  unsigned f;
  size_t vl = __riscv_vsetvl_e32m1(8);
  __asm__ volatile("fsflags zero");
  vfloat32m1_t q = __riscv_vfdiv_vv_f32m1(__riscv_vle32_v_f32m1(num, vl), __riscv_vle32_v_f32m1(den, vl), vl);
  __asm__ volatile("frflags %0" : "=r"(f)::"memory");   /* no fence: the core must wait */
  __riscv_vse32_v_f32m1(quo, q, vl);
  printf("fflags %x q1 %d\n", f, (int)quo[1]);
  return 0;
}
"""


@pytest.mark.rtl
def test_flag_reads_wait_for_vector_completions(tmp_path):
    spike, rtl = run_c_on_spike_and_rtl(PROGRAM, "t1-small", tmp_path, "flags")
    assert spike.exited_ok and "fflags 8 q1 2" in spike.uart, spike.uart  # DZ from the divides by zero
    assert rtl.exited_ok, rtl.message
    assert rtl.uart == spike.uart
