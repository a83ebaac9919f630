/* A mvin whose DRAM address is outside every memory region: the run must trap
   (Gemmini would take an access fault in its TLB; we have no TLB). */
#include <stdio.h>
#include "include/gemmini.h"

int main(void) {
  gemmini_config_ld(DIM * sizeof(elem_t));
  gemmini_mvin((const elem_t *)0x08000000, 0); /* below SCALAR, not memory */
  gemmini_fence();
  printf("NOT TRAPPED\n");
  return 3;
}
