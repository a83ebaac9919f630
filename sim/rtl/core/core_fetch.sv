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
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [XLEN-1:0]  boot_addr_i,

  input  logic             redirect_i,
  input  logic [XLEN-1:0]  redirect_addr_i,
  input  logic             flush_i,          // fence.i: empty the cache
  input  logic             inval_i,          // a store: invalidate one line
  input  logic [31:0]      inval_addr_i,

  output logic             imem_req_valid_o,
  input  logic             imem_req_ready_i,
  output logic [31:0]      imem_req_addr_o,
  input  logic             imem_resp_valid_i,
  input  logic [DataW-1:0] imem_resp_data_i,
  input  logic             imem_resp_err_i,

  output logic             valid_o,    // an instruction for the core's pc is ready
  output logic [31:0]      insn_o,
  output logic             err_o,      // its fetch failed (access fault)
  input  logic             consume_i   // the core takes it this cycle
);

  localparam int unsigned OffW = $clog2(DataW / 8);
  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int unsigned CntW = $clog2(Depth + 1);
  localparam int unsigned IdxW = $clog2(CacheWords);
  localparam int unsigned TagW = 30 - IdxW;

  logic [XLEN-1:0] req_pc_q, req_pc_d;
  logic [CntW-1:0] inflight_q, inflight_d;   // requests without a response yet
  logic [CntW-1:0] discard_q, discard_d;     // of those, how many belong to an old path
  logic [CntW-1:0] nofill_q, nofill_d;       // of those, how many must not fill the cache
  logic [CntW-1:0] count_q, count_d;         // queued words
  logic [PtrW-1:0] rd_q, rd_d, wr_q, wr_d;
  logic [31:0]     insn_q [Depth];
  logic            err_q  [Depth];
  logic [31:0]     apc_q  [Depth];           // address of each in-flight request
  logic [PtrW-1:0] a_wr_q, a_wr_d, a_rd_q, a_rd_d;

  // Cache
  logic [31:0]           ic_data_q [CacheWords];
  logic [TagW-1:0]       ic_tag_q  [CacheWords];
  logic [CacheWords-1:0] ic_valid_q, ic_valid_d;

  logic        accept, push, pop, room, in_range;
  logic        hit_push, hit;
  logic [31:0] look_addr, resp_addr, resp_word;
  logic [XLEN-1:0] look_pc;
  logic        fill;

  function automatic logic [PtrW-1:0] inc(logic [PtrW-1:0] p);
    return (int'(p) == Depth - 1) ? '0 : p + 1'b1;
  endfunction

  logic [IdxW-1:0] look_idx, resp_idx, inval_idx;
  logic [TagW-1:0] look_tag, resp_tag;

  // Cache lookup: at the redirect target in a redirect cycle, else at the
  // prefetch address. Served only when no live request is in flight (the
  // queue must stay in program order) and the queue has room.
  assign look_pc   = redirect_i ? redirect_addr_i : req_pc_q;
  assign look_addr = look_pc[31:0];
  assign look_idx  = look_addr[IdxW+1:2];
  assign look_tag  = look_addr[31:IdxW+2];
  assign hit       = ic_valid_q[look_idx] && ic_tag_q[look_idx] == look_tag
                  && ((64'(look_pc) >> 32) == 64'd0);
  assign hit_push  = hit && (redirect_i || (inflight_q == discard_q && count_q < CntW'(Depth)));

  assign in_range = (64'(req_pc_q) >> 32) == 64'd0;
  assign room     = (32'(inflight_q) + 32'(count_q)) < Depth;
  assign imem_req_valid_o = room && in_range && !redirect_i && !hit_push;
  assign imem_req_addr_o  = req_pc_q[31:0];
  assign accept   = imem_req_valid_o && imem_req_ready_i;
  assign push     = imem_resp_valid_i && !redirect_i && discard_q == '0;
  assign pop      = consume_i && valid_o;

  assign resp_addr = apc_q[a_rd_q];
  assign resp_idx  = resp_addr[IdxW+1:2];
  assign resp_tag  = resp_addr[31:IdxW+2];
  assign inval_idx = {inval_addr_i[IdxW+1:3], 1'b0};
  assign resp_word = 32'(imem_resp_data_i >> {resp_addr[OffW-1:0], 3'b000});
  // A live, good response whose word is not stale fills its line.
  assign fill      = imem_resp_valid_i && discard_q == '0 && nofill_q == '0 && !imem_resp_err_i;

  assign valid_o = (count_q != '0);
  assign insn_o  = insn_q[rd_q];
  assign err_o   = err_q[rd_q];

  always_comb begin
    req_pc_d   = (accept || hit_push) ? req_pc_q + XLEN'(4) : req_pc_q;
    inflight_d = inflight_q + CntW'(accept) - CntW'(imem_resp_valid_i);
    discard_d  = (imem_resp_valid_i && discard_q != '0) ? discard_q - 1'b1 : discard_q;
    nofill_d   = (imem_resp_valid_i && nofill_q != '0) ? nofill_q - 1'b1 : nofill_q;
    count_d    = count_q + CntW'(push || hit_push) - CntW'(pop);
    rd_d       = pop ? inc(rd_q) : rd_q;
    wr_d       = (push || hit_push) ? inc(wr_q) : wr_q;
    a_wr_d     = accept ? inc(a_wr_q) : a_wr_q;
    a_rd_d     = imem_resp_valid_i ? inc(a_rd_q) : a_rd_q;
    if (inval_i) nofill_d = inflight_q - CntW'(imem_resp_valid_i);
    if (redirect_i) begin
      // Everything still in flight (minus this cycle's response) is stale; a
      // cache hit at the target is queued at once.
      req_pc_d   = hit_push ? redirect_addr_i + XLEN'(4) : redirect_addr_i;
      discard_d  = inflight_q - CntW'(imem_resp_valid_i);
      inflight_d = inflight_q - CntW'(imem_resp_valid_i);
      count_d    = CntW'(hit_push);
      rd_d       = '0;
      wr_d       = hit_push ? PtrW'(1) : '0;
    end
  end

  always_comb begin
    ic_valid_d = ic_valid_q;
    if (fill) ic_valid_d[resp_idx] = 1'b1;
    if (inval_i) begin  // both words of the doubleword (sd writes two)
      ic_valid_d[inval_idx]        = 1'b0;
      ic_valid_d[inval_idx | IdxW'(1)] = 1'b0;
    end
    if (flush_i) ic_valid_d = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      req_pc_q   <= boot_addr_i;
      inflight_q <= '0;
      discard_q  <= '0;
      nofill_q   <= '0;
      count_q    <= '0;
      rd_q       <= '0;
      wr_q       <= '0;
      a_wr_q     <= '0;
      a_rd_q     <= '0;
      ic_valid_q <= '0;
    end else begin
      req_pc_q   <= req_pc_d;
      inflight_q <= inflight_d;
      discard_q  <= discard_d;
      nofill_q   <= nofill_d;
      count_q    <= count_d;
      rd_q       <= rd_d;
      wr_q       <= wr_d;
      a_wr_q     <= a_wr_d;
      a_rd_q     <= a_rd_d;
      ic_valid_q <= ic_valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (accept) apc_q[a_wr_q] <= req_pc_q[31:0];
    if (hit_push) begin
      insn_q[redirect_i ? '0 : wr_q] <= ic_data_q[look_idx];
      err_q[redirect_i ? '0 : wr_q]  <= 1'b0;
    end else if (push) begin
      insn_q[wr_q] <= resp_word;
      err_q[wr_q]  <= imem_resp_err_i;
    end
    if (fill) begin
      ic_data_q[resp_idx] <= resp_word;
      ic_tag_q[resp_idx]  <= resp_tag;
    end
  end

  // Byte and untagged bits that the cache does not need.
  logic unused;
  assign unused = ^{look_addr[1:0], resp_addr[1:0], inval_addr_i[31:IdxW+2], inval_addr_i[2:0]};

endmodule
