/* Must trap: a custom-3 instruction with a funct7 Gemmini does not define (60). */
#include <stdint.h>
#include <stdio.h>

int main(void) {
  uint64_t a = 0, b = 0;
  __asm__ volatile(".insn r 0x7b, 3, 60, x0, %0, %1" ::"r"(a), "r"(b) : "memory");
  __asm__ volatile("fence" ::: "memory");
  printf("NOT TRAPPED: funct 60 was accepted\n");
  return 3;
}
