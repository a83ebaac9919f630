// DPI side of the test bench: the sparse backing store, ELF loading, the MMIO
// page (EXIT, UART_TX, PROFILE, TRAP_*), the commit trace and the run report.
// Everything here is called from tb_top.sv / tb_mem_port.sv; nothing runs per
// cycle unless the RTL calls it.
#include <svdpi.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

constexpr uint64_t kPageBits = 16;  // 64 KiB pages
constexpr uint64_t kPageSize = uint64_t(1) << kPageBits;

// MMIO page offsets (DESIGN.md plus the lead's TRAP registers).
// Defaults; the runner passes the config's offsets (+mmio_offsets).
enum MmioReg { kExit, kUartTx, kProfile, kTrapCause, kTrapEpc, kTrapTval, kNumMmio };
constexpr uint64_t kMmioSize = 0x1000;

struct Region {
  uint64_t base, size;
};

struct ProfileEvent {
  uint32_t value;
  uint64_t cycle;
  std::vector<uint64_t> counters;  // performance counters at the store (tb_perf_sample)
};

// A Gemmini instruction at the issue handshake (tb_top.sv g_gm_issue).
struct GemminiIssue {
  uint64_t pc;
  uint32_t insn;
  uint64_t rs1, rs2;
};

struct GemminiRefusal {
  GemminiIssue issue;
  int reason;            // gemmini_unit_pkg::gm_illegal_e
  size_t accepted;       // accepted instructions before it
};

// Accepted Gemmini instructions kept for the trap report's replay (24 bytes each).
constexpr size_t kMaxGemminiIssues = size_t(1) << 18;

struct State {
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages;
  uint64_t last_page = ~uint64_t(0);
  uint8_t* last_ptr = nullptr;
  std::vector<Region> regions;
  uint64_t mmio_base = 0x10000000;
  uint64_t mmio_off[kNumMmio] = {0x00, 0x10, 0x14, 0x18, 0x20, 0x28};  // DESIGN.md defaults
  int xlen = 32;
  std::string outdir;
  std::vector<std::pair<uint64_t, uint64_t>> dumps;
  FILE* trace = nullptr;
  FILE* uart = nullptr;
  std::string uart_text;
  std::vector<ProfileEvent> profile;
  bool exit_written = false;
  uint32_t exit_code = 0;
  bool trap_written = false;
  uint64_t trap_cause = 0, trap_epc = 0, trap_tval = 0;
  uint64_t mem_reads[3] = {0, 0, 0}, mem_writes[3] = {0, 0, 0};
  std::string init_error;
  std::vector<std::string> perf_names;  // index -> counter name ("" = not on this SoC)
  std::vector<uint64_t> perf_totals;
  std::string fail_message;             // why the test bench ended the run (assertions)
  std::vector<GemminiIssue> gemmini_issues;     // accepted, in program order (up to kMaxGemminiIssues)
  size_t gemmini_accepted = 0;                  // all accepted, kept or not
  std::vector<GemminiRefusal> gemmini_refusals;
  int cop_inflight = -1;                        // coprocessor instructions in flight at a hang (-1: not asked)
};

State g;

uint8_t* page_for(uint64_t addr, bool create) {
  uint64_t page = addr >> kPageBits;
  if (page == g.last_page) return g.last_ptr;
  auto it = g.pages.find(page);
  if (it == g.pages.end()) {
    if (!create) return nullptr;
    auto mem = std::make_unique<uint8_t[]>(kPageSize);
    std::memset(mem.get(), 0, kPageSize);
    it = g.pages.emplace(page, std::move(mem)).first;
  }
  g.last_page = page;
  g.last_ptr = it->second.get();
  return g.last_ptr;
}

bool in_memory(uint64_t addr, uint64_t size) {
  for (const Region& r : g.regions)
    if (addr >= r.base && addr + size <= r.base + r.size) return true;
  return false;
}

uint8_t read_byte(uint64_t addr) {
  uint8_t* p = page_for(addr, false);
  return p ? p[addr & (kPageSize - 1)] : 0;
}

void write_byte(uint64_t addr, uint8_t v) { page_for(addr, true)[addr & (kPageSize - 1)] = v; }

std::string hex(uint64_t v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*" PRIx64, digits, v);
  return buf;
}

bool write_error(const std::string& msg) {
  g.init_error = msg;
  std::string path = g.outdir + "/result.txt";
  if (FILE* f = std::fopen(path.c_str(), "w")) {
    std::fprintf(f, "ending error\nmessage %s\n", msg.c_str());
    std::fclose(f);
  }
  std::fprintf(stderr, "tb: %s\n", msg.c_str());
  return false;
}

