// Standalone C++ driver of the vector unit (vec_tb_top). Reads a script, drives
// the coprocessor port and a memory model, prints completions, the final VRF and
// requested memory regions. Script lines (all numbers hex):
//   R <row> <hex row, most significant first>   preload a VRF row
//   M <addr> <bytes in address order>           preload memory
//   I <insn> <rs1> <rs2> <frs1> <vtype> <vl> <vstart> <frm> <vxrm>
//   D <addr> <len>                              dump memory at the end
// Options: argv[1] script, argv[2] memory latency (cycles), argv[3] max cycles,
// argv[4] requests the memory port accepts outstanding (default 4), argv[5] "trace":
// one line per cycle with dispatches and VRF row writes (PIPELINE.md's diagrams).
// Output: A <seq> <illegal> | C <seq> <x_we> <rd> <wdata> <vxsat> <exc> <f_we> <fflags>
//         | R <row> <hex> | D <addr> <hex bytes> | W <addr> <byte> (every memory byte
//         | ever written or preloaded) | T <cycles> <lane_active_cycles>
//         | P <arith_busy> <mem_busy> <lane_ops> <fma_ops> <mem_bytes> <port_busy>
//           <stall_dep> <stall_struct> <stall_mem> <stall_issue> <iq_full> (sums, decimal)
//         | E <cycle> <events> (trace)
// Every cycle the performance events are checked: fma_ops <= lanes, lane_ops (active
// elements) <= DLEN/8, mem_bytes <= MEMW/8; at the end no busy count exceeds the cycles. A
// violation prints "X perf ..." and fails the run.
#include "Vvec_tb_top.h"
#include "verilated.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

constexpr int kMemWords = MEMW / 32;
constexpr int kRowWords = DLEN / 32;
constexpr int kRows = 32 * VLEN / DLEN;

struct Issue {
  uint32_t insn, rs1, rs2, frs1, vtype, vl, vstart, frm, vxrm;
};

struct Pending {
  uint64_t due;
  std::vector<uint32_t> data;
};

std::unordered_map<uint64_t, uint8_t> mem;

uint8_t rd8(uint64_t a) {
  auto it = mem.find(a);
  return it == mem.end() ? 0 : it->second;
}

