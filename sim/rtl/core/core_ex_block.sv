// Execute block: the ALU (with its operand selection), the multiplier, the
// divider and the FPU (with the rounding mode resolved: frm for DYN, reserved
// modes reported for the controller to trap). The controller starts the
// multi-cycle units and takes their results.
module core_ex_block
  import core_pkg::*;
  import fpu_pkg::*;
#(
  parameter int unsigned XLEN = 32
) (
  input  logic            clk_i,              // clock
  input  logic            rst_ni,             // asynchronous reset, active low

  // The instruction and its operands
  input  cls_e            class_i,            // instruction class
  input  logic [31:0]     insn_i,             // funct3 and the alternate-op bit
  input  logic [XLEN-1:0] imm_i,              // immediate (I-type ALU operand)
  input  logic            word_i,             // an RV64 *W form
  input  logic [XLEN-1:0] rs1_i,              // x[rs1]
  input  logic [XLEN-1:0] rs2_i,              // x[rs2]
  input  logic [31:0]     frs1_i,             // f[rs1], unboxed
  input  logic [31:0]     frs2_i,             // f[rs2], unboxed
  input  logic [31:0]     frs3_i,             // f[rs3], unboxed

  // ALU and multiplier (combinational)
  output logic [XLEN-1:0] alu_result_o,       // ALU result
  output logic            branch_taken_o,     // the branch condition holds
  input  logic            mul_enable_i,       // a multiply executes this cycle
  output logic [XLEN-1:0] mul_result_o,       // the product

  // Divider (XLEN cycles)
  input  logic            div_start_i,        // start a division (operands latched)
  output logic            div_done_o,         // its result is ready (one cycle)
  output logic [XLEN-1:0] div_result_o,       // quotient or remainder

  // FPU
  input  logic            fpu_uses_rm_i,      // funct3 is a rounding mode
  input  fpu_op_e         fpu_op_i,           // the FPU operation
  input  logic [2:0]      frm_i,              // fcsr.frm (for DYN)
  output logic            fpu_rm_bad_o,       // the resolved rounding mode is reserved
  input  logic            fpu_req_valid_i,    // an FPU request
  output logic            fpu_req_ready_o,    // ... accepted
  output logic            fpu_resp_valid_o,   // FPU result ready
  output logic [63:0]     fpu_result_o,       // its value
  output logic [4:0]      fpu_fflags_o        // its exception flags
);

  logic [2:0]      funct3, rm;
  logic            alu_alt;
  logic [XLEN-1:0] alu_b;

  assign funct3  = insn_i[14:12];
  assign alu_alt = (class_i == ClsAluReg) ? insn_i[30] : (funct3 == 3'b101 && insn_i[30]);
  assign alu_b   = (class_i == ClsAluImm) ? imm_i : rs2_i;

  core_alu #(.XLEN(XLEN)) u_alu (
    .funct3_i       (funct3),
    .alt_i          (alu_alt),
    .word_i         (word_i),
    .a_i            (rs1_i),
    .b_i            (alu_b),
    .result_o       (alu_result_o),
    .branch_taken_o (branch_taken_o)
  );

  core_mul #(.XLEN(XLEN)) u_mul (
    .enable_i (mul_enable_i),
    .funct3_i (funct3),
    .word_i   (word_i),
    .a_i      (rs1_i),
    .b_i      (rs2_i),
    .result_o (mul_result_o)
  );

  core_div #(.XLEN(XLEN)) u_div (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .start_i  (div_start_i),
    .signed_i (~funct3[0]),
    .rem_i    (funct3[1]),
    .word_i   (word_i),
    .a_i      (rs1_i),
    .b_i      (rs2_i),
    .done_o   (div_done_o),
    .result_o (div_result_o)
  );

  assign rm           = (funct3 == 3'b111) ? frm_i : funct3;
  assign fpu_rm_bad_o = fpu_uses_rm_i && (rm == 3'b101 || rm == 3'b110 || rm == 3'b111);

  cosim_fpu u_fpu (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .req_valid_i  (fpu_req_valid_i),
    .req_ready_o  (fpu_req_ready_o),
    .op_i         (fpu_op_i),
    .rm_i         (fpu_uses_rm_i ? rm : 3'b000),
    .a_i          (frs1_i),
    .b_i          (frs2_i),
    .c_i          (frs3_i),
    .int_i        (64'($signed(rs1_i))),
    .resp_valid_o (fpu_resp_valid_o),
    .result_o     (fpu_result_o),
    .fflags_o     (fpu_fflags_o)
  );

  // Register fields and the opcode are decoded outside (class_i).
  logic unused;
  assign unused = ^{insn_i[31], insn_i[29:15], insn_i[11:0]};

endmodule