template <typename T>
bool read_at(FILE* f, uint64_t off, T* out, size_t n = 1) {
  return std::fseek(f, long(off), SEEK_SET) == 0 && std::fread(out, sizeof(T), n, f) == n;
}

// Load every PT_LOAD segment of a little-endian RISC-V ELF (32 or 64 bit).
bool load_elf(const char* path, int64_t* entry) {
  FILE* f = std::fopen(path, "rb");
  if (!f) return write_error(std::string("cannot open ELF ") + path + ": " + std::strerror(errno));
  std::unique_ptr<FILE, int (*)(FILE*)> closer(f, std::fclose);
  unsigned char ident[16];
  if (!read_at(f, 0, ident, 16) || std::memcmp(ident, "\x7f" "ELF", 4) != 0)
    return write_error(std::string(path) + " is not an ELF file");
  const bool is64 = ident[4] == 2;
  if ((is64 ? 64 : 32) != g.xlen)
    return write_error(std::string(path) + " is a " + (is64 ? "64" : "32") + "-bit ELF but the SoC is RV" +
                       std::to_string(g.xlen) + "; build it for this config");
  uint64_t phoff, ent;
  uint16_t phentsize, phnum;
  if (is64) {
    read_at(f, 24, &ent);
    read_at(f, 32, &phoff);
    read_at(f, 54, &phentsize);
    read_at(f, 56, &phnum);
  } else {
    uint32_t e32, p32;
    read_at(f, 24, &e32);
    read_at(f, 28, &p32);
    read_at(f, 42, &phentsize);
    read_at(f, 44, &phnum);
    ent = e32;
    phoff = p32;
  }
  for (unsigned i = 0; i < phnum; ++i) {
    uint64_t ph = phoff + uint64_t(i) * phentsize;
    uint32_t type;
    uint64_t off, paddr, filesz, memsz;
    read_at(f, ph, &type);
    if (type != 1) continue;  // PT_LOAD
    if (is64) {
      read_at(f, ph + 8, &off);
      read_at(f, ph + 24, &paddr);
      read_at(f, ph + 32, &filesz);
      read_at(f, ph + 40, &memsz);
    } else {
      uint32_t o, p, fs, ms;
      read_at(f, ph + 4, &o);
      read_at(f, ph + 12, &p);
      read_at(f, ph + 16, &fs);
      read_at(f, ph + 20, &ms);
      off = o, paddr = p, filesz = fs, memsz = ms;
    }
    if (memsz == 0) continue;
    if (!in_memory(paddr, memsz))
      return write_error("ELF segment at " + hex(paddr, 8) + " (size " + std::to_string(memsz) +
                         ") lies outside the SoC's memory regions; fix the linker script");
    std::vector<uint8_t> buf(filesz);
    if (filesz && !read_at(f, off, buf.data(), filesz)) return write_error(std::string(path) + ": truncated segment");
    // Copy page by page; bss stays zero (fresh pages are zeroed).
    for (uint64_t done = 0; done < filesz;) {
      uint64_t a = paddr + done;
      uint64_t n = std::min<uint64_t>(filesz - done, kPageSize - (a & (kPageSize - 1)));
      std::memcpy(page_for(a, true) + (a & (kPageSize - 1)), buf.data() + done, n);
      done += n;
    }
  }
  *entry = int64_t(ent);
  return true;
}

std::vector<std::pair<uint64_t, uint64_t>> parse_pairs(const char* text) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  std::string s(text ? text : "");
  size_t pos = 0;
  while (pos < s.size()) {
    size_t end = s.find(',', pos);
    if (end == std::string::npos) end = s.size();
    std::string item = s.substr(pos, end - pos);
    size_t colon = item.find(':');
    if (colon != std::string::npos)
      out.emplace_back(std::strtoull(item.substr(0, colon).c_str(), nullptr, 0),
                       std::strtoull(item.substr(colon + 1).c_str(), nullptr, 0));
    pos = end + 1;
  }
  return out;
}

int mmio_reg(uint64_t off) {
  for (int r = 0; r < kNumMmio; ++r)
    if (g.mmio_off[r] == off) return r;
  return -1;
}

