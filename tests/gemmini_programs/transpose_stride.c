/* config_ex fields on raw computes (weight-stationary): A transpose, B
 * transpose, the A stride (scratchpad rows between A's rows) and the C stride
 * (accumulator rows between C's rows; 0 folds every row onto one). */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "include/gemmini.h"
#include "ref.h"

#define ACC_ADDR(row) ((uint32_t)(1u << 31) | (uint32_t)(row))
#define ACC_ACCUMULATE (1u << 30)
#define ACC_FULL (1u << 29)

static elem_t SA[DIM][DIM] row_align(1); /* stored A */
static elem_t SB[DIM][DIM] row_align(1); /* stored B */
static elem_t M[2 * DIM][DIM] row_align(1); /* A's rows interleaved with junk */
static acc_t X[2 * DIM][DIM] row_align_acc(1);
static acc_t out[2 * DIM][DIM] row_align_acc(1);

/* c = op(a) op(b) with op the transpose when ta / tb */
static void ref_mm(int ta, int tb, int32_t c[DIM][DIM]) {
  for (int i = 0; i < DIM; i++)
    for (int j = 0; j < DIM; j++) {
      int32_t s = 0;
      for (int k = 0; k < DIM; k++) {
        int a = ta ? SA[k][i] : SA[i][k];
        int b = tb ? SB[j][k] : SB[k][j];
        s += a * b;
      }
      c[i][j] = s;
    }
}

static void run_transpose(int ta, int tb, const char *what) {
  gemmini_extended_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0, 1, ta, tb);
  gemmini_preload(DIM, ACC_ADDR(0));
  gemmini_compute_preloaded(0, GARBAGE_ADDR);
  gemmini_config_st(DIM * sizeof(acc_t));
  gemmini_mvout(out, ACC_ADDR(0) | ACC_FULL);
  gemmini_fence();
  static int32_t want[DIM][DIM];
  ref_mm(ta, tb, want);
  ref_check32(what, &out[0][0], &want[0][0], DIM * DIM);
}

int main(void) {
  gemmini_flush(0);
  ref_fill8(&SA[0][0], DIM * DIM, -128, 127);
  ref_fill8(&SB[0][0], DIM * DIM, -128, 127);
  gemmini_config_ld(DIM * sizeof(elem_t));
  gemmini_mvin(SA, 0);
  gemmini_mvin(SB, DIM);

  run_transpose(0, 0, "WS no transpose");
  run_transpose(1, 0, "WS A transpose");
  run_transpose(0, 1, "WS B transpose");

  /* A stride 2: A's row i sits at scratchpad row base + 2 i */
  for (int r = 0; r < 2 * DIM; r++)
    for (int c = 0; c < DIM; c++) M[r][c] = (r % 2 == 0) ? SA[r / 2][c] : (elem_t)ref_range(-128, 127);
  const uint32_t base = 4 * DIM;
  gemmini_config_ld(DIM * sizeof(elem_t));
  gemmini_mvin(M[0], base);
  gemmini_mvin(M[DIM], base + DIM);
  gemmini_extended_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0, 2, 0, 0);
  gemmini_preload(DIM, ACC_ADDR(0));
  gemmini_compute_preloaded(base, GARBAGE_ADDR);
  gemmini_config_st(DIM * sizeof(acc_t));
  gemmini_mvout(out, ACC_ADDR(0) | ACC_FULL);
  gemmini_fence();
  {
    static int32_t want[DIM][DIM];
    ref_mm(0, 0, want);
    ref_check32("WS A stride 2", &out[0][0], &want[0][0], DIM * DIM);
  }

  /* C stride 2: C's row i lands at accumulator row 2 i; odd rows keep X */
  ref_fill32(&X[0][0], 2 * DIM * DIM, -1000, 1000);
  gemmini_config_ld(DIM * sizeof(acc_t));
  gemmini_mvin(X[0], ACC_ADDR(8 * DIM));
  gemmini_mvin(X[DIM], ACC_ADDR(9 * DIM));
  gemmini_extended3_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0, ACC_SCALE_IDENTITY, 2, 1, false, false, false);
  gemmini_preload(DIM, ACC_ADDR(8 * DIM));
  gemmini_compute_preloaded(0, GARBAGE_ADDR);
  gemmini_config_st(DIM * sizeof(acc_t));
  gemmini_mvout(out[0], ACC_ADDR(8 * DIM) | ACC_FULL);
  gemmini_mvout(out[DIM], ACC_ADDR(9 * DIM) | ACC_FULL);
  gemmini_fence();
  {
    static int32_t want[DIM][DIM], want2[2 * DIM][DIM];
    ref_mm(0, 0, want);
    for (int r = 0; r < 2 * DIM; r++)
      for (int c = 0; c < DIM; c++) want2[r][c] = (r % 2 == 0) ? want[r / 2][c] : X[r][c];
    ref_check32("WS C stride 2", &out[0][0], &want2[0][0], 2 * DIM * DIM);
  }

  /* C stride 0 with the accumulate bit: every row of A B adds onto one accumulator row */
  {
    static acc_t zero[DIM][DIM] row_align_acc(1);
    memset(zero, 0, sizeof(zero));
    gemmini_config_ld(DIM * sizeof(acc_t));
    gemmini_mvin(zero, ACC_ADDR(12 * DIM));
    gemmini_extended3_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0, ACC_SCALE_IDENTITY, 0, 1, false, false, false);
    gemmini_preload(DIM, ACC_ADDR(12 * DIM) | ACC_ACCUMULATE);
    gemmini_compute_preloaded(0, GARBAGE_ADDR);
    gemmini_config_st(DIM * sizeof(acc_t));
    gemmini_mvout(out, ACC_ADDR(12 * DIM) | ACC_FULL);
    gemmini_fence();
    static int32_t want[DIM][DIM], want2[DIM][DIM];
    ref_mm(0, 0, want);
    memset(want2, 0, sizeof(want2));
    for (int r = 0; r < DIM; r++)
      for (int c = 0; c < DIM; c++) want2[0][c] += want[r][c];
    ref_check32("WS C stride 0 + accumulate sums all rows into one", &out[0][0], &want2[0][0], DIM * DIM);
  }
  /* back to the defaults */
  gemmini_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0);
  return ref_result();
}
