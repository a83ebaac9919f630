/* tiled_resadd_auto (C = A + B, output scale, ReLU; both on Gemmini and the
 * CPU) and tiled_global_average_auto (mean over the pixels of each channel). */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "include/gemmini_testutils.h"
#include "ref.h"

#define RI 11
#define RJ 13
#define GB 2
#define GDIM 4
#define GCH 7

static elem_t A[RI][RJ], B[RI][RJ], C[RI][RJ], W[RI][RJ];
static elem_t gin[GB][GDIM * GDIM][GCH];
static elem_t gout[GB][GCH], gwant[GB][GCH];

static void resadd_case(float cscale, bool relu, enum tiled_matmul_type_t type, const char *what) {
  for (int i = 0; i < RI; i++)
    for (int j = 0; j < RJ; j++) W[i][j] = ref_acc_to_elem((int32_t)A[i][j] + B[i][j], cscale, relu);
  memset(C, 0x11, sizeof(C));
  tiled_resadd_auto(RI, RJ, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, cscale, &A[0][0], &B[0][0], &C[0][0], relu, type);
  gemmini_fence();
  ref_check8(what, &C[0][0], &W[0][0], RI * RJ);
}

int main(void) {
  gemmini_flush(0);
  ref_fill8(&A[0][0], RI * RJ, -128, 127);
  ref_fill8(&B[0][0], RI * RJ, -128, 127);
  resadd_case(ACC_SCALE_IDENTITY, false, WS, "resadd (saturating)");
  resadd_case(0.5f, false, WS, "resadd scale 0.5");
  resadd_case(0.5f, true, WS, "resadd scale 0.5 relu");
  resadd_case(0.5f, true, CPU, "resadd cpu scale 0.5 relu");

  /* global average: non-negative pixels, sums chosen off the rounding tie */
  const int count = GDIM * GDIM;
  for (int b = 0; b < GB; b++)
    for (int ch = 0; ch < GCH; ch++) {
      int32_t s = 0;
      for (int p = 0; p < count; p++) {
        gin[b][p][ch] = (elem_t)ref_range(0, 120);
        s += gin[b][p][ch];
      }
      if (s % count == count / 2) gin[b][0][ch] += gin[b][0][ch] < 120 ? 1 : -1;
    }
  for (int b = 0; b < GB; b++)
    for (int ch = 0; ch < GCH; ch++) {
      int32_t s = 0;
      for (int p = 0; p < count; p++) s += gin[b][p][ch];
      gwant[b][ch] = ref_sat8(ref_f2i_rne((float)s / (float)count));
    }
  memset(gout, 0x22, sizeof(gout));
  tiled_global_average_auto(&gin[0][0][0], &gout[0][0], GB, GCH, GDIM, WS);
  gemmini_fence();
  ref_check8("global average", &gout[0][0], &gwant[0][0], GB * GCH);
  memset(gout, 0x22, sizeof(gout));
  tiled_global_average_auto(&gin[0][0][0], &gout[0][0], GB, GCH, GDIM, CPU);
  ref_check8("global average cpu", &gout[0][0], &gwant[0][0], GB * GCH);
  return ref_result();
}
