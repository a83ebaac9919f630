// Gemmini's fp32 scale of one element (UNIT.md, "The scale unit"; DMA.md beside
// this file): y = sat(rne_int(fp32(fp32(x) * scale))), the model's scale_to_int
// (sim/gemmini/model.py) with lo/hi = int8 (to_i8_i) or int32 range.
//
// A dedicated integer-times-float datapath, exact for every input:
//   1. x to binary32: |x| normalized (leading-zero count), its top 24 bits
//      rounded to nearest even (a carry out bumps the exponent).
//   2. The 24 x 24-bit significand product, rounded once to 24 bits (RNE): the
//      binary32 product. Only products of 0.25 or more can give a non-zero
//      integer, and those are normal binary32 numbers, so the 24-bit rounding is
//      IEEE's; smaller products (subnormal ones included) give 0 however they
//      round, since a binary32 below 0.5 never rounds to 1 (0.5 itself goes to
//      0 by RNE). A binary32 overflow (inf) saturates like any product >= 2^31.
//   3. That value R * 2^F to an integer: RNE on the bits shifted out, then the
//      sign, then saturation to int32 and, with to_i8_i, to [-128, 127] (the
//      model's clip of rint; clipping the int32-saturated value again is the
//      same as clipping once).
// Specials: a NaN scale or 0 * inf is NaN -> hi (127 or INT32_MAX); x * inf
// saturates by sign; a zero or subnormal scale, or x = 0, gives 0.
//
// Combinational, one element: instantiate one per element, register around it.
module gemmini_scale (
  input  logic signed [31:0] x_i,      // accumulator / input value (int32)
  input  logic        [31:0] scale_i,  // binary32 bits
  input  logic               to_i8_i,  // 1: saturate to int8, 0: to int32
  output logic signed [31:0] y_o
);

  localparam int unsigned EW = 10;  // signed exponents of the datapath (-175 .. 140)

  function automatic logic [4:0] lzc32(logic [31:0] v);
    logic [4:0]  n;
    logic [31:0] t;
    t = v;
    n = '0;
    if (t[31:16] == '0) begin n[4] = 1'b1; t = t << 16; end
    if (t[31:24] == '0) begin n[3] = 1'b1; t = t << 8;  end
    if (t[31:28] == '0) begin n[2] = 1'b1; t = t << 4;  end
    if (t[31:30] == '0) begin n[1] = 1'b1; t = t << 2;  end
    if (t[31] == 1'b0)  begin n[0] = 1'b1;              end
    return n;
  endfunction

  logic              sign, s_nan, s_inf, s_tiny, x_zero;
  logic [31:0]       mag, norm;
  logic [4:0]        lz;
  logic [24:0]       mx_r;            // rounded 24-bit significand of fp32(x), with its carry
  logic [23:0]       mx, ms;
  logic              mx_carry;
  logic [47:0]       prod;
  logic              p_top;           // product significand in [2^47, 2^48)
  logic [23:0]       pk;              // kept 24 bits
  logic              pg, ps;          // guard, sticky of the product rounding
  logic              x_up, p_up, i_up;  // round-up decisions of the three roundings
  logic [24:0]       pr;              // rounded product significand (2^24 on a carry: still exact)
  logic signed [EW-1:0] f;            // y = pr * 2^f (before the integer rounding)
  logic [5:0]        n;               // right shift of the integer rounding
  logic [24:0]       q;
  logic [33:0]       ival;            // integer magnitude (saturated to 2^33 - 1 in effect)
  logic              big;             // magnitude certainly >= 2^31
  logic signed [31:0] y32;

  always_comb begin
    sign   = x_i[31] ^ scale_i[31];
    s_nan  = (scale_i[30:23] == 8'hff) && (scale_i[22:0] != '0);
    s_inf  = (scale_i[30:23] == 8'hff) && (scale_i[22:0] == '0);
    s_tiny = (scale_i[30:23] == 8'h00);  // zero or subnormal: the product is below 2^-94
    x_zero = (x_i == '0);

    // 1. fp32(x)
    mag      = x_i[31] ? 32'(-x_i) : 32'(x_i);  // |INT32_MIN| = 2^31 fits unsigned
    lz       = lzc32(mag);
    norm     = mag << lz;
    x_up     = norm[7] & ((|norm[6:0]) | norm[8]);
    mx_r     = {1'b0, norm[31:8]} + {24'd0, x_up};
    mx_carry = mx_r[24];
    mx       = mx_carry ? 24'h80_0000 : mx_r[23:0];

    // 2. the binary32 product: significands and exponents
    ms    = {1'b1, scale_i[22:0]};
    prod  = 48'(mx) * 48'(ms);
    p_top = prod[47];
    pk    = p_top ? prod[47:24] : prod[46:23];
    pg    = p_top ? prod[23] : prod[22];
    ps    = p_top ? (|prod[22:0]) : (|prod[21:0]);
    p_up  = pg & (ps | pk[0]);
    pr    = {1'b0, pk} + {24'd0, p_up};
    // fp32(x) = mx * 2^(8 - lz + carry), scale = ms * 2^(e - 150); pk drops 23 or 24 bits
    f     = EW'($signed({2'b0, scale_i[30:23]})) - EW'(142) - EW'($signed({1'b0, lz})) + EW'(mx_carry)
            + (p_top ? EW'(24) : EW'(23));

    // 3. to an integer: pr * 2^f, RNE
    n    = '0;
    q    = '0;
    i_up = 1'b0;
    ival = '0;
    big  = 1'b0;
    if (f >= 0) begin
      big  = (f > EW'(8));  // pr >= 2^23, so 2^23 * 2^9 = 2^32 already saturates
      ival = big ? '1 : 34'(pr) << f[3:0];
    end else if (f >= -EW'(25)) begin
      n    = 6'(-f);
      q    = pr >> n;
      i_up = pr[n-1] & ((|(pr & ((25'd1 << (n - 1)) - 25'd1))) | q[0]);
      ival = 34'(q) + {33'd0, i_up};
    end

    // sign and int32 saturation; the specials
    if (s_nan || (s_inf && x_zero)) begin
      y32 = 32'sh7fff_ffff;
    end else if (x_zero || s_tiny) begin
      y32 = '0;
    end else if (s_inf || big || (sign ? (ival > 34'h8000_0000) : (ival > 34'h7fff_ffff))) begin
      y32 = sign ? 32'sh8000_0000 : 32'sh7fff_ffff;
    end else begin
      y32 = sign ? -$signed(ival[31:0]) : $signed(ival[31:0]);
    end

    if (to_i8_i && y32 > 32'sd127) y_o = 32'sd127;
    else if (to_i8_i && y32 < -32'sd128) y_o = -32'sd128;
    else y_o = y32;
  end

endmodule
