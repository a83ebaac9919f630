// Types, constants and small pure helpers shared by the FPU sub-units
// (scalar FPU now, vector lanes later). binary32 only.
package fpu_pkg;

  // Operation codes: the core and the vector unit drive these (fixed interface).
  typedef enum logic [4:0] {
    FPU_ADD, FPU_SUB, FPU_MUL, FPU_DIV, FPU_SQRT,
    FPU_MADD, FPU_MSUB, FPU_NMSUB, FPU_NMADD,
    FPU_MIN, FPU_MAX, FPU_EQ, FPU_LT, FPU_LE, FPU_CLASS,
    FPU_SGNJ, FPU_SGNJN, FPU_SGNJX,
    FPU_CVT_W_S, FPU_CVT_WU_S, FPU_CVT_L_S, FPU_CVT_LU_S,
    FPU_CVT_S_W, FPU_CVT_S_WU, FPU_CVT_S_L, FPU_CVT_S_LU
  } fpu_op_e;

  // Rounding modes as encoded in frm (already resolved: never DYN).
  typedef enum logic [2:0] {
    RM_RNE = 3'd0,
    RM_RTZ = 3'd1,
    RM_RDN = 3'd2,
    RM_RUP = 3'd3,
    RM_RMM = 3'd4
  } fpu_rm_e;

  // Selector of fpu_cmp.
  localparam logic [2:0] CmpEq  = 3'd0;
  localparam logic [2:0] CmpLt  = 3'd1;
  localparam logic [2:0] CmpLe  = 3'd2;
  localparam logic [2:0] CmpMin = 3'd3;
  localparam logic [2:0] CmpMax = 3'd4;

  // fflags bit positions (fcsr layout).
  localparam int unsigned FlagNV = 4;
  localparam int unsigned FlagDZ = 3;
  localparam int unsigned FlagOF = 2;
  localparam int unsigned FlagUF = 1;
  localparam int unsigned FlagNX = 0;

  // Signed exponent width used inside the datapaths: wide enough for products of
  // subnormals and for the alignment distances of the FMA (|exponent| < 2048).
  localparam int unsigned ExpW = 13;

  localparam logic [31:0] CanonicalNaN = 32'h7fc0_0000;
  localparam logic [31:0] PosInf       = 32'h7f80_0000;
  localparam logic [31:0] MaxFinite    = 32'h7f7f_ffff;

  // One binary32 operand, classified. Subnormals are reported as exponent 1 with
  // a hidden bit of 0, so value = mant * 2^(exp - 127 - 23) for every finite input.
  typedef struct packed {
    logic        sign;
    logic [7:0]  exp;       // biased exponent, 1 for subnormals and zero
    logic [23:0] mant;      // hidden bit + fraction
    logic        is_zero;
    logic        is_sub;    // subnormal (nonzero, exponent field 0)
    logic        is_inf;
    logic        is_nan;
    logic        is_snan;   // signalling NaN (quiet bit clear)
  } fp_info_t;

  function automatic fp_info_t fp_classify(logic [31:0] x);
    fp_info_t   r;
    logic       exp_zero;
    logic       exp_ones;
    logic       frac_zero;
    exp_zero  = (x[30:23] == 8'd0);
    exp_ones  = (x[30:23] == 8'hff);
    frac_zero = (x[22:0] == 23'd0);
    r.sign    = x[31];
    r.exp     = exp_zero ? 8'd1 : x[30:23];
    r.mant    = {~exp_zero, x[22:0]};
    r.is_zero = exp_zero & frac_zero;
    r.is_sub  = exp_zero & ~frac_zero;
    r.is_inf  = exp_ones & frac_zero;
    r.is_nan  = exp_ones & ~frac_zero;
    r.is_snan = exp_ones & ~frac_zero & ~x[22];
    return r;
  endfunction

  // Leading-zero count of a 24-bit significand (24 when zero): binary search on the
  // significand padded with ones below, so the count saturates at 24.
  function automatic logic [4:0] lzc24(logic [23:0] x);
    logic [31:0] v;
    logic [4:0]  n;
    v = {x, 8'hff};
    n = 5'd0;
    if (v[31:16] == 16'd0) begin n[4] = 1'b1; v = v << 16; end
    if (v[31:24] == 8'd0)  begin n[3] = 1'b1; v = v << 8;  end
    if (v[31:28] == 4'd0)  begin n[2] = 1'b1; v = v << 4;  end
    if (v[31:30] == 2'd0)  begin n[1] = 1'b1; v = v << 2;  end
    if (v[31] == 1'b0)     begin n[0] = 1'b1;              end
    return n;
  endfunction

  // Round-increment decision shared by every rounding site. lsb/guard/sticky are
  // the kept LSB, the first dropped bit and the OR of the rest; sign is the sign of
  // the value being rounded (magnitude rounding).
  function automatic logic round_up(logic [2:0] rm, logic sign, logic lsb, logic guard,
                                    logic sticky);
    logic r;
    unique case (rm)
      RM_RNE:  r = guard & (sticky | lsb);
      RM_RTZ:  r = 1'b0;
      RM_RDN:  r = sign & (guard | sticky);
      RM_RUP:  r = ~sign & (guard | sticky);
      RM_RMM:  r = guard;
      default: r = guard & (sticky | lsb);  // rm is resolved by the core; never reached
    endcase
    return r;
  endfunction

  // Result of fp_round: packed binary32 and the rounding flags.
  typedef struct packed {
    logic [31:0] result;
    logic        of;
    logic        uf;
    logic        nx;
  } round_res_t;

  // Rounds (sig / 2^25 + sticky) * 2^(exp - 127) to binary32 (sig[25] set; exact
  // zeros never come here). Callers with wider significands pass the top 26 bits
  // and OR the rest into sticky: exact, since subnormal results only shift right.
  // Subnormal results: the significand is shifted right by 1 - exp first, so the
  // rounding point is the fixed 2^-149 ulp. Overflow (exponent >= 255 after
  // rounding): OF|NX, infinity or the largest finite per rounding mode.
  // Underflow: tiny AFTER rounding (the value rounded to 24 bits with unbounded
  // exponent is below 2^-126) and inexact, as RISC-V specifies.
  function automatic round_res_t fp_round(logic sign, logic signed [ExpW-1:0] exp, logic [25:0] sig,
                                          logic sticky_in, logic [2:0] rm);
    round_res_t             r;
    logic [5:0]             dshift;
    logic [25:0]            sig_sh;
    logic                   lost, guard, sticky, inc, inexact, overflow, carry_u, tiny, to_inf;
    logic [24:0]            kept_r;
    logic signed [ExpW-1:0] exp_r;

    if (exp >= 1) begin
      dshift = 6'd0;
    end else if (exp < -26) begin
      dshift = 6'd27;  // everything goes to sticky
    end else begin
      dshift = 6'(1 - exp);
    end
    sig_sh = sig >> dshift;
    lost   = |(sig & ~({26{1'b1}} << dshift));
    guard  = sig_sh[1];
    sticky = sig_sh[0] | lost | sticky_in;
    inc    = round_up(rm, sign, sig_sh[2], guard, sticky);
    kept_r = {1'b0, sig_sh[25:2]} + 25'(inc);
    // A carry out of 24 bits bumps the exponent; a subnormal that rounds into
    // bit 23 becomes the smallest normal.
    exp_r    = (exp < 1) ? ExpW'(kept_r[23]) : exp + ExpW'(kept_r[24]);
    inexact  = guard | sticky;
    overflow = (exp_r >= 255);
    // Tininess after rounding: does rounding the unshifted significand carry to 2^-126?
    carry_u  = (&sig[25:2]) & round_up(rm, sign, sig[2], sig[1], sig[0] | sticky_in);
    tiny     = (exp < 0) || ((exp == 0) && !carry_u);

    unique case (rm)
      RM_RTZ:  to_inf = 1'b0;
      RM_RDN:  to_inf = sign;
      RM_RUP:  to_inf = ~sign;
      default: to_inf = 1'b1;  // RNE, RMM
    endcase

    r.result = overflow ? {sign, to_inf ? PosInf[30:0] : MaxFinite[30:0]} : {sign, exp_r[7:0], kept_r[22:0]};
    r.of     = overflow;
    r.nx     = inexact | overflow;
    r.uf     = tiny & inexact;
    return r;
  endfunction

  // Normalizer: shift left until the MSB is set (logarithmic shifter, 7 stages).
  // lz is meaningless when zero is set. Narrower values are passed zero-padded
  // below their LSB.
  typedef struct packed {
    logic [127:0] sig;
    logic [6:0]   lz;
    logic         zero;
  } norm_res_t;

  function automatic norm_res_t fp_norm128(logic [127:0] x);
    norm_res_t    r;
    logic [127:0] v;
    v    = x;
    r.lz = 7'd0;
    if (v[127:64] == 64'd0) begin r.lz[6] = 1'b1; v = v << 64; end
    if (v[127:96] == 32'd0) begin r.lz[5] = 1'b1; v = v << 32; end
    if (v[127:112] == 16'd0) begin r.lz[4] = 1'b1; v = v << 16; end
    if (v[127:120] == 8'd0) begin r.lz[3] = 1'b1; v = v << 8; end
    if (v[127:124] == 4'd0) begin r.lz[2] = 1'b1; v = v << 4; end
    if (v[127:126] == 2'd0) begin r.lz[1] = 1'b1; v = v << 2; end
    if (v[127] == 1'b0) begin r.lz[0] = 1'b1; v = v << 1; end
    r.sig  = v;
    r.zero = (x == 128'd0);
    return r;
  endfunction

endpackage
