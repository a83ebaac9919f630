// t1-style vector unit (zve32f subset, see COVERAGE.md), top level.
//
// Coprocessor port (cosim_pkg): the decoder answers legal/illegal in the issue
// handshake; legal instructions wait in an issue queue, so the core can go on with
// scalar work. Two engines run instructions at the same time: arithmetic in
// vec_seq (DLEN bits per cycle through Lanes 32-bit lanes) and memory in vec_lsu
// (own memory port, MemW bits per beat). Instructions leave the queue in order;
// a scoreboard on register groups (PIPELINE.md) decides when the queue head may
// start, and a row interlock lets a consumer follow its producer row by row
// (chaining, Chain = 1). A reorder buffer of RobDepth entries keeps completions
// in order: each instruction completes once, with its sequence number. `busy_o` is high while anything is queued or executing;
// `mem_pending_o` while a vector memory instruction is queued or executing (the
// core's ordering rules). The dbg_* port reads and writes VRF rows while the unit
// is idle (test benches only; tie off in an SoC).
module vec_unit
  import cosim_pkg::*;
  import vec_pkg::*;
#(
  parameter int unsigned VLEN        = 256,
  parameter int unsigned DLEN        = 64,
  parameter int unsigned MemW        = 64,
  parameter int unsigned IqDepth     = 8,
  parameter int unsigned Outstanding = 8,     // memory requests in flight (power of 2)
  parameter int unsigned RobDepth    = 4,     // instructions in flight (power of 2)
  parameter bit          Chain       = 1'b1,  // 0: a consumer waits for its producer to finish
  // Memory regions (config memory_map): element accesses outside them fault
  parameter logic [31:0] Mem0Base    = 32'h2000_0000,
  parameter logic [32:0] Mem0Size    = 33'h0_2000_0000,
  parameter logic [31:0] Mem1Base    = 32'h4000_0000,
  parameter logic [32:0] Mem1Size    = 33'h0_8000_0000,
  parameter logic [31:0] Mem2Base    = 32'hC000_0000,
  parameter logic [32:0] Mem2Size    = 33'h0_0100_0000,
  localparam int unsigned Rows = 32 * VLEN / DLEN,
  localparam int unsigned RowW = $clog2(Rows),
  localparam int unsigned MB   = MemW / 8
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // coprocessor issue
  input  logic            cop_req_valid_i,
  output logic            cop_req_ready_o,
  input  cop_req_t        cop_req_i,
  output logic            cop_illegal_o,
  output cop_ack_t        cop_ack_o,     // memory fault / ff trim (vec_memcheck)
  // coprocessor completion
  output logic            cop_cmp_valid_o,
  output cop_cmp_t        cop_cmp_o,
  // memory port
  output logic            mem_req_valid_o,
  input  logic            mem_req_ready_i,
  output logic [31:0]     mem_req_addr_o,
  output logic            mem_req_we_o,
  output logic [MB-1:0]   mem_req_be_o,
  output logic [MemW-1:0] mem_req_wdata_o,
  input  logic            mem_rsp_valid_i,
  input  logic [MemW-1:0] mem_rsp_rdata_i,
  // status
  output logic            busy_o,
  output logic            mem_pending_o,
  output logic            lane_active_o,
  output vec_perf_t       perf_o,        // performance events of this cycle (vec_pkg)
  // debug access to the VRF (idle only)
  input  logic            dbg_we_i,
  input  logic [RowW-1:0] dbg_addr_i,
  input  logic [DLEN-1:0] dbg_wdata_i,
  output logic [DLEN-1:0] dbg_rdata_o
);

  localparam int unsigned PW = $clog2(IqDepth);   // IqDepth: a power of 2

  // ---------------------------------------------------------------------------
  // Clock gate: every flop below runs on gclk, which stops while the unit holds no
  // work and nothing arrives (a scalar stretch of a program then costs the
  // simulation nothing here; vec_clock_gate.sv). Enabled while anything is queued,
  // executing or outstanding at the memory port, while a request or a debug write
  // is presented or the fault checker walks, and for two cycles after, so flops
  // that settle once the last instruction has left (idle state, cleared pulses) do
  // so before the clock stops. Stopping it never changes a flop: each holds its value.
  // ---------------------------------------------------------------------------
  logic       gclk, unit_active;
  logic [1:0] active_tail_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) active_tail_q <= '1;
    else active_tail_q <= {active_tail_q[0], unit_active};
  end
  vec_clock_gate u_cg (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .en_i   (unit_active || (|active_tail_q)),
    .gclk_o (gclk)
  );

  // ---------------------------------------------------------------------------
  // Decode and issue queue
  // ---------------------------------------------------------------------------
  logic  legal;
  vuop_t dec_uop;
  logic [1:0] dec_sew;

  vec_decoder u_dec (
    .insn_i   (cop_req_i.insn),
    .vtype_i  (cop_req_i.vtype),
    .vstart_i (cop_req_i.vstart),
    .frm_i    (cop_req_i.frm),
    .legal_o  (legal),
    .uop_o    (dec_uop),
    .sew_o    (dec_sew)
  );

  vinsn_t        iq_q [IqDepth];
  logic [PW-1:0] iq_wp_q, iq_rp_q;
  logic [PW:0]   iq_cnt_q;
  logic          iq_push, iq_pop;
  vinsn_t        new_ins;

  always_comb begin
    new_ins        = '0;
    new_ins.uop    = dec_uop;
    new_ins.rs1    = cop_req_i.rs1[31:0];
    new_ins.rs2    = cop_req_i.rs2[31:0];
    new_ins.frs1   = cop_req_i.frs1;
    new_ins.sew    = dec_sew;
    new_ins.lmul   = cop_req_i.vtype[2:0];
    new_ins.vl     = cop_req_i.vl;
    new_ins.vstart = cop_req_i.vstart;
    new_ins.frm    = cop_req_i.frm;
    new_ins.vxrm   = cop_req_i.vxrm;
    new_ins.seq    = cop_req_i.seq;
    new_ins.stop   = cop_ack_o.fault || cop_ack_o.trim;
    new_ins.stop_i = cop_ack_o.elem;
    new_ins.stop_f = cop_ack_o.field;
  end

  // Memory instructions are checked for faults before they are accepted
  logic            mc_hold, mc_walking;
  logic [RowW-1:0] mc_raddr;
  logic [VLEN-1:0] v0;
  logic [DLEN-1:0] rd_e;
  logic            idle;
  vec_memcheck #(
    .VLEN(VLEN), .DLEN(DLEN),
    .Mem0Base(Mem0Base), .Mem0Size(Mem0Size), .Mem1Base(Mem1Base), .Mem1Size(Mem1Size),
    .Mem2Base(Mem2Base), .Mem2Size(Mem2Size)
  ) u_mc (
    .clk_i (gclk), .rst_ni,
    .check_i   (cop_req_valid_i && legal && (dec_uop.cls == VC_LOAD || dec_uop.cls == VC_STORE)),
    .fire_i    (iq_push),
    .req_i     (cop_req_i),
    .uop_i     (dec_uop),
    .idle_i    (idle),
    .v0_i      (v0),
    .raddr_o   (mc_raddr),
    .rdata_i   (rd_e),
    .walking_o (mc_walking),
    .hold_o    (mc_hold),
    .ack_o     (cop_ack_o)
  );

  assign cop_req_ready_o = (iq_cnt_q != (PW + 1)'(IqDepth)) && !mc_hold;
  assign cop_illegal_o   = !legal;
  assign iq_push         = cop_req_valid_i && cop_req_ready_o && legal;

  localparam int unsigned RW  = $clog2(RobDepth);   // RobDepth: a power of 2
  localparam int unsigned RPR = VLEN / DLEN;        // rows per register
  localparam int unsigned RprLg = $clog2(RPR);

  // The helpers below look at a few fields of a whole instruction.
  /* verilator lint_off UNUSEDSIGNAL */
  // ---------------------------------------------------------------------------
  // Register groups an instruction touches (over-approximated where exactness
  // would cost more than it buys: a larger group only makes an instruction wait)
  // ---------------------------------------------------------------------------
  // registers of EMUL = 2^(eew - sew + lmul), at least 1
  function automatic logic [5:0] emul_regs(logic [1:0] eew, logic [1:0] sew, logic [2:0] lmul);
    logic signed [4:0] lg;
    lg = $signed({3'b0, eew}) - $signed({3'b0, sew}) + $signed({{2{lmul[2]}}, lmul});
    if (lg <= 0) return 6'd1;
    if (lg >= 3) return 6'd8;
    return 6'd1 << lg[1:0];
  endfunction

  // registers of the largest register group any operand of x spans
  function automatic logic [5:0] ins_span(vinsn_t x);
    logic [5:0] g, s;
    vuop_t      u;
    u = x.uop;
    g = emul_regs(x.sew, x.sew, x.lmul);
    s = g;
    if (u.cls == VC_LOAD || u.cls == VC_STORE) begin
      if (emul_regs(u.eew, x.sew, x.lmul) > s) s = emul_regs(u.eew, x.sew, x.lmul);
      if (u.lsmode == LS_INDEXED && emul_regs(u.ieew, x.sew, x.lmul) > s) s = emul_regs(u.ieew, x.sew, x.lmul);
    end else if (u.eew != x.sew || u.a_frac != 2'd0 || u.b_frac || u.narrow || u.wred) begin
      s = g << 1;
    end
    if (u.nf != 3'd0 && 6'((32'(u.nf) + 1) * 32'(u.seg_regs)) > s) s = 6'((32'(u.nf) + 1) * 32'(u.seg_regs));
    if (u.whole && 6'(u.nregs) > s) s = 6'(u.nregs);
    return s;
  endfunction

  function automatic logic is_mac(valu_e op);
    return (op == VA_MACC) || (op == VA_NMSAC) || (op == VA_MADD) || (op == VA_NMSUB)
        || (op >= VF_MACC && op <= VF_NMSUB);
  endfunction

  function automatic logic uses_v0(vinsn_t x);
    return !x.uop.vm || x.uop.mask_op;
  endfunction

  function automatic logic has_dest(vinsn_t x);
    return !(x.uop.cls inside {VC_STORE, VC_MVXS, VC_CPOP, VC_FIRST});
  endfunction

  // destination registers [vd, dest_end)
  function automatic logic [5:0] dest_end(vinsn_t x);
    logic [5:0] n, e;
    n = (x.uop.cls inside {VC_CMP, VC_RED, VC_MVSX, VC_MASK}) ? 6'd1 : ins_span(x);
    e = 6'(x.uop.vd) + n;
    return (e > 6'd32) ? 6'd32 : e;
  endfunction

  function automatic logic ovl(logic [5:0] a, logic [5:0] an, logic [5:0] lo, logic [5:0] hi);
    return (a < hi) && (lo < a + an);
  endfunction

  // does x read any register in [lo, hi)?
  function automatic logic ins_reads(vinsn_t x, logic [5:0] lo, logic [5:0] hi);
    logic [5:0] sp;
    logic       mem, r;
    vuop_t      u;
    u   = x.uop;
    sp  = ins_span(x);
    mem = (u.cls == VC_LOAD) || (u.cls == VC_STORE);
    r   = 1'b0;
    if (!mem && !is_splat_op(u.cls, u.op, u.src) && (u.src == SRC_V || u.cls inside {VC_RED, VC_MASK, VC_PERM})) begin
      r = r | ovl(6'(u.vs1), sp, lo, hi);
    end
    if (!mem || u.lsmode == LS_INDEXED) r = r | ovl(6'(u.vs2), sp, lo, hi);
    if (u.cls == VC_STORE || is_mac(u.op)) r = r | ovl(6'(u.vd), sp, lo, hi);
    if (uses_v0(x)) r = r | ovl(6'd0, 6'd1, lo, hi);
    return r;
  endfunction

  function automatic logic [RowW:0] reg_row(logic [5:0] r);
    return (RowW + 1)'(32'(r) << RprLg);
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------------------
  // Engines and their instructions
  // ---------------------------------------------------------------------------
  vinsn_t   head;
  logic     head_mem, head_lsu;
  assign head     = iq_q[iq_rp_q];
  assign head_mem = (head.uop.cls == VC_LOAD) || (head.uop.cls == VC_STORE);

  logic   disp;                 // the queue head starts this cycle
  vinsn_t s_cur_q, l_cur_q;     // instruction of each engine (valid while busy)
  vinsn_t l_dcur_q;             // the LSU's draining instruction
  logic [RW-1:0] s_tag_q, l_tag_q, l_dtag_q;   // their reorder-buffer entries
  logic   lsu_req_busy, lsu_dr_busy, lsu_to_drain, lsu_done_drain;
  logic [RowW:0] lsu_dfront;
  logic [RW-1:0] l_done_tag;

  logic   seq_ready, seq_busy, seq_done, seq_stall;
  logic   lsu_ready, lsu_busy, lsu_done, lsu_stall;
  // Splats run on either engine: the sequencer when it can take one, else the LSU
  // (in a matmul the sequencer is busy with the FMAs the splats feed).
  assign head_lsu = head_mem || (is_splat_op(head.uop.cls, head.uop.op, head.uop.src) && lsu_ready && (!lsu_busy || !seq_ready));
  logic [31:0] seq_xres;
  logic   seq_vxsat;
  logic [4:0] seq_fflags;
  logic [2:0] seq_used;
  logic [1:0] lsu_used;
  logic [RowW:0] seq_front, lsu_front;
  logic [15:0] seq_lane_ops, seq_fma_ops, lsu_mem_bytes;

  logic [RowW-1:0] s_ra, s_rb, s_rc, s_wa, l_ra, l_rb, l_wa, ld_addr;
  logic [DLEN-1:0] s_wd, s_wbe, l_wd, l_wbe, l_wd_m, l_wbe_m;
  logic            s_we, l_we, l_we_m;
  logic [DLEN-1:0] rd_a, rd_b, rd_c, rd_d;

  vec_seq #(.VLEN(VLEN), .DLEN(DLEN)) u_seq (
    .clk_i (gclk), .rst_ni,
    .start_i       (disp && !head_lsu),
    .ins_i         (head),
    .ready_o       (seq_ready),
    .stall_i       (seq_stall),
    .busy_o        (seq_busy),
    .done_o        (seq_done),
    .xres_o        (seq_xres),
    .vxsat_o       (seq_vxsat),
    .fflags_o      (seq_fflags),
    .raddr_a_o     (s_ra),
    .rdata_a_i     (rd_a),
    .raddr_b_o     (s_rb),
    .rdata_b_i     (rd_b),
    .raddr_c_o     (s_rc),
    .rdata_c_i     (rd_c),
    .v0_i          (v0),
    .we_o          (s_we),
    .waddr_o       (s_wa),
    .wdata_o       (s_wd),
    .wbe_o         (s_wbe),
    .rd_used_o     (seq_used),
    .wfront_o      (seq_front),
    .lane_active_o (lane_active_o),
    .perf_lane_ops_o (seq_lane_ops),
    .perf_fma_ops_o  (seq_fma_ops)
  );

  logic lsu_pending;
  vec_lsu #(.VLEN(VLEN), .DLEN(DLEN), .MemW(MemW), .Outstanding(Outstanding)) u_lsu (
    .clk_i (gclk), .rst_ni,
    .start_i         (disp && head_lsu),
    .ins_i           (head),
    .ready_o         (lsu_ready),
    .stall_i         (lsu_stall),
    .busy_o          (lsu_busy),
    .req_busy_o      (lsu_req_busy),
    .drain_busy_o    (lsu_dr_busy),
    .to_drain_o      (lsu_to_drain),
    .done_o          (lsu_done),
    .done_drain_o    (lsu_done_drain),
    .dfront_o        (lsu_dfront),
    .rd_used_o       (lsu_used),
    .wfront_o        (lsu_front),
    .mem_bytes_o     (lsu_mem_bytes),
    .raddr_a_o       (l_ra),
    .rdata_a_i       (rd_d),
    .raddr_b_o       (l_rb),
    .rdata_b_i       (rd_e),
    .v0_i            (v0),
    .we_o            (l_we),
    .waddr_o         (l_wa),
    .wdata_o         (l_wd),
    .wbe_o           (l_wbe),
    .mem_req_valid_o,
    .mem_req_ready_i,
    .mem_req_addr_o,
    .mem_req_we_o,
    .mem_req_be_o,
    .mem_req_wdata_o,
    .mem_rsp_valid_i,
    .mem_rsp_rdata_i,
    .mem_pending_o   (lsu_pending)
  );

  // ---------------------------------------------------------------------------
  // Reorder buffer: one entry per started, not yet completed instruction
  // ---------------------------------------------------------------------------
  logic [RobDepth-1:0] rob_v_q, rob_fin_q, rob_mem_q, rob_dst_q, rob_xw_q, rob_fw_q, rob_vxsat_q;
  logic [7:0]          rob_seq_q    [RobDepth];
  logic [4:0]          rob_rd_q     [RobDepth];
  logic [5:0]          rob_d0_q     [RobDepth];   // destination registers [d0, d1)
  logic [5:0]          rob_d1_q     [RobDepth];
  logic [31:0]         rob_xres_q   [RobDepth];
  logic [4:0]          rob_fflags_q [RobDepth];
  logic [RW-1:0]       rob_hp_q, rob_tp_q;
  logic [RW:0]         rob_cnt_q;

  logic cmp_fire, head_s_done, head_l_done;
  assign head_s_done = seq_done && (s_tag_q == rob_hp_q);
  assign l_done_tag  = lsu_done_drain ? l_dtag_q : l_tag_q;
  assign head_l_done = lsu_done && (l_done_tag == rob_hp_q);
  assign cmp_fire    = (rob_cnt_q != '0) && (rob_fin_q[rob_hp_q] || head_s_done || head_l_done);

  // ---------------------------------------------------------------------------
  // Scoreboard: may the queue head start this cycle?
  // ---------------------------------------------------------------------------
  logic [5:0] h_d0, h_d1;
  logic       h_dst;
  assign h_dst = has_dest(head);
  assign h_d0  = 6'(head.uop.vd);
  assign h_d1  = dest_end(head);

  // Instructions still executing after this cycle: the sequencer's, the LSU's
  // issuing one (also when it moves to the drain slot) and the LSU's draining one.
  logic s_act, r_act, d_act;
  assign s_act = seq_busy && !seq_done;
  assign r_act = lsu_req_busy && !(lsu_done && !lsu_done_drain);
  assign d_act = lsu_dr_busy && !(lsu_done && lsu_done_drain);

  // does producer p (executing, with a destination) hold back the head's reads?
  function automatic logic raw_on(logic act, vinsn_t p, vinsn_t h);
    if (!act || !has_dest(p)) return 1'b0;
    // with chaining only the mask (v0 is read as a whole); rows of the other
    // operands are interlocked cycle by cycle (below)
    if (Chain) return uses_v0(h) && (p.uop.vd == 5'd0);
    return ins_reads(h, 6'(p.uop.vd), dest_end(p));
  endfunction

  logic eng_ok, rob_ok, waw, war, raw;
  assign eng_ok = head_lsu ? lsu_ready : seq_ready;
  assign rob_ok = (rob_cnt_q != (RW + 1)'(RobDepth)) || cmp_fire;
  always_comb begin
    // WAW: an older destination not completed yet (the commit trace reads a
    // destination one cycle after its completion, so no younger write may land first)
    waw = 1'b0;
    for (int unsigned j = 0; j < RobDepth; j++) begin
      if (rob_v_q[j] && rob_dst_q[j] && !(cmp_fire && RW'(j) == rob_hp_q) && h_dst
          && rob_d0_q[j] < h_d1 && h_d0 < rob_d1_q[j]) begin
        waw = 1'b1;
      end
    end
    // WAR: the other engine still reads a register the head writes (the head's
    // own engine is free or finishing: its reads are over)
    war = h_dst && (head_lsu ? (s_act && ins_reads(s_cur_q, h_d0, h_d1))
                             : (r_act && ins_reads(l_cur_q, h_d0, h_d1)));
    raw = raw_on(s_act, s_cur_q, head) || raw_on(r_act, l_cur_q, head) || raw_on(d_act, l_dcur_q, head);
  end
  logic iq_nonempty;
  assign iq_nonempty = (iq_cnt_q != '0);
  assign disp   = iq_nonempty && eng_ok && rob_ok && !waw && !war && !raw;
  assign iq_pop = disp;

  // ---------------------------------------------------------------------------
  // Row interlock (chaining): an engine reading a row of a destination the other,
  // older engine has not finished writing waits for it
  // ---------------------------------------------------------------------------
  function automatic logic row_pending(logic [RowW-1:0] r, logic [5:0] d0, logic [5:0] d1,
                                       logic [RowW:0] front);
    return ({1'b0, r} >= reg_row(d0)) && ({1'b0, r} < reg_row(d1)) && ({1'b0, r} >= front);
  endfunction

  // is entry a older than entry b?
  function automatic logic older(logic [RW-1:0] a, logic [RW-1:0] b, logic [RW-1:0] hp);
    return RW'(a - hp) < RW'(b - hp);
  endfunction

  always_comb begin
    logic [5:0] d0, d1;
    seq_stall = 1'b0;
    lsu_stall = 1'b0;
    // sequencer reads vs. the LSU's issuing and draining loads
    d0 = 6'(l_cur_q.uop.vd);
    d1 = dest_end(l_cur_q);
    if (seq_busy && lsu_req_busy && older(l_tag_q, s_tag_q, rob_hp_q) && has_dest(l_cur_q)) begin
      seq_stall = (seq_used[0] && row_pending(s_ra, d0, d1, lsu_front))
               || (seq_used[1] && row_pending(s_rb, d0, d1, lsu_front))
               || (seq_used[2] && row_pending(s_rc, d0, d1, lsu_front));
    end
    d0 = 6'(l_dcur_q.uop.vd);
    d1 = dest_end(l_dcur_q);
    if (seq_busy && lsu_dr_busy && older(l_dtag_q, s_tag_q, rob_hp_q) && has_dest(l_dcur_q)) begin
      seq_stall = seq_stall
               || (seq_used[0] && row_pending(s_ra, d0, d1, lsu_dfront))
               || (seq_used[1] && row_pending(s_rb, d0, d1, lsu_dfront))
               || (seq_used[2] && row_pending(s_rc, d0, d1, lsu_dfront));
    end
    // LSU reads (store data, indices) vs. the sequencer and the draining load
    d0 = 6'(s_cur_q.uop.vd);
    d1 = dest_end(s_cur_q);
    if (lsu_req_busy && seq_busy && older(s_tag_q, l_tag_q, rob_hp_q) && has_dest(s_cur_q)) begin
      lsu_stall = (lsu_used[0] && row_pending(l_ra, d0, d1, seq_front))
               || (lsu_used[1] && row_pending(l_rb, d0, d1, seq_front));
    end
    d0 = 6'(l_dcur_q.uop.vd);
    d1 = dest_end(l_dcur_q);
    if (lsu_req_busy && lsu_dr_busy && has_dest(l_dcur_q)) begin
      lsu_stall = lsu_stall
               || (lsu_used[0] && row_pending(l_ra, d0, d1, lsu_dfront))
               || (lsu_used[1] && row_pending(l_rb, d0, d1, lsu_dfront));
    end
  end

  // ---------------------------------------------------------------------------
  // Queue, reorder buffer and engine bookkeeping
  // ---------------------------------------------------------------------------
  always_ff @(posedge gclk or negedge rst_ni) begin
    if (!rst_ni) begin
      iq_wp_q   <= '0;
      iq_rp_q   <= '0;
      iq_cnt_q  <= '0;
      for (int unsigned q = 0; q < IqDepth; q++) iq_q[q] <= '0;
      s_cur_q   <= '0;
      l_cur_q   <= '0;
      l_dcur_q  <= '0;
      l_dtag_q  <= '0;
      s_tag_q   <= '0;
      l_tag_q   <= '0;
      rob_v_q   <= '0;
      rob_fin_q <= '0;
      rob_mem_q <= '0;
      rob_dst_q <= '0;
      rob_xw_q  <= '0;
      rob_fw_q  <= '0;
      rob_vxsat_q <= '0;
      for (int unsigned j = 0; j < RobDepth; j++) begin
        rob_seq_q[j]    <= '0;
        rob_rd_q[j]     <= '0;
        rob_d0_q[j]     <= '0;
        rob_d1_q[j]     <= '0;
        rob_xres_q[j]   <= '0;
        rob_fflags_q[j] <= '0;
      end
      rob_hp_q  <= '0;
      rob_tp_q  <= '0;
      rob_cnt_q <= '0;
    end else begin
      if (iq_push) begin
        iq_q[iq_wp_q] <= new_ins;
        iq_wp_q       <= iq_wp_q + 1'b1;
      end
      if (iq_pop) iq_rp_q <= iq_rp_q + 1'b1;
      iq_cnt_q <= iq_cnt_q + (PW + 1)'(iq_push) - (PW + 1)'(iq_pop);

      // engine results (before a new entry: a finishing entry is never the new one)
      if (seq_done) begin
        rob_fin_q[s_tag_q]    <= 1'b1;
        rob_xres_q[s_tag_q]   <= seq_xres;
        rob_vxsat_q[s_tag_q]  <= seq_vxsat;
        rob_fflags_q[s_tag_q] <= seq_fflags;
      end
      if (lsu_done) rob_fin_q[l_done_tag] <= 1'b1;
      if (lsu_to_drain) begin
        l_dcur_q <= l_cur_q;
        l_dtag_q <= l_tag_q;
      end
      if (cmp_fire) begin
        rob_v_q[rob_hp_q] <= 1'b0;
        rob_hp_q          <= rob_hp_q + 1'b1;
      end
      if (disp) begin
        rob_v_q[rob_tp_q]      <= 1'b1;
        rob_fin_q[rob_tp_q]    <= 1'b0;
        rob_mem_q[rob_tp_q]    <= head_mem;
        rob_dst_q[rob_tp_q]    <= h_dst;
        rob_xw_q[rob_tp_q]     <= head.uop.xwrite;
        rob_fw_q[rob_tp_q]     <= head.uop.fwrite;
        rob_vxsat_q[rob_tp_q]  <= 1'b0;
        rob_seq_q[rob_tp_q]    <= head.seq;
        rob_rd_q[rob_tp_q]     <= head.uop.vd;
        rob_d0_q[rob_tp_q]     <= h_d0;
        rob_d1_q[rob_tp_q]     <= h_d1;
        rob_xres_q[rob_tp_q]   <= '0;
        rob_fflags_q[rob_tp_q] <= '0;
        rob_tp_q               <= rob_tp_q + 1'b1;
        if (head_lsu) begin
          l_cur_q <= head;
          l_tag_q <= rob_tp_q;
        end else begin
          s_cur_q <= head;
          s_tag_q <= rob_tp_q;
        end
      end
      rob_cnt_q <= rob_cnt_q + (RW + 1)'(disp) - (RW + 1)'(cmp_fire);
    end
  end

  // ---------------------------------------------------------------------------
  // Register file: sequencer on ports a/b/c and write port 0, LSU on d/e and
  // write port 1; the debug port uses the LSU's ports while the unit is idle
  // ---------------------------------------------------------------------------
  assign idle    = (rob_cnt_q == '0) && !iq_nonempty;
  assign ld_addr = idle ? dbg_addr_i : l_ra;
  always_comb begin
    l_we_m  = l_we;
    l_wd_m  = l_wd;
    l_wbe_m = l_wbe;
    if (idle) begin
      l_we_m  = dbg_we_i;
      l_wd_m  = dbg_wdata_i;
      l_wbe_m = '1;
    end
  end
  assign dbg_rdata_o = rd_d;

  vec_vrf #(.VLEN(VLEN), .DLEN(DLEN)) u_vrf (
    .clk_i (gclk), .rst_ni,
    .raddr_a_i (s_ra),
    .rdata_a_o (rd_a),
    .raddr_b_i (s_rb),
    .rdata_b_o (rd_b),
    .raddr_c_i (s_rc),
    .rdata_c_o (rd_c),
    .raddr_d_i (ld_addr),
    .rdata_d_o (rd_d),
    .raddr_e_i ((mc_walking && idle) ? mc_raddr : l_rb),   // indices: the checker reads them while idle
    .rdata_e_o (rd_e),
    .v0_o      (v0),
    .we0_i     (s_we),
    .waddr0_i  (s_wa),
    .wdata0_i  (s_wd),
    .wbe0_i    (s_wbe),
    .we1_i     (idle ? l_we_m : l_we),
    .waddr1_i  (idle ? dbg_addr_i : l_wa),
    .wdata1_i  (l_wd_m),
    .wbe1_i    (l_wbe_m)
  );

  // ---------------------------------------------------------------------------
  // Completion (in order) and status
  // ---------------------------------------------------------------------------
  always_comb begin
    cop_cmp_o        = '0;
    cop_cmp_valid_o  = cmp_fire;
    cop_cmp_o.seq    = rob_seq_q[rob_hp_q];
    cop_cmp_o.x_we   = rob_xw_q[rob_hp_q];
    cop_cmp_o.f_we   = rob_fw_q[rob_hp_q];
    cop_cmp_o.rd     = rob_rd_q[rob_hp_q];
    if (rob_fin_q[rob_hp_q]) begin
      cop_cmp_o.wdata  = {32'b0, rob_xres_q[rob_hp_q]};
      cop_cmp_o.fflags = rob_fflags_q[rob_hp_q];
      cop_cmp_o.vxsat  = rob_vxsat_q[rob_hp_q];
    end else if (head_s_done) begin
      cop_cmp_o.wdata  = {32'b0, seq_xres};
      cop_cmp_o.fflags = seq_fflags;
      cop_cmp_o.vxsat  = seq_vxsat;
    end
  end

  logic iq_has_mem, rob_has_mem;
  always_comb begin
    iq_has_mem = 1'b0;
    for (int unsigned q = 0; q < IqDepth; q++) begin
      if ((PW + 1)'(q) < iq_cnt_q
          && (iq_q[PW'(iq_rp_q + PW'(q))].uop.cls == VC_LOAD
              || iq_q[PW'(iq_rp_q + PW'(q))].uop.cls == VC_STORE)) begin
        iq_has_mem = 1'b1;
      end
    end
    rob_has_mem = |(rob_v_q & rob_mem_q);
  end

  assign busy_o        = !idle;
  assign mem_pending_o = rob_has_mem || iq_has_mem;

  // ---------------------------------------------------------------------------
  // Performance events (one sample per cycle; PIPELINE.md gives the meanings)
  // ---------------------------------------------------------------------------
  logic [$clog2(Outstanding + 1):0] out_q;   // memory requests awaiting a response
  always_ff @(posedge gclk or negedge rst_ni) begin
    if (!rst_ni) out_q <= '0;
    else out_q <= out_q + ($bits(out_q))'(mem_req_valid_o && mem_req_ready_i)
                        - ($bits(out_q))'(mem_rsp_valid_i);
  end
  assign unit_active = !idle || cop_req_valid_i || dbg_we_i || mc_walking || seq_busy || lsu_busy
                       || mem_req_valid_o || mem_rsp_valid_i || (out_q != '0);

  always_comb begin
    perf_o              = '0;
    perf_o.arith_busy   = seq_busy;
    perf_o.mem_busy     = lsu_busy;
    perf_o.lane_ops     = seq_lane_ops;
    perf_o.fma_ops      = seq_fma_ops;
    perf_o.mem_bytes    = lsu_mem_bytes;
    perf_o.port_busy    = mem_req_valid_o || (out_q != '0);
    perf_o.stall_struct = iq_nonempty && !(eng_ok && rob_ok);
    perf_o.stall_dep    = (iq_nonempty && eng_ok && rob_ok && (waw || war || raw))
                       || seq_stall || lsu_stall;
    perf_o.stall_mem    = mem_req_valid_o && !mem_req_ready_i;
    perf_o.stall_issue  = idle;
    perf_o.iq_full      = !cop_req_ready_o;
  end

  logic unused;
  assign unused = ^{lsu_pending, cop_req_i.rs1[63:32], cop_req_i.rs2[63:32], rob_fin_q};

endmodule
