/* printf family of the bare-metal runtime: output over UART_TX, unbuffered.
 * Conversions: %d %i %u %x %X %o %p %s %c %%, length modifiers hh h l ll z t j,
 * flags '-' '0' '+' ' ' '#', width and precision (numbers or '*').
 * No floating point conversions: %f/%e/%g/%a print the conversion text as is. */
#ifndef COSIM_STDIO_H
#define COSIM_STDIO_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EOF (-1)

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int sprintf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int puts(const char *s);
int putchar(int c);

#ifdef __cplusplus
}
#endif

#endif
