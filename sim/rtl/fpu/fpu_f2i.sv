// binary32 -> 32/64-bit signed/unsigned integer (fcvt.{w,wu,l,lu}.s).
// Rounds per rm; NX when inexact. Out-of-range, infinite or NaN inputs raise NV
// (and not NX) and give RISC-V's results: NaN and too-large positive values the
// largest integer (signed max, unsigned all ones), too-large negative values the
// smallest (signed min, unsigned 0). A negative value that rounds to 0 is in range
// for the unsigned forms (result 0, NX only). 32-bit results are sign-extended.
module fpu_f2i
  import fpu_pkg::*;
(
  input  logic [31:0] a_i,
  input  logic [2:0]  rm_i,
  input  logic        is64_i,
  input  logic        unsigned_i,
  output logic [63:0] result_o,
  output logic [4:0]  fflags_o
);

  fp_info_t ia;
  assign ia = fp_classify(a_i);

  logic unused_info;
  assign unused_info = ia.is_sub ^ ia.is_snan ^ ia.is_zero;

  // Unbiased exponent of the significand's 2^0 bit (value = mant * 2^(e - 23)).
  logic signed [ExpW-1:0] e;
  assign e = $signed({5'b0, ia.exp}) - ExpW'(127);

  // Integer part and the guard/sticky bits below it.
  logic [63:0] int_part;
  logic        guard, sticky, too_big;
  logic [4:0]  rshift;
  logic [49:0] ext;

  assign too_big = (e > ExpW'(63));
  assign rshift  = (e >= ExpW'(23)) ? 5'd0 :
                   (e < ExpW'(-3))  ? 5'd26 : 5'(ExpW'(23) - e);
  assign ext     = {ia.mant, 26'b0} >> rshift;

  always_comb begin
    if (e >= ExpW'(23)) begin
      int_part = too_big ? 64'd0 : (64'(ia.mant) << (e[5:0] - 6'd23));
      guard    = 1'b0;
      sticky   = 1'b0;
    end else begin
      int_part = 64'(ext[49:26]);
      guard    = ext[25];
      sticky   = |ext[24:0];
    end
  end

  logic        inc;
  logic [64:0] mag;

  assign inc = round_up(rm_i, ia.sign, int_part[0], guard, sticky);
  assign mag = {1'b0, int_part} + 65'(inc);

  // Range check on the rounded magnitude.
  logic in_range;

  always_comb begin
    unique case ({is64_i, unsigned_i})
      2'b00:   in_range = ia.sign ? (mag <= 65'h8000_0000) : (mag <= 65'h7fff_ffff);
      2'b01:   in_range = ia.sign ? (mag == 65'd0) : (mag <= 65'hffff_ffff);
      2'b10:   in_range = ia.sign ? (mag <= 65'h8000_0000_0000_0000)
                                  : (mag <= 65'h7fff_ffff_ffff_ffff);
      default: in_range = ia.sign ? (mag == 65'd0) : (mag <= 65'hffff_ffff_ffff_ffff);
    endcase
  end

  logic        invalid, neg_limit;
  logic [63:0] value, limit;

  assign invalid   = ia.is_nan | ia.is_inf | too_big | ~in_range;
  assign neg_limit = ia.sign & ~ia.is_nan;  // NaN saturates to the positive limit
  assign value     = ia.sign ? -mag[63:0] : mag[63:0];

  always_comb begin
    unique case ({is64_i, unsigned_i})
      2'b00:   limit = neg_limit ? 64'hffff_ffff_8000_0000 : 64'h0000_0000_7fff_ffff;
      2'b01:   limit = neg_limit ? 64'd0 : 64'hffff_ffff_ffff_ffff;  // 0xffffffff sign-extended
      2'b10:   limit = neg_limit ? 64'h8000_0000_0000_0000 : 64'h7fff_ffff_ffff_ffff;
      default: limit = neg_limit ? 64'd0 : 64'hffff_ffff_ffff_ffff;
    endcase
  end

  always_comb begin
    fflags_o = 5'd0;
    if (invalid) begin
      result_o         = limit;
      fflags_o[FlagNV] = 1'b1;
    end else begin
      result_o         = is64_i ? value : {{32{value[31]}}, value[31:0]};
      fflags_o[FlagNX] = guard | sticky;
    end
  end

endmodule
