#include <riscv_vector.h>
#include <stdint.h>
#include <stdio.h>

#define N 77
static int32_t a[N], b[N], c[N];
static float x[N], y[N], z[N];
static uint8_t bytes[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = i * 7 - 100;
    b[i] = 3 * i + 1;
    x[i] = (float)i * 0.25f - 3.0f;
    y[i] = 1.5f - (float)i * 0.125f;
    bytes[i] = (uint8_t)(i * 37);
  }
  // integer add + mul, strip-mined
  for (size_t i = 0, vl; i < N; i += vl) {
    vl = __riscv_vsetvl_e32m2(N - i);
    vint32m2_t va = __riscv_vle32_v_i32m2(&a[i], vl);
    vint32m2_t vb = __riscv_vle32_v_i32m2(&b[i], vl);
    vint32m2_t vc = __riscv_vmacc_vv_i32m2(__riscv_vadd_vv_i32m2(va, vb, vl), va, vb, vl);
    __riscv_vse32_v_i32m2(&c[i], vc, vl);
  }
  long sum = 0;
  for (int i = 0; i < N; i++) sum += c[i];
  printf("int sum %ld c[5]=%d c[76]=%d\n", sum, (int)c[5], (int)c[76]);

  // fp axpy-like fma and a reduction
  float acc = 0;
  for (size_t i = 0, vl; i < N; i += vl) {
    vl = __riscv_vsetvl_e32m4(N - i);
    vfloat32m4_t vx = __riscv_vle32_v_f32m4(&x[i], vl);
    vfloat32m4_t vy = __riscv_vle32_v_f32m4(&y[i], vl);
    vfloat32m4_t vz = __riscv_vfmacc_vf_f32m4(vy, 2.5f, vx, vl);
    __riscv_vse32_v_f32m4(&z[i], vz, vl);
    vfloat32m1_t s = __riscv_vfredosum_vs_f32m4_f32m1(vz, __riscv_vfmv_s_f_f32m1(acc, 1), vl);
    acc = __riscv_vfmv_f_s_f32m1_f32(s);
  }
  int32_t bits;
  __builtin_memcpy(&bits, &acc, 4);
  printf("fp acc bits %08x z[10] %d\n", (unsigned)bits, (int)(z[10] * 1000));

  // masked compare + merge, max reduction on bytes, strided load
  size_t vl = __riscv_vsetvl_e8m1(32);
  vuint8m1_t vbt = __riscv_vle8_v_u8m1(bytes, vl);
  vbool8_t m = __riscv_vmsgtu_vx_u8m1_b8(vbt, 100, vl);
  vuint8m1_t merged = __riscv_vmerge_vxm_u8m1(vbt, 7, m, vl);
  vuint8m1_t mx = __riscv_vredmaxu_vs_u8m1_u8m1(merged, __riscv_vmv_s_x_u8m1(0, 1), vl);
  long cnt = __riscv_vcpop_m_b8(m, vl);
  printf("bytes max %u cnt %ld\n", (unsigned)__riscv_vmv_x_s_u8m1_u8(mx), cnt);
  vl = __riscv_vsetvl_e32m1(8);
  vint32m1_t st = __riscv_vlse32_v_i32m1(&a[1], 12, vl);
  vint32m1_t red = __riscv_vredsum_vs_i32m1_i32m1(st, __riscv_vmv_s_x_i32m1(0, 1), vl);
  printf("strided sum %d\n", (int)__riscv_vmv_x_s_i32m1_i32(red));
  return 0;
}
