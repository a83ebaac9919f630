/* cosim-socs: t1-small t1-blastoise
 * RVV intrinsics (zve32f) on vector configs; the host build takes the scalar
 * path, so both must print the same numbers. Multiplies and adds are separate
 * (no fused ops) so the float results round the same way. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#if defined(__riscv_vector)
#include <riscv_vector.h>
#endif

#define N 1000
static float x[N], y[N], out[N];
static int32_t ia[N], ib[N], isum[N];

static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static void saxpy(float a, const float *px, const float *py, float *po, int n) {
#if defined(__riscv_vector)
  for (size_t vl; n > 0; n -= (int)vl, px += vl, py += vl, po += vl) {
    vl = __riscv_vsetvl_e32m4((size_t)n);
    vfloat32m4_t vx = __riscv_vle32_v_f32m4(px, vl);
    vfloat32m4_t vy = __riscv_vle32_v_f32m4(py, vl);
    vfloat32m4_t prod = __riscv_vfmul_vf_f32m4(vx, a, vl);
    __riscv_vse32_v_f32m4(po, __riscv_vfadd_vv_f32m4(prod, vy, vl), vl);
  }
#else
  for (int i = 0; i < n; i++) {
    volatile float prod = a * px[i];
    po[i] = prod + py[i];
  }
#endif
}

static void iadd(const int32_t *a, const int32_t *b, int32_t *o, int n) {
#if defined(__riscv_vector)
  for (size_t vl; n > 0; n -= (int)vl, a += vl, b += vl, o += vl) {
    vl = __riscv_vsetvl_e32m8((size_t)n);
    vint32m8_t va = __riscv_vle32_v_i32m8(a, vl);
    vint32m8_t vb = __riscv_vle32_v_i32m8(b, vl);
    __riscv_vse32_v_i32m8(o, __riscv_vadd_vv_i32m8(__riscv_vmul_vx_i32m8(va, 3, vl), vb, vl), vl);
  }
#else
  for (int i = 0; i < n; i++) o[i] = (int32_t)((uint32_t)a[i] * 3u + (uint32_t)b[i]);
#endif
}

int main(void) {
  uint32_t s = 99;
  for (int i = 0; i < N; i++) {
    s = s * 1664525u + 1013904223u;
    x[i] = (float)(int32_t)(s >> 8) / 65536.0f;
    y[i] = (float)i * 0.25f - 100.0f;
    ia[i] = (int32_t)s;
    ib[i] = i * i - 5000;
  }
  saxpy(1.5f, x, y, out, N);
  iadd(ia, ib, isum, N);
  uint32_t hf = 0, hi = 0;
  for (int i = 0; i < N; i++) {
    hf = hf * 31u + bits(out[i]);
    hi = hi * 31u + (uint32_t)isum[i];
  }
  printf("saxpy: out[0]=%08x out[%d]=%08x hash=%08x\n", bits(out[0]), N - 1, bits(out[N - 1]), hf);
  printf("iadd: %d %d hash=%08x\n", (int)isum[0], (int)isum[N - 1], hi);
  return 0;
}
