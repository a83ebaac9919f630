// IEEE-754 binary32 FPU implementing every RISC-V F-extension arithmetic operation.
// Interface fixed for the core. See README.md in this directory.
//
// STATUS: interface only. No operation is implemented yet: every request answers
// with result 0 and fflags 0 (NOT a correct result). Do not rely on results until
// this notice is removed.
module cosim_fpu
  import fpu_pkg::*;
(
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        req_valid_i,
  output logic        req_ready_o,
  input  fpu_op_e     op_i,
  input  logic [2:0]  rm_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,
  input  logic [63:0] int_i,
  output logic        resp_valid_o,
  output logic [63:0] result_o,
  output logic [4:0]  fflags_o
);

  logic valid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
    end else begin
      valid_q <= req_valid_i;
    end
  end

  assign req_ready_o  = 1'b1;
  assign resp_valid_o = valid_q;
  assign result_o     = 64'd0;  // UNIMPLEMENTED placeholder (see STATUS above)
  assign fflags_o     = 5'd0;

  logic unused_inputs;
  assign unused_inputs = ^{op_i, rm_i, a_i, b_i, c_i, int_i};

endmodule
