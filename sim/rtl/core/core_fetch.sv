// Instruction fetch: sequential prefetch plus a small direct-mapped instruction
// cache (one 32-bit word per line).
//
// The prefetcher keeps up to Depth requests in flight on the instruction port
// (pc, pc+4, ...) and queues the responses, so straight-line code does not pay
// the memory latency per instruction. Every good response is also written into
// the cache. While no request of the current path is in flight, a cache hit at
// the prefetch address is queued directly (one word per cycle, no memory
// request); on a redirect the target is looked up in the same cycle, so a taken
// branch or jump into cached code is followed without a bubble.
//
// A redirect (taken branch, jump, trap, mret, fence.i) empties the queue and
// drops the responses still in flight for the old path. Error responses are
// queued as such (never cached): only an instruction the core actually consumes
// can fault. Coherence: flush_i (fence.i) empties the cache; inval_i (a scalar
// store) invalidates the lines of inval_addr_i's doubleword and keeps the responses in flight
// at that moment out of the cache (they may hold the old word).
module core_fetch #(
  parameter int unsigned XLEN       = 32,
  parameter int unsigned DataW      = 32,
  parameter int unsigned Depth      = 4,
  parameter int unsigned CacheWords = 256   // power of two, >= 2
) (
  input  logic             clk_i,            // clock
  input  logic             rst_ni,           // asynchronous reset, active low (fetch from boot_addr_i)
  input  logic [XLEN-1:0]  boot_addr_i,      // the PC after reset

  input  logic             redirect_i,       // restart at redirect_addr_i (drop the queue)
  input  logic [XLEN-1:0]  redirect_addr_i,  // the new PC
  input  logic             flush_i,          // fence.i: empty the cache
  input  logic             inval_i,          // a store: invalidate one line
  input  logic [31:0]      inval_addr_i,     // the store's address

  // instruction port (cosim_core): word requests (valid/ready), responses in order
  output logic             imem_req_valid_o,  // a fetch request
  input  logic             imem_req_ready_i,  // ... accepted
  output logic [31:0]      imem_req_addr_o,   // its address
  input  logic             imem_resp_valid_i, // a response (in request order)
  input  logic [DataW-1:0] imem_resp_data_i,  // the beat holding the word
  input  logic             imem_resp_err_i,   // access fault

  output logic             valid_o,    // an instruction for the core's pc is ready
  output logic [31:0]      insn_o,     // the instruction word
  output logic             err_o,      // its fetch failed (access fault)
  input  logic             consume_i   // the core takes it this cycle
);

  localparam int unsigned OffW = $clog2(DataW / 8);
  localparam int unsigned PointerW = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int unsigned CountW   = $clog2(Depth + 1);
  localparam int unsigned IndexW   = $clog2(CacheWords);
  localparam int unsigned TagW     = 30 - IndexW;

  logic [XLEN-1:0]     req_pc_q, req_pc_d;
  logic [CountW-1:0]   inflight_q, inflight_d;   // requests without a response yet
  logic [CountW-1:0]   discard_q, discard_d;     // of those, how many belong to an old path
  logic [CountW-1:0]   no_fill_q, no_fill_d;     // of those, how many must not fill the cache
  logic [CountW-1:0]   count_q, count_d;         // queued words
  logic [PointerW-1:0] queue_read_q, queue_read_d, queue_write_q, queue_write_d;
  logic [31:0]         insn_q [Depth];
  logic                err_q  [Depth];
  logic [31:0]         req_addr_q [Depth];        // address of each in-flight request
  logic [PointerW-1:0] addr_write_q, addr_write_d, addr_read_q, addr_read_d;

  // Cache
  logic [31:0]           cache_data_q [CacheWords];
  logic [TagW-1:0]       cache_tag_q  [CacheWords];
  logic [CacheWords-1:0] cache_valid_q, cache_valid_d;

  logic            accept, push, pop, room, in_range;
  logic            hit_push, hit;
  logic [31:0]     lookup_addr, resp_addr, resp_word;
  logic [XLEN-1:0] lookup_pc;
  logic            fill;

  function automatic logic [PointerW-1:0] next_slot(logic [PointerW-1:0] p);
    return (int'(p) == Depth - 1) ? '0 : p + 1'b1;
  endfunction

  logic [IndexW-1:0] lookup_index, resp_index, inval_index;
  logic [TagW-1:0]   lookup_tag, resp_tag;

  // Cache lookup: at the redirect target in a redirect cycle, else at the
  // prefetch address. Served only when no live request is in flight (the
  // queue must stay in program order) and the queue has room.
  assign lookup_pc    = redirect_i ? redirect_addr_i : req_pc_q;
  assign lookup_addr  = lookup_pc[31:0];
  assign lookup_index = lookup_addr[IndexW+1:2];
  assign lookup_tag   = lookup_addr[31:IndexW+2];
  assign hit          = cache_valid_q[lookup_index] && cache_tag_q[lookup_index] == lookup_tag
                     && ((64'(lookup_pc) >> 32) == 64'd0);
  assign hit_push     = hit && (redirect_i || (inflight_q == discard_q && count_q < CountW'(Depth)));

  assign in_range         = (64'(req_pc_q) >> 32) == 64'd0;
  assign room             = (32'(inflight_q) + 32'(count_q)) < Depth;
  assign imem_req_valid_o = room && in_range && !redirect_i && !hit_push;
  assign imem_req_addr_o  = req_pc_q[31:0];
  assign accept           = imem_req_valid_o && imem_req_ready_i;
  assign push             = imem_resp_valid_i && !redirect_i && discard_q == '0;
  assign pop              = consume_i && valid_o;

  assign resp_addr   = req_addr_q[addr_read_q];
  assign resp_index  = resp_addr[IndexW+1:2];
  assign resp_tag    = resp_addr[31:IndexW+2];
  assign inval_index = {inval_addr_i[IndexW+1:3], 1'b0};
  assign resp_word   = 32'(imem_resp_data_i >> {resp_addr[OffW-1:0], 3'b000});
  // A live, good response whose word is not stale fills its line.
  assign fill      = imem_resp_valid_i && discard_q == '0 && no_fill_q == '0 && !imem_resp_err_i;

  assign valid_o = (count_q != '0);
  assign insn_o  = insn_q[queue_read_q];
  assign err_o   = err_q[queue_read_q];

  always_comb begin
    req_pc_d      = (accept || hit_push) ? req_pc_q + XLEN'(4) : req_pc_q;
    inflight_d    = inflight_q + CountW'(accept) - CountW'(imem_resp_valid_i);
    discard_d     = (imem_resp_valid_i && discard_q != '0) ? discard_q - 1'b1 : discard_q;
    no_fill_d     = (imem_resp_valid_i && no_fill_q != '0) ? no_fill_q - 1'b1 : no_fill_q;
    count_d       = count_q + CountW'(push || hit_push) - CountW'(pop);
    queue_read_d  = pop ? next_slot(queue_read_q) : queue_read_q;
    queue_write_d = (push || hit_push) ? next_slot(queue_write_q) : queue_write_q;
    addr_write_d  = accept ? next_slot(addr_write_q) : addr_write_q;
    addr_read_d   = imem_resp_valid_i ? next_slot(addr_read_q) : addr_read_q;
    if (inval_i) no_fill_d = inflight_q - CountW'(imem_resp_valid_i);
    if (redirect_i) begin
      // Everything still in flight (minus this cycle's response) is stale; a
      // cache hit at the target is queued at once.
      req_pc_d      = hit_push ? redirect_addr_i + XLEN'(4) : redirect_addr_i;
      discard_d     = inflight_q - CountW'(imem_resp_valid_i);
      inflight_d    = inflight_q - CountW'(imem_resp_valid_i);
      count_d       = CountW'(hit_push);
      queue_read_d  = '0;
      queue_write_d = hit_push ? PointerW'(1) : '0;
    end
  end

  always_comb begin
    cache_valid_d = cache_valid_q;
    if (fill) cache_valid_d[resp_index] = 1'b1;
    if (inval_i) begin  // both words of the doubleword (sd writes two)
      cache_valid_d[inval_index]        = 1'b0;
      cache_valid_d[inval_index | IndexW'(1)] = 1'b0;
    end
    if (flush_i) cache_valid_d = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      req_pc_q      <= boot_addr_i;
      inflight_q    <= '0;
      discard_q     <= '0;
      no_fill_q     <= '0;
      count_q       <= '0;
      queue_read_q  <= '0;
      queue_write_q <= '0;
      addr_write_q  <= '0;
      addr_read_q   <= '0;
      cache_valid_q <= '0;
    end else begin
      req_pc_q      <= req_pc_d;
      inflight_q    <= inflight_d;
      discard_q     <= discard_d;
      no_fill_q     <= no_fill_d;
      count_q       <= count_d;
      queue_read_q  <= queue_read_d;
      queue_write_q <= queue_write_d;
      addr_write_q  <= addr_write_d;
      addr_read_q   <= addr_read_d;
      cache_valid_q <= cache_valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (accept) req_addr_q[addr_write_q] <= req_pc_q[31:0];
    if (hit_push) begin
      insn_q[redirect_i ? '0 : queue_write_q] <= cache_data_q[lookup_index];
      err_q[redirect_i ? '0 : queue_write_q]  <= 1'b0;
    end else if (push) begin
      insn_q[queue_write_q] <= resp_word;
      err_q[queue_write_q]  <= imem_resp_err_i;
    end
    if (fill) begin
      cache_data_q[resp_index] <= resp_word;
      cache_tag_q[resp_index]  <= resp_tag;
    end
  end

`ifdef COSIM_ASSERT
  // Assertions: compiled when sim/verilator_build.py passes --assert (the
  // default; the speed bench builds without them). Each message states the rule.
  // They are checked from the cycle after reset (sim/rtl/cosim_assert_window.sv).
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));
  // Live requests in flight plus queued words never exceed the queue, so every
  // response that is pushed has a slot. Stale requests (discard_q) are not
  // counted: their responses are dropped, and a redirect that hits the cache
  // queues its target while they drain (a memory latency of 32 makes that
  // happen with all Depth requests stale; the gemmini-rtl bench's latency-32 row).
  QueueBounded: assert property (@(posedge clk_i) disable iff (!checking)
      32'(inflight_q) - 32'(discard_q) + 32'(count_q) <= Depth)
    else $error("fetch requests in flight that will be queued, plus queued words, exceed the queue depth");
  StaleInFlight: assert property (@(posedge clk_i) disable iff (!checking)
      discard_q <= inflight_q && no_fill_q <= inflight_q)
    else $error("more stale fetch responses expected than requests in flight");
  ResponseExpected: assert property (@(posedge clk_i) disable iff (!checking)
      imem_resp_valid_i |-> inflight_q != '0)
    else $error("instruction response without a request in flight");
  ConsumeValid: assert property (@(posedge clk_i) disable iff (!checking) consume_i |-> valid_o)
    else $error("the core consumed an instruction the fetch queue does not hold");
`endif

  // Byte and untagged bits that the cache does not need.
  logic unused;
  assign unused = ^{lookup_addr[1:0], resp_addr[1:0], inval_addr_i[31:IndexW+2], inval_addr_i[2:0]};

endmodule
