// binary32 -> 32/64-bit signed/unsigned integer (fcvt.{w,wu,l,lu}.s).
// Rounds per rm; NX when inexact. Out-of-range, infinite or NaN inputs raise NV
// (and not NX) and give RISC-V's results: NaN and too-large positive values the
// largest integer (signed max, unsigned all ones), too-large negative values the
// smallest (signed min, unsigned 0). A negative value that rounds to 0 is in range
// for the unsigned forms (result 0, NX only). 32-bit results are sign-extended.
//
// Combinational, evaluated under en_i (outputs are 0 otherwise).
module fpu_f2i
  import fpu_pkg::*;
(
  input  logic        en_i,        // evaluate (outputs are 0 otherwise)
  input  logic [31:0] a_i,         // binary32 operand
  input  logic [2:0]  rm_i,        // resolved rounding mode
  input  logic        is64_i,      // 64-bit result (fcvt.l[u].s)
  input  logic        unsigned_i,  // unsigned result (fcvt.wu/lu.s)
  output logic [63:0] result_o,    // the integer (32-bit results sign-extended)
  output logic [4:0]  fflags_o     // NV or NX
);

  function automatic logic [68:0] f2i(logic [31:0] a, logic [2:0] rm, logic is64, logic is_unsigned);
    // only sign, exponent, significand, inf and NaN matter here
    /* verilator lint_off UNUSEDSIGNAL */
    fp_info_t               ia;
    /* verilator lint_on UNUSEDSIGNAL */
    logic signed [ExpW-1:0] e;
    logic [63:0]            int_part, value, limit, result;
    logic                   guard, sticky, too_big, inc, in_range, invalid, neg_limit;
    logic [4:0]             rshift;
    logic [49:0]            ext;
    logic [64:0]            mag;
    logic [4:0]             flags;

    ia = fp_classify(a);
    // Unbiased exponent of the significand's 2^0 bit (value = mant * 2^(e - 23)).
    e       = $signed({5'b0, ia.exp}) - ExpW'(127);
    too_big = (e > ExpW'(63));

    // Integer part and the guard/sticky bits below it.
    rshift = (e >= ExpW'(23)) ? 5'd0 : (e < ExpW'(-3)) ? 5'd26 : 5'(ExpW'(23) - e);
    ext    = {ia.mant, 26'b0} >> rshift;
    if (e >= ExpW'(23)) begin
      int_part = too_big ? 64'd0 : (64'(ia.mant) << (e[5:0] - 6'd23));
      guard    = 1'b0;
      sticky   = 1'b0;
    end else begin
      int_part = 64'(ext[49:26]);
      guard    = ext[25];
      sticky   = |ext[24:0];
    end
    inc = round_up(rm, ia.sign, int_part[0], guard, sticky);
    mag = {1'b0, int_part} + 65'(inc);

    // Range check on the rounded magnitude.
    unique case ({is64, is_unsigned})
      2'b00:   in_range = ia.sign ? (mag <= 65'h8000_0000) : (mag <= 65'h7fff_ffff);
      2'b01:   in_range = ia.sign ? (mag == 65'd0) : (mag <= 65'hffff_ffff);
      2'b10:   in_range = ia.sign ? (mag <= 65'h8000_0000_0000_0000) : (mag <= 65'h7fff_ffff_ffff_ffff);
      default: in_range = ia.sign ? (mag == 65'd0) : (mag <= 65'hffff_ffff_ffff_ffff);
    endcase
    invalid   = ia.is_nan | ia.is_inf | too_big | ~in_range;
    neg_limit = ia.sign & ~ia.is_nan;  // NaN saturates to the positive limit
    value     = ia.sign ? -mag[63:0] : mag[63:0];

    unique case ({is64, is_unsigned})
      2'b00:   limit = neg_limit ? 64'hffff_ffff_8000_0000 : 64'h0000_0000_7fff_ffff;
      2'b01:   limit = neg_limit ? 64'd0 : 64'hffff_ffff_ffff_ffff;  // 0xffffffff sign-extended
      2'b10:   limit = neg_limit ? 64'h8000_0000_0000_0000 : 64'h7fff_ffff_ffff_ffff;
      default: limit = neg_limit ? 64'd0 : 64'hffff_ffff_ffff_ffff;
    endcase

    flags = 5'd0;
    if (invalid) begin
      result        = limit;
      flags[FlagNV] = 1'b1;
    end else begin
      result        = is64 ? value : {{32{value[31]}}, value[31:0]};
      flags[FlagNX] = guard | sticky;
    end
    return {result, flags};
  endfunction

  always_comb begin
    if (en_i) begin
      {result_o, fflags_o} = f2i(a_i, rm_i, is64_i, unsigned_i);
    end else begin
      {result_o, fflags_o} = '0;
    end
  end

endmodule
