// Main loop of the cocotb build of the SoC test bench (replaces cocotb's own
// verilator.cpp): tb_top's clock is toggled here, one edge every half period
// (1 ns), so the model needs no --timing and Python is woken only by the
// callbacks cocotb registered (cocotb_run.py: a value change of `done`).
// Rising edges, and the times of cocotb's timers, are full time slots: VPI is
// serviced in the order IEEE 1800 gives (evaluate and value-change callbacks
// until quiet, ReadWrite, ReadOnly, NextSimTime, timed callbacks), so cocotb
// triggers keep working. Falling edges are only evaluated: every flop of the
// test bench and the RTL is clocked on the rising edge (but the vector unit's
// clock-gate enable, which only decides that unit's next rising edge), so
// nothing cocotb can see changes there, and skipping their VPI work saves
// ~30 ns a cycle (a third of rv32's cycle).
//
// Quiet rising edges: callbacks are only registered by callbacks (cocotb runs
// inside them), so after a full slot in which no callback ran, cocotb can have
// pending nothing but value-change callbacks and timers (which cbNextDeadline
// names). Until a value change fires or a timer is due, a rising edge is then
// evaluated and its value changes checked, nothing else: the phases it skips
// (ReadWrite, ReadOnly, NextSimTime, timed) have no callback to call.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "Vtop.h"
#include "verilated.h"
#include "verilated_vpi.h"

#if VM_TRACE
#if VM_TRACE_FST
#include <verilated_fst_c.h>
using WaveFile = VerilatedFstC;
static const char* const kDefaultWaves = "dump.fst";
#else
#include <verilated_vcd_c.h>
using WaveFile = VerilatedVcdC;
static const char* const kDefaultWaves = "dump.vcd";
#endif
#endif

extern "C" void vlog_startup_routines_bootstrap(void);

namespace {

uint64_t now = 0;

#if VM_TRACE
WaveFile* waves = nullptr;
#endif

// Value-change callbacks may change signals: call them until none fires.
// Returns whether any ran.
bool settle() {
  bool ran = false;
  while (VerilatedVpi::callValueCbs()) ran = true;
  return ran;
}

// Callbacks of `reason`, then the value changes they caused. Signals change only
// when a callback ran or a value was put, so otherwise there is nothing to settle:
// a run whose Python side waits on one signal checks values once per rising edge.
bool callbacks(uint32_t reason) {
  bool ran = VerilatedVpi::callCbs(reason);
  VerilatedVpi::doInertialPuts();
  if (ran || VerilatedVpi::evalNeeded()) ran = settle() || ran;
  return ran;
}

// A full time slot; returns whether any callback ran. `evaluated`: the caller
// already ran eval_step and the first value-change check, and a callback fired
// (nothing had been put before it, so no inertial put was pending).
bool time_slot(Vtop* top, bool evaluated) {
  bool ran = evaluated;
  do {
    do {
      if (evaluated) {
        evaluated = false;
      } else {
        top->eval_step();
        VerilatedVpi::clearEvalNeeded();
        VerilatedVpi::doInertialPuts();
      }
      ran = settle() || ran;
    } while (VerilatedVpi::evalNeeded());
    ran = callbacks(cbReadWriteSynch) || ran;
  } while (VerilatedVpi::evalNeeded());
  top->eval_end_step();
  ran = VerilatedVpi::callCbs(cbReadOnlySynch) || ran;
  return ran;
}

void wrap_up() {
  VerilatedVpi::callCbs(cbEndOfSimulation);
#if VM_TRACE
  if (waves) waves->close();
#endif
}

}  // namespace

double sc_time_stamp() { return double(now); }

int main(int argc, char** argv) {
  bool trace_on = false, trace_flush = false;
  std::string trace_file;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--trace") {
      trace_on = true;
    } else if (arg == "--trace-flush") {
      trace_flush = true;
    } else if (arg == "--trace-file" && i + 1 < argc) {
      trace_file = argv[++i];
    }
  }
#if !VM_TRACE
  if (trace_on) {
    std::fprintf(stderr, "error: --trace needs a build with waves (sim.verilator_build.build(waves=True))\n");
    return 2;
  }
#endif
  Verilated::commandArgs(argc, argv);
  VerilatedContext* ctx = Verilated::threadContextp();
  auto top = std::make_unique<Vtop>("");
  Verilated::fatalOnVpiError(false);  // cocotb probes handles that may not exist
  uint64_t half_period = 1;           // 1 ns in the context's time precision (1 ps: 1000)
  for (int p = ctx->timeprecision(); p < -9; ++p) half_period *= 10;

#if VM_TRACE
  Verilated::traceEverOn(true);
  if (trace_on) {
    waves = new WaveFile;
    top->trace(waves, 99);
    waves->open(trace_file.empty() ? kDefaultWaves : trace_file.c_str());
  }
#endif

  vlog_startup_routines_bootstrap();
  Verilated::addExitCb([](void*) { wrap_up(); }, nullptr);
  VerilatedVpi::callCbs(cbStartOfSimulation);
  settle();

  top->clk = 0;
  uint64_t next_edge = half_period;
  bool vpi_slot = true;  // time 0 (initial blocks), rising edges, cocotb timers
  bool timer_due = false;
  // No callback ran in the last full slot nor in the NextSimTime and timed
  // phases before it (time 0 counts as a slot that ran: cocotb registered its
  // start-up callbacks outside any slot).
  bool quiet = false;
  bool phase_ran = false;
  while (!Verilated::gotFinish()) {
    if (!vpi_slot) {
      top->eval_step();
      top->eval_end_step();
    } else if (quiet && !timer_due) {
      top->eval_step();
      if (VerilatedVpi::callValueCbs()) {
        time_slot(top.get(), true);
        quiet = false;
      } else {
        top->eval_end_step();
      }
    } else {
      const bool ran = time_slot(top.get(), false) || phase_ran;
      quiet = !ran && now != 0;
    }
#if VM_TRACE
    if (waves) {
      waves->dump(now);
      if (trace_flush) waves->flush();
    }
#endif
    // The next slot: the next clock edge, or a cocotb timer due before it.
    const uint64_t deadline = VerilatedVpi::cbNextDeadline();
    now = std::min<uint64_t>(next_edge, deadline);
    ctx->time(now);
    timer_due = now == deadline;
    vpi_slot = timer_due;
    if (now == next_edge) {
      top->clk = !top->clk;
      next_edge += half_period;
      vpi_slot = vpi_slot || top->clk;
    }
    if (!vpi_slot || (quiet && !timer_due)) continue;
    phase_ran = callbacks(cbNextSimTime);
    phase_ran = callbacks(cbAfterDelay) || phase_ran;  // the timed callbacks (VerilatedVpi::callTimedCbs)
  }
  top->final();
  wrap_up();
#if VM_TRACE
  delete waves;
#endif
  return ctx->errorCount() > 0 ? 1 : 0;
}
