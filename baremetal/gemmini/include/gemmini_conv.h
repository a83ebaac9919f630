/*
 * gemmini_conv.h: convolutions and pooling on the Gemmini unit (dsa-cosim).
 *
 * A source-compatible re-implementation of the convolution part of Gemmini's
 * public C API (gemmini-rocc-tests include/gemmini.h): the CPU references
 * conv_cpu / conv_dw_cpu, the tilers tiled_conv / tiled_conv_dw, the
 * auto-tiling front ends tiled_conv_auto / tiled_conv_stride_auto /
 * tiled_conv_dw_auto and tiled_conv_downsample. Names, signatures and data
 * layouts follow Gemmini's; the code is ours.
 *
 * gemmini.h includes this file at its end, so every instruction macro,
 * elem_t/acc_t, enum tiled_matmul_type_t and tiled_matmul_auto are already
 * defined here. Nothing in this file allocates memory.
 *
 * Data layouts (as Gemmini's):
 *   input   NHWC, each pixel in_stride elements apart (in_stride >= channels);
 *           CHWN with trans_input_3120.
 *   weights a (kernel_dim * kernel_dim * in_channels) x out_channels matrix,
 *           rows (krow, kcol, kch), weight_stride elements a row (HWIO);
 *           WIHO ((kch, krow, kcol) x och) with trans_weight_1203; HWOI
 *           ((krow, kcol, och) x kch) with trans_weight_0132;
 *           depthwise: [channel][krow][kcol].
 *   output  NHWC, each pixel out_stride elements apart; HWNC with
 *           trans_output_1203.
 *   bias    one acc_t per output channel, or NULL.
 *
 * One tile (sp_tiled_conv) runs on loop_conv_ws, the hardware loop, when
 * gemmini_params.h defines HAS_LOOP_CONV, and otherwise as a software loop of
 * primitive instructions (config_ld / mvin / mvin2 / mvin3 / preload /
 * compute / config_st / mvout) with the same scratchpad and accumulator
 * layout:
 *   scratchpad  inputs from row 0: [ich / DIM][b][irow][icol] (CHWN input:
 *               [b / DIM][ich][irow][icol]); weights at the top:
 *               [och / DIM][krow][kcol][kch] (HWOI: [kch / DIM][krow][kcol][och]).
 *   accumulator one half of it per tile, [och / DIM][b][orow][ocol]; the half
 *               flips after each tile that writes its output, so the next
 *               tile's bias load never lands on rows still being moved out.
 */

#ifndef DSA_COSIM_GEMMINI_CONV_H
#define DSA_COSIM_GEMMINI_CONV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------------ */
/* Small helpers (private to this header).                                   */

static inline int gemmini_conv_min_(int a, int b) { return a < b ? a : b; }

/* ceil(a / b) for a, b > 0; at least 1, as the tilers expect. */
static inline int gemmini_conv_ceil_div_(int a, int b) {
  int q = a / b + (a % b != 0);
  return q < 1 ? 1 : q;
}

/* DIM-wide groups needed for n channels (or batches). */
static inline int gemmini_conv_groups_(int n) { return n / DIM + (n % DIM != 0); }

/* The value mvout writes for one accumulator element: ReLU on the int32,
 * then the accumulator scale, then saturation to elem_t. */
static inline elem_t gemmini_conv_out_pixel_(acc_t x, int act, acc_scale_t scale) {
  if (act == RELU && x < 0)
    x = 0;
  acc_t y = ACC_SCALE(x, scale);
  if (y > elem_t_max)
    y = elem_t_max;
  if (y < elem_t_min)
    y = elem_t_min;
  return (elem_t)y;
}

/* Output size of a pooling window sweep over `dim` pixels. */
static inline int gemmini_conv_pooled_dim_(int dim, int pool_size, int pool_stride, int pool_padding) {
  return (dim + 2 * pool_padding - pool_size) / pool_stride + 1;
}

/* ------------------------------------------------------------------------ */
/* CPU references.                                                           */

/* One convolution output pixel (b, orow, ocol, och) before scaling. */
static acc_t gemmini_conv_cpu_pixel_(
    int batch_size, int in_row_dim, int in_col_dim, int in_channels, int out_channels,
    int stride, int input_dilation, int kernel_dilation, int padding, int kernel_dim,
    int in_stride, int weight_stride,
    bool wrot180, bool trans_input_3120, bool trans_weight_1203, bool trans_weight_0132,
    const elem_t *input, const elem_t *weights, const acc_t *bias,
    int b, int orow, int ocol, int och) {
  acc_t sum = bias == NULL ? 0 : bias[och];

  for (int krow = 0; krow < kernel_dim; krow++) {
    const int row_d = orow * stride + krow * kernel_dilation - padding;
    if (row_d % input_dilation != 0)
      continue; /* lands between two dilated input rows: a zero */
    const int irow = row_d / input_dilation;

    for (int kcol = 0; kcol < kernel_dim; kcol++) {
      const int col_d = ocol * stride + kcol * kernel_dilation - padding;
      if (col_d % input_dilation != 0)
        continue;
      const int icol = col_d / input_dilation;

      if (irow < 0 || irow >= in_row_dim || icol < 0 || icol >= in_col_dim)
        continue; /* padding */

      const int wr = wrot180 ? kernel_dim - 1 - krow : krow;
      const int wc = wrot180 ? kernel_dim - 1 - kcol : kcol;

      for (int kch = 0; kch < in_channels; kch++) {
        elem_t x;
        if (trans_input_3120)
          x = input[((size_t)kch * in_row_dim * in_col_dim + (size_t)irow * in_col_dim + icol) * batch_size + b];
        else
          x = input[((size_t)b * in_row_dim * in_col_dim + (size_t)irow * in_col_dim + icol) * in_stride + kch];

        elem_t w;
        if (trans_weight_1203)
          w = weights[((size_t)kch * kernel_dim * kernel_dim + (size_t)wr * kernel_dim + wc) * out_channels + och];
        else if (trans_weight_0132)
          w = weights[((size_t)wr * kernel_dim * out_channels + (size_t)wc * out_channels + och) * in_channels + kch];
        else
          w = weights[((size_t)wr * kernel_dim * in_channels + (size_t)wc * in_channels + kch) * weight_stride + och];

        sum += (acc_t)w * (acc_t)x;
      }
    }
  }
  return sum;
}

/* Where output pixel (b, row, col, ch) of a rows x cols image goes. */
static inline elem_t *gemmini_conv_cpu_out_(elem_t *output, bool trans_output_1203,
    int batch_size, int rows, int cols, int out_channels, int out_stride,
    int b, int row, int col, int ch) {
  (void)rows;
  if (trans_output_1203)
    return output + ((size_t)row * cols * batch_size + (size_t)col * batch_size + b) * out_channels + ch;
  return output + ((size_t)b * rows * cols + (size_t)row * cols + col) * out_stride + ch;
}

static void conv_cpu_without_pool(
    int batch_size, int in_row_dim, int in_col_dim, int in_channels,
    int out_channels, int out_row_dim, int out_col_dim,
    int stride, int input_dilation, int kernel_dilation, int padding, int kernel_dim,
    int in_stride, int weight_stride, int out_stride,
    bool wrot180, bool trans_output_1203, bool trans_input_3120,
    bool trans_weight_1203, bool trans_weight_0132,
    const elem_t *input, const elem_t *weights, const acc_t *bias, elem_t *output,
    int act, acc_scale_t scale) {
  for (int b = 0; b < batch_size; b++)
    for (int orow = 0; orow < out_row_dim; orow++)
      for (int ocol = 0; ocol < out_col_dim; ocol++)
        for (int och = 0; och < out_channels; och++) {
          const acc_t sum = gemmini_conv_cpu_pixel_(
              batch_size, in_row_dim, in_col_dim, in_channels, out_channels,
              stride, input_dilation, kernel_dilation, padding, kernel_dim,
              in_stride, weight_stride,
              wrot180, trans_input_3120, trans_weight_1203, trans_weight_0132,
              input, weights, bias, b, orow, ocol, och);
          *gemmini_conv_cpu_out_(output, trans_output_1203, batch_size, out_row_dim, out_col_dim,
                                 out_channels, out_stride, b, orow, ocol, och) =
              gemmini_conv_out_pixel_(sum, act, scale);
        }
}

/* Max pooling over already-scaled conv pixels; a window position outside
 * the conv output counts as 0, as Gemmini's pooling unit pads. */
