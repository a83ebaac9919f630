// One 32-bit floating-point lane: a binary32 element operation built from the
// scalar FPU's combinational sub-units (sim/rtl/fpu: fpu_fma, fpu_cmp, fpu_sgnj,
// fpu_class, fpu_f2i, fpu_i2f), one set per lane. Operand a is vs2, b is vs1 or
// f[rs1], c is the old vd. For reductions the sequencer chains lanes: a is the
// running value and b the element. Combinational.
module vec_fp_lane
  import vec_pkg::*;
  import fpu_pkg::*;
(
  input  valu_e       op_i,        // in: the element operation
  input  logic [2:0]  frm_i,       // in: rounding mode
  input  logic [31:0] a_i,         // in: operand a (vs2, or the running reduction value)
  input  logic [31:0] b_i,         // in: operand b (vs1 or f[rs1], or the reduced element)
  input  logic [31:0] c_i,         // in: operand c (the old vd)
  input  logic        narrow16_i,  // in: float -> int conversions saturate to 16 bits (vfncvt)
  output logic [31:0] res_o,       // out: the result element
  output logic        cmp_o,       // out: the compare result (vmf*)
  output logic [4:0]  fflags_o     // out: its exception flags
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


  // vfrec7.v / vfrsqrt7.v: 7-bit estimates (RVV 1.0). Table entry i is the estimate at the
  // midpoint of input interval i, round(128 * (2 / m - 1)) for the reciprocal and
  // round(128 * (2 / sqrt(m) - 1)) for the square root, m the midpoint scaled to [1, 2)
  // (reciprocal, 7 fraction bits) or [1, 4) (square root, exponent LSB + 6 fraction bits).
  localparam logic [6:0] Rec7Tab [128] = '{
      7'd127, 7'd125, 7'd123, 7'd121, 7'd119, 7'd117, 7'd116, 7'd114,
      7'd112, 7'd110, 7'd109, 7'd107, 7'd105, 7'd104, 7'd102, 7'd100,
      7'd99 , 7'd97 , 7'd96 , 7'd94 , 7'd93 , 7'd91 , 7'd90 , 7'd88 ,
      7'd87 , 7'd85 , 7'd84 , 7'd83 , 7'd81 , 7'd80 , 7'd79 , 7'd77 ,
      7'd76 , 7'd75 , 7'd74 , 7'd72 , 7'd71 , 7'd70 , 7'd69 , 7'd68 ,
      7'd66 , 7'd65 , 7'd64 , 7'd63 , 7'd62 , 7'd61 , 7'd60 , 7'd59 ,
      7'd58 , 7'd57 , 7'd56 , 7'd55 , 7'd54 , 7'd53 , 7'd52 , 7'd51 ,
      7'd50 , 7'd49 , 7'd48 , 7'd47 , 7'd46 , 7'd45 , 7'd44 , 7'd43 ,
      7'd42 , 7'd41 , 7'd40 , 7'd40 , 7'd39 , 7'd38 , 7'd37 , 7'd36 ,
      7'd35 , 7'd35 , 7'd34 , 7'd33 , 7'd32 , 7'd31 , 7'd31 , 7'd30 ,
      7'd29 , 7'd28 , 7'd28 , 7'd27 , 7'd26 , 7'd25 , 7'd25 , 7'd24 ,
      7'd23 , 7'd23 , 7'd22 , 7'd21 , 7'd21 , 7'd20 , 7'd19 , 7'd19 ,
      7'd18 , 7'd17 , 7'd17 , 7'd16 , 7'd15 , 7'd15 , 7'd14 , 7'd14 ,
      7'd13 , 7'd12 , 7'd12 , 7'd11 , 7'd11 , 7'd10 , 7'd9  , 7'd9  ,
      7'd8  , 7'd8  , 7'd7  , 7'd7  , 7'd6  , 7'd5  , 7'd5  , 7'd4  ,
      7'd4  , 7'd3  , 7'd3  , 7'd2  , 7'd2  , 7'd1  , 7'd1  , 7'd0
  };
  localparam logic [6:0] Rsqrt7Tab [128] = '{
      7'd52 , 7'd51 , 7'd50 , 7'd48 , 7'd47 , 7'd46 , 7'd44 , 7'd43 ,
      7'd42 , 7'd41 , 7'd40 , 7'd39 , 7'd38 , 7'd36 , 7'd35 , 7'd34 ,
      7'd33 , 7'd32 , 7'd31 , 7'd30 , 7'd30 , 7'd29 , 7'd28 , 7'd27 ,
      7'd26 , 7'd25 , 7'd24 , 7'd23 , 7'd23 , 7'd22 , 7'd21 , 7'd20 ,
      7'd19 , 7'd19 , 7'd18 , 7'd17 , 7'd16 , 7'd16 , 7'd15 , 7'd14 ,
      7'd14 , 7'd13 , 7'd12 , 7'd12 , 7'd11 , 7'd10 , 7'd10 , 7'd9  ,
      7'd9  , 7'd8  , 7'd7  , 7'd7  , 7'd6  , 7'd6  , 7'd5  , 7'd4  ,
      7'd4  , 7'd3  , 7'd3  , 7'd2  , 7'd2  , 7'd1  , 7'd1  , 7'd0  ,
      7'd127, 7'd125, 7'd123, 7'd121, 7'd119, 7'd118, 7'd116, 7'd114,
      7'd113, 7'd111, 7'd109, 7'd108, 7'd106, 7'd105, 7'd103, 7'd102,
      7'd100, 7'd99 , 7'd97 , 7'd96 , 7'd95 , 7'd93 , 7'd92 , 7'd91 ,
      7'd90 , 7'd88 , 7'd87 , 7'd86 , 7'd85 , 7'd84 , 7'd83 , 7'd82 ,
      7'd80 , 7'd79 , 7'd78 , 7'd77 , 7'd76 , 7'd75 , 7'd74 , 7'd73 ,
      7'd72 , 7'd71 , 7'd70 , 7'd70 , 7'd69 , 7'd68 , 7'd67 , 7'd66 ,
      7'd65 , 7'd64 , 7'd63 , 7'd63 , 7'd62 , 7'd61 , 7'd60 , 7'd59 ,
      7'd59 , 7'd58 , 7'd57 , 7'd56 , 7'd56 , 7'd55 , 7'd54 , 7'd53
  };
  localparam logic [31:0] CanonNaN = 32'h7fc0_0000;

  logic        est_sign, est_nan, est_snan, est_inf, est_zero, est_sub;
  logic [4:0]  est_lz;          // leading zeros of a subnormal fraction
  logic signed [9:0]  est_nexp; // normalized biased exponent (0, -1, ... for subnormals)
  logic [22:0] est_nsig;        // normalized fraction, implicit bit removed
  logic signed [9:0]  rec_exp, rsq_exp;
  logic [6:0]  rec_tab, rsq_tab;
  logic [31:0] rec_res, rsq_res;
  logic [4:0]  rec_flags, rsq_flags;
  logic        rec_maxfin;

  always_comb begin
    est_sign = a_i[31];
    est_nan  = (a_i[30:23] == 8'hff) && (a_i[22:0] != '0);
    est_snan = est_nan && !a_i[22];
    est_inf  = (a_i[30:23] == 8'hff) && (a_i[22:0] == '0);
    est_zero = (a_i[30:0] == '0);
    est_sub  = (a_i[30:23] == 8'h00) && (a_i[22:0] != '0);
    est_lz   = 5'd0;
    for (int k = 0; k < 23; k++) begin
      if (a_i[k]) est_lz = 5'(22 - k);
    end
    if (est_sub) begin
      est_nexp = -10'(est_lz);
      est_nsig = a_i[22:0] << (est_lz + 5'd1);
    end else begin
      est_nexp = 10'(a_i[30:23]);
      est_nsig = a_i[22:0];
    end

    // reciprocal: exponent 2*127 - 1 - e; 0 and -1 give subnormal results
    rec_tab    = Rec7Tab[est_nsig[22:16]];
    rec_exp    = 10'sd253 - est_nexp;
    rec_maxfin = (frm_i == 3'(RM_RTZ)) || ((frm_i == 3'(RM_RDN)) && !est_sign)
                 || ((frm_i == 3'(RM_RUP)) && est_sign);
    rec_flags  = '0;
    if (rec_exp == 10'sd0) begin
      rec_res = {est_sign, 8'h00, 1'b1, rec_tab, 15'b0};
    end else if (rec_exp == -10'sd1) begin
      rec_res = {est_sign, 8'h00, 2'b01, rec_tab, 14'b0};
    end else begin
      rec_res = {est_sign, rec_exp[7:0], rec_tab, 16'b0};
    end
    if (est_nan) begin
      rec_res   = CanonNaN;
      rec_flags = {est_snan, 4'b0};
    end else if (est_inf) begin
      rec_res = {est_sign, 31'b0};
    end else if (est_zero) begin
      rec_res   = {est_sign, 8'hff, 23'b0};
      rec_flags = 5'b01000;
    end else if (est_sub && (est_lz > 5'd1)) begin
      // |x| < 2^-128: the reciprocal overflows
      rec_res   = rec_maxfin ? {est_sign, 8'hfe, 23'h7f_ffff} : {est_sign, 8'hff, 23'b0};
      rec_flags = 5'b00101;
    end

    // reciprocal square root: exponent (3*127 - 1 - e) / 2, index exponent LSB + 6 bits
    rsq_tab   = Rsqrt7Tab[{est_nexp[0], est_nsig[22:17]}];
    rsq_exp   = (10'sd380 - est_nexp) >>> 1;
    rsq_res   = {1'b0, rsq_exp[7:0], rsq_tab, 16'b0};
    rsq_flags = '0;
    if (est_nan || (est_sign && !est_zero)) begin
      rsq_res   = CanonNaN;
      rsq_flags = {est_snan || !est_nan, 4'b0};
    end else if (est_inf) begin
      rsq_res = '0;
    end else if (est_zero) begin
      rsq_res   = {est_sign, 8'hff, 23'b0};
      rsq_flags = 5'b01000;
    end
  end

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
      VF_REC7: begin
        res_o    = rec_res;
        fflags_o = rec_flags;
      end
      VF_RSQRT7: begin
        res_o    = rsq_res;
        fflags_o = rsq_flags;
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
  assign unused = ^{f2i_res[63:32], cmp_res[31:1], rec_exp[9:8], rsq_exp[9:8], est_nsig[15:0]};

endmodule
