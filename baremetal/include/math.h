/* A small math.h for freestanding programs: only what needs no libm. The F
 * extension gives float square root, min/max and sign operations in hardware;
 * the rounding functions below are exact for every float. There is no double
 * library (no D extension): double sqrt, exp, log, pow, sin ... are not provided. */
#ifndef COSIM_MATH_H
#define COSIM_MATH_H

#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
#define HUGE_VALF (__builtin_huge_valf())
#define HUGE_VAL (__builtin_huge_val())

#define isnan(x) __builtin_isnan(x)
#define isinf(x) __builtin_isinf(x)
#define isfinite(x) __builtin_isfinite(x)
#define signbit(x) __builtin_signbit(x)

static inline float fabsf(float x) { return __builtin_fabsf(x); }
static inline double fabs(double x) { return __builtin_fabs(x); }
static inline float sqrtf(float x) { return __builtin_sqrtf(x); } /* fsqrt.s (built -fno-math-errno) */
static inline float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
static inline float fminf(float a, float b) { return __builtin_fminf(a, b); }
static inline float copysignf(float a, float b) { return __builtin_copysignf(a, b); }

/* |x| >= 2^23 (and NaN, inf) is integral already; below it the int conversion truncates exactly. */
static inline float truncf(float x) {
  return __builtin_fabsf(x) < 8388608.0f ? __builtin_copysignf((float)(int)x, x) : x;
}
static inline float floorf(float x) {
  float t = truncf(x);
  return t > x ? t - 1.0f : t;
}
static inline float ceilf(float x) {
  float t = truncf(x);
  return t < x ? t + 1.0f : t;
}
/* Halfway cases away from zero, as ISO C's roundf. */
static inline float roundf(float x) {
  float t = truncf(x);
  return __builtin_fabsf(x - t) >= 0.5f ? t + __builtin_copysignf(1.0f, x) : t;
}

#endif
