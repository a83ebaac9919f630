// Register file: three read ports, two write ports (A: the executing
// instruction or a coprocessor result; B: load data returning from memory).
// The core never writes one register through both ports in the same cycle (its
// scoreboard holds back writers of a register with a load in flight).
// ZeroReg hard-wires entry 0 to zero (the x file); the f file has no zero.
module core_regfile #(
  parameter int unsigned Width   = 32,
  parameter bit          ZeroReg = 1'b1
) (
  input  logic             clk_i,       // clock (no reset: contents start at zero)
  input  logic [4:0]       raddr_a_i,   // read port a (combinational): rs1
  input  logic [4:0]       raddr_b_i,   // read port b: rs2
  input  logic [4:0]       raddr_c_i,   // read port c: rs3 (f file: fused multiply-adds)
  output logic [Width-1:0] rdata_a_o,   // the register at raddr_a_i (x0 reads 0 with ZeroReg)
  output logic [Width-1:0] rdata_b_o,   // the register at raddr_b_i
  output logic [Width-1:0] rdata_c_o,   // the register at raddr_c_i
  input  logic             we_i,        // write port A: the instruction or a completion
  input  logic [4:0]       waddr_i,     // its register
  input  logic [Width-1:0] wdata_i,     // its value
  input  logic             we_b_i,      // write port B: a returning load
  input  logic [4:0]       waddr_b_i,   // its register
  input  logic [Width-1:0] wdata_b_i    // its value
);

  logic [Width-1:0] regs_q [32];

  // No reset: like Spike, the contents start as zero (Verilator zero-initialises
  // and the start-up code writes every register it relies on).
  always_ff @(posedge clk_i) begin
    if (we_i && !(ZeroReg && waddr_i == 5'd0)) begin
      regs_q[waddr_i] <= wdata_i;
    end
    if (we_b_i && !(ZeroReg && waddr_b_i == 5'd0)) begin
      regs_q[waddr_b_i] <= wdata_b_i;
    end
  end

  assign rdata_a_o = (ZeroReg && raddr_a_i == 5'd0) ? '0 : regs_q[raddr_a_i];
  assign rdata_b_o = (ZeroReg && raddr_b_i == 5'd0) ? '0 : regs_q[raddr_b_i];
  assign rdata_c_o = (ZeroReg && raddr_c_i == 5'd0) ? '0 : regs_q[raddr_c_i];

endmodule
