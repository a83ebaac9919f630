// Integer ALU: OP/OP-IMM and their RV64 *W forms, plus branch comparisons.
// Purely combinational; the core selects operands and the operation.
module core_alu #(
  parameter int unsigned XLEN = 32
) (
  input  logic [2:0]      funct3_i,   // the operation (OP/OP-IMM) or branch condition (BRANCH)
  input  logic            alt_i,      // instruction bit 30: sub / sra
  input  logic            word_i,     // RV64 *W form: 32-bit operation, sign-extended
  input  logic [XLEN-1:0] a_i,        // rs1
  input  logic [XLEN-1:0] b_i,        // rs2 or the immediate
  output logic [XLEN-1:0] result_o,   // the OP/OP-IMM result
  output logic            branch_taken_o  // funct3 interpreted as a branch condition
);

  localparam int unsigned ShiftW = (XLEN == 64) ? 6 : 5;

  logic [XLEN-1:0]   result;
  logic [ShiftW-1:0] shift_amount;
  logic [31:0]       a_low;            // RV64 *W forms work on the low words
  logic [31:0]       result32;
  logic [4:0]        shift_amount32;

  assign shift_amount   = b_i[ShiftW-1:0];
  assign a_low          = a_i[31:0];
  assign shift_amount32 = b_i[4:0];

  always_comb begin
    unique case (funct3_i)
      3'b000:  result = alt_i ? a_i - b_i : a_i + b_i;
      3'b001:  result = a_i << shift_amount;
      3'b010:  result = {{(XLEN-1){1'b0}}, $signed(a_i) < $signed(b_i)};
      3'b011:  result = {{(XLEN-1){1'b0}}, a_i < b_i};
      3'b100:  result = a_i ^ b_i;
      3'b101:  result = alt_i ? XLEN'($signed(a_i) >>> shift_amount) : a_i >> shift_amount;
      3'b110:  result = a_i | b_i;
      default: result = a_i & b_i;
    endcase
  end

  always_comb begin
    unique case (funct3_i)
      3'b001:  result32 = a_low << shift_amount32;
      3'b101:  result32 = alt_i ? 32'($signed(a_low) >>> shift_amount32) : a_low >> shift_amount32;
      default: result32 = result[31:0];  // add/sub: the low half of the full-width result
    endcase
  end

  assign result_o = word_i ? XLEN'($signed(result32)) : result;

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
