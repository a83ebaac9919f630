/* Partial and empty operands: computes with fewer than DIM rows or columns
 * (A rows, B cols, C rows) write only their part of C, a zero matrix leaves an
 * accumulated C unchanged, and zero rows of A give zero rows of C. */
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

static elem_t A[DIM][DIM] row_align(1);
static elem_t B[DIM][DIM] row_align(1);
static elem_t Z[DIM][DIM] row_align(1);
static acc_t X[DIM][DIM] row_align_acc(1);
static acc_t out[DIM][DIM] row_align_acc(1);

int main(void) {
  gemmini_flush(0);
  ref_fill8(&A[0][0], DIM * DIM, -128, 127);
  ref_fill8(&B[0][0], DIM * DIM, -128, 127);
  memset(Z, 0, sizeof(Z));
  for (int c = 0; c < DIM; c++) A[DIM / 2][c] = 0; /* a zero row of A */
  ref_fill32(&X[0][0], DIM * DIM, -100000, 100000);

  gemmini_config_ld(DIM * sizeof(elem_t));
  gemmini_mvin(A, 0);
  gemmini_mvin(B, DIM);
  gemmini_mvin(Z, 2 * DIM);
  gemmini_config_ld(DIM * sizeof(acc_t));
  gemmini_mvin(X, ACC_ADDR(0));
  gemmini_mvin(X, ACC_ADDR(DIM));
  gemmini_mvin(X, ACC_ADDR(2 * DIM));
  gemmini_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0);
  gemmini_config_st(DIM * sizeof(acc_t));

  /* rows x cols of C from a rows x K A and a K x cols B */
  const int rows = DIM > 1 ? DIM - 1 : 1, cols = DIM > 2 ? DIM - 2 : 1, K = DIM > 1 ? DIM - 1 : 1;
  gemmini_extended_preload(DIM, ACC_ADDR(0), cols, K, cols, rows);
  gemmini_extended_compute_preloaded(0, GARBAGE_ADDR, K, rows, DIM, DIM);
  gemmini_mvout(out, ACC_ADDR(0) | ACC_FULL);
  gemmini_fence();
  {
    static int32_t want[DIM][DIM];
    for (int i = 0; i < DIM; i++)
      for (int j = 0; j < DIM; j++) {
        if (i < rows && j < cols) {
          int32_t s = 0;
          for (int k = 0; k < K; k++) s += (int32_t)A[i][k] * B[k][j];
          want[i][j] = s;
        } else {
          want[i][j] = out[i][j]; /* only the rows x cols part is specified */
        }
      }
    ref_check32("partial compute (rows, cols, K < DIM)", &out[0][0], &want[0][0], DIM * DIM);
    int untouched = 1;
    for (int i = rows; i < DIM; i++)
      for (int j = 0; j < DIM; j++)
        if (out[i][j] != X[i][j]) untouched = 0;
    ref_expect("partial compute leaves the accumulator rows below C_rows", untouched);
  }

  /* C += 0 x B leaves C as it was */
  gemmini_preload(DIM, ACC_ADDR(DIM) | ACC_ACCUMULATE);
  gemmini_compute_preloaded(2 * DIM, GARBAGE_ADDR);
  gemmini_mvout(out, ACC_ADDR(DIM) | ACC_FULL);
  gemmini_fence();
  ref_check32("accumulating a zero product", &out[0][0], &X[0][0], DIM * DIM);

  /* A's zero row gives a zero row of C (and the others the plain product) */
  gemmini_preload(DIM, ACC_ADDR(2 * DIM));
  gemmini_compute_preloaded(0, GARBAGE_ADDR);
  gemmini_mvout(out, ACC_ADDR(2 * DIM) | ACC_FULL);
  gemmini_fence();
  {
    static int32_t want[DIM][DIM];
    for (int i = 0; i < DIM; i++)
      for (int j = 0; j < DIM; j++) {
        int32_t s = 0;
        for (int k = 0; k < DIM; k++) s += (int32_t)A[i][k] * B[k][j];
        want[i][j] = s;
      }
    ref_check32("zero row of A", &out[0][0], &want[0][0], DIM * DIM);
  }

  /* a mvin of zero rows moves nothing */
  {
    static elem_t junk[DIM][DIM] row_align(1), back[DIM][DIM] row_align(1);
    ref_fill8(&junk[0][0], DIM * DIM, -128, 127);
    gemmini_config_ld(DIM * sizeof(elem_t));
    gemmini_extended_mvin(junk, DIM, DIM, 0);
    gemmini_config_st(DIM * sizeof(elem_t));
    gemmini_mvout(back, DIM);
    gemmini_fence();
    ref_check8("mvin of zero rows moves nothing", &back[0][0], &B[0][0], DIM * DIM);
  }
  return ref_result();
}
