/* Must trap: a mvin of DIM + 1 rows. */
#include <stdio.h>
#include <stdlib.h>
#include "include/gemmini.h"

static elem_t buf[DIM + 1][DIM] row_align(1);

int main(void) {
  gemmini_config_ld(DIM * sizeof(elem_t));
  gemmini_extended_mvin(buf, 0, DIM, DIM + 1);
  gemmini_fence();
  printf("NOT TRAPPED: mvin of DIM+1 rows was accepted\n");
  return 3;
}
