// Test bench top of gemmini_unit_decode: the decoder with its ports public for
// cocotb (unit_decode_cocotb.py).
module unit_decode_tb
  import gemmini_unit_pkg::*;
#(
  parameter int unsigned Dim            = 4,
  parameter int unsigned SpRows         = 1024,
  parameter int unsigned AccRows        = 256,
  parameter int unsigned MaxBlockLen    = 16,
  parameter int unsigned MaxBlockLenAcc = 4,
  parameter bit          HasWs          = 1'b1,
  parameter bit          HasOs          = 1'b1,
  parameter logic [31:0] Mem0Base       = 32'h2000_0000,
  parameter logic [32:0] Mem0Size       = 33'h0_2000_0000,
  parameter logic [31:0] Mem1Base       = 32'h4000_0000,
  parameter logic [32:0] Mem1Size       = 33'h0_8000_0000,
  parameter logic [31:0] Mem2Base       = 32'hC000_0000,
  parameter logic [32:0] Mem2Size       = 33'h0_0100_0000
) (
  input  logic        clk_i    /*verilator public_flat_rw*/,
  input  logic        rst_ni   /*verilator public_flat_rw*/,
  input  logic [6:0]  funct_i  /*verilator public_flat_rw*/,
  input  logic [63:0] rs1_i    /*verilator public_flat_rw*/,
  input  logic [63:0] rs2_i    /*verilator public_flat_rw*/,
  input  logic        accept_i /*verilator public_flat_rw*/,
  output logic        legal_o  /*verilator public_flat_rd*/,
  output logic [5:0]  reason_o /*verilator public_flat_rd*/
);
  gm_illegal_e reason;
  gemmini_unit_decode #(
    .Dim(Dim), .SpRows(SpRows), .AccRows(AccRows), .MaxBlockLen(MaxBlockLen), .MaxBlockLenAcc(MaxBlockLenAcc),
    .HasWs(HasWs), .HasOs(HasOs), .Mem0Base(Mem0Base), .Mem0Size(Mem0Size), .Mem1Base(Mem1Base),
    .Mem1Size(Mem1Size), .Mem2Base(Mem2Base), .Mem2Size(Mem2Size)
  ) u_dec (
    .clk_i, .rst_ni, .funct_i, .rs1_i, .rs2_i, .legal_o, .reason_o(reason), .accept_i
  );
  assign reason_o = reason;
endmodule
