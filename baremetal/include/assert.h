/* assert() for the bare-metal runtime: a failed assertion prints
 *   Assertion failed: <expression>, file <file>:<line>, function <function>
 * on the UART and ends the run with exit(1) (a failing EXIT code).
 * NDEBUG turns assert() into nothing, as in ISO C; this header may be included
 * again with NDEBUG changed, so it has no include guard for the macro. */
#ifndef COSIM_ASSERT_H
#define COSIM_ASSERT_H

#ifdef __cplusplus
extern "C" {
#endif

void __cosim_assert_fail(const char *expr, const char *file, int line, const char *func) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif

#if !defined(__cplusplus) && !defined(static_assert)
#define static_assert _Static_assert
#endif

#endif

#undef assert
#ifdef NDEBUG
#define assert(expr) ((void)0)
#else
#define assert(expr) ((expr) ? (void)0 : __cosim_assert_fail(#expr, __FILE__, __LINE__, __func__))
#endif