static void conv_cpu(
    int batch_size, int in_row_dim, int in_col_dim, int in_channels,
    int out_channels, int out_row_dim, int out_col_dim,
    int stride, int input_dilation, int kernel_dilation, int padding, int kernel_dim,
    int in_stride, int weight_stride, int out_stride,
    bool wrot180, bool trans_output_1203, bool trans_input_3120,
    bool trans_weight_1203, bool trans_weight_0132,
    const elem_t *input, const elem_t *weights, const acc_t *bias, elem_t *output,
    int act, acc_scale_t scale,
    int pool_size, int pool_stride, int pool_padding) {
  if (pool_stride == 0) {
    conv_cpu_without_pool(batch_size, in_row_dim, in_col_dim, in_channels,
        out_channels, out_row_dim, out_col_dim,
        stride, input_dilation, kernel_dilation, padding, kernel_dim,
        in_stride, weight_stride, out_stride,
        wrot180, trans_output_1203, trans_input_3120, trans_weight_1203, trans_weight_0132,
        input, weights, bias, output, act, scale);
    return;
  }

  const int prows = gemmini_conv_pooled_dim_(out_row_dim, pool_size, pool_stride, pool_padding);
  const int pcols = gemmini_conv_pooled_dim_(out_col_dim, pool_size, pool_stride, pool_padding);

  for (int b = 0; b < batch_size; b++)
    for (int porow = 0; porow < prows; porow++)
      for (int pocol = 0; pocol < pcols; pocol++)
        for (int och = 0; och < out_channels; och++) {
          bool seen = false;
          elem_t best = 0;
          for (int wr = 0; wr < pool_size; wr++)
            for (int wc = 0; wc < pool_size; wc++) {
              const int orow = porow * pool_stride + wr - pool_padding;
              const int ocol = pocol * pool_stride + wc - pool_padding;
              elem_t v = 0;
              if (orow >= 0 && orow < out_row_dim && ocol >= 0 && ocol < out_col_dim) {
                const acc_t sum = gemmini_conv_cpu_pixel_(
                    batch_size, in_row_dim, in_col_dim, in_channels, out_channels,
                    stride, input_dilation, kernel_dilation, padding, kernel_dim,
                    in_stride, weight_stride,
                    wrot180, trans_input_3120, trans_weight_1203, trans_weight_0132,
                    input, weights, bias, b, orow, ocol, och);
                v = gemmini_conv_out_pixel_(sum, act, scale);
              }
              if (!seen || v > best) {
                best = v;
                seen = true;
              }
            }
          *gemmini_conv_cpu_out_(output, trans_output_1203, batch_size, prows, pcols,
                                 out_channels, out_stride, b, porow, pocol, och) = best;
        }
}

/* One depthwise output pixel before scaling; weights are [ch][krow][kcol]. */
static acc_t gemmini_conv_dw_cpu_pixel_(
    int in_row_dim, int in_col_dim, int channels, int stride, int padding, int kernel_dim,
    const elem_t *input, const elem_t *weights, const acc_t *bias,
    int b, int orow, int ocol, int ch) {
  acc_t sum = bias == NULL ? 0 : bias[ch];
  for (int krow = 0; krow < kernel_dim; krow++) {
    const int irow = orow * stride + krow - padding;
    if (irow < 0 || irow >= in_row_dim)
      continue;
    for (int kcol = 0; kcol < kernel_dim; kcol++) {
      const int icol = ocol * stride + kcol - padding;
      if (icol < 0 || icol >= in_col_dim)
        continue;
      const elem_t x = input[((size_t)b * in_row_dim * in_col_dim + (size_t)irow * in_col_dim + icol) * channels + ch];
      const elem_t w = weights[((size_t)ch * kernel_dim + krow) * kernel_dim + kcol];
      sum += (acc_t)w * (acc_t)x;
    }
  }
  return sum;
}

static void conv_dw_cpu_without_pool(
    int batch_size, int in_row_dim, int in_col_dim,
    int channels, int out_row_dim, int out_col_dim,
    int stride, int padding, int kernel_dim,
    const elem_t *input, const elem_t *weights, const acc_t *bias, elem_t *output,
    int act, acc_scale_t scale) {
  for (int b = 0; b < batch_size; b++)
    for (int orow = 0; orow < out_row_dim; orow++)
      for (int ocol = 0; ocol < out_col_dim; ocol++)
        for (int ch = 0; ch < channels; ch++) {
          const acc_t sum = gemmini_conv_dw_cpu_pixel_(in_row_dim, in_col_dim, channels,
              stride, padding, kernel_dim, input, weights, bias, b, orow, ocol, ch);
          output[((size_t)b * out_row_dim * out_col_dim + (size_t)orow * out_col_dim + ocol) * channels + ch] =
              gemmini_conv_out_pixel_(sum, act, scale);
        }
}

static void conv_dw_cpu(
    int batch_size, int in_row_dim, int in_col_dim,
    int channels, int out_row_dim, int out_col_dim,
    int stride, int padding, int kernel_dim,
    const elem_t *input, const elem_t *weights, const acc_t *bias, elem_t *output,
    int act, acc_scale_t scale,
    int pool_size, int pool_stride, int pool_padding) {
  if (pool_stride == 0) {
    conv_dw_cpu_without_pool(batch_size, in_row_dim, in_col_dim, channels,
        out_row_dim, out_col_dim, stride, padding, kernel_dim,
        input, weights, bias, output, act, scale);
    return;
  }

  const int prows = gemmini_conv_pooled_dim_(out_row_dim, pool_size, pool_stride, pool_padding);
  const int pcols = gemmini_conv_pooled_dim_(out_col_dim, pool_size, pool_stride, pool_padding);

  for (int b = 0; b < batch_size; b++)
    for (int porow = 0; porow < prows; porow++)
      for (int pocol = 0; pocol < pcols; pocol++)
        for (int ch = 0; ch < channels; ch++) {
          bool seen = false;
          elem_t best = 0;
          for (int wr = 0; wr < pool_size; wr++)
            for (int wc = 0; wc < pool_size; wc++) {
              const int orow = porow * pool_stride + wr - pool_padding;
              const int ocol = pocol * pool_stride + wc - pool_padding;
              elem_t v = 0;
              if (orow >= 0 && orow < out_row_dim && ocol >= 0 && ocol < out_col_dim)
                v = gemmini_conv_out_pixel_(gemmini_conv_dw_cpu_pixel_(in_row_dim, in_col_dim, channels,
                        stride, padding, kernel_dim, input, weights, bias, b, orow, ocol, ch), act, scale);
              if (!seen || v > best) {
                best = v;
                seen = true;
              }
            }
          output[((size_t)b * prows * pcols + (size_t)porow * pcols + pocol) * channels + ch] = best;
        }
}

/* ------------------------------------------------------------------------ */
/* Scratchpad and accumulator budget of one tile.                            */

/* Rows a tile needs: the accumulator's (acc) or the scratchpad's (inputs
 * plus weights). The tile is porows x pocols pooled pixels of ochs channels
 * over batches images, reading krows x kcols x kchs of the kernel. */
static int tiled_conv_total_spad_rows(bool acc,
    int stride, int input_dilation, int kernel_dilation,
    bool downsample, bool trans_weight_0132, bool trans_input_3120,
    int batches, int porows, int pocols, int ochs,
    int krows, int kcols, int kchs,
    int pool_size, int pool_stride) {
  const int orows = porows * pool_stride + pool_size - 1;
  const int ocols = pocols * pool_stride + pool_size - 1;

  const int dkrows = krows + (kernel_dilation - 1) * (krows - 1);
  const int dkcols = kcols + (kernel_dilation - 1) * (kcols - 1);

  int irows = orows * stride + dkrows - 1;
  int icols = ocols * stride + dkcols - 1;
  irows = irows / input_dilation + (irows % input_dilation != 0);
  icols = icols / input_dilation + (icols % input_dilation != 0);
  irows >>= downsample;
  icols >>= downsample;

  const int pixels = irows * icols;
  const int a_rows = trans_input_3120 ? gemmini_conv_groups_(batches) * kchs * pixels
                                      : gemmini_conv_groups_(kchs) * batches * pixels;
  const int b_rows = trans_weight_0132 ? gemmini_conv_groups_(kchs) * krows * kcols * ochs
                                       : gemmini_conv_groups_(ochs) * krows * kcols * kchs;
  const int c_rows = gemmini_conv_groups_(ochs) * batches * orows * ocols;

  return acc ? c_rows : a_rows + b_rows;
}

/* The depthwise budget split three ways: accumulator (acc), weights
 * (weight) or inputs (neither). */
static int tiled_conv_total_spad_rows_dw(bool acc, bool weight,
    int stride, int batches, int porows, int pocols, int ochs,
    int krows, int kcols, int kchs, int pool_size, int pool_stride) {
  const int orows = porows * pool_stride + pool_size - 1;
  const int ocols = pocols * pool_stride + pool_size - 1;
  const int irows = orows * stride + krows - 1;
  const int icols = ocols * stride + kcols - 1;

  if (acc)
    return gemmini_conv_groups_(ochs) * batches * orows * ocols;
  if (weight)
    return gemmini_conv_groups_(ochs) * krows * kcols * kchs;
  return gemmini_conv_groups_(kchs) * batches * irows * icols;
}

/* ------------------------------------------------------------------------ */
/* The software loop: one tile as primitive instructions.                    */

/* Accumulator row where the next tile's outputs start (one half or the other). */
static uint32_t gemmini_conv_acc_half_row_ = 0;

/* Geometry of one tile, shared by its phases. */
struct gemmini_conv_tile_ {
  int batches, orows, ocols, ochs, krows, kcols, kchs;
  int irows, icols;                 /* padded, after input dilation */
  int irows_unpadded, icols_unpadded;
  int upad, lpad;                   /* padding before the first pixel, undilated */
  int dpad, rpad;
  uint32_t a_start, b_start, c_row;
};

