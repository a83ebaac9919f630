// Test-bench top of gemmini_loop_ws for the cocotb driver loopws_cocotb.py:
// the unroller with its ports flat and public.
module loopws_tb #(
  parameter int unsigned Dim            = 4,
  parameter int unsigned SpRows         = 4096,
  parameter int unsigned AccRows        = 256,
  parameter int unsigned MaxBlockLen    = 16,
  parameter int unsigned MaxBlockLenAcc = 4
) (
  input  logic        clk_i /*verilator public_flat_rw*/,
  input  logic        rst_ni /*verilator public_flat_rw*/,
  input  logic        in_valid_i /*verilator public_flat_rw*/,
  output logic        in_ready_o /*verilator public_flat_rd*/,
  input  logic [6:0]  in_funct_i /*verilator public_flat_rw*/,
  input  logic [63:0] in_rs1_i /*verilator public_flat_rw*/,
  input  logic [63:0] in_rs2_i /*verilator public_flat_rw*/,
  output logic        out_valid_o /*verilator public_flat_rd*/,
  input  logic        out_ready_i /*verilator public_flat_rw*/,
  output logic [6:0]  out_funct_o /*verilator public_flat_rd*/,
  output logic [63:0] out_rs1_o /*verilator public_flat_rd*/,
  output logic [63:0] out_rs2_o /*verilator public_flat_rd*/,
  output logic        busy_o /*verilator public_flat_rd*/
);
  gemmini_loop_ws #(
    .Dim(Dim), .SpRows(SpRows), .AccRows(AccRows), .MaxBlockLen(MaxBlockLen), .MaxBlockLenAcc(MaxBlockLenAcc)
  ) u_loop (.*);
endmodule
