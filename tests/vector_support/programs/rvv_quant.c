// Integer inference kernels: int8 dot products with widening multiplies and a
// widening reduction, requantization with vnclip under every rounding mode,
// saturating adds, averaging adds and vsmul. Prints results; RTL and Spike agree.
#include <riscv_vector.h>
#include <stdint.h>
#include <stdio.h>

#define N 300
static int8_t a[N], b[N];
static int32_t acc[N];
static int16_t q16[N];
static int8_t q8[N];

static int32_t dot_i8(const int8_t *x, const int8_t *y, size_t n) {
  vint32m1_t sum = __riscv_vmv_s_x_i32m1(0, 1);
  for (size_t vl; n > 0; n -= vl, x += vl, y += vl) {
    vl = __riscv_vsetvl_e8m1(n);
    vint16m2_t p = __riscv_vwmul_vv_i16m2(__riscv_vle8_v_i8m1(x, vl), __riscv_vle8_v_i8m1(y, vl), vl);
    sum = __riscv_vwredsum_vs_i16m2_i32m1(p, sum, vl);
  }
  return __riscv_vmv_x_s_i32m1_i32(sum);
}

int main(void) {
  uint32_t s = 99;
  for (int i = 0; i < N; i++) {
    s = s * 1664525u + 1013904223u;
    a[i] = (int8_t)(s >> 24);
    b[i] = (int8_t)(s >> 16);
    acc[i] = (int32_t)(s ^ (s << 7)) >> (i % 13);
  }
  printf("dot(a,b) = %ld, dot(a,a) = %ld\n", (long)dot_i8(a, b, N), (long)dot_i8(a, a, N));
  for (unsigned rm = 0; rm < 4; rm++) {
    uint32_t h = 0, sat = 0;
    for (size_t off = 0, vl; off < N; off += vl) {
      vl = __riscv_vsetvl_e32m4(N - off);
      vint32m4_t v = __riscv_vle32_v_i32m4(acc + off, vl);
      vint16m2_t n16;
      vint8m1_t n8;
      switch (rm) {  // the rounding mode is an immediate of the intrinsic
        case 0: n16 = __riscv_vnclip_wx_i16m2(v, 9, __RISCV_VXRM_RNU, vl); n8 = __riscv_vnclip_wx_i8m1(n16, 3, __RISCV_VXRM_RNU, vl); break;
        case 1: n16 = __riscv_vnclip_wx_i16m2(v, 9, __RISCV_VXRM_RNE, vl); n8 = __riscv_vnclip_wx_i8m1(n16, 3, __RISCV_VXRM_RNE, vl); break;
        case 2: n16 = __riscv_vnclip_wx_i16m2(v, 9, __RISCV_VXRM_RDN, vl); n8 = __riscv_vnclip_wx_i8m1(n16, 3, __RISCV_VXRM_RDN, vl); break;
        default: n16 = __riscv_vnclip_wx_i16m2(v, 9, __RISCV_VXRM_ROD, vl); n8 = __riscv_vnclip_wx_i8m1(n16, 3, __RISCV_VXRM_ROD, vl); break;
      }
      __riscv_vse16_v_i16m2(q16 + off, n16, vl);
      __riscv_vse8_v_i8m1(q8 + off, n8, vl);
    }
    uint32_t vx;
    __asm__ volatile("csrr %0, vxsat" : "=r"(vx));
    sat = vx;
    __asm__ volatile("csrw vxsat, zero");
    for (int i = 0; i < N; i++) h = h * 33 + (uint16_t)q16[i] + ((uint32_t)(uint8_t)q8[i] << 16);
    printf("vxrm %u: clip hash %08x vxsat %u\n", rm, (unsigned)h, (unsigned)sat);
  }
  uint32_t h = 0;
  for (size_t off = 0, vl; off < N; off += vl) {
    vl = __riscv_vsetvl_e8m2(N - off);
    vint8m2_t x = __riscv_vle8_v_i8m2(a + off, vl), y = __riscv_vle8_v_i8m2(b + off, vl);
    vint8m2_t sa = __riscv_vsadd_vv_i8m2(x, y, vl);
    vint8m2_t av = __riscv_vaadd_vv_i8m2(x, y, __RISCV_VXRM_RNU, vl);
    vint8m2_t sm = __riscv_vsmul_vv_i8m2(x, y, __RISCV_VXRM_RNE, vl);
    vint8m2_t ss = __riscv_vssub_vx_i8m2(sa, 100, vl);
    int8_t t[256];
    __riscv_vse8_v_i8m2(t, __riscv_vxor_vv_i8m2(__riscv_vxor_vv_i8m2(sa, av, vl), __riscv_vadd_vv_i8m2(sm, ss, vl), vl), vl);
    for (size_t i = 0; i < vl; i++) h = h * 131 + (uint8_t)t[i];
  }
  printf("fixed-point hash %08x\n", (unsigned)h);
  return 0;
}
