// Gemmini's loop_ws unroller (LoopMatmul; DMA.md beside this file): takes the
// five loop_ws configs (funct 9..13) and loop_ws (funct 8) and emits the
// primitive commands of sim/gemmini/loop_ws.py's LoopWs.commands (mvin3 for D,
// mvin for A, mvin2 for B, preload + compute_preloaded/accumulated, mvout for C),
// the same multiset, in an order that keeps every dependency of the model's.
//
// Ports
//   clk_i, rst_ni                  clock, asynchronous active-low reset
//   in_valid_i, in_ready_o         command in (valid/ready)
//   in_funct_i[6:0]                8 (loop_ws) or 9..13 (its configs); the top
//                                  sends nothing else here
//   in_rs1_i[63:0], in_rs2_i[63:0] the instruction's source registers as written
//   out_valid_o, out_ready_i       primitive command out (valid/ready)
//   out_funct_o[6:0]               MVIN 2, MVIN2 1, MVIN3 14, PRELOAD 6,
//                                  COMPUTE_PRELOADED 4, COMPUTE_ACCUMULATED 5,
//                                  MVOUT 3
//   out_rs1_o[63:0], out_rs2_o[63:0]  exactly as the model's generator yields them
//   busy_o                         a loop is being unrolled (commands still to
//                                  come); low when idle
//
// Parameters (sim/gemmini/params.py): Dim, SpRows, AccRows, MaxBlockLen
// (dma_max_bytes / Dim), MaxBlockLenAcc (dma_max_bytes / (4 Dim)).
//
// Handshake: configs are taken whenever in_ready_o is high, also while a loop
// unrolls (the loop works on its own copy taken when loop_ws was accepted); a
// loop_ws waits (in_ready_o low) until the previous loop's last command has gone
// out. The scratchpad half alternates with every loop_ws, the accumulator half
// with every loop_ws whose C address is non-zero, as the model's. Commands are
// assumed legal (the top checks LoopWs._check's rules at its handshake).
module gemmini_loop_ws #(
  parameter int unsigned Dim            = 4,
  parameter int unsigned SpRows         = 4096,
  parameter int unsigned AccRows        = 256,
  parameter int unsigned MaxBlockLen    = 16,
  parameter int unsigned MaxBlockLenAcc = 4
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        in_valid_i,
  output logic        in_ready_o,
  input  logic [6:0]  in_funct_i,
  input  logic [63:0] in_rs1_i,
  input  logic [63:0] in_rs2_i,
  output logic        out_valid_o,
  input  logic        out_ready_i,
  output logic [6:0]  out_funct_o,
  output logic [63:0] out_rs1_o,
  output logic [63:0] out_rs2_o,
  output logic        busy_o
);
  // (body follows; this first version only fixes the ports)
  assign in_ready_o  = 1'b1;
  assign out_valid_o = 1'b0;
  assign out_funct_o = '0;
  assign out_rs1_o   = '0;
  assign out_rs2_o   = '0;
  assign busy_o      = 1'b0;
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{clk_i, rst_ni, in_valid_i, in_funct_i, in_rs1_i, in_rs2_i, out_ready_i};
  /* verilator lint_on UNUSEDSIGNAL */
  /* verilator lint_off UNUSEDPARAM */
  localparam int unsigned UnusedP = Dim + SpRows + AccRows + MaxBlockLen + MaxBlockLenAcc;
  /* verilator lint_on UNUSEDPARAM */
endmodule
