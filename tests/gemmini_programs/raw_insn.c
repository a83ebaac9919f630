/* Gemmini instructions from their raw encodings (.insn on custom-3), without
 * gemmini.h: mvin, config_ex, preload, compute, config_st and mvout in both
 * dataflows. Prints its inputs and results as hex bytes, one line each, for a
 * host-side reference to recompute. */
#include <stdint.h>
#include <stdio.h>

#ifndef RAW_DIM
#define RAW_DIM 4
#endif
#define N RAW_DIM

#define RAW(funct, rs1, rs2) \
  __asm__ volatile(".insn r 0x7b, 3, " #funct ", x0, %0, %1" ::"r"((uint64_t)(rs1)), "r"((uint64_t)(rs2)) : "memory")

#define ROWS_COLS(addr) (((uint64_t)N << 48) | ((uint64_t)N << 32) | (uint64_t)(uint32_t)(addr))
#define FP_ONE 0x3f800000ull
#define FP_SIXTEENTH 0x3d800000ull /* 0.0625f */
#define ACC 0x80000000u
#define ACC_FULL 0x20000000u
#define GARBAGE 0xffffffffu

static int8_t A[N][N] __attribute__((aligned(64)));
static int8_t B[N][N] __attribute__((aligned(64)));
static int8_t A2[N][N] __attribute__((aligned(64)));
static int8_t B2[N][N] __attribute__((aligned(64)));
static int8_t D2[N][N] __attribute__((aligned(64)));
static int32_t C32[N][N] __attribute__((aligned(64)));
static int8_t C8[N][N] __attribute__((aligned(64)));
static int8_t C8os[N][N] __attribute__((aligned(64)));

static uint32_t seed = 2024u;
static int8_t next8(int lo, int hi) {
  seed = seed * 1664525u + 1013904223u;
  return (int8_t)(lo + (int)((seed >> 9) % (uint32_t)(hi - lo + 1)));
}

static void dump(const char *name, const void *p, int n) {
  const uint8_t *b = (const uint8_t *)p;
  printf("%s ", name);
  for (int i = 0; i < n; i++) printf("%02x", b[i]);
  printf("\n");
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = next8(-128, 127);
      B[i][j] = next8(-128, 127);
      A2[i][j] = next8(-16, 15);
      B2[i][j] = next8(-16, 15);
      D2[i][j] = next8(-100, 100);
    }
  RAW(7, 0, 0); /* flush */
  /* config_ld: mvin (id 0), scale 1.0, DRAM stride N bytes */
  RAW(0, (FP_ONE << 32) | ((uint64_t)N << 16) | 1, N);
  RAW(2, A, ROWS_COLS(0));
  RAW(2, B, ROWS_COLS(N));
  RAW(2, A2, ROWS_COLS(2 * N));
  RAW(2, B2, ROWS_COLS(3 * N));
  RAW(2, D2, ROWS_COLS(4 * N));
  /* config_ex: weight-stationary, no activation, A stride 1, acc scale 1.0; C stride 1 */
  RAW(0, (FP_ONE << 32) | (1ull << 16) | (1u << 2) | 0, (1ull << 48));
  RAW(6, ROWS_COLS(N), ROWS_COLS(ACC)); /* preload B, C = acc row 0 */
  RAW(4, ROWS_COLS(0), ROWS_COLS(GARBAGE)); /* compute_preloaded A, no D */
  /* config_st: no activation, no pooling; stride N*4 bytes, scale 1.0 */
  RAW(0, 2, (FP_ONE << 32) | (uint64_t)(N * 4));
  RAW(3, C32, ROWS_COLS(ACC | ACC_FULL));
  /* config_st: scale 1/16, stride N bytes: int8 out, round to nearest even, saturate */
  RAW(0, 2, (FP_SIXTEENTH << 32) | (uint64_t)N);
  RAW(3, C8, ROWS_COLS(ACC));
  /* config_ex: output-stationary, shift 3; preload D2, C into the scratchpad */
  RAW(0, (FP_ONE << 32) | (1ull << 16) | (0u << 2) | 0, (1ull << 48) | 3);
  RAW(6, ROWS_COLS(4 * N), ROWS_COLS(5 * N));
  RAW(4, ROWS_COLS(2 * N), ROWS_COLS(3 * N));
  RAW(0, 2, (FP_ONE << 32) | (uint64_t)N);
  RAW(3, C8os, ROWS_COLS(5 * N));
  __asm__ volatile("fence" ::: "memory");

  printf("dim %d\n", N);
  dump("A", A, N * N);
  dump("B", B, N * N);
  dump("A2", A2, N * N);
  dump("B2", B2, N * N);
  dump("D2", D2, N * N);
  dump("C32", C32, N * N * 4);
  dump("C8", C8, N * N);
  dump("C8OS", C8os, N * N);
  return 0;
}
