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
// Combinational, one element: instantiate one per element, register around it;
// the datapath is gemmini_pkg::scale_to_int, which a block may call directly.
module gemmini_scale
  import gemmini_pkg::*;
(
  input  logic signed [31:0] x_i,      // accumulator / input value (int32)
  input  logic        [31:0] scale_i,  // binary32 bits
  input  logic               to_i8_i,  // 1: saturate to int8, 0: to int32
  output logic signed [31:0] y_o       // the scaled value (int8 or int32 range)
);

  assign y_o = scale_to_int(x_i, scale_i, to_i8_i);

endmodule
