// Probe of the vector decoder (sim/rtl/vector/vec_decoder.sv): reads lines
// "<insn> <vtype> <vstart>" (hex) from stdin and prints "1" (legal) or "0" per line.
// Used by sim/rtl/vector/gen_coverage.py to build COVERAGE.md from the RTL itself.
#include "Vvec_decoder.h"
#include "verilated.h"

#include <cstdio>

int main() {
  auto* ctx = new VerilatedContext;
  auto* dec = new Vvec_decoder{ctx};
  unsigned insn, vtype, vstart;
  while (std::scanf("%x %x %x", &insn, &vtype, &vstart) == 3) {
    dec->insn_i = insn;
    dec->vtype_i = vtype;
    dec->vstart_i = vstart;
    dec->eval();
    std::printf("%d\n", dec->legal_o ? 1 : 0);
  }
  dec->final();
  delete dec;
  delete ctx;
  return 0;
}
