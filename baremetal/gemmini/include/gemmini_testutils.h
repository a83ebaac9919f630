/* Reference helpers for Gemmini test programs, source-compatible with
 * gemmini-rocc-tests' include/gemmini_testutils.h (v0.7.x): the same names,
 * signatures and results; the code is ours.
 *
 * What a program gets by including it:
 *  - DIM x DIM reference matmuls (matmul, matmul_short with an elem_t result,
 *    matmul_full with a full_t bias) and their _A_, _B_ and _AB_transposed forms;
 *  - matadd, matshift (rounding shift + saturation), matscale (ACC_SCALE +
 *    saturation), matrelu, transpose;
 *  - is_equal, is_equal_transposed, MAT_IS_EQUAL, printMatrix, printMatrixAcc,
 *    printSparseMat;
 *  - rand(): Gemmini's test generator (see below), read_cycles() (mcycle);
 *  - assert() that prints the expression and file:line and exits with 1.
 *
 * Gemmini's tests define their own whole-matrix helpers (full_matmul,
 * full_matshift, full_is_equal, full_printMatrix, ...) sized by their MAT_DIM_*
 * macros, so this header does not define them (it would clash). A program that
 * wants ours defines GEMMINI_FULL_HELPERS and MAT_DIM_I, MAT_DIM_J, MAT_DIM_K
 * before including this header. */
#ifndef SRC_MAIN_C_GEMMINI_TESTUTILS_H
#define SRC_MAIN_C_GEMMINI_TESTUTILS_H

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cosim.h"
#include "include/gemmini_params.h"
#include "include/gemmini.h"
#include "include/gemmini_counter.h"

/* Gemmini's header gives BAREMETAL programs an assert that prints and exits(1);
 * ours (assert.h) does the same. */
#include <assert.h>

/* Unused helpers must not warn under -Wall: every program includes all of them. */
#define GEMMINI_TU_ static inline __attribute__((unused))

/* ---- DIM x DIM reference matmuls: C = A * B + D, 64-bit or elem_t result. */

/* One kernel for all twelve forms: at/bt say whether A or B is stored transposed. */
#define GEMMINI_TU_MATMUL_(A, B, D, C, at, bt)                            \
  for (size_t r_ = 0; r_ < DIM; r_++)                                     \
    for (size_t c_ = 0; c_ < DIM; c_++) {                                 \
      full_t sum_ = (D)[r_][c_];                                          \
      for (size_t k_ = 0; k_ < DIM; k_++)                                 \
        sum_ += (full_t)((at) ? (A)[k_][r_] : (A)[r_][k_]) *              \
                (full_t)((bt) ? (B)[c_][k_] : (B)[k_][c_]);               \
      (C)[r_][c_] = sum_;                                                 \
    }

#define GEMMINI_TU_MATMUL_SET_(suffix, at, bt)                                                                     \
  GEMMINI_TU_ void matmul##suffix(elem_t A[DIM][DIM], elem_t B[DIM][DIM], elem_t D[DIM][DIM],                      \
                                  full_t C_full[DIM][DIM]) {                                                       \
    GEMMINI_TU_MATMUL_(A, B, D, C_full, at, bt)                                                                    \
  }                                                                                                                \
  /* the result wraps to elem_t as Gemmini's does (a plain assignment) */                                         \
  GEMMINI_TU_ void matmul_short##suffix(elem_t A[DIM][DIM], elem_t B[DIM][DIM], elem_t D[DIM][DIM],                \
                                        elem_t C[DIM][DIM]) {                                                      \
    GEMMINI_TU_MATMUL_(A, B, D, C, at, bt)                                                                         \
  }                                                                                                                \
  GEMMINI_TU_ void matmul_full##suffix(elem_t A[DIM][DIM], elem_t B[DIM][DIM], full_t D[DIM][DIM],                 \
                                       full_t C_full[DIM][DIM]) {                                                  \
    GEMMINI_TU_MATMUL_(A, B, D, C_full, at, bt)                                                                    \
  }

GEMMINI_TU_MATMUL_SET_(, 0, 0)
GEMMINI_TU_MATMUL_SET_(_A_transposed, 1, 0)
GEMMINI_TU_MATMUL_SET_(_B_transposed, 0, 1)
GEMMINI_TU_MATMUL_SET_(_AB_transposed, 1, 1)

/* ---- Element-wise reference operations. */

GEMMINI_TU_ elem_t gemmini_tu_saturate_(full_t v) {
  return (elem_t)(v > elem_t_max ? elem_t_max : v < elem_t_min ? elem_t_min : v);
}

