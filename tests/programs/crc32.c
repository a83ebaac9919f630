/* CRC-32 (IEEE 802.3, reflected 0xEDB88320): bitwise and table-driven must agree. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t table[256];

static void make_table(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
}

static uint32_t crc_table(const uint8_t *p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++) c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

static uint32_t crc_bitwise(const uint8_t *p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
  }
  return ~c;
}

static uint8_t buf[4096];

int main(void) {
  make_table();
  const char *msgs[] = {"", "a", "abc", "123456789", "The quick brown fox jumps over the lazy dog",
                        "dsa-cosim: one ELF, two simulators"};
  for (unsigned i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++) {
    size_t n = strlen(msgs[i]);
    uint32_t a = crc_table((const uint8_t *)msgs[i], n), b = crc_bitwise((const uint8_t *)msgs[i], n);
    printf("crc32(\"%s\") = %08x %s\n", msgs[i], a, a == b ? "ok" : "MISMATCH");
  }
  uint32_t x = 0x1234567u;
  for (size_t i = 0; i < sizeof(buf); i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    buf[i] = (uint8_t)x;
  }
  for (size_t n = 1; n <= sizeof(buf); n *= 4)
    printf("len %4u: %08x %08x\n", (unsigned)n, crc_table(buf, n), crc_bitwise(buf + 1, n - 1));
  printf("table[1]=%08x table[255]=%08X\n", table[1], table[255]);
  return 0;
}
