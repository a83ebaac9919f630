// RVV intrinsics: permutations, masks, indexed/whole-register memory, FP compares,
// conversions, min/max. Prints checksums; must print the same on RTL and Spike.
#include <riscv_vector.h>
#include <stdint.h>
#include <stdio.h>

#define N 64
static uint16_t h[N];
static uint32_t idx[N];
static float f[N], g[N];
static int32_t out[N];

static uint32_t csum(const void* p, int n) {
  const uint8_t* b = (const uint8_t*)p;
  uint32_t s = 2166136261u;
  for (int i = 0; i < n; i++) s = (s ^ b[i]) * 16777619u;
  return s;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    h[i] = (uint16_t)(i * 1031 + 7);
    idx[i] = (uint32_t)((i * 13) % N) * 2;
    f[i] = (float)(i - 30) * 0.7f;
    g[i] = (float)(17 - i) * 0.45f;
  }
  // vid + slides + gather on e16, LMUL 2
  size_t vl = __riscv_vsetvl_e16m2(40);
  vuint16m2_t v = __riscv_vle16_v_u16m2(h, vl);
  vuint16m2_t id = __riscv_vid_v_u16m2(vl);
  vuint16m2_t up = __riscv_vslideup_vx_u16m2(id, v, 3, vl);
  vuint16m2_t dn = __riscv_vslidedown_vx_u16m2(v, 5, vl);
  vuint16m2_t s1 = __riscv_vslide1down_vx_u16m2(up, 0xbeef, vl);
  vuint16m2_t rev = __riscv_vrsub_vx_u16m2(id, (uint16_t)(vl - 1), vl);
  vuint16m2_t gat = __riscv_vrgather_vv_u16m2(v, rev, vl);
  vuint16m2_t sum = __riscv_vadd_vv_u16m2(__riscv_vadd_vv_u16m2(dn, s1, vl), gat, vl);
  uint16_t tmp[64];
  __riscv_vse16_v_u16m2(tmp, sum, vl);
  printf("perm %08x\n", (unsigned)csum(tmp, 2 * vl));

  // masks: compare, vfirst, vcpop, mask logic, masked add
  vbool8_t m1 = __riscv_vmsltu_vx_u16m2_b8(v, 30000, vl);
  vbool8_t m2 = __riscv_vmseq_vx_u16m2_b8(__riscv_vand_vx_u16m2(id, 3, vl), 1, vl);
  vbool8_t m3 = __riscv_vmxor_mm_b8(m1, m2, vl);
  long first = __riscv_vfirst_m_b8(m2, vl);
  long pop = __riscv_vcpop_m_b8(m3, vl);
  vuint16m2_t ma = __riscv_vadd_vx_u16m2_mu(m3, v, v, 1000, vl);
  __riscv_vse16_v_u16m2(tmp, ma, vl);
  printf("mask first %ld pop %ld sum %08x\n", first, pop, (unsigned)csum(tmp, 2 * vl));

  // indexed load (byte offsets), whole-register store/load
  vl = __riscv_vsetvl_e16m1(16);
  vuint32m2_t off = __riscv_vle32_v_u32m2(idx, vl);
  vuint16m1_t gi = __riscv_vluxei32_v_u16m1(h, off, vl);
  uint16_t w[256];
  vuint16m1_t back;
  /* whole-register store and load (VLEN bits), no intrinsics for these */
  __asm__ volatile("vs1r.v %0, (%1)" ::"vr"(gi), "r"(w) : "memory");
  __asm__ volatile("vl1re16.v %0, (%1)" : "=vr"(back) : "r"(w) : "memory");
  __riscv_vse16_v_u16m1(tmp, back, vl);
  printf("indexed %08x\n", (unsigned)csum(tmp, 2 * vl));

  // FP: min/max, compares into masks, merge, conversions both ways
  uint32_t acc = 0;
  for (size_t i = 0, n; i < N; i += n) {
    n = __riscv_vsetvl_e32m2(N - i);
    vfloat32m2_t a = __riscv_vle32_v_f32m2(&f[i], n);
    vfloat32m2_t b = __riscv_vle32_v_f32m2(&g[i], n);
    vfloat32m2_t mx = __riscv_vfmax_vv_f32m2(a, b, n);
    vfloat32m2_t mn = __riscv_vfmin_vf_f32m2(a, 1.25f, n);
    vbool16_t lt = __riscv_vmflt_vv_f32m2_b16(a, b, n);
    vfloat32m2_t sel = __riscv_vmerge_vvm_f32m2(mn, mx, lt, n);
    vfloat32m2_t prod = __riscv_vfmul_vv_f32m2(sel, __riscv_vfsub_vf_f32m2(b, 0.5f, n), n);
    vint32m2_t iv = __riscv_vfcvt_x_f_v_i32m2(prod, n);
    vfloat32m2_t fv = __riscv_vfcvt_f_x_v_f32m2(__riscv_vmul_vx_i32m2(iv, 3, n), n);
    vint32m2_t rt = __riscv_vfcvt_rtz_x_f_v_i32m2(__riscv_vfsgnjn_vv_f32m2(fv, a, n), n);
    __riscv_vse32_v_i32m2(&out[i], rt, n);
    acc += (uint32_t)__riscv_vcpop_m_b16(lt, n);
  }
  printf("fp %08x lt %u\n", (unsigned)csum(out, sizeof out), (unsigned)acc);
  return 0;
}
