// Instruction fetch with sequential prefetch: keeps up to Depth requests in
// flight on the instruction port (pc, pc+4, ...) and queues the responses, so
// straight-line code does not pay the memory latency per instruction. A
// redirect (taken branch, jump, trap, mret, fence.i) empties the queue and drops
// the responses still in flight for the old path. Error responses are queued as
// such: only an instruction the core actually consumes can fault.
module core_fetch #(
  parameter int unsigned XLEN  = 32,
  parameter int unsigned DataW = 32,
  parameter int unsigned Depth = 4
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [XLEN-1:0]  boot_addr_i,

  input  logic             redirect_i,
  input  logic [XLEN-1:0]  redirect_addr_i,

  output logic             imem_req_valid_o,
  input  logic             imem_req_ready_i,
  output logic [31:0]      imem_req_addr_o,
  input  logic             imem_resp_valid_i,
  input  logic [DataW-1:0] imem_resp_data_i,
  input  logic             imem_resp_err_i,

  output logic             valid_o,    // an instruction for pc_o is ready
  output logic [31:0]      insn_o,
  output logic             err_o,      // its fetch failed (access fault)
  input  logic             consume_i   // the core takes it this cycle
);

  localparam int unsigned OffW = $clog2(DataW / 8);
  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int unsigned CntW = $clog2(Depth + 1);

  logic [XLEN-1:0] req_pc_q, req_pc_d;
  logic [CntW-1:0] inflight_q, inflight_d;   // requests without a response yet
  logic [CntW-1:0] discard_q, discard_d;     // of those, how many belong to an old path
  logic [CntW-1:0] count_q, count_d;         // queued responses
  logic [PtrW-1:0] rd_q, rd_d, wr_q, wr_d;
  logic [31:0]     insn_q [Depth];
  logic            err_q  [Depth];
  logic [OffW-1:0] off_q  [Depth];           // word select of each in-flight request
  logic [PtrW-1:0] off_wr_q, off_wr_d, off_rd_q, off_rd_d;

  logic accept, push, pop, room, in_range;

  function automatic logic [PtrW-1:0] inc(logic [PtrW-1:0] p);
    return (int'(p) == Depth - 1) ? '0 : p + 1'b1;
  endfunction

  assign in_range = (64'(req_pc_q) >> 32) == 64'd0;
  assign room     = (32'(inflight_q) + 32'(count_q)) < Depth;
  assign imem_req_valid_o = room && in_range && !redirect_i;
  assign imem_req_addr_o  = req_pc_q[31:0];
  assign accept   = imem_req_valid_o && imem_req_ready_i;
  assign push     = imem_resp_valid_i && !redirect_i && discard_q == '0;
  assign pop      = consume_i && valid_o;

  assign valid_o = (count_q != '0);
  assign insn_o  = insn_q[rd_q];
  assign err_o   = err_q[rd_q];

  always_comb begin
    req_pc_d   = accept ? req_pc_q + XLEN'(4) : req_pc_q;
    inflight_d = inflight_q + CntW'(accept) - CntW'(imem_resp_valid_i);
    discard_d  = (imem_resp_valid_i && discard_q != '0) ? discard_q - 1'b1 : discard_q;
    count_d    = count_q + CntW'(push) - CntW'(pop);
    rd_d       = pop ? inc(rd_q) : rd_q;
    wr_d       = push ? inc(wr_q) : wr_q;
    off_wr_d   = accept ? inc(off_wr_q) : off_wr_q;
    off_rd_d   = imem_resp_valid_i ? inc(off_rd_q) : off_rd_q;
    if (redirect_i) begin
      // Everything still in flight (minus this cycle's response) is stale.
      req_pc_d   = redirect_addr_i;
      discard_d  = inflight_q - CntW'(imem_resp_valid_i);
      inflight_d = inflight_q - CntW'(imem_resp_valid_i);
      count_d    = '0;
      rd_d       = '0;
      wr_d       = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      req_pc_q   <= boot_addr_i;
      inflight_q <= '0;
      discard_q  <= '0;
      count_q    <= '0;
      rd_q       <= '0;
      wr_q       <= '0;
      off_wr_q   <= '0;
      off_rd_q   <= '0;
    end else begin
      req_pc_q   <= req_pc_d;
      inflight_q <= inflight_d;
      discard_q  <= discard_d;
      count_q    <= count_d;
      rd_q       <= rd_d;
      wr_q       <= wr_d;
      off_wr_q   <= off_wr_d;
      off_rd_q   <= off_rd_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (accept) off_q[off_wr_q] <= req_pc_q[OffW-1:0];
    if (push) begin
      insn_q[wr_q] <= 32'(imem_resp_data_i >> {off_q[off_rd_q], 3'b000});
      err_q[wr_q]  <= imem_resp_err_i;
    end
  end

endmodule
