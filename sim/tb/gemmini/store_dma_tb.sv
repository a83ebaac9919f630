// Test-bench top of the store controller with the real DMA (store_cocotb.py):
// store_tb (the controller, the scratchpad and the accumulator) whose write
// port drives gemmini_dma's write side; the DMA's amem port is the driver's
// (a Python model of sim/tb/tb_mem_port.sv). The store's write handshake, the
// DMA's wr_done and its write trace are outputs, for the driver to record.
// The DMA's read side is idle (the load controller's).
module store_dma_tb
  import gemmini_pkg::*;
#(
  parameter int unsigned Dim         = 4,
  parameter int unsigned SpBanks     = 4,
  parameter int unsigned SpBankRows  = 1024,
  parameter int unsigned AccBanks    = 2,
  parameter int unsigned AccBankRows = 128,
  parameter int unsigned DmaBytes    = 16,
  parameter int unsigned DmaMaxBytes = 64,
  parameter int unsigned Outstanding = 16,
  localparam int unsigned SpRowW     = $clog2(SpBanks * SpBankRows),
  localparam int unsigned AccRowW    = $clog2(AccBanks * AccBankRows),
  localparam int unsigned LenW       = $clog2(DmaMaxBytes + 1),
  localparam int unsigned MemW       = (8 * DmaBytes > 64) ? 8 * DmaBytes : 64,
  localparam int unsigned MB         = MemW / 8
) (
  input  logic                     clk_i /*verilator public_flat_rw*/,
  input  logic                     rst_ni /*verilator public_flat_rw*/,
  input  logic                     pre_sp_en_i /*verilator public_flat_rw*/,
  input  logic [SpRowW-1:0]        pre_sp_row_i /*verilator public_flat_rw*/,
  input  logic [Dim*8-1:0]         pre_sp_data_i /*verilator public_flat_rw*/,
  input  logic                     pre_acc_en_i /*verilator public_flat_rw*/,
  input  logic [AccRowW-1:0]       pre_acc_row_i /*verilator public_flat_rw*/,
  input  logic [Dim*32-1:0]        pre_acc_data_i /*verilator public_flat_rw*/,
  input  logic                     cmd_valid_i /*verilator public_flat_rw*/,
  output logic                     cmd_ready_o /*verilator public_flat_rd*/,
  input  logic [6:0]               cmd_funct_i /*verilator public_flat_rw*/,
  input  logic [63:0]              cmd_rs1_i /*verilator public_flat_rw*/,
  input  logic [63:0]              cmd_rs2_i /*verilator public_flat_rw*/,
  input  logic [IdW-1:0]           cmd_id_i /*verilator public_flat_rw*/,
  output logic                     done_valid_o /*verilator public_flat_rd*/,
  output logic [IdW-1:0]           done_id_o /*verilator public_flat_rd*/,
  input  logic                     sp_rd_ready_i /*verilator public_flat_rw*/,
  input  logic                     acc_rd_ready_i /*verilator public_flat_rw*/,
  // the store's write requests as the DMA takes them
  output logic                     wr_req_valid_o /*verilator public_flat_rd*/,
  output logic                     wr_req_ready_o /*verilator public_flat_rd*/,
  output logic [AddrW-1:0]         wr_req_addr_o /*verilator public_flat_rd*/,
  output logic [LenW-1:0]          wr_req_len_o /*verilator public_flat_rd*/,
  output logic [DmaMaxBytes*8-1:0] wr_req_data_o /*verilator public_flat_rd*/,
  output logic [IdW-1:0]           wr_req_id_o /*verilator public_flat_rd*/,
  output logic                     wr_done_o /*verilator public_flat_rd*/,
  // amem port
  output logic                     mem_req_valid_o /*verilator public_flat_rd*/,
  input  logic                     mem_req_ready_i /*verilator public_flat_rw*/,
  output logic [AddrW-1:0]         mem_req_addr_o /*verilator public_flat_rd*/,
  output logic                     mem_req_we_o /*verilator public_flat_rd*/,
  output logic [MB-1:0]            mem_req_be_o /*verilator public_flat_rd*/,
  output logic [MemW-1:0]          mem_req_wdata_o /*verilator public_flat_rd*/,
  input  logic                     mem_rsp_valid_i /*verilator public_flat_rw*/,
  input  logic [MemW-1:0]          mem_rsp_rdata_i /*verilator public_flat_rw*/,
  input  logic                     mem_rsp_err_i /*verilator public_flat_rw*/,
  // the DMA's write trace
  output logic                     trace_wr_valid_o /*verilator public_flat_rd*/,
  output logic [AddrW-1:0]         trace_wr_addr_o /*verilator public_flat_rd*/,
  output logic [LenW-1:0]          trace_wr_len_o /*verilator public_flat_rd*/,
  output logic [DmaMaxBytes*8-1:0] trace_wr_data_o /*verilator public_flat_rd*/,
  output logic [IdW-1:0]           trace_wr_id_o /*verilator public_flat_rd*/,
  output logic                     busy_o /*verilator public_flat_rd*/,
  output logic [63:0]              bytes_written_o /*verilator public_flat_rd*/,
  output logic                     stall_mem_o /*verilator public_flat_rd*/,
  output logic [31:0]              cycle_o /*verilator public_flat_rd*/
);

  /* verilator lint_off UNUSEDSIGNAL */
  logic                     rd_resp_valid, rd_resp_err;
  logic [7:0]               rd_resp_tag;
  logic [DmaMaxBytes*8-1:0] rd_resp_data;
  logic                     rd_req_ready;
  /* verilator lint_on UNUSEDSIGNAL */

  store_tb #(
    .Dim(Dim), .SpBanks(SpBanks), .SpBankRows(SpBankRows), .AccBanks(AccBanks), .AccBankRows(AccBankRows),
    .DmaMaxBytes(DmaMaxBytes)
  ) u_core (
    .clk_i,
    .rst_ni,
    .pre_sp_en_i,
    .pre_sp_row_i,
    .pre_sp_data_i,
    .pre_acc_en_i,
    .pre_acc_row_i,
    .pre_acc_data_i,
    .cmd_valid_i,
    .cmd_ready_o,
    .cmd_funct_i,
    .cmd_rs1_i,
    .cmd_rs2_i,
    .cmd_id_i,
    .done_valid_o,
    .done_id_o,
    .sp_rd_ready_i,
    .acc_rd_ready_i,
    .wr_req_valid_o,
    .wr_req_ready_i  (wr_req_ready_o),
    .wr_req_addr_o,
    .wr_req_len_o,
    .wr_req_data_o,
    .wr_req_id_o,
    .wr_done_i       (wr_done_o),
    .busy_o,
    .bytes_written_o,
    .stall_mem_o,
    .cycle_o
  );

  gemmini_dma #(.DmaBytes(DmaBytes), .DmaMaxBytes(DmaMaxBytes), .Outstanding(Outstanding)) u_dma (
    .clk_i,
    .rst_ni,
    .rd_req_valid_i  (1'b0),
    .rd_req_ready_o  (rd_req_ready),
    .rd_req_addr_i   ('0),
    .rd_req_len_i    ('0),
    .rd_req_tag_i    ('0),
    .rd_resp_valid_o (rd_resp_valid),
    .rd_resp_ready_i (1'b1),
    .rd_resp_tag_o   (rd_resp_tag),
    .rd_resp_data_o  (rd_resp_data),
    .rd_resp_err_o   (rd_resp_err),
    .wr_req_valid_i  (wr_req_valid_o),
    .wr_req_ready_o,
    .wr_req_addr_i   (wr_req_addr_o),
    .wr_req_len_i    (wr_req_len_o),
    .wr_req_data_i   (wr_req_data_o),
    .wr_req_id_i     (wr_req_id_o),
    .wr_done_o,
    .mem_req_valid_o,
    .mem_req_ready_i,
    .mem_req_addr_o,
    .mem_req_we_o,
    .mem_req_be_o,
    .mem_req_wdata_o,
    .mem_rsp_valid_i,
    .mem_rsp_rdata_i,
    .mem_rsp_err_i,
    .trace_wr_valid_o,
    .trace_wr_addr_o,
    .trace_wr_len_o,
    .trace_wr_data_o,
    .trace_wr_id_o
  );

endmodule
