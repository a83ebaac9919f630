/* Raw preload/compute in the weight-stationary dataflow against a CPU
 * reference: bias D from the scratchpad, the accumulate bit, reusing the
 * preloaded weights (compute_accumulated), the garbage address as "no write"
 * and as a zero operand, and results written to the scratchpad. */
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

static elem_t A[4][DIM][DIM] row_align(1);
static elem_t B[DIM][DIM] row_align(1);
static elem_t D[DIM][DIM] row_align(1);
static acc_t X[DIM][DIM] row_align_acc(1);
static acc_t out[8][DIM][DIM] row_align_acc(1);
static elem_t out8[DIM][DIM] row_align(1);

static void ref_mm(elem_t a[DIM][DIM], elem_t b[DIM][DIM], elem_t *d, acc_t *init, acc_t c[DIM][DIM]) {
  for (int i = 0; i < DIM; i++)
    for (int j = 0; j < DIM; j++) {
      int32_t s = init ? init[i * DIM + j] : 0;
      if (d) s += d[i * DIM + j];
      for (int k = 0; k < DIM; k++) s += (int32_t)a[i][k] * b[k][j];
      c[i][j] = s;
    }
}

int main(void) {
  gemmini_flush(0);
  for (int n = 0; n < 4; n++) ref_fill8(&A[n][0][0], DIM * DIM, -128, 127);
  ref_fill8(&B[0][0], DIM * DIM, -128, 127);
  ref_fill8(&D[0][0], DIM * DIM, -128, 127);
  ref_fill32(&X[0][0], DIM * DIM, -100000, 100000);

  const uint32_t A_sp = 0, B_sp = 4 * DIM, D_sp = 5 * DIM;
  gemmini_config_ld(DIM * sizeof(elem_t));
  for (int n = 0; n < 4; n++) gemmini_mvin(A[n], A_sp + n * DIM);
  gemmini_mvin(B, B_sp);
  gemmini_mvin(D, D_sp);
  gemmini_config_ld(DIM * sizeof(acc_t));
  gemmini_mvin(X, ACC_ADDR(2 * DIM));
  /* a known value where the garbage-addressed compute must not write */
  gemmini_mvin(X, ACC_ADDR(6 * DIM));

  gemmini_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0);

  /* C0 = A0 B */
  gemmini_preload(B_sp, ACC_ADDR(0));
  gemmini_compute_preloaded(A_sp, GARBAGE_ADDR);
  /* C1 = A1 B + D (D from the scratchpad) */
  gemmini_preload(B_sp, ACC_ADDR(DIM));
  gemmini_compute_preloaded(A_sp + DIM, D_sp);
  /* C2 = X + A2 B (accumulate bit) */
  gemmini_preload(B_sp, ACC_ADDR(2 * DIM) | ACC_ACCUMULATE);
  gemmini_compute_preloaded(A_sp + 2 * DIM, GARBAGE_ADDR);
  /* C3 = A3 B with the weights already in the array */
  gemmini_preload(GARBAGE_ADDR, ACC_ADDR(3 * DIM));
  gemmini_compute_accumulated(A_sp + 3 * DIM, GARBAGE_ADDR);
  /* garbage A: a zero operand, so C4 = D */
  gemmini_preload(B_sp, ACC_ADDR(4 * DIM));
  gemmini_compute_preloaded(GARBAGE_ADDR, D_sp);
  /* garbage C: computed, not written (row 6*DIM keeps X) */
  gemmini_preload(B_sp, GARBAGE_ADDR);
  gemmini_compute_preloaded(A_sp, GARBAGE_ADDR);
  /* C5 = A1 B + D accumulated onto C1's result computed above: 2 (A1 B + D) */
  gemmini_preload(B_sp, ACC_ADDR(DIM) | ACC_ACCUMULATE);
  gemmini_compute_preloaded(A_sp + DIM, D_sp);

  gemmini_config_st(DIM * sizeof(acc_t));
  for (int n = 0; n < 7; n++) gemmini_mvout(out[n], ACC_ADDR(n * DIM) | ACC_FULL);
  gemmini_fence();

  static acc_t want[DIM][DIM];
  ref_mm(A[0], B, NULL, NULL, want);
  ref_check32("WS C = A B", &out[0][0][0], &want[0][0], DIM * DIM);
  ref_mm(A[1], B, &D[0][0], NULL, want);
  for (int i = 0; i < DIM; i++)
    for (int j = 0; j < DIM; j++) want[i][j] *= 2;
  ref_check32("WS C = A B + D, then accumulated again", &out[1][0][0], &want[0][0], DIM * DIM);
  ref_mm(A[2], B, NULL, &X[0][0], want);
  ref_check32("WS accumulate bit (C += A B)", &out[2][0][0], &want[0][0], DIM * DIM);
  ref_mm(A[3], B, NULL, NULL, want);
  ref_check32("WS compute_accumulated reuses the preloaded weights", &out[3][0][0], &want[0][0], DIM * DIM);
  for (int i = 0; i < DIM; i++)
    for (int j = 0; j < DIM; j++) want[i][j] = D[i][j];
  ref_check32("WS garbage A is a zero operand", &out[4][0][0], &want[0][0], DIM * DIM);
  ref_check32("WS garbage C writes nothing", &out[6][0][0], &X[0][0], DIM * DIM);

  /* results straight into the scratchpad (small operands: no saturation) */
  {
    static elem_t a[DIM][DIM] row_align(1), b[DIM][DIM] row_align(1);
    ref_fill8(&a[0][0], DIM * DIM, -3, 3);
    ref_fill8(&b[0][0], DIM * DIM, -3, 3);
    gemmini_config_ld(DIM * sizeof(elem_t));
    gemmini_mvin(a, 10 * DIM);
    gemmini_mvin(b, 11 * DIM);
    gemmini_preload(11 * DIM, 12 * DIM);
    gemmini_compute_preloaded(10 * DIM, GARBAGE_ADDR);
    gemmini_config_st(DIM * sizeof(elem_t));
    gemmini_mvout(out8, 12 * DIM);
    gemmini_fence();
    static elem_t w8[DIM][DIM];
    ref_mm(a, b, NULL, NULL, want);
    for (int i = 0; i < DIM; i++)
      for (int j = 0; j < DIM; j++) w8[i][j] = ref_sat8(want[i][j]);
    ref_check8("WS C into the scratchpad", &out8[0][0], &w8[0][0], DIM * DIM);
  }
  return ref_result();
}
