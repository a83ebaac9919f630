/* Memory and string functions. Built with -ffreestanding (no-builtins), so the
 * compiler does not turn these loops back into calls to themselves. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *memcpy(void *dst, const void *src, size_t n) {
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  /* Word copies when both pointers share alignment: the common case for buffers. */
  if ((((uintptr_t)d ^ (uintptr_t)s) & (sizeof(uintptr_t) - 1)) == 0) {
    while (n && ((uintptr_t)d & (sizeof(uintptr_t) - 1))) {
      *d++ = *s++;
      n--;
    }
    uintptr_t *dw = (uintptr_t *)d;
    const uintptr_t *sw = (const uintptr_t *)s;
    for (; n >= sizeof(uintptr_t); n -= sizeof(uintptr_t)) *dw++ = *sw++;
    d = (unsigned char *)dw;
    s = (const unsigned char *)sw;
  }
  while (n--) *d++ = *s++;
  return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  if (d == s || n == 0) return dst;
  if (d < s || d >= s + n) return memcpy(dst, src, n);
  /* Overlap with dst above src: copy backwards. */
  while (n--) d[n] = s[n];
  return dst;
}

void *memset(void *dst, int c, size_t n) {
  unsigned char *d = (unsigned char *)dst;
  unsigned char b = (unsigned char)c;
  while (n && ((uintptr_t)d & (sizeof(uintptr_t) - 1))) {
    *d++ = b;
    n--;
  }
  uintptr_t w = (uintptr_t)0x0101010101010101ull * b;
  uintptr_t *dw = (uintptr_t *)d;
  for (; n >= sizeof(uintptr_t); n -= sizeof(uintptr_t)) *dw++ = w;
  d = (unsigned char *)dw;
  while (n--) *d++ = b;
  return dst;
}

int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *x = (const unsigned char *)a;
  const unsigned char *y = (const unsigned char *)b;
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

size_t strlen(const char *s) {
  const char *p = s;
  while (*p) p++;
  return (size_t)(p - s);
}

int strcmp(const char *a, const char *b) {
  while (*a && *a == *b) {
    a++;
    b++;
  }
  return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n) {
  for (; n; n--, a++, b++) {
    if (*a != *b) return (unsigned char)*a - (unsigned char)*b;
    if (!*a) return 0;
  }
  return 0;
}

char *strcpy(char *dst, const char *src) {
  char *d = dst;
  while ((*d++ = *src++)) {
  }
  return dst;
}

char *strchr(const char *s, int c) {
  for (;; s++) {
    if (*s == (char)c) return (char *)s;
    if (!*s) return 0;
  }
}

int abs(int x) { return x < 0 ? -x : x; }
long labs(long x) { return x < 0 ? -x : x; }
long long llabs(long long x) { return x < 0 ? -x : x; }
