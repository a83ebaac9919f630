// Image-style kernels: RGB deinterleave with segment loads, grayscale with
// widening integer math, a 3-tap blur with slides, a transpose with strided
// stores, a gather through an index table and a scatter back. RTL and Spike agree.
#include <riscv_vector.h>
#include <stdint.h>
#include <stdio.h>

#define W 45
#define H 7
static uint8_t rgb[W * H * 3];
static uint8_t gray[W * H], blur[W * H];
static float m[13][11], mt[11][13];
static uint32_t idx[97];
static float table[211], gathered[97], scattered[211];

static uint32_t fnv(const void *p, size_t n) {
  const uint8_t *b = (const uint8_t *)p;
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
  return h;
}

int main(void) {
  for (int i = 0; i < W * H * 3; i++) rgb[i] = (uint8_t)(i * 7 + (i >> 3));
  for (size_t off = 0, vl; off < W * H; off += vl) {
    vl = __riscv_vsetvl_e8m1(W * H - off);
    vuint8m1x3_t px = __riscv_vlseg3e8_v_u8m1x3(rgb + 3 * off, vl);
    vuint16m2_t y = __riscv_vwmulu_vx_u16m2(__riscv_vget_v_u8m1x3_u8m1(px, 0), 77, vl);
    y = __riscv_vwmaccu_vx_u16m2(y, 150, __riscv_vget_v_u8m1x3_u8m1(px, 1), vl);
    y = __riscv_vwmaccu_vx_u16m2(y, 29, __riscv_vget_v_u8m1x3_u8m1(px, 2), vl);
    __riscv_vse8_v_u8m1(gray + off, __riscv_vnsrl_wx_u8m1(y, 8, vl), vl);
  }
  printf("gray %08x\n", (unsigned)fnv(gray, sizeof gray));
  for (int r = 0; r < H; r++) {
    const uint8_t *row = gray + r * W;
    size_t vl = __riscv_vsetvl_e16m2(W);
    vuint16m2_t c = __riscv_vzext_vf2_u16m2(__riscv_vle8_v_u8m1(row, vl), vl);
    vuint16m2_t l = __riscv_vslide1up_vx_u16m2(c, row[0], vl);
    vuint16m2_t rr = __riscv_vslide1down_vx_u16m2(c, row[W - 1], vl);
    vuint16m2_t s = __riscv_vadd_vv_u16m2(__riscv_vadd_vv_u16m2(l, rr, vl), __riscv_vsll_vx_u16m2(c, 1, vl), vl);
    __riscv_vse8_v_u8m1(blur + r * W, __riscv_vnsrl_wx_u8m1(s, 2, vl), vl);
  }
  printf("blur %08x\n", (unsigned)fnv(blur, sizeof blur));
  for (int i = 0; i < 13; i++)
    for (int j = 0; j < 11; j++) m[i][j] = (float)(i * 11 + j) * 0.25f - 7.0f;
  for (int i = 0; i < 13; i++) {
    size_t vl = __riscv_vsetvl_e32m2(11);
    __riscv_vsse32_v_f32m2(&mt[0][i], 13 * sizeof(float), __riscv_vle32_v_f32m2(m[i], vl), vl);
  }
  printf("transpose %08x ok=%d\n", (unsigned)fnv(mt, sizeof mt), mt[10][12] == m[12][10] && mt[3][5] == m[5][3]);
  for (int i = 0; i < 211; i++) table[i] = (float)i * 1.5f - 100.0f;
  for (int i = 0; i < 97; i++) idx[i] = (uint32_t)((i * 89 + 5) % 211) * 4;
  for (size_t off = 0, vl; off < 97; off += vl) {
    vl = __riscv_vsetvl_e32m4(97 - off);
    vuint32m4_t ix = __riscv_vle32_v_u32m4(idx + off, vl);
    vfloat32m4_t g = __riscv_vluxei32_v_f32m4(table, ix, vl);
    __riscv_vse32_v_f32m4(gathered + off, g, vl);
    __riscv_vsoxei32_v_f32m4(scattered, ix, __riscv_vfneg_v_f32m4(g, vl), vl);
  }
  printf("gather %08x scatter %08x\n", (unsigned)fnv(gathered, sizeof gathered), (unsigned)fnv(scattered, sizeof scattered));
  return 0;
}
