// vfrec7.v / vfrsqrt7.v on special and pseudo-random binary32 inputs under every
// rounding mode: one element at a time (so fflags belong to that element), then a whole
// strip-mined pass at LMUL 2. Prints hex bits: "rm input rec7/flags rsqrt7/flags".
#include <riscv_vector.h>
#include <stdint.h>
#include <stdio.h>

#define NSPECIAL 30
#define N 64

static uint32_t in[N] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0xff800123,
    0x3f800000, 0xbf800000, 0x40000000, 0x40800000, 0xc0400000, 0x7e800000, 0x7f000000, 0x7f7fffff,
    0xff7fffff, 0x00800000, 0x807fffff, 0x00400000, 0x00200000, 0x80200000, 0x001fffff, 0x801fffff,
    0x00000001, 0x80000001, 0x00012345, 0x7effffff, 0x3fffffff, 0x00600000,
};
static uint32_t rec[N], rsq[N], rec_all[N], rsq_all[N];

static inline void set_frm(unsigned rm) { __asm__ volatile("fsrm %0" ::"r"(rm) : "memory"); }
static inline void clear_flags(void) { __asm__ volatile("fsflags zero" ::: "memory"); }
// No fence: the core itself holds a read of fflags until older vector instructions,
// whose completions carry fflags, have completed.
static inline unsigned get_flags(void) {
  unsigned f;
  __asm__ volatile("frflags %0" : "=r"(f)::"memory");
  return f;
}

int main(void) {
  uint32_t s = 12345u;
  for (int i = NSPECIAL; i < N; i++) {
    s = s * 1103515245u + 12345u;
    uint32_t r = s ^ (s >> 13);
    // a third tiny (subnormal or near it), the rest any exponent
    in[i] = (i % 3 == 0) ? (r & 0x80ffffffu) : r;
  }
  for (unsigned rm = 0; rm < 5; rm++) {
    set_frm(rm);
    for (int i = 0; i < N; i++) {
      size_t vl = __riscv_vsetvl_e32m1(1);
      clear_flags();
      vfloat32m1_t v = __riscv_vle32_v_f32m1((const float *)&in[i], vl);
      __riscv_vse32_v_f32m1((float *)&rec[i], __riscv_vfrec7_v_f32m1(v, vl), vl);
      unsigned frec = get_flags();
      clear_flags();
      v = __riscv_vle32_v_f32m1((const float *)&in[i], vl);
      __riscv_vse32_v_f32m1((float *)&rsq[i], __riscv_vfrsqrt7_v_f32m1(v, vl), vl);
      unsigned frsq = get_flags();
      printf("%u %08x %08x/%02x %08x/%02x\n", rm, (unsigned)in[i], (unsigned)rec[i], frec,
             (unsigned)rsq[i], frsq);
    }
    clear_flags();
    for (size_t i = 0, vl; i < N; i += vl) {
      vl = __riscv_vsetvl_e32m2(N - i);
      vfloat32m2_t v = __riscv_vle32_v_f32m2((const float *)&in[i], vl);
      __riscv_vse32_v_f32m2((float *)&rec_all[i], __riscv_vfrec7_v_f32m2(v, vl), vl);
      __riscv_vse32_v_f32m2((float *)&rsq_all[i], __riscv_vfrsqrt7_v_f32m2(v, vl), vl);
    }
    unsigned fall = get_flags();
    int same = 1;
    for (int i = 0; i < N; i++) same &= (rec_all[i] == rec[i]) && (rsq_all[i] == rsq[i]);
    printf("rm %u whole-vector pass: same %d flags %02x\n", rm, same, fall);
  }
  return 0;
}
