// Gemmini unit, top level (UNIT.md beside this file): the coprocessor port of
// the RV64 core on one side, the SoC's accelerator memory port on the other.
//
// Inside: decode and legality at the issue handshake (a shadow copy of the
// config state the model's checks read), a ROB that gives every command an id
// and holds a command back from its controller while an older one conflicts
// with it, the load / execute / store controllers, the loop_ws unroller, the
// DMA, the scratchpad and accumulator with their per-bank arbitration, the
// completions to the core, the counter instruction and the difftest trace.
//
// Ports beyond the coprocessor and memory ports:
//   busy_o            a command is accepted and not done, or the DMA has a beat in flight
//   progress_o        the unit did work this cycle (the SoC's watchdog)
//   illegal_reason_o  the check that refused the last refused instruction (gm_illegal_e)
//   perf_o            events of this cycle (gemmini_unit_pkg::gm_perf_t)
//   trace_sp_*        scratchpad row writes as the banks take them (one per bank a cycle)
//   trace_acc_*       accumulator row writes; data is the row after the write (two
//                     cycles after the bank took it: its read-modify-write)
//   trace_wr_*        the DMA's write requests (main memory), in order
//   trace_id_o        an id allocation: id -> the core instruction (seq) it belongs to;
//                     every trace record also carries that seq directly (*_seq_o)
module gemmini_unit
  import cosim_pkg::*;
  import gemmini_pkg::*;
  import gemmini_unit_pkg::*;
