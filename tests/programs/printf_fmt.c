/* printf/snprintf formatting: every supported conversion, flag, width, precision. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  printf("[%d] [%i] [%u] [%x] [%X] [%o] [%c] [%s] [%%]\n", -42, 42, 42u, 0xbeefu, 0xbeefu, 8u, 'q', "str");
  printf("[%5d] [%-5d] [%05d] [%+d] [% d] [%+5d] [%-+5d] [%05d]\n", 42, 42, 42, 42, 42, 42, 42, -42);
  printf("[%8x] [%-8x] [%08x] [%#x] [%#X] [%#o] [%#x]\n", 0xabcu, 0xabcu, 0xabcu, 0xabcu, 0xabcu, 8u, 0u);
  printf("[%.3d] [%8.3d] [%-8.3d] [%08.3d] [%.0d] [%.0x]\n", 7, -7, 7, 7, 0, 0u);
  printf("[%ld] [%lu] [%lx]\n", -2147483647L - 1, 4294967295UL, 0xdeadbeefUL);
  printf("[%lld] [%llu] [%llx] [%016llx]\n", (long long)INT64_MIN, (unsigned long long)UINT64_MAX, 0x123456789abcdefull,
         0xfedcba9ull);
  printf("[%hhd] [%hhu] [%hd] [%hu] [%hx]\n", 300, 300, 70000, 70000, 0x12345);
  printf("[%zu] [%zd] [%td] [%jd] [%ju]\n", (size_t)12345, (long)-5, (long)-6, (intmax_t)-7, (uintmax_t)8);
  printf("[%10s] [%-10s] [%.2s] [%*d] [%-*d] [%.*s] [%s]\n", "right", "left", "truncate", 6, 9, 6, 9, 3, "abcdef",
         "");
  printf("[%3c] [%-3c] [%c]\n", 'a', 'b', '0' + 7);
  printf("[%p] [%s]\n", (void *)0, (char *)0);
  for (int i = -3; i <= 3; i++) printf("%3d|%-3d|%03d|%+d;", i * 17, i * 17, i * 17, i);
  printf("\n");
  char buf[16];
  int n = snprintf(buf, sizeof(buf), "%s-%d-%x", "abcdefgh", 123456, 0xcafeu);
  printf("snprintf n=%d buf=\"%s\" len=%u\n", n, buf, (unsigned)strlen(buf));
  n = snprintf(buf, 1, "xyz");
  printf("size1 n=%d empty=%d\n", n, buf[0] == 0);
  n = snprintf(NULL, 0, "%08d", 5);
  printf("size0 n=%d\n", n);
  n = sprintf(buf, "%u%%", 100u);
  printf("sprintf n=%d buf=%s\n", n, buf);
  int r = printf("count me\n");
  printf("printf returned %d\n", r);
  puts("puts adds a newline");
  putchar('!');
  putchar('\n');
  return 0;
}
