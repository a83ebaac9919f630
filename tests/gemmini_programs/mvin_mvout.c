/* mvin/mvout round trips through the scratchpad and the accumulator:
 * whole tiles, block moves (cols > DIM), partial tiles (rows and cols < DIM),
 * DRAM strides, unaligned DRAM addresses, int32 accumulator data read back at
 * full width (bit 29) and as saturated int8, accumulate-on-mvin and shrunk
 * (int8) loads into the accumulator. */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "include/gemmini_testutils.h"
#include "ref.h"

#define ACC_ADDR(row) ((uint32_t)(1u << 31) | (uint32_t)(row))
#define ACC_ACCUMULATE (1u << 30)
#define ACC_FULL (1u << 29)
#define SENTINEL 0x5a

#define NB MAX_BLOCK_LEN
#define NBA MAX_BLOCK_LEN_ACC

static elem_t tile_in[DIM][DIM] row_align(1);
static elem_t tile_out[DIM][DIM] row_align(1);
static elem_t wide_in[DIM][NB * DIM] row_align(1);
static elem_t wide_out[DIM][NB * DIM] row_align(1);
static elem_t strided_in[DIM][DIM + 3];
static elem_t strided_out[DIM][DIM + 5];
static uint8_t raw_in[DIM * DIM + 16];
static uint8_t raw_out[DIM * DIM + 16];
static acc_t acc_in[DIM][NBA * DIM] row_align_acc(1);
static acc_t acc_in2[DIM][DIM] row_align_acc(1);
static acc_t acc_out[DIM][NBA * DIM] row_align_acc(1);
static elem_t acc_out8[DIM][NBA * DIM] row_align(1);

