/* printf family: integers, strings, chars, pointers; no floating point.
 * One formatter writes into a sink that is either the UART or a bounded buffer. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cosim.h"

typedef struct {
  char *buf;   /* NULL: write to the UART */
  size_t size; /* buffer capacity, terminator included */
  size_t len;  /* characters produced so far (may exceed size) */
} sink_t;

static void emit(sink_t *s, char c) {
  if (!s->buf) *(volatile uint8_t *)COSIM_MMIO_UART_TX = (uint8_t)c;
  else if (s->len + 1 < s->size) s->buf[s->len] = c;
  s->len++;
}

static void emit_n(sink_t *s, char c, int n) {
  while (n-- > 0) emit(s, c);
}

enum { F_LEFT = 1, F_ZERO = 2, F_PLUS = 4, F_SPACE = 8, F_ALT = 16 };

/* Formats one integer: sign/prefix, precision (minimum digits), width, padding. */
static void emit_int(sink_t *s, unsigned long long v, int negative, unsigned base, int upper,
                     int flags, int width, int prec, const char *prefix) {
  char digits[24];
  int nd = 0;
  const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  while (v) {
    digits[nd++] = set[v % base];
    v /= base;
  }
  if (prec < 0) prec = 1;
  else flags &= ~F_ZERO; /* an explicit precision disables zero padding (C11 7.21.6.1) */
  /* '#' with octal: the first digit must be 0. */
  int zeros = prec > nd ? prec - nd : 0;
  if (base == 8 && (flags & F_ALT) && zeros == 0 && (nd == 0 || digits[nd - 1] != '0')) zeros = 1;
  char sign = negative ? '-' : (flags & F_PLUS) ? '+' : (flags & F_SPACE) ? ' ' : 0;
  int plen = prefix ? (int)strlen(prefix) : 0;
  int body = nd + zeros + (sign ? 1 : 0) + plen;
  int pad = width > body ? width - body : 0;
  if (!(flags & (F_LEFT | F_ZERO))) emit_n(s, ' ', pad);
  if (sign) emit(s, sign);
  for (int i = 0; i < plen; i++) emit(s, prefix[i]);
  if (flags & F_ZERO) emit_n(s, '0', pad);
  emit_n(s, '0', zeros);
  while (nd) emit(s, digits[--nd]);
  if (flags & F_LEFT) emit_n(s, ' ', pad);
}

static void emit_str(sink_t *s, const char *str, int flags, int width, int prec) {
  if (!str) str = "(null)";
  int n = 0;
  while (str[n] && (prec < 0 || n < prec)) n++;
  int pad = width > n ? width - n : 0;
  if (!(flags & F_LEFT)) emit_n(s, ' ', pad);
  for (int i = 0; i < n; i++) emit(s, str[i]);
  if (flags & F_LEFT) emit_n(s, ' ', pad);
}

enum { L_INT, L_CHAR, L_SHORT, L_LONG, L_LLONG, L_SIZE, L_PTRDIFF, L_MAX };

