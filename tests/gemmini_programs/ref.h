/* CPU reference helpers shared by the Gemmini test programs in this directory.
 *
 * Written for these tests only: nothing here comes from Gemmini's sources. The
 * reference arithmetic is done with the core's own integer and float units, so
 * it is independent of the Gemmini model under test.
 */
#ifndef GEMMINI_TEST_REF_H
#define GEMMINI_TEST_REF_H

#include <stdint.h>
#include <stdio.h>

static int ref_failures;
static uint32_t ref_state = 12345u;

/* A small LCG so every program generates the same data on every run. */
static inline uint32_t ref_next(void) {
  ref_state = ref_state * 1103515245u + 12345u;
  return ref_state >> 8;
}

/* Uniform in [lo, hi]. */
static inline int ref_range(int lo, int hi) { return lo + (int)(ref_next() % (uint32_t)(hi - lo + 1)); }

static inline int8_t ref_sat8(int64_t x) { return x > 127 ? 127 : (x < -128 ? -128 : (int8_t)x); }

/* float -> int32, round to nearest even, saturating (RISC-V fcvt.w.s semantics). */
static inline int32_t ref_f2i_rne(float f) {
  int32_t r;
  __asm__ volatile("fcvt.w.s %0, %1, rne" : "=r"(r) : "f"(f));
  return r;
}

/* What an int8 mvout of accumulator value x with fp32 scale s yields (optionally ReLU first). */
static inline int8_t ref_acc_to_elem(int32_t x, float s, int relu) {
  if (relu && x < 0) x = 0;
  return ref_sat8(ref_f2i_rne((float)x * s));
}

/* An int8 mvin'd with fp32 scale s. */
static inline int8_t ref_mvin_scaled(int8_t x, float s) { return ref_sat8(ref_f2i_rne((float)x * s)); }

/* Arithmetic right shift rounding to nearest, ties to even. */
static inline int64_t ref_shift_rne(int64_t x, int s) {
  if (s <= 0) return x;
  int64_t q = x >> s;
  int64_t r = x & (((int64_t)1 << s) - 1);
  int64_t half = (int64_t)1 << (s - 1);
  if (r > half || (r == half && (q & 1))) q++;
  return q;
}

static inline void ref_fill8(int8_t *p, int n, int lo, int hi) {
  for (int i = 0; i < n; i++) p[i] = (int8_t)ref_range(lo, hi);
}

static inline void ref_fill32(int32_t *p, int n, int lo, int hi) {
  for (int i = 0; i < n; i++) p[i] = ref_range(lo, hi);
}

/* Compare n int8 values; print the first few differences under `what`. */
static int ref_check8(const char *what, const int8_t *got, const int8_t *want, int n) {
  int bad = 0;
  for (int i = 0; i < n; i++) {
    if (got[i] != want[i]) {
      if (bad < 6) printf("MISMATCH %s [%d]: got %d want %d\n", what, i, got[i], want[i]);
      bad++;
    }
  }
  if (bad) {
    printf("FAIL %s: %d of %d differ\n", what, bad, n);
    ref_failures++;
  } else {
    printf("ok %s\n", what);
  }
  return bad;
}

static int ref_check32(const char *what, const int32_t *got, const int32_t *want, int n) {
  int bad = 0;
  for (int i = 0; i < n; i++) {
    if (got[i] != want[i]) {
      if (bad < 6) printf("MISMATCH %s [%d]: got %d want %d\n", what, i, (int)got[i], (int)want[i]);
      bad++;
    }
  }
  if (bad) {
    printf("FAIL %s: %d of %d differ\n", what, bad, n);
    ref_failures++;
  } else {
    printf("ok %s\n", what);
  }
  return bad;
}

static void ref_expect(const char *what, int cond) {
  if (!cond) {
    printf("FAIL %s\n", what);
    ref_failures++;
  } else {
    printf("ok %s\n", what);
  }
}

/* The program's exit code: 0 when every check passed. */
static int ref_result(void) {
  if (ref_failures) {
    printf("FAILED: %d check(s)\n", ref_failures);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

#endif