std::string hexbytes_to_le_words_str(const std::vector<uint32_t>& w) {
  std::string s;
  char buf[16];
  for (int k = static_cast<int>(w.size()) - 1; k >= 0; --k) {
    std::snprintf(buf, sizeof buf, "%08x", w[k]);
    s += buf;
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: vec_tb SCRIPT [LATENCY] [MAX_CYCLES]\n");
    return 2;
  }
  const uint64_t latency = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 4;
  const uint64_t max_cycles = argc > 3 ? std::strtoull(argv[3], nullptr, 0) : 1000000;
  const size_t port_outstanding = argc > 4 ? std::strtoull(argv[4], nullptr, 0) : 4;
  const bool trace = argc > 5 && std::string(argv[5]) == "trace";
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "vec_tb: cannot open %s\n", argv[1]);
    return 2;
  }
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> rows;
  std::vector<Issue> issues;
  std::vector<std::pair<uint64_t, uint64_t>> dumps;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string tag;
    if (!(ls >> tag)) continue;
    if (tag == "R") {
      uint32_t row;
      std::string hex;
      ls >> std::hex >> row >> hex;
      std::vector<uint32_t> w(kRowWords, 0);
      for (int k = 0; k < kRowWords; ++k) {
        size_t pos = hex.size() - 8 * (k + 1);
        w[k] = static_cast<uint32_t>(std::stoul(hex.substr(pos, 8), nullptr, 16));
      }
      rows.emplace_back(row, w);
    } else if (tag == "M") {
      uint64_t addr;
      std::string hex;
      ls >> std::hex >> addr >> hex;
      for (size_t k = 0; 2 * k < hex.size(); ++k)
        mem[addr + k] = static_cast<uint8_t>(std::stoul(hex.substr(2 * k, 2), nullptr, 16));
    } else if (tag == "I") {
      Issue is{};
      ls >> std::hex >> is.insn >> is.rs1 >> is.rs2 >> is.frs1 >> is.vtype >> is.vl >> is.vstart >>
          is.frm >> is.vxrm;
      issues.push_back(is);
    } else if (tag == "D") {
      uint64_t a, n;
      ls >> std::hex >> a >> n;
      dumps.emplace_back(a, n);
    }
  }

  auto* ctx = new VerilatedContext;
  auto* top = new Vvec_tb_top{ctx};
  auto tick = [&]() {
    top->clk_i = 0;
    top->eval();
    top->clk_i = 1;
    top->eval();
  };
  top->rst_ni = 0;
  top->req_valid_i = 0;
  top->mem_req_ready_i = 0;
  top->mem_rsp_valid_i = 0;
  top->dbg_we_i = 0;
  tick();
  tick();
  top->rst_ni = 1;
  tick();

  for (auto& [row, w] : rows) {
    top->dbg_we_i = 1;
    top->dbg_addr_i = row;
    for (int k = 0; k < kRowWords; ++k) top->dbg_wdata_i[k] = w[k];
    tick();
  }
  top->dbg_we_i = 0;

  std::deque<Pending> inflight;
  size_t next = 0;
  uint64_t cycle = 0, lane_active = 0, start_cycle = 0;
  size_t completions = 0, accepted = 0;
  uint64_t perf[11] = {0};
  bool ok = true;
  while (true) {
    // drive inputs for this cycle (clock low phase)
    top->clk_i = 0;
    if (next < issues.size()) {
      const Issue& is = issues[next];
      top->req_valid_i = 1;
      top->insn_i = is.insn;
      top->rs1_i = is.rs1;
      top->rs2_i = is.rs2;
      top->frs1_i = is.frs1;
      top->vtype_i = is.vtype;
      top->vl_i = is.vl;
      top->vstart_i = is.vstart;
      top->frm_i = is.frm;
      top->vxrm_i = is.vxrm;
      top->seq_i = static_cast<uint8_t>(next);
    } else {
      top->req_valid_i = 0;
    }
    top->mem_req_ready_i = inflight.size() < port_outstanding;
    top->mem_rsp_valid_i = !inflight.empty() && inflight.front().due <= cycle;
    if (top->mem_rsp_valid_i)
      for (int k = 0; k < kMemWords; ++k) top->mem_rsp_rdata_i[k] = inflight.front().data[k];
    top->eval();

    // sample outputs
    if (top->req_valid_i && top->req_ready_o) {
      std::printf("A %zx %d\n", next, top->req_illegal_o ? 1 : 0);
      if (!top->req_illegal_o) ++accepted;
      ++next;
    }
    if (top->cmp_valid_o) {
      std::printf("C %x %d %x %x %d %d %d %x\n", top->cmp_seq_o, top->cmp_x_we_o, top->cmp_rd_o,
                  top->cmp_wdata_o, top->cmp_vxsat_o, top->cmp_exc_o, top->cmp_f_we_o, top->cmp_fflags_o);
      ++completions;
    }
    if (top->lane_active_o) ++lane_active;
    {
      const uint64_t ev[11] = {top->perf_arith_busy_o, top->perf_mem_busy_o, top->perf_lane_ops_o,
                               top->perf_fma_ops_o,    top->perf_mem_bytes_o, top->perf_port_busy_o,
                               (top->perf_stalls_o >> 0) & 1u, (top->perf_stalls_o >> 1) & 1u,
                               (top->perf_stalls_o >> 2) & 1u, (top->perf_stalls_o >> 3) & 1u,
                               (top->perf_stalls_o >> 4) & 1u};
      for (int k = 0; k < 11; ++k) perf[k] += ev[k];
      if (ev[3] > DLEN / 32 || ev[2] > DLEN / 8 || ev[4] > MEMW / 8) {
        std::printf("X perf cycle %llu: fma_ops %llu (lanes %d) lane_ops %llu (elements per row %d) mem_bytes %llu (port %d)\n",
                    static_cast<unsigned long long>(cycle), static_cast<unsigned long long>(ev[3]), DLEN / 32,
                    static_cast<unsigned long long>(ev[2]), DLEN / 8,
                    static_cast<unsigned long long>(ev[4]), MEMW / 8);
        ok = false;
      }
    }
    if (trace) {
      std::printf("E %llu", static_cast<unsigned long long>(cycle));
      if (top->t_disp_o) std::printf(" disp");
      if (top->t_s_we_o) std::printf(" sw%x", top->t_s_wa_o);
      if (top->t_l_we_o) std::printf(" lw%x", top->t_l_wa_o);
      if (top->t_s_stall_o) std::printf(" sstall");
      if (top->t_l_stall_o) std::printf(" lstall");
      if (top->mem_req_valid_o && top->mem_req_ready_i)
        std::printf(" req%s%x", top->mem_req_we_o ? "w" : "r", top->mem_req_addr_o);
      if (top->mem_rsp_valid_i) std::printf(" rsp");
      if (top->cmp_valid_o) std::printf(" cmp%x", top->cmp_seq_o);
      std::printf("\n");
    }
    if (top->mem_rsp_valid_i) inflight.pop_front();
    if (top->mem_req_valid_o && top->mem_req_ready_i) {
      const uint64_t a = top->mem_req_addr_o;
      Pending p{cycle + latency, std::vector<uint32_t>(kMemWords, 0)};
      for (int k = 0; k < kMemWords; ++k) {
        uint32_t w = 0;
        for (int b = 0; b < 4; ++b) {
          const int byte = 4 * k + b;
          const uint64_t ba = a + byte;
          if (top->mem_req_we_o) {
            if ((top->mem_req_be_o >> byte) & 1) mem[ba] = (top->mem_req_wdata_o[k] >> (8 * b)) & 0xff;
          } else {
            w |= static_cast<uint32_t>(rd8(ba)) << (8 * b);
          }
        }
        p.data[k] = w;
      }
      inflight.push_back(p);
    }
    top->clk_i = 1;
    top->eval();
    ++cycle;
    if (next >= issues.size() && completions >= accepted && !top->busy_o && inflight.empty()) break;
    if (cycle > max_cycles) {
      std::printf("X timeout after %llu cycles\n", static_cast<unsigned long long>(cycle));
      ok = false;
      break;
    }
  }
  (void)start_cycle;

  // final state
  for (int r = 0; r < kRows; ++r) {
    top->clk_i = 0;
    top->dbg_addr_i = r;
    top->eval();
    std::vector<uint32_t> w(kRowWords);
    for (int k = 0; k < kRowWords; ++k) w[k] = top->dbg_rdata_o[k];
    std::printf("R %x %s\n", r, hexbytes_to_le_words_str(w).c_str());
  }
  for (auto& [a, n] : dumps) {
    std::printf("D %llx ", static_cast<unsigned long long>(a));
    for (uint64_t k = 0; k < n; ++k) std::printf("%02x", rd8(a + k));
    std::printf("\n");
  }
  std::vector<std::pair<uint64_t, uint8_t>> all(mem.begin(), mem.end());
  std::sort(all.begin(), all.end());
  for (auto& [a, b] : all) std::printf("W %llx %02x\n", static_cast<unsigned long long>(a), b);
  for (int k : {0, 1, 5, 6, 7, 8, 9, 10}) {
    if (perf[k] > cycle) {
      std::printf("X perf counter %d = %llu exceeds %llu cycles\n", k, static_cast<unsigned long long>(perf[k]),
                  static_cast<unsigned long long>(cycle));
      ok = false;
    }
  }
  std::printf("P");
  for (uint64_t v : perf) std::printf(" %llu", static_cast<unsigned long long>(v));
  std::printf("\n");
  std::printf("T %llu %llu\n", static_cast<unsigned long long>(cycle),
              static_cast<unsigned long long>(lane_active));
  top->final();
  delete top;
  delete ctx;
  return ok ? 0 : 1;
}
