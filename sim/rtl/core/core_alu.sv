// Integer ALU: OP/OP-IMM and their RV64 *W forms, plus branch comparisons.
// Purely combinational; the core selects operands and the operation.
module core_alu #(
  parameter int unsigned XLEN = 32
) (
  input  logic [2:0]      funct3_i,
  input  logic            alt_i,      // instruction bit 30: sub / sra
  input  logic            word_i,     // RV64 *W form: 32-bit operation, sign-extended
  input  logic [XLEN-1:0] a_i,
  input  logic [XLEN-1:0] b_i,
  output logic [XLEN-1:0] result_o,
  output logic            branch_taken_o  // funct3 interpreted as a branch condition
);

  localparam int unsigned ShW = (XLEN == 64) ? 6 : 5;

  logic [XLEN-1:0] res;
  logic [ShW-1:0]  shamt;
  logic [31:0]     a32;
  logic [31:0]     res32;
  logic [4:0]      shamt32;

  assign shamt   = b_i[ShW-1:0];
  assign a32     = a_i[31:0];
  assign shamt32 = b_i[4:0];

  always_comb begin
    unique case (funct3_i)
      3'b000:  res = alt_i ? a_i - b_i : a_i + b_i;
      3'b001:  res = a_i << shamt;
      3'b010:  res = {{(XLEN-1){1'b0}}, $signed(a_i) < $signed(b_i)};
      3'b011:  res = {{(XLEN-1){1'b0}}, a_i < b_i};
      3'b100:  res = a_i ^ b_i;
      3'b101:  res = alt_i ? XLEN'($signed(a_i) >>> shamt) : a_i >> shamt;
      3'b110:  res = a_i | b_i;
      default: res = a_i & b_i;
    endcase
  end

  always_comb begin
    unique case (funct3_i)
      3'b001:  res32 = a32 << shamt32;
      3'b101:  res32 = alt_i ? 32'($signed(a32) >>> shamt32) : a32 >> shamt32;
      default: res32 = res[31:0];  // add/sub: the low half of the full-width result
    endcase
  end

  assign result_o = word_i ? XLEN'($signed(res32)) : res;

  always_comb begin
    unique case (funct3_i)
      3'b000:  branch_taken_o = (a_i == b_i);
      3'b001:  branch_taken_o = (a_i != b_i);
      3'b100:  branch_taken_o = $signed(a_i) < $signed(b_i);
      3'b101:  branch_taken_o = $signed(a_i) >= $signed(b_i);
      3'b110:  branch_taken_o = a_i < b_i;
      3'b111:  branch_taken_o = a_i >= b_i;
      default: branch_taken_o = 1'b0;
    endcase
  end

endmodule
