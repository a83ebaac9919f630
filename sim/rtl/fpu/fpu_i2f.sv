// 32/64-bit signed/unsigned integer -> binary32 (fcvt.s.{w,wu,l,lu}): magnitude,
// normalize, one rounding. Only NX can be raised (the range of binary32 covers
// every 64-bit integer).
module fpu_i2f
  import fpu_pkg::*;
(
  input  logic [63:0] int_i,       // W/WU forms use bits [31:0]
  input  logic [2:0]  rm_i,
  input  logic        is64_i,
  input  logic        unsigned_i,
  output logic [31:0] result_o,
  output logic [4:0]  fflags_o
);

  logic [63:0] x;
  logic        sign;
  logic [63:0] mag;

  always_comb begin
    unique case ({is64_i, unsigned_i})
      2'b00:   x = {{32{int_i[31]}}, int_i[31:0]};
      2'b01:   x = {32'd0, int_i[31:0]};
      default: x = int_i;
    endcase
  end

  assign sign = ~unsigned_i & x[63];
  assign mag  = sign ? -x : x;  // -2^63 maps to 2^63, correct as unsigned

  logic [63:0] sig;
  logic [5:0]  lz;
  logic        zero;

  fpu_norm #(.Width(64)) u_norm (
    .x_i    (mag),
    .x_o    (sig),
    .shift_o(lz),
    .zero_o (zero)
  );

  logic signed [ExpW-1:0] exp_msb;
  logic [31:0]            rnd_result;
  logic                   rnd_of, rnd_uf, rnd_nx;

  assign exp_msb = ExpW'(127 + 63) - $signed({7'b0, lz});

  fpu_round #(.Width(64)) u_round (
    .sign_i  (sign),
    .exp_i   (exp_msb),
    .sig_i   (sig),
    .sticky_i(1'b0),
    .rm_i    (rm_i),
    .result_o(rnd_result),
    .of_o    (rnd_of),
    .uf_o    (rnd_uf),
    .nx_o    (rnd_nx)
  );

  logic unused_flags;
  assign unused_flags = rnd_of ^ rnd_uf;  // impossible for integer inputs

  assign result_o = zero ? 32'd0 : rnd_result;
  assign fflags_o = zero ? 5'd0 : {4'd0, rnd_nx};

endmodule
