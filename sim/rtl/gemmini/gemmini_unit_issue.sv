// Issue stage of the Gemmini unit (gemmini_unit.sv; UNIT.md "Issue"): legality
// at the handshake (gemmini_unit_decode), one instruction buffer, and the
// instruction table that completes the core's instructions in program order.
//
// A core instruction takes a table entry (its tag) when accepted and completes
// when the allocation stage has closed it (all its commands allocated) and no
// command of it is still in the ROB (tag_busy_i). Ready depends on state only:
// the buffer is free or leaves this cycle, and the table has room. Only custom-3
// words are Gemmini's (others are refused).
module gemmini_unit_issue
  import cosim_pkg::*;
  import gemmini_unit_pkg::*;
#(
  parameter int unsigned Dim            = 4,
  parameter int unsigned SpRows         = 1024,
  parameter int unsigned AccRows        = 256,
  parameter int unsigned MaxBlockLen    = 16,
  parameter int unsigned MaxBlockLenAcc = 4,
  parameter bit          HasWs          = 1'b1,
  parameter bit          HasOs          = 1'b1,
  parameter logic [31:0] Mem0Base       = 32'h2000_0000,
  parameter logic [32:0] Mem0Size       = 33'h0_2000_0000,
  parameter logic [31:0] Mem1Base       = 32'h4000_0000,
  parameter logic [32:0] Mem1Size       = 33'h0_8000_0000,
  parameter logic [31:0] Mem2Base       = 32'hC000_0000,
  parameter logic [32:0] Mem2Size       = 33'h0_0100_0000,
  parameter int unsigned Tags           = 16,  // core instructions in flight
  localparam int unsigned TagW          = $clog2(Tags)
) (
  input  logic            clk_i,              // in: clock
  input  logic            rst_ni,             // in: asynchronous reset, active low
  // coprocessor issue
  input  logic            cop_req_valid_i,    // in: the core offers an instruction
  output logic            cop_req_ready_o,    // out: ... the unit takes it
  input  cop_req_t        cop_req_i,          // in: the instruction and its operands
  output logic            cop_illegal_o,      // out: ... it is refused (checked with ready)
  output logic            req_fire_o,         // out: an instruction is taken (legal or not)
  output gm_illegal_e     illegal_reason_o,   // out: the check that refused the last refused one
  // the instruction buffer
  output logic            buf_valid_o,        // out: an instruction waits for allocation
  output logic [6:0]      buf_funct_o,        // out: ... its funct
  output logic [63:0]     buf_rs1_o,          // out: ... its rs1
  output logic [63:0]     buf_rs2_o,          // out: ... its rs2
  output logic [TagW-1:0] buf_tag_o,          // out: ... its table entry
  input  logic            buf_pop_i,          // in: the buffer's instruction leaves
  // the instruction table
  input  logic            close_i,            // in: entry close_tag_i has all its commands allocated
  input  logic [TagW-1:0] close_tag_i,        // in: its instruction-table tag
  input  logic            wdata_valid_i,      // in: the buffer's instruction writes rd with wdata_i
  input  logic [63:0]     wdata_i,            // in: the value for rd
  input  logic [Tags-1:0] tag_busy_i,         // in: the ROB holds a command of entry t
  input  logic [TagW-1:0] seq_tag_i,          // in: an entry ...
  output logic [SeqW-1:0] seq_o,              // out: ... and the core instruction (seq) it holds
  output logic            table_busy_o,       // out: an instruction is in the table
  // coprocessor completion (program order)
  output logic            cop_cmp_valid_o,    // out: the oldest instruction completes
  output cop_cmp_t        cop_cmp_o           // out: ... its seq and rd write
);

  logic [6:0]  req_funct;
  logic        decode_legal, req_fire, accept, gm_opcode;
  gm_illegal_e decode_reason, reason_q;
  assign req_funct = cop_req_i.insn[31:25];

  gemmini_unit_decode #(
    .Dim(Dim), .SpRows(SpRows), .AccRows(AccRows), .MaxBlockLen(MaxBlockLen), .MaxBlockLenAcc(MaxBlockLenAcc),
    .HasWs(HasWs), .HasOs(HasOs), .Mem0Base(Mem0Base), .Mem0Size(Mem0Size), .Mem1Base(Mem1Base),
    .Mem1Size(Mem1Size), .Mem2Base(Mem2Base), .Mem2Size(Mem2Size)
  ) u_decode (
    .clk_i, .rst_ni,
    .funct_i  (req_funct),
    .rs1_i    (cop_req_i.rs1),
    .rs2_i    (cop_req_i.rs2),
    .legal_o  (decode_legal),
    .reason_o (decode_reason),
    .accept_i (accept)
  );

  logic            buf_valid_q;
  logic [6:0]      buf_funct_q;
  logic [63:0]     buf_rs1_q, buf_rs2_q;
  logic [TagW-1:0] buf_tag_q;

  logic [SeqW-1:0] table_seq_q [Tags];
  logic [4:0]      table_rd_q [Tags];
  logic [Tags-1:0] table_xwe_q, table_open_q;
  logic [63:0]     table_wdata_q [Tags];
  logic [TagW-1:0] table_head_q, table_tail_q;
  logic [TagW:0]   table_count_q;
  logic            table_complete;

  assign gm_opcode       = cop_req_i.insn[6:0] == 7'h7B;
  assign cop_req_ready_o = (!buf_valid_q || buf_pop_i) && table_count_q != (TagW + 1)'(Tags);
  assign req_fire        = cop_req_valid_i && cop_req_ready_o;
  assign cop_illegal_o   = !(decode_legal && gm_opcode);
  assign accept          = req_fire && decode_legal && gm_opcode;

  assign table_complete          = table_count_q != '0 && !table_open_q[table_head_q] && !tag_busy_i[table_head_q];
  assign cop_cmp_valid_o = table_complete;
  always_comb begin
    cop_cmp_o       = '0;
    cop_cmp_o.seq   = table_seq_q[table_head_q];
    cop_cmp_o.x_we  = table_xwe_q[table_head_q];
    cop_cmp_o.rd    = table_rd_q[table_head_q];
    cop_cmp_o.wdata = table_wdata_q[table_head_q];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      buf_valid_q   <= 1'b0;
      buf_funct_q   <= '0;
      buf_rs1_q     <= '0;
      buf_rs2_q     <= '0;
      buf_tag_q     <= '0;
      table_head_q  <= '0;
      table_tail_q  <= '0;
      table_count_q <= '0;
      table_open_q  <= '0;
      table_xwe_q   <= '0;
      reason_q      <= IllNone;
      for (int unsigned t = 0; t < Tags; t++) begin
        table_seq_q[t]   <= '0;
        table_rd_q[t]    <= '0;
        table_wdata_q[t] <= '0;
      end
    end else begin
      if (req_fire && !(decode_legal && gm_opcode)) reason_q <= gm_opcode ? decode_reason : IllFunct;
      if (buf_pop_i) buf_valid_q <= 1'b0;
      if (accept) begin
        buf_valid_q                 <= 1'b1;
        buf_funct_q                 <= req_funct;
        buf_rs1_q                   <= cop_req_i.rs1;
        buf_rs2_q                   <= cop_req_i.rs2;
        buf_tag_q                   <= table_tail_q;
        table_seq_q[table_tail_q]   <= cop_req_i.seq;
        table_rd_q[table_tail_q]    <= cop_req_i.insn[11:7];
        table_xwe_q[table_tail_q]   <= cop_req_i.insn[14];  // RoCC xd
        table_wdata_q[table_tail_q] <= '0;
        table_open_q[table_tail_q]  <= 1'b1;
        table_tail_q                <= table_tail_q + 1'b1;
      end
      if (close_i) table_open_q[close_tag_i] <= 1'b0;
      if (wdata_valid_i) table_wdata_q[buf_tag_q] <= wdata_i;
      if (table_complete) table_head_q <= table_head_q + 1'b1;
      table_count_q <= table_count_q + (TagW + 1)'(accept) - (TagW + 1)'(table_complete);
    end
  end

  assign req_fire_o       = req_fire;
  assign illegal_reason_o = reason_q;
  assign buf_valid_o      = buf_valid_q;
  assign buf_funct_o      = buf_funct_q;
  assign buf_rs1_o        = buf_rs1_q;
  assign buf_rs2_o        = buf_rs2_q;
  assign buf_tag_o        = buf_tag_q;
  assign seq_o            = table_seq_q[seq_tag_i];
  assign table_busy_o     = table_count_q != '0;

  logic unused;
  assign unused = ^{cop_req_i.frs1, cop_req_i.vtype, cop_req_i.vl, cop_req_i.vstart, cop_req_i.frm, cop_req_i.vxrm,
                    cop_req_i.insn[24:15], cop_req_i.insn[13:12]};

`ifdef COSIM_ASSERT
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));

  // The table holds at most Tags instructions; an instruction is accepted only
  // into a free buffer; an entry is closed once, while open, and completes once.
  TableCountInRange: assert property (@(posedge clk_i) disable iff (!checking) table_count_q <= (TagW + 1)'(Tags))
    else $error("gemmini issue table holds %0d instructions", table_count_q);
  AcceptIntoFreeBuffer: assert property (@(posedge clk_i) disable iff (!checking) accept |-> !buf_valid_q || buf_pop_i)
    else $error("gemmini issue accepted an instruction over a waiting one");
  PopValid: assert property (@(posedge clk_i) disable iff (!checking) buf_pop_i |-> buf_valid_q)
    else $error("gemmini issue buffer popped while empty");
  CloseOpen: assert property (@(posedge clk_i) disable iff (!checking) close_i |-> table_open_q[close_tag_i])
    else $error("gemmini issue closed entry %0d twice", close_tag_i);
`endif

endmodule
