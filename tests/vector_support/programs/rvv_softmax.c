// Float kernels as a user writes them for zve32f: a numerically stable softmax
// (vfredmax, exp by range reduction with vfcvt and a polynomial, vfredosum,
// vfdiv), an L2 norm with vfsqrt, int16<->f32 conversions, vfclass counts and
// masked vfmerge. Prints float bits so RTL and Spike must agree bit for bit.
#include <riscv_vector.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 157
static float x[N], y[N];
static int16_t q[N];

static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static vfloat32m4_t vexp(vfloat32m4_t v, size_t vl) {
  // exp(v) = 2^k * p(r), k = round(v / ln2), r = v - k ln2
  vfloat32m4_t kf = __riscv_vfmul_vf_f32m4(v, 1.44269504f, vl);
  vint32m4_t k = __riscv_vfcvt_x_f_v_i32m4(kf, vl);
  vfloat32m4_t r = __riscv_vfnmsac_vf_f32m4(v, 0.693147181f, __riscv_vfcvt_f_x_v_f32m4(k, vl), vl);
  vfloat32m4_t p = __riscv_vfmv_v_f_f32m4(1.0f / 120, vl);
  p = __riscv_vfmadd_vv_f32m4(p, r, __riscv_vfmv_v_f_f32m4(1.0f / 24, vl), vl);
  p = __riscv_vfmadd_vv_f32m4(p, r, __riscv_vfmv_v_f_f32m4(1.0f / 6, vl), vl);
  p = __riscv_vfmadd_vv_f32m4(p, r, __riscv_vfmv_v_f_f32m4(0.5f, vl), vl);
  p = __riscv_vfmadd_vv_f32m4(p, r, __riscv_vfmv_v_f_f32m4(1.0f, vl), vl);
  p = __riscv_vfmadd_vv_f32m4(p, r, __riscv_vfmv_v_f_f32m4(1.0f, vl), vl);
  vint32m4_t e = __riscv_vsll_vx_i32m4(__riscv_vadd_vx_i32m4(k, 127, vl), 23, vl);
  return __riscv_vfmul_vv_f32m4(p, __riscv_vreinterpret_v_i32m4_f32m4(e), vl);
}

int main(void) {
  for (int i = 0; i < N; i++) x[i] = (float)((i * 37) % 101) * 0.093f - 4.1f;
  vfloat32m1_t mx = __riscv_vfmv_s_f_f32m1(-1e30f, 1);
  for (size_t off = 0, vl; off < N; off += vl) {
    vl = __riscv_vsetvl_e32m4(N - off);
    mx = __riscv_vfredmax_vs_f32m4_f32m1(__riscv_vle32_v_f32m4(x + off, vl), mx, vl);
  }
  float m = __riscv_vfmv_f_s_f32m1_f32(mx);
  vfloat32m1_t sum = __riscv_vfmv_s_f_f32m1(0.0f, 1);
  for (size_t off = 0, vl; off < N; off += vl) {
    vl = __riscv_vsetvl_e32m4(N - off);
    vfloat32m4_t e = vexp(__riscv_vfsub_vf_f32m4(__riscv_vle32_v_f32m4(x + off, vl), m, vl), vl);
    __riscv_vse32_v_f32m4(y + off, e, vl);
    sum = __riscv_vfredosum_vs_f32m4_f32m1(e, sum, vl);
  }
  float s = __riscv_vfmv_f_s_f32m1_f32(sum);
  uint32_t h = 0;
  for (size_t off = 0, vl; off < N; off += vl) {
    vl = __riscv_vsetvl_e32m4(N - off);
    vfloat32m4_t p = __riscv_vfdiv_vf_f32m4(__riscv_vle32_v_f32m4(y + off, vl), s, vl);
    __riscv_vse32_v_f32m4(y + off, p, vl);
  }
  for (int i = 0; i < N; i++) h = h * 31 + bits(y[i]);
  printf("max %08x sum %08x softmax %08x\n", (unsigned)bits(m), (unsigned)bits(s), (unsigned)h);
  vfloat32m1_t ss = __riscv_vfmv_s_f_f32m1(0.0f, 1);
  for (size_t off = 0, vl; off < N; off += vl) {
    vl = __riscv_vsetvl_e32m8(N - off);
    vfloat32m8_t v = __riscv_vle32_v_f32m8(x + off, vl);
    ss = __riscv_vfredusum_vs_f32m8_f32m1(__riscv_vfmul_vv_f32m8(v, v, vl), ss, vl);
  }
  vfloat32m1_t nrm = __riscv_vfsqrt_v_f32m1(ss, 1);
  printf("l2 %08x\n", (unsigned)bits(__riscv_vfmv_f_s_f32m1_f32(nrm)));
  h = 0;
  unsigned cls[10] = {0};
  for (size_t off = 0, vl; off < N; off += vl) {
    vl = __riscv_vsetvl_e16m2(N - off);
    vfloat32m4_t v = __riscv_vfmul_vf_f32m4(__riscv_vle32_v_f32m4(x + off, vl), 9000.5f, vl);
    vint16m2_t n = __riscv_vfncvt_x_f_w_i16m2(v, vl);  // saturates outside int16
    __riscv_vse16_v_i16m2(q + off, n, vl);
    vfloat32m4_t back = __riscv_vfwcvt_f_x_v_f32m4(n, vl);
    vbool8_t neg = __riscv_vmflt_vf_f32m4_b8(back, 0.0f, vl);
    vfloat32m4_t sel = __riscv_vfmerge_vfm_f32m4(back, -0.0f, neg, vl);
    vuint32m4_t c = __riscv_vfclass_v_u32m4(__riscv_vfdiv_vv_f32m4(sel, sel, vl), vl);
    for (int k = 0; k < 10; k++)
      cls[k] += (unsigned)__riscv_vcpop_m_b8(__riscv_vmsne_vx_u32m4_b8(__riscv_vand_vx_u32m4(c, 1u << k, vl), 0, vl), vl);
  }
  uint32_t fflags;
  __asm__ volatile("csrr %0, fflags" : "=r"(fflags));
  for (int i = 0; i < N; i++) h = h * 31 + (uint16_t)q[i];
  printf("cvt %08x fflags %x class", (unsigned)h, (unsigned)fflags);
  for (int k = 0; k < 10; k++) printf(" %u", cls[k]);
  printf("\n");
  return 0;
}
