// t1-style vector unit (zve32f subset, see COVERAGE.md), top level.
//
// Coprocessor port (cosim_pkg): the decoder answers legal/illegal in the issue
// handshake; legal instructions wait in an issue queue, so the core can go on with
// scalar work. One instruction executes at a time: arithmetic in vec_seq (DLEN
// bits per cycle through Lanes 32-bit lanes), memory in vec_lsu (own memory port,
// MemW bits per beat). Each instruction completes once, in order, with its
// sequence number. `busy_o` is high while anything is queued or executing;
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
  parameter int unsigned IqDepth     = 4,
  parameter int unsigned Outstanding = 4,
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
  end

  assign cop_req_ready_o = (iq_cnt_q != (PW + 1)'(IqDepth));
  assign cop_illegal_o   = !legal;
  assign iq_push         = cop_req_valid_i && cop_req_ready_o && legal;

  // ---------------------------------------------------------------------------
  // Dispatch: one instruction at a time
  // ---------------------------------------------------------------------------
  vinsn_t cur_q;
  logic   active_q, start_q;
  logic   cur_mem;
  logic   seq_busy, seq_done, lsu_busy, lsu_done;
  logic [31:0] seq_xres;
  logic   seq_vxsat;
  logic [4:0] seq_fflags;
  logic [15:0] seq_lane_ops, seq_fma_ops;

  assign cur_mem = (cur_q.uop.cls == VC_LOAD) || (cur_q.uop.cls == VC_STORE);
  assign iq_pop  = !active_q && (iq_cnt_q != '0);

  logic done;
  assign done = active_q && !start_q && (cur_mem ? lsu_done : seq_done);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      iq_wp_q  <= '0;
      iq_rp_q  <= '0;
      iq_cnt_q <= '0;
      cur_q    <= '0;
      active_q <= 1'b0;
      start_q  <= 1'b0;
      for (int unsigned q = 0; q < IqDepth; q++) iq_q[q] <= '0;
    end else begin
      if (iq_push) begin
        iq_q[iq_wp_q] <= new_ins;
        iq_wp_q       <= iq_wp_q + 1'b1;
      end
      if (iq_pop) begin
        cur_q   <= iq_q[iq_rp_q];
        iq_rp_q <= iq_rp_q + 1'b1;
      end
      iq_cnt_q <= iq_cnt_q + (PW + 1)'(iq_push) - (PW + 1)'(iq_pop);
      start_q  <= iq_pop;
      if (iq_pop) active_q <= 1'b1;
      else if (done) active_q <= 1'b0;
    end
  end

  // ---------------------------------------------------------------------------
  // Engines and the register file
  // ---------------------------------------------------------------------------
  logic [RowW-1:0] s_ra, s_rb, s_rc, s_wa, l_ra, l_rb, l_wa;
  logic [DLEN-1:0] s_wd, s_wbe, l_wd, l_wbe;
  logic            s_we, l_we;
  logic [RowW-1:0] ra, rb, rc, wa;
  logic [DLEN-1:0] rd_a, rd_b, rd_c, wd, wbe;
  logic            we;
  logic [VLEN-1:0] v0;

  vec_seq #(.VLEN(VLEN), .DLEN(DLEN)) u_seq (
    .clk_i, .rst_ni,
    .start_i       (start_q && !cur_mem),
    .ins_i         (cur_q),
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
    .lane_active_o (lane_active_o),
    .perf_lane_ops_o (seq_lane_ops),
    .perf_fma_ops_o  (seq_fma_ops)
  );

  logic lsu_pending;
  vec_lsu #(.VLEN(VLEN), .DLEN(DLEN), .MemW(MemW), .Outstanding(Outstanding)) u_lsu (
    .clk_i, .rst_ni,
    .start_i         (start_q && cur_mem),
    .ins_i           (cur_q),
    .busy_o          (lsu_busy),
    .done_o          (lsu_done),
    .raddr_a_o       (l_ra),
    .rdata_a_i       (rd_a),
    .raddr_b_o       (l_rb),
    .rdata_b_i       (rd_b),
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

  always_comb begin
    if (!active_q) begin
      ra  = dbg_addr_i;
      rb  = s_rb;
      rc  = s_rc;
      we  = dbg_we_i;
      wa  = dbg_addr_i;
      wd  = dbg_wdata_i;
      wbe = '1;
    end else if (cur_mem) begin
      ra  = l_ra;
      rb  = l_rb;
      rc  = s_rc;
      we  = l_we;
      wa  = l_wa;
      wd  = l_wd;
      wbe = l_wbe;
    end else begin
      ra  = s_ra;
      rb  = s_rb;
      rc  = s_rc;
      we  = s_we;
      wa  = s_wa;
      wd  = s_wd;
      wbe = s_wbe;
    end
  end
  assign dbg_rdata_o = rd_a;

  vec_vrf #(.VLEN(VLEN), .DLEN(DLEN)) u_vrf (
    .clk_i, .rst_ni,
    .raddr_a_i (ra),
    .rdata_a_o (rd_a),
    .raddr_b_i (rb),
    .rdata_b_o (rd_b),
    .raddr_c_i (rc),
    .rdata_c_o (rd_c),
    .v0_o      (v0),
    .we_i      (we),
    .waddr_i   (wa),
    .wdata_i   (wd),
    .wbe_i     (wbe)
  );

  // ---------------------------------------------------------------------------
  // Completion and status
  // ---------------------------------------------------------------------------
  always_comb begin
    cop_cmp_o       = '0;
    cop_cmp_valid_o = done;
    cop_cmp_o.seq   = cur_q.seq;
    cop_cmp_o.x_we  = cur_q.uop.xwrite;
    cop_cmp_o.f_we  = cur_q.uop.fwrite;
    cop_cmp_o.fflags = cur_mem ? 5'd0 : seq_fflags;
    cop_cmp_o.rd    = cur_q.uop.vd;
    cop_cmp_o.wdata = {32'b0, seq_xres};
    cop_cmp_o.vxsat = !cur_mem && seq_vxsat;
  end

  logic iq_has_mem;
  always_comb begin
    iq_has_mem = 1'b0;
    for (int unsigned q = 0; q < IqDepth; q++) begin
      if ((PW + 1)'(q) < iq_cnt_q
          && (iq_q[PW'(iq_rp_q + PW'(q))].uop.cls == VC_LOAD
              || iq_q[PW'(iq_rp_q + PW'(q))].uop.cls == VC_STORE)) begin
        iq_has_mem = 1'b1;
      end
    end
  end

  assign busy_o        = active_q || (iq_cnt_q != '0);
  assign mem_pending_o = (active_q && cur_mem) || iq_has_mem;

  // ---------------------------------------------------------------------------
  // Performance events (vec_perf_t). Load bytes count when their response
  // returns, so a FIFO beside the port remembers each request's load bytes.
  // ---------------------------------------------------------------------------
  localparam int unsigned PfW = (Outstanding > 1) ? $clog2(Outstanding) : 1;
  logic [15:0]    pf_bytes_q [Outstanding];
  logic [PfW-1:0] pf_wp_q, pf_rp_q;
  logic [PfW:0]   pf_cnt_q;
  logic           pf_push;
  logic [15:0]    req_bytes;
  always_comb begin
    req_bytes = '0;
    for (int unsigned b = 0; b < MB; b++) req_bytes = req_bytes + 16'(mem_req_be_o[b]);
  end
  assign pf_push = mem_req_valid_o && mem_req_ready_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pf_wp_q  <= '0;
      pf_rp_q  <= '0;
      pf_cnt_q <= '0;
      for (int unsigned q = 0; q < Outstanding; q++) pf_bytes_q[q] <= '0;
    end else begin
      if (pf_push) begin
        pf_bytes_q[pf_wp_q] <= mem_req_we_o ? 16'd0 : req_bytes;
        pf_wp_q <= (32'(pf_wp_q) == Outstanding - 1) ? '0 : pf_wp_q + 1'b1;
      end
      if (mem_rsp_valid_i) pf_rp_q <= (32'(pf_rp_q) == Outstanding - 1) ? '0 : pf_rp_q + 1'b1;
      pf_cnt_q <= pf_cnt_q + (PfW + 1)'(pf_push) - (PfW + 1)'(mem_rsp_valid_i);
    end
  end

  always_comb begin
    perf_o              = '0;
    perf_o.arith_busy   = seq_busy;
    perf_o.mem_busy     = lsu_busy;
    perf_o.lane_ops     = seq_lane_ops;
    perf_o.fma_ops      = seq_fma_ops;
    perf_o.mem_bytes    = (pf_push && mem_req_we_o ? req_bytes : 16'd0)
                        + (mem_rsp_valid_i ? pf_bytes_q[pf_rp_q] : 16'd0);
    perf_o.port_busy    = mem_req_valid_o || (pf_cnt_q != '0);
    perf_o.stall_dep    = 1'b0;                          // one instruction at a time
    perf_o.stall_struct = active_q && (iq_cnt_q != '0);  // the head waits for the executing one
    perf_o.stall_mem    = mem_req_valid_o && !mem_req_ready_i;
    perf_o.stall_issue  = !busy_o;                       // nothing queued or executing
    perf_o.iq_full      = !cop_req_ready_o;
  end

  logic unused;
  assign unused = ^{seq_busy, lsu_busy, lsu_pending, cop_req_i.rs1[63:32], cop_req_i.rs2[63:32]};

endmodule
