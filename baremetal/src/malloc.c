/* malloc/free/calloc/realloc: an address-ordered first-fit free list on top of sbrk.
 *
 * Every block starts with a 16-byte header holding its total size (header
 * included, a multiple of 16), so payloads are 16-byte aligned. Free blocks are
 * kept sorted by address and merged with free neighbours on free(). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cosim.h"

#define ALIGN 16u
#define HEADER 16u
#define MIN_BLOCK 32u /* header + the smallest payload worth splitting off */

typedef struct block {
  size_t size;        /* total size in bytes, header included */
  struct block *next; /* next free block by address (free blocks only) */
} block_t;

_Static_assert(sizeof(block_t) <= HEADER, "block header must fit in HEADER bytes");

static block_t *free_list;

static block_t *header_of(void *payload) { return (block_t *)((char *)payload - HEADER); }
static void *payload_of(block_t *b) { return (char *)b + HEADER; }
static char *end_of(block_t *b) { return (char *)b + b->size; }

/* Block size for a request, or 0 if it cannot be represented. */
static size_t block_size(size_t n) {
  if (n > SIZE_MAX - HEADER - ALIGN) return 0;
  size_t total = (n + HEADER + ALIGN - 1) & ~(size_t)(ALIGN - 1);
  return total < MIN_BLOCK ? MIN_BLOCK : total;
}

/* Insert b into the address-ordered free list, merging with its neighbours. */
static void insert_free(block_t *b) {
  block_t *prev = 0, *cur = free_list;
  while (cur && cur < b) {
    prev = cur;
    cur = cur->next;
  }
  b->next = cur;
  if (cur && end_of(b) == (char *)cur) {
    b->size += cur->size;
    b->next = cur->next;
  }
  if (prev) {
    prev->next = b;
    if (end_of(prev) == (char *)b) {
      prev->size += b->size;
      prev->next = b->next;
    }
  } else {
    free_list = b;
  }
}

/* Grow the heap by at least `size` bytes; the new space joins the free list. */
static int grow(size_t size) {
  char *brk = (char *)sbrk(0);
  /* Keep the break 16-byte aligned (the heap start is). */
  size_t pad = (size_t)(-(uintptr_t)brk & (ALIGN - 1));
  if (size > SIZE_MAX - pad || (intptr_t)(size + pad) < 0) {
    errno = ENOMEM;
    return 0;
  }
  char *p = (char *)sbrk((intptr_t)(size + pad));
  if (p == (char *)-1) return 0;
  block_t *b = (block_t *)(p + pad);
  b->size = size;
  insert_free(b);
  return 1;
}

void *malloc(size_t n) {
  size_t need = block_size(n);
  if (need == 0) {
    errno = ENOMEM;
    return 0;
  }
  for (int attempt = 0; attempt < 2; attempt++) {
    block_t *prev = 0;
    for (block_t *b = free_list; b; prev = b, b = b->next) {
      if (b->size < need) continue;
      if (b->size - need >= MIN_BLOCK) {
        /* Split: the tail stays free. */
        block_t *rest = (block_t *)((char *)b + need);
        rest->size = b->size - need;
        rest->next = b->next;
        b->size = need;
        if (prev) prev->next = rest;
        else free_list = rest;
      } else if (prev) {
        prev->next = b->next;
      } else {
        free_list = b->next;
      }
      b->next = 0;
      return payload_of(b);
    }
    /* Grow by at least 64 KiB to keep sbrk calls rare. */
    if (attempt == 0 && !grow(need > 65536 ? need : 65536) && !grow(need)) return 0;
  }
  errno = ENOMEM;
  return 0;
}

void free(void *p) {
  if (p) insert_free(header_of(p));
}

void *calloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) {
    errno = ENOMEM;
    return 0;
  }
  void *p = malloc(count * size);
  if (p) memset(p, 0, count * size);
  return p;
}

void *realloc(void *p, size_t n) {
  if (!p) return malloc(n);
  if (n == 0) {
    free(p);
    return 0;
  }
  block_t *b = header_of(p);
  size_t need = block_size(n);
  if (need == 0) {
    errno = ENOMEM;
    return 0;
  }
  if (need <= b->size) {
    /* Shrink in place, giving a large enough tail back. */
    if (b->size - need >= MIN_BLOCK) {
      block_t *rest = (block_t *)((char *)b + need);
      rest->size = b->size - need;
      b->size = need;
      insert_free(rest);
    }
    return p;
  }
  void *q = malloc(n);
  if (!q) return 0;
  memcpy(q, p, b->size - HEADER);
  free(p);
  return q;
}