int main(void) {
  gemmini_flush(0);

  /* 1. one DIM x DIM tile into scratchpad row 7 and back */
  ref_fill8(&tile_in[0][0], DIM * DIM, -128, 127);
  gemmini_config_ld(DIM * sizeof(elem_t));
  gemmini_config_st(DIM * sizeof(elem_t));
  gemmini_mvin(tile_in, 7);
  gemmini_mvout(tile_out, 7);
  gemmini_fence();
  ref_check8("spad tile round trip", &tile_out[0][0], &tile_in[0][0], DIM * DIM);

  /* 2. block mvin of MAX_BLOCK_LEN tiles side by side; each lands DIM rows further */
  ref_fill8(&wide_in[0][0], DIM * NB * DIM, -128, 127);
  memset(wide_out, 0, sizeof(wide_out));
  const uint32_t wide_base = BANK_ROWS + 3; /* a second bank, unaligned row */
  gemmini_config_ld(NB * DIM * sizeof(elem_t));
  gemmini_block_mvin(wide_in, wide_base, NB);
  gemmini_config_st(NB * DIM * sizeof(elem_t));
  for (int b = 0; b < NB; b++) gemmini_mvout(&wide_out[0][b * DIM], wide_base + b * DIM);
  gemmini_fence();
  ref_check8("spad block mvin (MAX_BLOCK_LEN tiles)", &wide_out[0][0], &wide_in[0][0], DIM * NB * DIM);

  /* 3. a partial tile: rows < DIM, cols < DIM; the other rows keep their old data */
  {
    static elem_t fill[DIM][DIM] row_align(1);
    memset(fill, SENTINEL, sizeof(fill));
    const int rows = DIM - 1 > 0 ? DIM - 1 : 1, cols = DIM > 1 ? DIM - 1 : 1;
    gemmini_config_ld(DIM * sizeof(elem_t));
    gemmini_config_st(DIM * sizeof(elem_t));
    gemmini_mvin(fill, 100);
    ref_fill8(&tile_in[0][0], DIM * DIM, -128, 127);
    gemmini_extended_mvin(tile_in, 100, cols, rows);
    memset(tile_out, 0, sizeof(tile_out));
    gemmini_mvout(tile_out, 100);
    gemmini_fence();
    int bad = 0;
    for (int r = 0; r < DIM; r++)
      for (int c = 0; c < DIM; c++) {
        if (r < rows && c < cols && tile_out[r][c] != tile_in[r][c]) bad++;
        if (r >= rows && tile_out[r][c] != (elem_t)SENTINEL) bad++;
      }
    ref_expect("partial mvin (rows, cols < DIM) leaves the other rows", bad == 0);

    /* partial mvout: DRAM outside rows x cols is not written */
    memset(tile_out, SENTINEL, sizeof(tile_out));
    gemmini_extended_mvout(tile_out, 100, cols, rows);
    gemmini_fence();
    bad = 0;
    for (int r = 0; r < DIM; r++)
      for (int c = 0; c < DIM; c++) {
        elem_t want = (r < rows && c < cols) ? tile_in[r][c] : (elem_t)SENTINEL;
        if (tile_out[r][c] != want) bad++;
      }
    ref_expect("partial mvout writes only rows x cols", bad == 0);
  }

  /* 4. DRAM strides on both sides (not multiples of DIM) */
  ref_fill8(&strided_in[0][0], DIM * (DIM + 3), -128, 127);
  memset(strided_out, SENTINEL, sizeof(strided_out));
  gemmini_config_ld((DIM + 3) * sizeof(elem_t));
  gemmini_config_st((DIM + 5) * sizeof(elem_t));
  gemmini_mvin(strided_in, 200);
  gemmini_mvout(strided_out, 200);
  gemmini_fence();
  {
    int bad = 0;
    for (int r = 0; r < DIM; r++)
      for (int c = 0; c < DIM + 5; c++) {
        elem_t want = c < DIM ? strided_in[r][c] : (elem_t)SENTINEL;
        if (strided_out[r][c] != want) bad++;
      }
    ref_expect("strided mvin/mvout (DIM+3 in, DIM+5 out, gaps untouched)", bad == 0);
  }

  /* 5. unaligned DRAM addresses */
  for (int i = 0; i < (int)sizeof(raw_in); i++) raw_in[i] = (uint8_t)ref_next();
  memset(raw_out, SENTINEL, sizeof(raw_out));
  gemmini_config_ld(DIM);
  gemmini_config_st(DIM);
  gemmini_mvin(raw_in + 3, 300);
  gemmini_mvout(raw_out + 5, 300);
  gemmini_fence();
  {
    int bad = 0;
    for (int i = 0; i < (int)sizeof(raw_out); i++) {
      uint8_t want = (i >= 5 && i < 5 + DIM * DIM) ? raw_in[i - 5 + 3] : SENTINEL;
      if (raw_out[i] != want) bad++;
    }
    ref_expect("unaligned DRAM addresses (+3 in, +5 out)", bad == 0);
  }

  /* 6. int32 into the accumulator (block of MAX_BLOCK_LEN_ACC tiles), back at full width and as int8 */
  ref_fill32(&acc_in[0][0], DIM * NBA * DIM, -1000, 1000);
  acc_in[0][0] = 2147483647;
  acc_in[0][1] = -2147483647 - 1;
  acc_in[1][0] = 127;
  acc_in[1][1] = -128;
  gemmini_config_ld(NBA * DIM * sizeof(acc_t));
  gemmini_extended_mvin(acc_in, ACC_ADDR(DIM), NBA * DIM, DIM);
  gemmini_config_st(NBA * DIM * sizeof(acc_t));
  for (int b = 0; b < NBA; b++)
    gemmini_mvout(&acc_out[0][b * DIM], ACC_ADDR(DIM + b * DIM) | ACC_FULL);
  gemmini_config_st(NBA * DIM * sizeof(elem_t));
  for (int b = 0; b < NBA; b++) gemmini_mvout(&acc_out8[0][b * DIM], ACC_ADDR(DIM + b * DIM));
  gemmini_fence();
  ref_check32("acc block mvin, full-width mvout", &acc_out[0][0], &acc_in[0][0], DIM * NBA * DIM);
  {
    static elem_t want[DIM][NBA * DIM];
    for (int r = 0; r < DIM; r++)
      for (int c = 0; c < NBA * DIM; c++) want[r][c] = ref_acc_to_elem(acc_in[r][c], 1.0f, 0);
    ref_check8("acc mvout as int8 saturates", &acc_out8[0][0], &want[0][0], DIM * NBA * DIM);
  }

  /* 7. accumulate on mvin: acc += DRAM */
  ref_fill32(&acc_in2[0][0], DIM * DIM, -5000, 5000);
  gemmini_config_ld(NBA * DIM * sizeof(acc_t));
  gemmini_extended_mvin(acc_in, ACC_ADDR(40), DIM, DIM);
  gemmini_config_ld(DIM * sizeof(acc_t));
  gemmini_extended_mvin(acc_in2, ACC_ADDR(40) | ACC_ACCUMULATE, DIM, DIM);
  gemmini_config_st(DIM * sizeof(acc_t));
  gemmini_mvout(acc_out, ACC_ADDR(40) | ACC_FULL);
  gemmini_fence();
  {
    static acc_t want[DIM][DIM];
    static acc_t got[DIM][DIM];
    for (int r = 0; r < DIM; r++)
      for (int c = 0; c < DIM; c++) {
        want[r][c] = (acc_t)((uint32_t)acc_in[r][c] + (uint32_t)acc_in2[r][c]);
        got[r][c] = ((acc_t *)acc_out)[r * DIM + c];
      }
    ref_check32("acc mvin with the accumulate bit", &got[0][0], &want[0][0], DIM * DIM);
  }

  /* 8. shrunk load: int8 DRAM data into the accumulator, sign-extended */
  ref_fill8(&tile_in[0][0], DIM * DIM, -128, 127);
  gemmini_extended2_config_ld(DIM * sizeof(elem_t), MVIN_SCALE_IDENTITY, true);
  gemmini_extended_mvin(tile_in, ACC_ADDR(60), DIM, DIM);
  gemmini_config_st(DIM * sizeof(acc_t));
  gemmini_mvout(acc_out, ACC_ADDR(60) | ACC_FULL);
  gemmini_fence();
  {
    static acc_t want[DIM][DIM];
    static acc_t got[DIM][DIM];
    for (int r = 0; r < DIM; r++)
      for (int c = 0; c < DIM; c++) {
        want[r][c] = tile_in[r][c];
        got[r][c] = ((acc_t *)acc_out)[r * DIM + c];
      }
    ref_check32("shrunk (int8) mvin into the accumulator", &got[0][0], &want[0][0], DIM * DIM);
  }

  return ref_result();
}
