/* Must trap: a mvin to the scratchpad row just past its end. */
#include <stdio.h>
#include <stdlib.h>
#include "include/gemmini.h"

static elem_t buf[DIM][DIM] row_align(1);

int main(void) {
  gemmini_config_ld(DIM * sizeof(elem_t));
  gemmini_mvin(buf, BANK_NUM * BANK_ROWS);
  gemmini_fence();
  printf("NOT TRAPPED: mvin past the scratchpad was accepted\n");
  return 3;
}
