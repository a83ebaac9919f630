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
  input  logic            clk_i,            // in: clock (the unit's gated clock)
  input  logic            rst_ni,           // in: asynchronous reset, active low
  // instruction: taken when start_i && ready_o, kept in ins_q
  input  logic            start_i,          // in: the queue head starts here this cycle
  input  vinsn_t          ins_i,            // in: the queue head
  output logic            ready_o,          // out: idle, or finishing the current instruction
  input  logic            stall_i,          // in: hold this cycle (operand row not ready)
  output logic            busy_o,           // out: an instruction is held
  output logic            done_o,           // out: one cycle: the current instruction finishes
  output logic [31:0]     xres_o,           // out: x[rd]/f[rd] value (vmv.x.s, vcpop, vfirst, vfmv.f.s)
  output logic            vxsat_o,          // out: fixed-point saturation of the instruction
  output logic [4:0]      fflags_o,         // out: fflags of the instruction
  // register file
  output logic [RowW-1:0] raddr_a_o,        // out: row of read port a (vs2)
  input  logic [DLEN-1:0] rdata_a_i,        // in: that row
  output logic [RowW-1:0] raddr_b_o,        // out: row of read port b (vs1)
  input  logic [DLEN-1:0] rdata_b_i,        // in: that row
  output logic [RowW-1:0] raddr_c_o,        // out: row of read port c (vd, the addend)
  input  logic [DLEN-1:0] rdata_c_i,        // in: that row
  input  logic [VLEN-1:0] v0_i,             // in: v0 as a whole (mask, carries)
  output logic            we_o,             // out: write port 0 writes this cycle
  output logic [RowW-1:0] waddr_o,          // out: its row
  output logic [DLEN-1:0] wdata_o,          // out: its data
  output logic [DLEN-1:0] wbe_o,            // out: its per-bit enable
  // scoreboard: operand ports read this cycle, final-row frontier of vd
  output logic [2:0]      rd_used_o,        // out: read ports {c, b, a} in use this cycle
  output logic [RowW:0]   wfront_o,         // out: rows of vd below this one are final
  output logic            lane_active_o,    // out: the lanes do element-wise work this cycle
  // performance events (vec_pkg::vec_perf_t): active body elements of element-wise
  // work (ALU, compare, reduction rows) and of FP multiply-adds processed this cycle
  output logic [15:0]     perf_lane_ops_o,  // out: lane operations this cycle
  output logic [15:0]     perf_fma_ops_o    // out: FP multiply-adds this cycle
);

  localparam int unsigned Lanes      = DLEN / 32;
  localparam int unsigned RowsPerReg = VLEN / DLEN;
  localparam int unsigned RowsPerRegLg = $clog2(RowsPerReg);
  localparam int unsigned DlenLg     = $clog2(DLEN);
  localparam int unsigned MaxElems   = DLEN / 8;

  typedef enum logic [1:0] {StIdle, StRun, StPerm, StFin} state_e;

  state_e      state_q, state_d;
  logic [31:0] step_q, step_d;       // row step (StRun) or element index (StPerm)
  logic [31:0] last_step_q, last_step_d;
  logic [31:0] evl_q, evl_d;
  logic [31:0] acc_q, acc_d;       // reduction accumulator / vcpop count / vfirst index
  logic        found_q, found_d;   // vfirst found
  logic        saturated_q, saturated_d;
  logic [4:0]  flags_q, flags_d;   // accumulated fflags
  logic        any_active_q, any_active_d;   // an active element seen (fp reductions)

  vinsn_t      ins_q;
  vuop_t       uop;
  logic [1:0]  eew;
  logic [31:0] vstart;
  assign uop    = ins_q.uop;
  assign eew    = uop.narrow ? uop.eew + 2'd1 : uop.eew;   // element width in the lanes
  assign vstart = ins_q.vstart;

  logic [31:0] element_mask;   // low SEW bits
  assign element_mask = (eew == 2'd0) ? 32'h0000_00ff : (eew == 2'd1) ? 32'h0000_ffff : 32'hffff_ffff;

  logic bitwise;   // classes walking rows of 1-bit elements
  assign bitwise = (uop.cls == VC_MASK) || (uop.cls == VC_CPOP) || (uop.cls == VC_FIRST);

  // elements per row, log2
  logic [31:0] elements_per_row_lg;
  assign elements_per_row_lg = bitwise ? 32'(DlenLg) : 32'(DlenLg - 3) - 32'(eew);

  // VLMAX = LMUL*VLEN/SEW, for slides and gathers
  logic [31:0] vlmax;
  assign vlmax = vlmax_of($clog2(VLEN), ins_q.sew, ins_q.lmul);

  // Initial state of an instruction presented at start_i (from ins_i, since the
  // current one may still be finishing in ins_q)
  vuop_t       uop_in;
  logic [1:0]  eew_in;
  logic        bitwise_in;
  logic [31:0] evl_in, step_in, last_step_in;
  state_e      state_in;
  assign uop_in     = ins_i.uop;
  assign eew_in     = uop_in.narrow ? uop_in.eew + 2'd1 : uop_in.eew;
  assign bitwise_in = (uop_in.cls == VC_MASK) || (uop_in.cls == VC_CPOP) || (uop_in.cls == VC_FIRST);
  always_comb begin
    logic [31:0] lg;
    evl_in       = uop_in.whole ? (32'(uop_in.nregs) * VLEN) >> (3 + eew_in) : ins_i.vl;
    lg           = bitwise_in ? 32'(DlenLg) : 32'(DlenLg - 3) - 32'(eew_in);
    step_in      = ins_i.vstart >> lg;
    last_step_in = (evl_in - 32'd1) >> lg;
    if (uop_in.cls == VC_MVXS || uop_in.cls == VC_MVSX || evl_in == 32'd0 || ins_i.vstart >= evl_in) begin
      state_in = StFin;
    end else if (uop_in.cls == VC_PERM && !is_splat_op(uop_in.cls, uop_in.op, uop_in.src)) begin
      // element-serial; a gather with a scalar index (a splat) runs row by row in StRun
      step_in      = ins_i.vstart;
      last_step_in = evl_in - 32'd1;
      state_in     = StPerm;
    end else begin
      state_in = StRun;
    end
  end

  function automatic logic [RowW-1:0] row_address(logic [4:0] vreg, logic [31:0] rel_row);
    return RowW'((32'(vreg) << RowsPerRegLg) + rel_row);
  endfunction

  function automatic logic [31:0] sext_elem(logic [31:0] x, logic [1:0] w);
    unique case (w)
      2'd0:    return 32'($signed(x[7:0]));
      2'd1:    return 32'($signed(x[15:0]));
      default: return x;
    endcase
  endfunction

  // ---------------------------------------------------------------------------
  // Row datapath (StRun): operand rows and element activity of step step_q
  // (vec_operands.sv), the lanes, and the per-class results below
  // ---------------------------------------------------------------------------
  logic [MaxElems-1:0] active;       // element k of the row is written
  logic [MaxElems-1:0] v0_bits;      // v0 bit of element k
  logic [DLEN-1:0]     bit_active;   // bitwise classes: bit b active
  logic [DLEN-1:0]     a_row, b_row;
  vec_operands #(.VLEN(VLEN), .DLEN(DLEN)) u_operands (
    .uop_i            (uop),
    .eew_i            (eew),
    .bitwise_i        (bitwise),
    .elements_lg_i    (elements_per_row_lg),
    .step_i           (step_q),
    .vstart_i         (vstart),
    .evl_i            (evl_q),
    .rs1_i            (ins_q.rs1),
    .frs1_i           (ins_q.frs1),
    .rdata_a_i        (rdata_a_i),
    .rdata_b_i        (rdata_b_i),
    .v0_i             (v0_i),
    .active_o         (active),
    .v0_bits_o        (v0_bits),
    .bit_active_o     (bit_active),
    .a_row_o          (a_row),
    .b_row_o          (b_row)
  );

  logic take;   // the next instruction is latched this cycle
  assign take = start_i && ready_o;

  // the lanes (vec_lanes.sv): integer, FP (chained in reductions) and dividers
  logic                fp_op, fp_reduce, div_op, div_ready;
  logic                row_step, divide_wait, row_consumed;
  logic [31:0]         reduce_init, fp_chain;
  logic [DLEN-1:0]     lane_result;
  logic [MaxElems-1:0] lane_compare, lane_saturate;
  logic [4:0]          row_flags;
  assign fp_op        = is_fp_op(uop.op);
  assign fp_reduce       = fp_op && (uop.cls == VC_RED);
  assign div_op       = is_divsqrt_op(uop.op);
  // a row is processed in StRun unless stalled or the dividers still work on it
  assign row_step     = (state_q == StRun) && !stall_i;
  assign divide_wait  = row_step && div_op && !div_ready;
  assign row_consumed = row_step && !(div_op && !div_ready);
  vec_lanes #(.DLEN(DLEN)) u_lanes (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .op_i           (uop.op),
    .eew_i          (eew),
    .narrow16_i     (uop.narrow),
    .use_carry_i    (uop.mask_op),
    .vxrm_i         (ins_q.vxrm),
    .frm_i          (ins_q.frm),
    .fp_reduce_i    (fp_reduce),
    .chain_init_i   (reduce_init),
    .a_i            (a_row),
    .b_i            (b_row),
    .c_i            (rdata_c_i),
    .reduce_i       (rdata_a_i),
    .active_i       (active),
    .carry_i        (v0_bits),
    .clear_i        (take),
    .divide_wait_i  (divide_wait),
    .row_consumed_i (row_consumed),
    .result_o       (lane_result),
    .compare_o      (lane_compare),
    .saturate_o     (lane_saturate),
    .fflags_o       (row_flags),
    .chain_o        (fp_chain),
    .row_ready_o    (div_ready)
  );

  // per-bit write enable of a SEW row from per-element activity
  logic [DLEN-1:0] element_wbe;
  always_comb begin
    for (int unsigned b = 0; b < DLEN; b++) element_wbe[b] = active[b >> (3 + eew)];
  end

  // narrowing: the 2*SEW lane results packed to SEW into half a destination row
  logic [DLEN-1:0] narrow_wdata, narrow_wbe;
  logic            narrow_sat;
  vec_narrow #(.DLEN(DLEN)) u_narrow (
    .lanes_i  (lane_result),
    .eew_i    (eew),
    .clip_i   (uop.clip),
    .signed_i (uop.op == VA_SSRA),
    .active_i (active),
    .half_i   (step_q[0]),
    .wdata_o  (narrow_wdata),
    .wbe_o    (narrow_wbe),
    .sat_o    (narrow_sat)
  );

  // mask logical
  logic [DLEN-1:0] mask_result;
  always_comb begin
    logic [DLEN-1:0] x, y;
    x = rdata_a_i;   // vs2
    y = rdata_b_i;   // vs1
    unique case (uop.op)
      VA_MANDN: mask_result = x & ~y;
      VA_MAND:  mask_result = x & y;
      VA_MOR:   mask_result = x | y;
      VA_MXOR:  mask_result = x ^ y;
      VA_MORN:  mask_result = x | ~y;
      VA_MNAND: mask_result = ~(x & y);
      VA_MNOR:  mask_result = ~(x | y);
      default:  mask_result = ~(x ^ y);
    endcase
  end

  // reduction over the active elements of the row; vcpop / vfirst over the row
  logic [31:0] reduce_result;
  logic [31:0] row_population;
  logic [31:0] row_first;
  logic        row_first_hit;
  assign reduce_init = !found_q ? rdata_b_i[31:0] : acc_q;   // vs1[0] on the first row
  vec_reduce #(.DLEN(DLEN)) u_reduce (
    .op_i         (uop.op),
    .eew_i        (eew),
    .widen_i      (uop.wred),
    .signed_i     (uop.a_sgn),
    .active_i     (active),
    .bit_active_i (bit_active),
    .rdata_a_i    (rdata_a_i),
    .init_i       (reduce_init),
    .fp_i         (fp_reduce),
    .fp_chain_i   (fp_chain),
    .row_i        (step_q),
    .accumulate_o (reduce_result),
    .population_o (row_population),
    .first_o      (row_first),
    .first_hit_o  (row_first_hit)
  );

  // ---------------------------------------------------------------------------
  // Element-serial permutation datapath (StPerm: element step_q; vec_perm.sv)
  // ---------------------------------------------------------------------------
  logic            splat;   // vrgather.vx/.vi: a whole row per cycle in StRun (vec_perm.sv)
  logic [31:0]     perm_source_row, perm_index_row, perm_value, perm_write_row;
  logic            perm_we, perm_found_set, perm_count_inc;
  logic [DLEN-1:0] perm_wdata, perm_wbe;
  assign splat = is_splat_op(uop.cls, uop.op, uop.src);
  vec_perm #(.VLEN(VLEN), .DLEN(DLEN)) u_perm (
    .uop_i        (uop),
    .eew_i        (eew),
    .rs1_i        (ins_q.rs1),
    .frs1_i       (ins_q.frs1),
    .vstart_i     (vstart),
    .evl_i        (evl_q),
    .vlmax_i      (vlmax),
    .index_i      (step_q),
    .found_i      (found_q),
    .count_i      (acc_q),
    .rdata_a_i    (rdata_a_i),
    .rdata_b_i    (rdata_b_i),
    .v0_i         (v0_i),
    .source_row_o (perm_source_row),
    .index_row_o  (perm_index_row),
    .value_o      (perm_value),
    .we_o         (perm_we),
    .write_row_o  (perm_write_row),
    .wdata_o      (perm_wdata),
    .wbe_o        (perm_wbe),
    .found_set_o  (perm_found_set),
    .count_inc_o  (perm_count_inc)
  );

  // ---------------------------------------------------------------------------
  // Register-file read addresses
  // ---------------------------------------------------------------------------
  always_comb begin
    raddr_b_o = row_address(uop.vs1, step_q >> uop.b_frac);
    raddr_c_o = row_address(uop.vd, step_q);
    if (state_q == StPerm) begin
      raddr_b_o = row_address(uop.vs1, perm_index_row);
    end else if (uop.cls == VC_RED) begin
      raddr_b_o = row_address(uop.vs1, 32'd0);
    end
  end
  always_comb begin
    raddr_a_o = row_address(uop.vs2, step_q >> uop.a_frac);
    if (state_q == StPerm || (state_q == StRun && splat)) raddr_a_o = row_address(uop.vs2, perm_source_row);
    else if (state_q == StFin) raddr_a_o = row_address(uop.vs2, 32'd0);
  end

  // ---------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------
  always_comb begin
    state_d   = state_q;
    step_d       = step_q;
    last_step_d   = last_step_q;
    evl_d     = evl_q;
    acc_d     = acc_q;
    found_d   = found_q;
    saturated_d     = saturated_q;
    flags_d   = flags_q;
    any_active_d     = any_active_q;
    we_o      = 1'b0;
    waddr_o   = row_address(uop.vd, step_q);
    wdata_o   = lane_result;
    wbe_o     = element_wbe;
    done_o    = 1'b0;
    xres_o    = acc_q;
    lane_active_o = 1'b0;

    if (stall_i) begin
      // an operand row is not final yet: hold every state, write nothing
    end else unique case (state_q)
      StIdle: ;

      StRun: begin
        lane_active_o = (uop.cls == VC_ALU) || (uop.cls == VC_CMP);
        if (divide_wait) begin
          // the dividers work on this row (vec_lanes starts them once): wait for all
        end else begin
        unique case (uop.cls)
          VC_ALU: begin
            we_o    = 1'b1;
            saturated_d   = saturated_q | (!fp_op && (|(lane_saturate & active)));
            flags_d = flags_q | row_flags;
            if (uop.narrow) begin
              waddr_o = row_address(uop.vd, step_q >> 1);
              wdata_o = narrow_wdata;
              wbe_o   = narrow_wbe;
              saturated_d   = saturated_q | narrow_sat;
            end
          end
          VC_CMP: begin
            logic [31:0] bit0;
            bit0    = step_q << elements_per_row_lg;
            we_o    = 1'b1;
            waddr_o = row_address(uop.vd, bit0 >> DlenLg);
            wdata_o = DLEN'(lane_compare) << (bit0 & (DLEN - 1));
            wbe_o   = DLEN'(active) << (bit0 & (DLEN - 1));
            flags_d = flags_q | row_flags;
          end
          VC_MASK: begin
            we_o    = 1'b1;
            wdata_o = mask_result;
            wbe_o   = bit_active;
          end
          VC_PERM: begin   // splat gather
            we_o    = 1'b1;
            wdata_o = {Lanes{replicate(perm_value, eew)}};
            wbe_o   = element_wbe;
          end
          VC_RED: begin
            acc_d   = reduce_result;
            found_d = 1'b1;   // vs1[0] consumed
            flags_d = flags_q | row_flags;
            any_active_d   = any_active_q | (|active);
          end
          VC_CPOP: acc_d = acc_q + row_population;
          VC_FIRST: begin
            if (!found_q && row_first_hit) begin
              acc_d   = row_first;
              found_d = 1'b1;
            end
          end
          default: ;
        endcase
        step_d = step_q + 32'd1;
        if (step_q == last_step_q) begin
          // element-wise classes have nothing left for StFin: finish with the last row
          if (uop.cls == VC_ALU || uop.cls == VC_CMP || uop.cls == VC_MASK || uop.cls == VC_PERM) begin
            state_d = StIdle;
            done_o  = 1'b1;
          end else begin
            state_d = StFin;
          end
        end
        end
      end

      StPerm: begin
        we_o    = perm_we;
        waddr_o = row_address(uop.vd, perm_write_row);
        wdata_o = perm_wdata;
        wbe_o   = perm_wbe;
        if (perm_found_set) found_d = 1'b1;
        if (perm_count_inc) acc_d = acc_q + 32'd1;
        step_d = step_q + 32'd1;
        if (step_q == last_step_q) state_d = StFin;
      end

      StFin: begin
        done_o = 1'b1;
        unique case (uop.cls)
          VC_RED: begin
            we_o    = (evl_q != 32'd0);
            waddr_o = row_address(uop.vd, 32'd0);
            wdata_o = DLEN'(acc_q);
            if (uop.op == VF_RUSUM && !any_active_q && acc_q[30:23] == 8'hff && acc_q[22:0] != '0) begin
              // no active element: the NaN scalar is still added once (Spike), so it
              // comes out canonical and a signaling one raises NV
              wdata_o = DLEN'(fpu_pkg::CanonicalNaN);
              if (!acc_q[22] && evl_q != 32'd0) flags_d = flags_q | 5'b10000;
            end
            wbe_o   = uop.wred ? DLEN'((eew == 2'd0) ? 32'h0000_ffff : 32'hffff_ffff) : DLEN'(element_mask);
          end
          VC_MVSX: begin
            we_o    = (evl_q != 32'd0) && (vstart < evl_q);
            waddr_o = row_address(uop.vd, 32'd0);
            wdata_o = DLEN'((uop.src == SRC_F) ? ins_q.frs1 : ins_q.rs1);
            wbe_o   = DLEN'(element_mask);
          end
          VC_MVXS: begin
            xres_o    = sext_elem(rdata_a_i[31:0], ins_q.sew);
          end
          default: ;
        endcase
        state_d = StIdle;
      end

      default: state_d = StIdle;
    endcase
  end

  assign busy_o   = (state_q != StIdle);
  assign ready_o  = (state_q == StIdle) || done_o;
  // the finishing row's flags are in the _d values
  assign vxsat_o  = saturated_d;
  assign fflags_o = flags_d;

  // operand ports this cycle reads (over-approximate; the scoreboard stalls on them)
  logic multiply_add;
  assign multiply_add = is_multiply_add(uop.op);
  always_comb begin
    rd_used_o = 3'b000;
    unique case (state_q)
      StRun: begin
        rd_used_o[0] = 1'b1;
        rd_used_o[1] = !((uop.cls == VC_ALU || uop.cls == VC_CMP) && (uop.src != SRC_V || uop.vid)) && !splat;
        rd_used_o[2] = multiply_add;
      end
      StPerm:  rd_used_o = 3'b011;
      StFin:   rd_used_o[0] = (uop.cls == VC_MVXS);
      default: ;
    endcase
  end

  // Rows of vd below wfront_o are final. Element-wise classes write row g (narrowing:
  // row g/2, in two halves) at step g and never again; others only at the end.
  always_comb begin
    logic [31:0] r;
    r = 32'(uop.vd) << RowsPerRegLg;
    if (state_q == StRun && (uop.cls == VC_ALU || uop.cls == VC_MASK || uop.cls == VC_PERM)) begin
      r = r + (uop.narrow ? step_q >> 1 : step_q);
    end
    wfront_o = (RowW + 1)'(r);
  end

  // Performance events: a row is processed in StRun unless stalled or the divider
  // is still working on it (its elements count once, in the cycle the row is written).
  logic row_done;
  logic is_fma;
  logic [15:0] active_count;
  assign row_done = row_consumed;
  assign is_fma   = uop.op inside {VF_MACC, VF_NMACC, VF_MSAC, VF_NMSAC, VF_MADD, VF_NMADD, VF_MSUB, VF_NMSUB};
  always_comb begin
    active_count = '0;
    for (int unsigned k = 0; k < MaxElems; k++) active_count = active_count + 16'(active[k]);
  end
  assign perf_lane_ops_o = (row_done && (uop.cls == VC_ALU || uop.cls == VC_CMP || uop.cls == VC_RED)) ? active_count : '0;
`ifdef COSIM_MUTATION_EXTRA_FMA
  // Test-only mutation (tests/test_rtl_assertions.py): a row of multiply-adds on every
  // lane reports one more than there are lanes. Results stay right; only FmaWithinLanes
  // sees it (the test raises the test bench's own width bound, +perf_max_fma).
  assign perf_fma_ops_o  = (row_done && uop.cls == VC_ALU && is_fma)
                         ? active_count + 16'(active_count == 16'(Lanes)) : '0;
`else
  assign perf_fma_ops_o  = (row_done && uop.cls == VC_ALU && is_fma) ? active_count : '0;
`endif

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ins_q        <= '0;
      state_q      <= StIdle;
      step_q       <= '0;
      last_step_q  <= '0;
      evl_q        <= '0;
      acc_q        <= '0;
      found_q      <= 1'b0;
      saturated_q  <= 1'b0;
      flags_q      <= '0;
      any_active_q <= 1'b0;
    end else if (take) begin
      ins_q        <= ins_i;
      state_q      <= state_in;
      step_q       <= step_in;
      last_step_q  <= last_step_in;
      evl_q        <= evl_in;
      acc_q        <= (uop_in.cls == VC_FIRST) ? 32'hffff_ffff : 32'd0;
      found_q      <= 1'b0;
      saturated_q  <= 1'b0;
      flags_q      <= '0;
      any_active_q <= 1'b0;
    end else begin
      state_q      <= state_d;
      step_q       <= step_d;
      last_step_q  <= last_step_d;
      evl_q        <= evl_d;
      acc_q        <= acc_d;
      found_q      <= found_d;
      saturated_q  <= saturated_d;
      flags_q      <= flags_d;
      any_active_q <= any_active_d;
    end
  end

`ifdef COSIM_ASSERT
  // Assertions (sim/rtl/vector/README.md "Assertions"): each message states the rule.
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));

  // Each lane does at most one multiply-add per cycle.
  FmaWithinLanes: assert property (@(posedge clk_i) disable iff (!checking)
      perf_fma_ops_o <= 16'(Lanes))
    else $error("more FP multiply-adds in one cycle than lanes");
  // The top hands over an instruction only when the sequencer takes it (no drop).
  StartWhenReady: assert property (@(posedge clk_i) disable iff (!checking) start_i |-> ready_o)
    else $error("instruction started while the sequencer was not ready");
  // Every write lands in the instruction's own destination register group, which
  // the scoreboard reserved for it (no write to a group another instruction owns).
  WriteInOwnGroup: assert property (@(posedge clk_i) disable iff (!checking)
      we_o |-> 32'(waddr_o) >= (32'(uop.vd) << RowsPerRegLg)
            && 32'(waddr_o) < (32'(destination_end(ins_q)) << RowsPerRegLg))
    else $error("sequencer write outside its instruction's destination register group");
`endif

  logic unused;
  assign unused = ^{ins_q.seq, ins_q.rs2, ins_q.vl, ins_q.stop, ins_q.stop_i, ins_q.stop_f, uop, uop_in, ins_i};

endmodule