static void gemmini_conv_sw_load_bias_(const struct gemmini_conv_tile_ *t,
    const acc_t *bias, bool no_bias) {
  const int per_mvin = gemmini_conv_min_(t->ochs, MAX_BLOCK_LEN_ACC * DIM);
  const int group_rows = t->batches * t->orows * t->ocols;

  /* DRAM stride 0: every row of a mvin repeats the same bias vector. */
  gemmini_extended4_config_ld(0, MVIN_SCALE_IDENTITY, false, group_rows, 2);

  for (int b = 0; b < t->batches; b++)
    for (int orow = 0; orow < t->orows; orow++)
      for (int ocol = 0; ocol < t->ocols; ocol += DIM) {
        const int rows = gemmini_conv_min_(t->ocols - ocol, DIM);
        for (int och = 0; och < t->ochs; och += per_mvin) {
          const int cols = gemmini_conv_min_(t->ochs - och, per_mvin);
          const uint32_t row = t->c_row + (och / DIM) * group_rows +
                               (b * t->orows + orow) * t->ocols + ocol;
          /* bit 31 alone: overwrite the accumulator rows; a NULL address
           * loads zeros (no bias). */
          gemmini_extended_mvin3(no_bias ? NULL : bias + och, ((uint32_t)1 << 31) | row, cols, rows);
        }
      }
}

static void gemmini_conv_sw_load_input_(const struct gemmini_conv_tile_ *t,
    const elem_t *input, int batch_size, int in_row_dim, int in_col_dim, int in_stride,
    bool downsample, bool trans_input_3120) {
  const int ds = downsample ? 1 : 0;
  const int rows_ds = t->irows >> ds, cols_ds = t->icols >> ds;
  const int per_mvin = gemmini_conv_min_(trans_input_3120 ? t->batches : t->kchs, MAX_BLOCK_LEN * DIM);

  const size_t dram_stride = (trans_input_3120 ? (size_t)batch_size : (size_t)in_stride) * sizeof(elem_t);
  const int block_stride = (trans_input_3120 ? t->kchs : t->batches) * rows_ds * cols_ds;
  gemmini_extended5_config_ld(dram_stride << ds, MVIN_SCALE_IDENTITY, false, block_stride, 1, 0);

  const int b_step = trans_input_3120 ? per_mvin : 1;
  const int ch_step = trans_input_3120 ? 1 : per_mvin;

  for (int b = 0; b < t->batches; b += b_step)
    for (int irow = -t->upad; irow < t->irows_unpadded + t->dpad; irow += 1 + ds) {
      const int prow = irow + t->upad; /* row in the padded tile */
      for (int icol = -t->lpad; icol < t->icols_unpadded + t->rpad;) {
        int span; /* input columns this mvin covers (before downsampling) */
        if (icol < 0)
          span = gemmini_conv_min_(-icol, DIM);
        else if (icol >= t->icols_unpadded)
          span = gemmini_conv_min_(t->icols_unpadded + t->rpad - icol, DIM);
        else
          span = gemmini_conv_min_(t->icols_unpadded - icol, DIM << ds);
        const int pcol = icol + t->lpad;
        const bool pad = irow < 0 || irow >= t->irows_unpadded || icol < 0 || icol >= t->icols_unpadded;

        for (int ich = 0; ich < t->kchs; ich += ch_step) {
          uint32_t row;
          const elem_t *src = NULL;
          int cols;
          if (trans_input_3120) {
            cols = gemmini_conv_min_(t->batches - b, per_mvin);
            row = t->a_start + (b / DIM) * t->kchs * rows_ds * cols_ds + ich * rows_ds * cols_ds +
                  (prow >> ds) * cols_ds + (pcol >> ds);
            if (!pad)
              src = input + ((size_t)ich * in_row_dim * in_col_dim + (size_t)irow * in_col_dim + icol) * batch_size + b;
          } else {
            cols = gemmini_conv_min_(t->kchs - ich, per_mvin);
            row = t->a_start + (ich / DIM) * t->batches * rows_ds * cols_ds + b * rows_ds * cols_ds +
                  (prow >> ds) * cols_ds + (pcol >> ds);
            if (!pad)
              src = input + ((size_t)b * in_row_dim * in_col_dim + (size_t)irow * in_col_dim + icol) * in_stride + ich;
          }
          gemmini_extended_mvin(src, row, cols, span >> ds);
        }
        icol += span;
      }
    }
}

static void gemmini_conv_sw_load_weights_(const struct gemmini_conv_tile_ *t,
    const elem_t *weights, int in_channels, int out_channels, int kernel_dim, int weight_stride,
    bool trans_weight_1203, bool trans_weight_0132, bool dw) {
  const int per_mvin = gemmini_conv_min_(trans_weight_0132 ? t->kchs : t->ochs, MAX_BLOCK_LEN * DIM);

  size_t dram_stride = (size_t)weight_stride * sizeof(elem_t);
  if (dw)
    dram_stride = sizeof(elem_t);
  else if (trans_weight_1203)
    dram_stride = (size_t)kernel_dim * kernel_dim * out_channels * sizeof(elem_t);
  else if (trans_weight_0132)
    dram_stride = (size_t)in_channels * sizeof(elem_t);

  const int kpix = t->krows * t->kcols;
  const int block_stride = kpix * (trans_weight_0132 ? t->ochs : t->kchs);
  gemmini_extended4_config_ld(dram_stride, MVIN_SCALE_IDENTITY, false, block_stride, 1);

  const int och_step = trans_weight_0132 ? DIM : per_mvin;
  const int kch_step = trans_weight_0132 ? per_mvin : DIM;

  for (int och = 0; och < t->ochs; och += och_step)
    for (int krow = 0; krow < t->krows; krow++)
      for (int kcol = 0; kcol < t->kcols; kcol++)
        for (int kch = 0; kch < t->kchs; kch += kch_step) {
          int rows, cols;
          uint32_t row;
          const elem_t *src;
          if (trans_weight_0132) {
            rows = gemmini_conv_min_(t->ochs - och, DIM);
            cols = gemmini_conv_min_(t->kchs - kch, per_mvin);
            row = t->b_start + (kch / DIM) * kpix * t->ochs + (krow * t->kcols + kcol) * t->ochs + och;
          } else {
            rows = gemmini_conv_min_(t->kchs - kch, DIM);
            cols = gemmini_conv_min_(t->ochs - och, per_mvin);
            row = t->b_start + (och / DIM) * kpix * t->kchs + (krow * t->kcols + kcol) * t->kchs + kch;
          }

          if (dw)
            src = weights + krow * kernel_dim + kcol;
          else if (trans_weight_1203)
            src = weights + ((size_t)kch * kernel_dim * kernel_dim + (size_t)krow * kernel_dim + kcol) * out_channels + och;
          else if (trans_weight_0132)
            src = weights + ((size_t)krow * kernel_dim * out_channels + (size_t)kcol * out_channels + och) * in_channels + kch;
          else
            src = weights + ((size_t)krow * kernel_dim * in_channels + (size_t)kcol * in_channels + kch) * weight_stride + och;

          gemmini_extended_mvin2(src, row, cols, rows);
        }
}

static void gemmini_conv_sw_compute_(const struct gemmini_conv_tile_ *t,
    int stride, int kernel_dilation, int orig_upad, int orig_lpad,
    bool downsample, bool input_dilated, bool wrot180,
    bool trans_weight_0132, bool trans_input_3120) {
  const int ds = downsample ? 1 : 0;
  const int rows_ds = t->irows >> ds, cols_ds = t->icols >> ds;
  const int kpix = t->krows * t->kcols;
  const int group_rows = t->batches * t->orows * t->ocols;
  const uint32_t c_base = ((uint32_t)3 << 30) | t->c_row; /* accumulate onto the bias */

  if (trans_input_3120) {
    /* Batches are the matrix rows: consecutive input channels of one pixel
     * are irows * icols scratchpad rows apart, consecutive batches' outputs
     * orows * ocols accumulator rows apart. */
    gemmini_extended3_config_ex(WEIGHT_STATIONARY, 0, 0, 0, t->orows * t->ocols, t->irows * t->icols,
                                0, 0, true);
  }

  const int b_step = trans_input_3120 ? DIM : 1;
  const int ocol_step = trans_input_3120 ? 1 : (DIM << (input_dilated ? 1 : 0));

  for (int och = 0; och < t->ochs; och += DIM)
    for (int krow = 0; krow < t->krows; krow++)
      for (int kcol = 0; kcol < t->kcols; kcol++)
        for (int kch = 0; kch < t->kchs; kch += DIM) {
          bool first = true; /* the first compute preloads these weights */
          const int J = gemmini_conv_min_(t->ochs - och, DIM);
          const int K = gemmini_conv_min_(t->kchs - kch, DIM);
          const int wr = wrot180 ? t->krows - 1 - krow : krow;
          const int wc = wrot180 ? t->kcols - 1 - kcol : kcol;
          const uint32_t b_row = trans_weight_0132
              ? t->b_start + (kch / DIM) * kpix * t->ochs + (wr * t->kcols + wc) * t->ochs + och
              : t->b_start + (och / DIM) * kpix * t->kchs + (wr * t->kcols + wc) * t->kchs + kch;

          for (int b = 0; b < t->batches; b += b_step)
            for (int orow = 0; orow < t->orows; orow++) {
              if (input_dilated && (krow * kernel_dilation + orow * stride - orig_upad) % 2 != 0)
                continue; /* this kernel row only meets inserted zeros */

              for (int ocol = 0; ocol < t->ocols;) {
                if (input_dilated && (kcol + ocol * stride - orig_lpad) % 2 != 0) {
                  ocol++;
                  continue;
                }

                int irow = orow * stride + krow * kernel_dilation;
                int icol = ocol * stride + kcol * kernel_dilation;
                if (input_dilated) {
                  irow = (irow + 1) / 2;
                  icol = (icol + 1) / 2;
                }

                int I;
                if (trans_input_3120) {
                  I = gemmini_conv_min_(t->batches - b, DIM);
                } else {
                  I = gemmini_conv_min_(t->ocols - ocol, DIM << (input_dilated ? 1 : 0));
                  if (input_dilated)
                    I = (I + 1) / 2;
                }

                const uint32_t a_row = trans_input_3120
                    ? t->a_start + (b / DIM) * t->kchs * rows_ds * cols_ds + kch * rows_ds * cols_ds +
                          (irow >> ds) * cols_ds + (icol >> ds)
                    : t->a_start + (kch / DIM) * t->batches * rows_ds * cols_ds + b * rows_ds * cols_ds +
                          (irow >> ds) * cols_ds + (icol >> ds);
                const uint32_t c_addr = c_base + (och / DIM) * group_rows + (b * t->orows + orow) * t->ocols + ocol;

                gemmini_extended_preload(first ? b_row : GARBAGE_ADDR, c_addr, J, K, J, I);
                if (first) {
                  gemmini_extended_compute_preloaded(a_row, GARBAGE_ADDR, K, I, J, I);
                } else {
                  gemmini_extended_compute_accumulated(a_row, GARBAGE_ADDR, K, I, J, I);
                }
                first = false;
                ocol += ocol_step;
              }
            }
        }
}

