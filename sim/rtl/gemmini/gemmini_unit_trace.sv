// The difftest trace of the Gemmini unit (gemmini_unit.sv; UNIT.md "Trace"):
// the id -> core instruction map, and every scratchpad, accumulator and main-
// memory write with the id and the core instruction (seq) it belongs to.
//
// Scratchpad writes are traced as the banks take them; accumulator writes one
// cycle later, with the row the bank's read-modify-write produces (acc_row_i:
// gemmini_acc's s2 stage, which the top reaches into, simulation only).
module gemmini_unit_trace
  import gemmini_pkg::*;
  import gemmini_unit_pkg::*;
#(
  parameter int unsigned Dim         = 4,
  parameter int unsigned SpBanks     = 4,
  parameter int unsigned AccBanks    = 2,
  parameter int unsigned SpBankRows  = 256,
  parameter int unsigned AccBankRows = 128,
  parameter int unsigned SeqW        = 8,
  localparam int unsigned SpRowW     = $clog2(SpBanks * SpBankRows),
  localparam int unsigned AccRowW    = $clog2(AccBanks * AccBankRows),
  localparam int unsigned SpAW       = SpBankRows > 1 ? $clog2(SpBankRows) : 1,
  localparam int unsigned AccAW      = AccBankRows > 1 ? $clog2(AccBankRows) : 1
) (
  input  logic                               clk_i,            // in: clock
  input  logic                               rst_ni,           // in: asynchronous reset, active low
  // id allocations
  input  logic                               alloc_i,          // in: the ROB allocates alloc_id_i ...
  input  logic [IdW-1:0]                     alloc_id_i,       // in: the id allocated
  input  logic [SeqW-1:0]                    alloc_seq_i,      // in: ... to this core instruction
  output gm_trace_id_t                       trace_id_o,       // out: the allocation
  // scratchpad bank writes (as the banks take them)
  input  logic [SpBanks-1:0]                 sp_wen_i,         // in: bank b writes ...
  input  logic [SpBanks-1:0][SpAW-1:0]       sp_waddr_i,       // in: ... this row of the bank
  input  logic [SpBanks-1:0][Dim-1:0]        sp_wmask_i,       // in: ... these elements
  input  logic [SpBanks-1:0][Dim*8-1:0]      sp_wdata_i,       // in: ... these values
  input  logic [SpBanks-1:0][IdW-1:0]        sp_wid_i,         // in: ... for this command
  output logic [SpBanks-1:0]                 trace_sp_valid_o, // out: the writes, global rows
  output logic [SpBanks-1:0][SpRowW-1:0]     trace_sp_row_o,   // out: ... their global row
  output logic [SpBanks-1:0][Dim-1:0]        trace_sp_mask_o,  // out: ... their elements
  output logic [SpBanks-1:0][Dim*8-1:0]      trace_sp_data_o,  // out: ... their values
  output logic [SpBanks-1:0][IdW-1:0]        trace_sp_id_o,    // out: ... their command
  output logic [SpBanks-1:0][SeqW-1:0]       trace_sp_seq_o,   // out: ... its core instruction
  // accumulator bank writes
  input  logic [AccBanks-1:0]                acc_wen_i,        // in: bank b writes ...
  input  logic [AccBanks-1:0]                acc_wacc_i,       // in: ... accumulating
  input  logic [AccBanks-1:0][AccAW-1:0]     acc_waddr_i,      // in: ... this row of the bank
  input  logic [AccBanks-1:0][Dim-1:0]       acc_wmask_i,      // in: ... these elements
  input  logic [AccBanks-1:0][IdW-1:0]       acc_wid_i,        // in: ... for this command
  input  logic [AccBanks-1:0][Dim*32-1:0]    acc_row_i,        // in: the row a write of the cycle before made
  output logic [AccBanks-1:0]                trace_acc_valid_o, // out: the writes, global rows, the row after
  output logic [AccBanks-1:0][AccRowW-1:0]   trace_acc_row_o,  // out: ... their global row
  output logic [AccBanks-1:0][Dim-1:0]       trace_acc_mask_o, // out: ... their elements
  output logic [AccBanks-1:0][Dim*32-1:0]    trace_acc_data_o, // out: ... the row after the write
  output logic [AccBanks-1:0]                trace_acc_accumulate_o, // out: ... accumulating
  output logic [AccBanks-1:0][IdW-1:0]       trace_acc_id_o,   // out: ... their command
  output logic [AccBanks-1:0][SeqW-1:0]      trace_acc_seq_o,  // out: ... its core instruction
  // main-memory writes
  input  logic [IdW-1:0]                     wr_id_i,          // in: the id of the DMA's write request
  output logic [SeqW-1:0]                    trace_wr_seq_o    // out: ... its core instruction
);

  logic [SeqW-1:0] id_seq_q [2**IdW];

  always_ff @(posedge clk_i) begin
    if (alloc_i) id_seq_q[alloc_id_i] <= alloc_seq_i;
  end

  always_comb begin
    trace_id_o       = '0;
    trace_id_o.valid = alloc_i;
    trace_id_o.id    = alloc_id_i;
    trace_id_o.seq   = alloc_seq_i;
  end

  assign trace_wr_seq_o = id_seq_q[wr_id_i];

  for (genvar b = 0; b < SpBanks; b++) begin : g_sp_trace
    assign trace_sp_valid_o[b] = sp_wen_i[b];
    assign trace_sp_row_o[b]   = SpRowW'(b * SpBankRows) | SpRowW'(sp_waddr_i[b]);
    assign trace_sp_mask_o[b]  = sp_wmask_i[b];
    assign trace_sp_data_o[b]  = sp_wdata_i[b];
    assign trace_sp_id_o[b]    = sp_wid_i[b];
    assign trace_sp_seq_o[b]   = id_seq_q[sp_wid_i[b]];
  end

  logic [AccBanks-1:0]             acc_valid_q, acc_accumulate_q;
  logic [AccBanks-1:0][AccAW-1:0]  acc_addr_q;
  logic [AccBanks-1:0][Dim-1:0]    acc_mask_q;
  logic [AccBanks-1:0][IdW-1:0]    acc_id_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_valid_q      <= '0;
      acc_accumulate_q <= '0;
      acc_addr_q       <= '0;
      acc_mask_q       <= '0;
      acc_id_q         <= '0;
    end else begin
      acc_valid_q      <= acc_wen_i;
      acc_accumulate_q <= acc_wacc_i;
      acc_addr_q       <= acc_waddr_i;
      acc_mask_q       <= acc_wmask_i;
      acc_id_q         <= acc_wid_i;
    end
  end
  for (genvar b = 0; b < AccBanks; b++) begin : g_acc_trace
    assign trace_acc_valid_o[b]      = acc_valid_q[b];
    assign trace_acc_row_o[b]        = AccRowW'(b * AccBankRows) | AccRowW'(acc_addr_q[b]);
    assign trace_acc_mask_o[b]       = acc_mask_q[b];
    assign trace_acc_data_o[b]       = acc_row_i[b];
    assign trace_acc_accumulate_o[b] = acc_accumulate_q[b];
    assign trace_acc_id_o[b]         = acc_id_q[b];
    assign trace_acc_seq_o[b]        = id_seq_q[acc_id_q[b]];
  end

endmodule
