/* binary32 arithmetic with special values, printed as hex bits (NaNs as "nan":
 * RISC-V returns the canonical NaN where x86 propagates payloads and signs). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#pragma STDC FP_CONTRACT OFF

static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static float from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static void show(const char *op, float r) {
  if (r != r) printf(" %s=nan", op);
  else printf(" %s=%08x", op, bits(r));
}

/* noinline + volatile: one rounding per operation, no constant folding or fusing. */
__attribute__((noinline)) static float add(float a, float b) { volatile float r = a + b; return r; }
__attribute__((noinline)) static float sub(float a, float b) { volatile float r = a - b; return r; }
__attribute__((noinline)) static float mul(float a, float b) { volatile float r = a * b; return r; }
__attribute__((noinline)) static float dvd(float a, float b) { volatile float r = a / b; return r; }
__attribute__((noinline)) static float fma_(float a, float b, float c) { volatile float r = __builtin_fmaf(a, b, c); return r; }
__attribute__((noinline)) static float sqrt_(float a) { volatile float r = __builtin_sqrtf(a); return r; }

int main(void) {
  static const uint32_t vals[] = {
      0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x40490fdb, 0x7f7fffff, 0xff7fffff, 0x00800000,
      0x00000001, 0x807fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x3eaaaaab, 0x4b000001, 0x33800000,
  };
  const int n = sizeof(vals) / sizeof(vals[0]);
  for (int i = 0; i < n; i++) {
    float a = from_bits(vals[i]);
    for (int j = 0; j < n; j += 1) {
      float b = from_bits(vals[(i * 7 + j) % n]);
      printf("%08x %08x:", vals[i], bits(b));
      show("add", add(a, b));
      show("sub", sub(a, b));
      show("mul", mul(a, b));
      show("div", dvd(a, b));
      show("fma", fma_(a, b, from_bits(vals[(j + 3) % n])));
      printf(" lt=%d eq=%d le=%d\n", a < b, a == b, a <= b);
    }
    printf("%08x:", vals[i]);
    show("sqrt", sqrt_(a));
    show("neg", -a);
    show("abs", __builtin_fabsf(a));
    if (a == a && __builtin_fabsf(a) < 2147483520.0f) printf(" i32=%d", (int)a);
    if (a == a && a > -1.0f && a < 4294967040.0f) printf(" u32=%u", (unsigned)a);
    printf("\n");
  }
  /* Conversions from integers (rounding to nearest even), and a rounding-sensitive sum. */
  static const int64_t ints[] = {0, 1, -1, 16777217, -16777219, 2147483647, 123456789012345ll, -9007199254740993ll};
  for (unsigned i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
    volatile int64_t v = ints[i];
    volatile int32_t w = (int32_t)ints[i];
    printf("cvt %lld: %08x %08x\n", (long long)v, bits((float)v), bits((float)w));
  }
  volatile float acc = 0.0f;
  for (int k = 1; k <= 1000; k++) acc = add(acc, dvd(1.0f, (float)k));
  printf("harmonic(1000) = %08x\n", bits(acc));
  return 0;
}
