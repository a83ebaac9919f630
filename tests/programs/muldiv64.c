/* 64-bit multiply/divide corners (compiler-rt helpers on RV32, mul/div on RV64). */
#include <stdint.h>
#include <stdio.h>

static void show_u(uint64_t a, uint64_t b) {
  volatile uint64_t va = a, vb = b;
  printf("u %016llx %016llx: mul %016llx", (unsigned long long)va, (unsigned long long)vb,
         (unsigned long long)(va * vb));
  if (vb) printf(" div %016llx rem %016llx", (unsigned long long)(va / vb), (unsigned long long)(va % vb));
  /* High 64 bits of the 128-bit product, built from 32-bit halves. */
  uint64_t al = va & 0xffffffffu, ah = va >> 32, bl = vb & 0xffffffffu, bh = vb >> 32;
  uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
  uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
  printf(" mulhu %016llx\n", (unsigned long long)hi);
}

static void show_s(int64_t a, int64_t b) {
  volatile int64_t va = a, vb = b;
  printf("s %lld %lld: mul %lld", (long long)va, (long long)vb, (long long)(uint64_t)((uint64_t)va * (uint64_t)vb));
  if (vb && !(va == INT64_MIN && vb == -1)) printf(" div %lld rem %lld", (long long)(va / vb), (long long)(va % vb));
  printf("\n");
}

static void show32(int32_t a, int32_t b) {
  volatile int32_t va = a, vb = b;
  volatile uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
  printf("w %d %d: mul %d", va, vb, (int32_t)((uint32_t)va * (uint32_t)vb));
  if (vb && !(va == INT32_MIN && vb == -1)) printf(" div %d rem %d", va / vb, va % vb);
  if (ub) printf(" divu %u remu %u", ua / ub, ua % ub);
  printf(" mulh %d\n", (int32_t)(((int64_t)va * (int64_t)vb) >> 32));
}

int main(void) {
  const uint64_t u[] = {0, 1, 2, 3, 7, 10, 0xffffffffu, 0x100000000ull, 0x123456789abcdefull, 0x8000000000000000ull,
                        0xfffffffffffffffeull, 0xffffffffffffffffull};
  const int nu = sizeof(u) / sizeof(u[0]);
  for (int i = 0; i < nu; i++)
    for (int j = 0; j < nu; j += 3) show_u(u[i], u[(j + i) % nu]);
  const int64_t s[] = {0, 1, -1, 7, -7, 3, -3, INT64_MAX, INT64_MIN, 1000000007, -999999999999ll, 4294967296ll};
  const int ns = sizeof(s) / sizeof(s[0]);
  for (int i = 0; i < ns; i++)
    for (int j = 0; j < ns; j += 2) show_s(s[i], s[(i + j + 1) % ns]);
  const int32_t w[] = {0, 1, -1, 5, -5, 2, INT32_MAX, INT32_MIN, 65536, -65537};
  const int nw = sizeof(w) / sizeof(w[0]);
  for (int i = 0; i < nw; i++)
    for (int j = 0; j < nw; j += 3) show32(w[i], w[(i + j) % nw]);
  /* Shifts by variable amounts across the 32-bit boundary. */
  volatile uint64_t v = 0x8421000000001248ull;
  for (volatile int k = 0; k < 64; k += 9)
    printf("shift %2d: %016llx %016llx %016llx\n", k, (unsigned long long)(v << k), (unsigned long long)(v >> k),
           (unsigned long long)((int64_t)v >> k));
  return 0;
}