GEMMINI_TU_ void matadd(full_t sum[DIM][DIM], full_t m1[DIM][DIM], full_t m2[DIM][DIM]) {
  for (size_t r = 0; r < DIM; r++)
    for (size_t c = 0; c < DIM; c++) sum[r][c] = m1[r][c] + m2[r][c];
}

/* Right shift rounding to nearest even (as the array's output shift), then saturate. */
GEMMINI_TU_ void matshift(full_t full[DIM][DIM], elem_t out[DIM][DIM], int shift) {
  for (size_t r = 0; r < DIM; r++)
    for (size_t c = 0; c < DIM; c++) out[r][c] = gemmini_tu_saturate_(ROUNDING_RIGHT_SHIFT(full[r][c], shift));
}

/* Multiply by the accumulator scale as mvout does (ACC_SCALE), then saturate. */
GEMMINI_TU_ void matscale(full_t full[DIM][DIM], elem_t out[DIM][DIM], acc_scale_t scale) {
  for (size_t r = 0; r < DIM; r++)
    for (size_t c = 0; c < DIM; c++) out[r][c] = gemmini_tu_saturate_(ACC_SCALE(full[r][c], scale));
}

GEMMINI_TU_ void matrelu(elem_t in[DIM][DIM], elem_t out[DIM][DIM]) {
  for (size_t r = 0; r < DIM; r++)
    for (size_t c = 0; c < DIM; c++) out[r][c] = in[r][c] > 0 ? in[r][c] : 0;
}

GEMMINI_TU_ void transpose(elem_t in[DIM][DIM], elem_t out[DIM][DIM]) {
  for (size_t r = 0; r < DIM; r++)
    for (size_t c = 0; c < DIM; c++) out[c][r] = in[r][c];
}

/* ---- Comparison and printing. */

GEMMINI_TU_ int is_equal(elem_t x[DIM][DIM], elem_t y[DIM][DIM]) {
  for (size_t i = 0; i < DIM; i++)
    for (size_t j = 0; j < DIM; j++)
      if (x[i][j] != y[i][j]) return 0;
  return 1;
}

GEMMINI_TU_ int is_equal_transposed(elem_t x[DIM][DIM], elem_t y[DIM][DIM]) {
  for (size_t i = 0; i < DIM; i++)
    for (size_t j = 0; j < DIM; j++)
      if (x[i][j] != y[j][i]) return 0;
  return 1;
}

/* 1 if the dim_i x dim_j corners of two 2-D arrays are equal (a statement expression). */
#define MAT_IS_EQUAL(dim_i, dim_j, x, y)                            \
  ({                                                                \
    int mie_equal_ = 1;                                             \
    for (size_t mie_i_ = 0; mie_equal_ && mie_i_ < (dim_i); mie_i_++) \
      for (size_t mie_j_ = 0; mie_j_ < (dim_j); mie_j_++)           \
        if ((x)[mie_i_][mie_j_] != (y)[mie_i_][mie_j_]) {           \
          mie_equal_ = 0;                                           \
          break;                                                    \
        }                                                           \
    mie_equal_;                                                     \
  })

GEMMINI_TU_ void printMatrix(elem_t m[DIM][DIM]) {
  for (size_t i = 0; i < DIM; i++) {
    for (size_t j = 0; j < DIM; j++) printf("%d ", m[i][j]);
    printf("\n");
  }
}

GEMMINI_TU_ void printMatrixAcc(acc_t m[DIM][DIM]) {
  for (size_t i = 0; i < DIM; i++) {
    for (size_t j = 0; j < DIM; j++) printf("%d ", (int)m[i][j]);
    printf("\n");
  }
}

/* Non-zero values with their (row, col) coordinates, in storage order. */
GEMMINI_TU_ void printSparseMat(elem_t data[DIM * DIM], elem_t coo[DIM * DIM][2]) {
  for (size_t i = 0; i < DIM * DIM; i++)
    if (data[i]) printf("%d (%d, %d), ", data[i], coo[i][0], coo[i][1]);
  printf("\n");
}

/* ---- Random numbers and time. */

/* Gemmini's test generator, so programs draw the same matrices as under
 * Gemmini's own headers: a 32-bit LCG x' = x * 1664525 + 1013904223 from
 * x = 777, returning bits 31..24 of the new state (0..255). It replaces the C
 * library's rand() in programs that include this header (srand() does not
 * reseed it, as with Gemmini's); each translation unit has its own sequence. */
GEMMINI_TU_ int gemmini_testutils_rand(void) {
  static uint32_t state = 777;
  state = state * 1664525u + 1013904223u;
  return (int)(state >> 24);
}
#define rand() gemmini_testutils_rand()

