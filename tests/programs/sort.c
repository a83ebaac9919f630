/* Sorting: insertion, merge and heap sort of LCG data; results must agree. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t seed = 12345;
static uint32_t lcg(void) {
  seed = seed * 1103515245u + 12345u;
  return seed >> 1;
}

static void insertion(int32_t *a, int n) {
  for (int i = 1; i < n; i++) {
    int32_t v = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

static void merge_sort(int32_t *a, int32_t *tmp, int n) {
  if (n < 2) return;
  int h = n / 2;
  merge_sort(a, tmp, h);
  merge_sort(a + h, tmp, n - h);
  int i = 0, j = h, k = 0;
  while (i < h && j < n) tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
  while (i < h) tmp[k++] = a[i++];
  while (j < n) tmp[k++] = a[j++];
  memcpy(a, tmp, (size_t)n * sizeof(int32_t));
}

static void sift(int32_t *a, int start, int end) {
  int root = start;
  while (2 * root + 1 <= end) {
    int child = 2 * root + 1, swap = root;
    if (a[swap] < a[child]) swap = child;
    if (child + 1 <= end && a[swap] < a[child + 1]) swap = child + 1;
    if (swap == root) return;
    int32_t t = a[root];
    a[root] = a[swap];
    a[swap] = t;
    root = swap;
  }
}

static void heap_sort(int32_t *a, int n) {
  for (int s = (n - 2) / 2; s >= 0; s--) sift(a, s, n - 1);
  for (int end = n - 1; end > 0; end--) {
    int32_t t = a[end];
    a[end] = a[0];
    a[0] = t;
    sift(a, 0, end - 1);
  }
}

static uint32_t checksum(const int32_t *a, int n) {
  uint32_t h = 2166136261u;
  for (int i = 0; i < n; i++) h = (h ^ (uint32_t)a[i]) * 16777619u;
  return h;
}

int main(void) {
  static const int sizes[] = {1, 2, 7, 64, 333, 1000};
  for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
    int n = sizes[s];
    int32_t *orig = malloc((size_t)n * sizeof(int32_t));
    int32_t *a = malloc((size_t)n * sizeof(int32_t));
    int32_t *b = malloc((size_t)n * sizeof(int32_t));
    int32_t *c = malloc((size_t)n * sizeof(int32_t));
    int32_t *tmp = malloc((size_t)n * sizeof(int32_t));
    for (int i = 0; i < n; i++) orig[i] = (int32_t)(lcg() % 2001u) - 1000;
    memcpy(a, orig, (size_t)n * sizeof(int32_t));
    memcpy(b, orig, (size_t)n * sizeof(int32_t));
    memcpy(c, orig, (size_t)n * sizeof(int32_t));
    insertion(a, n);
    merge_sort(b, tmp, n);
    heap_sort(c, n);
    int sorted = 1;
    for (int i = 1; i < n; i++) sorted &= a[i - 1] <= a[i];
    printf("n=%4d sorted=%d same=%d%d min=%5d max=%5d median=%5d sum=%d hash=%08x\n", n, sorted,
           memcmp(a, b, (size_t)n * 4) == 0, memcmp(a, c, (size_t)n * 4) == 0, a[0], a[n - 1], a[n / 2],
           (int)(checksum(orig, n) % 1000), checksum(a, n));
    free(tmp);
    free(c);
    free(b);
    free(a);
    free(orig);
  }
  /* Strings sort too: bubble sort with strcmp. */
  const char *words[] = {"vector", "lane", "chaining", "systolic", "gemmini", "t1", "spike", "rocket", "dlen"};
  int nw = sizeof(words) / sizeof(words[0]);
  for (int i = 0; i < nw; i++)
    for (int j = 0; j + 1 < nw - i; j++)
      if (strcmp(words[j], words[j + 1]) > 0) {
        const char *t = words[j];
        words[j] = words[j + 1];
        words[j + 1] = t;
      }
  for (int i = 0; i < nw; i++) printf("%s%c", words[i], i + 1 < nw ? ' ' : '\n');
  return 0;
}
