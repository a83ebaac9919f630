/* Raw preload/compute in the output-stationary dataflow against a CPU
 * reference: D preloaded from the scratchpad, preload of zeros, accumulating
 * across computes in the array (compute_accumulated), the accumulate bit on an
 * accumulator C, results into the scratchpad with the rounding shift
 * (ties to even) and with ReLU. */
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

static elem_t A[3][DIM][DIM] row_align(1);
static elem_t B[3][DIM][DIM] row_align(1);
static elem_t D[DIM][DIM] row_align(1);
static acc_t X[DIM][DIM] row_align_acc(1);
static acc_t out[4][DIM][DIM] row_align_acc(1);
static elem_t out8[2][DIM][DIM] row_align(1);

/* c = init + d + sum over n of a[n] b[n] */
static void ref_mm(int n, elem_t a[][DIM][DIM], elem_t b[][DIM][DIM], elem_t *d, acc_t *init, int32_t c[DIM][DIM]) {
  for (int i = 0; i < DIM; i++)
    for (int j = 0; j < DIM; j++) {
      int32_t s = init ? init[i * DIM + j] : 0;
      if (d) s += d[i * DIM + j];
      for (int m = 0; m < n; m++)
        for (int k = 0; k < DIM; k++) s += (int32_t)a[m][i][k] * b[m][k][j];
      c[i][j] = s;
    }
}

int main(void) {
  gemmini_flush(0);
  for (int n = 0; n < 3; n++) {
    ref_fill8(&A[n][0][0], DIM * DIM, -8, 7);
    ref_fill8(&B[n][0][0], DIM * DIM, -8, 7);
  }
  ref_fill8(&D[0][0], DIM * DIM, -50, 50);
  ref_fill32(&X[0][0], DIM * DIM, -100000, 100000);

  const uint32_t A_sp = 0, B_sp = 3 * DIM, D_sp = 6 * DIM;
  gemmini_config_ld(DIM * sizeof(elem_t));
  for (int n = 0; n < 3; n++) {
    gemmini_mvin(A[n], A_sp + n * DIM);
    gemmini_mvin(B[n], B_sp + n * DIM);
  }
  gemmini_mvin(D, D_sp);
  gemmini_config_ld(DIM * sizeof(acc_t));
  gemmini_mvin(X, ACC_ADDR(3 * DIM));

  gemmini_config_ex(OUTPUT_STATIONARY, NO_ACTIVATION, 0);

  /* C0 = A0 B0 + D */
  gemmini_preload(D_sp, ACC_ADDR(0));
  gemmini_compute_preloaded(A_sp, B_sp);
  /* C1 = A0 B0 + A1 B1 + A2 B2, accumulated in the array; only the last compute writes */
  gemmini_preload_zeros(GARBAGE_ADDR);
  gemmini_compute_preloaded(A_sp, B_sp);
  gemmini_preload_zeros(GARBAGE_ADDR);
  gemmini_compute_accumulated(A_sp + DIM, B_sp + DIM);
  gemmini_preload_zeros(ACC_ADDR(DIM));
  gemmini_compute_accumulated(A_sp + 2 * DIM, B_sp + 2 * DIM);
  /* C3 = X + A1 B1 (accumulate bit) */
  gemmini_preload_zeros(ACC_ADDR(3 * DIM) | ACC_ACCUMULATE);
  gemmini_compute_preloaded(A_sp + DIM, B_sp + DIM);

  gemmini_config_st(DIM * sizeof(acc_t));
  gemmini_mvout(out[0], ACC_ADDR(0) | ACC_FULL);
  gemmini_mvout(out[1], ACC_ADDR(DIM) | ACC_FULL);
  gemmini_mvout(out[3], ACC_ADDR(3 * DIM) | ACC_FULL);
  gemmini_fence();

  static int32_t want[DIM][DIM];
  ref_mm(1, A, B, &D[0][0], NULL, want);
  ref_check32("OS C = A B + D (D preloaded)", &out[0][0][0], &want[0][0], DIM * DIM);
  ref_mm(3, A, B, NULL, NULL, want);
  ref_check32("OS compute_accumulated keeps summing in the array", &out[1][0][0], &want[0][0], DIM * DIM);
  ref_mm(1, &A[1], &B[1], NULL, &X[0][0], want);
  ref_check32("OS accumulate bit on an accumulator C", &out[3][0][0], &want[0][0], DIM * DIM);

  /* into the scratchpad with a rounding right shift of 2 (ties to even) */
  const int shift = 2;
  gemmini_config_ex(OUTPUT_STATIONARY, NO_ACTIVATION, shift);
  gemmini_preload(D_sp, 20 * DIM);
  gemmini_compute_preloaded(A_sp, B_sp);
  /* and with ReLU */
  gemmini_config_ex(OUTPUT_STATIONARY, RELU, 0);
  gemmini_preload(D_sp, 21 * DIM);
  gemmini_compute_preloaded(A_sp + 2 * DIM, B_sp + 2 * DIM);
  gemmini_config_st(DIM * sizeof(elem_t));
  gemmini_mvout(out8[0], 20 * DIM);
  gemmini_mvout(out8[1], 21 * DIM);
  gemmini_fence();

  static elem_t w8[DIM][DIM];
  ref_mm(1, A, B, &D[0][0], NULL, want);
  int ties = 0;
  for (int i = 0; i < DIM; i++)
    for (int j = 0; j < DIM; j++) {
      if ((want[i][j] & 3) == 2) ties++;
      w8[i][j] = ref_sat8(ref_shift_rne(want[i][j], shift));
    }
  printf("shift test has %d ties\n", ties);
  ref_check8("OS C into the scratchpad, rounding shift 2", &out8[0][0][0], &w8[0][0], DIM * DIM);
  ref_mm(1, &A[2], &B[2], &D[0][0], NULL, want);
  for (int i = 0; i < DIM; i++)
    for (int j = 0; j < DIM; j++) w8[i][j] = ref_sat8(want[i][j] < 0 ? 0 : want[i][j]);
  ref_check8("OS C into the scratchpad with ReLU", &out8[1][0][0], &w8[0][0], DIM * DIM);
  return ref_result();
}
