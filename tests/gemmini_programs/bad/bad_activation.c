/* Must trap: config_ex with activation code 2 (layernorm, absent from the default build). */
#include <stdio.h>
#include <stdlib.h>
#include "include/gemmini.h"

int main(void) {
  gemmini_config_ex(WEIGHT_STATIONARY, 2, 0);
  gemmini_fence();
  printf("NOT TRAPPED: activation code 2 was accepted\n");
  return 3;
}
