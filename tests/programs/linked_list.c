/* malloc'd linked lists: build, reverse, merge-sort, delete, free; realloc and calloc. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct node {
  int32_t value;
  char tag[12];
  struct node *next;
} node_t;

static uint32_t state = 7;
static uint32_t rnd(void) {
  state ^= state << 13;
  state ^= state >> 17;
  state ^= state << 5;
  return state;
}

static node_t *push(node_t *head, int32_t v) {
  node_t *n = malloc(sizeof(node_t));
  if (!n) {
    printf("out of memory\n");
    exit(2);
  }
  n->value = v;
  snprintf(n->tag, sizeof(n->tag), "n%d", (int)(v % 1000));
  n->next = head;
  return n;
}

static node_t *reverse(node_t *h) {
  node_t *prev = NULL;
  while (h) {
    node_t *next = h->next;
    h->next = prev;
    prev = h;
    h = next;
  }
  return prev;
}

static node_t *merge(node_t *a, node_t *b) {
  node_t dummy, *t = &dummy;
  while (a && b) {
    if (a->value <= b->value) { t->next = a; a = a->next; }
    else { t->next = b; b = b->next; }
    t = t->next;
  }
  t->next = a ? a : b;
  return dummy.next;
}

static node_t *sort(node_t *h) {
  if (!h || !h->next) return h;
  node_t *slow = h, *fast = h->next;
  while (fast && fast->next) { slow = slow->next; fast = fast->next->next; }
  node_t *second = slow->next;
  slow->next = NULL;
  return merge(sort(h), sort(second));
}

static void summary(const char *what, node_t *h) {
  int count = 0;
  int64_t sum = 0;
  int32_t first = h ? h->value : 0, last = 0;
  for (node_t *p = h; p; p = p->next) { count++; sum += p->value; last = p->value; }
  printf("%-8s count=%d sum=%lld first=%d last=%d head_tag=%s\n", what, count, (long long)sum, (int)first, (int)last,
         h ? h->tag : "-");
}

static void free_list(node_t *h) {
  while (h) { node_t *n = h->next; free(h); h = n; }
}

int main(void) {
  for (int round = 0; round < 3; round++) {
    node_t *h = NULL;
    int n = 200 + round * 500;
    for (int i = 0; i < n; i++) h = push(h, (int32_t)(rnd() % 100000) - 50000);
    summary("built", h);
    h = reverse(h);
    summary("reversed", h);
    h = sort(h);
    summary("sorted", h);
    int ordered = 1;
    for (node_t *p = h; p && p->next; p = p->next) ordered &= p->value <= p->next->value;
    /* Delete every node with an odd value. */
    node_t **pp = &h;
    while (*pp) {
      if ((*pp)->value & 1) { node_t *d = *pp; *pp = d->next; free(d); }
      else pp = &(*pp)->next;
    }
    summary("evens", h);
    printf("ordered=%d\n", ordered);
    free_list(h);
  }
  /* A growing array through realloc keeps its contents. */
  int32_t *arr = NULL;
  int cap = 0;
  uint32_t check = 0;
  for (int i = 0; i < 5000; i++) {
    if (i == cap) {
      cap = cap ? cap * 2 : 4;
      arr = realloc(arr, (size_t)cap * sizeof(int32_t));
      if (!arr) { printf("realloc failed\n"); return 3; }
    }
    arr[i] = i * 31 - 7;
  }
  for (int i = 0; i < 5000; i++) check = check * 33u + (uint32_t)arr[i];
  printf("realloc cap=%d check=%08x\n", cap, check);
  arr = realloc(arr, 10 * sizeof(int32_t));
  printf("shrunk: %d %d\n", (int)arr[0], (int)arr[9]);
  free(arr);
  /* calloc memory is zeroed even after reuse of dirty blocks. */
  char *dirty = malloc(4096);
  memset(dirty, 0xAB, 4096);
  free(dirty);
  uint8_t *z = calloc(1024, 4);
  int nonzero = 0;
  for (int i = 0; i < 4096; i++) nonzero += z[i] != 0;
  printf("calloc nonzero=%d\n", nonzero);
  free(z);
  /* Many small blocks, freed in an interleaved order, then one big block. */
  void *ptrs[256];
  for (int i = 0; i < 256; i++) ptrs[i] = malloc((size_t)(i % 17) * 8 + 1);
  int aligned = 1;
  for (int i = 0; i < 256; i++) aligned &= ((uintptr_t)ptrs[i] % 16) == 0;
  for (int i = 0; i < 256; i += 2) free(ptrs[i]);
  for (int i = 1; i < 256; i += 2) free(ptrs[i]);
  void *big = malloc(1 << 20);
  printf("aligned=%d big=%s\n", aligned, big ? "ok" : "NULL");
  free(big);
  return 0;
}