void mmio_store(uint64_t off, uint64_t value, uint64_t cycle) {
  switch (mmio_reg(off)) {
    case kExit:
      g.exit_written = true;
      g.exit_code = uint32_t(value);
      break;
    case kUartTx: {
      char c = char(value & 0xff);
      g.uart_text.push_back(c);
      if (g.uart) std::fputc(c, g.uart);
      break;
    }
    case kProfile:
      g.profile.push_back({uint32_t(value), cycle, {}});
      break;
    case kTrapCause:
      g.trap_written = true;
      g.trap_cause = value;
      break;
    case kTrapEpc:
      g.trap_epc = value;
      break;
    case kTrapTval:
      g.trap_tval = value;
      break;
    default:
      break;
  }
}

}  // namespace

extern "C" {

int tb_init(const char* elf, const char* outdir, const char* trace, const char* dumps, const char* regions,
            int64_t mmio_base, const char* mmio_offsets, int xlen, int64_t* entry) {
  g.outdir = outdir && *outdir ? outdir : ".";
  g.xlen = xlen;
  g.mmio_base = uint64_t(mmio_base);
  for (auto& [base, size] : parse_pairs(regions)) g.regions.push_back({base, size});
  if (g.regions.empty()) {  // DESIGN.md's map when the runner names none
    g.regions = {{0x20000000, 0x20000000}, {0x40000000, 0x80000000}, {0xC0000000, 0x1000000}};
  }
  g.dumps = parse_pairs(dumps);
  if (mmio_offsets && *mmio_offsets) {
    const char* p = mmio_offsets;
    for (int r = 0; r < kNumMmio && *p; ++r) {
      char* end = nullptr;
      g.mmio_off[r] = std::strtoull(p, &end, 0);
      p = (*end == ',') ? end + 1 : end;
    }
  }
  *entry = 0;
  if (!elf || !*elf) return write_error("no ELF given (+elf=FILE)") ? 0 : 1;
  if (trace && *trace) {
    g.trace = std::fopen(trace, "w");
    if (!g.trace) return write_error(std::string("cannot write trace ") + trace) ? 0 : 1;
    std::setvbuf(g.trace, nullptr, _IOFBF, 1 << 20);
  }
  g.uart = std::fopen((g.outdir + "/uart.txt").c_str(), "w");
  return load_elf(elf, entry) ? 0 : 1;
}

// One beat on a memory port. addr is the byte address of the access; the beat
// covers the naturally aligned nbytes around it and wstrb selects the bytes.
// Returns 0 ok, 1 access fault, 2 the store wrote EXIT, 3 the store wrote PROFILE.
}  // extern "C"

namespace {

// The access itself; wb/rb hold nbytes little-endian bytes.
int mem_access(int port, uint32_t addr, int nbytes, int we, const uint8_t* wb, uint64_t strb, uint8_t* rb,
               int64_t cycle) {
  const uint64_t a = addr;
  const uint64_t base = a & ~uint64_t(nbytes - 1);
  std::memset(rb, 0, nbytes);
  if (a >= g.mmio_base && a < g.mmio_base + kMmioSize) {
    if (!we || strb == 0) return 0;  // loads from the page read 0
    // The register is at the lowest written byte; its value is the written bytes.
    int lo = __builtin_ctzll(strb);
    uint64_t value = 0;
    for (int i = lo, k = 0; i < nbytes && k < 8 && (strb >> i & 1); ++i, ++k) value |= uint64_t(wb[i]) << (8 * k);
    const uint64_t off = base + lo - g.mmio_base;
    mmio_store(off, value, uint64_t(cycle));
    // The port tells the test bench about EXIT (run ending) and PROFILE (counter sample).
    return mmio_reg(off) == kExit ? 2 : mmio_reg(off) == kProfile ? 3 : 0;
  }
  if (!in_memory(base, nbytes)) return 1;
  if (we) {
    ++g.mem_writes[port];
    uint8_t* p = page_for(base, true) + (base & (kPageSize - 1));
    for (int i = 0; i < nbytes; ++i)
      if (strb >> i & 1) p[i] = wb[i];
  } else {
    ++g.mem_reads[port];
    uint8_t* p = page_for(base, false);
    if (p) std::memcpy(rb, p + (base & (kPageSize - 1)), nbytes);
  }
  return 0;
}

}  // namespace

