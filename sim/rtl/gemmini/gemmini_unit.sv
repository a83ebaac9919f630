// Gemmini unit, top level (UNIT.md beside this file): the coprocessor port of
// the RV64 core on one side, the SoC's accelerator memory port on the other.
//
// This module wires the stages:
//   gemmini_unit_issue     legality at the issue handshake (gemmini_unit_decode,
//                          a shadow copy of the config state the model's checks
//                          read), the instruction buffer and table, completions
//   gemmini_unit_alloc     program-order allocation into the ROB: inserted drains,
//                          the loop_ws unroller, the commands' read / write sets
//   gemmini_unit_rob       ids, and holding a command back from its controller
//                          while an older one conflicts with it
//   gemmini_load / _exec / _store, gemmini_dma   the controllers and the DMA
//   gemmini_unit_arb, gemmini_spad / _acc        the memories behind their
//                          per-bank arbiters
//   gemmini_unit_counters  the counter instruction
//   gemmini_unit_trace     the difftest trace: every write with its core instruction
//
// About 610 lines, past the ~600-line guide on purpose: nearly half are the
// port maps of the stages above, and what logic is left here joins two of them
// (busy and progress, the performance events, the one-completion assertion over
// the ROB and the controllers) and reads best next to the wires it joins.
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
  input  logic                             clk_i,                  // in: clock
  input  logic                             rst_ni,                 // in: asynchronous reset, active low
  // coprocessor issue
  input  logic                             cop_req_valid_i,        // in: the core offers an instruction
  output logic                             cop_req_ready_o,        // out: ... the unit takes it
  input  cop_req_t                         cop_req_i,              // in: the instruction and its operands
  output logic                             cop_illegal_o,          // out: ... it is refused
  output cop_ack_t                         cop_ack_o,              // out: always zero (no partial execution)
  // coprocessor completion
  output logic                             cop_cmp_valid_o,        // out: an instruction completes (program order)
  output cop_cmp_t                         cop_cmp_o,              // out: ... its seq and rd write
  // memory port (the SoC's amem port)
  output logic                             mem_req_valid_o,        // out: a memory beat
  input  logic                             mem_req_ready_i,        // in: ... the memory takes it
  output logic [31:0]                      mem_req_addr_o,         // out: ... its address
  output logic                             mem_req_we_o,           // out: ... a write
  output logic [MB-1:0]                    mem_req_be_o,           // out: ... its byte enables
  output logic [MemW-1:0]                  mem_req_wdata_o,        // out: ... its write data
  input  logic                             mem_rsp_valid_i,        // in: a read beat's answer (in order)
  input  logic [MemW-1:0]                  mem_rsp_rdata_i,        // in: ... its data
  input  logic                             mem_rsp_err_i,          // in: ... an access fault
  // status
  output logic                             busy_o,                 // out: a command is accepted and not done
  output logic                             progress_o,             // out: the unit did work (the SoC's watchdog)
  output gm_illegal_e                      illegal_reason_o,       // out: the check that refused the last refused one
  output gm_perf_t                         perf_o,                 // out: events of this cycle
  // difftest trace: scratchpad row writes as the banks take them (one per bank a cycle)
  output logic [SpBanks-1:0]               trace_sp_valid_o,       // out: bank b writes ...
  output logic [SpBanks-1:0][SpRowW-1:0]   trace_sp_row_o,         // out: ... this global row
  output logic [SpBanks-1:0][Dim-1:0]      trace_sp_mask_o,        // out: ... these elements
  output logic [SpBanks-1:0][Dim*8-1:0]    trace_sp_data_o,        // out: ... these values
  output logic [SpBanks-1:0][IdW-1:0]      trace_sp_id_o,          // out: ... for this command
  output logic [SpBanks-1:0][SeqW-1:0]     trace_sp_seq_o,         // out: ... of this core instruction
  // accumulator row writes, the cycle after the bank took them, with the row after the write
  output logic [AccBanks-1:0]              trace_acc_valid_o,      // out: bank b wrote ...
  output logic [AccBanks-1:0][AccRowW-1:0] trace_acc_row_o,        // out: ... this global row
  output logic [AccBanks-1:0][Dim-1:0]     trace_acc_mask_o,       // out: ... these elements
  output logic [AccBanks-1:0][Dim*32-1:0]  trace_acc_data_o,       // out: ... the row after the write
  output logic [AccBanks-1:0]              trace_acc_accumulate_o, // out: ... accumulating
  output logic [AccBanks-1:0][IdW-1:0]     trace_acc_id_o,         // out: ... for this command
  output logic [AccBanks-1:0][SeqW-1:0]    trace_acc_seq_o,        // out: ... of this core instruction
  // main-memory writes (the DMA's write requests, in order)
  output logic                             trace_wr_valid_o,       // out: a write request ...
  output logic [31:0]                      trace_wr_addr_o,        // out: ... at this address
  output logic [LenW-1:0]                  trace_wr_len_o,         // out: ... of this many bytes
  output logic [DmaMaxBytes*8-1:0]         trace_wr_data_o,        // out: ... these bytes
  output logic [IdW-1:0]                   trace_wr_id_o,          // out: ... for this command
  output logic [SeqW-1:0]                  trace_wr_seq_o,         // out: ... of this core instruction
  // id allocations: from now on writes carrying the id belong to the core instruction
  output gm_trace_id_t                     trace_id_o              // out: the allocation
);

  localparam int unsigned Tags     = 16;          // core instructions in flight (the core allows 16)
  localparam int unsigned TagW     = $clog2(Tags);
  localparam int unsigned RobDepth = 64;
  localparam int unsigned SpBankRows  = SpRows / SpBanks;
  localparam int unsigned AccBankRows = AccRows / AccBanks;
  localparam int unsigned SpAW     = SpBankRows > 1 ? $clog2(SpBankRows) : 1;
  localparam int unsigned AccAW    = AccBankRows > 1 ? $clog2(AccBankRows) : 1;

  // ---------------------------------------------------------------------------
  // Issue (legality, the instruction buffer and table) and allocation (drains,
  // the loop unroller, the commands' read / write sets)
  // ---------------------------------------------------------------------------
  logic            req_fire, buf_valid, buf_pop, table_busy, table_complete, table_close, counter_fire;
  logic [6:0]      buf_funct;
  logic [63:0]     buf_rs1, buf_rs2, counter_value;
  logic [TagW-1:0] buf_tag, table_close_tag, src_tag;
  logic [SeqW-1:0] src_seq;
  logic [Tags-1:0] tag_busy;

  gemmini_unit_issue #(
    .Dim(Dim), .SpRows(SpRows), .AccRows(AccRows), .MaxBlockLen(MaxBlockLen), .MaxBlockLenAcc(MaxBlockLenAcc),
    .HasWs(HasWs), .HasOs(HasOs), .Mem0Base(Mem0Base), .Mem0Size(Mem0Size), .Mem1Base(Mem1Base),
    .Mem1Size(Mem1Size), .Mem2Base(Mem2Base), .Mem2Size(Mem2Size), .Tags(Tags)
  ) u_issue (
    .clk_i, .rst_ni,
    .cop_req_valid_i, .cop_req_ready_o, .cop_req_i, .cop_illegal_o,
    .req_fire_o       (req_fire),
    .illegal_reason_o,
    .buf_valid_o      (buf_valid),
    .buf_funct_o      (buf_funct),
    .buf_rs1_o        (buf_rs1),
    .buf_rs2_o        (buf_rs2),
    .buf_tag_o        (buf_tag),
    .buf_pop_i        (buf_pop),
    .close_i          (table_close),
    .close_tag_i      (table_close_tag),
    .wdata_valid_i    (counter_fire),
    .wdata_i          (counter_value),
    .tag_busy_i       (tag_busy),
    .seq_tag_i        (src_tag),
    .seq_o            (src_seq),
    .table_busy_o     (table_busy),
    .cop_cmp_valid_o  (table_complete),
    .cop_cmp_o
  );
  assign cop_cmp_valid_o = table_complete;
  assign cop_ack_o       = '0;

  logic            rob_alloc_valid, rob_alloc_ready, rob_alloc, arm_valid, loop, loop_busy;
  gm_ctl_e         rob_alloc_ctl;
  logic [6:0]      rob_alloc_funct;
  logic [63:0]     rob_alloc_rs1, rob_alloc_rs2;
  gm_sets_t        rob_sets;
  logic [IdW-1:0]  rob_alloc_id, arm_id;

  gemmini_unit_alloc #(
    .Dim(Dim), .SpRows(SpRows), .AccRows(AccRows), .MaxBlockLen(MaxBlockLen), .MaxBlockLenAcc(MaxBlockLenAcc),
    .TagW(TagW)
  ) u_alloc (
    .clk_i, .rst_ni,
    .buf_valid_i   (buf_valid),
    .buf_funct_i   (buf_funct),
    .buf_rs1_i     (buf_rs1),
    .buf_rs2_i     (buf_rs2),
    .buf_tag_i     (buf_tag),
    .buf_pop_o     (buf_pop),
    .close_o       (table_close),
    .close_tag_o   (table_close_tag),
    .counter_o     (counter_fire),
    .alloc_valid_o (rob_alloc_valid),
    .alloc_ready_i (rob_alloc_ready),
    .alloc_ctl_o   (rob_alloc_ctl),
    .alloc_funct_o (rob_alloc_funct),
    .alloc_rs1_o   (rob_alloc_rs1),
    .alloc_rs2_o   (rob_alloc_rs2),
    .alloc_sets_o  (rob_sets),
    .alloc_tag_o   (src_tag),
    .alloc_id_i    (rob_alloc_id),
    .arm_valid_o   (arm_valid),
    .arm_id_o      (arm_id),
    .loop_o        (loop),
    .loop_busy_o   (loop_busy)
  );
  assign rob_alloc = rob_alloc_valid && rob_alloc_ready;

  // ---------------------------------------------------------------------------
  // ROB
  // ---------------------------------------------------------------------------
  logic [2:0]           q_valid, q_ready, done_valid, stall_hazard;
  gm_cmd_t [2:0]        q_cmd;
  logic [2:0][IdW-1:0]  done_id;
  logic                 rob_empty, rob_active;

  gemmini_unit_rob #(.Depth(RobDepth), .Tags(Tags)) u_rob (
    .clk_i, .rst_ni,
    .alloc_valid_i  (rob_alloc_valid),
    .alloc_ready_o  (rob_alloc_ready),
    .alloc_ctl_i    (rob_alloc_ctl),
    .alloc_funct_i  (rob_alloc_funct),
    .alloc_rs1_i    (rob_alloc_rs1),
    .alloc_rs2_i    (rob_alloc_rs2),
    .alloc_sets_i   (rob_sets),
    .alloc_tag_i    (src_tag),
    .alloc_nowait_i (rob_alloc_funct == 7'd6),
    .alloc_preload_i(rob_alloc_funct == 7'd6),
    .arm_valid_i    (arm_valid),
    .arm_id_i       (arm_id),
    .alloc_id_o     (rob_alloc_id),
    .q_valid_o      (q_valid),
    .q_ready_i      (q_ready),
    .q_cmd_o        (q_cmd),
    .done_valid_i   (done_valid),
    .done_id_i      (done_id),
    .tag_busy_o     (tag_busy),
    .empty_o        (rob_empty),
    .active_o       (rob_active),
    .stall_hazard_o (stall_hazard)
  );

  // ---------------------------------------------------------------------------
  // Controllers
  // ---------------------------------------------------------------------------
  // scratchpad / accumulator requests (arbiter index: writers 0 load, 1 exec;
  // readers 0 exec, 1 store, and on the scratchpad 2 exec's second fetch lane)
  logic [1:0]              sp_wv, sp_wr, acc_wv, acc_wr, acc_rv, acc_rr;
  logic [2:0]              sp_rv, sp_rr;
  logic [1:0][SpRowW-1:0]  sp_wrow;
  logic [2:0][SpRowW-1:0]  sp_rrow;
  logic [1:0][AccRowW-1:0] acc_wrow, acc_rrow;
  logic [1:0][Dim-1:0]     sp_wmask, acc_wmask;
  logic [1:0][Dim*8-1:0]   sp_wdata;
  logic [2:0][Dim*8-1:0]   sp_rdata;
  logic [1:0][Dim*32-1:0]  acc_wdata, acc_rdata;
  logic [1:0]              acc_wacc;
  logic [1:0][IdW-1:0]     sp_wid, acc_wid;

  // DMA sides
  logic                     dr_req_valid, dr_req_ready, dr_resp_valid, dr_resp_ready, dr_resp_err;
  logic [31:0]              dr_req_addr;
  logic [LenW-1:0]          dr_req_len;
  logic [7:0]               dr_req_tag, dr_resp_tag;
  logic [DmaMaxBytes*8-1:0] dr_resp_data;
  logic                     dw_req_valid, dw_req_ready, dw_done;
  logic [31:0]              dw_req_addr;
  logic [LenW-1:0]          dw_req_len;
  logic [DmaMaxBytes*8-1:0] dw_req_data;
  logic [IdW-1:0]           dw_req_id;

  logic            ld_busy, ld_stall_mem, ld_rd_err;
  logic [LenW-1:0] ld_rd_bytes;
  logic            st_busy, st_stall_mem;
  logic [63:0]     st_bytes;
  logic [31:0]     ex_macs;
  logic            ex_busy, ex_mesh_busy, ex_stall_mem, ex_stall_operand;

  gemmini_load #(
    .Dim(Dim), .SpRows(SpRows), .AccRows(AccRows), .DmaMaxBytes(DmaMaxBytes), .MaxBlockLen(MaxBlockLen),
    .MaxBlockLenAcc(MaxBlockLenAcc), .SpBanks(SpBanks), .AccBanks(AccBanks), .DmaBytes(DmaBytes),
    .HasWs(HasWs), .HasOs(HasOs)
  ) u_load (
    .clk_i, .rst_ni,
    .cmd_valid_i         (q_valid[0]),
    .cmd_ready_o         (q_ready[0]),
    .cmd_i               (q_cmd[0]),
    .done_valid_o        (done_valid[0]),
    .done_id_o           (done_id[0]),
    .sp_wr_valid_o       (sp_wv[0]),
    .sp_wr_ready_i       (sp_wr[0]),
    .sp_wr_row_o         (sp_wrow[0]),
    .sp_wr_mask_o        (sp_wmask[0]),
    .sp_wr_data_o        (sp_wdata[0]),
    .sp_wr_id_o          (sp_wid[0]),
    .acc_wr_valid_o      (acc_wv[0]),
    .acc_wr_ready_i      (acc_wr[0]),
    .acc_wr_row_o        (acc_wrow[0]),
    .acc_wr_mask_o       (acc_wmask[0]),
    .acc_wr_data_o       (acc_wdata[0]),
    .acc_wr_accumulate_o (acc_wacc[0]),
    .acc_wr_id_o         (acc_wid[0]),
    .rd_req_valid_o      (dr_req_valid),
    .rd_req_ready_i      (dr_req_ready),
    .rd_req_addr_o       (dr_req_addr),
    .rd_req_len_o        (dr_req_len),
    .rd_req_tag_o        (dr_req_tag),
    .rd_resp_valid_i     (dr_resp_valid),
    .rd_resp_ready_o     (dr_resp_ready),
    .rd_resp_tag_i       (dr_resp_tag),
    .rd_resp_data_i      (dr_resp_data),
    .rd_resp_err_i       (dr_resp_err),
    .busy_o              (ld_busy),
    .rd_bytes_o          (ld_rd_bytes),
    .stall_mem_o         (ld_stall_mem),
    .rd_err_o            (ld_rd_err)
  );

  gemmini_exec #(.Dim(Dim), .SpRows(SpRows), .AccRows(AccRows), .HasWs(HasWs)) u_exec (
    .clk_i, .rst_ni,
    .cmd_valid_i          (q_valid[1]),
    .cmd_ready_o          (q_ready[1]),
    .cmd_i                (q_cmd[1]),
    .done_valid_o         (done_valid[1]),
    .done_id_o            (done_id[1]),
    .sp_rd_valid_o        (sp_rv[0]),
    .sp_rd_ready_i        (sp_rr[0]),
    .sp_rd_row_o          (sp_rrow[0]),
    .sp_rd_data_i         (sp_rdata[0]),
    .sp_rd1_valid_o       (sp_rv[2]),
    .sp_rd1_ready_i       (sp_rr[2]),
    .sp_rd1_row_o         (sp_rrow[2]),
    .sp_rd1_data_i        (sp_rdata[2]),
    .acc_rd_valid_o       (acc_rv[0]),
    .acc_rd_ready_i       (acc_rr[0]),
    .acc_rd_row_o         (acc_rrow[0]),
    .acc_rd_data_i        (acc_rdata[0]),
    .sp_wr_valid_o        (sp_wv[1]),
    .sp_wr_ready_i        (sp_wr[1]),
    .sp_wr_row_o          (sp_wrow[1]),
    .sp_wr_mask_o         (sp_wmask[1]),
    .sp_wr_data_o         (sp_wdata[1]),
    .sp_wr_id_o           (sp_wid[1]),
    .acc_wr_valid_o       (acc_wv[1]),
    .acc_wr_ready_i       (acc_wr[1]),
    .acc_wr_row_o         (acc_wrow[1]),
    .acc_wr_mask_o        (acc_wmask[1]),
    .acc_wr_data_o        (acc_wdata[1]),
    .acc_wr_accumulate_o  (acc_wacc[1]),
    .acc_wr_id_o          (acc_wid[1]),
    .perf_macs_o          (ex_macs),
    .perf_busy_o          (ex_busy),
    .perf_mesh_busy_o     (ex_mesh_busy),
    .perf_stall_mem_o     (ex_stall_mem),
    .perf_stall_operand_o (ex_stall_operand)
  );

  gemmini_store #(
    .Dim(Dim), .SpRows(SpRows), .AccRows(AccRows), .SpBanks(SpBanks), .AccBanks(AccBanks), .DmaBytes(DmaBytes),
    .MaxBlockLen(MaxBlockLen), .MaxBlockLenAcc(MaxBlockLenAcc), .HasWs(HasWs), .HasOs(HasOs),
    .DmaMaxBytes(DmaMaxBytes)
  ) u_store (
    .clk_i, .rst_ni,
    .cmd_valid_i     (q_valid[2]),
    .cmd_ready_o     (q_ready[2]),
    .cmd_i           (q_cmd[2]),
    .done_valid_o    (done_valid[2]),
    .done_id_o       (done_id[2]),
    .sp_rd_valid_o   (sp_rv[1]),
    .sp_rd_ready_i   (sp_rr[1]),
    .sp_rd_row_o     (sp_rrow[1]),
    .sp_rd_data_i    (sp_rdata[1]),
    .acc_rd_valid_o  (acc_rv[1]),
    .acc_rd_ready_i  (acc_rr[1]),
    .acc_rd_row_o    (acc_rrow[1]),
    .acc_rd_data_i   (acc_rdata[1]),
    .wr_req_valid_o  (dw_req_valid),
    .wr_req_ready_i  (dw_req_ready),
    .wr_req_addr_o   (dw_req_addr),
    .wr_req_len_o    (dw_req_len),
    .wr_req_data_o   (dw_req_data),
    .wr_req_id_o     (dw_req_id),
    .wr_done_i       (dw_done),
    .busy_o          (st_busy),
    .bytes_written_o (st_bytes),
    .stall_mem_o     (st_stall_mem)
  );

  // ---------------------------------------------------------------------------
  // DMA
  // ---------------------------------------------------------------------------
  logic [IdW-1:0] tr_wr_id;
  gemmini_dma #(
    .DmaBytes(DmaBytes), .DmaMaxBytes(DmaMaxBytes), .Outstanding(MemOutstanding)
  ) u_dma (
    .clk_i, .rst_ni,
    .rd_req_valid_i   (dr_req_valid),
    .rd_req_ready_o   (dr_req_ready),
    .rd_req_addr_i    (dr_req_addr),
    .rd_req_len_i     (dr_req_len),
    .rd_req_tag_i     (dr_req_tag),
    .rd_resp_valid_o  (dr_resp_valid),
    .rd_resp_ready_i  (dr_resp_ready),
    .rd_resp_tag_o    (dr_resp_tag),
    .rd_resp_data_o   (dr_resp_data),
    .rd_resp_err_o    (dr_resp_err),
    .wr_req_valid_i   (dw_req_valid),
    .wr_req_ready_o   (dw_req_ready),
    .wr_req_addr_i    (dw_req_addr),
    .wr_req_len_i     (dw_req_len),
    .wr_req_data_i    (dw_req_data),
    .wr_req_id_i      (dw_req_id),
    .wr_done_o        (dw_done),
    .mem_req_valid_o  (mem_req_valid_o),
    .mem_req_ready_i  (mem_req_ready_i),
    .mem_req_addr_o   (mem_req_addr_o),
    .mem_req_we_o     (mem_req_we_o),
    .mem_req_be_o     (mem_req_be_o),
    .mem_req_wdata_o  (mem_req_wdata_o),
    .mem_rsp_valid_i  (mem_rsp_valid_i),
    .mem_rsp_rdata_i  (mem_rsp_rdata_i),
    .mem_rsp_err_i    (mem_rsp_err_i),
    .trace_wr_valid_o (trace_wr_valid_o),
    .trace_wr_addr_o  (trace_wr_addr_o),
    .trace_wr_len_o   (trace_wr_len_o),
    .trace_wr_data_o  (trace_wr_data_o),
    .trace_wr_id_o    (tr_wr_id)
  );
  assign trace_wr_id_o = tr_wr_id;

  // ---------------------------------------------------------------------------
  // Scratchpad and accumulator behind their bank arbiters
  // ---------------------------------------------------------------------------
  logic [SpBanks-1:0]              spm_wen, spm_wacc_unused, spm_ren;
  logic [SpBanks-1:0][SpAW-1:0]    spm_waddr, spm_raddr;
  logic [SpBanks-1:0][Dim-1:0]     spm_wmask;
  logic [SpBanks-1:0][Dim*8-1:0]   spm_wdata, spm_rdata;
  logic [SpBanks-1:0][IdW-1:0]     spm_wid;

  gemmini_unit_arb #(.Dim(Dim), .Banks(SpBanks), .BankRows(SpBankRows), .RowW(Dim * 8), .Rd(3)) u_sp_arb (
    .clk_i, .rst_ni,
    .wr_valid_i  (sp_wv),
    .wr_ready_o  (sp_wr),
    .wr_row_i    (sp_wrow),
    .wr_mask_i   (sp_wmask),
    .wr_data_i   (sp_wdata),
    .wr_acc_i    (2'b00),
    .wr_id_i     (sp_wid),
    .rd_valid_i  (sp_rv),
    .rd_ready_o  (sp_rr),
    .rd_row_i    (sp_rrow),
    .rd_data_o   (sp_rdata),
    .m_wr_en_o   (spm_wen),
    .m_wr_acc_o  (spm_wacc_unused),
    .m_wr_addr_o (spm_waddr),
    .m_wr_mask_o (spm_wmask),
    .m_wr_data_o (spm_wdata),
    .m_wr_id_o   (spm_wid),
    .m_rd_en_o   (spm_ren),
    .m_rd_addr_o (spm_raddr),
    .m_rd_data_i (spm_rdata)
  );

  gemmini_spad #(.Dim(Dim), .Banks(SpBanks), .BankRows(SpBankRows)) u_spad (
    .clk_i, .rst_ni,
    .wr_en_i   (spm_wen),
    .wr_addr_i (spm_waddr),
    .wr_mask_i (spm_wmask),
    .wr_data_i (spm_wdata),
    .rd_en_i   (spm_ren),
    .rd_addr_i (spm_raddr),
    .rd_data_o (spm_rdata)
  );

  logic [AccBanks-1:0]              accm_wen, accm_wacc, accm_ren;
  logic [AccBanks-1:0][AccAW-1:0]   accm_waddr, accm_raddr;
  logic [AccBanks-1:0][Dim-1:0]     accm_wmask;
  logic [AccBanks-1:0][Dim*32-1:0]  accm_wdata, accm_rdata;
  logic [AccBanks-1:0][IdW-1:0]     accm_wid;

  gemmini_unit_arb #(.Dim(Dim), .Banks(AccBanks), .BankRows(AccBankRows), .RowW(Dim * 32)) u_acc_arb (
    .clk_i, .rst_ni,
    .wr_valid_i  (acc_wv),
    .wr_ready_o  (acc_wr),
    .wr_row_i    (acc_wrow),
    .wr_mask_i   (acc_wmask),
    .wr_data_i   (acc_wdata),
    .wr_acc_i    (acc_wacc),
    .wr_id_i     (acc_wid),
    .rd_valid_i  (acc_rv),
    .rd_ready_o  (acc_rr),
    .rd_row_i    (acc_rrow),
    .rd_data_o   (acc_rdata),
    .m_wr_en_o   (accm_wen),
    .m_wr_acc_o  (accm_wacc),
    .m_wr_addr_o (accm_waddr),
    .m_wr_mask_o (accm_wmask),
    .m_wr_data_o (accm_wdata),
    .m_wr_id_o   (accm_wid),
    .m_rd_en_o   (accm_ren),
    .m_rd_addr_o (accm_raddr),
    .m_rd_data_i (accm_rdata)
  );

  gemmini_acc #(.Dim(Dim), .Banks(AccBanks), .BankRows(AccBankRows)) u_acc (
    .clk_i, .rst_ni,
    .wr_en_i   (accm_wen),
    .wr_acc_i  (accm_wacc),
    .wr_addr_i (accm_waddr),
    .wr_mask_i (accm_wmask),
    .wr_data_i (accm_wdata),
    .rd_en_i   (accm_ren),
    .rd_addr_i (accm_raddr),
    .rd_data_o (accm_rdata)
  );

  // ---------------------------------------------------------------------------
  // Trace (the accumulator's rows after a write: a look inside gemmini_acc)
  // ---------------------------------------------------------------------------
  logic [AccBanks-1:0][Dim*32-1:0] acc_written;
  for (genvar b = 0; b < AccBanks; b++) begin : g_acc_written
    assign acc_written[b] = u_acc.g_bank[b].s2_row;
  end

  gemmini_unit_trace #(
    .Dim(Dim), .SpBanks(SpBanks), .AccBanks(AccBanks), .SpBankRows(SpBankRows), .AccBankRows(AccBankRows),
    .SeqW(SeqW)
  ) u_trace (
    .clk_i, .rst_ni,
    .alloc_i     (rob_alloc),
    .alloc_id_i  (rob_alloc_id),
    .alloc_seq_i (src_seq),
    .trace_id_o,
    .sp_wen_i    (spm_wen),
    .sp_waddr_i  (spm_waddr),
    .sp_wmask_i  (spm_wmask),
    .sp_wdata_i  (spm_wdata),
    .sp_wid_i    (spm_wid),
    .trace_sp_valid_o, .trace_sp_row_o, .trace_sp_mask_o, .trace_sp_data_o, .trace_sp_id_o, .trace_sp_seq_o,
    .acc_wen_i   (accm_wen),
    .acc_wacc_i  (accm_wacc),
    .acc_waddr_i (accm_waddr),
    .acc_wmask_i (accm_wmask),
    .acc_wid_i   (accm_wid),
    .acc_row_i   (acc_written),
    .trace_acc_valid_o, .trace_acc_row_o, .trace_acc_mask_o, .trace_acc_data_o, .trace_acc_accumulate_o,
    .trace_acc_id_o, .trace_acc_seq_o,
    .wr_id_i     (tr_wr_id),
    .trace_wr_seq_o
  );

  // the counter instruction (funct 126) on events of this cycle
  gemmini_unit_counters #(.LenW(LenW)) u_counters (
    .clk_i, .rst_ni,
    .fire_i          (counter_fire),
    .rs1_i           (buf_rs1),
    .value_o         (counter_value),
    .mvin_rows_i     ({acc_wv[0] && acc_wr[0], sp_wv[0] && sp_wr[0]}),
    .mvout_rows_i    ({acc_rv[1] && acc_rr[1], sp_rv[1] && sp_rr[1]}),
    .mesh_busy_i     (ex_mesh_busy),
    .dma_read_i      (dr_req_valid && dr_req_ready),
    .mem_response_i  (mem_rsp_valid_i),
    .mem_write_i     (mem_req_valid_o && mem_req_ready_i && mem_req_we_o),
    .dma_write_i     (dw_req_valid && dw_req_ready),
    .bytes_read_i    (ld_rd_bytes),
    .bytes_written_i ((dw_req_valid && dw_req_ready) ? dw_req_len : '0)
  );

  // ---------------------------------------------------------------------------
  // Status and performance events
  // ---------------------------------------------------------------------------
  // Busy: work the unit finishes by itself. A preload's C waits for a later
  // compute or drain (the model may keep it pending for ever), so preloads do
  // not count; the array's rows in flight do.
  assign busy_o = buf_valid || table_busy || rob_active || loop || loop_busy || ex_mesh_busy;
  assign progress_o = req_fire || rob_alloc || (|done_valid) || (mem_req_valid_o && mem_req_ready_i)
                   || mem_rsp_valid_i || table_complete || (|spm_wen) || (|accm_wen) || (|spm_ren) || (|accm_ren)
                   || ex_mesh_busy;

  always_comb begin
    perf_o              = '0;
    perf_o.macs         = ex_macs;
    perf_o.load_busy    = ld_busy;
    perf_o.exec_busy    = ex_busy;
    perf_o.store_busy   = st_busy;
    perf_o.mesh_busy    = ex_mesh_busy;
    perf_o.dma_rd_bytes = 16'(ld_rd_bytes);
    perf_o.dma_wr_bytes = (dw_req_valid && dw_req_ready) ? 16'(dw_req_len) : '0;
    perf_o.stall_hazard = |stall_hazard;
    perf_o.stall_queue  = cop_req_valid_i && !cop_req_ready_o;
    // a request a memory refuses: load's / store's, the amem port's, exec's fetch (first lane), accumulator read
    // and writes; not the fetch's second lane, whose bank waits hold nothing back while the first lane moves
    perf_o.stall_mem    = ld_stall_mem || st_stall_mem || (mem_req_valid_o && !mem_req_ready_i)
                          || (sp_rv[0] && !sp_rr[0]) || (acc_rv[0] && !acc_rr[0])
                          || (sp_wv[1] && !sp_wr[1]) || (acc_wv[1] && !acc_wr[1]);
  end

  logic unused;
  assign unused = ^{rob_empty, ld_rd_err, st_bytes, ex_stall_mem, ex_stall_operand, spm_wacc_unused, MemW};

