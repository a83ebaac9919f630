/* Allocator stress: random malloc/calloc/realloc/free with every live block filled
 * with its own pattern; any overlap or lost content shows as a corrupt block. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 97
#define STEPS 1000

static uint32_t rng = 2463534242u;
static uint32_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

static uint8_t *ptr[SLOTS];
static size_t len[SLOTS];
static uint8_t tag[SLOTS];

static int intact(int i) {
  for (size_t k = 0; k < len[i]; k++)
    if (ptr[i][k] != (uint8_t)(tag[i] + k * 7)) return 0;
  return 1;
}

static void fill(int i, size_t from) {
  for (size_t k = from; k < len[i]; k++) ptr[i][k] = (uint8_t)(tag[i] + k * 7);
}

static size_t pick_size(void) {
  uint32_t r = next() % 100;
  if (r < 60) return next() % 64;
  if (r < 90) return next() % 512;
  return next() % 4096;
}

int main(void) {
  unsigned corrupt = 0, mallocs = 0, frees = 0, reallocs = 0, callocs = 0, misaligned = 0;
  uint32_t content = 0;
  for (int step = 0; step < STEPS; step++) {
    int i = (int)(next() % SLOTS);
    uint32_t op = next() % 4;
    if (ptr[i] && !intact(i)) corrupt++;
    if (op == 0 && ptr[i]) {
      free(ptr[i]);
      ptr[i] = NULL;
      frees++;
    } else if (op == 1 && ptr[i]) {
      size_t n = pick_size(), keep = n < len[i] ? n : len[i];
      uint8_t *q = realloc(ptr[i], n ? n : 1);
      for (size_t k = 0; k < keep; k++) corrupt += q[k] != (uint8_t)(tag[i] + k * 7);
      ptr[i] = q;
      len[i] = n;
      fill(i, keep);
      reallocs++;
    } else if (!ptr[i]) {
      size_t n = pick_size();
      tag[i] = (uint8_t)next();
      if (op == 2) {
        ptr[i] = calloc(n ? n : 1, 1);
        for (size_t k = 0; k < n; k++) corrupt += ptr[i][k] != 0;
        callocs++;
      } else {
        ptr[i] = malloc(n);
        mallocs++;
      }
      len[i] = n;
      fill(i, 0);
    }
    if (ptr[i]) misaligned += ((uintptr_t)ptr[i] & 15) != 0;
  }
  for (int i = 0; i < SLOTS; i++) {
    if (!ptr[i]) continue;
    corrupt += !intact(i);
    for (size_t k = 0; k < len[i]; k++) content = content * 31u + ptr[i][k];
    free(ptr[i]);
  }
  printf("mallocs=%u callocs=%u reallocs=%u frees=%u\n", mallocs, callocs, reallocs, frees);
  printf("corrupt=%u misaligned=%u content=%08x\n", corrupt, misaligned, content);
  /* After freeing everything, one block as large as all of them at once must fit. */
  void *big = malloc((size_t)SLOTS * 4096);
  printf("big=%s\n", big ? "ok" : "NULL");
  return corrupt || misaligned || !big;
}
