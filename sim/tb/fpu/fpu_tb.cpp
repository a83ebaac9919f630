// Standalone Verilator harness for cosim_fpu: streams a binary file of requests
// through the FPU as fast as it accepts them and writes one response record per
// request. Checks the handshake protocol on the way (every response belongs to an
// outstanding request, responses are in order, none is lost).
//
// Usage: fpu_tb IN OUT
//   IN:  records of 32 bytes, little endian:
//        u32 op, u32 rm, u32 a, u32 b, u32 c, u32 pad, u64 int
//   OUT: records of 16 bytes: u64 result, u32 fflags, u32 latency (cycles from
//        handshake to response)
// Prints "cycles N ops M" on success; exits 2 with a message on a protocol error.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "Vcosim_fpu.h"
#include "verilated.h"

namespace {

struct Request {
  uint32_t op, rm, a, b, c, pad;
  uint64_t int_op;
};
static_assert(sizeof(Request) == 32, "request record layout");

struct Response {
  uint64_t result;
  uint32_t fflags;
  uint32_t latency;
};
static_assert(sizeof(Response) == 16, "response record layout");

constexpr uint64_t kTimeoutCycles = 200;

int fail(const char* what, uint64_t cycle, size_t index) {
  std::fprintf(stderr, "fpu_tb: %s (cycle %llu, request %zu)\n", what,
               static_cast<unsigned long long>(cycle), index);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: fpu_tb IN OUT\n");
    return 1;
  }
  FILE* in = std::fopen(argv[1], "rb");
  if (!in) {
    std::perror(argv[1]);
    return 1;
  }
  std::vector<Request> reqs;
  Request r;
  while (std::fread(&r, sizeof r, 1, in) == 1) reqs.push_back(r);
  std::fclose(in);
  std::vector<Response> resps(reqs.size());

  auto ctx = std::make_unique<VerilatedContext>();
  auto dut = std::make_unique<Vcosim_fpu>(ctx.get());

  dut->clk_i = 0;
  dut->rst_ni = 0;
  dut->req_valid_i = 0;
  dut->eval();
  for (int i = 0; i < 2; ++i) {
    dut->clk_i = 1;
    dut->eval();
    dut->clk_i = 0;
    dut->eval();
  }
  dut->rst_ni = 1;
  dut->eval();

  std::deque<std::pair<size_t, uint64_t>> outstanding;  // (request, issue cycle)
  size_t next = 0, done = 0;
  uint64_t cycle = 0, idle = 0;
  while (done < reqs.size()) {
    // Low phase: drive the next request, look at this cycle's outputs.
    dut->clk_i = 0;
    dut->req_valid_i = next < reqs.size();
    if (next < reqs.size()) {
      const Request& q = reqs[next];
      dut->op_i = q.op;
      dut->rm_i = q.rm;
      dut->a_i = q.a;
      dut->b_i = q.b;
      dut->c_i = q.c;
      dut->int_i = q.int_op;
    }
    dut->eval();
    if (dut->resp_valid_o) {
      if (outstanding.empty()) return fail("response without a request", cycle, done);
      auto [idx, issued] = outstanding.front();
      outstanding.pop_front();
      resps[idx] = {dut->result_o, dut->fflags_o, static_cast<uint32_t>(cycle - issued)};
      ++done;
      idle = 0;
    } else if (!outstanding.empty() && ++idle > kTimeoutCycles) {
      return fail("no response within the timeout", cycle, outstanding.front().first);
    }
    if (dut->req_valid_i && dut->req_ready_o) outstanding.emplace_back(next++, cycle);
    // Rising edge.
    dut->clk_i = 1;
    dut->eval();
    ++cycle;
  }
  dut->final();

  FILE* out = std::fopen(argv[2], "wb");
  if (!out) {
    std::perror(argv[2]);
    return 1;
  }
  if (!resps.empty() && std::fwrite(resps.data(), sizeof(Response), resps.size(), out) != resps.size()) {
    std::perror(argv[2]);
    return 1;
  }
  std::fclose(out);
  std::printf("cycles %llu ops %zu\n", static_cast<unsigned long long>(cycle), reqs.size());
  return 0;
}
