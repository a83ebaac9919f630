// Test-bench top of the Gemmini store controller (sim/rtl/gemmini/gemmini_store.sv)
// for the cocotb driver store_cocotb.py: the controller reads the real
// scratchpad and accumulator (gemmini_spad, gemmini_acc; global rows split into
// banks as the unit's top does), whose write ports the driver uses to preload
// them. The read ports' ready (the top's bank arbitration), the command port
// and the DMA write port are the driver's (a Python DMA model). Flat ports,
// public for cocotb.
module store_tb
  import gemmini_pkg::*;
#(
  parameter int unsigned Dim         = 4,
  parameter int unsigned SpBanks     = 4,
  parameter int unsigned SpBankRows  = 1024,
  parameter int unsigned AccBanks    = 2,
  parameter int unsigned AccBankRows = 128,
  parameter int unsigned DmaMaxBytes = 64,
  localparam int unsigned SpRows     = SpBanks * SpBankRows,
  localparam int unsigned AccRows    = AccBanks * AccBankRows,
  localparam int unsigned SpAddrW    = $clog2(SpBankRows),
  localparam int unsigned AccAddrW   = $clog2(AccBankRows),
  localparam int unsigned SpRowW     = $clog2(SpRows),
  localparam int unsigned AccRowW    = $clog2(AccRows),
  localparam int unsigned LenW       = $clog2(DmaMaxBytes + 1)
) (
  input  logic                     clk_i /*verilator public_flat_rw*/,
  input  logic                     rst_ni /*verilator public_flat_rw*/,
  // preload (whole rows)
  input  logic                     pre_sp_en_i /*verilator public_flat_rw*/,
  input  logic [SpRowW-1:0]        pre_sp_row_i /*verilator public_flat_rw*/,
  input  logic [Dim*8-1:0]         pre_sp_data_i /*verilator public_flat_rw*/,
  input  logic                     pre_acc_en_i /*verilator public_flat_rw*/,
  input  logic [AccRowW-1:0]       pre_acc_row_i /*verilator public_flat_rw*/,
  input  logic [Dim*32-1:0]        pre_acc_data_i /*verilator public_flat_rw*/,
  // commands
  input  logic                     cmd_valid_i /*verilator public_flat_rw*/,
  output logic                     cmd_ready_o /*verilator public_flat_rd*/,
  input  logic [6:0]               cmd_funct_i /*verilator public_flat_rw*/,
  input  logic [63:0]              cmd_rs1_i /*verilator public_flat_rw*/,
  input  logic [63:0]              cmd_rs2_i /*verilator public_flat_rw*/,
  input  logic [IdW-1:0]           cmd_id_i /*verilator public_flat_rw*/,
  output logic                     done_valid_o /*verilator public_flat_rd*/,
  output logic [IdW-1:0]           done_id_o /*verilator public_flat_rd*/,
  // the top's arbitration of the read ports
  input  logic                     sp_rd_ready_i /*verilator public_flat_rw*/,
  input  logic                     acc_rd_ready_i /*verilator public_flat_rw*/,
  // DMA write port
  output logic                     wr_req_valid_o /*verilator public_flat_rd*/,
  input  logic                     wr_req_ready_i /*verilator public_flat_rw*/,
  output logic [AddrW-1:0]         wr_req_addr_o /*verilator public_flat_rd*/,
  output logic [LenW-1:0]          wr_req_len_o /*verilator public_flat_rd*/,
  output logic [DmaMaxBytes*8-1:0] wr_req_data_o /*verilator public_flat_rd*/,
  output logic [IdW-1:0]           wr_req_id_o /*verilator public_flat_rd*/,
  input  logic                     wr_done_i /*verilator public_flat_rw*/,
  // counters
  output logic                     busy_o /*verilator public_flat_rd*/,
  output logic [63:0]              bytes_written_o /*verilator public_flat_rd*/,
  output logic                     stall_mem_o /*verilator public_flat_rd*/,
  output logic [31:0]              cycle_o /*verilator public_flat_rd*/
);

  gm_cmd_t             cmd;
  logic                sp_rd_valid, acc_rd_valid;
  logic [SpRowW-1:0]   sp_rd_row, sp_rd_row_q;
  logic [AccRowW-1:0]  acc_rd_row, acc_rd_row_q;
  logic [Dim*8-1:0]    sp_rd_data;
  logic [Dim*32-1:0]   acc_rd_data;

  assign cmd = '{funct: cmd_funct_i, rs1: cmd_rs1_i, rs2: cmd_rs2_i, id: cmd_id_i};

  gemmini_store #(
    .Dim(Dim), .SpRows(SpRows), .AccRows(AccRows), .SpBanks(SpBanks), .AccBanks(AccBanks),
    .DmaMaxBytes(DmaMaxBytes)
  ) u_store (
    .clk_i,
    .rst_ni,
    .cmd_valid_i,
    .cmd_ready_o,
    .cmd_i           (cmd),
    .done_valid_o,
    .done_id_o,
    .sp_rd_valid_o   (sp_rd_valid),
    .sp_rd_ready_i,
    .sp_rd_row_o     (sp_rd_row),
    .sp_rd_data_i    (sp_rd_data),
    .acc_rd_valid_o  (acc_rd_valid),
    .acc_rd_ready_i,
    .acc_rd_row_o    (acc_rd_row),
    .acc_rd_data_i   (acc_rd_data),
    .wr_req_valid_o,
    .wr_req_ready_i,
    .wr_req_addr_o,
    .wr_req_len_o,
    .wr_req_data_o,
    .wr_req_id_o,
    .wr_done_i,
    .busy_o,
    .bytes_written_o,
    .stall_mem_o
  );

  logic [SpBanks-1:0]                sp_wr_en, sp_rd_en;
  logic [SpBanks-1:0][SpAddrW-1:0]   sp_wr_addr, sp_rd_addr;
  logic [SpBanks-1:0][Dim-1:0]       sp_wr_mask;
  logic [SpBanks-1:0][Dim*8-1:0]     sp_wr_data, sp_rd_data_b;
  logic [AccBanks-1:0]               acc_wr_en, acc_wr_acc, acc_rd_en;
  logic [AccBanks-1:0][AccAddrW-1:0] acc_wr_addr, acc_rd_addr;
  logic [AccBanks-1:0][Dim-1:0]      acc_wr_mask;
  logic [AccBanks-1:0][Dim*32-1:0]   acc_wr_data, acc_rd_data_b;

  always_comb begin
    for (int unsigned b = 0; b < SpBanks; b++) begin
      sp_wr_en[b]   = pre_sp_en_i && (32'(pre_sp_row_i) / SpBankRows) == b;
      sp_wr_addr[b] = SpAddrW'(pre_sp_row_i % SpBankRows);
      sp_wr_mask[b] = '1;
      sp_wr_data[b] = pre_sp_data_i;
      sp_rd_en[b]   = sp_rd_valid && sp_rd_ready_i && (32'(sp_rd_row) / SpBankRows) == b;
      sp_rd_addr[b] = SpAddrW'(sp_rd_row % SpBankRows);
    end
    for (int unsigned b = 0; b < AccBanks; b++) begin
      acc_wr_en[b]   = pre_acc_en_i && (32'(pre_acc_row_i) / AccBankRows) == b;
      acc_wr_acc[b]  = 1'b0;
      acc_wr_addr[b] = AccAddrW'(pre_acc_row_i % AccBankRows);
      acc_wr_mask[b] = '1;
      acc_wr_data[b] = pre_acc_data_i;
      acc_rd_en[b]   = acc_rd_valid && acc_rd_ready_i && (32'(acc_rd_row) / AccBankRows) == b;
      acc_rd_addr[b] = AccAddrW'(acc_rd_row % AccBankRows);
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
    .rd_data_o (sp_rd_data_b)
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
    .rd_data_o (acc_rd_data_b)
  );

  // The read data come from the bank the previous accepted read named.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sp_rd_row_q  <= '0;
      acc_rd_row_q <= '0;
      cycle_o      <= '0;
    end else begin
      if (sp_rd_valid && sp_rd_ready_i) sp_rd_row_q <= sp_rd_row;
      if (acc_rd_valid && acc_rd_ready_i) acc_rd_row_q <= acc_rd_row;
      cycle_o <= cycle_o + 1;
    end
  end

  assign sp_rd_data  = sp_rd_data_b[32'(sp_rd_row_q) / SpBankRows];
  assign acc_rd_data = acc_rd_data_b[32'(acc_rd_row_q) / AccBankRows];

endmodule
