// Plain C++ main loop for the same test bench (no cocotb, no VPI): the baseline
// `harness.bench_rtl` compares `cosim run` against. Run with +finish_on_done.
// It toggles tb_top's clock exactly as cocotb_main.cpp does: one eval per edge,
// half a period (1 ns) apart.
#include <cstdint>
#include <memory>

#include "Vtop.h"
#include "verilated.h"

int main(int argc, char** argv) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto top = std::make_unique<Vtop>(ctx.get(), "tb_top");
  uint64_t half_period = 1;  // 1 ns in the context's time precision (1 ps: 1000)
  for (int p = ctx->timeprecision(); p < -9; ++p) half_period *= 10;
  top->clk = 0;
  top->eval();  // initial blocks: plusargs, ELF loading
  while (!ctx->gotFinish()) {
    ctx->timeInc(half_period);
    top->clk = !top->clk;
    top->eval();
  }
  top->final();
  return 0;
}
