/* dsa-cosim bare-metal runtime API (see baremetal/README.md).
 *
 * Machine mode, no OS. Output goes to the UART_TX register of the MMIO page,
 * exit() and main's return value to EXIT, profile_start/stop to PROFILE.
 * printf supports integers, strings, chars and pointers only: NO floating point
 * conversions (print floats as their bits, e.g. printf("%08x", bits)). */
#ifndef COSIM_H
#define COSIM_H

#include <stddef.h>
#include <stdint.h>

#include "cosim_mmio.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Ends the run: stores code to EXIT (0 or 0xdeadbeef = pass). */
void exit(int code) __attribute__((noreturn));

/* Spike counts retired instructions in batches and only brings minstret up to
 * date when a CSR instruction runs; reading minstret right before an MMIO store
 * makes the stamp Spike's plugin takes exact. Costs one instruction on RTL too. */
/* The counter CSRs: machine ones, or the user-level ones on a core with only those. */
#if COSIM_MACHINE_CSRS
#define COSIM_CSR_CYCLE "mcycle"
#define COSIM_CSR_CYCLEH "mcycleh"
#define COSIM_CSR_INSTRET "minstret"
#define COSIM_CSR_INSTRETH "minstreth"
#else
#define COSIM_CSR_CYCLE "cycle"
#define COSIM_CSR_CYCLEH "cycleh"
#define COSIM_CSR_INSTRET "instret"
#define COSIM_CSR_INSTRETH "instreth"
#endif

static inline void cosim_sync_instret(void) {
  unsigned long sink;
  __asm__ volatile("csrr %0, " COSIM_CSR_INSTRET : "=r"(sink));
  (void)sink;
}

/* PROFILE region markers; stamps are cycles on RTL, retired instructions on Spike. */
static inline void profile_start(uint32_t id) {
  cosim_sync_instret();
  *(volatile uint32_t *)COSIM_MMIO_PROFILE = (id << 1) | 1u;
}
static inline void profile_stop(uint32_t id) {
  cosim_sync_instret();
  *(volatile uint32_t *)COSIM_MMIO_PROFILE = id << 1;
}

/* 64-bit mcycle / minstret (on RV32 read with the hi/lo/hi loop). */
uint64_t read_cycle(void);
uint64_t read_instret(void);

/* Raw UART output of n bytes; fd must be 1 or 2. Returns n, or -1. */
long write(int fd, const void *buf, size_t n);

/* Moves the heap break (heap = DDR from __heap_start to its end).
 * Returns the old break, or (void *)-1 with errno = ENOMEM when out of memory. */
void *sbrk(intptr_t increment);

/* Heap bounds (linker script symbols), for tests and allocators. */
extern char __heap_start[], __heap_end[];

/* Trap report hook used by the start-up code (prints, then EXITs). */
void __cosim_trap_report(uintptr_t cause, uintptr_t epc, uintptr_t tval) __attribute__((noreturn));

/* Section attributes for data placed in SRAM (vector tensors) or DDR. */
#define COSIM_VDATA __attribute__((section(".vdata"), aligned(64)))
#define COSIM_VBSS __attribute__((section(".vbss"), aligned(64)))
#define COSIM_DDR __attribute__((section(".ddr"), aligned(64)))
#define COSIM_DDRBSS __attribute__((section(".ddrbss"), aligned(64)))
/* DDR that start-up does not clear (contents undefined, like malloc's). */
#define COSIM_DDRSCRATCH __attribute__((section(".ddrscratch"), aligned(64)))

#ifdef __cplusplus
}
#endif

#endif /* COSIM_H */