static void gemmini_conv_sw_store_(const struct gemmini_conv_tile_ *t, elem_t *output,
    int batch_size, int out_channels, int out_row_dim, int out_col_dim, int out_stride,
    int pool_out_row_dim, int pool_out_col_dim,
    int pool_size, int pool_stride, int porows, int pocols, int pupad, int plpad,
    int act, acc_scale_t scale, bool no_pool, bool trans_output_1203) {
  const int group_rows = t->batches * t->orows * t->ocols;
  const uint32_t c_base = ((uint32_t)1 << 31) | t->c_row;

  if (no_pool) {
    for (int b = 0; b < t->batches; b++)
      for (int orow = 0; orow < t->orows; orow++)
        for (int ocol = 0; ocol < t->ocols; ocol += DIM) {
          const int rows = gemmini_conv_min_(t->ocols - ocol, DIM);
          for (int och = 0; och < t->ochs; och += DIM) {
            const int cols = gemmini_conv_min_(t->ochs - och, DIM);
            const uint32_t c_addr = c_base + (och / DIM) * group_rows + (b * t->orows + orow) * t->ocols + ocol;
            elem_t *dst = trans_output_1203
                ? output + ((size_t)orow * out_col_dim * batch_size + (size_t)ocol * batch_size + b) * out_channels + och
                : output + ((size_t)b * out_row_dim * out_col_dim + (size_t)orow * out_col_dim + ocol) * out_stride + och;
            gemmini_extended_mvout(dst, c_addr, cols, rows);
          }
        }
    return;
  }

  /* Pooled: the store unit sweeps the pool windows itself. Its output row
   * pitch is pool_out_col_dim pixels of out_stride elements. */
  gemmini_extended2_config_st((size_t)out_stride * sizeof(elem_t), act, scale,
                              pool_stride, pool_size, pool_out_col_dim,
                              porows, pocols, t->orows, t->ocols, pupad, plpad);
  for (int b = 0; b < t->batches; b++)
    for (int poch = 0; poch < t->ochs; poch += DIM) {
      const int cols = gemmini_conv_min_(t->ochs - poch, DIM);
      elem_t *dst = output + (size_t)b * pool_out_row_dim * pool_out_col_dim * out_stride + poch;
      const uint32_t c_addr = c_base + (poch / DIM) * group_rows + b * t->orows * t->ocols;
      /* The pooled extent comes from config_st; rows is not used for it
       * (Gemmini's library passes 0, we pass a legal DIM). */
      gemmini_extended_mvout(dst, c_addr, cols, DIM);
    }
  gemmini_extended_config_st((size_t)out_stride * sizeof(elem_t), act, scale);
}

/* ------------------------------------------------------------------------ */
/* One tile.                                                                 */

/* input, weights, output and bias point at the tile's first element (NULL:
 * skip that phase: keep the loaded inputs or weights, keep accumulating
 * without a store, or add onto what the accumulator holds). lpad..dpad is
 * the input padding of this tile and plpad..pdpad the pooling padding. */
static void sp_tiled_conv(
    int batch_size, int in_row_dim, int in_col_dim, int in_channels,
    int out_channels, int out_row_dim, int out_col_dim,
    int pool_out_row_dim, int pool_out_col_dim,

    int stride, int padding, int kernel_dim, int kernel_dilation,
    int in_stride, int weight_stride, int out_stride,

    int pool_size, int pool_stride, int pool_padding,

    int batches,
    int porows, int pocols, int pochs,
    int krows, int kcols, int kchs,

    int lpad, int rpad, int upad, int dpad,
    int plpad, int prpad, int pupad, int pdpad,

    const elem_t *input,
    const elem_t *weights,
    elem_t *output,
    const acc_t *bias,

    int act, acc_scale_t scale,

    bool wrot180, bool trans_output_1203, bool trans_input_3120,
    bool trans_weight_1203, bool trans_weight_0132,

    bool no_bias, bool no_pool, bool downsample, bool input_dilated,
    bool dw, int a_spad_id, int b_spad_id) {

  if (dw) {
    kchs = 1;
    pochs = 1;
  }

  const int orows = porows * pool_stride + pool_size - 1 - pupad - pdpad;
  const int ocols = pocols * pool_stride + pool_size - 1 - plpad - prpad;
  const int dkrows = krows + (kernel_dilation - 1) * (krows - 1);
  const int dkcols = kcols + (kernel_dilation - 1) * (kcols - 1);

  int irows = orows * stride + dkrows - 1;
  int icols = ocols * stride + dkcols - 1;
  int irows_unpadded = irows - upad - dpad;
  int icols_unpadded = icols - lpad - rpad;
  int u_upad = upad, u_dpad = dpad, u_lpad = lpad, u_rpad = rpad;
  if (input_dilated) {
    u_upad = (upad + 1) / 2;
    u_dpad = (dpad + 1) / 2;
    u_lpad = (lpad + 1) / 2;
    u_rpad = (rpad + 1) / 2;
    irows_unpadded = (irows_unpadded + 1) / 2;
    icols_unpadded = (icols_unpadded + 1) / 2;
    irows = irows_unpadded + u_upad + u_dpad;
    icols = icols_unpadded + u_lpad + u_rpad;
  }

#ifdef HAS_LOOP_CONV
  /* loop_conv_ws (v0.7) knows square images and dense tensors only (its
   * strides are in_channels and out_channels, and it has no depthwise
   * addressing); anything else runs as the software loop below. */
  const bool loop_ok = !dw && in_row_dim == in_col_dim && out_row_dim == out_col_dim &&
                       pool_out_row_dim == pool_out_col_dim && in_stride == in_channels &&
                       weight_stride == out_channels && out_stride == out_channels;
  if (loop_ok) {
    /* Several kernel columns share one array row when the input has few
     * channels (Gemmini's first-layer optimization). */
    int max_pixels_per_row = 1;
#ifdef HAS_FIRST_LAYER_OPTIMIZATIONS
    {
      const bool transposed = trans_output_1203 || trans_input_3120 || trans_weight_1203 || trans_weight_0132;
      if (!(transposed || wrot180 || downsample || input_dilated || kernel_dilation > 1 || kchs > DIM))
        max_pixels_per_row = DIM / kchs;
      if (max_pixels_per_row > kcols)
        max_pixels_per_row = kcols;
    }
#endif
    (void)a_spad_id;
    (void)b_spad_id;
    gemmini_loop_conv_ws(batch_size, in_row_dim, in_channels, out_channels, out_row_dim, pool_out_row_dim,
        stride, padding, kernel_dim, kernel_dilation, pool_size, pool_stride, pool_padding,
        batches, porows, pocols, pochs, krows, kcols, kchs,
        lpad, rpad, upad, dpad, plpad, prpad, pupad, pdpad,
        orows, ocols,
        weights, output, bias, input,
        no_bias, no_pool, downsample, wrot180, input_dilated, act,
        trans_output_1203, trans_weight_1203, trans_weight_0132, trans_input_3120,
        max_pixels_per_row, dw);
    return;
  }
#endif
  (void)padding;
  (void)pool_padding;
  (void)a_spad_id;
  (void)b_spad_id;

  struct gemmini_conv_tile_ t;
  t.batches = batches;
  t.orows = orows;
  t.ocols = ocols;
  t.ochs = pochs;
  t.krows = krows;
  t.kcols = kcols;
  t.kchs = kchs;
  t.irows = irows;
  t.icols = icols;
  t.irows_unpadded = irows_unpadded;
  t.icols_unpadded = icols_unpadded;
  t.upad = u_upad;
  t.dpad = u_dpad;
  t.lpad = u_lpad;
  t.rpad = u_rpad;

  const int b_rows = trans_weight_0132 ? gemmini_conv_groups_(kchs) * krows * kcols * pochs
                                       : gemmini_conv_groups_(pochs) * krows * kcols * kchs;
  t.a_start = 0;
  t.b_start = BANK_NUM * BANK_ROWS - b_rows;
  t.c_row = gemmini_conv_acc_half_row_;

  if (bias != NULL)
    gemmini_conv_sw_load_bias_(&t, bias, no_bias);
  if (input != NULL)
    gemmini_conv_sw_load_input_(&t, input, batch_size, in_row_dim, in_col_dim, in_stride,
                                downsample, trans_input_3120);
  if (weights != NULL)
    gemmini_conv_sw_load_weights_(&t, weights, in_channels, out_channels, kernel_dim, weight_stride,
                                  trans_weight_1203, trans_weight_0132, dw);

  gemmini_conv_sw_compute_(&t, stride, kernel_dilation, upad, lpad,
                           downsample, input_dilated, wrot180, trans_weight_0132, trans_input_3120);

  if (output != NULL) {
    gemmini_conv_sw_store_(&t, output, batch_size, out_channels, out_row_dim, out_col_dim, out_stride,
                           pool_out_row_dim, pool_out_col_dim, pool_size, pool_stride,
                           porows, pocols, pupad, plpad, act, scale, no_pool, trans_output_1203);
    gemmini_conv_acc_half_row_ = (gemmini_conv_acc_half_row_ + ACC_ROWS / 2) % ACC_ROWS;
  }
}

