// The sequencer's lanes for one DLEN-bit row: Lanes 32-bit integer lanes (vec_lane),
// Lanes binary32 lanes (vec_fp_lane, chained in element order for FP reductions) and
// one iterative divider per lane (fpu_divsqrt). Gives the row result of the
// instruction's operation, the per-element compare and saturation bits in element
// order and the row's fflags over the active elements.
//
// Dividers: while divide_wait_i (a divide row is due and not ready) the lanes start
// on the row once and hold their results until every lane is done (row_ready_o);
// row_consumed_i (the sequencer moved past the row) arms the next start.
module vec_lanes
  import vec_pkg::*;
#(
  parameter int unsigned DLEN = 64,
  localparam int unsigned Lanes    = DLEN / 32,
  localparam int unsigned MaxElems = DLEN / 8
) (
  input  logic                clk_i,           // in: clock
  input  logic                rst_ni,          // in: asynchronous reset, active low
  input  valu_e               op_i,            // in: element operation
  input  logic [1:0]          eew_i,           // in: element width in the lanes, log2(bytes)
  input  logic                narrow16_i,      // in: FP narrowing conversion (16-bit results)
  input  logic                use_carry_i,     // in: v0 is an operand (vadc, vmerge)
  input  logic [1:0]          vxrm_i,          // in: fixed-point rounding mode
  input  logic [2:0]          frm_i,           // in: FP rounding mode
  input  logic                fp_reduce_i,     // in: an FP reduction: chain the lanes
  input  logic [31:0]         chain_init_i,    // in: running value entering lane 0 (reductions)
  input  logic [DLEN-1:0]     a_i,             // in: operand a row (vs2, widened)
  input  logic [DLEN-1:0]     b_i,             // in: operand b row (vs1, scalar or index)
  input  logic [DLEN-1:0]     c_i,             // in: operand c row (vd, multiply-adds)
  input  logic [DLEN-1:0]     reduce_i,        // in: vs2 row folded by FP reductions
  input  logic [MaxElems-1:0] active_i,        // in: element k of the row is in the body
  input  logic [MaxElems-1:0] carry_i,         // in: v0 bit of element k
  input  logic                clear_i,         // in: a new instruction starts (dividers idle)
  input  logic                divide_wait_i,   // in: a divide row is due and not ready
  input  logic                row_consumed_i,  // in: the sequencer moved past this row
  output logic [DLEN-1:0]     result_o,        // out: row result of op_i
  output logic [MaxElems-1:0] compare_o,       // out: compare bit of element k
  output logic [MaxElems-1:0] saturate_o,      // out: saturation bit of element k
  output logic [4:0]          fflags_o,        // out: fflags ORed over the active elements
  output logic [31:0]         chain_o,         // out: running value leaving the last lane
  output logic                row_ready_o      // out: the dividers finished the row
);

  // integer lanes
  logic [DLEN-1:0]    int_result;
  logic [4*Lanes-1:0] lane_compare, lane_saturate;
  for (genvar l = 0; l < Lanes; l++) begin : g_lane
    logic [3:0] carry;
    always_comb begin
      unique case (eew_i)
        2'd0:    carry = carry_i[4*l +: 4];
        2'd1:    carry = {2'b00, carry_i[2*l +: 2]};
        default: carry = {3'b000, carry_i[l]};
      endcase
    end
    vec_lane u_lane (
      .op_i      (op_i),
      .sew_i     (eew_i),
      .a_i       (a_i[32*l +: 32]),
      .b_i       (b_i[32*l +: 32]),
      .c_i       (c_i[32*l +: 32]),
      .cin_i     (carry),
      .use_cin_i (use_carry_i),
      .vxrm_i    (vxrm_i),
      .res_o     (int_result[32*l +: 32]),
      .cmp_o     (lane_compare[4*l +: 4]),
      .sat_o     (lane_saturate[4*l +: 4])
    );
  end

  // floating-point lanes (SEW=32: element k of a row is lane k). In reductions
  // the lanes form a chain: lane l adds (or min/max-es) its element to the value
  // from lane l-1 when the element is active.
  logic             fp_op;
  logic [31:0]      chain [Lanes+1];
  logic [DLEN-1:0]  fp_result;
  logic [Lanes-1:0] fp_compare;
  logic [4:0]       fp_flags [Lanes];
  assign fp_op    = is_fp_op(op_i);
  assign chain[0] = chain_init_i;
  for (genvar l = 0; l < Lanes; l++) begin : g_fp_lane
    logic [31:0] fa, fb;
    assign fa = fp_reduce_i ? chain[l] : a_i[32*l +: 32];
    assign fb = fp_reduce_i ? reduce_i[32*l +: 32] : b_i[32*l +: 32];
    vec_fp_lane u_fp_lane (
      .op_i       (op_i),
      .frm_i      (frm_i),
      .a_i        (fa),
      .b_i        (fb),
      .c_i        (c_i[32*l +: 32]),
      .narrow16_i (narrow16_i),
      .res_o      (fp_result[32*l +: 32]),
      .cmp_o      (fp_compare[l]),
      .fflags_o   (fp_flags[l])
    );
    assign chain[l+1] = active_i[l] ? fp_result[32*l +: 32] : chain[l];
  end
  assign chain_o = chain[Lanes];

  // divide / square root: one fpu_divsqrt per lane; a row waits for every lane
  logic             div_op;
  logic             div_started_q, div_started_d;
  logic [Lanes-1:0] div_done_q, div_done_d;
  logic [DLEN-1:0]  div_result_q, div_result_d;
  logic [4:0]       div_flags_q [Lanes];
  logic [4:0]       div_flags_d [Lanes];
  logic             div_start;
  logic [Lanes-1:0] div_lane_done;
  logic [31:0]      div_lane_result [Lanes];
  logic [4:0]       div_lane_flags [Lanes];
  assign div_op        = is_divsqrt_op(op_i);
  assign row_ready_o   = div_started_q && (&div_done_q);
  assign div_start     = divide_wait_i && !div_started_q;
  assign div_started_d = divide_wait_i ? 1'b1 : row_consumed_i ? 1'b0 : div_started_q;
  for (genvar l = 0; l < Lanes; l++) begin : g_div_lane
    logic div_busy;
    fpu_divsqrt u_divsqrt (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .start_i  (div_start),
      .sqrt_i   (op_i == VF_SQRT),
      .a_i      ((op_i == VF_RDIV) ? b_i[32*l +: 32] : a_i[32*l +: 32]),
      .b_i      ((op_i == VF_RDIV) ? a_i[32*l +: 32] : b_i[32*l +: 32]),
      .rm_i     (frm_i),
      .busy_o   (div_busy),
      .done_o   (div_lane_done[l]),
      .result_o (div_lane_result[l]),
      .fflags_o (div_lane_flags[l])
    );
    logic unused_div;
    assign unused_div = div_busy;
  end
  always_comb begin
    div_done_d   = div_done_q;
    div_result_d = div_result_q;
    div_flags_d  = div_flags_q;
    for (int unsigned l = 0; l < Lanes; l++) begin
      if (div_lane_done[l]) begin
        div_done_d[l]            = 1'b1;
        div_result_d[32*l +: 32] = div_lane_result[l];
        div_flags_d[l]           = div_lane_flags[l];
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      div_started_q <= 1'b0;
      div_done_q    <= '0;
      div_result_q  <= '0;
      for (int unsigned l = 0; l < Lanes; l++) div_flags_q[l] <= '0;
    end else if (clear_i) begin
      div_started_q <= 1'b0;
      div_done_q    <= '0;
      div_result_q  <= div_result_d;
      div_flags_q   <= div_flags_d;
    end else begin
      div_started_q <= div_started_d;
      div_done_q    <= (div_start || !div_started_d) ? '0 : div_done_d;
      div_result_q  <= div_result_d;
      div_flags_q   <= div_flags_d;
    end
  end

  assign result_o = div_op ? div_result_q : fp_op ? fp_result : int_result;
  always_comb begin
    fflags_o = '0;
    for (int unsigned l = 0; l < Lanes; l++) begin
      if (fp_op && active_i[l]) fflags_o = fflags_o | (div_op ? div_flags_q[l] : fp_flags[l]);
    end
  end

  // per-element compare / saturation bits in element order
  always_comb begin
    compare_o  = '0;
    saturate_o = '0;
    for (int unsigned l = 0; l < Lanes; l++) begin
      unique case (eew_i)
        2'd0: begin
          compare_o[4*l +: 4]  = lane_compare[4*l +: 4];
          saturate_o[4*l +: 4] = lane_saturate[4*l +: 4];
        end
        2'd1: begin
          compare_o[2*l +: 2]  = lane_compare[4*l +: 2];
          saturate_o[2*l +: 2] = lane_saturate[4*l +: 2];
        end
        default: begin
          compare_o[l]  = lane_compare[4*l];
          saturate_o[l] = lane_saturate[4*l];
        end
      endcase
    end
    if (fp_op) compare_o = MaxElems'(fp_compare);
  end

endmodule
