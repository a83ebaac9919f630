// Test-bench top of gemmini_dma for the cocotb driver dma_cocotb.py: the DMA
// with its ports flat and public (the memory model is Python, as tb_mem_port
// behaves); nothing here is simulation-only besides the public markers.
module dma_tb
  import gemmini_pkg::*;
#(
  parameter int unsigned DmaBytes    = 16,
  parameter int unsigned DmaMaxBytes = 64,
  parameter int unsigned Outstanding = 16,
  parameter int unsigned RdBufs      = 8,
  localparam int unsigned MemW = (8 * DmaBytes > 64) ? 8 * DmaBytes : 64,
  localparam int unsigned MB   = MemW / 8,
  localparam int unsigned LenW = $clog2(DmaMaxBytes + 1)
) (
  input  logic                       clk_i /*verilator public_flat_rw*/,
  input  logic                       rst_ni /*verilator public_flat_rw*/,
  input  logic                       rd_req_valid_i /*verilator public_flat_rw*/,
  output logic                       rd_req_ready_o /*verilator public_flat_rd*/,
  input  logic [AddrW-1:0]           rd_req_addr_i /*verilator public_flat_rw*/,
  input  logic [LenW-1:0]            rd_req_len_i /*verilator public_flat_rw*/,
  input  logic [7:0]                 rd_req_tag_i /*verilator public_flat_rw*/,
  output logic                       rd_resp_valid_o /*verilator public_flat_rd*/,
  input  logic                       rd_resp_ready_i /*verilator public_flat_rw*/,
  output logic [7:0]                 rd_resp_tag_o /*verilator public_flat_rd*/,
  output logic [DmaMaxBytes*8-1:0]   rd_resp_data_o /*verilator public_flat_rd*/,
  output logic                       rd_resp_err_o /*verilator public_flat_rd*/,
  input  logic                       wr_req_valid_i /*verilator public_flat_rw*/,
  output logic                       wr_req_ready_o /*verilator public_flat_rd*/,
  input  logic [AddrW-1:0]           wr_req_addr_i /*verilator public_flat_rw*/,
  input  logic [LenW-1:0]            wr_req_len_i /*verilator public_flat_rw*/,
  input  logic [DmaMaxBytes*8-1:0]   wr_req_data_i /*verilator public_flat_rw*/,
  input  logic [IdW-1:0]             wr_req_id_i /*verilator public_flat_rw*/,
  output logic                       wr_done_o /*verilator public_flat_rd*/,
  output logic                       mem_req_valid_o /*verilator public_flat_rd*/,
  input  logic                       mem_req_ready_i /*verilator public_flat_rw*/,
  output logic [AddrW-1:0]           mem_req_addr_o /*verilator public_flat_rd*/,
  output logic                       mem_req_we_o /*verilator public_flat_rd*/,
  output logic [MB-1:0]              mem_req_be_o /*verilator public_flat_rd*/,
  output logic [MemW-1:0]            mem_req_wdata_o /*verilator public_flat_rd*/,
  input  logic                       mem_rsp_valid_i /*verilator public_flat_rw*/,
  input  logic [MemW-1:0]            mem_rsp_rdata_i /*verilator public_flat_rw*/,
  input  logic                       mem_rsp_err_i /*verilator public_flat_rw*/,
  output logic                       trace_wr_valid_o /*verilator public_flat_rd*/,
  output logic [AddrW-1:0]           trace_wr_addr_o /*verilator public_flat_rd*/,
  output logic [LenW-1:0]            trace_wr_len_o /*verilator public_flat_rd*/,
  output logic [DmaMaxBytes*8-1:0]   trace_wr_data_o /*verilator public_flat_rd*/,
  output logic [IdW-1:0]             trace_wr_id_o /*verilator public_flat_rd*/
);
  gemmini_dma #(
    .DmaBytes(DmaBytes), .DmaMaxBytes(DmaMaxBytes), .Outstanding(Outstanding), .RdBufs(RdBufs)
  ) u_dma (.*);
endmodule
