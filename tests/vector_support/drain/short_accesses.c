/* Short vector memory accesses back to back: one-row loads and stores, their
 * consumers right behind them, a store after loads, masked and indexed loads in
 * between. vec_lsu keeps up to four of them waiting for their responses (the
 * drain queue); tests/test_vector_drain.py runs this under `cosim difftest` and
 * reads the cycle counts it prints. */
#include <stdint.h>
#include <stdio.h>
#include <cosim.h>

#define N 256
static float src[N] __attribute__((aligned(64)));
static float dst[N] __attribute__((aligned(64)));
static uint32_t idx[16] __attribute__((aligned(64)));

/* the same frame without the loads: what burst_loads pays besides them */
static uint32_t no_loads(const float *p, unsigned vl) {
  uint64_t c0 = read_cycle();
  __asm__ volatile(
      "vsetvli zero, %1, e32, m1, ta, ma\n"
      "vmv.x.s t0, v15\n"
      :
      : "r"(p), "r"(vl)
      : "t0", "memory");
  return (uint32_t)(read_cycle() - c0);
}

/* 32 one-row loads (vl = DLEN/32 floats), rotating over v8..v15 */
static uint32_t burst_loads(const float *p, unsigned vl) {
  uint64_t c0 = read_cycle();
  __asm__ volatile(
      "vsetvli zero, %1, e32, m1, ta, ma\n"
      ".rept 4\n"
      "vle32.v v8, (%0)\n vle32.v v9, (%0)\n vle32.v v10, (%0)\n vle32.v v11, (%0)\n"
      "vle32.v v12, (%0)\n vle32.v v13, (%0)\n vle32.v v14, (%0)\n vle32.v v15, (%0)\n"
      ".endr\n"
      "vmv.x.s t0, v15\n"
      :
      : "r"(p), "r"(vl)
      : "t0", "memory");
  return (uint32_t)(read_cycle() - c0);
}

/* loads chained into adds, a store of each sum right behind it */
static void load_add_store(const float *s, float *d, unsigned vl, unsigned rows) {
  for (unsigned r = 0; r < rows; r++) {
    const float *a = s + r * vl, *b = s + (r + 1) * vl;
    float *o = d + r * vl;
    __asm__ volatile(
        "vsetvli zero, %3, e32, m1, ta, ma\n"
        "vle32.v v1, (%0)\n"
        "vle32.v v2, (%1)\n"
        "vfadd.vv v3, v1, v2\n"
        "vle32.v v4, (%1)\n"
        "vfmul.vv v5, v3, v4\n"
        "vse32.v v5, (%2)\n"
        :
        : "r"(a), "r"(b), "r"(o), "r"(vl)
        : "memory");
  }
}

/* masked one-row loads and an indexed gather between unit-stride ones */
static void masked_and_indexed(const float *s, float *d, unsigned vl) {
  __asm__ volatile(
      "vsetvli zero, %3, e32, m1, ta, mu\n"
      "vid.v v6\n"
      "vand.vi v7, v6, 1\n"
      "vmseq.vi v0, v7, 0\n"
      "vmv.v.i v1, 0\n"
      "vle32.v v1, (%0), v0.t\n"
      "vle32.v v2, (%1)\n"
      "vluxei32.v v3, (%0), v2\n"
      "vle32.v v4, (%0)\n"
      "vfadd.vv v5, v1, v3\n"
      "vfadd.vv v5, v5, v4\n"
      "vse32.v v5, (%2)\n"
      "vse32.v v1, (%2)\n"
      "vle32.v v6, (%2)\n"
      "vse32.v v6, (%0)\n"
      :
      : "r"(s), "r"(idx), "r"(d), "r"(vl)
      : "memory");
}

int main(void) {
  unsigned vl;
  __asm__ volatile("vsetvli %0, zero, e32, m1, ta, ma" : "=r"(vl));
  unsigned row = ROW_FLOATS; /* DLEN / 32, from the test */
  for (int i = 0; i < N; i++) src[i] = (float)(i % 17) * 0.25f - 1.0f;
  for (unsigned i = 0; i < 16; i++) idx[i] = ((i * 5u) % row) * 4u;
  uint32_t frame = 0, cyc = 0;
  for (int rep = 0; rep < 2; rep++) { /* the second time from the I-cache */
    frame = no_loads(src, row);
    cyc = burst_loads(src, row);
  }
  load_add_store(src, dst, row, 24);
  masked_and_indexed(src + 64, dst + 128, row);
  float sum = 0;
  for (int i = 0; i < N; i++) sum += dst[i] * (float)(i + 1) + src[i];
  printf("vlmax %u row %u\n", vl, row);
  printf("burst32 %u frame %u\n", (unsigned)cyc, (unsigned)frame);
  printf("checksum %d\n", (int)(sum * 16.0f));
  return 0;
}
