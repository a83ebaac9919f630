// Non-blocking loads and stores (README.md "Pipeline"). An access to a region
// that never answers with an error issues and the core goes on: the pending
// queue remembers every access in flight (the port answers in order), and the
// scoreboard holds back any instruction that reads or writes a register a load
// will still write. A returning load writes its register through the register
// files' second port and fills its record in the commit queue (core_commit).
module core_lsu
  import core_pkg::*;
#(
  parameter int unsigned XLEN     = 32,
  parameter int unsigned DataW    = 32,
  parameter int unsigned CommitW  = 3,           // index width of the commit queue
  parameter logic [31:0] MmioBase = 32'h1000_0000,
  parameter logic [31:0] MmioSize = 32'h0000_1000,
  parameter logic [31:0] Mem0Base = 32'h2000_0000,
  parameter logic [32:0] Mem0Size = 33'h0_2000_0000,
  parameter logic [31:0] Mem1Base = 32'h4000_0000,
  parameter logic [32:0] Mem1Size = 33'h0_8000_0000,
  parameter logic [31:0] Mem2Base = 32'hC000_0000,
  parameter logic [32:0] Mem2Size = 33'h0_0100_0000,
  localparam int unsigned OffW    = $clog2(DataW / 8)
) (
  input  logic               clk_i,              // clock
  input  logic               rst_ni,             // asynchronous reset, active low (nothing in flight)

  // The instruction at the fetch queue head
  input  cls_e               class_i,            // its class
  input  logic [2:0]         funct3_i,           // load signedness
  input  logic [4:0]         rd_i,               // destination register
  input  logic [4:0]         rs1_i,              // source rs1 (scoreboard check)
  input  logic [4:0]         rs2_i,              // source rs2 (scoreboard check)
  input  logic [4:0]         rs3_i,              // source rs3 (scoreboard check)
  output logic               stall_o,            // it uses a register a load will still write

  // Its memory access
  input  logic [XLEN-1:0]    addr_i,             // address (rs1 + imm)
  input  logic               store_i,            // a store
  input  logic [1:0]         size_i,             // log2 bytes
  output logic               mmio_o,             // addr_i is in the MMIO page
  output logic               nonblocking_o,      // addr_i is in a region that cannot fault
  input  logic               issue_i,            // it leaves now as a non-blocking access
  input  logic [CommitW-1:0] commit_index_i,     // where its record goes in the commit queue
  input  logic               corrupt_i,          // fault injection: flip bit 0 of the loaded value
  output logic               full_o,             // no room for another access in flight
  output logic               busy_o,             // an access is in flight

  // Responses (in order) and the formatting of the oldest access's data
  input  logic               resp_valid_i,       // the data port answers
  output logic               head_unsigned_o,    // oldest access: lbu/lhu/lwu
  output logic [1:0]         head_size_o,        // oldest access: log2 bytes
  output logic [OffW-1:0]    head_offset_o,      // oldest access: byte offset in the beat
  input  logic [63:0]        load_value_i,       // the response formatted by core_lsu_format

  // Register write port B: the returning load
  output logic               x_we_o,             // write x[rd_o] (never x0)
  output logic               f_we_o,             // write f[rd_o]
  output logic [4:0]         rd_o,               // the load's destination register
  output logic [XLEN-1:0]    x_wdata_o,          // its value (x)
  output logic [31:0]        f_wdata_o,          // its value (f, binary32)

  // The load's record in the commit queue
  output logic               fill_o,             // a load's data arrives
  output logic [CommitW-1:0] fill_index_o,       // its record
  output logic [63:0]        fill_data_o         // the value as the trace shows it (f: NaN-boxed on RV64)
);

  localparam int unsigned Depth = 4;   // accesses in flight (the port's limit)

  typedef struct packed {
    logic               store;
    logic               fp;          // flw
    logic [4:0]         rd;
    logic               unsign;      // lbu/lhu/lwu
    logic [1:0]         size;
    logic [OffW-1:0]    offset;
    logic [CommitW-1:0] commit_index;  // its record in the commit queue (loads)
    logic               corrupt;       // fault injection: flip bit 0 of the loaded value
  } pending_t;

  pending_t   pending_q [Depth];
  logic [1:0] read_q, write_q;
  logic [2:0] count_q, count_d;
  pending_t   head, entry;
  logic       response;

  logic [31:0] x_busy_q, x_busy_d, f_busy_q, f_busy_d;   // a load will write this register
  logic        uses_f, rs2_is_x;

  assign head     = pending_q[read_q];
  assign response = resp_valid_i && (count_q != '0);
  assign busy_o   = (count_q != '0);
  assign full_o   = (count_q == 3'(Depth));

  assign mmio_o        = (addr_i[31:0] - MmioBase) < MmioSize;
  assign nonblocking_o = !mmio_o
                      && (((33'(addr_i[31:0]) - 33'(Mem0Base)) < Mem0Size && addr_i[31:0] >= Mem0Base)
                       || ((33'(addr_i[31:0]) - 33'(Mem1Base)) < Mem1Size && addr_i[31:0] >= Mem1Base)
                       || ((33'(addr_i[31:0]) - 33'(Mem2Base)) < Mem2Size && addr_i[31:0] >= Mem2Base));

  // Scoreboard check (conservative: the rd field is checked in both files for
  // every class).
  assign uses_f   = (class_i == ClsFpu) || (class_i == ClsFstore) || (class_i == ClsFmvXW) || (class_i == ClsCop);
  assign rs2_is_x = (class_i == ClsBranch) || (class_i == ClsStore) || (class_i == ClsAluReg) || (class_i == ClsMul)
                 || (class_i == ClsDiv) || (class_i == ClsCop) || (class_i == ClsVset);
  assign stall_o  = x_busy_q[rs1_i] || (rs2_is_x && x_busy_q[rs2_i]) || x_busy_q[rd_i] || f_busy_q[rd_i]
                 || (uses_f && (f_busy_q[rs1_i] || f_busy_q[rs2_i] || f_busy_q[rs3_i]));

  assign head_unsigned_o = head.unsign;
  assign head_size_o     = head.size;
  assign head_offset_o   = head.offset;

  assign rd_o      = head.rd;
  assign x_we_o    = response && !head.store && !head.fp && head.rd != 5'd0;
  assign f_we_o    = response && !head.store && head.fp;
  assign x_wdata_o = load_value_i[XLEN-1:0] ^ XLEN'(head.corrupt);
  assign f_wdata_o = load_value_i[31:0] ^ 32'(head.corrupt);

  assign fill_o       = response && !head.store;
  assign fill_index_o = head.commit_index;
  assign fill_data_o  = head.fp ? {(XLEN == 64) ? 32'hffff_ffff : 32'h0, f_wdata_o} : 64'(x_wdata_o);

  always_comb begin
    entry              = '0;
    entry.store        = store_i;
    entry.fp           = (class_i == ClsFload);
    entry.rd           = rd_i;
    entry.unsign       = (class_i == ClsLoad) && funct3_i[2];
    entry.size         = size_i;
    entry.offset       = addr_i[OffW-1:0];
    entry.commit_index = commit_index_i;
    entry.corrupt      = corrupt_i;
  end
  assign count_d = count_q + 3'(issue_i) - 3'(response);

  always_comb begin
    x_busy_d = x_busy_q;
    f_busy_d = f_busy_q;
    if (response && !head.store) begin
      if (head.fp) f_busy_d[head.rd] = 1'b0;
      else x_busy_d[head.rd] = 1'b0;
    end
    if (issue_i && !store_i) begin
      if (class_i == ClsFload) f_busy_d[rd_i] = 1'b1;
      else if (rd_i != 5'd0) x_busy_d[rd_i] = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      read_q   <= '0;
      write_q  <= '0;
      count_q  <= '0;
      x_busy_q <= '0;
      f_busy_q <= '0;
    end else begin
      count_q  <= count_d;
      x_busy_q <= x_busy_d;
      f_busy_q <= f_busy_d;
      if (issue_i) write_q <= write_q + 2'd1;
      if (response) read_q <= read_q + 2'd1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (issue_i) pending_q[write_q] <= entry;
  end

`ifdef COSIM_ASSERT
  // Assertions: compiled when sim/verilator_build.py passes --assert (the
  // default; the speed bench builds without them). Each message states the rule.
  // They are checked from the cycle after reset (sim/rtl/cosim_assert_window.sv).
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));
  IssueWithRoom: assert property (@(posedge clk_i) disable iff (!checking) issue_i |-> !full_o)
    else $error("non-blocking access issued with the pending queue full");
  CountInRange: assert property (@(posedge clk_i) disable iff (!checking) count_q <= 3'(Depth))
    else $error("pending queue count beyond its depth");
  // The scoreboard: a load never targets a register another load will still write.
  NoLoadToBusyRegister: assert property (@(posedge clk_i) disable iff (!checking)
      issue_i && !store_i |-> !((class_i == ClsFload) ? f_busy_q[rd_i] : (rd_i != 5'd0 && x_busy_q[rd_i])))
    else $error("load issued to a register with a load in flight");
  NoLoadToX0: assert property (@(posedge clk_i) disable iff (!checking) x_we_o |-> rd_o != 5'd0)
    else $error("register write to x0 on port B");
`endif

  // Only the low 32 address bits select a region (higher addresses trap before);
  // RV32 uses the low half of the load value.
  logic unused;
  assign unused = ^{load_value_i, addr_i, funct3_i[1:0]};

endmodule