/* ------------------------------------------------------------------------ */
/* Tilers.                                                                   */

static void tiled_conv(
    int batch_size,
    int in_row_dim, int in_col_dim, int in_channels,
    int out_channels, int out_row_dim, int out_col_dim,
    int stride, int input_dilation, int kernel_dilation, int padding, int kernel_dim,
    int in_stride, int weight_stride, int out_stride,
    bool wrot180, bool trans_output_1203, bool trans_input_3120,
    bool trans_weight_1203, bool trans_weight_0132,

    int batches,
    int porows, int pocols, int pochs,
    int krows, int kcols, int kchs,

    const elem_t *input,
    const elem_t *weights,
    const acc_t *bias,
    elem_t *output,

    int act, acc_scale_t scale,
    int pool_size, int pool_stride, int pool_padding,

    enum tiled_matmul_type_t tiled_conv_type) {

#ifdef GEMMINI_ASSERTIONS
  if (trans_weight_1203 && trans_weight_0132) {
    printf("Only one weight transformation can be applied at a time\n");
    exit(1);
  }
#endif

  if (tiled_conv_type == CPU) {
    if (pool_size == 1 && pool_stride == 1 && pool_padding == 0)
      pool_stride = 0; /* a 1x1 pool is no pool */
    conv_cpu(batch_size, in_row_dim, in_col_dim, in_channels,
        out_channels, out_row_dim, out_col_dim,
        stride, input_dilation, kernel_dilation, padding, kernel_dim,
        in_stride, weight_stride, out_stride,
        wrot180, trans_output_1203, trans_input_3120, trans_weight_1203, trans_weight_0132,
        input, weights, bias, output, act, scale, pool_size, pool_stride, pool_padding);
    return;
  }
  if (tiled_conv_type == OS) {
    printf("Gemmini convs do not currently support OS\n");
    exit(1);
  }

  /* Without a bias, tiles still load (zero) bias rows: a non-NULL stand-in
   * marks the first tile of each output block. */
  const bool no_bias = bias == NULL;
  if (no_bias)
    bias = (const acc_t *)1;

  const bool no_pool = pool_stride == 0;
  if (no_pool) {
    pool_size = 1;
    pool_stride = 1;
    pool_padding = 0;
  }

  const bool downsample = stride == 2 && kernel_dim == 1 && padding == 0 && no_pool &&
                          in_row_dim % 2 == 0 && in_col_dim % 2 == 0 &&
                          input_dilation == 1 && !trans_input_3120;
  const bool input_dilated = input_dilation == 2;

#ifdef GEMMINI_ASSERTIONS
  {
    const int spad_rows = tiled_conv_total_spad_rows(false, stride, input_dilation, kernel_dilation,
        downsample, trans_weight_0132, trans_input_3120,
        batches, porows, pocols, pochs, krows, kcols, kchs, pool_size, pool_stride);
    const int acc_rows = tiled_conv_total_spad_rows(true, stride, input_dilation, kernel_dilation,
        downsample, trans_weight_0132, trans_input_3120,
        batches, porows, pocols, pochs, krows, kcols, kchs, pool_size, pool_stride);
    if (spad_rows > BANK_NUM * BANK_ROWS / 2) {
      printf("not enough scratchpad space to store inputs and weights, %d\n", spad_rows);
      exit(1);
    }
    if (acc_rows > ACC_ROWS / 2) {
      printf("not enough accumulator space to store outputs\n");
      exit(1);
    }
    if (kernel_dim <= padding) {
      printf("kernel_dim must be larger than padding\n");
      exit(1);
    }
    if (input_dilation > 2) {
      printf("input_dilation > 2 is only supported on CPU\n");
      exit(1);
    }
    if (input_dilation > 1 && stride > 1) {
      printf("input input_dilation is only supported when stride == 1\n");
      exit(1);
    }
    if (trans_output_1203 && !no_pool) {
      printf("Output can only be transposed when pooling is disabled\n");
      exit(1);
    }
    if (trans_input_3120 && trans_weight_0132) {
      printf("Cannot transpose innermost dimensions of both inputs and weights on WS.\n");
      exit(1);
    }
  }
#endif

  /* Store: activation and scale for every tile; the row pitch of the output. */
  const size_t st_stride = trans_output_1203 ? (size_t)batch_size * out_channels * sizeof(elem_t)
                                             : (size_t)out_stride * sizeof(elem_t);
  gemmini_extended_config_st(st_stride, act, scale);

  /* Execute: WS; the array steps `stride` input pixels between output
   * pixels (1 once downsampling has dropped every other column) and writes
   * every input_dilation-th accumulator row. */
  gemmini_extended3_config_ex(WEIGHT_STATIONARY, 0, 0, 0, input_dilation, stride >> downsample,
                              trans_input_3120, trans_weight_0132, false);

  const int pool_out_row_dim = gemmini_conv_pooled_dim_(out_row_dim, pool_size, pool_stride, pool_padding);
  const int pool_out_col_dim = gemmini_conv_pooled_dim_(out_col_dim, pool_size, pool_stride, pool_padding);
  const int dilated_in_row_dim = in_row_dim + (input_dilation - 1) * (in_row_dim - 1);
  const int dilated_in_col_dim = in_col_dim + (input_dilation - 1) * (in_col_dim - 1);

  /* Every tile loads its own inputs and weights: v0.7's loop_conv_ws has
   * no scratchpad ids to keep two of them apart, and neither has the
   * software loop. */
  for (int b = 0; b < batch_size; b += batches)
    for (int porow = 0; porow < pool_out_row_dim; porow += porows) {
      const int orow = porow * pool_stride - pool_padding;
      for (int pocol = 0; pocol < pool_out_col_dim; pocol += pocols) {
        const int ocol = pocol * pool_stride - pool_padding;
        for (int poch = 0; poch < out_channels; poch += pochs)
          for (int krow = 0; krow < kernel_dim; krow += krows) {
            const int irow = (orow < 0 ? 0 : orow) * stride + krow * kernel_dilation - padding;
            for (int kcol = 0; kcol < kernel_dim; kcol += kcols) {
              const int icol = (ocol < 0 ? 0 : ocol) * stride + kcol * kernel_dilation - padding;
              for (int kch = 0; kch < in_channels; kch += kchs) {
                /* Only the last kernel tile of an output block stores it... */
                elem_t *out = NULL;
                if (krow + krows >= kernel_dim && kcol + kcols >= kernel_dim && kch + kchs >= in_channels) {
                  out = trans_output_1203
                      ? output + ((size_t)porow * pool_out_col_dim * batch_size + (size_t)pocol * batch_size + b) * out_channels + poch
                      : output + ((size_t)b * pool_out_row_dim * pool_out_col_dim + (size_t)porow * pool_out_col_dim + pocol) * out_stride + poch;
                }
                /* ...and only the first one loads the bias. */
                const acc_t *bias_ = (krow == 0 && kcol == 0 && kch == 0) ? bias + poch : NULL;

                const int batches_ = gemmini_conv_min_(batch_size - b, batches);
                const int porows_ = gemmini_conv_min_(pool_out_row_dim - porow, porows);
                const int pocols_ = gemmini_conv_min_(pool_out_col_dim - pocol, pocols);
                const int pochs_ = gemmini_conv_min_(out_channels - poch, pochs);
                const int krows_ = gemmini_conv_min_(kernel_dim - krow, krows);
                const int kcols_ = gemmini_conv_min_(kernel_dim - kcol, kcols);
                const int kchs_ = gemmini_conv_min_(in_channels - kch, kchs);

                const int ocols_ = pocols_ * pool_stride + pool_size - 1;
                const int orows_ = porows_ * pool_stride + pool_size - 1;

                const int plpad = ocol < 0 ? -ocol : 0;
                const int prpad = ocol + ocols_ > out_col_dim ? ocol + ocols_ - out_col_dim : 0;
                const int pupad = orow < 0 ? -orow : 0;
                const int pdpad = orow + orows_ > out_row_dim ? orow + orows_ - out_row_dim : 0;

                const int dkrows_ = krows_ + (kernel_dilation - 1) * (krows_ - 1);
                const int dkcols_ = kcols_ + (kernel_dilation - 1) * (kcols_ - 1);
                const int icols_ = (ocols_ - plpad - prpad) * stride + dkcols_ - 1;
                const int irows_ = (orows_ - pupad - pdpad) * stride + dkrows_ - 1;

                int lpad = icol < 0 ? -icol : 0;
                int rpad = icol + icols_ > dilated_in_col_dim ? icol + icols_ - dilated_in_col_dim : 0;
                int upad = irow < 0 ? -irow : 0;
                int dpad = irow + irows_ > dilated_in_row_dim ? irow + irows_ - dilated_in_row_dim : 0;
                if (input_dilated) {
                  /* Start and end the tile on a real (even) input row/col. */
                  lpad += lpad == 0 && icol % 2 != 0;
                  rpad += rpad == 0 && (icol + icols_) % 2 != 1;
                  upad += upad == 0 && irow % 2 != 0;
                  dpad += dpad == 0 && (irow + irows_) % 2 != 1;
                }

                int wkrow = krow, wkcol = kcol;
                if (wrot180) {
                  wkrow = kernel_dim - krow - krows_;
                  wkcol = kernel_dim - kcol - kcols_;
                }

                const elem_t *w;
                if (trans_weight_1203)
                  w = weights + ((size_t)kch * kernel_dim * kernel_dim + (size_t)wkrow * kernel_dim + wkcol) * out_channels + poch;
                else if (trans_weight_0132)
                  w = weights + ((size_t)wkrow * kernel_dim * out_channels + (size_t)wkcol * out_channels + poch) * in_channels + kch;
                else
                  w = weights + ((size_t)wkrow * kernel_dim * in_channels + (size_t)wkcol * in_channels + kch) * weight_stride + poch;

                const int in_r = (irow + upad) >> (input_dilated ? 1 : 0);
                const int in_c = (icol + lpad) >> (input_dilated ? 1 : 0);
                const elem_t *in = trans_input_3120
                    ? input + ((size_t)kch * in_row_dim * in_col_dim + (size_t)in_r * in_col_dim + in_c) * batch_size + b
                    : input + ((size_t)b * in_row_dim * in_col_dim + (size_t)in_r * in_col_dim + in_c) * in_stride + kch;

                sp_tiled_conv(batch_size, in_row_dim, in_col_dim, in_channels,
                    out_channels, out_row_dim, out_col_dim,
                    pool_out_row_dim, pool_out_col_dim,
                    stride, padding, kernel_dim, kernel_dilation,
                    in_stride, weight_stride, out_stride,
                    pool_size, pool_stride, pool_padding,
                    batches_, porows_, pocols_, pochs_, krows_, kcols_, kchs_,
                    lpad, rpad, upad, dpad, plpad, prpad, pupad, pdpad,
                    in, w, out, bias_,
                    act, scale,
                    wrot180, trans_output_1203, trans_input_3120, trans_weight_1203, trans_weight_0132,
                    no_bias, no_pool, downsample, input_dilated,
                    false, 0, 0);
              }
            }
          }
      }
    }
}