/* Cycles since reset (mcycle; our core runs in machine mode). */
GEMMINI_TU_ uint64_t read_cycles(void) { return read_cycle(); }

/* Gemmini's Linux builds lock the program's pages in memory here; bare metal has
 * nothing to lock. */
GEMMINI_TU_ void pin_all(void) {}

/* ---- Whole-matrix helpers, opt-in (see the top of this file). */
#ifdef GEMMINI_FULL_HELPERS
#if !defined(MAT_DIM_I) || !defined(MAT_DIM_J) || !defined(MAT_DIM_K)
#error "GEMMINI_FULL_HELPERS needs MAT_DIM_I, MAT_DIM_J and MAT_DIM_K defined before gemmini_testutils.h"
#endif
GEMMINI_TU_ void full_matmul(elem_t A[MAT_DIM_I][MAT_DIM_K], elem_t B[MAT_DIM_K][MAT_DIM_J],
                             acc_t D[MAT_DIM_I][MAT_DIM_J], full_t C_full[MAT_DIM_I][MAT_DIM_J]) {
  for (size_t r = 0; r < MAT_DIM_I; r++)
    for (size_t c = 0; c < MAT_DIM_J; c++) {
      full_t sum = D[r][c];
      for (size_t k = 0; k < MAT_DIM_K; k++) sum += (full_t)A[r][k] * B[k][c];
      C_full[r][c] = sum;
    }
}

GEMMINI_TU_ void full_matmul_full(elem_t A[MAT_DIM_I][MAT_DIM_K], elem_t B[MAT_DIM_K][MAT_DIM_J],
                                  full_t D[MAT_DIM_I][MAT_DIM_J], full_t C_full[MAT_DIM_I][MAT_DIM_J]) {
  for (size_t r = 0; r < MAT_DIM_I; r++)
    for (size_t c = 0; c < MAT_DIM_J; c++) {
      full_t sum = D[r][c];
      for (size_t k = 0; k < MAT_DIM_K; k++) sum += (full_t)A[r][k] * B[k][c];
      C_full[r][c] = sum;
    }
}

GEMMINI_TU_ void full_matadd(full_t sum[MAT_DIM_I][MAT_DIM_J], full_t m1[MAT_DIM_I][MAT_DIM_J],
                             full_t m2[MAT_DIM_I][MAT_DIM_J]) {
  for (size_t r = 0; r < MAT_DIM_I; r++)
    for (size_t c = 0; c < MAT_DIM_J; c++) sum[r][c] = m1[r][c] + m2[r][c];
}

GEMMINI_TU_ void full_matshift(full_t full[MAT_DIM_I][MAT_DIM_J], elem_t out[MAT_DIM_I][MAT_DIM_J], int shift) {
  for (size_t r = 0; r < MAT_DIM_I; r++)
    for (size_t c = 0; c < MAT_DIM_J; c++) out[r][c] = gemmini_tu_saturate_(ROUNDING_RIGHT_SHIFT(full[r][c], shift));
}

GEMMINI_TU_ void full_matscale(full_t full[MAT_DIM_I][MAT_DIM_J], elem_t out[MAT_DIM_I][MAT_DIM_J],
                               acc_scale_t scale) {
  for (size_t r = 0; r < MAT_DIM_I; r++)
    for (size_t c = 0; c < MAT_DIM_J; c++) out[r][c] = gemmini_tu_saturate_(ACC_SCALE(full[r][c], scale));
}

GEMMINI_TU_ void full_matrelu(elem_t in[MAT_DIM_I][MAT_DIM_J], elem_t out[MAT_DIM_I][MAT_DIM_J]) {
  for (size_t r = 0; r < MAT_DIM_I; r++)
    for (size_t c = 0; c < MAT_DIM_J; c++) out[r][c] = in[r][c] > 0 ? in[r][c] : 0;
}

GEMMINI_TU_ int full_is_equal(elem_t x[MAT_DIM_I][MAT_DIM_J], elem_t y[MAT_DIM_I][MAT_DIM_J]) {
  for (size_t r = 0; r < MAT_DIM_I; r++)
    for (size_t c = 0; c < MAT_DIM_J; c++)
      if (x[r][c] != y[r][c]) return 0;
  return 1;
}

GEMMINI_TU_ void full_printMatrix(elem_t m[MAT_DIM_I][MAT_DIM_J]) {
  for (size_t r = 0; r < MAT_DIM_I; r++) {
    for (size_t c = 0; c < MAT_DIM_J; c++) printf("%d ", m[r][c]);
    printf("\n");
  }
}
#endif /* GEMMINI_FULL_HELPERS */

#endif /* SRC_MAIN_C_GEMMINI_TESTUTILS_H */
