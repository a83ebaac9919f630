/* The model's answer reaches rd (a counter read through the counter instruction),
   and three mvins and one mvout are counted per funct. */
#include <stdio.h>
#include "include/gemmini.h"
#include "include/gemmini_counter.h"

static elem_t in[DIM][DIM] row_align(1);
static elem_t out[DIM][DIM] row_align(1);

int main(void) {
  for (int i = 0; i < DIM; i++)
    for (int j = 0; j < DIM; j++) in[i][j] = (elem_t)(i * DIM + j - 7);
  counter_reset();
  counter_configure(0, RDMA_BYTES_REC);
  gemmini_config_ld(DIM * sizeof(elem_t));
  gemmini_config_st(DIM * sizeof(elem_t));
  for (int r = 0; r < 3; r++) gemmini_mvin(in, r * DIM);
  gemmini_mvout(out, 2 * DIM);
  gemmini_fence();
  for (int i = 0; i < DIM; i++)
    for (int j = 0; j < DIM; j++)
      if (out[i][j] != in[i][j]) {
        printf("MISMATCH at %d %d: %d != %d\n", i, j, out[i][j], in[i][j]);
        return 1;
      }
  printf("read bytes %u\n", (unsigned)counter_read(0));
  return 0;
}
