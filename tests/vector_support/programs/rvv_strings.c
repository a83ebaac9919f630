// String and byte kernels in the style of a vectorized libc: strlen with
// fault-only-first loads, memchr with vfirst, memcpy at e8m8, a byte histogram
// with masked compares and vcpop. Prints results; RTL and Spike must agree.
#include <riscv_vector.h>
#include <stdint.h>
#include <stdio.h>

static char text[701];
static uint8_t src[523], dst[523];

static size_t vstrlen(const char *s) {
  size_t n = 0;
  for (;;) {
    size_t vl = __riscv_vsetvlmax_e8m4();
    vuint8m4_t v = __riscv_vle8ff_v_u8m4((const uint8_t *)s + n, &vl, vl);
    vbool2_t z = __riscv_vmseq_vx_u8m4_b2(v, 0, vl);
    long first = __riscv_vfirst_m_b2(z, vl);
    if (first >= 0) return n + (size_t)first;
    n += vl;
  }
}

static long vmemchr(const uint8_t *p, uint8_t c, size_t len) {
  for (size_t off = 0; off < len;) {
    size_t vl = __riscv_vsetvl_e8m2(len - off);
    vuint8m2_t v = __riscv_vle8_v_u8m2(p + off, vl);
    long f = __riscv_vfirst_m_b4(__riscv_vmseq_vx_u8m2_b4(v, c, vl), vl);
    if (f >= 0) return (long)(off + (size_t)f);
    off += vl;
  }
  return -1;
}

static void vmemcpy(uint8_t *d, const uint8_t *s, size_t n) {
  for (size_t vl; n > 0; n -= vl, s += vl, d += vl) {
    vl = __riscv_vsetvl_e8m8(n);
    __riscv_vse8_v_u8m8(d, __riscv_vle8_v_u8m8(s, vl), vl);
  }
}

int main(void) {
  uint32_t x = 12345;
  for (int i = 0; i < 700; i++) {
    x = x * 1103515245u + 12345u;
    text[i] = (char)('a' + (x >> 16) % 26);
  }
  int lens[] = {0, 1, 7, 31, 32, 33, 255, 256, 257, 699};
  for (unsigned i = 0; i < sizeof lens / sizeof lens[0]; i++) {
    char saved = text[lens[i]];
    text[lens[i]] = 0;
    printf("strlen(%d) = %u\n", lens[i], (unsigned)vstrlen(text));
    text[lens[i]] = saved;
  }
  for (int i = 0; i < 523; i++) src[i] = (uint8_t)(i * 37 + 11);
  printf("memchr 0x%02x at %ld, 0xff at %ld, 0x0b at %ld\n", src[400], vmemchr(src, src[400], 523),
         vmemchr(src, 0xff, 523), vmemchr(src, 0x0b, 523));
  vmemcpy(dst + 3, src, 517);
  uint32_t h = 0;
  for (int i = 0; i < 523; i++) h = h * 31 + dst[i];
  printf("memcpy hash %08x\n", (unsigned)h);
  // histogram of the top 3 bits: one masked compare + vcpop per bucket
  unsigned hist[8] = {0};
  for (size_t off = 0, vl; off < 523; off += vl) {
    vl = __riscv_vsetvl_e8m1(523 - off);
    vuint8m1_t v = __riscv_vsrl_vx_u8m1(__riscv_vle8_v_u8m1(src + off, vl), 5, vl);
    for (int b = 0; b < 8; b++) hist[b] += (unsigned)__riscv_vcpop_m_b8(__riscv_vmseq_vx_u8m1_b8(v, (uint8_t)b, vl), vl);
  }
  for (int b = 0; b < 8; b++) printf("hist[%d] = %u\n", b, hist[b]);
  return 0;
}