#(
  parameter int unsigned Dim            = 4,
  parameter int unsigned SpRows         = 1024,   // scratchpad rows (SpBanks banks)
  parameter int unsigned AccRows        = 256,    // accumulator rows (AccBanks banks)
  parameter int unsigned SpBanks        = 4,
  parameter int unsigned AccBanks       = 2,
  parameter int unsigned DmaBytes       = 8,      // bytes a memory beat
  parameter int unsigned DmaMaxBytes    = 64,     // largest DMA request
  parameter int unsigned MaxBlockLen    = 16,     // DmaMaxBytes / Dim (at least 1)
  parameter int unsigned MaxBlockLenAcc = 4,      // DmaMaxBytes / (4 Dim) (at least 1)
  parameter bit          HasWs          = 1'b1,
  parameter bit          HasOs          = 1'b1,
  parameter int unsigned MemW           = 64,     // amem port width: max(64, 8 DmaBytes)
  parameter int unsigned MemOutstanding = 8,      // beats in flight on the memory port
  // Memory regions (config memory_map): a DMA range outside them traps
  parameter logic [31:0] Mem0Base       = 32'h2000_0000,
  parameter logic [32:0] Mem0Size       = 33'h0_2000_0000,
  parameter logic [31:0] Mem1Base       = 32'h4000_0000,
  parameter logic [32:0] Mem1Size       = 33'h0_8000_0000,
  parameter logic [31:0] Mem2Base       = 32'hC000_0000,
  parameter logic [32:0] Mem2Size       = 33'h0_0100_0000,
  localparam int unsigned MB            = MemW / 8,
  localparam int unsigned SpRowW        = $clog2(SpRows),
  localparam int unsigned AccRowW       = $clog2(AccRows),
  localparam int unsigned LenW          = $clog2(DmaMaxBytes + 1)
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  // coprocessor issue
  input  logic                                cop_req_valid_i,
  output logic                                cop_req_ready_o,
  input  cop_req_t                            cop_req_i,
  output logic                                cop_illegal_o,
  output cop_ack_t                            cop_ack_o,       // always zero (no partial execution)
  // coprocessor completion
  output logic                                cop_cmp_valid_o,
  output cop_cmp_t                            cop_cmp_o,
  // memory port (the SoC's amem port)
  output logic                                mem_req_valid_o,
  input  logic                                mem_req_ready_i,
  output logic [31:0]                         mem_req_addr_o,
  output logic                                mem_req_we_o,
  output logic [MB-1:0]                       mem_req_be_o,
  output logic [MemW-1:0]                     mem_req_wdata_o,
  input  logic                                mem_rsp_valid_i,
  input  logic [MemW-1:0]                     mem_rsp_rdata_i,
  input  logic                                mem_rsp_err_i,
  // status
  output logic                                busy_o,
  output logic                                progress_o,
  output gm_illegal_e                         illegal_reason_o,
  output gm_perf_t                            perf_o,
  // difftest trace: scratchpad row writes
  output logic [SpBanks-1:0]                  trace_sp_valid_o,
  output logic [SpBanks-1:0][SpRowW-1:0]      trace_sp_row_o,
  output logic [SpBanks-1:0][Dim-1:0]         trace_sp_mask_o,
  output logic [SpBanks-1:0][Dim*8-1:0]       trace_sp_data_o,
  output logic [SpBanks-1:0][IdW-1:0]         trace_sp_id_o,
  output logic [SpBanks-1:0][SeqW-1:0]        trace_sp_seq_o,
  // accumulator row writes (data: the row after the write)
  output logic [AccBanks-1:0]                 trace_acc_valid_o,
  output logic [AccBanks-1:0][AccRowW-1:0]    trace_acc_row_o,
  output logic [AccBanks-1:0][Dim-1:0]        trace_acc_mask_o,
  output logic [AccBanks-1:0][Dim*32-1:0]     trace_acc_data_o,
  output logic [AccBanks-1:0]                 trace_acc_accumulate_o,
  output logic [AccBanks-1:0][IdW-1:0]        trace_acc_id_o,
  output logic [AccBanks-1:0][SeqW-1:0]       trace_acc_seq_o,
  // main-memory writes (the DMA's write requests)
  output logic                                trace_wr_valid_o,
  output logic [31:0]                         trace_wr_addr_o,
  output logic [LenW-1:0]                     trace_wr_len_o,
  output logic [DmaMaxBytes*8-1:0]            trace_wr_data_o,
  output logic [IdW-1:0]                      trace_wr_id_o,
  output logic [SeqW-1:0]                     trace_wr_seq_o,
  // id allocations
  output gm_trace_id_t                        trace_id_o
);

  // First cut: refuse every instruction (the SoC attach can wire the ports).
  assign cop_req_ready_o  = 1'b1;
  assign cop_illegal_o    = 1'b1;
  assign cop_ack_o        = '0;
  assign cop_cmp_valid_o  = 1'b0;
  assign cop_cmp_o        = '0;
  assign mem_req_valid_o  = 1'b0;
  assign mem_req_addr_o   = '0;
  assign mem_req_we_o     = 1'b0;
  assign mem_req_be_o     = '0;
  assign mem_req_wdata_o  = '0;
  assign busy_o           = 1'b0;
  assign progress_o       = 1'b0;
  assign illegal_reason_o = IllFunct;
  assign perf_o           = '0;
  assign trace_sp_valid_o = '0;
  assign trace_sp_row_o   = '0;
  assign trace_sp_mask_o  = '0;
  assign trace_sp_data_o  = '0;
  assign trace_sp_id_o    = '0;
  assign trace_sp_seq_o   = '0;
  assign trace_acc_valid_o      = '0;
  assign trace_acc_row_o        = '0;
  assign trace_acc_mask_o       = '0;
  assign trace_acc_data_o       = '0;
  assign trace_acc_accumulate_o = '0;
  assign trace_acc_id_o         = '0;
  assign trace_acc_seq_o        = '0;
  assign trace_wr_valid_o = 1'b0;
  assign trace_wr_addr_o  = '0;
  assign trace_wr_len_o   = '0;
  assign trace_wr_data_o  = '0;
  assign trace_wr_id_o    = '0;
  assign trace_wr_seq_o   = '0;
  assign trace_id_o       = '0;

  logic unused;
  assign unused = ^{clk_i, rst_ni, cop_req_valid_i, cop_req_i, mem_req_ready_i, mem_rsp_valid_i,
                    mem_rsp_rdata_i, mem_rsp_err_i};

endmodule
