// "No accelerator": the coprocessor port of an SoC without a vector or Gemmini
// unit. It takes every instruction offered in one cycle and refuses it (the
// core then raises an illegal-instruction trap), never completes anything and
// never touches memory.
module cosim_noacc
  import cosim_pkg::*;
(
  input  logic     clk_i,
  input  logic     rst_ni,
  input  logic     req_valid_i,
  output logic     req_ready_o,
  input  cop_req_t req_i,
  output logic     illegal_o,
  output logic     cmp_valid_o,
  output cop_cmp_t cmp_o,
  output logic     progress_o
);

  assign req_ready_o = 1'b1;
  assign illegal_o   = 1'b1;
  assign cmp_valid_o = 1'b0;
  assign cmp_o       = '0;
  assign progress_o  = 1'b0;

  logic unused;
  assign unused = ^{clk_i, rst_ni, req_valid_i, req_i};

endmodule
