/* The failure path of assert(): one line naming the expression and where it is, then exit(1). */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

void __cosim_assert_fail(const char *expr, const char *file, int line, const char *func) {
  printf("Assertion failed: %s, file %s:%d, function %s\n", expr, file, line, func);
  exit(1);
}
