/* rand/srand and number parsing for the bare-metal runtime.
 *
 * rand() is the linear congruential generator of the C standard's example:
 *   state = state * 1103515245 + 12345   (mod 2^32), starting at 1 or srand's seed,
 *   rand() = (state >> 16) & 0x7fff      (RAND_MAX = 32767).
 * It is deterministic: a run without srand() always draws the same numbers. */
#include <stdint.h>
#include <stdlib.h>

static uint32_t rand_state = 1;

int rand(void) {
  rand_state = rand_state * 1103515245u + 12345u;
  return (int)((rand_state >> 16) & RAND_MAX);
}

void srand(unsigned seed) { rand_state = seed; }

static int is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* Decimal only, as atoi/atol are; overflow wraps instead of being undefined. */
long long atoll(const char *s) {
  while (is_space(*s)) s++;
  int negative = *s == '-';
  if (*s == '-' || *s == '+') s++;
  unsigned long long v = 0;
  while (*s >= '0' && *s <= '9') v = v * 10 + (unsigned)(*s++ - '0');
  return (long long)(negative ? 0ull - v : v);
}

long atol(const char *s) { return (long)atoll(s); }

int atoi(const char *s) { return (int)atoll(s); }
