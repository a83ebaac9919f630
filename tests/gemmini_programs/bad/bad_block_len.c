/* Must trap: a block mvin one DIM-wide block wider than MAX_BLOCK_LEN. */
#include <stdio.h>
#include <stdlib.h>
#include "include/gemmini.h"

static elem_t buf[DIM][(MAX_BLOCK_LEN + 1) * DIM] row_align(1);

int main(void) {
  gemmini_config_ld((MAX_BLOCK_LEN + 1) * DIM * sizeof(elem_t));
  gemmini_extended_mvin(buf, 0, (MAX_BLOCK_LEN + 1) * DIM, DIM);
  gemmini_fence();
  printf("NOT TRAPPED: block mvin wider than MAX_BLOCK_LEN was accepted\n");
  return 3;
}
