// Test-bench top of the load controller with the real DMA (load_cocotb.py in
// its amem mode): load_tb (the controller, the scratchpad and the accumulator)
// whose DMA read port is gemmini_dma's read side; the DMA's amem port is the
// driver's (a Python model of sim/tb/tb_mem_port.sv). The read handshakes
// between the controller and the DMA are outputs, for the driver to record.
// The DMA's write side is idle (the store controller's).
module load_dma_tb
  import gemmini_pkg::*;
#(
  parameter int unsigned Dim            = 4,
  parameter int unsigned SpBanks        = 4,
  parameter int unsigned SpBankRows     = 1024,
  parameter int unsigned AccBanks       = 2,
  parameter int unsigned AccBankRows    = 128,
  parameter int unsigned DmaBytes       = 16,
  parameter int unsigned DmaMaxBytes    = 64,
  parameter int unsigned MaxBlockLen    = 16,
  parameter int unsigned MaxBlockLenAcc = 4,
  parameter int unsigned Outstanding    = 16,
  localparam int unsigned SpRowW        = $clog2(SpBanks * SpBankRows),
  localparam int unsigned AccRowW       = $clog2(AccBanks * AccBankRows),
  localparam int unsigned LenW          = $clog2(DmaMaxBytes + 1),
  localparam int unsigned MemW          = (8 * DmaBytes > 64) ? 8 * DmaBytes : 64,
  localparam int unsigned MB            = MemW / 8
) (
  input  logic                     clk_i /*verilator public_flat_rw*/,
  input  logic                     rst_ni /*verilator public_flat_rw*/,
  input  logic                     cmd_valid_i /*verilator public_flat_rw*/,
  output logic                     cmd_ready_o /*verilator public_flat_rd*/,
  input  logic [6:0]               cmd_funct_i /*verilator public_flat_rw*/,
  input  logic [63:0]              cmd_rs1_i /*verilator public_flat_rw*/,
  input  logic [63:0]              cmd_rs2_i /*verilator public_flat_rw*/,
  input  logic [IdW-1:0]           cmd_id_i /*verilator public_flat_rw*/,
  output logic                     done_valid_o /*verilator public_flat_rd*/,
  output logic [IdW-1:0]           done_id_o /*verilator public_flat_rd*/,
  input  logic                     sp_wr_ready_i /*verilator public_flat_rw*/,
  input  logic                     acc_wr_ready_i /*verilator public_flat_rw*/,
  output logic                     sp_wr_valid_o /*verilator public_flat_rd*/,
  output logic [IdW-1:0]           sp_wr_id_o /*verilator public_flat_rd*/,
  output logic                     acc_wr_valid_o /*verilator public_flat_rd*/,
  output logic [IdW-1:0]           acc_wr_id_o /*verilator public_flat_rd*/,
  // the controller's read requests and responses as the DMA sees them
  output logic                     rd_req_valid_o /*verilator public_flat_rd*/,
  output logic                     rd_req_ready_o /*verilator public_flat_rd*/,
  output logic [31:0]              rd_req_addr_o /*verilator public_flat_rd*/,
  output logic [LenW-1:0]          rd_req_len_o /*verilator public_flat_rd*/,
  output logic [7:0]               rd_req_tag_o /*verilator public_flat_rd*/,
  output logic                     rd_resp_valid_o /*verilator public_flat_rd*/,
  output logic                     rd_resp_ready_o /*verilator public_flat_rd*/,
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
  output logic                     busy_o /*verilator public_flat_rd*/,
  output logic [LenW-1:0]          rd_bytes_o /*verilator public_flat_rd*/,
  output logic                     stall_mem_o /*verilator public_flat_rd*/,
  output logic                     rd_err_o /*verilator public_flat_rd*/,
  input  logic                     sp_rd_en_i /*verilator public_flat_rw*/,
  input  logic [SpRowW-1:0]        sp_rd_row_i /*verilator public_flat_rw*/,
  output logic [Dim*8-1:0]         sp_rd_data_o /*verilator public_flat_rd*/,
  input  logic                     acc_rd_en_i /*verilator public_flat_rw*/,
  input  logic [AccRowW-1:0]       acc_rd_row_i /*verilator public_flat_rw*/,
  output logic [Dim*32-1:0]        acc_rd_data_o /*verilator public_flat_rd*/,
  output logic [31:0]              cycle_o /*verilator public_flat_rd*/
);

  logic [7:0]               rd_resp_tag;
  logic [DmaMaxBytes*8-1:0] rd_resp_data;
  logic                     rd_resp_err;
  /* verilator lint_off UNUSEDSIGNAL */
  logic                     wr_req_ready, wr_done, trace_wr_valid;
  logic [AddrW-1:0]         trace_wr_addr;
  logic [LenW-1:0]          trace_wr_len;
  logic [DmaMaxBytes*8-1:0] trace_wr_data;
  logic [IdW-1:0]           trace_wr_id;
  /* verilator lint_on UNUSEDSIGNAL */

  load_tb #(
    .Dim(Dim), .SpBanks(SpBanks), .SpBankRows(SpBankRows), .AccBanks(AccBanks), .AccBankRows(AccBankRows),
    .DmaMaxBytes(DmaMaxBytes), .MaxBlockLen(MaxBlockLen), .MaxBlockLenAcc(MaxBlockLenAcc)
  ) u_tb (
    .clk_i, .rst_ni,
    .cmd_valid_i, .cmd_ready_o, .cmd_funct_i, .cmd_rs1_i, .cmd_rs2_i, .cmd_id_i, .done_valid_o, .done_id_o,
    .sp_wr_ready_i, .acc_wr_ready_i, .sp_wr_valid_o, .sp_wr_id_o, .acc_wr_valid_o, .acc_wr_id_o,
    .rd_req_valid_o,
    .rd_req_ready_i  (rd_req_ready_o),
    .rd_req_addr_o, .rd_req_len_o, .rd_req_tag_o,
    .rd_resp_valid_i (rd_resp_valid_o),
    .rd_resp_ready_o,
    .rd_resp_tag_i   (rd_resp_tag),
    .rd_resp_data_i  (rd_resp_data),
    .rd_resp_err_i   (rd_resp_err),
    .busy_o, .rd_bytes_o, .stall_mem_o, .rd_err_o,
    .sp_rd_en_i, .sp_rd_row_i, .sp_rd_data_o, .acc_rd_en_i, .acc_rd_row_i, .acc_rd_data_o, .cycle_o
  );

  gemmini_dma #(.DmaBytes(DmaBytes), .DmaMaxBytes(DmaMaxBytes), .Outstanding(Outstanding)) u_dma (
    .clk_i, .rst_ni,
    .rd_req_valid_i   (rd_req_valid_o),
    .rd_req_ready_o,
    .rd_req_addr_i    (rd_req_addr_o),
    .rd_req_len_i     (rd_req_len_o),
    .rd_req_tag_i     (rd_req_tag_o),
    .rd_resp_valid_o,
    .rd_resp_ready_i  (rd_resp_ready_o),
    .rd_resp_tag_o    (rd_resp_tag),
    .rd_resp_data_o   (rd_resp_data),
    .rd_resp_err_o    (rd_resp_err),
    .wr_req_valid_i   (1'b0),
    .wr_req_ready_o   (wr_req_ready),
    .wr_req_addr_i    ('0),
    .wr_req_len_i     ('0),
    .wr_req_data_i    ('0),
    .wr_req_id_i      ('0),
    .wr_done_o        (wr_done),
    .mem_req_valid_o, .mem_req_ready_i, .mem_req_addr_o, .mem_req_we_o, .mem_req_be_o, .mem_req_wdata_o,
    .mem_rsp_valid_i, .mem_rsp_rdata_i, .mem_rsp_err_i,
    .trace_wr_valid_o (trace_wr_valid),
    .trace_wr_addr_o  (trace_wr_addr),
    .trace_wr_len_o   (trace_wr_len),
    .trace_wr_data_o  (trace_wr_data),
    .trace_wr_id_o    (trace_wr_id)
  );

endmodule
