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

endpackage