static void tiled_conv_dw(
    int batch_size, int in_row_dim, int in_col_dim,
    int channels, int out_row_dim, int out_col_dim,
    int stride, int padding, int kernel_dim,

    int batches,
    int porows, int pocols,
    int krows, int kcols,

    const elem_t *input,
    const elem_t *weights,
    const acc_t *bias,
    elem_t *output,

    int act, acc_scale_t scale,
    int pool_size, int pool_stride, int pool_padding,

    enum tiled_matmul_type_t tiled_conv_type) {

  if (tiled_conv_type == CPU) {
    if (pool_size == 1 && pool_stride == 1 && pool_padding == 0)
      pool_stride = 0;
    conv_dw_cpu(batch_size, in_row_dim, in_col_dim, channels, out_row_dim, out_col_dim,
        stride, padding, kernel_dim, input, weights, bias, output,
        act, scale, pool_size, pool_stride, pool_padding);
    return;
  }
  if (tiled_conv_type == OS) {
    printf("Gemmini convs do not currently support OS\n");
    exit(1);
  }

  const bool no_bias = bias == NULL;
  if (no_bias)
    bias = (const acc_t *)1;

  const bool no_pool = pool_stride == 0;
  if (no_pool) {
    pool_size = 1;
    pool_stride = 1;
    pool_padding = 0;
  }

#ifdef GEMMINI_ASSERTIONS
  {
    const int spad_rows = tiled_conv_total_spad_rows(false, stride, 1, 1, false, false, false,
        batches, porows, pocols, 1, krows, kcols, 1, pool_size, pool_stride);
    const int acc_rows = tiled_conv_total_spad_rows(true, stride, 1, 1, false, false, false,
        batches, porows, pocols, 1, krows, kcols, 1, pool_size, pool_stride);
    if (spad_rows > BANK_NUM * BANK_ROWS / 2) {
      printf("not enough scratchpad space to store inputs and weights, %d\n", spad_rows);
      exit(1);
    }
    if (acc_rows > ACC_ROWS / 2) {
      printf("not enough accumulator space to store outputs\n");
      exit(1);
    }
    if (kernel_dim <= padding) {
      printf("kernel_dim must be larger than padding\n");
      exit(1);
    }
  }
#endif

  gemmini_extended_config_st((size_t)channels * sizeof(elem_t), act, scale);
  gemmini_extended3_config_ex(WEIGHT_STATIONARY, 0, 0, 0, 1, stride, false, false, false);

  const int pool_out_row_dim = gemmini_conv_pooled_dim_(out_row_dim, pool_size, pool_stride, pool_padding);
  const int pool_out_col_dim = gemmini_conv_pooled_dim_(out_col_dim, pool_size, pool_stride, pool_padding);

  /* One channel at a time: a 1 x 1 matmul per output pixel run. */
  for (int b = 0; b < batch_size; b += batches)
    for (int porow = 0; porow < pool_out_row_dim; porow += porows) {
      const int orow = porow * pool_stride - pool_padding;
      for (int pocol = 0; pocol < pool_out_col_dim; pocol += pocols) {
        const int ocol = pocol * pool_stride - pool_padding;
        for (int ch = 0; ch < channels; ch++)
          for (int krow = 0; krow < kernel_dim; krow += krows) {
            const int irow = (orow < 0 ? 0 : orow) * stride + krow - padding;
            for (int kcol = 0; kcol < kernel_dim; kcol += kcols) {
              const int icol = (ocol < 0 ? 0 : ocol) * stride + kcol - padding;

              elem_t *out = NULL;
              if (krow + krows >= kernel_dim && kcol + kcols >= kernel_dim)
                out = output + ((size_t)b * pool_out_row_dim * pool_out_col_dim + (size_t)porow * pool_out_col_dim + pocol) * channels + ch;
              const acc_t *bias_ = (krow == 0 && kcol == 0) ? bias + ch : NULL;

              const int batches_ = gemmini_conv_min_(batch_size - b, batches);
              const int porows_ = gemmini_conv_min_(pool_out_row_dim - porow, porows);
              const int pocols_ = gemmini_conv_min_(pool_out_col_dim - pocol, pocols);
              const int krows_ = gemmini_conv_min_(kernel_dim - krow, krows);
              const int kcols_ = gemmini_conv_min_(kernel_dim - kcol, kcols);

              const int ocols_ = pocols_ * pool_stride + pool_size - 1;
              const int orows_ = porows_ * pool_stride + pool_size - 1;

              const int plpad = ocol < 0 ? -ocol : 0;
              const int prpad = ocol + ocols_ > out_col_dim ? ocol + ocols_ - out_col_dim : 0;
              const int pupad = orow < 0 ? -orow : 0;
              const int pdpad = orow + orows_ > out_row_dim ? orow + orows_ - out_row_dim : 0;

              const int icols_ = (ocols_ - plpad - prpad) * stride + kcols_ - 1;
              const int irows_ = (orows_ - pupad - pdpad) * stride + krows_ - 1;

              const int lpad = icol < 0 ? -icol : 0;
              const int rpad = icol + icols_ > in_col_dim ? icol + icols_ - in_col_dim : 0;
              const int upad = irow < 0 ? -irow : 0;
              const int dpad = irow + irows_ > in_row_dim ? irow + irows_ - in_row_dim : 0;

              const elem_t *w = weights + ((size_t)ch * kernel_dim + krow) * kernel_dim + kcol;
              const elem_t *in = input + ((size_t)b * in_row_dim * in_col_dim + (size_t)(irow + upad) * in_col_dim + (icol + lpad)) * channels + ch;

              sp_tiled_conv(batch_size, in_row_dim, in_col_dim, channels,
                  channels, out_row_dim, out_col_dim,
                  pool_out_row_dim, pool_out_col_dim,
                  stride, padding, kernel_dim, 1,
                  channels, 1, channels,
                  pool_size, pool_stride, pool_padding,
                  batches_, porows_, pocols_, 1, krows_, kcols_, 1,
                  lpad, rpad, upad, dpad, plpad, prpad, pupad, pdpad,
                  in, w, out, bias_,
                  act, scale,
                  false, false, false, false, false,
                  no_bias, no_pool, false, false,
                  true, 0, 0);
            }
          }
      }
    }
}

