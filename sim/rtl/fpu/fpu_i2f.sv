// 32/64-bit signed/unsigned integer -> binary32 (fcvt.s.{w,wu,l,lu}): magnitude,
// normalize, one rounding. Only NX can be raised (the range of binary32 covers
// every 64-bit integer); zero gives +0.
//
// Combinational, evaluated under en_i (outputs are 0 otherwise).
module fpu_i2f
  import fpu_pkg::*;
(
  input  logic        en_i,        // evaluate (outputs are 0 otherwise)
  input  logic [63:0] int_i,       // W/WU forms use bits [31:0]
  input  logic [2:0]  rm_i,        // resolved rounding mode
  input  logic        is64_i,      // 64-bit operand (fcvt.s.l[u])
  input  logic        unsigned_i,  // unsigned operand (fcvt.s.wu/lu)
  output logic [31:0] result_o,    // binary32 result
  output logic [4:0]  fflags_o     // NX (the only flag raised)
);

  function automatic logic [36:0] i2f(logic [63:0] int_op, logic [2:0] rm, logic is64, logic is_unsigned);
    logic [63:0] x, mag;
    logic        sign;
    norm_res_t   nrm;
    // of/uf are unused: an integer never overflows or underflows binary32
    /* verilator lint_off UNUSEDSIGNAL */
    round_res_t  rnd;
    /* verilator lint_on UNUSEDSIGNAL */

    unique case ({is64, is_unsigned})
      2'b00:   x = {{32{int_op[31]}}, int_op[31:0]};
      2'b01:   x = {32'd0, int_op[31:0]};
      default: x = int_op;
    endcase
    sign = ~is_unsigned & x[63];
    mag  = sign ? -x : x;  // -2^63 maps to 2^63, correct as unsigned
    nrm  = fp_norm128({mag, 64'd0});
    // OF/UF cannot happen for integer inputs.
    rnd  = fp_round(sign, ExpW'(127 + 63) - $signed({6'b0, nrm.lz}), nrm.sig[127 -: 26], |nrm.sig[101:64],
                    rm);
    return nrm.zero ? 37'd0 : {rnd.result, 4'd0, rnd.nx};
  endfunction

  always_comb begin
    if (en_i) begin
      {result_o, fflags_o} = i2f(int_i, rm_i, is64_i, unsigned_i);
    end else begin
      {result_o, fflags_o} = '0;
    end
  end

endmodule
