// vset{i}vl{i}: the new vl and vtype (RVV 1.0 with Spike's choices, README.md
// "vset{i}vl{i}"). Combinational; the controller writes both CSRs when the
// instruction retires. Without a vector unit the instruction is illegal and the
// block folds away.
module core_vset #(
  parameter int unsigned XLEN       = 32,
  parameter bit          VecPresent = 1'b0,
  parameter int unsigned VLEN       = 128
) (
  input  logic            enable_i,   // the instruction is vset{i}vl{i} (gates the logic)
  input  logic [31:0]     insn_i,     // the instruction word
  input  logic [XLEN-1:0] rs1_i,      // x[rs1]: the AVL (vsetvli, vsetvl)
  input  logic [XLEN-1:0] rs2_i,      // x[rs2]: the new vtype (vsetvl)
  input  logic [XLEN-1:0] vl_i,       // current vl (AVL rule for rs1 = rd = x0)
  output logic [XLEN-1:0] vl_o,       // new vl
  output logic [XLEN-1:0] vtype_o     // new vtype (vill = 1 << (XLEN-1), all else 0)
);

  logic [4:0]      rd, rs1;
  logic [XLEN-1:0] vtype_new, avl, vlmax;
  logic            avl_is_x0, vill;
  logic [2:0]      sew, lmul;   // vtype's vsew and vlmul fields

  assign rd  = insn_i[11:7];
  assign rs1 = insn_i[19:15];

  always_comb begin
    vtype_new = '0;
    avl       = '0;
    avl_is_x0 = 1'b0;
    sew       = '0;
    lmul      = '0;
    vill      = 1'b1;
    vlmax     = '0;
    vtype_o   = '0;
    vl_o      = '0;
    if (VecPresent && enable_i) begin
      if (!insn_i[31]) begin              // vsetvli
        vtype_new = XLEN'(insn_i[30:20]);
        avl       = rs1_i;
        avl_is_x0 = (rs1 == 5'd0);
      end else if (insn_i[30]) begin      // vsetivli
        vtype_new = XLEN'(insn_i[29:20]);
        avl       = XLEN'(rs1);
        avl_is_x0 = 1'b0;
      end else begin                      // vsetvl
        vtype_new = rs2_i;
        avl       = rs1_i;
        avl_is_x0 = (rs1 == 5'd0);
      end
      sew  = vtype_new[5:3];
      lmul = vtype_new[2:0];
      // ELEN = 32: SEW <= 32 * min(LMUL, 1); reserved bits and LMUL code 4 are vill.
      vill = (vtype_new[XLEN-1:8] != '0) || sew > 3'd2 || lmul == 3'b100
          || lmul == 3'b101 || (lmul == 3'b110 && sew > 3'd0)
          || (lmul == 3'b111 && sew > 3'd1);
      // VLMAX = VLEN / SEW * LMUL
      if (lmul[2]) vlmax = XLEN'(VLEN) >> (sew + 3'd3 + (3'd4 - {1'b0, lmul[1:0]}));
      else vlmax = (XLEN'(VLEN) >> (sew + 3'd3)) << lmul[1:0];
      if (vill) begin
        vtype_o = {1'b1, {(XLEN-1){1'b0}}};
        vl_o    = '0;
      end else begin
        vtype_o = vtype_new;
        if (avl_is_x0 && rd == 5'd0) vl_o = (vl_i > vlmax) ? vlmax : vl_i;
        else if (avl_is_x0) vl_o = vlmax;
        else vl_o = (avl > vlmax) ? vlmax : avl;
      end
    end
  end

`ifdef COSIM_ASSERT
  // vill forces vl = 0; otherwise vl never exceeds VLMAX.
  always_comb begin
    if (enable_i) begin
      VsetVlLegal: assert (vtype_o[XLEN-1] ? vl_o == '0 : vl_o <= vlmax)
        else $error("vset{i}vl{i} produced vl above VLMAX or with vill");
    end
  end
`endif

  // The opcode and funct3 were decoded outside (enable_i).
  logic unused;
  assign unused = ^{insn_i[14:12], insn_i[6:0]};

endmodule
