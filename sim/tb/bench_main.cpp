// Plain C++ main loop for the same test bench (no cocotb, no VPI): the baseline
// `harness.bench_rtl` compares `cosim run` against. Run with +finish_on_done.
#include <memory>

#include "Vtop.h"
#include "verilated.h"

int main(int argc, char** argv) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto top = std::make_unique<Vtop>(ctx.get(), "tb_top");
  while (!ctx->gotFinish()) {
    top->eval();
    if (!top->eventsPending()) break;
    ctx->time(top->nextTimeSlot());
  }
  top->final();
  return 0;
}