extern "C" {

// Wide ports (up to 512 bits).
int tb_mem_access(int port, int addr, int nbytes, int we, const svBitVecVal* wdata, const svBitVecVal* wstrb,
                  svBitVecVal* rdata, int64_t cycle) {
  const uint64_t strb = uint64_t(wstrb[0]) | (uint64_t(wstrb[1]) << 32);
  std::memset(rdata, 0, 64);
  return mem_access(port, uint32_t(addr), nbytes, we, reinterpret_cast<const uint8_t*>(wdata), strb,
                    reinterpret_cast<uint8_t*>(rdata), cycle);
}

// Ports of at most 64 bits: scalar arguments, no wide-vector conversions per call.
int tb_mem_access64(int port, int addr, int nbytes, int we, uint64_t wdata, int wstrb, uint64_t* rdata,
                    int64_t cycle) {
  uint8_t wb[8], rb[8];
  std::memcpy(wb, &wdata, 8);
  int rc = mem_access(port, uint32_t(addr), nbytes, we, wb, uint32_t(wstrb) & 0xff, rb, cycle);
  uint64_t r = 0;
  std::memcpy(&r, rb, nbytes);
  *rdata = r;
  return rc;
}

void tb_retire(int64_t pc, int insn, int x_we, int f_we, int rd, int64_t wdata, int mem_re, int mem_we,
               int64_t mem_addr, int64_t mem_wdata, int mem_size, int csr_we, int csr_addr, int64_t csr_wdata,
               int cop, int seq) {
  if (!g.trace) return;
  const int xd = g.xlen / 4;
  std::string line = hex(uint64_t(pc), xd) + " (" + hex(uint32_t(insn), 8) + ")";
  if (x_we) line += " x" + std::to_string(rd) + " " + hex(uint64_t(wdata), xd);
  if (f_we) line += " f" + std::to_string(rd) + " " + hex(uint64_t(wdata), g.xlen == 64 ? 16 : 8);
  if (csr_we) {
    static const std::unordered_map<int, const char*> names = {
        {0x001, "fflags"},  {0x002, "frm"},      {0x003, "fcsr"},     {0x008, "vstart"},  {0x009, "vxsat"},
        {0x00a, "vxrm"},    {0x00f, "vcsr"},     {0x300, "mstatus"},  {0x301, "misa"},    {0x304, "mie"},
        {0x305, "mtvec"},   {0x340, "mscratch"}, {0x341, "mepc"},     {0x342, "mcause"},  {0x343, "mtval"},
        {0xb00, "mcycle"},  {0xb02, "minstret"}, {0xb80, "mcycleh"},  {0xb82, "minstreth"}};
    auto it = names.find(csr_addr);
    line += " c" + std::to_string(csr_addr) + "_" + (it != names.end() ? it->second : "csr") + " " +
            hex(uint64_t(csr_wdata), xd);
  }
  if (mem_re) line += " mem " + hex(uint64_t(mem_addr), xd);
  if (mem_we) line += " mem " + hex(uint64_t(mem_addr), xd) + " " + hex(uint64_t(mem_wdata), 2 << mem_size);
  if (cop) line += " #" + std::to_string(seq);
  line += "\n";
  std::fputs(line.c_str(), g.trace);
}

void tb_trap(int cause, int64_t epc, int64_t tval) {
  if (!g.trace) return;
  const int xd = g.xlen / 4;
  std::fprintf(g.trace, "trap %d %s %s\n", cause, hex(uint64_t(epc), xd).c_str(), hex(uint64_t(tval), xd).c_str());
}

void tb_late_wb(int seq, int f_we, int rd, int64_t wdata) {
  if (!g.trace) return;
  int digits = f_we ? (g.xlen == 64 ? 16 : 8) : g.xlen / 4;
  std::fprintf(g.trace, "@%d %c%d %s\n", seq, f_we ? 'f' : 'x', rd, hex(uint64_t(wdata), digits).c_str());
}

// A vector register write (`@<seq> v<n> 0x<VLEN/4 digits>`), sent as 32-bit words,
// least significant first: tb_vreg_begin, tb_vreg_word per word, tb_vreg_end.
static std::vector<uint32_t> g_vreg_words;
static int g_vreg_seq = 0, g_vreg_reg = 0;

void tb_vreg_begin(int seq, int reg) {
  g_vreg_seq = seq;
  g_vreg_reg = reg;
  g_vreg_words.clear();
}

void tb_vreg_word(int w) { g_vreg_words.push_back(uint32_t(w)); }

void tb_vreg_end() {
  if (!g.trace) return;
  std::string line = "@" + std::to_string(g_vreg_seq) + " v" + std::to_string(g_vreg_reg) + " 0x";
  char buf[9];
  for (auto it = g_vreg_words.rbegin(); it != g_vreg_words.rend(); ++it) {
    std::snprintf(buf, sizeof buf, "%08x", *it);
    line += buf;
  }
  line += "\n";
  std::fputs(line.c_str(), g.trace);
}

// Vector store writes (tb_vtrace.sv): every byte the vector unit's memory port
// accepted for a store, kept per sequence number as runs of consecutive
// addresses and printed at the instruction's completion as one line
// `@<seq>[ mem 0x<addr> 0x<bytes>]*` (commit_trace.md). tb_vstore_clear at issue.
struct StoreRun {
  uint64_t addr;
  std::vector<uint8_t> bytes;
};
static std::vector<StoreRun> g_vstore[256];

void tb_vstore_clear(int seq) { g_vstore[seq & 255].clear(); }

void tb_vstore_byte(int seq, int64_t addr, int value) {
  std::vector<StoreRun>& runs = g_vstore[seq & 255];
  const uint64_t a = uint64_t(addr);
  if (runs.empty() || runs.back().addr + runs.back().bytes.size() != a) runs.push_back({a, {}});
  runs.back().bytes.push_back(uint8_t(value));
}

void tb_vstore_end(int seq) {
  std::vector<StoreRun>& runs = g_vstore[seq & 255];
  if (g.trace) {
    std::string line = "@" + std::to_string(seq);
    char buf[3];
    for (const StoreRun& r : runs) {
      line += " mem " + hex(r.addr, g.xlen / 4) + " 0x";
      for (auto it = r.bytes.rbegin(); it != r.bytes.rend(); ++it) {
        std::snprintf(buf, sizeof buf, "%02x", *it);
        line += buf;
      }
    }
    line += "\n";
    std::fputs(line.c_str(), g.trace);
  }
  runs.clear();
}

// Performance counters (tb_top.sv): names once, samples at PROFILE stores, totals
// at the end. Counters without a name do not exist on this SoC and are not reported.
void tb_perf_name(int idx, const char* name) {
  if (idx < 0) return;
  if (size_t(idx) >= g.perf_names.size()) g.perf_names.resize(idx + 1);
  g.perf_names[idx] = name ? name : "";
}

void tb_perf_sample(int idx, int64_t value) {
  if (g.profile.empty() || idx < 0) return;
  std::vector<uint64_t>& c = g.profile.back().counters;
  if (size_t(idx) >= c.size()) c.resize(idx + 1);
  c[idx] = uint64_t(value);
}

void tb_perf_total(int idx, int64_t value) {
  if (idx < 0) return;
  if (size_t(idx) >= g.perf_totals.size()) g.perf_totals.resize(idx + 1);
  g.perf_totals[idx] = uint64_t(value);
}

// Gemmini issue handshakes (tb_top.sv): accepted instructions are only kept; they
// and the refusals reach result.txt only when something was refused.
void tb_gemmini_issue(int64_t pc, int insn, int64_t rs1, int64_t rs2) {
  if (g.gemmini_issues.size() < kMaxGemminiIssues)
    g.gemmini_issues.push_back({uint64_t(pc), uint32_t(insn), uint64_t(rs1), uint64_t(rs2)});
  ++g.gemmini_accepted;
}

void tb_gemmini_refused(int64_t pc, int insn, int64_t rs1, int64_t rs2, int reason) {
  g.gemmini_refusals.push_back({{uint64_t(pc), uint32_t(insn), uint64_t(rs1), uint64_t(rs2)}, reason,
                                g.gemmini_accepted});
}

void tb_cop_inflight(int count) { g.cop_inflight = count; }

void tb_fail(const char* message) {
  g.fail_message = message ? message : "";
  std::fprintf(stderr, "tb: %s\n", g.fail_message.c_str());
}

// Write result.txt (key value lines) and the requested memory dumps.
void tb_finish(int reason, int64_t cycle, int64_t pc, int64_t instret, int64_t imem_busy, int64_t dmem_busy,
               int64_t amem_busy, int64_t loop_cause, int64_t loop_epc, int64_t loop_tval) {
  static const char* kReasons[] = {"exit", "max_cycles", "watchdog", "trap_loop", "assertion"};
  if (g.trace) std::fflush(g.trace);
  if (g.uart) std::fflush(g.uart);
  std::string path = g.outdir + "/result.txt";
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "tb: cannot write %s\n", path.c_str());
    return;
  }
  std::fprintf(f, "ending %s\n", (reason >= 0 && reason <= 4) ? kReasons[reason] : "unknown");
  if (!g.fail_message.empty()) std::fprintf(f, "failure %s\n", g.fail_message.c_str());
  std::fprintf(f, "cycle %" PRId64 "\npc 0x%" PRIx64 "\ninstret %" PRId64 "\n", cycle, uint64_t(pc), instret);
  if (g.exit_written) std::fprintf(f, "exit_code %u\n", g.exit_code);
  if (g.trap_written)
    std::fprintf(f, "trap_mmio %" PRIu64 " 0x%" PRIx64 " 0x%" PRIx64 "\n", g.trap_cause, g.trap_epc, g.trap_tval);
  if (reason == 3)
    std::fprintf(f, "trap_loop %" PRId64 " 0x%" PRIx64 " 0x%" PRIx64 "\n", loop_cause, uint64_t(loop_epc),
                 uint64_t(loop_tval));
  for (size_t k = 0; k < g.profile.size(); ++k) {
    const ProfileEvent& e = g.profile[k];
    std::fprintf(f, "profile %u %" PRIu64 "\n", e.value, e.cycle);
    // `profile_counter K NAME VALUE`: counter NAME when PROFILE event K was stored
    for (size_t i = 0; i < e.counters.size() && i < g.perf_names.size(); ++i)
      if (!g.perf_names[i].empty())
        std::fprintf(f, "profile_counter %zu %s %" PRIu64 "\n", k, g.perf_names[i].c_str(), e.counters[i]);
  }
  std::fprintf(f, "counter imem_busy_cycles %" PRId64 "\n", imem_busy);
  std::fprintf(f, "counter dmem_busy_cycles %" PRId64 "\n", dmem_busy);
  std::fprintf(f, "counter amem_busy_cycles %" PRId64 "\n", amem_busy);
  for (size_t i = 0; i < g.perf_totals.size() && i < g.perf_names.size(); ++i)
    if (!g.perf_names[i].empty())
      std::fprintf(f, "counter %s %" PRIu64 "\n", g.perf_names[i].c_str(), g.perf_totals[i]);
  if (g.cop_inflight >= 0) std::fprintf(f, "cop_inflight %d\n", g.cop_inflight);
  // `gemmini_refused PC INSN RS1 RS2 REASON ACCEPTED`: a refused Gemmini instruction and how many accepted
  // ones came before it; `gemmini_issue PC INSN RS1 RS2`: those accepted ones (up to the last refusal), for
  // the replay in sim/rtl_runner.py; `gemmini_issues_kept N` when the history was cut short.
  if (!g.gemmini_refusals.empty()) {
    for (const GemminiRefusal& r : g.gemmini_refusals)
      std::fprintf(f, "gemmini_refused 0x%" PRIx64 " 0x%08x 0x%" PRIx64 " 0x%" PRIx64 " %d %zu\n", r.issue.pc,
                   r.issue.insn, r.issue.rs1, r.issue.rs2, r.reason, r.accepted);
    const size_t upto = std::min(g.gemmini_refusals.back().accepted, g.gemmini_issues.size());
    for (size_t i = 0; i < upto; ++i) {
      const GemminiIssue& e = g.gemmini_issues[i];
      std::fprintf(f, "gemmini_issue 0x%" PRIx64 " 0x%08x 0x%" PRIx64 " 0x%" PRIx64 "\n", e.pc, e.insn, e.rs1,
                   e.rs2);
    }
    if (g.gemmini_issues.size() < g.gemmini_accepted)
      std::fprintf(f, "gemmini_issues_kept %zu\n", g.gemmini_issues.size());
  }
  static const char* kPorts[] = {"imem", "dmem", "amem"};
  for (int p = 0; p < 3; ++p) {
    std::fprintf(f, "counter %s_reads %" PRIu64 "\n", kPorts[p], g.mem_reads[p]);
    std::fprintf(f, "counter %s_writes %" PRIu64 "\n", kPorts[p], g.mem_writes[p]);
  }
  for (auto& [addr, size] : g.dumps) {
    std::string name = g.outdir + "/dump_" + hex(addr, 8) + ".bin";
    if (FILE* d = std::fopen(name.c_str(), "wb")) {
      for (uint64_t i = 0; i < size; ++i) std::fputc(read_byte(addr + i), d);
      std::fclose(d);
      std::fprintf(f, "dump 0x%" PRIx64 " %" PRIu64 " %s\n", addr, size, name.c_str());
    }
  }
  std::fprintf(f, "end\n");
  std::fclose(f);
}

}  // extern "C"
