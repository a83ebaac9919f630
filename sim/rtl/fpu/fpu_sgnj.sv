// Sign injection (fsgnj/fsgnjn/fsgnjx): pure bit manipulation, NaNs pass through
// unchanged (no canonicalization) and no flags are raised, as RISC-V specifies.
module fpu_sgnj (
  input  logic [31:0] a_i,     // binary32 operand (the magnitude, rs1)
  input  logic [31:0] b_i,     // binary32 operand (the sign source, rs2)
  input  logic [1:0]  sel_i,   // 0 sgnj, 1 sgnjn, 2 sgnjx
  output logic [31:0] result_o // binary32 result
);

  logic sign;
  logic unused_b;  // only b's sign matters
  assign unused_b = ^b_i[30:0];

  always_comb begin
    unique case (sel_i)
      2'd0:    sign = b_i[31];
      2'd1:    sign = ~b_i[31];
      default: sign = a_i[31] ^ b_i[31];
    endcase
  end

  assign result_o = {sign, a_i[30:0]};

endmodule
