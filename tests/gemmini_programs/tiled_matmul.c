/* tiled_matmul_auto in both dataflows and on the CPU against a reference
 * written here: no bias, full bias, repeating bias, low_D (int8 bias), full_C
 * (int32 results), transposed A or B, mvin scales of A and B, the output
 * scale and ReLU, sizes that are not multiples of DIM, and row strides wider
 * than the matrices; OS also through tiled_matmul with small tiling factors, so
 * that every loop of the tiling runs several tiles with a partial last one. */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "include/gemmini_testutils.h"
#include "ref.h"

#ifndef TM_MAX
#define TM_MAX 64
#endif
#define SENTINEL 0x77
/* A tiling factor of n blocks at DIM 4; the sizes below have fewer blocks at a
 * larger DIM, where one block a tile still tiles every loop. */
#define OS_TILE(n) (DIM < 8 ? (n) : 1)

struct tm_case {
  const char *name;
  int I, J, K;
  int pad_a, pad_b, pad_d, pad_c; /* extra elements per row beyond the matrix */
  int bias;                       /* 0 none, 1 full, 2 repeating */
  bool low_D, full_C, tA, tB;
  float a_scale, b_scale, scale;
  int act;
  int lo, hi; /* operand range */
  enum tiled_matmul_type_t type;
  int tile_I, tile_J, tile_K; /* tiling factors in DIM blocks for tiled_matmul; 0: tiled_matmul_auto */
};

static elem_t A[TM_MAX * TM_MAX] row_align(1);
static elem_t B[TM_MAX * TM_MAX] row_align(1);
static acc_t D32[TM_MAX * TM_MAX] row_align_acc(1);
static elem_t D8[TM_MAX * TM_MAX] row_align(1);
static elem_t C8[TM_MAX * TM_MAX] row_align(1);
static acc_t C32[TM_MAX * TM_MAX] row_align_acc(1);
static elem_t W8[TM_MAX * TM_MAX];
static acc_t W32[TM_MAX * TM_MAX];

static int8_t in_scaled(int8_t x, float s) {
#ifdef HAS_MVIN_SCALE
  return ref_mvin_scaled(x, s);
#else
  (void)s;
  return x;
#endif
}

static void run_case(const struct tm_case *t) {
  const int sA = (t->tA ? t->I : t->K) + t->pad_a;
  const int sB = (t->tB ? t->K : t->J) + t->pad_b;
  const int sD = t->J + t->pad_d, sC = t->J + t->pad_c;
  const int a_rows = t->tA ? t->K : t->I, b_rows = t->tB ? t->J : t->K;
  ref_fill8(A, a_rows * sA, t->lo, t->hi);
  ref_fill8(B, b_rows * sB, t->lo, t->hi);
  ref_fill32(D32, t->I * sD, -20000, 20000);
  ref_fill8(D8, t->I * sD, -128, 127);
  memset(C8, SENTINEL, sizeof(C8));
  memset(C32, SENTINEL, sizeof(C32));

  /* the reference */
  for (int i = 0; i < t->I; i++)
    for (int j = 0; j < t->J; j++) {
      const int br = t->bias == 2 ? 0 : i;
      int32_t s = 0;
      if (t->bias) s = t->low_D ? D8[br * sD + j] : D32[br * sD + j];
      for (int k = 0; k < t->K; k++) {
        int a = in_scaled(t->tA ? A[k * sA + i] : A[i * sA + k], t->a_scale);
        int b = in_scaled(t->tB ? B[j * sB + k] : B[k * sB + j], t->b_scale);
        s += a * b;
      }
      W32[i * sC + j] = s;
      W8[i * sC + j] = ref_acc_to_elem(s, t->scale, t->act == RELU);
    }

  const void *Dp = t->bias ? (t->low_D ? (const void *)D8 : (const void *)D32) : NULL;
  void *Cp = t->full_C ? (void *)C32 : (void *)C8;
  if (t->tile_I)
    tiled_matmul(t->I, t->J, t->K, A, B, Dp, Cp, sA, sB, sD, sC, t->a_scale, t->b_scale, MVIN_SCALE_IDENTITY, t->act,
                 t->scale, 0, t->bias == 2, t->tile_I, t->tile_J, t->tile_K, t->tA, t->tB, t->full_C, t->low_D, 0,
                 t->type);
  else
    tiled_matmul_auto(t->I, t->J, t->K, A, B, Dp, Cp, sA, sB, sD, sC, t->a_scale, t->b_scale, MVIN_SCALE_IDENTITY,
                      t->act, t->scale, 0, t->bias == 2, t->tA, t->tB, t->full_C, t->low_D, 0, t->type);
  gemmini_fence();

  int bad = 0, gaps = 0;
  for (int i = 0; i < t->I; i++)
    for (int j = 0; j < sC; j++) {
      if (t->full_C) {
        if (j < t->J && C32[i * sC + j] != W32[i * sC + j]) {
          if (bad < 5)
            printf("MISMATCH %s C[%d][%d]: got %d want %d\n", t->name, i, j, (int)C32[i * sC + j],
                   (int)W32[i * sC + j]);
          bad++;
        }
      } else if (j < t->J) {
        if (C8[i * sC + j] != W8[i * sC + j]) {
          if (bad < 5) printf("MISMATCH %s C[%d][%d]: got %d want %d\n", t->name, i, j, C8[i * sC + j], W8[i * sC + j]);
          bad++;
        }
      } else if (C8[i * sC + j] != (elem_t)SENTINEL) {
        gaps++;
      }
    }
  if (bad || gaps) {
    printf("FAIL %s: %d of %d elements differ, %d written between rows\n", t->name, bad, t->I * t->J, gaps);
    ref_failures++;
  } else {
    printf("ok %s (%dx%dx%d)\n", t->name, t->I, t->J, t->K);
  }
}

