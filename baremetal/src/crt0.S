/* Start-up and trap entry for RV32 and RV64, machine mode only.
 *
 * _start: gp, sp (top of SCALAR), mtvec, mstatus.FS (and .VS with a vector unit),
 * every f register written (so Spike and RTL agree on NaN-boxed zeros), fcsr,
 * (mtvec and mstatus only with COSIM_MACHINE_CSRS, the f registers and fcsr only
 * with hard float: a core with neither runs the same start-up without them),
 * .bss and .vbss cleared, main(0, 0), exit(main's return value).
 *
 * __cosim_trap_entry: stores mcause/mepc/mtval to the MMIO TRAP registers, then
 * prints a report line (C, on a fresh stack) and EXITs with COSIM_EXIT_TRAP. */
#include "cosim_mmio.h"

#if __riscv_xlen == 64
#define REG_S sd
#define REG_L ld
#define REG_BYTES 8
#else
#define REG_S sw
#define REG_L lw
#define REG_BYTES 4
#endif

/* Address of a symbol anywhere in the 64-bit space. On RV64 `la` (auipc, +-2 GiB)
 * cannot reach SRAM at 0xC000_0000 from SCALAR, so load it from a literal. */
.macro LA_FAR reg, sym
#if __riscv_xlen == 64
  .pushsection .rodata.cosim_literals, "a"
  .balign 8
.Lcosim_lit\@:
  .dword \sym
  .popsection
  ld \reg, .Lcosim_lit\@
#else
  la \reg, \sym
#endif
.endm

  .section .text.start, "ax"
  .globl _start
  .type _start, @function
_start:
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
  la sp, __stack_top
#if COSIM_MACHINE_CSRS
  la t0, __cosim_trap_entry
  csrw mtvec, t0

#if COSIM_HAS_VECTOR
  li t0, (1 << 13) | (1 << 9)   /* mstatus.FS = Initial, mstatus.VS = Initial */
#else
  li t0, (1 << 13)              /* mstatus.FS = Initial */
#endif
  csrs mstatus, t0
#endif

#ifdef __riscv_flen
  fmv.w.x f0, zero
  fmv.w.x f1, zero
  fmv.w.x f2, zero
  fmv.w.x f3, zero
  fmv.w.x f4, zero
  fmv.w.x f5, zero
  fmv.w.x f6, zero
  fmv.w.x f7, zero
  fmv.w.x f8, zero
  fmv.w.x f9, zero
  fmv.w.x f10, zero
  fmv.w.x f11, zero
  fmv.w.x f12, zero
  fmv.w.x f13, zero
  fmv.w.x f14, zero
  fmv.w.x f15, zero
  fmv.w.x f16, zero
  fmv.w.x f17, zero
  fmv.w.x f18, zero
  fmv.w.x f19, zero
  fmv.w.x f20, zero
  fmv.w.x f21, zero
  fmv.w.x f22, zero
  fmv.w.x f23, zero
  fmv.w.x f24, zero
  fmv.w.x f25, zero
  fmv.w.x f26, zero
  fmv.w.x f27, zero
  fmv.w.x f28, zero
  fmv.w.x f29, zero
  fmv.w.x f30, zero
  fmv.w.x f31, zero
  csrw fcsr, zero
#endif

  /* Zero .bss and .vbss: both are 16-byte aligned and padded, so word stores suffice. */
  la t0, __bss_start
  la t1, __bss_end
1:
  bgeu t0, t1, 2f
  REG_S zero, 0(t0)
  addi t0, t0, REG_BYTES
  j 1b
2:
  LA_FAR t0, __vbss_start
  LA_FAR t1, __vbss_end
3:
  bgeu t0, t1, 4f
  REG_S zero, 0(t0)
  addi t0, t0, REG_BYTES
  j 3b
4:
  la t0, __ddrbss_start
  la t1, __ddrbss_end
5:
  bgeu t0, t1, 6f
  REG_S zero, 0(t0)
  addi t0, t0, REG_BYTES
  j 5b
6:
  li a0, 0
  li a1, 0
  call main
  call exit
  .size _start, . - _start

  /* mtvec in direct mode needs a 4-byte aligned base. */
  .section .text.trap, "ax"
  .balign 4
  .globl __cosim_trap_entry
  .type __cosim_trap_entry, @function
__cosim_trap_entry:
#if COSIM_MACHINE_CSRS
  csrr a0, mcause
  csrr a1, mepc
  csrr a2, mtval
#else
  /* Never installed without machine CSRs (no mtvec); kept so the symbol exists. */
  li a0, 0
  li a1, 0
  li a2, 0
#endif
  li t0, COSIM_MMIO_TRAP_CAUSE
  sw a0, 0(t0)
  li t0, COSIM_MMIO_TRAP_EPC
  REG_S a1, 0(t0)
  li t0, COSIM_MMIO_TRAP_TVAL
  REG_S a2, 0(t0)
  /* A trap inside the report itself: skip the report and exit at once. */
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
  la t0, __cosim_in_trap
  lw t1, 0(t0)
  bnez t1, 1f
  li t1, 1
  sw t1, 0(t0)
  la sp, __stack_top
  call __cosim_trap_report       /* prints one line, then EXITs; never returns */
1:
  li t0, COSIM_MMIO_EXIT
  li t1, COSIM_EXIT_TRAP
  sw t1, 0(t0)
2:
  wfi
  j 2b
  .size __cosim_trap_entry, . - __cosim_trap_entry

  .section .sbss, "aw", @nobits
  .balign 4
  .globl __cosim_in_trap
__cosim_in_trap:
  .zero 4
