// Instruction decoder: classifies one 32-bit instruction, extracts its immediate
// and checks static legality for RV{32,64}IMF + Zicsr (+ vset{i}vl{i} when a
// vector unit is present). Dynamic checks (FS/VS Off, rounding mode, CSR
// existence) are made by the core, which knows the state.
module core_decoder
  import core_pkg::*;
  import fpu_pkg::*;
#(
  parameter int unsigned XLEN       = 32,
  parameter bit          VecPresent = 1'b0
) (
  input  logic [31:0]     insn_i,    // the instruction word
  output cls_e            class_o,   // its class (ClsIllegal when statically illegal)
  output logic [XLEN-1:0] imm_o,     // its immediate, sign-extended
  output logic            word_o,    // RV64 *W arithmetic
  output logic            uses_rm_o, // funct3 is a rounding mode
  output fpu_op_e         fpu_op_o,  // the FPU operation (ClsFpu)
  output logic            fpu_int_rd_o  // the FPU result goes to x[rd]
);

  logic [6:0] opcode, funct7;
  logic [2:0] funct3;
  logic [4:0] rs2;
  logic [XLEN-1:0] imm_itype, imm_stype, imm_btype, imm_utype, imm_jtype;
  logic rv64;

  assign opcode = insn_i[6:0];
  assign funct3 = insn_i[14:12];
  assign funct7 = insn_i[31:25];
  assign rs2    = insn_i[24:20];
  assign rv64   = (XLEN == 64);

  assign imm_itype = XLEN'($signed(insn_i[31:20]));
  assign imm_stype = XLEN'($signed({insn_i[31:25], insn_i[11:7]}));
  assign imm_btype = XLEN'($signed({insn_i[31], insn_i[7], insn_i[30:25], insn_i[11:8], 1'b0}));
  assign imm_utype = XLEN'($signed({insn_i[31:12], 12'b0}));
  assign imm_jtype = XLEN'($signed({insn_i[31], insn_i[19:12], insn_i[20], insn_i[30:21], 1'b0}));

  always_comb begin
    class_o      = ClsIllegal;
    imm_o        = imm_itype;
    word_o       = 1'b0;
    uses_rm_o    = 1'b0;
    fpu_op_o     = FPU_ADD;
    fpu_int_rd_o = 1'b0;
    unique case (opcode)
      OpLui:   begin class_o = ClsLui; imm_o = imm_utype; end
      OpAuipc: begin class_o = ClsAuipc; imm_o = imm_utype; end
      OpJal:   begin class_o = ClsJal; imm_o = imm_jtype; end
      OpJalr:  if (funct3 == 3'b000) class_o = ClsJalr;
      OpBranch: begin
        imm_o = imm_btype;
        if (funct3 != 3'b010 && funct3 != 3'b011) class_o = ClsBranch;
      end
      OpLoad: begin
        // lb lh lw lbu lhu always; ld lwu on RV64 only
        if (funct3 != 3'b111 && (rv64 || (funct3 != 3'b011 && funct3 != 3'b110))) class_o = ClsLoad;
      end
      OpStore: begin
        imm_o = imm_stype;
        if (funct3 == 3'b000 || funct3 == 3'b001 || funct3 == 3'b010 || (rv64 && funct3 == 3'b011)) class_o = ClsStore;
      end
      OpOpImm: begin
        unique case (funct3)
          3'b001: if (funct7[6:1] == 6'b0 && (rv64 || !funct7[0])) class_o = ClsAluImm;
          3'b101: if ((funct7[6:1] == 6'b0 || funct7[6:1] == 6'b010000) && (rv64 || !funct7[0])) class_o = ClsAluImm;
          default: class_o = ClsAluImm;
        endcase
      end
      OpOpImm32: if (rv64) begin
        word_o = 1'b1;
        unique case (funct3)
          3'b000: class_o = ClsAluImm;
          3'b001: if (funct7 == 7'b0) class_o = ClsAluImm;
          3'b101: if (funct7 == 7'b0 || funct7 == 7'b0100000) class_o = ClsAluImm;
          default: ;
        endcase
      end
      OpOp: begin
        if (funct7 == 7'b0000001) class_o = funct3[2] ? ClsDiv : ClsMul;
        else if (funct7 == 7'b0 || (funct7 == 7'b0100000 && (funct3 == 3'b000 || funct3 == 3'b101)))
          class_o = ClsAluReg;
      end
      OpOp32: if (rv64) begin
        word_o = 1'b1;
        if (funct7 == 7'b0000001) begin
          if (funct3 == 3'b000) class_o = ClsMul;
          else if (funct3[2]) class_o = ClsDiv;
        end else if ((funct7 == 7'b0 && (funct3 == 3'b000 || funct3 == 3'b001 || funct3 == 3'b101))
                  || (funct7 == 7'b0100000 && (funct3 == 3'b000 || funct3 == 3'b101))) begin
          class_o = ClsAluReg;
        end
      end
      OpMiscMem: begin
        if (funct3 == 3'b000 || funct3 == 3'b001) class_o = ClsFence;
      end
      OpSystem: begin
        if (funct3 == 3'b000) begin
          if (insn_i == 32'h0000_0073) class_o = ClsEcall;
          else if (insn_i == 32'h0010_0073) class_o = ClsEbreak;
          else if (insn_i == 32'h3020_0073) class_o = ClsMret;
          else if (insn_i == 32'h1050_0073) class_o = ClsFence;            // wfi: a no-op here
        end else if (funct3 != 3'b100) begin
          class_o = ClsCsr;
        end
      end
      OpLoadFp: begin
        if (funct3 == 3'b010) class_o = ClsFload;
        else if (funct3 == 3'b000 || funct3 == 3'b101 || funct3 == 3'b110 || funct3 == 3'b111)
          class_o = ClsCop;
      end
      OpStoreFp: begin
        imm_o = imm_stype;
        if (funct3 == 3'b010) class_o = ClsFstore;
        else if (funct3 == 3'b000 || funct3 == 3'b101 || funct3 == 3'b110 || funct3 == 3'b111)
          class_o = ClsCop;
      end
      OpMadd, OpMsub, OpNmsub, OpNmadd: begin
        if (insn_i[26:25] == 2'b00) begin
          class_o   = ClsFpu;
          uses_rm_o = 1'b1;
          unique case (opcode)
            OpMadd:  fpu_op_o = FPU_MADD;
            OpMsub:  fpu_op_o = FPU_MSUB;
            OpNmsub: fpu_op_o = FPU_NMSUB;
            default: fpu_op_o = FPU_NMADD;
          endcase
        end
      end
      OpOpFp: begin
        if (funct7[1:0] == 2'b00) begin
          unique case (funct7[6:2])
            5'b00000: begin class_o = ClsFpu; uses_rm_o = 1'b1; fpu_op_o = FPU_ADD; end
            5'b00001: begin class_o = ClsFpu; uses_rm_o = 1'b1; fpu_op_o = FPU_SUB; end
            5'b00010: begin class_o = ClsFpu; uses_rm_o = 1'b1; fpu_op_o = FPU_MUL; end
            5'b00011: begin class_o = ClsFpu; uses_rm_o = 1'b1; fpu_op_o = FPU_DIV; end
            5'b01011: if (rs2 == 5'd0) begin class_o = ClsFpu; uses_rm_o = 1'b1; fpu_op_o = FPU_SQRT; end
            5'b00100: begin
              class_o = ClsFpu;
              unique case (funct3)
                3'b000:  fpu_op_o = FPU_SGNJ;
                3'b001:  fpu_op_o = FPU_SGNJN;
                3'b010:  fpu_op_o = FPU_SGNJX;
                default: class_o = ClsIllegal;
              endcase
            end
            5'b00101: begin
              class_o = ClsFpu;
              unique case (funct3)
                3'b000:  fpu_op_o = FPU_MIN;
                3'b001:  fpu_op_o = FPU_MAX;
                default: class_o = ClsIllegal;
              endcase
            end
            5'b10100: begin
              class_o      = ClsFpu;
              fpu_int_rd_o = 1'b1;
              unique case (funct3)
                3'b000:  fpu_op_o = FPU_LE;
                3'b001:  fpu_op_o = FPU_LT;
                3'b010:  fpu_op_o = FPU_EQ;
                default: class_o = ClsIllegal;
              endcase
            end
            5'b11000: begin
              fpu_int_rd_o = 1'b1;
              uses_rm_o    = 1'b1;
              unique case (rs2)
                5'd0: begin class_o = ClsFpu; fpu_op_o = FPU_CVT_W_S; end
                5'd1: begin class_o = ClsFpu; fpu_op_o = FPU_CVT_WU_S; end
                5'd2: if (rv64) begin class_o = ClsFpu; fpu_op_o = FPU_CVT_L_S; end
                5'd3: if (rv64) begin class_o = ClsFpu; fpu_op_o = FPU_CVT_LU_S; end
                default: ;
              endcase
            end
            5'b11010: begin
              uses_rm_o = 1'b1;
              unique case (rs2)
                5'd0: begin class_o = ClsFpu; fpu_op_o = FPU_CVT_S_W; end
                5'd1: begin class_o = ClsFpu; fpu_op_o = FPU_CVT_S_WU; end
                5'd2: if (rv64) begin class_o = ClsFpu; fpu_op_o = FPU_CVT_S_L; end
                5'd3: if (rv64) begin class_o = ClsFpu; fpu_op_o = FPU_CVT_S_LU; end
                default: ;
              endcase
            end
            5'b11100: begin
              if (rs2 == 5'd0 && funct3 == 3'b000) class_o = ClsFmvXW;
              else if (rs2 == 5'd0 && funct3 == 3'b001) begin
                class_o      = ClsFpu;
                fpu_int_rd_o = 1'b1;
                fpu_op_o     = FPU_CLASS;
              end
            end
            5'b11110: if (rs2 == 5'd0 && funct3 == 3'b000) class_o = ClsFmvWX;
            default: ;
          endcase
        end
      end
      OpOpV: begin
        // vset{i}vl{i} belong to the core when a vector unit is present.
        if (VecPresent && funct3 == 3'b111) class_o = ClsVset;
        else class_o = ClsCop;
      end
      OpCustom0, OpCustom1, OpCustom2, OpCustom3: class_o = ClsCop;
      default: ;
    endcase
  end

endmodule
