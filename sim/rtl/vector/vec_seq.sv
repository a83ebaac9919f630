// Sequencer of the arithmetic instructions: walks one instruction over the
// register file row by row (one DLEN-bit element group per cycle through the
// lanes), or element by element for permutations, and produces the completion.
// Memory instructions are run by vec_lsu instead; the top arbitrates the VRF.
//
// The sequencer latches its instruction at start_i and accepts the next one in
// the cycle it finishes the current one (ready_o), so back-to-back instructions
// run without a bubble. stall_i (from the top's scoreboard: a row this cycle
// reads is not written yet by an older instruction in the LSU) holds every
// state for a cycle. wfront_o tells the scoreboard which destination rows are
// final (chaining): every row below it.
module vec_seq
  import vec_pkg::*;
#(
  parameter int unsigned VLEN = 256,
  parameter int unsigned DLEN = 64,
  localparam int unsigned Rows = 32 * VLEN / DLEN,
  localparam int unsigned RowW = $clog2(Rows)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // instruction: taken when start_i && ready_o, kept in ins_q
  input  logic            start_i,
  input  vinsn_t          ins_i,
  output logic            ready_o,     // idle, or finishing the current instruction
  input  logic            stall_i,     // hold this cycle (operand row not ready)
  output logic            busy_o,
  output logic            done_o,      // one cycle: the current instruction finishes
  output logic [31:0]     xres_o,      // x[rd] value (vmv.x.s, vcpop, vfirst)
  output logic            vxsat_o,
  output logic [4:0]      fflags_o,
  // register file
  output logic [RowW-1:0] raddr_a_o,
  input  logic [DLEN-1:0] rdata_a_i,
  output logic [RowW-1:0] raddr_b_o,
  input  logic [DLEN-1:0] rdata_b_i,
  output logic [RowW-1:0] raddr_c_o,
  input  logic [DLEN-1:0] rdata_c_i,
  input  logic [VLEN-1:0] v0_i,
  output logic            we_o,
  output logic [RowW-1:0] waddr_o,
  output logic [DLEN-1:0] wdata_o,
  output logic [DLEN-1:0] wbe_o,
  // scoreboard: operand ports read this cycle, final-row frontier of vd
  output logic [2:0]      rd_used_o,   // {c, b, a}
  output logic [RowW:0]   wfront_o,
  // activity (for the issue-5 width check and counters)
  output logic            lane_active_o,
  // performance events (vec_pkg::vec_perf_t): active body elements of element-wise
  // work (ALU, compare, reduction rows) and of FP multiply-adds processed this cycle
  output logic [15:0]     perf_lane_ops_o,
  output logic [15:0]     perf_fma_ops_o
);

  localparam int unsigned Lanes      = DLEN / 32;
  localparam int unsigned RowsPerReg = VLEN / DLEN;
  localparam int unsigned RprLg      = $clog2(RowsPerReg);
  localparam int unsigned DlenLg     = $clog2(DLEN);
  localparam int unsigned MaxElems   = DLEN / 8;

  typedef enum logic [1:0] {S_IDLE, S_RUN, S_PERM, S_FIN} state_e;

  // divide / square root: one fpu_divsqrt per lane; a row waits for every lane
  logic             div_op;
  logic             div_started_q, div_started_d;
  logic [Lanes-1:0] div_done_q, div_done_d;
  logic [DLEN-1:0]  div_res_q, div_res_d;
  logic [4:0]       div_flg_q [Lanes];
  logic [4:0]       div_flg_d [Lanes];
  logic             div_start;
  logic [Lanes-1:0] div_lane_done;
  logic [31:0]      div_lane_res [Lanes];
  logic [4:0]       div_lane_flg [Lanes];

  state_e      state_q, state_d;
  logic [31:0] g_q, g_d;           // row step (S_RUN) or element index (S_PERM)
  logic [31:0] g_end_q, g_end_d;
  logic [31:0] evl_q, evl_d;
  logic [31:0] acc_q, acc_d;       // reduction accumulator / vcpop count / vfirst index
  logic        found_q, found_d;   // vfirst found
  logic        sat_q, sat_d;
  logic [4:0]  flags_q, flags_d;   // accumulated fflags
  logic        any_q, any_d;       // an active element seen (fp reductions)

  vinsn_t      ins_q;
  vuop_t       u;
  logic [1:0]  eew;
  int unsigned ebits;
  logic [31:0] vstart;
  assign u      = ins_q.uop;
  assign eew    = u.narrow ? u.eew + 2'd1 : u.eew;   // element width in the lanes
  assign ebits  = 8 << eew;
  assign vstart = ins_q.vstart;

  logic [31:0] emask;   // low SEW bits
  assign emask = (eew == 2'd0) ? 32'h0000_00ff : (eew == 2'd1) ? 32'h0000_ffff : 32'hffff_ffff;

  logic bitwise;   // classes walking rows of 1-bit elements
  assign bitwise = (u.cls == VC_MASK) || (u.cls == VC_CPOP) || (u.cls == VC_FIRST);

  // elements per row, log2
  logic [31:0] epr_lg;
  assign epr_lg = bitwise ? 32'(DlenLg) : 32'(DlenLg - 3) - 32'(eew);

  // VLMAX = LMUL*VLEN/SEW, for slides and gathers
  logic [31:0] vlmax;
  assign vlmax = vlmax_of($clog2(VLEN), ins_q.sew, ins_q.lmul);

  // Initial state of an instruction presented at start_i (from ins_i, since the
  // current one may still be finishing in ins_q)
  vuop_t       ui;
  logic [1:0]  ieew;
  logic        ibitwise;
  logic [31:0] ievl, ig, ig_end;
  state_e      istate;
  assign ui       = ins_i.uop;
  assign ieew     = ui.narrow ? ui.eew + 2'd1 : ui.eew;
  assign ibitwise = (ui.cls == VC_MASK) || (ui.cls == VC_CPOP) || (ui.cls == VC_FIRST);
  always_comb begin
    logic [31:0] lg;
    ievl   = ui.whole ? (32'(ui.nregs) * VLEN) >> (3 + ieew) : ins_i.vl;
    lg     = ibitwise ? 32'(DlenLg) : 32'(DlenLg - 3) - 32'(ieew);
    ig     = ins_i.vstart >> lg;
    ig_end = (ievl - 32'd1) >> lg;
    if (ui.cls == VC_MVXS || ui.cls == VC_MVSX || ievl == 32'd0 || ins_i.vstart >= ievl) begin
      istate = S_FIN;
    end else if (ui.cls == VC_PERM && !is_splat_op(ui.cls, ui.op, ui.src)) begin
      // element-serial; a gather with a scalar index (a splat) runs row by row in S_RUN
      ig     = ins_i.vstart;
      ig_end = ievl - 32'd1;
      istate = S_PERM;
    end else begin
      istate = S_RUN;
    end
  end

  function automatic logic [RowW-1:0] rowaddr(logic [4:0] vreg, logic [31:0] rel_row);
    return RowW'((32'(vreg) << RprLg) + rel_row);
  endfunction

  function automatic logic [31:0] sext_elem(logic [31:0] x, logic [1:0] w);
    unique case (w)
      2'd0:    return 32'($signed(x[7:0]));
      2'd1:    return 32'($signed(x[15:0]));
      default: return x;
    endcase
  endfunction

  // Narrow source row -> destination-width elements: part `part` of the row
  // (1/2^frac of it) holds this step's elements at EEW = dst >> frac.
  function automatic logic [DLEN-1:0] widen_row(logic [DLEN-1:0] row, logic [1:0] frac,
                                                logic [31:0] part, logic [1:0] deew, logic sgn);
    logic [DLEN-1:0] src;
    logic [DLEN-1:0] r;
    src = row >> (part * (DLEN >> frac));
    r   = row;
    if (frac != 2'd0) begin
      r = '0;
      if (deew == 2'd1) begin
        for (int unsigned k = 0; k < DLEN / 16; k++) r[16*k +: 16] = {{8{sgn & src[8*k+7]}}, src[8*k +: 8]};
      end else if (frac == 2'd1) begin
        for (int unsigned k = 0; k < DLEN / 32; k++) r[32*k +: 32] = {{16{sgn & src[16*k+15]}}, src[16*k +: 16]};
      end else begin
        for (int unsigned k = 0; k < DLEN / 32; k++) r[32*k +: 32] = {{24{sgn & src[8*k+7]}}, src[8*k +: 8]};
      end
    end
    return r;
  endfunction

  function automatic logic [31:0] red_op(valu_e op, int unsigned eb, logic [31:0] acc,
                                         logic [31:0] x);
    logic [31:0]        m;
    logic signed [32:0] sa, sx;
    m  = (eb == 32) ? 32'hffff_ffff : ((32'd1 << eb) - 32'd1);
    sa = (eb == 8) ? 33'($signed(acc[7:0])) : (eb == 16) ? 33'($signed(acc[15:0]))
                                                         : 33'($signed(acc));
    sx = (eb == 8) ? 33'($signed(x[7:0])) : (eb == 16) ? 33'($signed(x[15:0]))
                                                       : 33'($signed(x));
    unique case (op)
      VA_RSUM:  return (acc + x) & m;
      VA_RAND:  return (acc & x) & m;
      VA_ROR:   return (acc | x) & m;
      VA_RXOR:  return (acc ^ x) & m;
      VA_RMINU: return (((acc & m) < (x & m)) ? acc : x) & m;
      VA_RMIN:  return ((sa < sx) ? acc : x) & m;
      VA_RMAXU: return (((acc & m) > (x & m)) ? acc : x) & m;
      VA_RMAX:  return ((sa > sx) ? acc : x) & m;
      default:  return acc;
    endcase
  endfunction

  // ---------------------------------------------------------------------------
  // Row datapath (S_RUN): element activity of step g_q
  // ---------------------------------------------------------------------------
  logic [MaxElems-1:0] act;        // element k of the row is written
  logic [MaxElems-1:0] v0e;        // v0 bit of element k
  logic [DLEN-1:0]     bact;       // bitwise classes: bit b active
  always_comb begin
    act  = '0;
    v0e  = '0;
    bact = '0;
    for (int unsigned k = 0; k < MaxElems; k++) begin
      logic [31:0] j;
      j = (g_q << epr_lg) + 32'(k);
      if (32'(k) < (32'd1 << epr_lg) && !bitwise) begin
        v0e[k] = (j < VLEN) ? v0_i[j[$clog2(VLEN)-1:0]] : 1'b0;
        act[k] = (j >= vstart) && (j < evl_q) && (u.vm || u.mask_op || v0e[k]);
      end
    end
    for (int unsigned b = 0; b < DLEN; b++) begin
      logic [31:0] j;
      logic        m;
      j = (g_q << DlenLg) + 32'(b);
      m = (j < VLEN) ? v0_i[j[$clog2(VLEN)-1:0]] : 1'b0;
      bact[b] = bitwise && (j >= vstart) && (j < evl_q) && (u.vm || m);
    end
  end

  // operand b row
  logic [DLEN-1:0] brow;
  always_comb begin
    logic [31:0] s;
    s = (u.src == SRC_X) ? ins_q.rs1 : (u.src == SRC_F) ? ins_q.frs1
                                     : 32'($signed(u.imm));
    if (u.b_frac && u.src == SRC_X) begin   // widening .vx: x[rs1] at SEW, extended
      s = (eew == 2'd1) ? {{24{u.b_sgn & s[7]}}, s[7:0]} : {{16{u.b_sgn & s[15]}}, s[15:0]};
    end
    if (u.vid) begin
      brow = '0;
      for (int unsigned k = 0; k < MaxElems; k++) begin
        if (32'(k) < (32'd1 << epr_lg)) begin
          logic [31:0] j;
          j = (g_q << epr_lg) + 32'(k);
          unique case (eew)
            2'd0:    brow[8*k +: 8] = j[7:0];
            2'd1:    if (k < DLEN / 16) brow[16*k +: 16] = j[15:0];
            default: if (k < DLEN / 32) brow[32*k +: 32] = j;
          endcase
        end
      end
    end else if (u.src == SRC_V) begin
      brow = widen_row(rdata_b_i, {1'b0, u.b_frac}, g_q & 32'(u.b_frac), eew, u.b_sgn);
    end else begin
      brow = {Lanes{replicate(s, eew)}};
    end
  end

  // operand a (vs2), widened for widening ops and extensions
  logic [DLEN-1:0] arow;
  assign arow = widen_row(rdata_a_i, u.a_frac, g_q & ((32'd1 << u.a_frac) - 32'd1), eew, u.a_sgn);

  // integer lanes
  logic [DLEN-1:0]     ires;
  logic [MaxElems-1:0] lcmp;
  logic [MaxElems-1:0] lsat;
  logic [4*Lanes-1:0]  lane_cmp, lane_sat;
  for (genvar l = 0; l < Lanes; l++) begin : g_lane
    logic [3:0] cin;
    always_comb begin
      unique case (eew)
        2'd0:    cin = v0e[4*l +: 4];
        2'd1:    cin = {2'b00, v0e[2*l +: 2]};
        default: cin = {3'b000, v0e[l]};
      endcase
    end
    vec_lane u_lane (
      .op_i      (u.op),
      .sew_i     (eew),
      .a_i       (arow[32*l +: 32]),
      .b_i       (brow[32*l +: 32]),
      .c_i       (rdata_c_i[32*l +: 32]),
      .cin_i     (cin),
      .use_cin_i (u.mask_op),
      .vxrm_i    (ins_q.vxrm),
      .res_o     (ires[32*l +: 32]),
      .cmp_o     (lane_cmp[4*l +: 4]),
      .sat_o     (lane_sat[4*l +: 4])
    );
  end

  // floating-point lanes (SEW=32: element k of a row is lane k). In reductions
  // the lanes form a chain: lane l adds (or min/max-es) its element to the value
  // from lane l-1 when the element is active.
  logic             fp_op, fp_red;
  logic [31:0]      fchain [Lanes+1];
  logic [DLEN-1:0]  fres;
  logic [Lanes-1:0] fcmp;
  logic [4:0]       fflg [Lanes];
  logic [31:0]      red_init;
  assign fp_op  = is_fp_op(u.op);
  assign fp_red = fp_op && (u.cls == VC_RED);
  assign fchain[0] = red_init;
  for (genvar l = 0; l < Lanes; l++) begin : g_fp_lane
    logic [31:0] fa, fb;
    assign fa = fp_red ? fchain[l] : arow[32*l +: 32];
    assign fb = fp_red ? rdata_a_i[32*l +: 32] : brow[32*l +: 32];
    vec_fp_lane u_fp_lane (
      .op_i     (u.op),
      .frm_i    (ins_q.frm),
      .a_i      (fa),
      .b_i      (fb),
      .c_i      (rdata_c_i[32*l +: 32]),
      .narrow16_i (u.narrow),
      .res_o    (fres[32*l +: 32]),
      .cmp_o    (fcmp[l]),
      .fflags_o (fflg[l])
    );
    assign fchain[l+1] = act[l] ? fres[32*l +: 32] : fchain[l];
  end
  assign div_op = is_divsqrt_op(u.op);
  for (genvar l = 0; l < Lanes; l++) begin : g_div_lane
    logic div_busy;
    fpu_divsqrt u_divsqrt (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .start_i  (div_start),
      .sqrt_i   (u.op == VF_SQRT),
      .a_i      ((u.op == VF_RDIV) ? brow[32*l +: 32] : arow[32*l +: 32]),
      .b_i      ((u.op == VF_RDIV) ? arow[32*l +: 32] : brow[32*l +: 32]),
      .rm_i     (ins_q.frm),
      .busy_o   (div_busy),
      .done_o   (div_lane_done[l]),
      .result_o (div_lane_res[l]),
      .fflags_o (div_lane_flg[l])
    );
    logic unused_div;
    assign unused_div = div_busy;
  end
  always_comb begin
    div_done_d = div_done_q;
    div_res_d  = div_res_q;
    div_flg_d  = div_flg_q;
    for (int unsigned l = 0; l < Lanes; l++) begin
      if (div_lane_done[l]) begin
        div_done_d[l]         = 1'b1;
        div_res_d[32*l +: 32] = div_lane_res[l];
        div_flg_d[l]          = div_lane_flg[l];
      end
    end
  end

  logic [DLEN-1:0] lres;
  logic [4:0]      row_flags;
  assign lres = div_op ? div_res_q : fp_op ? fres : ires;
  always_comb begin
    row_flags = '0;
    for (int unsigned l = 0; l < Lanes; l++) begin
      if (fp_op && act[l]) row_flags = row_flags | (div_op ? div_flg_q[l] : fflg[l]);
    end
  end

  // per-element compare / saturation bits in element order
  always_comb begin
    lcmp = '0;
    lsat = '0;
    for (int unsigned l = 0; l < Lanes; l++) begin
      unique case (eew)
        2'd0: begin
          lcmp[4*l +: 4] = lane_cmp[4*l +: 4];
          lsat[4*l +: 4] = lane_sat[4*l +: 4];
        end
        2'd1: begin
          lcmp[2*l +: 2] = lane_cmp[4*l +: 2];
          lsat[2*l +: 2] = lane_sat[4*l +: 2];
        end
        default: begin
          lcmp[l] = lane_cmp[4*l];
          lsat[l] = lane_sat[4*l];
        end
      endcase
    end
    if (fp_op) lcmp = MaxElems'(fcmp);
  end

  // per-bit write enable of a SEW row from per-element activity
  logic [DLEN-1:0] ebe;
  always_comb begin
    for (int unsigned b = 0; b < DLEN; b++) ebe[b] = act[b >> (3 + eew)];
  end

  // narrowing: pack the 2*SEW lane results to SEW (clipping for vnclip[u]) into
  // half of a destination row
  logic [DLEN-1:0] nres, nbe;
  logic            nsat;
  // clip a 2*SEW lane result to SEW: {saturated, value}
  function automatic logic [16:0] clip_elem(logic [31:0] v, logic [1:0] weew, logic clip, logic sgn);
    logic [31:0] umax, smax, smin;
    logic [31:0] sv;
    umax = (weew == 2'd1) ? 32'h0000_00ff : 32'h0000_ffff;
    smax = (weew == 2'd1) ? 32'h0000_007f : 32'h0000_7fff;
    smin = (weew == 2'd1) ? 32'hffff_ff80 : 32'hffff_8000;
    sv   = (weew == 2'd1) ? 32'($signed(v[15:0])) : v;
    if (clip && !sgn && v > umax) return {1'b1, umax[15:0]};
    if (clip && sgn && $signed(sv) > $signed(smax)) return {1'b1, smax[15:0]};
    if (clip && sgn && $signed(sv) < $signed(smin)) return {1'b1, smin[15:0]};
    return {1'b0, v[15:0]};
  endfunction

  always_comb begin
    logic [DLEN/2-1:0] n, nb;
    logic [16:0]       c;
    n    = '0;
    nb   = '0;
    nsat = 1'b0;
    c    = '0;
    for (int unsigned k = 0; k < DLEN / 16; k++) begin
      if (eew == 2'd1) begin   // 16 -> 8
        c            = clip_elem({16'b0, lres[16*k +: 16]}, eew, u.clip, u.op == VA_SSRA);
        n[8*k +: 8]  = c[7:0];
        nb[8*k +: 8] = {8{act[k]}};
        nsat         = nsat | (c[16] & act[k]);
      end else if (k < DLEN / 32) begin   // 32 -> 16
        c              = clip_elem(lres[32*k +: 32], eew, u.clip, u.op == VA_SSRA);
        n[16*k +: 16]  = c[15:0];
        nb[16*k +: 16] = {16{act[k]}};
        nsat           = nsat | (c[16] & act[k]);
      end
    end
    nres = g_q[0] ? {n, (DLEN/2)'(0)} : {(DLEN/2)'(0), n};
    nbe  = g_q[0] ? {nb, (DLEN/2)'(0)} : {(DLEN/2)'(0), nb};
  end

  // mask logical
  logic [DLEN-1:0] mres;
  always_comb begin
    logic [DLEN-1:0] x, y;
    x = rdata_a_i;   // vs2
    y = rdata_b_i;   // vs1
    unique case (u.op)
      VA_MANDN: mres = x & ~y;
      VA_MAND:  mres = x & y;
      VA_MOR:   mres = x | y;
      VA_MXOR:  mres = x ^ y;
      VA_MORN:  mres = x | ~y;
      VA_MNAND: mres = ~(x & y);
      VA_MNOR:  mres = ~(x | y);
      default:  mres = ~(x ^ y);
    endcase
  end

  // reduction over the active elements of the row
  logic [31:0] red_acc;
  assign red_init = !found_q ? rdata_b_i[31:0] : acc_q;   // vs1[0] on the first row
  always_comb begin
    logic [31:0] a;
    a = red_init;
    for (int unsigned k = 0; k < MaxElems; k++) begin
      logic [31:0] x;
      x = 32'(rdata_a_i >> (k * ebits));
      if (u.wred) begin   // widening sum: extend the SEW element, accumulate at 2*SEW
        x = (ebits == 8) ? {{24{u.a_sgn & x[7]}}, x[7:0]} : {{16{u.a_sgn & x[15]}}, x[15:0]};
      end
      if (act[k]) a = red_op(u.op, u.wred ? 2 * ebits : ebits, a, x);
    end
    red_acc = fp_red ? fchain[Lanes] : a;
  end

  // vcpop / vfirst over the row
  logic [31:0] pop_row;
  logic [31:0] first_row;
  logic        first_hit;
  always_comb begin
    pop_row   = '0;
    first_row = '0;
    first_hit = 1'b0;
    for (int b = DLEN - 1; b >= 0; b--) begin
      if (bact[b] && rdata_a_i[b]) begin
        pop_row   = pop_row + 32'd1;
        first_row = (g_q << DlenLg) + 32'(b);
        first_hit = 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Element-serial permutation datapath (S_PERM): element i = g_q
  // ---------------------------------------------------------------------------
  logic [31:0] pi;
  logic        p_src_valid;  // source element index in range (else 0 / scalar)
  logic [31:0] p_src_idx;
  logic        p_use_scalar;
  logic [31:0] p_idx;        // gather index value
  logic [31:0] p_off;        // slide amount
  logic        p_active;
  logic        p_write;
  assign pi    = g_q;
  assign p_off = (u.src == SRC_X) ? ins_q.rs1 : 32'(u.imm);
  always_comb begin
    int unsigned ieb;
    logic [31:0] ibytes;
    ieb    = (u.op == VA_GATHER16) ? 2 : (1 << eew);
    ibytes = pi * ieb;
    p_idx  = 32'(rdata_b_i >> (8 * (ibytes & (DLEN / 8 - 1))));
    if (u.op == VA_GATHER16) p_idx = {16'b0, p_idx[15:0]};
    else if (u.src != SRC_V) p_idx = p_off;
    else p_idx = p_idx & emask;
  end
  always_comb begin
    logic m;
    m            = (pi < VLEN) ? v0_i[pi[$clog2(VLEN)-1:0]] : 1'b0;
    p_active     = (pi >= vstart) && (pi < evl_q) && (u.vm || m);
    p_write      = p_active;
    p_use_scalar = 1'b0;
    p_src_valid  = 1'b1;
    p_src_idx    = pi;
    unique case (u.op)
      VA_SLIDEUP: begin
        p_write   = p_active && (pi >= p_off);
        p_src_idx = pi - p_off;
      end
      VA_SLIDEDN: begin
        p_src_idx   = pi + p_off;
        p_src_valid = (p_off < vlmax) && (pi + p_off < vlmax);
      end
      VA_SLIDE1UP: begin
        p_use_scalar = (pi == 32'd0);
        p_src_idx    = pi - 32'd1;
      end
      VA_SLIDE1DN: begin
        p_use_scalar = (pi == evl_q - 32'd1);
        p_src_idx    = pi + 32'd1;
      end
      VA_COMPRESS, VA_IOTA, VA_MSBF, VA_MSIF, VA_MSOF: ;   // source element i
      default: begin   // gathers
        p_src_idx   = p_idx;
        p_src_valid = (p_idx < vlmax);
      end
    endcase
  end
  // vrgather.vx/.vi: every element takes vs2[x[rs1] or imm], so the sequencer
  // reads that one source row and writes a whole destination row per cycle (the
  // LSU takes splats too, when it is free and the sequencer is not)
  logic splat;
  assign splat = is_splat_op(u.cls, u.op, u.src);
  logic [31:0] p_val;
  logic [31:0] p_sbytes;
  logic [31:0] p_dbytes;
  assign p_sbytes = p_src_idx << eew;
  assign p_dbytes = pi << eew;
  always_comb begin
    if (p_use_scalar)     p_val = (u.src == SRC_F) ? ins_q.frs1 : ins_q.rs1;
    else if (p_src_valid) p_val = 32'(rdata_a_i >> (8 * (p_sbytes & (DLEN / 8 - 1))));
    else                  p_val = '0;
  end

  // element-serial mask ops: vmsbf/vmsif/vmsof, viota (vs2 bit i), vcompress (vs1 bit i)
  logic mser;
  logic m_bit;
  assign mser  = (u.op == VA_MSBF) || (u.op == VA_MSIF) || (u.op == VA_MSOF) || (u.op == VA_IOTA)
              || (u.op == VA_COMPRESS);
  assign m_bit = (u.op == VA_COMPRESS) ? rdata_b_i[pi[DlenLg-1:0]] : rdata_a_i[pi[DlenLg-1:0]];

  // ---------------------------------------------------------------------------
  // Register-file read addresses
  // ---------------------------------------------------------------------------
  always_comb begin
    raddr_b_o = rowaddr(u.vs1, g_q >> u.b_frac);
    raddr_c_o = rowaddr(u.vd, g_q);
    if (state_q == S_PERM && u.op == VA_COMPRESS) begin
      raddr_b_o = rowaddr(u.vs1, pi >> DlenLg);
    end else if (state_q == S_PERM) begin
      raddr_b_o = rowaddr(u.vs1, ((u.op == VA_GATHER16) ? (pi << 1) : p_dbytes) >> (DlenLg - 3));
    end else if (u.cls == VC_RED) begin
      raddr_b_o = rowaddr(u.vs1, 32'd0);
    end
  end
  always_comb begin
    raddr_a_o = rowaddr(u.vs2, g_q >> u.a_frac);
    if (state_q == S_PERM && mser && u.op != VA_COMPRESS) raddr_a_o = rowaddr(u.vs2, pi >> DlenLg);
    else if (state_q == S_PERM || (state_q == S_RUN && splat)) raddr_a_o = rowaddr(u.vs2, p_sbytes >> (DlenLg - 3));
    else if (state_q == S_FIN) raddr_a_o = rowaddr(u.vs2, 32'd0);
  end

  // ---------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------
  always_comb begin
    state_d   = state_q;
    g_d       = g_q;
    g_end_d   = g_end_q;
    evl_d     = evl_q;
    acc_d     = acc_q;
    found_d   = found_q;
    sat_d     = sat_q;
    flags_d   = flags_q;
    any_d     = any_q;
    div_started_d = div_started_q;
    div_start = 1'b0;
    we_o      = 1'b0;
    waddr_o   = rowaddr(u.vd, g_q);
    wdata_o   = lres;
    wbe_o     = ebe;
    done_o    = 1'b0;
    xres_o    = acc_q;
    lane_active_o = 1'b0;

    if (stall_i) begin
      // an operand row is not final yet: hold every state, write nothing
    end else unique case (state_q)
      S_IDLE: ;

      S_RUN: begin
        lane_active_o = (u.cls == VC_ALU) || (u.cls == VC_CMP);
        if (div_op && !(div_started_q && (&div_done_q))) begin
          // start every lane on this row, then wait until all have finished
          div_start     = !div_started_q;
          div_started_d = 1'b1;
        end else begin
        unique case (u.cls)
          VC_ALU: begin
            we_o    = 1'b1;
            sat_d   = sat_q | (!fp_op && (|(lsat & act)));
            flags_d = flags_q | row_flags;
            if (u.narrow) begin
              waddr_o = rowaddr(u.vd, g_q >> 1);
              wdata_o = nres;
              wbe_o   = nbe;
              sat_d   = sat_q | nsat;
            end
          end
          VC_CMP: begin
            logic [31:0] bit0;
            bit0    = g_q << epr_lg;
            we_o    = 1'b1;
            waddr_o = rowaddr(u.vd, bit0 >> DlenLg);
            wdata_o = DLEN'(lcmp) << (bit0 & (DLEN - 1));
            wbe_o   = DLEN'(act) << (bit0 & (DLEN - 1));
            flags_d = flags_q | row_flags;
          end
          VC_MASK: begin
            we_o    = 1'b1;
            wdata_o = mres;
            wbe_o   = bact;
          end
          VC_PERM: begin   // splat gather
            we_o    = 1'b1;
            wdata_o = {Lanes{replicate(p_val, eew)}};
            wbe_o   = ebe;
          end
          VC_RED: begin
            acc_d   = red_acc;
            found_d = 1'b1;   // vs1[0] consumed
            flags_d = flags_q | row_flags;
            any_d   = any_q | (|act);
          end
          VC_CPOP: acc_d = acc_q + pop_row;
          VC_FIRST: begin
            if (!found_q && first_hit) begin
              acc_d   = first_row;
              found_d = 1'b1;
            end
          end
          default: ;
        endcase
        div_started_d = 1'b0;
        g_d = g_q + 32'd1;
        if (g_q == g_end_q) begin
          // element-wise classes have nothing left for S_FIN: finish with the last row
          if (u.cls == VC_ALU || u.cls == VC_CMP || u.cls == VC_MASK || u.cls == VC_PERM) begin
            state_d = S_IDLE;
            done_o  = 1'b1;
          end else begin
            state_d = S_FIN;
          end
        end
        end
      end

      S_PERM: begin
        logic [31:0] dbit;
        dbit      = 8 * (p_dbytes & (DLEN / 8 - 1));
        we_o      = p_write;
        waddr_o   = rowaddr(u.vd, p_dbytes >> (DlenLg - 3));
        wdata_o   = DLEN'(p_val) << dbit;
        wbe_o     = DLEN'(emask) << dbit;
        unique case (u.op)
          VA_MSBF, VA_MSIF, VA_MSOF: begin
            logic res;
            res = (u.op == VA_MSBF) ? (!found_q && !m_bit)
                : (u.op == VA_MSIF) ? !found_q : (!found_q && m_bit);
            we_o    = p_active;
            waddr_o = rowaddr(u.vd, pi >> DlenLg);
            wdata_o = DLEN'(res) << pi[DlenLg-1:0];
            wbe_o   = DLEN'(1) << pi[DlenLg-1:0];
            if (p_active && m_bit) found_d = 1'b1;
          end
          VA_IOTA: begin
            we_o    = p_active;
            wdata_o = DLEN'(acc_q) << dbit;
            if (p_active && m_bit) acc_d = acc_q + 32'd1;
          end
          VA_COMPRESS: begin
            logic [31:0] cbytes;
            cbytes  = acc_q << eew;
            we_o    = m_bit;
            waddr_o = rowaddr(u.vd, cbytes >> (DlenLg - 3));
            wdata_o = DLEN'(p_val) << (8 * (cbytes & (DLEN / 8 - 1)));
            wbe_o   = DLEN'(emask) << (8 * (cbytes & (DLEN / 8 - 1)));
            if (m_bit) acc_d = acc_q + 32'd1;
          end
          default: ;
        endcase
        g_d       = g_q + 32'd1;
        if (g_q == g_end_q) state_d = S_FIN;
      end

      S_FIN: begin
        done_o = 1'b1;
        unique case (u.cls)
          VC_RED: begin
            we_o    = (evl_q != 32'd0);
            waddr_o = rowaddr(u.vd, 32'd0);
            wdata_o = DLEN'(acc_q);
            if (u.op == VF_RUSUM && !any_q && acc_q[30:23] == 8'hff && acc_q[22:0] != '0) begin
              // no active element: the NaN scalar is still added once (Spike), so it
              // comes out canonical and a signaling one raises NV
              wdata_o = DLEN'(fpu_pkg::CanonicalNaN);
              if (!acc_q[22] && evl_q != 32'd0) flags_d = flags_q | 5'b10000;
            end
            wbe_o   = u.wred ? DLEN'((eew == 2'd0) ? 32'h0000_ffff : 32'hffff_ffff) : DLEN'(emask);
          end
          VC_MVSX: begin
            we_o    = (evl_q != 32'd0) && (vstart < evl_q);
            waddr_o = rowaddr(u.vd, 32'd0);
            wdata_o = DLEN'((u.src == SRC_F) ? ins_q.frs1 : ins_q.rs1);
            wbe_o   = DLEN'(emask);
          end
          VC_MVXS: begin
            xres_o    = sext_elem(rdata_a_i[31:0], ins_q.sew);
          end
          default: ;
        endcase
        state_d = S_IDLE;
      end

      default: state_d = S_IDLE;
    endcase
  end

  assign busy_o   = (state_q != S_IDLE);
  assign ready_o  = (state_q == S_IDLE) || done_o;
  // the finishing row's flags are in the _d values
  assign vxsat_o  = sat_d;
  assign fflags_o = flags_d;

  logic take;
  assign take = start_i && ready_o;

  // operand ports this cycle reads (over-approximate; the scoreboard stalls on them)
  logic mac_op;
  assign mac_op = (u.op == VA_MACC) || (u.op == VA_NMSAC) || (u.op == VA_MADD) || (u.op == VA_NMSUB)
               || (u.op >= VF_MACC && u.op <= VF_NMSUB);
  always_comb begin
    rd_used_o = 3'b000;
    unique case (state_q)
      S_RUN: begin
        rd_used_o[0] = 1'b1;
        rd_used_o[1] = !((u.cls == VC_ALU || u.cls == VC_CMP) && (u.src != SRC_V || u.vid)) && !splat;
        rd_used_o[2] = mac_op;
      end
      S_PERM:  rd_used_o = 3'b011;
      S_FIN:   rd_used_o[0] = (u.cls == VC_MVXS);
      default: ;
    endcase
  end

  // Rows of vd below wfront_o are final. Element-wise classes write row g (narrowing:
  // row g/2, in two halves) at step g and never again; others only at the end.
  always_comb begin
    logic [31:0] r;
    r = 32'(u.vd) << RprLg;
    if (state_q == S_RUN && (u.cls == VC_ALU || u.cls == VC_MASK || u.cls == VC_PERM)) begin
      r = r + (u.narrow ? g_q >> 1 : g_q);
    end
    wfront_o = (RowW + 1)'(r);
  end

  // Performance events: a row is processed in S_RUN unless stalled or the divider
  // is still working on it (its elements count once, in the cycle the row is written).
  logic row_done;
  logic is_fma;
  logic [15:0] act_cnt;
  assign row_done = (state_q == S_RUN) && !stall_i && !(div_op && !(div_started_q && (&div_done_q)));
  assign is_fma   = u.op inside {VF_MACC, VF_NMACC, VF_MSAC, VF_NMSAC, VF_MADD, VF_NMADD, VF_MSUB, VF_NMSUB};
  always_comb begin
    act_cnt = '0;
    for (int unsigned k = 0; k < MaxElems; k++) act_cnt = act_cnt + 16'(act[k]);
  end
  assign perf_lane_ops_o = (row_done && (u.cls == VC_ALU || u.cls == VC_CMP || u.cls == VC_RED)) ? act_cnt : '0;
  assign perf_fma_ops_o  = (row_done && u.cls == VC_ALU && is_fma) ? act_cnt : '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ins_q   <= '0;
      state_q <= S_IDLE;
      g_q     <= '0;
      g_end_q <= '0;
      evl_q   <= '0;
      acc_q   <= '0;
      found_q <= 1'b0;
      sat_q   <= 1'b0;
      flags_q <= '0;
      any_q   <= 1'b0;
      div_started_q <= 1'b0;
      div_done_q    <= '0;
      div_res_q     <= '0;
      for (int unsigned l = 0; l < Lanes; l++) div_flg_q[l] <= '0;
    end else if (take) begin
      ins_q   <= ins_i;
      state_q <= istate;
      g_q     <= ig;
      g_end_q <= ig_end;
      evl_q   <= ievl;
      acc_q   <= (ui.cls == VC_FIRST) ? 32'hffff_ffff : 32'd0;
      found_q <= 1'b0;
      sat_q   <= 1'b0;
      flags_q <= '0;
      any_q   <= 1'b0;
      div_started_q <= 1'b0;
      div_done_q    <= '0;
      div_res_q     <= div_res_d;
      div_flg_q     <= div_flg_d;
    end else begin
      state_q <= state_d;
      g_q     <= g_d;
      g_end_q <= g_end_d;
      evl_q   <= evl_d;
      acc_q   <= acc_d;
      found_q <= found_d;
      sat_q   <= sat_d;
      flags_q <= flags_d;
      any_q   <= any_d;
      div_started_q <= div_started_d;
      div_done_q    <= (div_start || !div_started_d) ? '0 : div_done_d;
      div_res_q     <= div_res_d;
      div_flg_q     <= div_flg_d;
    end
  end

  logic unused;
  assign unused = ^{ins_q.seq, ins_q.rs2, ins_q.vl, ins_q.stop, ins_q.stop_i, ins_q.stop_f, u, ui, ins_i};

endmodule
