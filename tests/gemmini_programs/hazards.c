/* Ordering between Gemmini's own loads, computes and stores with no fence in
 * between (Gemmini tracks these hazards itself): mvout right after the compute
 * that writes its rows, a compute right after the mvin of its operands, a mvin
 * over operand rows right after the compute that read them, and mvout right
 * after mvin. One fence at the end. */
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
#define ROUNDS 6

static elem_t A[ROUNDS][DIM][DIM] row_align(1);
static elem_t B[ROUNDS][DIM][DIM] row_align(1);
static acc_t bias[ROUNDS][DIM][DIM] row_align_acc(1);
static acc_t C[ROUNDS][DIM][DIM] row_align_acc(1);
static acc_t Cacc[ROUNDS][DIM][DIM] row_align_acc(1);
static elem_t echo[ROUNDS][DIM][DIM] row_align(1);

int main(void) {
  gemmini_flush(0);
  for (int n = 0; n < ROUNDS; n++) {
    ref_fill8(&A[n][0][0], DIM * DIM, -128, 127);
    ref_fill8(&B[n][0][0], DIM * DIM, -128, 127);
    ref_fill32(&bias[n][0][0], DIM * DIM, -5000, 5000);
  }
  gemmini_config_ex(WEIGHT_STATIONARY, NO_ACTIVATION, 0);
  for (int n = 0; n < ROUNDS; n++) {
    /* the same scratchpad rows and accumulator rows every round */
    gemmini_config_ld(DIM * sizeof(elem_t));
    gemmini_mvin(A[n], 0);
    gemmini_mvin(B[n], DIM);
    gemmini_config_st(DIM * sizeof(elem_t));
    gemmini_mvout(echo[n], 0); /* mvout right after mvin */
    gemmini_preload(DIM, ACC_ADDR(0)); /* compute right after the mvin of A and B */
    gemmini_compute_preloaded(0, GARBAGE_ADDR);
    gemmini_config_st(DIM * sizeof(acc_t));
    gemmini_mvout(C[n], ACC_ADDR(0) | ACC_FULL); /* mvout right after compute */
    /* bias into the accumulator, accumulate onto it, read it back */
    gemmini_config_ld(DIM * sizeof(acc_t));
    gemmini_mvin(bias[n], ACC_ADDR(DIM));
    gemmini_preload(DIM, ACC_ADDR(DIM) | ACC_ACCUMULATE);
    gemmini_compute_preloaded(0, GARBAGE_ADDR);
    gemmini_mvout(Cacc[n], ACC_ADDR(DIM) | ACC_FULL);
    /* the next round's mvin overwrites rows 0..2DIM right after these computes read them */
  }
  gemmini_fence();

  for (int n = 0; n < ROUNDS; n++) {
    static int32_t want[DIM][DIM], want_acc[DIM][DIM];
    for (int i = 0; i < DIM; i++)
      for (int j = 0; j < DIM; j++) {
        int32_t s = 0;
        for (int k = 0; k < DIM; k++) s += (int32_t)A[n][i][k] * B[n][k][j];
        want[i][j] = s;
        want_acc[i][j] = s + bias[n][i][j];
      }
    char what[64];
    snprintf(what, sizeof(what), "round %d mvout after mvin", n);
    ref_check8(what, &echo[n][0][0], &A[n][0][0], DIM * DIM);
    snprintf(what, sizeof(what), "round %d mvout after compute", n);
    ref_check32(what, &C[n][0][0], &want[0][0], DIM * DIM);
    snprintf(what, sizeof(what), "round %d accumulate onto a fresh mvin", n);
    ref_check32(what, &Cacc[n][0][0], &want_acc[0][0], DIM * DIM);
  }
  return ref_result();
}