`ifdef COSIM_ASSERT
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));

  // One completion per command: an id is allocated only when free, and each
  // controller's done names an id that is allocated and not done yet, at most
  // one controller a cycle.
  logic [2**IdW-1:0] outstanding_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      outstanding_q <= '0;
    end else begin
      for (int c = 0; c < 3; c++) if (done_valid[c]) outstanding_q[done_id[c]] <= 1'b0;
      if (rob_alloc) outstanding_q[rob_alloc_id] <= 1'b1;
    end
  end
  AllocFreshId: assert property (@(posedge clk_i) disable iff (!checking) rob_alloc |-> !outstanding_q[rob_alloc_id])
    else $error("gemmini ROB id %0d allocated while its command is not done", rob_alloc_id);
  for (genvar c = 0; c < 3; c++) begin : g_done_check
    DoneOnce: assert property (@(posedge clk_i) disable iff (!checking)
      done_valid[c] |-> outstanding_q[done_id[c]])
      else $error("gemmini controller %0d completed id %0d, which is not outstanding", c, done_id[c]);
    for (genvar d = c + 1; d < 3; d++) begin : g_pair
      DoneDisjoint: assert property (@(posedge clk_i) disable iff (!checking)
        done_valid[c] && done_valid[d] |-> done_id[c] != done_id[d])
        else $error("gemmini controllers %0d and %0d both completed id %0d", c, d, done_id[c]);
    end
  end
  // A controller takes only a command the ROB offers.
  for (genvar c = 0; c < 3; c++) begin : g_issue_check
    IssueOutstanding: assert property (@(posedge clk_i) disable iff (!checking)
      q_valid[c] && q_ready[c] |-> outstanding_q[q_cmd[c].id])
      else $error("gemmini ROB issued id %0d to controller %0d, which is not allocated", q_cmd[c].id, c);
  end
`endif

endmodule
