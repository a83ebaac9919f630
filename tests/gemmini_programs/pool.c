/* Max pooling on mvout (config_st's pool fields): an orows x ocols image of
 * DIM channels in the accumulator (one pixel a row) pooled on its way to DRAM,
 * window 2 stride 2 and window 3 stride 1, with the mvout scale and ReLU. */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "include/gemmini.h"
#include "ref.h"

#define ACC_ADDR(row) ((uint32_t)(1u << 31) | (uint32_t)(row))
#define OROWS 4
#define OCOLS 6
#define SENTINEL 0x33

static acc_t img[OROWS * OCOLS][DIM] row_align_acc(1);
static elem_t pooled[OROWS * OCOLS][DIM] row_align(1);

/* rows: Gemmini's library issues pooled mvouts with rows = 0 (config_st gives the extent); rows = DIM too. */
static void check_pool(int size, int stride, float scale, int act, int rows, const char *what) {
  const int porows = (OROWS - size) / stride + 1, pocols = (OCOLS - size) / stride + 1;
  memset(pooled, SENTINEL, sizeof(pooled));
  gemmini_extended2_config_st(DIM * sizeof(elem_t), act, scale, stride, size, pocols, porows, pocols, OROWS, OCOLS, 0, 0);
  gemmini_extended_mvout(pooled, ACC_ADDR(2 * DIM), DIM, rows);
  gemmini_fence();
  static elem_t want[OROWS * OCOLS][DIM];
  memset(want, SENTINEL, sizeof(want));
  for (int pr = 0; pr < porows; pr++)
    for (int pc = 0; pc < pocols; pc++)
      for (int ch = 0; ch < DIM; ch++) {
        int best = -1000;
        for (int wr = 0; wr < size; wr++)
          for (int wc = 0; wc < size; wc++) {
            int r = pr * stride + wr, c = pc * stride + wc;
            int v = ref_acc_to_elem(img[r * OCOLS + c][ch], scale, act == RELU);
            if (v > best) best = v;
          }
        want[pr * pocols + pc][ch] = (elem_t)best;
      }
  ref_check8(what, &pooled[0][0], &want[0][0], OROWS * OCOLS * DIM);
}

int main(void) {
  gemmini_flush(0);
  ref_fill32(&img[0][0], OROWS * OCOLS * DIM, -300, 300);
  gemmini_config_ld(DIM * sizeof(acc_t));
  for (int p = 0; p < OROWS * OCOLS; p += DIM) {
    int rows = OROWS * OCOLS - p < DIM ? OROWS * OCOLS - p : DIM;
    gemmini_extended_mvin(img[p], ACC_ADDR(2 * DIM + p), DIM, rows);
  }
  check_pool(2, 2, ACC_SCALE_IDENTITY, NO_ACTIVATION, DIM, "max pool 2x2 stride 2 (mvout rows DIM)");
  check_pool(3, 1, ACC_SCALE_IDENTITY, NO_ACTIVATION, DIM, "max pool 3x3 stride 1 (mvout rows DIM)");
  check_pool(2, 2, 0.5f, RELU, DIM, "max pool 2x2 stride 2, scale 0.5, ReLU (mvout rows DIM)");
  check_pool(2, 2, ACC_SCALE_IDENTITY, NO_ACTIVATION, 0, "max pool 2x2 stride 2 (mvout rows 0, as Gemmini's library)");
  check_pool(3, 1, 0.25f, NO_ACTIVATION, 0, "max pool 3x3 stride 1, scale 0.25 (mvout rows 0)");
  /* pooling off again: a plain mvout still works */
  gemmini_config_st(DIM * sizeof(elem_t));
  static elem_t plain[DIM][DIM] row_align(1);
  gemmini_mvout(plain, ACC_ADDR(2 * DIM));
  gemmini_fence();
  static elem_t want[DIM][DIM];
  for (int r = 0; r < DIM; r++)
    for (int c = 0; c < DIM; c++) want[r][c] = ref_acc_to_elem(img[r][c], 1.0f, 0);
  ref_check8("plain mvout after pooling", &plain[0][0], &want[0][0], DIM * DIM);
  return ref_result();
}
