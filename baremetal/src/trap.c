/* Trap report: one UART line, then EXIT with COSIM_EXIT_TRAP.
 * The start-up code has already stored mcause/mepc/mtval to the TRAP registers. */
#include <stdint.h>
#include <stdio.h>

#include "cosim.h"

static const char *cause_name(uintptr_t cause) {
  static const char *const names[] = {
      "instruction address misaligned", "instruction access fault", "illegal instruction",
      "breakpoint",                     "load address misaligned",  "load access fault",
      "store address misaligned",       "store access fault",       "environment call from U-mode",
      "environment call from S-mode",   "reserved",                 "environment call from M-mode",
      "instruction page fault",         "load page fault",          "reserved",
      "store page fault",
  };
  uintptr_t interrupt = (uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1);
  if (cause & interrupt) return "interrupt";
  return cause < sizeof(names) / sizeof(names[0]) ? names[cause] : "unknown";
}

void __cosim_trap_report(uintptr_t cause, uintptr_t epc, uintptr_t tval) {
  printf("\n*** trap: mcause=0x%lx (%s) mepc=0x%lx mtval=0x%lx\n", (unsigned long)cause,
         cause_name(cause), (unsigned long)epc, (unsigned long)tval);
  cosim_sync_instret();
  *(volatile uint32_t *)COSIM_MMIO_EXIT = COSIM_EXIT_TRAP;
  for (;;) __asm__ volatile("wfi");
}
