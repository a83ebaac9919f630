// Test bench top of gemmini_unit: the coprocessor request and completion
// flattened into plain ports, the memory port, and the trace outputs, all
// public for cocotb (unit_cocotb.py).
module unit_tb
  import cosim_pkg::*;
  import gemmini_pkg::*;
  import gemmini_unit_pkg::*;
#(
  parameter int unsigned Dim            = 4,
  parameter int unsigned SpRows         = 4096,
  parameter int unsigned AccRows        = 256,
  parameter int unsigned SpBanks        = 4,
  parameter int unsigned AccBanks       = 2,
  parameter int unsigned DmaBytes       = 16,
  parameter int unsigned DmaMaxBytes    = 64,
  parameter int unsigned MaxBlockLen    = 16,
  parameter int unsigned MaxBlockLenAcc = 4,
  parameter bit          HasWs          = 1'b1,
  parameter bit          HasOs          = 1'b1,
  parameter int unsigned MemW           = 128,
  parameter int unsigned MemOutstanding = 16,
  parameter logic [31:0] Mem0Base       = 32'h2000_0000,
  parameter logic [32:0] Mem0Size       = 33'h0_2000_0000,
  parameter logic [31:0] Mem1Base       = 32'h4000_0000,
  parameter logic [32:0] Mem1Size       = 33'h0_8000_0000,
  parameter logic [31:0] Mem2Base       = 32'hC000_0000,
  parameter logic [32:0] Mem2Size       = 33'h0_0100_0000,
  localparam int unsigned SpRowW        = $clog2(SpRows),
  localparam int unsigned AccRowW       = $clog2(AccRows),
  localparam int unsigned LenW          = $clog2(DmaMaxBytes + 1)
) (
  input  logic                             clk_i        /*verilator public_flat_rw*/,
  input  logic                             rst_ni       /*verilator public_flat_rw*/,
  input  logic                             req_valid_i  /*verilator public_flat_rw*/,
  output logic                             req_ready_o  /*verilator public_flat_rd*/,
  input  logic [31:0]                      req_insn_i   /*verilator public_flat_rw*/,
  input  logic [63:0]                      req_rs1_i    /*verilator public_flat_rw*/,
  input  logic [63:0]                      req_rs2_i    /*verilator public_flat_rw*/,
  input  logic [7:0]                       req_seq_i    /*verilator public_flat_rw*/,
  output logic                             illegal_o    /*verilator public_flat_rd*/,
  output logic [5:0]                       reason_o     /*verilator public_flat_rd*/,
  output logic                             cmp_valid_o  /*verilator public_flat_rd*/,
  output logic [7:0]                       cmp_seq_o    /*verilator public_flat_rd*/,
  output logic                             cmp_xwe_o    /*verilator public_flat_rd*/,
  output logic [63:0]                      cmp_wdata_o  /*verilator public_flat_rd*/,
  output logic                             mem_req_valid_o /*verilator public_flat_rd*/,
  input  logic                             mem_req_ready_i /*verilator public_flat_rw*/,
  output logic [31:0]                      mem_req_addr_o  /*verilator public_flat_rd*/,
  output logic                             mem_req_we_o    /*verilator public_flat_rd*/,
  output logic [MemW/8-1:0]                mem_req_be_o    /*verilator public_flat_rd*/,
  output logic [MemW-1:0]                  mem_req_wdata_o /*verilator public_flat_rd*/,
  input  logic                             mem_rsp_valid_i /*verilator public_flat_rw*/,
  input  logic [MemW-1:0]                  mem_rsp_rdata_i /*verilator public_flat_rw*/,
  input  logic                             mem_rsp_err_i   /*verilator public_flat_rw*/,
  output logic                             busy_o       /*verilator public_flat_rd*/,
  output logic                             progress_o   /*verilator public_flat_rd*/,
  output logic [31:0]                      macs_o       /*verilator public_flat_rd*/,
  output logic                             mesh_busy_o  /*verilator public_flat_rd*/,
  output logic [SpBanks-1:0]               tsp_valid_o  /*verilator public_flat_rd*/,
  output logic [SpBanks*SpRowW-1:0]        tsp_row_o    /*verilator public_flat_rd*/,
  output logic [SpBanks*Dim-1:0]           tsp_mask_o   /*verilator public_flat_rd*/,
  output logic [SpBanks*Dim*8-1:0]         tsp_data_o   /*verilator public_flat_rd*/,
  output logic [SpBanks*8-1:0]             tsp_seq_o    /*verilator public_flat_rd*/,
  output logic [AccBanks-1:0]              tacc_valid_o /*verilator public_flat_rd*/,
  output logic [AccBanks*AccRowW-1:0]      tacc_row_o   /*verilator public_flat_rd*/,
  output logic [AccBanks*Dim*32-1:0]       tacc_data_o  /*verilator public_flat_rd*/,
  output logic [AccBanks*8-1:0]            tacc_seq_o   /*verilator public_flat_rd*/,
  output logic                             twr_valid_o  /*verilator public_flat_rd*/,
  output logic [31:0]                      twr_addr_o   /*verilator public_flat_rd*/,
  output logic [LenW-1:0]                  twr_len_o    /*verilator public_flat_rd*/,
  output logic [DmaMaxBytes*8-1:0]         twr_data_o   /*verilator public_flat_rd*/,
  output logic [7:0]                       twr_seq_o    /*verilator public_flat_rd*/
);

  cop_req_t     req;
  cop_cmp_t     cmp;
  cop_ack_t     ack;
  gm_illegal_e  reason;
  gm_perf_t     perf;
  gm_trace_id_t tid;
  logic [SpBanks-1:0][IdW-1:0]   tsp_id;
  logic [AccBanks-1:0][Dim-1:0]  tacc_mask;
  logic [AccBanks-1:0]           tacc_accumulate;
  logic [AccBanks-1:0][IdW-1:0]  tacc_id;
  logic [IdW-1:0]                twr_id;
  logic [SpBanks-1:0][SpRowW-1:0]    tsp_row;
  logic [SpBanks-1:0][Dim-1:0]       tsp_mask;
  logic [SpBanks-1:0][Dim*8-1:0]     tsp_data;
  logic [SpBanks-1:0][7:0]           tsp_seq;
  logic [AccBanks-1:0][AccRowW-1:0]  tacc_row;
  logic [AccBanks-1:0][Dim*32-1:0]   tacc_data;
  logic [AccBanks-1:0][7:0]          tacc_seq;

  always_comb begin
    req      = '0;
    req.insn = req_insn_i;
    req.rs1  = req_rs1_i;
    req.rs2  = req_rs2_i;
    req.seq  = req_seq_i;
  end

  gemmini_unit #(
    .Dim(Dim), .SpRows(SpRows), .AccRows(AccRows), .SpBanks(SpBanks), .AccBanks(AccBanks), .DmaBytes(DmaBytes),
    .DmaMaxBytes(DmaMaxBytes), .MaxBlockLen(MaxBlockLen), .MaxBlockLenAcc(MaxBlockLenAcc), .HasWs(HasWs),
    .HasOs(HasOs), .MemW(MemW), .MemOutstanding(MemOutstanding), .Mem0Base(Mem0Base), .Mem0Size(Mem0Size),
    .Mem1Base(Mem1Base), .Mem1Size(Mem1Size), .Mem2Base(Mem2Base), .Mem2Size(Mem2Size)
  ) u_unit (
    .clk_i, .rst_ni,
    .cop_req_valid_i (req_valid_i),
    .cop_req_ready_o (req_ready_o),
    .cop_req_i       (req),
    .cop_illegal_o   (illegal_o),
    .cop_ack_o       (ack),
    .cop_cmp_valid_o (cmp_valid_o),
    .cop_cmp_o       (cmp),
    .mem_req_valid_o, .mem_req_ready_i, .mem_req_addr_o, .mem_req_we_o, .mem_req_be_o, .mem_req_wdata_o,
    .mem_rsp_valid_i, .mem_rsp_rdata_i, .mem_rsp_err_i,
    .busy_o, .progress_o,
    .illegal_reason_o       (reason),
    .perf_o                 (perf),
    .trace_sp_valid_o       (tsp_valid_o),
    .trace_sp_row_o         (tsp_row),
    .trace_sp_mask_o        (tsp_mask),
    .trace_sp_data_o        (tsp_data),
    .trace_sp_id_o          (tsp_id),
    .trace_sp_seq_o         (tsp_seq),
    .trace_acc_valid_o      (tacc_valid_o),
    .trace_acc_row_o        (tacc_row),
    .trace_acc_mask_o       (tacc_mask),
    .trace_acc_data_o       (tacc_data),
    .trace_acc_accumulate_o (tacc_accumulate),
    .trace_acc_id_o         (tacc_id),
    .trace_acc_seq_o        (tacc_seq),
    .trace_wr_valid_o       (twr_valid_o),
    .trace_wr_addr_o        (twr_addr_o),
    .trace_wr_len_o         (twr_len_o),
    .trace_wr_data_o        (twr_data_o),
    .trace_wr_id_o          (twr_id),
    .trace_wr_seq_o         (twr_seq_o),
    .trace_id_o             (tid)
  );

  assign reason_o    = reason;
  assign cmp_seq_o   = cmp.seq;
  assign cmp_xwe_o   = cmp.x_we;
  assign cmp_wdata_o = cmp.wdata;
  assign macs_o      = perf.macs;
  assign mesh_busy_o = perf.mesh_busy;
  assign tsp_row_o   = tsp_row;
  assign tsp_mask_o  = tsp_mask;
  assign tsp_data_o  = tsp_data;
  assign tsp_seq_o   = tsp_seq;
  assign tacc_row_o  = tacc_row;
  assign tacc_data_o = tacc_data;
  assign tacc_seq_o  = tacc_seq;

  logic unused;
  assign unused = ^{ack, cmp, perf, tid, tsp_id, tacc_mask, tacc_accumulate, tacc_id, twr_id};

endmodule
