// fclass.s: one-hot 10-bit mask (bit 0 -inf, 1 negative normal, 2 negative
// subnormal, 3 -0, 4 +0, 5 positive subnormal, 6 positive normal, 7 +inf,
// 8 signalling NaN, 9 quiet NaN).
module fpu_class
  import fpu_pkg::*;
(
  input  logic [31:0] a_i,      // binary32 operand
  output logic [9:0]  class_o   // its class, one-hot (bits above)
);

  fp_info_t ia;
  assign ia = fp_classify(a_i);

  logic unused_info;
  assign unused_info = ^{ia.exp, ia.mant};

  logic normal;
  assign normal = ~ia.is_zero & ~ia.is_sub & ~ia.is_inf & ~ia.is_nan;

  assign class_o[0] = ia.sign & ia.is_inf;
  assign class_o[1] = ia.sign & normal;
  assign class_o[2] = ia.sign & ia.is_sub;
  assign class_o[3] = ia.sign & ia.is_zero;
  assign class_o[4] = ~ia.sign & ia.is_zero;
  assign class_o[5] = ~ia.sign & ia.is_sub;
  assign class_o[6] = ~ia.sign & normal;
  assign class_o[7] = ~ia.sign & ia.is_inf;
  assign class_o[8] = ia.is_snan;
  assign class_o[9] = ia.is_nan & ~ia.is_snan;

endmodule