/* ------------------------------------------------------------------------ */
/* Auto-tiling front ends.                                                   */

/* Tiling factors in the order of the tilers' arguments. */
enum {
  GEMMINI_CONV_T_BATCHES_, GEMMINI_CONV_T_POROWS_, GEMMINI_CONV_T_POCOLS_, GEMMINI_CONV_T_POCHS_,
  GEMMINI_CONV_T_KROWS_, GEMMINI_CONV_T_KCOLS_, GEMMINI_CONV_T_KCHS_, GEMMINI_CONV_T_N_
};

struct gemmini_conv_fit_ {
  int stride, input_dilation, kernel_dilation;
  bool downsample, trans_weight_0132, trans_input_3120;
  int pool_size, pool_stride;
};

/* Does a tile of sizes t fit in half the scratchpad and half the
 * accumulator (the other halves belong to the tile in flight)? */
static bool gemmini_conv_fits_(const struct gemmini_conv_fit_ *f, const int t[GEMMINI_CONV_T_N_]) {
  const int spad = tiled_conv_total_spad_rows(false, f->stride, f->input_dilation, f->kernel_dilation,
      f->downsample, f->trans_weight_0132, f->trans_input_3120,
      t[0], t[1], t[2], t[3], t[4], t[5], t[6], f->pool_size, f->pool_stride);
  const int acc = tiled_conv_total_spad_rows(true, f->stride, f->input_dilation, f->kernel_dilation,
      f->downsample, f->trans_weight_0132, f->trans_input_3120,
      t[0], t[1], t[2], t[3], t[4], t[5], t[6], f->pool_size, f->pool_stride);
  return spad <= BANK_NUM * BANK_ROWS / 2 && acc <= ACC_ROWS / 2;
}

/* Gemmini's tiling search: start from the whole convolution; while it does
 * not fit, shrink the largest factor (channels by a DIM step, never ocols
 * below DIM while orows can still give); then grow ocols, then any factor,
 * one at a time while it still fits. `chan_mask` says which factors are
 * channel counts (stepped by DIM). */
static void gemmini_conv_choose_tiles_(const struct gemmini_conv_fit_ *f,
    int t[GEMMINI_CONV_T_N_], const int max_t[GEMMINI_CONV_T_N_], unsigned chan_mask) {
  while (!gemmini_conv_fits_(f, t)) {
    int big = -1, big_val = -1;
    for (int i = 0; i < GEMMINI_CONV_T_N_; i++) {
      const bool keep_ocols = i == GEMMINI_CONV_T_POCOLS_ && t[i] <= DIM && t[GEMMINI_CONV_T_POROWS_] > 1;
      if (!keep_ocols && t[i] > big_val) {
        big_val = t[i];
        big = i;
      }
    }
    if (chan_mask & (1u << big)) {
      t[big] = t[big] % DIM != 0 ? (t[big] / DIM) * DIM : t[big] - DIM;
      if (t[big] == 0)
        t[big] = 1;
    } else {
      t[big]--;
    }
  }

  for (bool grew = true; grew;) {
    grew = false;
    int cand[GEMMINI_CONV_T_N_];
    for (int i = 0; i < GEMMINI_CONV_T_N_; i++)
      cand[i] = t[i];
    cand[GEMMINI_CONV_T_POCOLS_]++;
    if (cand[GEMMINI_CONV_T_POCOLS_] <= max_t[GEMMINI_CONV_T_POCOLS_] && gemmini_conv_fits_(f, cand)) {
      t[GEMMINI_CONV_T_POCOLS_] = cand[GEMMINI_CONV_T_POCOLS_];
      grew = true;
    }
  }

  for (bool grew = true; grew;) {
    grew = false;
    for (int i = 0; i < GEMMINI_CONV_T_N_; i++) {
      int cand[GEMMINI_CONV_T_N_];
      for (int k = 0; k < GEMMINI_CONV_T_N_; k++)
        cand[k] = t[k];
      cand[i]++;
      if (cand[i] <= max_t[i] && gemmini_conv_fits_(f, cand)) {
        t[i] = cand[i];
        grew = true;
      }
    }
  }

#if defined(PRINT_TILE) && PRINT_TILE
  printf("batches = %d\norows   = %d\nocols   = %d\nochs    = %d\nkrows   = %d\nkcols   = %d\nkchs    = %d\n\n",
         t[0], t[1], t[2], t[3], t[4], t[5], t[6]);
#endif
}

/* in_stride, weight_stride and out_stride are the row pitches (in elements)
 * of the input pixels, the weight matrix rows and the output pixels. */
static void tiled_conv_stride_auto(
    int batch_size, int in_row_dim, int in_col_dim, int in_channels,
    int out_channels, int out_row_dim, int out_col_dim,
    int stride, int input_dilation, int kernel_dilation, int padding, int kernel_dim,
    int in_stride, int weight_stride, int out_stride,
    bool wrot180, bool trans_output_1203, bool trans_input_3120,
    bool trans_weight_1203, bool trans_weight_0132,

    const elem_t *input,
    const elem_t *weights,
    const acc_t *bias,
    elem_t *output,

    int act, acc_scale_t scale,
    int pool_size, int pool_stride, int pool_padding,

    enum tiled_matmul_type_t tiled_conv_type) {

  const bool no_pool = pool_stride == 0;
  if (no_pool) {
    pool_size = 1;
    pool_stride = 1;
    pool_padding = 0;
  }

  const int pool_out_row_dim = gemmini_conv_pooled_dim_(out_row_dim, pool_size, pool_stride, pool_padding);
  const int pool_out_col_dim = gemmini_conv_pooled_dim_(out_col_dim, pool_size, pool_stride, pool_padding);

  struct gemmini_conv_fit_ f;
  f.stride = stride;
  f.input_dilation = input_dilation;
  f.kernel_dilation = kernel_dilation;
  f.downsample = stride == 2 && kernel_dim == 1 && padding == 0 && no_pool &&
                 in_row_dim % 2 == 0 && in_col_dim % 2 == 0;
  f.trans_weight_0132 = trans_weight_0132;
  f.trans_input_3120 = trans_input_3120;
  f.pool_size = pool_size;
  f.pool_stride = pool_stride;

  const int max_t[GEMMINI_CONV_T_N_] = {batch_size, pool_out_row_dim, pool_out_col_dim, out_channels,
                                        kernel_dim, kernel_dim, in_channels};
  int t[GEMMINI_CONV_T_N_];
  for (int i = 0; i < GEMMINI_CONV_T_N_; i++)
    t[i] = max_t[i];
  gemmini_conv_choose_tiles_(&f, t, max_t, (1u << GEMMINI_CONV_T_POCHS_) | (1u << GEMMINI_CONV_T_KCHS_));

  tiled_conv(batch_size, in_row_dim, in_col_dim, in_channels,
      out_channels, out_row_dim, out_col_dim,
      stride, input_dilation, kernel_dilation, padding, kernel_dim,
      in_stride, weight_stride, out_stride,
      wrot180, trans_output_1203, trans_input_3120, trans_weight_1203, trans_weight_0132,
      t[0], t[1], t[2], t[3], t[4], t[5], t[6],
      input, weights, bias, output,
      act, scale, pool_size, no_pool ? 0 : pool_stride, pool_padding,
      tiled_conv_type);
}

static void tiled_conv_auto(
    int batch_size, int in_row_dim, int in_col_dim, int in_channels,
    int out_channels, int out_row_dim, int out_col_dim,
    int stride, int input_dilation, int kernel_dilation, int padding, int kernel_dim,
    bool wrot180, bool trans_output_1203, bool trans_input_3120,
    bool trans_weight_1203, bool trans_weight_0132,

    const elem_t *input,
    const elem_t *weights,
    const acc_t *bias,
    elem_t *output,

    int act, acc_scale_t scale,
    int pool_size, int pool_stride, int pool_padding,

    enum tiled_matmul_type_t tiled_conv_type) {
  /* Dense tensors: each pixel's channels, and each weight row, packed. */
  tiled_conv_stride_auto(batch_size, in_row_dim, in_col_dim, in_channels,
      out_channels, out_row_dim, out_col_dim,
      stride, input_dilation, kernel_dilation, padding, kernel_dim,
      in_channels, out_channels, out_channels,
      wrot180, trans_output_1203, trans_input_3120, trans_weight_1203, trans_weight_0132,
      input, weights, bias, output,
      act, scale, pool_size, pool_stride, pool_padding,
      tiled_conv_type);
}

/* A 1x1 convolution with stride 2, no padding and no pooling, as one matmul
 * per even input row (every other pixel of it), with a repeating bias. */
