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

  localparam int unsigned Tags     = 16;          // core instructions in flight (the core allows 16)
  localparam int unsigned TagW     = $clog2(Tags);
  localparam int unsigned RobDepth = 64;
  localparam int unsigned SpBankRows  = SpRows / SpBanks;
  localparam int unsigned AccBankRows = AccRows / AccBanks;
  localparam int unsigned SpAW     = SpBankRows > 1 ? $clog2(SpBankRows) : 1;
  localparam int unsigned AccAW    = AccBankRows > 1 ? $clog2(AccBankRows) : 1;

  // ---------------------------------------------------------------------------
  // Issue: legality at the handshake, one instruction buffer, the instruction
  // table (completions in program order)
  // ---------------------------------------------------------------------------
  logic [6:0]  req_funct;
  logic        dec_legal, req_fire, accept;
  gm_illegal_e dec_reason, reason_q;
  assign req_funct = cop_req_i.insn[31:25];

  gemmini_unit_decode #(
    .Dim(Dim), .SpRows(SpRows), .AccRows(AccRows), .MaxBlockLen(MaxBlockLen), .MaxBlockLenAcc(MaxBlockLenAcc),
    .HasWs(HasWs), .HasOs(HasOs), .Mem0Base(Mem0Base), .Mem0Size(Mem0Size), .Mem1Base(Mem1Base),
    .Mem1Size(Mem1Size), .Mem2Base(Mem2Base), .Mem2Size(Mem2Size)
  ) u_dec (
    .clk_i, .rst_ni,
    .funct_i  (req_funct),
    .rs1_i    (cop_req_i.rs1),
    .rs2_i    (cop_req_i.rs2),
    .legal_o  (dec_legal),
    .reason_o (dec_reason),
    .accept_i (accept)
  );

  logic            ib_v_q, ib_pop;
  logic [6:0]      ib_funct_q;
  logic [63:0]     ib_rs1_q, ib_rs2_q;
  logic [TagW-1:0] ib_tag_q;

  logic [SeqW-1:0] it_seq_q [Tags];
  logic [4:0]      it_rd_q [Tags];
  logic [Tags-1:0] it_xwe_q, it_open_q;
  logic [63:0]     it_wdata_q [Tags];
  logic [TagW-1:0] it_head_q, it_tail_q;
  logic [TagW:0]   it_cnt_q;
  logic [Tags-1:0] tag_busy;
  logic            it_close;      // close the instruction buffer's entry (all its commands allocated)
  logic [TagW-1:0] it_close_tag;
  logic            it_cmp, cnt_fire;
  logic [63:0]     cnt_rd;

  // ready from state only: the buffer is free or leaves this cycle, and the
  // table has room. Only custom-3 words are Gemmini's (others are refused).
  logic gm_opcode;
  assign gm_opcode       = cop_req_i.insn[6:0] == 7'h7B;
  assign cop_req_ready_o = (!ib_v_q || ib_pop) && it_cnt_q != (TagW + 1)'(Tags);
  assign req_fire        = cop_req_valid_i && cop_req_ready_o;
  assign cop_illegal_o   = !(dec_legal && gm_opcode);
  assign accept          = req_fire && dec_legal && gm_opcode;
  assign cop_ack_o       = '0;

  assign it_cmp          = it_cnt_q != '0 && !it_open_q[it_head_q] && !tag_busy[it_head_q];
  assign cop_cmp_valid_o = it_cmp;
  always_comb begin
    cop_cmp_o       = '0;
    cop_cmp_o.seq   = it_seq_q[it_head_q];
    cop_cmp_o.x_we  = it_xwe_q[it_head_q];
    cop_cmp_o.rd    = it_rd_q[it_head_q];
    cop_cmp_o.wdata = it_wdata_q[it_head_q];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ib_v_q     <= 1'b0;
      ib_funct_q <= '0;
      ib_rs1_q   <= '0;
      ib_rs2_q   <= '0;
      ib_tag_q   <= '0;
      it_head_q  <= '0;
      it_tail_q  <= '0;
      it_cnt_q   <= '0;
      it_open_q  <= '0;
      it_xwe_q   <= '0;
      reason_q   <= IllNone;
      for (int unsigned t = 0; t < Tags; t++) begin
        it_seq_q[t]   <= '0;
        it_rd_q[t]    <= '0;
        it_wdata_q[t] <= '0;
      end
    end else begin
      if (req_fire && !(dec_legal && gm_opcode)) reason_q <= gm_opcode ? dec_reason : IllFunct;
      if (ib_pop) ib_v_q <= 1'b0;
      if (accept) begin
        ib_v_q     <= 1'b1;
        ib_funct_q <= req_funct;
        ib_rs1_q   <= cop_req_i.rs1;
        ib_rs2_q   <= cop_req_i.rs2;
        ib_tag_q   <= it_tail_q;
        it_seq_q[it_tail_q]   <= cop_req_i.seq;
        it_rd_q[it_tail_q]    <= cop_req_i.insn[11:7];
        it_xwe_q[it_tail_q]   <= cop_req_i.insn[14];  // RoCC xd
        it_wdata_q[it_tail_q] <= '0;
        it_open_q[it_tail_q]  <= 1'b1;
        it_tail_q <= it_tail_q + 1'b1;
      end
      if (it_close) it_open_q[it_close_tag] <= 1'b0;
      if (cnt_fire) it_wdata_q[ib_tag_q] <= cnt_rd;
      if (it_cmp) it_head_q <= it_head_q + 1'b1;
      it_cnt_q <= it_cnt_q + (TagW + 1)'(accept) - (TagW + 1)'(it_cmp);
    end
  end

  assign illegal_reason_o = reason_q;

  // ---------------------------------------------------------------------------
  // Allocation: the instruction buffer, or the loop unroller's commands while a
  // loop_ws runs, in program order; a FunctDrain goes first when a command that
  // is not preload / compute follows one that is (UNIT.md)
  // ---------------------------------------------------------------------------
  logic            lp_in_valid, lp_in_ready, lp_out_valid, lp_out_ready, lp_busy;
  logic [6:0]      lp_out_funct;
  logic [63:0]     lp_out_rs1, lp_out_rs2;
  logic            loop_q, loop_wait_q;
  logic [TagW-1:0] loop_tag_q;
  logic            last_mesh_q;

  logic            src_v;
  logic [6:0]      src_funct;
  logic [63:0]     src_rs1, src_rs2;
  logic [TagW-1:0] src_tag;
  logic            src_mesh, need_drain;
  gm_ctl_e         src_ctl;

  logic            rob_alloc_valid, rob_alloc_ready, rob_alloc;
  gm_ctl_e         rob_alloc_ctl;
  logic [6:0]      rob_alloc_funct;
  logic [63:0]     rob_alloc_rs1, rob_alloc_rs2;
  gm_sets_t        sets;
  logic [IdW-1:0]  rob_alloc_id;

  always_comb begin
    src_v     = loop_q ? lp_out_valid : ib_v_q;
    src_funct = loop_q ? lp_out_funct : ib_funct_q;
    src_rs1   = loop_q ? lp_out_rs1 : ib_rs1_q;
    src_rs2   = loop_q ? lp_out_rs2 : ib_rs2_q;
    src_tag   = loop_q ? loop_tag_q : ib_tag_q;
    src_mesh  = src_funct inside {7'd4, 7'd5, 7'd6};
    unique case (src_funct)
      7'd0:              src_ctl = src_rs1[1:0] == 2'd1 ? CtlLoad : (src_rs1[1:0] == 2'd2 ? CtlStore : CtlExec);
      7'd1, 7'd2, 7'd14: src_ctl = CtlLoad;
      7'd3:              src_ctl = CtlStore;
      7'd4, 7'd5, 7'd6:  src_ctl = CtlExec;
      default:           src_ctl = CtlNone;
    endcase
    need_drain = src_v && last_mesh_q && !src_mesh;
  end

  always_comb begin
    rob_alloc_valid = 1'b0;
    rob_alloc_ctl   = CtlExec;
    rob_alloc_funct = FunctDrain;
    rob_alloc_rs1   = '0;
    rob_alloc_rs2   = '0;
    lp_in_valid     = 1'b0;
    lp_out_ready    = 1'b0;
    ib_pop          = 1'b0;
    it_close        = 1'b0;
    it_close_tag    = ib_tag_q;
    cnt_fire        = 1'b0;
    if (need_drain) begin
      rob_alloc_valid = 1'b1;
    end else if (src_v && src_ctl != CtlNone) begin
      rob_alloc_valid = 1'b1;
      rob_alloc_ctl   = src_ctl;
      rob_alloc_funct = src_funct;
      rob_alloc_rs1   = src_rs1;
      rob_alloc_rs2   = src_rs2;
      if (rob_alloc_ready) begin
        if (loop_q) begin
          lp_out_ready = 1'b1;
        end else begin
          ib_pop   = 1'b1;
          it_close = 1'b1;
        end
      end
    end else if (src_v && !loop_q) begin
      // loop_ws and its configs go to the unroller; flush, clkgate_en and the
      // counter complete here
      if (src_funct inside {[7'd8 : 7'd13]}) begin
        lp_in_valid = 1'b1;
        ib_pop      = lp_in_ready;
        it_close    = lp_in_ready && src_funct != 7'd8;
      end else begin
        ib_pop   = 1'b1;
        it_close = 1'b1;
        cnt_fire = src_funct == 7'd126;
      end
    end
    // the loop's instruction completes when its last command is allocated
    if (loop_q && !loop_wait_q && !lp_busy && !lp_out_valid) begin
      it_close     = 1'b1;
      it_close_tag = loop_tag_q;
    end
  end

  assign rob_alloc = rob_alloc_valid && rob_alloc_ready;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      loop_q      <= 1'b0;
      loop_wait_q <= 1'b0;
      loop_tag_q  <= '0;
      last_mesh_q <= 1'b0;
    end else begin
      loop_wait_q <= 1'b0;
      if (lp_in_valid && lp_in_ready && src_funct == 7'd8) begin
        loop_q      <= 1'b1;
        loop_wait_q <= 1'b1;
        loop_tag_q  <= ib_tag_q;
      end else if (loop_q && !loop_wait_q && !lp_busy && !lp_out_valid) begin
        loop_q <= 1'b0;
      end
      if (rob_alloc) last_mesh_q <= need_drain ? 1'b0 : src_mesh;
    end
  end

  gemmini_unit_sets #(.Dim(Dim)) u_sets (
    .clk_i, .rst_ni,
    .funct_i  (rob_alloc_funct),
    .rs1_i    (rob_alloc_rs1),
    .rs2_i    (rob_alloc_rs2),
    .update_i (rob_alloc),
    .sets_o   (sets)
  );

  gemmini_loop_ws #(
    .Dim(Dim), .SpRows(SpRows), .AccRows(AccRows), .MaxBlockLen(MaxBlockLen), .MaxBlockLenAcc(MaxBlockLenAcc)
  ) u_loop (
    .clk_i, .rst_ni,
    .in_valid_i  (lp_in_valid),
    .in_ready_o  (lp_in_ready),
    .in_funct_i  (ib_funct_q),
    .in_rs1_i    (ib_rs1_q),
    .in_rs2_i    (ib_rs2_q),
    .out_valid_o (lp_out_valid),
    .out_ready_i (lp_out_ready),
    .out_funct_o (lp_out_funct),
    .out_rs1_o   (lp_out_rs1),
    .out_rs2_o   (lp_out_rs2),
    .busy_o      (lp_busy)
  );

  // The preload waiting for its compute (allocation order): the compute that
  // takes it carries its C rows as its own write set and arms it in the ROB.
  logic           pend_v_q, arm_valid, rob_is_compute;
  logic [IdW-1:0] pend_id_q;
  gm_rows_t       pend_wr_q;
  gm_sets_t       rob_sets;
  assign rob_is_compute = rob_alloc_funct inside {7'd4, 7'd5};
  assign arm_valid      = rob_alloc && rob_is_compute && pend_v_q;
  always_comb begin
    rob_sets = sets;
    if (rob_is_compute && pend_v_q) rob_sets.wr = pend_wr_q;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pend_v_q  <= 1'b0;
      pend_id_q <= '0;
      pend_wr_q <= '0;
    end else if (rob_alloc) begin
      if (rob_alloc_funct == 7'd6) begin
        pend_v_q  <= 1'b1;
        pend_id_q <= rob_alloc_id;
        pend_wr_q <= sets.wr;
      end else if (rob_is_compute) begin
        pend_v_q <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------------------
  // ROB, id -> core instruction
  // ---------------------------------------------------------------------------
  logic [2:0]           q_valid, q_ready, done_valid, stall_hazard;
  gm_cmd_t [2:0]        q_cmd;
  logic [2:0][IdW-1:0]  done_id;
  logic                 rob_empty, rob_active;
  logic [SeqW-1:0]      id_seq_q [2**IdW];

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
    .arm_id_i       (pend_id_q),
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

  always_ff @(posedge clk_i) begin
    if (rob_alloc) id_seq_q[rob_alloc_id] <= it_seq_q[src_tag];
  end

  always_comb begin
    trace_id_o       = '0;
    trace_id_o.valid = rob_alloc;
    trace_id_o.id    = rob_alloc_id;
    trace_id_o.seq   = it_seq_q[src_tag];
  end

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
  assign trace_wr_id_o  = tr_wr_id;
  assign trace_wr_seq_o = id_seq_q[tr_wr_id];

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
  // Trace: scratchpad writes as the banks take them; accumulator writes one
  // cycle later, with the row the bank's read-modify-write produces (its s2
  // stage; a simulation-only look inside gemmini_acc)
  // ---------------------------------------------------------------------------
  for (genvar b = 0; b < SpBanks; b++) begin : g_sp_trace
    assign trace_sp_valid_o[b] = spm_wen[b];
    assign trace_sp_row_o[b]   = SpRowW'(b * SpBankRows) | SpRowW'(spm_waddr[b]);
    assign trace_sp_mask_o[b]  = spm_wmask[b];
    assign trace_sp_data_o[b]  = spm_wdata[b];
    assign trace_sp_id_o[b]    = spm_wid[b];
    assign trace_sp_seq_o[b]   = id_seq_q[spm_wid[b]];
  end

  logic [AccBanks-1:0]             tacc_v_q, tacc_acc_q;
  logic [AccBanks-1:0][AccAW-1:0]  tacc_addr_q;
  logic [AccBanks-1:0][Dim-1:0]    tacc_mask_q;
  logic [AccBanks-1:0][IdW-1:0]    tacc_id_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tacc_v_q    <= '0;
      tacc_acc_q  <= '0;
      tacc_addr_q <= '0;
      tacc_mask_q <= '0;
      tacc_id_q   <= '0;
    end else begin
      tacc_v_q    <= accm_wen;
      tacc_acc_q  <= accm_wacc;
      tacc_addr_q <= accm_waddr;
      tacc_mask_q <= accm_wmask;
      tacc_id_q   <= accm_wid;
    end
  end
  for (genvar b = 0; b < AccBanks; b++) begin : g_acc_trace
    assign trace_acc_valid_o[b]      = tacc_v_q[b];
    assign trace_acc_row_o[b]        = AccRowW'(b * AccBankRows) | AccRowW'(tacc_addr_q[b]);
    assign trace_acc_mask_o[b]       = tacc_mask_q[b];
    assign trace_acc_data_o[b]       = u_acc.g_bank[b].s2_row;
    assign trace_acc_accumulate_o[b] = tacc_acc_q[b];
    assign trace_acc_id_o[b]         = tacc_id_q[b];
    assign trace_acc_seq_o[b]        = id_seq_q[tacc_id_q[b]];
  end

  // ---------------------------------------------------------------------------
  // Counters (the counter instruction, funct 126: CounterFile's semantics on
  // events the RTL sees; values differ from the model's by design)
  // ---------------------------------------------------------------------------
  logic [31:0] ev_inc [64];
  logic [31:0] ext_bytes_rd, ext_bytes_wr;
  always_comb begin
    for (int unsigned e = 0; e < 64; e++) ev_inc[e] = '0;
    ev_inc[1]  = 32'(sp_wv[0] && sp_wr[0]) + 32'(acc_wv[0] && acc_wr[0]);   // mvin rows written
    ev_inc[9]  = ev_inc[1];
    ev_inc[2]  = 32'(sp_rv[1] && sp_rr[1]) + 32'(acc_rv[1] && acc_rr[1]);   // mvout rows read
    ev_inc[12] = ev_inc[2];
    ev_inc[3]  = 32'(ex_mesh_busy);                                          // mesh busy cycles
    ev_inc[24] = 32'(ex_mesh_busy);
    ev_inc[16] = 32'(dr_req_valid && dr_req_ready);                          // DMA read requests
    ev_inc[17] = ev_inc[16];
    ev_inc[45] = ev_inc[16];
    ev_inc[18] = 32'(mem_rsp_valid_i);                                       // memory beats answered
    ev_inc[21] = 32'(mem_req_valid_o && mem_req_ready_i && mem_req_we_o);    // write beats
    ev_inc[46] = 32'(dw_req_valid && dw_req_ready);                          // DMA write requests
    ev_inc[25] = 32'(cnt_fire && 1'b0);
    ext_bytes_rd = 32'(ld_rd_bytes);
    ext_bytes_wr = (dw_req_valid && dw_req_ready) ? 32'(dw_req_len) : '0;
  end

  logic [6:0]  cnt_cfg_q [8];     // bit 6: external
  logic [31:0] cnt_val_q [8];
  logic [31:0] snap_q [8];
  logic        snap_v_q;
  logic [2:0]  cnt_idx;
  assign cnt_idx = ib_rs1_q[6:4];
  assign cnt_rd  = 64'(snap_v_q ? snap_q[cnt_idx] : cnt_val_q[cnt_idx]);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      snap_v_q <= 1'b0;
      for (int unsigned i = 0; i < 8; i++) begin
        cnt_cfg_q[i] <= '0;
        cnt_val_q[i] <= '0;
        snap_q[i]    <= '0;
      end
    end else begin
      for (int unsigned i = 0; i < 8; i++) begin
        if (cnt_cfg_q[i][6]) begin
          if (cnt_cfg_q[i][5:0] == 6'd4) cnt_val_q[i] <= cnt_val_q[i] + ext_bytes_rd;
          if (cnt_cfg_q[i][5:0] == 6'd5) cnt_val_q[i] <= cnt_val_q[i] + ext_bytes_wr;
        end else begin
          cnt_val_q[i] <= cnt_val_q[i] + ev_inc[cnt_cfg_q[i][5:0]];
        end
      end
      if (cnt_fire) begin
        if (ib_rs1_q[0]) begin
          snap_v_q <= 1'b0;
          for (int unsigned i = 0; i < 8; i++) cnt_val_q[i] <= '0;
        end
        if (ib_rs1_q[1]) begin
          snap_v_q <= 1'b0;
        end else if (ib_rs1_q[2]) begin
          snap_v_q <= 1'b1;
          for (int unsigned i = 0; i < 8; i++) snap_q[i] <= cnt_val_q[i];
        end
        if (ib_rs1_q[3]) begin
          cnt_cfg_q[cnt_idx] <= {ib_rs1_q[31], ib_rs1_q[17:12]};
          cnt_val_q[cnt_idx] <= '0;
        end
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Status and performance events
  // ---------------------------------------------------------------------------
  // Busy: work the unit finishes by itself. A preload's C waits for a later
  // compute or drain (the model may keep it pending for ever), so preloads do
  // not count; the array's rows in flight do.
  assign busy_o = ib_v_q || it_cnt_q != '0 || rob_active || loop_q || lp_busy || ex_mesh_busy;
  assign progress_o = req_fire || rob_alloc || (|done_valid) || (mem_req_valid_o && mem_req_ready_i)
                   || mem_rsp_valid_i || it_cmp || (|spm_wen) || (|accm_wen) || (|spm_ren) || (|accm_ren)
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
  assign unused = ^{rob_empty, cop_req_i.frs1, cop_req_i.vtype, cop_req_i.vl, cop_req_i.vstart, cop_req_i.frm,
                    cop_req_i.vxrm, cop_req_i.insn[24:15], cop_req_i.insn[13:12], ld_rd_err, st_bytes,
                    ex_stall_mem, ex_stall_operand, spm_wacc_unused, MemW};

endmodule