static void format(sink_t *s, const char *fmt, va_list ap) {
  for (const char *p = fmt; *p; p++) {
    if (*p != '%') {
      emit(s, *p);
      continue;
    }
    const char *start = p++;
    int flags = 0;
    for (;; p++) {
      if (*p == '-') flags |= F_LEFT;
      else if (*p == '0') flags |= F_ZERO;
      else if (*p == '+') flags |= F_PLUS;
      else if (*p == ' ') flags |= F_SPACE;
      else if (*p == '#') flags |= F_ALT;
      else break;
    }
    int width = 0;
    if (*p == '*') {
      width = va_arg(ap, int);
      if (width < 0) {
        flags |= F_LEFT;
        width = -width;
      }
      p++;
    } else {
      while (*p >= '0' && *p <= '9') width = width * 10 + (*p++ - '0');
    }
    int prec = -1;
    if (*p == '.') {
      p++;
      prec = 0;
      if (*p == '*') {
        prec = va_arg(ap, int);
        p++;
      } else {
        while (*p >= '0' && *p <= '9') prec = prec * 10 + (*p++ - '0');
      }
    }
    if (flags & F_LEFT) flags &= ~F_ZERO;
    int len = L_INT;
    if (*p == 'h') len = (*++p == 'h') ? (p++, L_CHAR) : L_SHORT;
    else if (*p == 'l') len = (*++p == 'l') ? (p++, L_LLONG) : L_LONG;
    else if (*p == 'z') len = (p++, L_SIZE);
    else if (*p == 't') len = (p++, L_PTRDIFF);
    else if (*p == 'j') len = (p++, L_MAX);

    char conv = *p;
    if (conv == 'd' || conv == 'i') {
      long long v;
      switch (len) {
        case L_LONG: v = va_arg(ap, long); break;
        case L_LLONG: v = va_arg(ap, long long); break;
        case L_SIZE: v = (ptrdiff_t)va_arg(ap, size_t); break; /* signed size_t, same width */
        case L_PTRDIFF: v = va_arg(ap, ptrdiff_t); break;
        case L_MAX: v = va_arg(ap, intmax_t); break;
        case L_CHAR: v = (signed char)va_arg(ap, int); break;
        case L_SHORT: v = (short)va_arg(ap, int); break;
        default: v = va_arg(ap, int); break;
      }
      /* Negate in unsigned arithmetic so LLONG_MIN works. */
      unsigned long long mag = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
      emit_int(s, mag, v < 0, 10, 0, flags, width, prec, 0);
    } else if (conv == 'u' || conv == 'x' || conv == 'X' || conv == 'o') {
      unsigned long long v;
      switch (len) {
        case L_LONG: v = va_arg(ap, unsigned long); break;
        case L_LLONG: v = va_arg(ap, unsigned long long); break;
        case L_SIZE: v = va_arg(ap, size_t); break;
        case L_PTRDIFF: v = (unsigned long long)va_arg(ap, ptrdiff_t); break;
        case L_MAX: v = va_arg(ap, uintmax_t); break;
        case L_CHAR: v = (unsigned char)va_arg(ap, unsigned); break;
        case L_SHORT: v = (unsigned short)va_arg(ap, unsigned); break;
        default: v = va_arg(ap, unsigned); break;
      }
      unsigned base = conv == 'u' ? 10 : conv == 'o' ? 8 : 16;
      const char *prefix = 0;
      if ((flags & F_ALT) && v != 0 && base == 16) prefix = conv == 'X' ? "0X" : "0x";
      flags &= ~(F_PLUS | F_SPACE); /* signs only apply to signed conversions */
      emit_int(s, v, 0, base, conv == 'X', flags, width, prec, prefix);
    } else if (conv == 'p') {
      void *ptr = va_arg(ap, void *);
      /* Same text as glibc: "(nil)" for NULL, else 0x and lower-case hex. */
      if (!ptr) emit_str(s, "(nil)", flags, width, -1);
      else emit_int(s, (uintptr_t)ptr, 0, 16, 0, flags & ~(F_PLUS | F_SPACE), width, prec, "0x");
    } else if (conv == 's') {
      emit_str(s, va_arg(ap, const char *), flags, width, prec);
    } else if (conv == 'c') {
      char c = (char)va_arg(ap, int);
      int pad = width > 1 ? width - 1 : 0;
      if (!(flags & F_LEFT)) emit_n(s, ' ', pad);
      emit(s, c);
      if (flags & F_LEFT) emit_n(s, ' ', pad);
    } else if (conv == '%') {
      emit(s, '%');
    } else {
      /* Unsupported (floating point among them): print the conversion as written. */
      for (const char *q = start; q <= p && *q; q++) emit(s, *q);
      if (!*p) break;
    }
  }
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap) {
  char dummy;
  sink_t s = {buf ? buf : &dummy, buf ? size : 0, 0};
  format(&s, fmt, ap);
  if (size) buf[s.len < size ? s.len : size - 1] = '\0';
  return (int)s.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, size, fmt, ap);
  va_end(ap);
  return n;
}

int sprintf(char *buf, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, (size_t)-1 / 2, fmt, ap);
  va_end(ap);
  return n;
}

int vprintf(const char *fmt, va_list ap) {
  sink_t s = {0, 0, 0};
  format(&s, fmt, ap);
  return (int)s.len;
}

int printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vprintf(fmt, ap);
  va_end(ap);
  return n;
}

int putchar(int c) {
  *(volatile uint8_t *)COSIM_MMIO_UART_TX = (uint8_t)c;
  return (unsigned char)c;
}

int puts(const char *str) {
  write(1, str, strlen(str));
  putchar('\n');
  return 1;
}
