// Test-bench top of the Gemmini load controller (sim/rtl/gemmini/gemmini_load.sv)
// for the cocotb driver load_cocotb.py: the controller writing into the real
// scratchpad and accumulator (global rows split into banks as gemmini_mem_tb
// does, row r: bank r / BankRows, row r % BankRows), its DMA read port driven
// by a Python DMA model, the memories' write readies driven by cocotb (the
// top's arbitration), and one read port per memory to dump every row at the
// end. Flat ports, public for cocotb; a cycle counter.
module load_tb
  import gemmini_pkg::*;
#(
  parameter int unsigned Dim            = 4,
  parameter int unsigned SpBanks        = 4,
  parameter int unsigned SpBankRows     = 1024,
  parameter int unsigned AccBanks       = 2,
  parameter int unsigned AccBankRows    = 128,
  parameter int unsigned DmaMaxBytes    = 64,
  parameter int unsigned MaxBlockLen    = 16,
  parameter int unsigned MaxBlockLenAcc = 4,
  localparam int unsigned SpRows        = SpBanks * SpBankRows,
  localparam int unsigned AccRows       = AccBanks * AccBankRows,
  localparam int unsigned SpAddrW       = $clog2(SpBankRows),
  localparam int unsigned AccAddrW      = $clog2(AccBankRows),
  localparam int unsigned SpRowW        = $clog2(SpRows),
  localparam int unsigned AccRowW       = $clog2(AccRows),
  localparam int unsigned LenW          = $clog2(DmaMaxBytes + 1)
) (
  input  logic                     clk_i /*verilator public_flat_rw*/,
  input  logic                     rst_ni /*verilator public_flat_rw*/,
  // commands
  input  logic                     cmd_valid_i /*verilator public_flat_rw*/,
  output logic                     cmd_ready_o /*verilator public_flat_rd*/,
  input  logic [6:0]               cmd_funct_i /*verilator public_flat_rw*/,
  input  logic [63:0]              cmd_rs1_i /*verilator public_flat_rw*/,
  input  logic [63:0]              cmd_rs2_i /*verilator public_flat_rw*/,
  input  logic [IdW-1:0]           cmd_id_i /*verilator public_flat_rw*/,
  output logic                     done_valid_o /*verilator public_flat_rd*/,
  output logic [IdW-1:0]           done_id_o /*verilator public_flat_rd*/,
  // the memories' write readies (the top's arbitration) and what the controller writes
  input  logic                     sp_wr_ready_i /*verilator public_flat_rw*/,
  input  logic                     acc_wr_ready_i /*verilator public_flat_rw*/,
  output logic                     sp_wr_valid_o /*verilator public_flat_rd*/,
  output logic [IdW-1:0]           sp_wr_id_o /*verilator public_flat_rd*/,
  output logic                     acc_wr_valid_o /*verilator public_flat_rd*/,
  output logic [IdW-1:0]           acc_wr_id_o /*verilator public_flat_rd*/,
  // DMA read port
  output logic                     rd_req_valid_o /*verilator public_flat_rd*/,
  input  logic                     rd_req_ready_i /*verilator public_flat_rw*/,
  output logic [31:0]              rd_req_addr_o /*verilator public_flat_rd*/,
  output logic [LenW-1:0]          rd_req_len_o /*verilator public_flat_rd*/,
  output logic [7:0]               rd_req_tag_o /*verilator public_flat_rd*/,
  input  logic                     rd_resp_valid_i /*verilator public_flat_rw*/,
  output logic                     rd_resp_ready_o /*verilator public_flat_rd*/,
  input  logic [7:0]               rd_resp_tag_i /*verilator public_flat_rw*/,
  input  logic [DmaMaxBytes*8-1:0] rd_resp_data_i /*verilator public_flat_rw*/,
  input  logic                     rd_resp_err_i /*verilator public_flat_rw*/,
  // counters
  output logic                     busy_o /*verilator public_flat_rd*/,
  output logic [LenW-1:0]          rd_bytes_o /*verilator public_flat_rd*/,
  output logic                     stall_mem_o /*verilator public_flat_rd*/,
  output logic                     rd_err_o /*verilator public_flat_rd*/,
  // dump ports (global rows)
  input  logic                     sp_rd_en_i /*verilator public_flat_rw*/,
  input  logic [SpRowW-1:0]        sp_rd_row_i /*verilator public_flat_rw*/,
  output logic [Dim*8-1:0]         sp_rd_data_o /*verilator public_flat_rd*/,
  input  logic                     acc_rd_en_i /*verilator public_flat_rw*/,
  input  logic [AccRowW-1:0]       acc_rd_row_i /*verilator public_flat_rw*/,
  output logic [Dim*32-1:0]        acc_rd_data_o /*verilator public_flat_rd*/,
  output logic [31:0]              cycle_o /*verilator public_flat_rd*/
);

  gm_cmd_t                cmd;
  logic [SpRowW-1:0]      sp_wr_row;
  logic [Dim-1:0]         sp_wr_mask, acc_wr_mask;
  logic [Dim*8-1:0]       sp_wr_data;
  logic [AccRowW-1:0]     acc_wr_row;
  logic [Dim*32-1:0]      acc_wr_data;
  logic                   acc_wr_accumulate;

  assign cmd = '{funct: cmd_funct_i, rs1: cmd_rs1_i, rs2: cmd_rs2_i, id: cmd_id_i};

  gemmini_load #(
    .Dim(Dim), .SpRows(SpRows), .AccRows(AccRows), .DmaMaxBytes(DmaMaxBytes),
    .MaxBlockLen(MaxBlockLen), .MaxBlockLenAcc(MaxBlockLenAcc), .SpBanks(SpBanks), .AccBanks(AccBanks)
  ) u_load (
    .clk_i,
    .rst_ni,
    .cmd_valid_i,
    .cmd_ready_o,
    .cmd_i               (cmd),
    .done_valid_o,
    .done_id_o,
    .sp_wr_valid_o,
    .sp_wr_ready_i,
    .sp_wr_row_o         (sp_wr_row),
    .sp_wr_mask_o        (sp_wr_mask),
    .sp_wr_data_o        (sp_wr_data),
    .sp_wr_id_o,
    .acc_wr_valid_o,
    .acc_wr_ready_i,
    .acc_wr_row_o        (acc_wr_row),
    .acc_wr_mask_o       (acc_wr_mask),
    .acc_wr_data_o       (acc_wr_data),
    .acc_wr_accumulate_o (acc_wr_accumulate),
    .acc_wr_id_o,
    .rd_req_valid_o,
    .rd_req_ready_i,
    .rd_req_addr_o,
    .rd_req_len_o,
    .rd_req_tag_o,
    .rd_resp_valid_i,
    .rd_resp_ready_o,
    .rd_resp_tag_i,
    .rd_resp_data_i,
    .rd_resp_err_i,
    .busy_o,
    .rd_bytes_o,
    .stall_mem_o,
    .rd_err_o
  );

  logic [SpBanks-1:0]                 sp_wr_en, sp_rd_en;
  logic [SpBanks-1:0][SpAddrW-1:0]    sp_wr_addr, sp_rd_addr;
  logic [SpBanks-1:0][Dim-1:0]        sp_wr_mask_b;
  logic [SpBanks-1:0][Dim*8-1:0]      sp_wr_data_b, sp_rd_data;
  logic [AccBanks-1:0]                acc_wr_en, acc_wr_acc, acc_rd_en;
  logic [AccBanks-1:0][AccAddrW-1:0]  acc_wr_addr, acc_rd_addr;
  logic [AccBanks-1:0][Dim-1:0]       acc_wr_mask_b;
  logic [AccBanks-1:0][Dim*32-1:0]    acc_wr_data_b, acc_rd_data;
  logic [SpRowW-1:0]                  sp_rd_row_q;
  logic [AccRowW-1:0]                 acc_rd_row_q;

  always_comb begin
    for (int unsigned b = 0; b < SpBanks; b++) begin
      sp_wr_en[b]     = sp_wr_valid_o && sp_wr_ready_i && (32'(sp_wr_row) / SpBankRows) == b;
      sp_wr_addr[b]   = SpAddrW'(sp_wr_row % SpBankRows);
      sp_wr_mask_b[b] = sp_wr_mask;
      sp_wr_data_b[b] = sp_wr_data;
      sp_rd_en[b]     = sp_rd_en_i && (32'(sp_rd_row_i) / SpBankRows) == b;
      sp_rd_addr[b]   = SpAddrW'(sp_rd_row_i % SpBankRows);
    end
    for (int unsigned b = 0; b < AccBanks; b++) begin
      acc_wr_en[b]     = acc_wr_valid_o && acc_wr_ready_i && (32'(acc_wr_row) / AccBankRows) == b;
      acc_wr_acc[b]    = acc_wr_accumulate;
      acc_wr_addr[b]   = AccAddrW'(acc_wr_row % AccBankRows);
      acc_wr_mask_b[b] = acc_wr_mask;
      acc_wr_data_b[b] = acc_wr_data;
      acc_rd_en[b]     = acc_rd_en_i && (32'(acc_rd_row_i) / AccBankRows) == b;
      acc_rd_addr[b]   = AccAddrW'(acc_rd_row_i % AccBankRows);
    end
  end

  gemmini_spad #(.Dim(Dim), .Banks(SpBanks), .BankRows(SpBankRows)) u_spad (
    .clk_i,
    .rst_ni,
    .wr_en_i   (sp_wr_en),
    .wr_addr_i (sp_wr_addr),
    .wr_mask_i (sp_wr_mask_b),
    .wr_data_i (sp_wr_data_b),
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
    .wr_mask_i (acc_wr_mask_b),
    .wr_data_i (acc_wr_data_b),
    .rd_en_i   (acc_rd_en),
    .rd_addr_i (acc_rd_addr),
    .rd_data_o (acc_rd_data)
  );

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
