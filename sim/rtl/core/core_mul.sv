// Multiplier: mul/mulh/mulhsu/mulhu and RV64 mulw in one cycle. (XLEN+1)-bit
// signed operands cover every signedness.
module core_mul #(
  parameter int unsigned XLEN = 32
) (
  input  logic            enable_i,   // a multiply executes this cycle (gates the product)
  input  logic [2:0]      funct3_i,   // which product and half
  input  logic            word_i,     // mulw: the low 32 bits, sign-extended
  input  logic [XLEN-1:0] a_i,        // rs1
  input  logic [XLEN-1:0] b_i,        // rs2
  output logic [XLEN-1:0] result_o    // the product half funct3_i selects
);

  logic signed [XLEN:0]     a, b;
  logic signed [2*XLEN+1:0] product;

  assign a = $signed({(funct3_i == 3'b001 || funct3_i == 3'b010) & a_i[XLEN-1], a_i});
  assign b = $signed({(funct3_i == 3'b001) & b_i[XLEN-1], b_i});
  // Evaluated only for multiplies: keeps the wide product off every other cycle
  // of a cycle-based simulation (the result is unused otherwise).
  always_comb begin
    product = '0;
    if (enable_i) product = a * b;
  end
  always_comb begin
    if (word_i) result_o = XLEN'($signed(product[31:0]));
    else if (funct3_i == 3'b000) result_o = product[XLEN-1:0];
    else result_o = product[2*XLEN-1:XLEN];
  end

  // The two sign bits of the extended product are never selected.
  logic unused;
  assign unused = ^{product[2*XLEN+1:2*XLEN]};

endmodule
