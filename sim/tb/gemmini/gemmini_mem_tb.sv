// Standalone test-bench top of the Gemmini-style scratchpad and accumulator
// (sim/rtl/gemmini/gemmini_spad.sv, gemmini_acc.sv) for the cocotb driver
// mem_cocotb.py: one write and one read port for each memory with a global row
// index, split into (bank, row in bank) as the controllers will (row r: bank
// r / BankRows, row r % BankRows), flat ports public for cocotb, a cycle
// counter. The clock is cocotb's (GPI); nothing else here is simulation-only.
module gemmini_mem_tb
  import gemmini_pkg::*;
#(
  parameter int unsigned Dim         = 4,
  parameter int unsigned SpBanks     = 4,
  parameter int unsigned SpBankRows  = 1024,
  parameter int unsigned AccBanks    = 2,
  parameter int unsigned AccBankRows = 128,
  localparam int unsigned SpAddrW    = $clog2(SpBankRows),
  localparam int unsigned AccAddrW   = $clog2(AccBankRows),
  localparam int unsigned SpRowIdxW  = $clog2(SpBanks * SpBankRows),
  localparam int unsigned AccRowIdxW = $clog2(AccBanks * AccBankRows),
  localparam int unsigned SpRowW     = Dim * InputW,
  localparam int unsigned AccRowW    = Dim * AccW
) (
  input  logic                  clk_i /*verilator public_flat_rw*/,
  input  logic                  rst_ni /*verilator public_flat_rw*/,
  input  logic                  sp_wr_en_i /*verilator public_flat_rw*/,
  input  logic [SpRowIdxW-1:0]  sp_wr_row_i /*verilator public_flat_rw*/,
  input  logic [Dim-1:0]        sp_wr_mask_i /*verilator public_flat_rw*/,
  input  logic [SpRowW-1:0]     sp_wr_data_i /*verilator public_flat_rw*/,
  input  logic                  sp_rd_en_i /*verilator public_flat_rw*/,
  input  logic [SpRowIdxW-1:0]  sp_rd_row_i /*verilator public_flat_rw*/,
  output logic [SpRowW-1:0]     sp_rd_data_o /*verilator public_flat_rd*/,
  input  logic                  acc_wr_en_i /*verilator public_flat_rw*/,
  input  logic                  acc_wr_acc_i /*verilator public_flat_rw*/,
  input  logic [AccRowIdxW-1:0] acc_wr_row_i /*verilator public_flat_rw*/,
  input  logic [Dim-1:0]        acc_wr_mask_i /*verilator public_flat_rw*/,
  input  logic [AccRowW-1:0]    acc_wr_data_i /*verilator public_flat_rw*/,
  input  logic                  acc_rd_en_i /*verilator public_flat_rw*/,
  input  logic [AccRowIdxW-1:0] acc_rd_row_i /*verilator public_flat_rw*/,
  output logic [AccRowW-1:0]    acc_rd_data_o /*verilator public_flat_rd*/,
  output logic [31:0]           cycle_o /*verilator public_flat_rd*/
);

  logic [SpBanks-1:0]                 sp_wr_en, sp_rd_en;
  logic [SpBanks-1:0][SpAddrW-1:0]    sp_wr_addr, sp_rd_addr;
  logic [SpBanks-1:0][Dim-1:0]        sp_wr_mask;
  logic [SpBanks-1:0][SpRowW-1:0]     sp_wr_data, sp_rd_data;
  logic [AccBanks-1:0]                acc_wr_en, acc_wr_acc, acc_rd_en;
  logic [AccBanks-1:0][AccAddrW-1:0]  acc_wr_addr, acc_rd_addr;
  logic [AccBanks-1:0][Dim-1:0]       acc_wr_mask;
  logic [AccBanks-1:0][AccRowW-1:0]   acc_wr_data, acc_rd_data;
  logic [SpRowIdxW-1:0]               sp_rd_row_q;
  logic [AccRowIdxW-1:0]              acc_rd_row_q;

  always_comb begin
    for (int unsigned b = 0; b < SpBanks; b++) begin
      sp_wr_en[b]   = sp_wr_en_i && (32'(sp_wr_row_i) / SpBankRows) == b;
      sp_wr_addr[b] = SpAddrW'(sp_wr_row_i % SpBankRows);
      sp_wr_mask[b] = sp_wr_mask_i;
      sp_wr_data[b] = sp_wr_data_i;
      sp_rd_en[b]   = sp_rd_en_i && (32'(sp_rd_row_i) / SpBankRows) == b;
      sp_rd_addr[b] = SpAddrW'(sp_rd_row_i % SpBankRows);
    end
    for (int unsigned b = 0; b < AccBanks; b++) begin
      acc_wr_en[b]   = acc_wr_en_i && (32'(acc_wr_row_i) / AccBankRows) == b;
      acc_wr_acc[b]  = acc_wr_acc_i;
      acc_wr_addr[b] = AccAddrW'(acc_wr_row_i % AccBankRows);
      acc_wr_mask[b] = acc_wr_mask_i;
      acc_wr_data[b] = acc_wr_data_i;
      acc_rd_en[b]   = acc_rd_en_i && (32'(acc_rd_row_i) / AccBankRows) == b;
      acc_rd_addr[b] = AccAddrW'(acc_rd_row_i % AccBankRows);
    end
  end

  gemmini_spad #(.Dim(Dim), .Banks(SpBanks), .BankRows(SpBankRows)) u_spad (
    .clk_i,
    .rst_ni,
    .wr_en_i   (sp_wr_en),
    .wr_addr_i (sp_wr_addr),
    .wr_mask_i (sp_wr_mask),
    .wr_data_i (sp_wr_data),
    .rd_en_i   (sp_rd_en),
    .rd_addr_i (sp_rd_addr),
    .rd_data_o (sp_rd_data)
  );

  gemmini_acc #(.Dim(Dim), .Banks(AccBanks), .BankRows(AccBankRows)) u_acc (
    .clk_i,
    .rst_ni,
    .wr_en_i   (acc_wr_en),
    .wr_acc_i  (acc_wr_acc),
    .wr_addr_i (acc_wr_addr),
    .wr_mask_i (acc_wr_mask),
    .wr_data_i (acc_wr_data),
    .rd_en_i   (acc_rd_en),
    .rd_addr_i (acc_rd_addr),
    .rd_data_o (acc_rd_data)
  );

  // The read data come from the bank the row of the previous cycle's read named.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sp_rd_row_q  <= '0;
      acc_rd_row_q <= '0;
      cycle_o      <= '0;
    end else begin
      if (sp_rd_en_i) sp_rd_row_q <= sp_rd_row_i;
      if (acc_rd_en_i) acc_rd_row_q <= acc_rd_row_i;
      cycle_o <= cycle_o + 1;
    end
  end

  assign sp_rd_data_o  = sp_rd_data[32'(sp_rd_row_q) / SpBankRows];
  assign acc_rd_data_o = acc_rd_data[32'(acc_rd_row_q) / AccBankRows];

endmodule
