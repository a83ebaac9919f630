// Iterative binary32 divide and square root: one quotient/root bit per cycle
// (restoring recurrences), 26 bits (24 + guard + one for the quotient's possible
// leading zero), remainder != 0 as sticky, one rounding by fpu_pkg::fp_round.
// Special operands (NaN, infinities, zeros, negative sqrt) finish in one cycle.
//
// Handshake: start_i is taken whenever busy_o is low (also in the cycle done_o is
// high). done_o pulses one cycle with result_o/fflags_o valid (zero otherwise).
// Operand decode and rounding are functions evaluated only in the start and done
// cycles, so a Verilator model does not pay for them while idle.
module fpu_divsqrt
  import fpu_pkg::*;
(
  input  logic        clk_i,     // clock
  input  logic        rst_ni,    // asynchronous reset, active low (idle)
  input  logic        start_i,   // take the operands and start (when !busy_o)
  input  logic        sqrt_i,    // 1: sqrt(a_i), 0: a_i / b_i
  input  logic [31:0] a_i,       // dividend / radicand
  input  logic [31:0] b_i,       // divisor
  input  logic [2:0]  rm_i,      // resolved rounding mode
  output logic        busy_o,    // iterating
  output logic        done_o,    // one cycle: result_o and fflags_o are valid
  output logic [31:0] result_o,  // quotient / root
  output logic [4:0]  fflags_o   // its exception flags
);

  localparam int unsigned QBits = 26;

  typedef enum logic [1:0] {StIdle, StIter, StDone} state_e;

  // --- operand decode at start ---------------------------------------------------
  typedef struct packed {
    logic                   special;      // answer known without iterating
    logic [31:0]            special_res;
    logic [4:0]             special_flags;
    logic                   sign;
    logic signed [ExpW-1:0] exp;          // biased exponent of the 2^0 quotient/root bit
    logic [QBits+1:0]       rem;          // initial partial remainder
    logic [23:0]            divisor;
    logic [2*QBits-1:0]     radicand;
  } start_t;

  function automatic start_t decode(logic [31:0] a, logic [31:0] b, logic sqrt);
    start_t                 s;
    // is_sub is unused: subnormals are normalized like any other significand
    /* verilator lint_off UNUSEDSIGNAL */
    fp_info_t               ia, ib;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [4:0]             lza, lzb;
    logic [23:0]            ma, mb;
    logic signed [ExpW-1:0] ea, eb, e_unb, e_even;

    ia  = fp_classify(a);
    ib  = fp_classify(b);
    lza = lzc24(ia.mant);
    lzb = lzc24(ib.mant);
    ma  = ia.mant << lza;  // subnormals normalized, exponent may go below 1
    mb  = ib.mant << lzb;
    ea  = $signed({5'b0, ia.exp}) - $signed({8'b0, lza});
    eb  = $signed({5'b0, ib.exp}) - $signed({8'b0, lzb});

    s.special       = 1'b1;
    s.special_res   = CanonicalNaN;
    s.special_flags = 5'd0;
    if (sqrt) begin
      if (ia.is_nan) begin
        s.special_flags[FlagNV] = ia.is_snan;
      end else if (ia.is_zero) begin
        s.special_res = a;  // sqrt(+-0) = +-0
      end else if (ia.sign) begin
        s.special_flags[FlagNV] = 1'b1;  // negative (including -inf)
      end else if (ia.is_inf) begin
        s.special_res = PosInf;
      end else begin
        s.special = 1'b0;
      end
    end else begin
      if (ia.is_nan | ib.is_nan) begin
        s.special_flags[FlagNV] = ia.is_snan | ib.is_snan;
      end else if ((ia.is_inf & ib.is_inf) | (ia.is_zero & ib.is_zero)) begin
        s.special_flags[FlagNV] = 1'b1;
      end else if (ia.is_inf) begin
        s.special_res = {ia.sign ^ ib.sign, PosInf[30:0]};
      end else if (ib.is_zero) begin
        s.special_res           = {ia.sign ^ ib.sign, PosInf[30:0]};
        s.special_flags[FlagDZ] = 1'b1;
      end else if (ia.is_zero | ib.is_inf) begin
        s.special_res = {ia.sign ^ ib.sign, 31'd0};
      end else begin
        s.special = 1'b0;
      end
    end

    // Square root: make the unbiased exponent even; the radicand then holds the
    // significand (doubled when the exponent was odd) scaled by 2^50, so the
    // integer root has its MSB at bit QBits-1.
    e_unb      = ea - ExpW'(127);
    e_even     = e_unb[0] ? e_unb - ExpW'(1) : e_unb;
    s.radicand = e_unb[0] ? {ma, 28'b0} : {1'b0, ma, 27'b0};
    s.divisor  = mb;
    s.rem      = sqrt ? '0 : {4'b0, ma};
    s.sign     = sqrt ? 1'b0 : ia.sign ^ ib.sign;
    s.exp      = sqrt ? (e_even >>> 1) + ExpW'(127) : ea - eb + ExpW'(127);
    return s;
  endfunction

  // --- iteration state -----------------------------------------------------------
  state_e                 state_q, state_d;
  logic [4:0]             count_q, count_d;
  logic                   sqrt_q, sqrt_d;
  logic                   sign_q, sign_d;
  logic signed [ExpW-1:0] exp_q, exp_d;
  logic [2:0]             rm_q, rm_d;
  logic [QBits+1:0]       rem_q, rem_d;      // partial remainder
  logic [QBits-1:0]       quo_q, quo_d;      // quotient / root bits so far
  logic [2*QBits-1:0]     rad_q, rad_d;      // sqrt radicand bits still to bring down
  logic [23:0]            divisor_q, divisor_d;
  logic                   special_q, special_d;
  logic [31:0]            spec_res_q, spec_res_d;
  logic [4:0]             spec_flags_q, spec_flags_d;

  // One recurrence step on the current state.
  logic [QBits+1:0] div_trial, sqrt_rem_in, sqrt_trial;
  logic             div_ge, sqrt_ge;

  assign div_trial   = rem_q - {4'b0, divisor_q};
  assign div_ge      = rem_q >= {4'b0, divisor_q};
  assign sqrt_rem_in = {rem_q[QBits-1:0], rad_q[2*QBits-1 -: 2]};
  assign sqrt_trial  = {quo_q, 2'b01};
  assign sqrt_ge     = sqrt_rem_in >= sqrt_trial;

  start_t st;

  always_comb begin
    st           = '0;
    state_d      = state_q;
    count_d      = count_q;
    sqrt_d       = sqrt_q;
    sign_d       = sign_q;
    exp_d        = exp_q;
    rm_d         = rm_q;
    rem_d        = rem_q;
    quo_d        = quo_q;
    rad_d        = rad_q;
    divisor_d    = divisor_q;
    special_d    = special_q;
    spec_res_d   = spec_res_q;
    spec_flags_d = spec_flags_q;

    unique case (state_q)
      StIter: begin
        if (sqrt_q) begin
          rem_d = sqrt_ge ? sqrt_rem_in - sqrt_trial : sqrt_rem_in;
          quo_d = {quo_q[QBits-2:0], sqrt_ge};
          rad_d = rad_q << 2;
        end else begin
          rem_d = (div_ge ? div_trial : rem_q) << 1;
          quo_d = {quo_q[QBits-2:0], div_ge};
        end
        count_d = count_q - 5'd1;
        if (count_q == 5'd0) begin
          state_d = StDone;
        end
      end
      default: begin  // StIdle, StDone
        state_d = StIdle;
      end
    endcase

    if (start_i && state_q != StIter) begin
      st           = decode(a_i, b_i, sqrt_i);
      sqrt_d       = sqrt_i;
      rm_d         = rm_i;
      special_d    = st.special;
      spec_res_d   = st.special_res;
      spec_flags_d = st.special_flags;
      count_d      = 5'(QBits - 1);
      quo_d        = '0;
      divisor_d    = st.divisor;
      rad_d        = st.radicand;
      rem_d        = st.rem;
      sign_d       = st.sign;
      exp_d        = st.exp;
      state_d      = st.special ? StDone : StIter;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= StIdle;
      count_q      <= '0;
      sqrt_q       <= 1'b0;
      sign_q       <= 1'b0;
      exp_q        <= '0;
      rm_q         <= '0;
      rem_q        <= '0;
      quo_q        <= '0;
      rad_q        <= '0;
      divisor_q    <= '0;
      special_q    <= 1'b0;
      spec_res_q   <= '0;
      spec_flags_q <= '0;
    end else begin
      state_q      <= state_d;
      count_q      <= count_d;
      sqrt_q       <= sqrt_d;
      sign_q       <= sign_d;
      exp_q        <= exp_d;
      rm_q         <= rm_d;
      rem_q        <= rem_d;
      quo_q        <= quo_d;
      rad_q        <= rad_d;
      divisor_q    <= divisor_d;
      special_q    <= special_d;
      spec_res_q   <= spec_res_d;
      spec_flags_q <= spec_flags_d;
    end
  end

  // --- result: normalize (the quotient may have a leading zero; the root never
  // does), round once; evaluated only in the done cycle ---------------------------
  round_res_t rnd;

  always_comb begin
    rnd      = '0;
    result_o = 32'd0;
    fflags_o = 5'd0;
    if (state_q == StDone) begin
      if (special_q) begin
        result_o = spec_res_q;
        fflags_o = spec_flags_q;
      end else begin
        rnd      = quo_q[QBits-1] ? fp_round(sign_q, exp_q, quo_q, rem_q != '0, rm_q)
                                  : fp_round(sign_q, exp_q - ExpW'(1), {quo_q[QBits-2:0], 1'b0},
                                             rem_q != '0, rm_q);
        result_o = rnd.result;
        fflags_o = {2'b00, rnd.of, rnd.uf, rnd.nx};
      end
    end
  end

  assign busy_o = (state_q == StIter);
  assign done_o = (state_q == StDone);

endmodule
