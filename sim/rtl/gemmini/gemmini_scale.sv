// Gemmini's fp32 scale of one element (UNIT.md, "The scale unit"; DMA.md beside
// this file): y = sat(rne_int(fp32(x) * scale)), the model's scale_to_int
// (sim/gemmini/model.py) with lo/hi = int8 (to_i8_i) or int32 range.
//
//   x to binary32, round to nearest even        (fpu_i2f, W form)
//   times scale in binary32, one RNE rounding    (fpu_fma as a plain multiply:
//                                                 subnormal products kept, IEEE)
//   to int32, RNE, saturating                    (fpu_f2i, W form: NaN and
//                                                 +overflow -> INT32_MAX,
//                                                 -overflow -> INT32_MIN)
//   clamp to [-128, 127] when to_i8_i
//
// Clamping the saturated int32 to int8 equals saturating straight to int8
// (clip is monotone), and NaN -> INT32_MAX -> 127 is the model's NaN -> hi.
// Reuses the scalar FPU's combinational units (sim/rtl/fpu: compile fpu_pkg,
// fpu_i2f, fpu_fma, fpu_f2i with this file), which are exact IEEE 754 and tested
// on their own; flags are unused (Gemmini's scale raises none).
//
// Combinational, one element: instantiate one per element, register around it.
module gemmini_scale (
  input  logic signed [31:0] x_i,      // accumulator / input value (int32)
  input  logic        [31:0] scale_i,  // binary32 bits
  input  logic               to_i8_i,  // 1: saturate to int8, 0: to int32
  output logic signed [31:0] y_o
);

  localparam logic [2:0] RmRne = 3'd0;

  logic [31:0] xf, xs;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [63:0] yi;                               // [63:32] repeat bit 31 (W form)
  logic [4:0]  i2f_flags, mul_flags, f2i_flags;  // Gemmini's scale raises no flags
  /* verilator lint_on UNUSEDSIGNAL */
  logic signed [31:0] y32;

  fpu_i2f u_i2f (
    .en_i      (1'b1),
    .int_i     ({{32{x_i[31]}}, x_i}),
    .rm_i      (RmRne),
    .is64_i    (1'b0),
    .unsigned_i(1'b0),
    .result_o  (xf),
    .fflags_o  (i2f_flags)
  );

  fpu_fma u_mul (
    .en_i       (1'b1),
    .a_i        (xf),
    .b_i        (scale_i),
    .c_i        (32'd0),
    .neg_prod_i (1'b0),
    .neg_c_i    (1'b0),
    .no_addend_i(1'b1),
    .rm_i       (RmRne),
    .result_o   (xs),
    .fflags_o   (mul_flags)
  );

  fpu_f2i u_f2i (
    .en_i      (1'b1),
    .a_i       (xs),
    .rm_i      (RmRne),
    .is64_i    (1'b0),
    .unsigned_i(1'b0),
    .result_o  (yi),
    .fflags_o  (f2i_flags)
  );

  assign y32 = yi[31:0];
  always_comb begin
    if (to_i8_i && y32 > 32'sd127) y_o = 32'sd127;
    else if (to_i8_i && y32 < -32'sd128) y_o = -32'sd128;
    else y_o = y32;
  end

endmodule
