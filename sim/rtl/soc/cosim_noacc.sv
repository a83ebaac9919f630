// "No accelerator": the coprocessor port of an SoC without a vector or Gemmini
// unit. It takes every instruction offered in one cycle and refuses it (the
// core then raises an illegal-instruction trap), never completes anything and
// never touches memory.
module cosim_noacc
  import cosim_pkg::*;
(
  input  logic     clk_i,        // clock (unused)
  input  logic     rst_ni,       // asynchronous reset (unused)
  input  logic     req_valid_i,  // an instruction offered
  output logic     req_ready_o,  // ... taken (always)
  input  cop_req_t req_i,        // the instruction (unused)
  output logic     illegal_o,    // ... refused (always)
  output logic     cmp_valid_o,  // never a completion
  output cop_cmp_t cmp_o,        // (zero)
  output logic     progress_o    // never progress (watchdog)
);

  assign req_ready_o = 1'b1;
  assign illegal_o   = 1'b1;
  assign cmp_valid_o = 1'b0;
  assign cmp_o       = '0;
  assign progress_o  = 1'b0;

  logic unused;
  assign unused = ^{clk_i, rst_ni, req_valid_i, req_i};

endmodule
