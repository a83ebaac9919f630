/* Scaling: the fp32 mvin scale (config_ld) on int8 data, and the fp32
 * accumulator scale of an int8 mvout (config_st) with round-to-nearest-even
 * ties, saturation to [-128, 127] and ReLU. */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "include/gemmini.h"
#include "ref.h"

#define ACC_ADDR(row) ((uint32_t)(1u << 31) | (uint32_t)(row))

static elem_t in8[DIM][DIM] row_align(1);
static elem_t out8[DIM][DIM] row_align(1);
static acc_t in32[DIM][DIM] row_align_acc(1);

static void check_mvin_scale(float s, const char *what) {
  gemmini_extended_config_ld(DIM * sizeof(elem_t), s);
  gemmini_mvin(in8, 5 * DIM);
  gemmini_config_st(DIM * sizeof(elem_t));
  gemmini_mvout(out8, 5 * DIM);
  gemmini_fence();
  static elem_t want[DIM][DIM];
  for (int r = 0; r < DIM; r++)
    for (int c = 0; c < DIM; c++) want[r][c] = ref_mvin_scaled(in8[r][c], s);
  ref_check8(what, &out8[0][0], &want[0][0], DIM * DIM);
}

static void check_mvout_scale(float s, int act, const char *what) {
  gemmini_extended_config_st(DIM * sizeof(elem_t), act, s);
  gemmini_mvout(out8, ACC_ADDR(3 * DIM));
  gemmini_fence();
  static elem_t want[DIM][DIM];
  for (int r = 0; r < DIM; r++)
    for (int c = 0; c < DIM; c++) want[r][c] = ref_acc_to_elem(in32[r][c], s, act == RELU);
  ref_check8(what, &out8[0][0], &want[0][0], DIM * DIM);
}

int main(void) {
  gemmini_flush(0);

  /* int8 data with odd values (ties at scale 0.5) and both extremes */
  ref_fill8(&in8[0][0], DIM * DIM, -128, 127);
  const int8_t special[] = {1, 3, 5, -1, -3, -5, 127, -128, 0, 2, -2, 7};
  for (int i = 0; i < (int)sizeof(special) && i < DIM * DIM; i++) (&in8[0][0])[i] = special[i];
  check_mvin_scale(0.5f, "mvin scale 0.5 (ties to even)");
  check_mvin_scale(3.0f, "mvin scale 3 (saturates)");
  check_mvin_scale(-1.0f, "mvin scale -1 (-128 saturates to 127)");
  check_mvin_scale(0.3f, "mvin scale 0.3");
  check_mvin_scale(MVIN_SCALE_IDENTITY, "mvin scale identity");

  /* int32 accumulator data: ties at 0.5 and 0.25, values far outside int8 */
  ref_fill32(&in32[0][0], DIM * DIM, -600, 600);
  const int32_t special32[] = {1, 3, -1, -3, 5, -5, 2, 6, -2, -6, 10, 14, 1000000, -1000000, 255, -257};
  for (int i = 0; i < (int)(sizeof(special32) / sizeof(special32[0])) && i < DIM * DIM; i++)
    (&in32[0][0])[i] = special32[i];
  gemmini_config_ld(DIM * sizeof(acc_t));
  gemmini_mvin(in32, ACC_ADDR(3 * DIM));

  check_mvout_scale(ACC_SCALE_IDENTITY, NO_ACTIVATION, "mvout identity scale saturates");
  check_mvout_scale(0.5f, NO_ACTIVATION, "mvout scale 0.5 (ties to even)");
  check_mvout_scale(0.25f, NO_ACTIVATION, "mvout scale 0.25 (ties to even)");
  check_mvout_scale(0.1f, NO_ACTIVATION, "mvout scale 0.1");
  check_mvout_scale(2.0f, NO_ACTIVATION, "mvout scale 2 (saturates)");
  check_mvout_scale(ACC_SCALE_IDENTITY, RELU, "mvout ReLU");
  check_mvout_scale(0.5f, RELU, "mvout ReLU with scale 0.5");

  /* the library's own rounding macro agrees on a few values */
  {
    int ok = 1;
    for (int i = 0; i < 8; i++) {
      acc_t x = special32[i];
      acc_t got = ACC_SCALE(x, 0.5f);
      acc_t want = ref_f2i_rne((float)x * 0.5f);
      if (got != want) {
        printf("ACC_SCALE(%d, 0.5) = %d, want %d\n", (int)x, (int)got, (int)want);
        ok = 0;
      }
    }
    ref_expect("gemmini_params.h ACC_SCALE rounds to nearest even", ok);
  }
  gemmini_config_st(DIM * sizeof(elem_t));
  return ref_result();
}
