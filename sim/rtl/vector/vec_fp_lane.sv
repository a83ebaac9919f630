// One 32-bit floating-point lane: a binary32 element operation built from the
// scalar FPU's combinational sub-units (sim/rtl/fpu: fpu_fma, fpu_cmp, fpu_sgnj,
// fpu_class, fpu_f2i, fpu_i2f), one set per lane. Operand a is vs2, b is vs1 or
// f[rs1], c is the old vd. For reductions the sequencer chains lanes: a is the
// running value and b the element. Combinational.
module vec_fp_lane
  import vec_pkg::*;
  import fpu_pkg::*;
(
  input  valu_e       op_i,
  input  logic [2:0]  frm_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,
  input  logic        narrow16_i,  // float -> int conversions saturate to 16 bits (vfncvt)
  output logic [31:0] res_o,
  output logic        cmp_o,
  output logic [4:0]  fflags_o
);

  localparam logic [31:0] One = 32'h3f80_0000;

  // fused multiply-add: (fma_neg_prod ? -1 : 1) * fa * fb + (fma_neg_c ? -1 : 1) * fc
  logic [31:0] fa, fb, fc;
  logic        fma_neg_prod, fma_neg_c, fma_no_addend, fma_en;
  logic [31:0] fma_res;
  logic [4:0]  fma_flags;
  always_comb begin
    fa        = b_i;
    fb        = a_i;
    fc        = c_i;
    fma_neg_prod  = 1'b0;
    fma_neg_c     = 1'b0;
    fma_no_addend = 1'b0;
    fma_en    = 1'b1;
    unique case (op_i)
      VF_ADD, VF_RUSUM, VF_ROSUM: begin fa = a_i; fb = One; fc = b_i; end
      VF_SUB:   begin fa = a_i; fb = One; fc = b_i; fma_neg_c = 1'b1; end
      VF_RSUB:  begin fa = b_i; fb = One; fc = a_i; fma_neg_c = 1'b1; end
      VF_MUL:   begin fma_no_addend = 1'b1; end
      VF_MACC:  ;
      VF_NMACC: begin fma_neg_prod = 1'b1; fma_neg_c = 1'b1; end
      VF_MSAC:  begin fma_neg_c = 1'b1; end
      VF_NMSAC: begin fma_neg_prod = 1'b1; end
      VF_MADD:  begin fb = c_i; fc = a_i; end
      VF_NMADD: begin fb = c_i; fc = a_i; fma_neg_prod = 1'b1; fma_neg_c = 1'b1; end
      VF_MSUB:  begin fb = c_i; fc = a_i; fma_neg_c = 1'b1; end
      VF_NMSUB: begin fb = c_i; fc = a_i; fma_neg_prod = 1'b1; end
      default:  fma_en = 1'b0;
    endcase
  end

  fpu_fma u_fma (
    .en_i        (fma_en),
    .a_i         (fa),
    .b_i         (fb),
    .c_i         (fc),
    .neg_prod_i  (fma_neg_prod),
    .neg_c_i     (fma_neg_c),
    .no_addend_i (fma_no_addend),
    .rm_i        (frm_i),
    .result_o    (fma_res),
    .fflags_o    (fma_flags)
  );

  // compares and min/max: vmfgt/vmfge swap the operands
  logic [31:0] ca, cb, cmp_res;
  logic [2:0]  csel;
  logic [4:0]  cmp_flags;
  always_comb begin
    ca   = a_i;
    cb   = b_i;
    csel = CmpEq;
    unique case (op_i)
      VF_MIN, VF_RMIN: csel = CmpMin;
      VF_MAX, VF_RMAX: csel = CmpMax;
      VF_LE:           csel = CmpLe;
      VF_LT:           csel = CmpLt;
      VF_GT:           begin csel = CmpLt; ca = b_i; cb = a_i; end
      VF_GE:           begin csel = CmpLe; ca = b_i; cb = a_i; end
      default:         csel = CmpEq;
    endcase
  end

  fpu_cmp u_cmp (
    .a_i      (ca),
    .b_i      (cb),
    .sel_i    (csel),
    .result_o (cmp_res),
    .fflags_o (cmp_flags)
  );

  logic [31:0] sgnj_res;
  fpu_sgnj u_sgnj (
    .a_i      (a_i),
    .b_i      (b_i),
    .sel_i    ((op_i == VF_SGNJN) ? 2'd1 : (op_i == VF_SGNJX) ? 2'd2 : 2'd0),
    .result_o (sgnj_res)
  );

  logic [9:0] cls;
  fpu_class u_class (
    .a_i     (a_i),
    .class_o (cls)
  );

  logic        f2i_en, f2i_uns, rtz;
  logic [63:0] f2i_res;
  logic [4:0]  f2i_flags;
  assign f2i_en  = (op_i == VF_CVT_XU_F) || (op_i == VF_CVT_X_F)
                || (op_i == VF_CVT_RTZ_XU_F) || (op_i == VF_CVT_RTZ_X_F);
  assign f2i_uns = (op_i == VF_CVT_XU_F) || (op_i == VF_CVT_RTZ_XU_F);
  assign rtz     = (op_i == VF_CVT_RTZ_XU_F) || (op_i == VF_CVT_RTZ_X_F);
  fpu_f2i u_f2i (
    .en_i       (f2i_en),
    .a_i        (a_i),
    .rm_i       (rtz ? 3'(RM_RTZ) : frm_i),
    .is64_i     (1'b0),
    .unsigned_i (f2i_uns),
    .result_o   (f2i_res),
    .fflags_o   (f2i_flags)
  );

  logic        i2f_en;
  logic [31:0] i2f_res;
  logic [4:0]  i2f_flags;
  assign i2f_en = (op_i == VF_CVT_F_XU) || (op_i == VF_CVT_F_X);
  fpu_i2f u_i2f (
    .en_i       (i2f_en),
    .int_i      ({32'b0, a_i}),
    .rm_i       (frm_i),
    .is64_i     (1'b0),
    .unsigned_i (op_i == VF_CVT_F_XU),
    .result_o   (i2f_res),
    .fflags_o   (i2f_flags)
  );

  always_comb begin
    res_o    = fma_res;
    cmp_o    = 1'b0;
    fflags_o = fma_en ? fma_flags : 5'd0;
    unique case (op_i)
      VF_MIN, VF_MAX, VF_RMIN, VF_RMAX: begin
        res_o    = cmp_res;
        fflags_o = cmp_flags;
      end
      VF_EQ, VF_LE, VF_LT, VF_GT, VF_GE: begin
        res_o    = '0;
        cmp_o    = cmp_res[0];
        fflags_o = cmp_flags;
      end
      VF_NE: begin
        res_o    = '0;
        cmp_o    = !cmp_res[0];
        fflags_o = cmp_flags;
      end
      VF_SGNJ, VF_SGNJN, VF_SGNJX: begin
        res_o    = sgnj_res;
        fflags_o = '0;
      end
      VF_CLASS: begin
        res_o    = {22'b0, cls};
        fflags_o = '0;
      end
      VF_CVT_XU_F, VF_CVT_X_F, VF_CVT_RTZ_XU_F, VF_CVT_RTZ_X_F: begin
        res_o    = f2i_res[31:0];
        fflags_o = f2i_flags;
        if (narrow16_i) begin
          // out of the 16-bit range: saturate, invalid only (as SoftFloat's f32_to_[u]i16)
          if (f2i_uns && f2i_res[31:0] > 32'h0000_ffff) begin
            res_o    = 32'h0000_ffff;
            fflags_o = 5'b10000;
          end else if (!f2i_uns && $signed(f2i_res[31:0]) > 32'sh0000_7fff) begin
            res_o    = 32'h0000_7fff;
            fflags_o = 5'b10000;
          end else if (!f2i_uns && $signed(f2i_res[31:0]) < -32'sh0000_8000) begin
            res_o    = 32'hffff_8000;
            fflags_o = 5'b10000;
          end
        end
      end
      VF_CVT_F_XU, VF_CVT_F_X: begin
        res_o    = i2f_res;
        fflags_o = i2f_flags;
      end
      default: ;
    endcase
  end

  logic unused;
  assign unused = ^{f2i_res[63:32], cmp_res[31:1]};

endmodule