int main(void) {
  gemmini_flush(0);
  const float id = MVIN_SCALE_IDENTITY, one = ACC_SCALE_IDENTITY;
  const struct tm_case cases[] = {
      {"ws plain", 13, 11, 9, 0, 0, 0, 0, 0, false, false, false, false, id, id, 1.0f / 64, NO_ACTIVATION, -128, 127, WS},
      {"ws multiple of DIM", 4 * DIM, 2 * DIM, 3 * DIM, 0, 0, 0, 0, 0, false, false, false, false, id, id, 1.0f / 128,
       NO_ACTIVATION, -128, 127, WS},
      {"ws full bias relu", 13, 11, 9, 0, 0, 0, 0, 1, false, false, false, false, id, id, 0.25f, RELU, -20, 20, WS},
      {"ws repeating bias", 10, 7, 14, 0, 0, 0, 0, 2, false, false, false, false, id, id, 1.0f / 32, NO_ACTIVATION, -128,
       127, WS},
      {"ws low_D bias", 9, 10, 6, 0, 0, 0, 0, 1, true, false, false, false, id, id, 1.0f / 16, NO_ACTIVATION, -40, 40, WS},
      {"ws full_C", 11, 13, 17, 0, 0, 0, 0, 1, false, true, false, false, id, id, one, NO_ACTIVATION, -128, 127, WS},
      {"ws transpose A", 12, 9, 7, 0, 0, 0, 0, 0, false, false, true, false, id, id, 1.0f / 64, NO_ACTIVATION, -128, 127,
       WS},
      {"ws transpose B", 7, 12, 10, 0, 0, 0, 0, 1, false, false, false, true, id, id, 1.0f / 64, NO_ACTIVATION, -128, 127,
       WS},
      {"ws mvin scales", 8, 9, 10, 0, 0, 0, 0, 0, false, false, false, false, 0.5f, 2.0f, 0.125f, NO_ACTIVATION, -128,
       127, WS},
      {"ws strides", 9, 6, 11, 5, 3, 2, 7, 1, false, false, false, false, id, id, 1.0f / 64, RELU, -128, 127, WS},
      {"os plain", 13, 11, 9, 0, 0, 0, 0, 0, false, false, false, false, id, id, 1.0f / 8, NO_ACTIVATION, -16, 15, OS},
      {"os full bias relu", 10, 9, 13, 0, 0, 0, 0, 1, false, false, false, false, id, id, 0.5f, RELU, -16, 15, OS},
      {"os repeating bias strides", 9, 10, 7, 3, 1, 2, 5, 2, false, false, false, false, id, id, 0.25f, NO_ACTIVATION,
       -16, 15, OS},
      {"os full_C", 7, 6, 5, 0, 0, 0, 0, 1, false, true, false, false, id, id, one, NO_ACTIVATION, -16, 15, OS},
      /* OS over several tiles of every loop (I, J and K tiles with partial
       * last tiles), and through tiled_matmul_auto past one tile of C. */
      {"os tiles bias relu", 14, 11, 19, 0, 0, 0, 0, 1, false, false, false, false, id, id, 0.25f, RELU, -16, 15, OS,
       OS_TILE(2), OS_TILE(2), OS_TILE(2)},
      {"os tiles repeating bias full_C strides", 13, 10, 14, 2, 3, 1, 4, 2, false, true, false, false, id, id, one,
       NO_ACTIVATION, -16, 15, OS, OS_TILE(2), OS_TILE(2), OS_TILE(3)},
      {"os tiles no bias", 10, 17, 13, 0, 0, 0, 0, 0, false, false, false, false, id, id, 1.0f / 8, NO_ACTIVATION, -16,
       15, OS, OS_TILE(2), 1, OS_TILE(3)},
      {"os auto bias", 33, 34, 4, 0, 0, 0, 0, 1, false, false, false, false, id, id, 1.0f / 16, NO_ACTIVATION, -16, 15,
       OS},
      {"cpu full bias relu", 10, 9, 13, 1, 2, 3, 4, 1, false, false, false, false, id, id, 1.0f / 16, RELU, -128, 127,
       CPU},
  };
  for (size_t n = 0; n < sizeof(cases) / sizeof(cases[0]); n++) run_case(&cases[n]);
  return ref_result();
}
