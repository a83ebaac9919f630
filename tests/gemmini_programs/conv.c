/* tiled_conv_auto (stride 1 and 2, padding, kernel 1 and 3, max pooling,
 * bias, scale and ReLU) and tiled_conv_dw_auto (depthwise) against a direct
 * convolution written here; the CPU path of each too. NHWC input, weights as
 * [krow][kcol][in_ch][out_ch] (depthwise: [ch][krow][kcol]). */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "include/gemmini_testutils.h"
#include "ref.h"

#define MAXB 2
#define MAXIN 9
#define MAXCH 7

struct conv_case {
  const char *name;
  int batch, in_dim, in_ch, out_ch, stride, padding, kdim;
  int pool_size, pool_stride, pool_padding;
  int act;
  float scale;
  bool dw;
  enum tiled_matmul_type_t type;
};

static elem_t input[MAXB * MAXIN * MAXIN * MAXCH];
static elem_t weights[3 * 3 * MAXCH * MAXCH];
static acc_t bias[MAXCH];
static elem_t output[MAXB * MAXIN * MAXIN * MAXCH];
static elem_t conv_ref[MAXB * MAXIN * MAXIN * MAXCH];
static elem_t want[MAXB * MAXIN * MAXIN * MAXCH];

static void run_case(const struct conv_case *t) {
  const int od = (t->in_dim + 2 * t->padding - t->kdim) / t->stride + 1;
  const int out_ch = t->dw ? t->in_ch : t->out_ch;
  const bool pool = t->pool_stride != 0;
  const int pd = pool ? (od + 2 * t->pool_padding - t->pool_size) / t->pool_stride + 1 : od;
  ref_fill8(input, t->batch * t->in_dim * t->in_dim * t->in_ch, -60, 60);
  ref_fill8(weights, t->kdim * t->kdim * t->in_ch * out_ch, -60, 60);
  ref_fill32(bias, out_ch, -3000, 3000);

  for (int b = 0; b < t->batch; b++)
    for (int r = 0; r < od; r++)
      for (int c = 0; c < od; c++)
        for (int oc = 0; oc < out_ch; oc++) {
          int32_t s = bias[oc];
          for (int kr = 0; kr < t->kdim; kr++)
            for (int kc = 0; kc < t->kdim; kc++) {
              const int ir = r * t->stride + kr - t->padding, ic = c * t->stride + kc - t->padding;
              if (ir < 0 || ic < 0 || ir >= t->in_dim || ic >= t->in_dim) continue;
              const elem_t *px = &input[((b * t->in_dim + ir) * t->in_dim + ic) * t->in_ch];
              if (t->dw) {
                s += px[oc] * weights[(oc * t->kdim + kr) * t->kdim + kc];
              } else {
                for (int ich = 0; ich < t->in_ch; ich++)
                  s += px[ich] * weights[((kr * t->kdim + kc) * t->in_ch + ich) * out_ch + oc];
              }
            }
          conv_ref[((b * od + r) * od + c) * out_ch + oc] = ref_acc_to_elem(s, t->scale, t->act == RELU);
        }
  for (int b = 0; b < t->batch; b++)
    for (int r = 0; r < pd; r++)
      for (int c = 0; c < pd; c++)
        for (int oc = 0; oc < out_ch; oc++) {
          int best = -1000;
          if (!pool) {
            best = conv_ref[((b * od + r) * od + c) * out_ch + oc];
          } else {
            for (int wr = 0; wr < t->pool_size; wr++)
              for (int wc = 0; wc < t->pool_size; wc++) {
                const int rr = r * t->pool_stride + wr - t->pool_padding, cc = c * t->pool_stride + wc - t->pool_padding;
                if (rr < 0 || cc < 0 || rr >= od || cc >= od) continue;
                const int v = conv_ref[((b * od + rr) * od + cc) * out_ch + oc];
                if (v > best) best = v;
              }
          }
          want[((b * pd + r) * pd + c) * out_ch + oc] = (elem_t)best;
        }

  memset(output, 0x5c, sizeof(output));
  if (t->dw) {
    tiled_conv_dw_auto(t->batch, t->in_dim, t->in_dim, t->in_ch, od, od, t->stride, t->padding, t->kdim, input, weights,
                       bias, output, t->act, t->scale, pool ? t->pool_size : 1, t->pool_stride, t->pool_padding,
                       t->type);
  } else {
    tiled_conv_auto(t->batch, t->in_dim, t->in_dim, t->in_ch, t->out_ch, od, od, t->stride, 1, 1, t->padding, t->kdim,
                    false, false, false, false, false, input, weights, bias, output, t->act, t->scale,
                    pool ? t->pool_size : 1, t->pool_stride, t->pool_padding, t->type);
  }
  gemmini_fence();
  ref_check8(t->name, output, want, t->batch * pd * pd * out_ch);
}

int main(void) {
  gemmini_flush(0);
  const struct conv_case cases[] = {
      {"conv k3 s1 p1", 2, 6, 5, 6, 1, 1, 3, 0, 0, 0, NO_ACTIVATION, 1.0f / 32, false, WS},
      {"conv k3 s2 p1 relu", 2, 7, 3, 7, 2, 1, 3, 0, 0, 0, RELU, 1.0f / 16, false, WS},
      {"conv k1 s1 p0", 1, 5, 7, 4, 1, 0, 1, 0, 0, 0, NO_ACTIVATION, 1.0f / 8, false, WS},
      {"conv k1 s2 p0", 2, 7, 4, 5, 2, 0, 1, 0, 0, 0, NO_ACTIVATION, 1.0f / 8, false, WS},
      {"conv k3 s1 p0", 1, 6, 4, 4, 1, 0, 3, 0, 0, 0, NO_ACTIVATION, 1.0f / 32, false, WS},
      {"conv k3 s1 p1 pool 2/2", 2, 6, 4, 5, 1, 1, 3, 2, 2, 0, NO_ACTIVATION, 1.0f / 32, false, WS},
      {"conv k3 s1 p1 relu pool 3/2 pad 1", 1, 7, 3, 6, 1, 1, 3, 3, 2, 1, RELU, 1.0f / 32, false, WS},
      {"conv cpu k3 s2 p1 pool 2/2", 2, 7, 3, 5, 2, 1, 3, 2, 2, 0, RELU, 1.0f / 16, false, CPU},
      {"dw k3 s1 p1", 2, 6, 5, 0, 1, 1, 3, 0, 0, 0, NO_ACTIVATION, 1.0f / 16, true, WS},
      {"dw k3 s2 p1 relu", 1, 7, 6, 0, 2, 1, 3, 0, 0, 0, RELU, 1.0f / 8, true, WS},
      {"dw cpu k3 s1 p1", 1, 6, 5, 0, 1, 1, 3, 0, 0, 0, NO_ACTIVATION, 1.0f / 16, true, CPU},
  };
  for (size_t n = 0; n < sizeof(cases) / sizeof(cases[0]); n++) run_case(&cases[n]);
  return ref_result();
}