static void tiled_conv_downsample(
    int batch_size, int in_row_dim, int in_col_dim, int in_channels,
    int out_channels, int out_row_dim, int out_col_dim,
    int in_stride, int weight_stride, int out_stride,

    const elem_t *input,
    const elem_t *weights,
    const acc_t *bias,
    elem_t *output,

    int act, acc_scale_t scale,

    enum tiled_matmul_type_t tiled_conv_type) {

  if (in_row_dim != in_col_dim || out_row_dim != out_col_dim) {
    printf("Rectangular convolutions for tiled_conv_downsample are currently not supported.\n");
    exit(1);
  }

  for (int b = 0; b < batch_size; b++)
    for (int irow = 0; irow < in_row_dim; irow += 2) {
      const int orow = irow / 2;
      const elem_t *A = input + ((size_t)b * in_row_dim + irow) * in_col_dim * in_stride;
      elem_t *C = output + ((size_t)b * out_row_dim + orow) * out_col_dim * out_stride;
      tiled_matmul_auto(in_col_dim / 2, out_channels, in_channels,
          A, weights, (const void *)bias, (void *)C,
          in_stride * 2, weight_stride, out_stride, out_stride,
          MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY, MVIN_SCALE_IDENTITY,
          act, scale, 0,
          true, false, false, false, false, 0, tiled_conv_type);
    }
}

/* Depthwise (one filter per channel) convolution; weights [channel][krow][kcol]. */
static void tiled_conv_dw_auto(
    int batch_size, int in_row_dim, int in_col_dim,
    int channels, int out_row_dim, int out_col_dim,
    int stride, int padding, int kernel_dim,

    elem_t *input,
    elem_t *weights,
    acc_t *bias,
    elem_t *output,

    int act, acc_scale_t scale,
    int pool_size, int pool_stride, int pool_padding,

    enum tiled_matmul_type_t tiled_conv_type) {

  const bool no_pool = pool_stride == 0;
  if (no_pool) {
    pool_size = 1;
    pool_stride = 1;
    pool_padding = 0;
  }

  const int pool_out_row_dim = gemmini_conv_pooled_dim_(out_row_dim, pool_size, pool_stride, pool_padding);
  const int pool_out_col_dim = gemmini_conv_pooled_dim_(out_col_dim, pool_size, pool_stride, pool_padding);

  struct gemmini_conv_fit_ f;
  f.stride = stride;
  f.input_dilation = 1;
  f.kernel_dilation = 1;
  f.downsample = false;
  f.trans_weight_0132 = false;
  f.trans_input_3120 = false;
  f.pool_size = pool_size;
  f.pool_stride = pool_stride;

  /* One channel per tile: pochs and kchs stay 1. */
  const int max_t[GEMMINI_CONV_T_N_] = {batch_size, pool_out_row_dim, pool_out_col_dim, 1,
                                        kernel_dim, kernel_dim, 1};
  int t[GEMMINI_CONV_T_N_];
  for (int i = 0; i < GEMMINI_CONV_T_N_; i++)
    t[i] = max_t[i];
  gemmini_conv_choose_tiles_(&f, t, max_t, 1u << GEMMINI_CONV_T_POCHS_);

  tiled_conv_dw(batch_size, in_row_dim, in_col_dim, channels, out_row_dim, out_col_dim,
      stride, padding, kernel_dim,
      t[GEMMINI_CONV_T_BATCHES_], t[GEMMINI_CONV_T_POROWS_], t[GEMMINI_CONV_T_POCOLS_],
      t[GEMMINI_CONV_T_KROWS_], t[GEMMINI_CONV_T_KCOLS_],
      input, weights, bias, output,
      act, scale, pool_size, no_pool ? 0 : pool_stride, pool_padding,
      tiled_conv_type);
}

/* ------------------------------------------------------------------------ */
/* Earlier square-image forms.                                               */

/* Gemmini's library had square images (one in_dim, one out_dim) before it
 * took rows and columns apart, and a relu6_shift argument before v0.7 removed
 * ReLU6. tiled_conv_auto and tiled_conv_dw_auto accept all three argument
 * lists, told apart by their length:
 *   tiled_conv_auto     27 (rows and columns), 25 (square), 26 (square, relu6_shift)
 *   tiled_conv_dw_auto  19 (rows and columns), 17 (square), 18 (square, relu6_shift)
 * relu6_shift is ignored (ReLU6 is not an activation of this Gemmini). */

static void gemmini_conv_auto_square_(
    int batch_size, int in_dim, int in_channels, int out_channels, int out_dim,
    int stride, int input_dilation, int kernel_dilation, int padding, int kernel_dim,
    bool wrot180, bool trans_output_1203, bool trans_input_3120,
    bool trans_weight_1203, bool trans_weight_0132,
    const elem_t *input, const elem_t *weights, const acc_t *bias, elem_t *output,
    int act, acc_scale_t scale, int pool_size, int pool_stride, int pool_padding,
    enum tiled_matmul_type_t tiled_conv_type) {
  tiled_conv_auto(batch_size, in_dim, in_dim, in_channels, out_channels, out_dim, out_dim,
      stride, input_dilation, kernel_dilation, padding, kernel_dim,
      wrot180, trans_output_1203, trans_input_3120, trans_weight_1203, trans_weight_0132,
      input, weights, bias, output, act, scale, pool_size, pool_stride, pool_padding, tiled_conv_type);
}

static void gemmini_conv_auto_square_relu6_(
    int batch_size, int in_dim, int in_channels, int out_channels, int out_dim,
    int stride, int input_dilation, int kernel_dilation, int padding, int kernel_dim,
    bool wrot180, bool trans_output_1203, bool trans_input_3120,
    bool trans_weight_1203, bool trans_weight_0132,
    const elem_t *input, const elem_t *weights, const acc_t *bias, elem_t *output,
    int act, acc_scale_t scale, int relu6_shift, int pool_size, int pool_stride, int pool_padding,
    enum tiled_matmul_type_t tiled_conv_type) {
  (void)relu6_shift;
  gemmini_conv_auto_square_(batch_size, in_dim, in_channels, out_channels, out_dim,
      stride, input_dilation, kernel_dilation, padding, kernel_dim,
      wrot180, trans_output_1203, trans_input_3120, trans_weight_1203, trans_weight_0132,
      input, weights, bias, output, act, scale, pool_size, pool_stride, pool_padding, tiled_conv_type);
}

static void gemmini_conv_dw_auto_square_(
    int batch_size, int in_dim, int channels, int out_dim,
    int stride, int padding, int kernel_dim,
    elem_t *input, elem_t *weights, acc_t *bias, elem_t *output,
    int act, acc_scale_t scale, int pool_size, int pool_stride, int pool_padding,
    enum tiled_matmul_type_t tiled_conv_type) {
  tiled_conv_dw_auto(batch_size, in_dim, in_dim, channels, out_dim, out_dim, stride, padding, kernel_dim,
      input, weights, bias, output, act, scale, pool_size, pool_stride, pool_padding, tiled_conv_type);
}

static void gemmini_conv_dw_auto_square_relu6_(
    int batch_size, int in_dim, int channels, int out_dim,
    int stride, int padding, int kernel_dim,
    elem_t *input, elem_t *weights, acc_t *bias, elem_t *output,
    int act, acc_scale_t scale, int relu6_shift, int pool_size, int pool_stride, int pool_padding,
    enum tiled_matmul_type_t tiled_conv_type) {
  (void)relu6_shift;
  gemmini_conv_dw_auto_square_(batch_size, in_dim, channels, out_dim, stride, padding, kernel_dim,
      input, weights, bias, output, act, scale, pool_size, pool_stride, pool_padding, tiled_conv_type);
}

/* Argument counting: the 33rd argument of (args..., 32, 31, ..., 1) is the count. */
#define GEMMINI_CONVAPI_NARGS_(...) \
  GEMMINI_CONVAPI_NARGS_I_(__VA_ARGS__, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, \
                           15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define GEMMINI_CONVAPI_NARGS_I_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, \
                                 a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, \
                                 n, ...) n
#define GEMMINI_CONVAPI_CAT_(a, b) GEMMINI_CONVAPI_CAT_I_(a, b)
#define GEMMINI_CONVAPI_CAT_I_(a, b) a##b

/* An argument count with no form is a call of an undeclared
 * gemmini_conv_auto_<count> / gemmini_conv_dw_auto_<count>: the compiler
 * names the count. Inside these expansions the API names are not expanded
 * again, so the 27- and 19-argument forms call the functions above. */
#define gemmini_conv_auto_27 tiled_conv_auto
#define gemmini_conv_auto_26 gemmini_conv_auto_square_relu6_
#define gemmini_conv_auto_25 gemmini_conv_auto_square_
#define gemmini_conv_dw_auto_19 tiled_conv_dw_auto
#define gemmini_conv_dw_auto_18 gemmini_conv_dw_auto_square_relu6_
#define gemmini_conv_dw_auto_17 gemmini_conv_dw_auto_square_

#define tiled_conv_auto(...) \
  GEMMINI_CONVAPI_CAT_(gemmini_conv_auto_, GEMMINI_CONVAPI_NARGS_(__VA_ARGS__))(__VA_ARGS__)
#define tiled_conv_dw_auto(...) \
  GEMMINI_CONVAPI_CAT_(gemmini_conv_dw_auto_, GEMMINI_CONVAPI_NARGS_(__VA_ARGS__))(__VA_ARGS__)

#endif /* DSA_COSIM_GEMMINI_CONV_H */
