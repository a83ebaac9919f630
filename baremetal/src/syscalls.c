/* System interface over the MMIO page: exit, write, sbrk, cycle counters. */
#include <errno.h>
#include <stdint.h>

#include "cosim.h"

int errno;

void exit(int code) {
  cosim_sync_instret(); /* exact instret at EXIT on Spike */
  *(volatile uint32_t *)COSIM_MMIO_EXIT = (uint32_t)code;
  /* The store ends the run; wfi makes Spike stop its instruction batch at once. */
  for (;;) __asm__ volatile("wfi");
}

void abort(void) { exit(134); }

long write(int fd, const void *buf, size_t n) {
  if (fd != 1 && fd != 2) {
    errno = EBADF;
    return -1;
  }
  const unsigned char *p = (const unsigned char *)buf;
  for (size_t i = 0; i < n; i++) *(volatile uint8_t *)COSIM_MMIO_UART_TX = p[i];
  return (long)n;
}

static char *heap_brk;

void *sbrk(intptr_t increment) {
  if (heap_brk == 0) heap_brk = __heap_start;
  char *old = heap_brk;
  /* Compare as sizes so a huge increment cannot wrap around the address space. */
  /* The heap ends with DDR; a constant, since on RV64 DDR's end is beyond auipc reach. */
  char *const heap_end = (char *)((uintptr_t)COSIM_DDR_BASE + (uintptr_t)COSIM_DDR_SIZE);
  if (increment > 0 && (uintptr_t)increment > (uintptr_t)(heap_end - old)) {
    errno = ENOMEM;
    return (void *)-1;
  }
  if (increment < 0 && (uintptr_t)(-increment) > (uintptr_t)(old - __heap_start)) {
    errno = EINVAL;
    return (void *)-1;
  }
  heap_brk = old + increment;
  return old;
}

#if __riscv_xlen == 32
/* Read a 64-bit counter as hi/lo/hi, retrying if the low half wrapped in between. */
#define READ_CSR64(lo_name, hi_name)                                  \
  do {                                                                \
    uint32_t hi, lo, hi2;                                             \
    do {                                                              \
      __asm__ volatile("csrr %0, " hi_name : "=r"(hi));               \
      __asm__ volatile("csrr %0, " lo_name : "=r"(lo));               \
      __asm__ volatile("csrr %0, " hi_name : "=r"(hi2));              \
    } while (hi != hi2);                                              \
    return ((uint64_t)hi << 32) | lo;                                 \
  } while (0)
uint64_t read_cycle(void) { READ_CSR64(COSIM_CSR_CYCLE, COSIM_CSR_CYCLEH); }
uint64_t read_instret(void) { READ_CSR64(COSIM_CSR_INSTRET, COSIM_CSR_INSTRETH); }
#else
uint64_t read_cycle(void) {
  uint64_t v;
  __asm__ volatile("csrr %0, " COSIM_CSR_CYCLE : "=r"(v));
  return v;
}
uint64_t read_instret(void) {
  uint64_t v;
  __asm__ volatile("csrr %0, " COSIM_CSR_INSTRET : "=r"(v));
  return v;
}
#endif
