/* The performance-counter API (gemmini_counter.h): configure counters to
 * events, reset them, read them, and see counts change after work. */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "include/gemmini_testutils.h"
#include "include/gemmini_counter.h"
#include "ref.h"

#define TILES 6

static elem_t in[TILES][DIM][DIM] row_align(1);
static elem_t out[TILES][DIM][DIM] row_align(1);

int main(void) {
  gemmini_flush(0);
  counter_reset();
  counter_configure(0, RDMA_BYTES_REC);
  counter_configure(1, WDMA_BYTES_SENT);
  counter_configure(2, LOAD_ACTIVE_CYCLE);
  uint32_t r0 = counter_read(0), w0 = counter_read(1), l0 = counter_read(2);
  printf("after reset: rdma bytes %u wdma bytes %u load cycles %u\n", (unsigned)r0, (unsigned)w0, (unsigned)l0);
  ref_expect("counters read 0 after reset", r0 == 0 && w0 == 0 && l0 == 0);

  ref_fill8(&in[0][0][0], TILES * DIM * DIM, -128, 127);
  gemmini_config_ld(DIM * sizeof(elem_t));
  for (int n = 0; n < TILES; n++) gemmini_mvin(in[n], n * DIM);
  gemmini_fence();
  uint32_t r1 = counter_read(0), w1 = counter_read(1), l1 = counter_read(2);
  printf("after %d mvins: rdma bytes %u wdma bytes %u load cycles %u\n", TILES, (unsigned)r1, (unsigned)w1,
         (unsigned)l1);
  ref_expect("DMA read bytes count the mvins", r1 >= (uint32_t)(TILES * DIM * DIM));
  ref_expect("no DMA writes yet", w1 == 0);
  ref_expect("load-active cycles grew", l1 > l0);

  gemmini_config_st(DIM * sizeof(elem_t));
  for (int n = 0; n < TILES; n++) gemmini_mvout(out[n], n * DIM);
  gemmini_fence();
  uint32_t r2 = counter_read(0), w2 = counter_read(1);
  printf("after %d mvouts: rdma bytes %u wdma bytes %u\n", TILES, (unsigned)r2, (unsigned)w2);
  ref_expect("DMA write bytes count the mvouts", w2 >= (uint32_t)(TILES * DIM * DIM));
  ref_expect("mvouts add no DMA reads", r2 == r1);
  ref_check8("data moved while counting", &out[0][0][0], &in[0][0][0], TILES * DIM * DIM);

  counter_reset();
  uint32_t r3 = counter_read(0), w3 = counter_read(1);
  ref_expect("counter_reset clears the counts", r3 == 0 && w3 == 0);
  /* configured again after the reset, more work counts again */
  counter_configure(0, RDMA_BYTES_REC);
  gemmini_config_ld(DIM * sizeof(elem_t));
  gemmini_mvin(in[0], 0);
  gemmini_fence();
  uint32_t r4 = counter_read(0);
  printf("after reset and one mvin: rdma bytes %u\n", (unsigned)r4);
  ref_expect("counting resumes after reset", r4 >= (uint32_t)(DIM * DIM));
  return ref_result();
}
