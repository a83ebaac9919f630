// SoC top: the scalar core and its coprocessor (accelerator), with the memory
// ports the test bench serves. Accel selects the unit behind the coprocessor
// port: 0 = none (cosim_noacc), 1 = t1-style vector unit (vec_unit), 2 =
// Gemmini-style systolic array (gemmini_unit, sim/rtl/gemmini/UNIT.md). Both
// units use the accelerator memory port (amem_*). Vector memory faults are
// decided at the issue handshake (cop_ack); Gemmini decides legality there too
// (illegal instructions trap precisely, gm_illegal_reason_o says which check).
// For Gemmini the core orders its scalar memory against the unit only at fence
// and MMIO accesses (cosim_core CustomFenceOnly).
module cosim_soc
  import cosim_pkg::*;
  import core_pkg::*;
#(
  parameter int unsigned XLEN     = 32,
  parameter int unsigned DataW    = 32,   // core memory ports (config memory.width_bits)
  parameter int unsigned AccDataW = 64,   // accelerator memory port
  parameter int unsigned Accel    = 0,    // 0 none, 1 vector, 2 gemmini
  parameter int unsigned VLEN     = 128,
  parameter int unsigned DLEN     = 64,
  parameter int unsigned MemOutstanding = 4,  // requests in flight per memory port (config memory.outstanding)
  // Gemmini unit (Accel == 2; sim/gemmini/params.py, sim/verilator_build.soc_parameters)
  parameter int unsigned Dim            = 4,
  parameter int unsigned SpRows         = 1024,
  parameter int unsigned AccRows        = 256,
  parameter int unsigned SpBanks        = 4,
  parameter int unsigned AccBanks       = 2,
  parameter int unsigned DmaBytes       = 8,
  parameter int unsigned DmaMaxBytes    = 64,
  parameter int unsigned MaxBlockLen    = 16,
  parameter int unsigned MaxBlockLenAcc = 4,
  parameter bit          HasWs          = 1'b1,
  parameter bit          HasOs          = 1'b1,
  // Memory map (config memory_map): the MMIO page and the three memory regions
  parameter logic [31:0] MmioBase = 32'h1000_0000,
  parameter logic [31:0] MmioSize = 32'h0000_1000,
  parameter logic [31:0] Mem0Base = 32'h2000_0000,
  parameter logic [32:0] Mem0Size = 33'h0_2000_0000,
  parameter logic [31:0] Mem1Base = 32'h4000_0000,
  parameter logic [32:0] Mem1Size = 33'h0_8000_0000,
  parameter logic [31:0] Mem2Base = 32'hC000_0000,
  parameter logic [32:0] Mem2Size = 33'h0_0100_0000
) (
  input  logic                  clk_i,              // clock
  input  logic                  rst_ni,             // asynchronous reset, active low
  input  logic [XLEN-1:0]       boot_addr_i,        // the core's PC after reset

  output logic                  imem_req_valid_o,   // instruction port (cosim_core): a fetch request
  input  logic                  imem_req_ready_i,   // ... accepted
  output logic [31:0]           imem_req_addr_o,    // its address
  input  logic                  imem_resp_valid_i,  // a response (in request order)
  input  logic [DataW-1:0]      imem_resp_data_i,   // the beat holding the word
  input  logic                  imem_resp_err_i,    // access fault

  output logic                  dmem_req_valid_o,   // core data port: a load or store request
  input  logic                  dmem_req_ready_i,   // ... accepted
  output logic [31:0]           dmem_req_addr_o,    // its byte address
  output logic                  dmem_req_we_o,      // a store
  output logic [DataW/8-1:0]    dmem_req_wstrb_o,   // store byte enables
  output logic [DataW-1:0]      dmem_req_wdata_o,   // store data, in its byte lanes
  input  logic                  dmem_resp_valid_i,  // a response (in request order)
  input  logic [DataW-1:0]      dmem_resp_data_i,   // load data beat
  input  logic                  dmem_resp_err_i,    // access fault

  output logic                  amem_req_valid_o,   // accelerator memory port: a request
  input  logic                  amem_req_ready_i,   // ... accepted
  output logic [31:0]           amem_req_addr_o,    // its address
  output logic                  amem_req_we_o,      // a store
  output logic [AccDataW/8-1:0] amem_req_wstrb_o,   // store byte enables
  output logic [AccDataW-1:0]   amem_req_wdata_o,   // store data
  input  logic                  amem_resp_valid_i,  // a response (in request order, stores too)
  input  logic [AccDataW-1:0]   amem_resp_data_i,   // load data beat
  input  logic                  amem_resp_err_i,    // access fault

  input  logic                  corrupt_en_i,       // fault injection (test of the difftest) armed
  input  logic [63:0]           corrupt_pc_i,       // ... at this PC

  output retire_t               retire_o,           // monitor: one retired instruction, in program order
  output trap_t                 trap_o,             // monitor: a trap taken
  output late_wb_t              late_wb_o,          // monitor: a register write by a coprocessor completion
  output core_perf_t            core_perf_o,        // core performance events of this cycle
  output vec_pkg::vec_perf_t    vec_perf_o,         // vector unit's events (zero without one)
  output gemmini_unit_pkg::gm_perf_t gm_perf_o,     // Gemmini unit's events (zero without one)
  output gemmini_unit_pkg::gm_illegal_e gm_illegal_reason_o,  // Gemmini: check of the last refusal
  output logic                  acc_progress_o      // accelerator did work this cycle (watchdog)
);

  logic     cop_req_valid, cop_req_ready, cop_illegal, cop_cmp_valid, cop_busy;
  cop_req_t cop_req;
  cop_cmp_t cop_cmp;
  cop_ack_t cop_ack;
  logic     acc_progress;

  cosim_core #(
    .XLEN       (XLEN),
    .DataW      (DataW),
    .VecPresent (Accel == 1),
    .CustomFenceOnly (Accel == 2),
    .VLEN       (VLEN),
    .MmioBase   (MmioBase),
    .MmioSize   (MmioSize),
    .Mem0Base   (Mem0Base),
    .Mem0Size   (Mem0Size),
    .Mem1Base   (Mem1Base),
    .Mem1Size   (Mem1Size),
    .Mem2Base   (Mem2Base),
    .Mem2Size   (Mem2Size)
  ) u_core (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .boot_addr_i       (boot_addr_i),
    .imem_req_valid_o  (imem_req_valid_o),
    .imem_req_ready_i  (imem_req_ready_i),
    .imem_req_addr_o   (imem_req_addr_o),
    .imem_resp_valid_i (imem_resp_valid_i),
    .imem_resp_data_i  (imem_resp_data_i),
    .imem_resp_err_i   (imem_resp_err_i),
    .dmem_req_valid_o  (dmem_req_valid_o),
    .dmem_req_ready_i  (dmem_req_ready_i),
    .dmem_req_addr_o   (dmem_req_addr_o),
    .dmem_req_we_o     (dmem_req_we_o),
    .dmem_req_wstrb_o  (dmem_req_wstrb_o),
    .dmem_req_wdata_o  (dmem_req_wdata_o),
    .dmem_resp_valid_i (dmem_resp_valid_i),
    .dmem_resp_data_i  (dmem_resp_data_i),
    .dmem_resp_err_i   (dmem_resp_err_i),
    .cop_req_valid_o   (cop_req_valid),
    .cop_req_ready_i   (cop_req_ready),
    .cop_req_o         (cop_req),
    .cop_illegal_i     (cop_illegal),
    .cop_ack_i         (cop_ack),
    .cop_cmp_valid_i   (cop_cmp_valid),
    .cop_cmp_i         (cop_cmp),
    .cop_busy_o        (cop_busy),
    .corrupt_en_i      (corrupt_en_i),
    .corrupt_pc_i      (corrupt_pc_i),
    .retire_o          (retire_o),
    .trap_o            (trap_o),
    .late_wb_o         (late_wb_o),
    .perf_o            (core_perf_o)
  );

  // Accelerator slot. A new unit adds a branch here with the same signals.
  if (Accel == 0) begin : g_noacc
    cosim_noacc u_acc (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .req_valid_i (cop_req_valid),
      .req_ready_o (cop_req_ready),
      .req_i       (cop_req),
      .illegal_o   (cop_illegal),
      .cmp_valid_o (cop_cmp_valid),
      .cmp_o       (cop_cmp),
      .progress_o  (acc_progress)
    );
    assign cop_ack          = '0;
    assign amem_req_valid_o = 1'b0;
    assign amem_req_addr_o  = '0;
    assign amem_req_we_o    = 1'b0;
    assign amem_req_wstrb_o = '0;
    assign amem_req_wdata_o = '0;
    assign vec_perf_o       = '0;
    assign gm_perf_o        = '0;
    assign gm_illegal_reason_o = gemmini_unit_pkg::IllNone;
    logic unused_amem;
    assign unused_amem = ^{amem_req_ready_i, amem_resp_valid_i, amem_resp_data_i, amem_resp_err_i,
                           cop_busy, DLEN[0]};
  end else if (Accel == 1) begin : g_vector
    // t1-style vector unit (sim/rtl/vector), own memory port amem_*.
    logic            vec_busy, vec_mem_pending, vec_lane_active;
    logic [DLEN-1:0] vec_dbg_rdata;
    vec_unit #(
      .VLEN (VLEN),
      .DLEN (DLEN),
      .MemW     (AccDataW),
      .Mem0Base (Mem0Base),
      .Mem0Size (Mem0Size),
      .Mem1Base (Mem1Base),
      .Mem1Size (Mem1Size),
      .Mem2Base (Mem2Base),
      .Mem2Size (Mem2Size)
    ) u_acc (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .cop_req_valid_i (cop_req_valid),
      .cop_req_ready_o (cop_req_ready),
      .cop_req_i       (cop_req),
      .cop_illegal_o   (cop_illegal),
      .cop_ack_o       (cop_ack),
      .cop_cmp_valid_o (cop_cmp_valid),
      .cop_cmp_o       (cop_cmp),
      .mem_req_valid_o (amem_req_valid_o),
      .mem_req_ready_i (amem_req_ready_i),
      .mem_req_addr_o  (amem_req_addr_o),
      .mem_req_we_o    (amem_req_we_o),
      .mem_req_be_o    (amem_req_wstrb_o),
      .mem_req_wdata_o (amem_req_wdata_o),
      .mem_rsp_valid_i (amem_resp_valid_i),
      .mem_rsp_rdata_i (amem_resp_data_i),
      .busy_o          (vec_busy),
      .mem_pending_o   (vec_mem_pending),
      .lane_active_o   (vec_lane_active),
      .perf_o          (vec_perf_o),
      .dbg_we_i        (1'b0),
      .dbg_addr_i      ('0),
      .dbg_wdata_i     ('0),
      .dbg_rdata_o     (vec_dbg_rdata)
    );
    assign gm_perf_o           = '0;
    assign gm_illegal_reason_o = gemmini_unit_pkg::IllNone;
    // progress (watchdog): lanes busy, a memory beat, or a completion this cycle
    assign acc_progress = vec_lane_active || (amem_req_valid_o && amem_req_ready_i) || amem_resp_valid_i
                          || cop_cmp_valid;
    logic unused_vec;
    assign unused_vec = ^{vec_busy, vec_mem_pending, vec_dbg_rdata, amem_resp_err_i, cop_busy};
  end else if (Accel == 2) begin : g_gemmini
    // Gemmini-style systolic array (sim/rtl/gemmini), DMA on amem_*. Its
    // difftest trace outputs stay inside this scope (u_soc.g_gemmini.trace_*)
    // for whoever reads them through the hierarchy.
    localparam int unsigned SpRowW  = $clog2(SpRows);
    localparam int unsigned AccRowW = $clog2(AccRows);
    localparam int unsigned LenW    = $clog2(DmaMaxBytes + 1);
    logic                                   gm_busy;
    logic [SpBanks-1:0]                     trace_sp_valid;
    logic [SpBanks-1:0][SpRowW-1:0]         trace_sp_row;
    logic [SpBanks-1:0][Dim-1:0]            trace_sp_mask;
    logic [SpBanks-1:0][Dim*8-1:0]          trace_sp_data;
    logic [SpBanks-1:0][gemmini_pkg::IdW-1:0] trace_sp_id;
    logic [SpBanks-1:0][SeqW-1:0]           trace_sp_seq;
    logic [AccBanks-1:0]                    trace_acc_valid;
    logic [AccBanks-1:0][AccRowW-1:0]       trace_acc_row;
    logic [AccBanks-1:0][Dim-1:0]           trace_acc_mask;
    logic [AccBanks-1:0][Dim*32-1:0]        trace_acc_data;
    logic [AccBanks-1:0]                    trace_acc_accumulate;
    logic [AccBanks-1:0][gemmini_pkg::IdW-1:0] trace_acc_id;
    logic [AccBanks-1:0][SeqW-1:0]          trace_acc_seq;
    logic                                   trace_wr_valid;
    logic [31:0]                            trace_wr_addr;
    logic [LenW-1:0]                        trace_wr_len;
    logic [DmaMaxBytes*8-1:0]               trace_wr_data;
    logic [gemmini_pkg::IdW-1:0]            trace_wr_id;
    logic [SeqW-1:0]                        trace_wr_seq;
    gemmini_unit_pkg::gm_trace_id_t         trace_id;

    gemmini_unit #(
      .Dim            (Dim),
      .SpRows         (SpRows),
      .AccRows        (AccRows),
      .SpBanks        (SpBanks),
      .AccBanks       (AccBanks),
      .DmaBytes       (DmaBytes),
      .DmaMaxBytes    (DmaMaxBytes),
      .MaxBlockLen    (MaxBlockLen),
      .MaxBlockLenAcc (MaxBlockLenAcc),
      .HasWs          (HasWs),
      .HasOs          (HasOs),
      .MemW           (AccDataW),
      .MemOutstanding (MemOutstanding),
      .Mem0Base       (Mem0Base),
      .Mem0Size       (Mem0Size),
      .Mem1Base       (Mem1Base),
      .Mem1Size       (Mem1Size),
      .Mem2Base       (Mem2Base),
      .Mem2Size       (Mem2Size)
    ) u_acc (
      .clk_i                  (clk_i),
      .rst_ni                 (rst_ni),
      .cop_req_valid_i        (cop_req_valid),
      .cop_req_ready_o        (cop_req_ready),
      .cop_req_i              (cop_req),
      .cop_illegal_o          (cop_illegal),
      .cop_ack_o              (cop_ack),
      .cop_cmp_valid_o        (cop_cmp_valid),
      .cop_cmp_o              (cop_cmp),
      .mem_req_valid_o        (amem_req_valid_o),
      .mem_req_ready_i        (amem_req_ready_i),
      .mem_req_addr_o         (amem_req_addr_o),
      .mem_req_we_o           (amem_req_we_o),
      .mem_req_be_o           (amem_req_wstrb_o),
      .mem_req_wdata_o        (amem_req_wdata_o),
      .mem_rsp_valid_i        (amem_resp_valid_i),
      .mem_rsp_rdata_i        (amem_resp_data_i),
      .mem_rsp_err_i          (amem_resp_err_i),
      .busy_o                 (gm_busy),
      .progress_o             (acc_progress),
      .illegal_reason_o       (gm_illegal_reason_o),
      .perf_o                 (gm_perf_o),
      .trace_sp_valid_o       (trace_sp_valid),
      .trace_sp_row_o         (trace_sp_row),
      .trace_sp_mask_o        (trace_sp_mask),
      .trace_sp_data_o        (trace_sp_data),
      .trace_sp_id_o          (trace_sp_id),
      .trace_sp_seq_o         (trace_sp_seq),
      .trace_acc_valid_o      (trace_acc_valid),
      .trace_acc_row_o        (trace_acc_row),
      .trace_acc_mask_o       (trace_acc_mask),
      .trace_acc_data_o       (trace_acc_data),
      .trace_acc_accumulate_o (trace_acc_accumulate),
      .trace_acc_id_o         (trace_acc_id),
      .trace_acc_seq_o        (trace_acc_seq),
      .trace_wr_valid_o       (trace_wr_valid),
      .trace_wr_addr_o        (trace_wr_addr),
      .trace_wr_len_o         (trace_wr_len),
      .trace_wr_data_o        (trace_wr_data),
      .trace_wr_id_o          (trace_wr_id),
      .trace_wr_seq_o         (trace_wr_seq),
      .trace_id_o             (trace_id)
    );
    assign vec_perf_o = '0;
    logic unused_gm;
    assign unused_gm = ^{gm_busy, cop_busy, DLEN[0], VLEN[0], trace_sp_valid, trace_sp_row, trace_sp_mask,
                         trace_sp_data, trace_sp_id, trace_sp_seq, trace_acc_valid, trace_acc_row,
                         trace_acc_mask, trace_acc_data, trace_acc_accumulate, trace_acc_id, trace_acc_seq,
                         trace_wr_valid, trace_wr_addr, trace_wr_len, trace_wr_data, trace_wr_id,
                         trace_wr_seq, trace_id};
  end else begin : g_unsupported
    // Elaboration error: the requested unit is not in this RTL.
    $error("cosim_soc: Accel=%0d has no unit in sim/rtl (0 = none, 1 = vector, 2 = gemmini)", Accel);
    assign vec_perf_o          = '0;
    assign gm_perf_o           = '0;
    assign gm_illegal_reason_o = gemmini_unit_pkg::IllNone;
    assign cop_ack             = '0;
  end

  // The Gemmini parameters mean nothing to the other units.
  if (Accel != 2) begin : g_no_gemmini
    logic unused_gm_params;
    assign unused_gm_params = ^{MemOutstanding[0], Dim[0], SpRows[0], AccRows[0], SpBanks[0], AccBanks[0],
                                DmaBytes[0], DmaMaxBytes[0], MaxBlockLen[0], MaxBlockLenAcc[0], HasWs, HasOs};
  end

  assign acc_progress_o = acc_progress;

endmodule
