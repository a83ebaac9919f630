// Fused multiply-add: result = (+/-)(a*b) (+/-) c with one rounding. Also serves
// plain multiply (no_addend_i: the addend is a zero carrying the product's sign,
// so an exact zero product keeps its sign in every rounding mode) and add/sub
// (the caller passes b = 1.0, which is exact).
//
// Datapath: both significands are normalized (subnormal inputs included), the
// 48-bit product and the addend (widened to 48 bits) are aligned on a 101-bit frame
// with the operand of larger LSB exponent at the top; the other is shifted right,
// exactly while the distance is <= 52, else collapsed to a sticky bit in the frame's
// LSB (far below any rounding position). The signed sum is normalized and rounded
// once by fpu_pkg::fp_round.
//
// Combinational. The datapath is a function evaluated under en_i, so simulation
// models skip it in idle cycles (outputs are zero when en_i is low).
module fpu_fma
  import fpu_pkg::*;
(
  input  logic        en_i,         // evaluate (outputs are 0 otherwise)
  input  logic [31:0] a_i,          // multiplicand
  input  logic [31:0] b_i,          // multiplier
  input  logic [31:0] c_i,          // addend
  input  logic        neg_prod_i,   // negate a*b (FNMSUB, FNMADD)
  input  logic        neg_c_i,      // negate c   (FSUB, FMSUB, FNMADD)
  input  logic        no_addend_i,  // plain multiply: ignore c_i
  input  logic [2:0]  rm_i,         // resolved rounding mode
  output logic [31:0] result_o,     // binary32 result
  output logic [4:0]  fflags_o      // its exception flags
);

  localparam int unsigned FrameW   = 101;  // 48-bit operand + 52 alignment bits + carry
  localparam int unsigned MaxExact = 52;

  function automatic logic [36:0] fma(logic [31:0] a, logic [31:0] b, logic [31:0] c, logic neg_prod,
                                      logic neg_c, logic no_addend, logic [2:0] rm);
    // is_sub is unused: subnormals are normalized like any other significand
    /* verilator lint_off UNUSEDSIGNAL */
    fp_info_t               ia, ib, ic;
    /* verilator lint_on UNUSEDSIGNAL */
    logic                   sp, sc, eff_sub, c_zero, c_inf, c_nan, c_snan;
    logic                   any_nan, any_snan, prod_zero, prod_inf, inv_mul, inv_add;
    logic [4:0]             lza, lzb, lzc;
    logic [23:0]            ma, mb, mc;
    logic signed [ExpW-1:0] ea, eb, ec, ex, ey, diff, exp_sum;
    logic [47:0]            prod, addend, hi_op, lo_op;
    logic                   prod_big, jam, sum_neg, sign_sum;
    logic [FrameW-1:0]      hi_f, lo_f, sum_raw, sum_mag;
    norm_res_t              nrm;
    round_res_t             rnd;
    logic [31:0]            result;
    logic [4:0]             flags;

    ia = fp_classify(a);
    ib = fp_classify(b);
    ic = fp_classify(c);

    // Operand signs and the effective operation.
    sp      = ia.sign ^ ib.sign ^ neg_prod;
    sc      = no_addend ? sp : (ic.sign ^ neg_c);
    eff_sub = sp ^ sc;
    c_zero  = no_addend | ic.is_zero;
    c_inf   = ~no_addend & ic.is_inf;
    c_nan   = ~no_addend & ic.is_nan;
    c_snan  = ~no_addend & ic.is_snan;

    // Special cases (NaN, infinities, zero products).
    any_nan   = ia.is_nan | ib.is_nan | c_nan;
    any_snan  = ia.is_snan | ib.is_snan | c_snan;
    inv_mul   = (ia.is_inf & ib.is_zero) | (ia.is_zero & ib.is_inf);
    prod_inf  = (ia.is_inf | ib.is_inf) & ~ia.is_nan & ~ib.is_nan & ~inv_mul;
    prod_zero = (ia.is_zero | ib.is_zero) & ~ia.is_nan & ~ib.is_nan & ~inv_mul;
    inv_add   = prod_inf & c_inf & eff_sub;

    // Normalized significands; exponents may go below 1 for subnormal inputs.
    lza = lzc24(ia.mant);
    lzb = lzc24(ib.mant);
    lzc = lzc24(ic.mant);
    ma  = ia.mant << lza;
    mb  = ib.mant << lzb;
    mc  = ic.mant << lzc;
    ea  = $signed({5'b0, ia.exp}) - $signed({8'b0, lza});
    eb  = $signed({5'b0, ib.exp}) - $signed({8'b0, lzb});
    ec  = $signed({5'b0, ic.exp}) - $signed({8'b0, lzc});

    // Exact product and alignment. LSB exponents (biased): product
    // prod*2^(ex-127), addend (mc<<24)*2^(ey-127).
    prod     = ma * mb;
    addend   = {mc, 24'b0};
    ex       = ea + eb - ExpW'(127 + 46);
    ey       = ec - ExpW'(47);
    prod_big = c_zero | (ex >= ey);
    diff     = prod_big ? ex - ey : ey - ex;
    hi_op    = prod_big ? prod : addend;
    lo_op    = c_zero ? 48'd0 : (prod_big ? addend : prod);
    jam      = (diff > ExpW'(MaxExact)) & (lo_op != 48'd0);
    hi_f     = {1'b0, hi_op, 52'b0};
    lo_f     = jam ? FrameW'(1) : ({1'b0, lo_op, 52'b0} >> diff[6:0]);

    // Signed sum; a negative difference means the lower-exponent operand won.
    sum_raw  = eff_sub ? hi_f - lo_f : hi_f + lo_f;
    sum_neg  = eff_sub & sum_raw[FrameW-1];
    sum_mag  = sum_neg ? -sum_raw : sum_raw;
    sign_sum = (prod_big ? sp : sc) ^ sum_neg;

    // The frame's MSB (bit 100) has weight 2^48 relative to the high operand's LSB.
    nrm     = fp_norm128({sum_mag, 27'b0});
    exp_sum = (prod_big ? ex : ey) + ExpW'(48) - $signed({6'b0, nrm.lz});
    rnd     = fp_round(sign_sum, exp_sum, nrm.sig[127 -: 26], |nrm.sig[101:0], rm);

    flags = 5'd0;
    if (any_nan | inv_mul | inv_add) begin
      result        = CanonicalNaN;
      flags[FlagNV] = any_snan | inv_mul | inv_add;
    end else if (prod_inf) begin
      result = {sp, PosInf[30:0]};
    end else if (c_inf) begin
      result = {sc, PosInf[30:0]};
    end else if (prod_zero) begin
      // Zero product: the addend exactly; two zeros keep a common sign, else +0
      // (-0 when rounding down).
      result = c_zero ? {(sp == sc) ? sp : (rm == RM_RDN), 31'd0} : {sc, c[30:0]};
    end else if (nrm.zero) begin
      result = {rm == RM_RDN, 31'd0};  // exact cancellation of nonzero terms
    end else begin
      result        = rnd.result;
      flags[FlagOF] = rnd.of;
      flags[FlagUF] = rnd.uf;
      flags[FlagNX] = rnd.nx;
    end
    return {result, flags};
  endfunction

  always_comb begin
    if (en_i) begin
      {result_o, fflags_o} = fma(a_i, b_i, c_i, neg_prod_i, neg_c_i, no_addend_i, rm_i);
    end else begin
      {result_o, fflags_o} = '0;
    end
  end

endmodule
