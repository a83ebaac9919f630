// Fused multiply-add, combinational: result = (+/-)(a*b) (+/-) c with one rounding.
// Also serves plain multiply (no_addend_i: the addend is a zero carrying the
// product's sign, so an exact zero product keeps its sign in every rounding mode)
// and add/sub (the caller passes b = 1.0, which is exact).
//
// Datapath: both significands are normalized (subnormal inputs included), the
// 48-bit product and the addend (widened to 48 bits) are aligned on a 101-bit frame
// with the operand of larger LSB exponent at the top; the other is shifted right,
// exactly while the distance is <= 52, else collapsed to a sticky bit in the frame's
// LSB (far below any rounding position). The signed sum is normalized and rounded
// once by fpu_round.
module fpu_fma
  import fpu_pkg::*;
(
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,
  input  logic        neg_prod_i,   // negate a*b (FNMSUB, FNMADD)
  input  logic        neg_c_i,      // negate c   (FSUB, FMSUB, FNMADD)
  input  logic        no_addend_i,  // plain multiply: ignore c_i
  input  logic [2:0]  rm_i,
  output logic [31:0] result_o,
  output logic [4:0]  fflags_o
);

  localparam int unsigned FrameW = 101;  // 48-bit operand + 52 alignment bits + carry
  localparam int unsigned MaxExact = 52;

  fp_info_t ia, ib, ic;
  assign ia = fp_classify(a_i);
  assign ib = fp_classify(b_i);
  assign ic = fp_classify(c_i);

  logic unused_sub;  // subnormals need no special case: they are normalized below
  assign unused_sub = ia.is_sub ^ ib.is_sub ^ ic.is_sub;

  // --- operand signs and the effective operation -------------------------------
  logic sp, sc, eff_sub;
  logic c_zero, c_inf, c_nan, c_snan;

  assign sp      = ia.sign ^ ib.sign ^ neg_prod_i;
  assign sc      = no_addend_i ? sp : (ic.sign ^ neg_c_i);
  assign eff_sub = sp ^ sc;
  assign c_zero  = no_addend_i | ic.is_zero;
  assign c_inf   = ~no_addend_i & ic.is_inf;
  assign c_nan   = ~no_addend_i & ic.is_nan;
  assign c_snan  = ~no_addend_i & ic.is_snan;

  // --- special cases (NaN, infinities, zero products) --------------------------
  logic any_nan, any_snan, prod_zero, prod_inf, inv_mul, inv_add;

  assign any_nan   = ia.is_nan | ib.is_nan | c_nan;
  assign any_snan  = ia.is_snan | ib.is_snan | c_snan;
  assign inv_mul   = (ia.is_inf & ib.is_zero) | (ia.is_zero & ib.is_inf);
  assign prod_inf  = (ia.is_inf | ib.is_inf) & ~ia.is_nan & ~ib.is_nan & ~inv_mul;
  assign prod_zero = (ia.is_zero | ib.is_zero) & ~ia.is_nan & ~ib.is_nan & ~inv_mul;
  assign inv_add   = prod_inf & c_inf & eff_sub;

  // --- normalize significands ---------------------------------------------------
  logic [4:0]             lza, lzb, lzc;
  logic [23:0]            ma, mb, mc;
  logic signed [ExpW-1:0] ea, eb, ec;

  assign lza = lzc24(ia.mant);
  assign lzb = lzc24(ib.mant);
  assign lzc = lzc24(ic.mant);
  assign ma  = ia.mant << lza;
  assign mb  = ib.mant << lzb;
  assign mc  = ic.mant << lzc;
  assign ea  = $signed({5'b0, ia.exp}) - $signed({8'b0, lza});
  assign eb  = $signed({5'b0, ib.exp}) - $signed({8'b0, lzb});
  assign ec  = $signed({5'b0, ic.exp}) - $signed({8'b0, lzc});

  // --- exact product and alignment ------------------------------------------------
  // LSB exponents (biased): product P*2^(ex-127), addend (mc<<24)*2^(ey-127).
  logic [47:0]            prod, addend;
  logic signed [ExpW-1:0] ex, ey, diff_raw;
  logic                   prod_big;

  assign prod     = ma * mb;
  assign addend   = {mc, 24'b0};
  assign ex       = ea + eb - ExpW'(127 + 46);
  assign ey       = ec - ExpW'(47);
  assign prod_big = c_zero | (ex >= ey);
  assign diff_raw = prod_big ? ex - ey : ey - ex;

  logic [47:0]        hi_op, lo_op;
  logic [FrameW-1:0]  hi_f, lo_full, lo_f;
  logic [6:0]         shamt;
  logic               jam;

  assign hi_op        = prod_big ? prod : addend;
  assign lo_op      = c_zero ? 48'd0 : (prod_big ? addend : prod);
  assign jam        = (diff_raw > ExpW'(MaxExact)) & (lo_op != 48'd0);
  assign shamt       = jam ? 7'd0 : 7'(diff_raw);
  assign hi_f      = {1'b0, hi_op, 52'b0};
  assign lo_full = {1'b0, lo_op, 52'b0};
  assign lo_f    = jam ? FrameW'(1) : (lo_full >> shamt);

  // --- signed sum; a negative difference means the smaller-exponent operand won --
  logic [FrameW-1:0] sum_raw, sum_mag;
  logic              sum_neg, sign_sum;
  logic              big_sign;

  assign sum_raw  = eff_sub ? hi_f - lo_f : hi_f + lo_f;
  assign sum_neg  = eff_sub & sum_raw[FrameW-1];
  assign sum_mag  = sum_neg ? -sum_raw : sum_raw;
  assign big_sign = prod_big ? sp : sc;
  assign sign_sum = big_sign ^ sum_neg;

  logic [FrameW-1:0]          sum_n;
  logic [$clog2(FrameW)-1:0]  sum_lz;
  logic                       sum_zero;

  fpu_norm #(.Width(FrameW)) u_norm (
    .x_i    (sum_mag),
    .x_o    (sum_n),
    .shift_o(sum_lz),
    .zero_o (sum_zero)
  );

  // The frame's MSB (bit 100) has weight 2^(lsb_big + 48) relative to the hi_op LSB.
  logic signed [ExpW-1:0] exp_sum;
  assign exp_sum = (prod_big ? ex : ey) + ExpW'(48) - $signed({6'b0, sum_lz});

  logic [31:0] rnd_result;
  logic        rnd_of, rnd_uf, rnd_nx;

  fpu_round #(.Width(FrameW)) u_round (
    .sign_i  (sign_sum),
    .exp_i   (exp_sum),
    .sig_i   (sum_n),
    .sticky_i(1'b0),
    .rm_i    (rm_i),
    .result_o(rnd_result),
    .of_o    (rnd_of),
    .uf_o    (rnd_uf),
    .nx_o    (rnd_nx)
  );

  // --- result selection --------------------------------------------------------
  always_comb begin
    fflags_o = 5'd0;
    if (any_nan | inv_mul | inv_add) begin
      result_o         = CanonicalNaN;
      fflags_o[FlagNV] = any_snan | inv_mul | inv_add;
    end else if (prod_inf) begin
      result_o = {sp, PosInf[30:0]};
    end else if (c_inf) begin
      result_o = {sc, PosInf[30:0]};
    end else if (prod_zero) begin
      if (c_zero) begin
        // Sum of two zeros: equal signs keep it, otherwise +0 (-0 when rounding down).
        result_o = {(sp == sc) ? sp : (rm_i == RM_RDN), 31'd0};
      end else begin
        result_o = {sc, c_i[30:0]};
      end
    end else if (sum_zero) begin
      // Exact cancellation of nonzero terms.
      result_o = {rm_i == RM_RDN, 31'd0};
    end else begin
      result_o         = rnd_result;
      fflags_o[FlagOF] = rnd_of;
      fflags_o[FlagUF] = rnd_uf;
      fflags_o[FlagNX] = rnd_nx;
    end
  end

endmodule
