// IEEE-754 binary32 FPU implementing every RISC-V F-extension arithmetic operation
// (moves are the core's job). Interface fixed for the core; see README.md here.
//
// The wide units (FMA, conversions) are enabled only in the cycle their result is
// due, so a Verilator model of the core does not evaluate them in idle cycles.
//
// Timing: a request is taken when req_valid_i && req_ready_o. Every operation but
// DIV/SQRT answers with resp_valid_o in the next cycle (operands are registered,
// the units are combinational), and a new request may be taken in that same
// cycle. DIV/SQRT take 27 cycles (1 for special operands); req_ready_o is low
// while they iterate. Responses come back in request order, one cycle each.
module cosim_fpu
  import fpu_pkg::*;
(
  input  logic        clk_i,         // clock
  input  logic        rst_ni,        // asynchronous reset, active low
  input  logic        req_valid_i,   // a request
  output logic        req_ready_o,   // ... accepted (low only while a divide or square root iterates)
  input  fpu_op_e     op_i,          // the operation
  input  logic [2:0]  rm_i,          // resolved rounding mode (never DYN)
  input  logic [31:0] a_i,           // binary32 operand (rs1)
  input  logic [31:0] b_i,           // binary32 operand (rs2)
  input  logic [31:0] c_i,           // binary32 operand (rs3)
  input  logic [63:0] int_i,         // integer operand of CVT_S_* (W/WU forms read [31:0])
  output logic        resp_valid_o,  // a result, one cycle per request, in request order
  output logic [63:0] result_o,      // its value (README.md: layout per op)
  output logic [4:0]  fflags_o       // its exception flags (NV DZ OF UF NX)
);

  localparam logic [31:0] One = 32'h3f80_0000;

  // --- request handshake -----------------------------------------------------------
  logic req_fire, req_divsqrt;
  logic ds_busy, ds_done;

  assign req_ready_o = ~ds_busy;
  assign req_fire    = req_valid_i & req_ready_o;
  assign req_divsqrt = (op_i == FPU_DIV) | (op_i == FPU_SQRT);

  // Operands of single-cycle operations, registered at the handshake.
  logic        valid_q;
  fpu_op_e     op_q;
  logic [2:0]  rm_q;
  logic [31:0] a_q, b_q, c_q;
  logic [63:0] int_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
      op_q    <= FPU_ADD;
      rm_q    <= '0;
      a_q     <= '0;
      b_q     <= '0;
      c_q     <= '0;
      int_q   <= '0;
    end else begin
      valid_q <= req_fire & ~req_divsqrt;
      if (req_fire & ~req_divsqrt) begin
        op_q  <= op_i;
        rm_q  <= rm_i;
        a_q   <= a_i;
        b_q   <= b_i;
        c_q   <= c_i;
        int_q <= int_i;
      end
    end
  end

  // --- fused multiply-add unit: add, sub, mul and the four FMAs -------------------
  logic [31:0] fma_b, fma_c;
  logic        fma_neg_prod, fma_neg_c, fma_no_addend;
  logic [31:0] fma_result;
  logic [4:0]  fma_flags;

  always_comb begin
    fma_b         = b_q;
    fma_c         = c_q;
    fma_neg_prod  = 1'b0;
    fma_neg_c     = 1'b0;
    fma_no_addend = 1'b0;
    unique case (op_q)
      FPU_ADD: begin
        fma_b = One;
        fma_c = b_q;
      end
      FPU_SUB: begin
        fma_b     = One;
        fma_c     = b_q;
        fma_neg_c = 1'b1;
      end
      FPU_MUL:   fma_no_addend = 1'b1;
      FPU_MSUB:  fma_neg_c = 1'b1;
      FPU_NMSUB: fma_neg_prod = 1'b1;
      FPU_NMADD: begin
        fma_neg_prod = 1'b1;
        fma_neg_c    = 1'b1;
      end
      default: ;  // FPU_MADD and the ops that do not use this unit
    endcase
  end

  logic fma_en, f2i_en, i2f_en;

  assign fma_en = valid_q & ((op_q == FPU_ADD) | (op_q == FPU_SUB) | (op_q == FPU_MUL) |
                             (op_q == FPU_MADD) | (op_q == FPU_MSUB) | (op_q == FPU_NMSUB) |
                             (op_q == FPU_NMADD));
  assign f2i_en = valid_q & ((op_q == FPU_CVT_W_S) | (op_q == FPU_CVT_WU_S) |
                             (op_q == FPU_CVT_L_S) | (op_q == FPU_CVT_LU_S));
  assign i2f_en = valid_q & ((op_q == FPU_CVT_S_W) | (op_q == FPU_CVT_S_WU) |
                             (op_q == FPU_CVT_S_L) | (op_q == FPU_CVT_S_LU));

  fpu_fma u_fma (
    .en_i       (fma_en),
    .a_i        (a_q),
    .b_i        (fma_b),
    .c_i        (fma_c),
    .neg_prod_i (fma_neg_prod),
    .neg_c_i    (fma_neg_c),
    .no_addend_i(fma_no_addend),
    .rm_i       (rm_q),
    .result_o   (fma_result),
    .fflags_o   (fma_flags)
  );

  // --- compare, min/max, class, sign injection --------------------------------------
  logic [2:0]  cmp_sel;
  logic [31:0] cmp_result;
  logic [4:0]  cmp_flags;

  always_comb begin
    unique case (op_q)
      FPU_LT:  cmp_sel = CmpLt;
      FPU_LE:  cmp_sel = CmpLe;
      FPU_MIN: cmp_sel = CmpMin;
      FPU_MAX: cmp_sel = CmpMax;
      default: cmp_sel = CmpEq;
    endcase
  end

  fpu_cmp u_cmp (
    .a_i     (a_q),
    .b_i     (b_q),
    .sel_i   (cmp_sel),
    .result_o(cmp_result),
    .fflags_o(cmp_flags)
  );

  logic [9:0] class_mask;

  fpu_class u_class (
    .a_i    (a_q),
    .class_o(class_mask)
  );

  logic [1:0]  sgnj_sel;
  logic [31:0] sgnj_result;

  assign sgnj_sel = (op_q == FPU_SGNJN) ? 2'd1 : (op_q == FPU_SGNJX) ? 2'd2 : 2'd0;

  fpu_sgnj u_sgnj (
    .a_i     (a_q),
    .b_i     (b_q),
    .sel_i   (sgnj_sel),
    .result_o(sgnj_result)
  );

  // --- conversions --------------------------------------------------------------
  logic        cvt_is64, cvt_unsigned;
  logic [63:0] f2i_result;
  logic [4:0]  f2i_flags;
  logic [31:0] i2f_result;
  logic [4:0]  i2f_flags;

  assign cvt_is64     = (op_q == FPU_CVT_L_S) | (op_q == FPU_CVT_LU_S) |
                        (op_q == FPU_CVT_S_L) | (op_q == FPU_CVT_S_LU);
  assign cvt_unsigned = (op_q == FPU_CVT_WU_S) | (op_q == FPU_CVT_LU_S) |
                        (op_q == FPU_CVT_S_WU) | (op_q == FPU_CVT_S_LU);

  fpu_f2i u_f2i (
    .en_i      (f2i_en),
    .a_i       (a_q),
    .rm_i      (rm_q),
    .is64_i    (cvt_is64),
    .unsigned_i(cvt_unsigned),
    .result_o  (f2i_result),
    .fflags_o  (f2i_flags)
  );

  fpu_i2f u_i2f (
    .en_i      (i2f_en),
    .int_i     (int_q),
    .rm_i      (rm_q),
    .is64_i    (cvt_is64),
    .unsigned_i(cvt_unsigned),
    .result_o  (i2f_result),
    .fflags_o  (i2f_flags)
  );

  // --- divide / square root (iterative) ------------------------------------------
  logic [31:0] ds_result;
  logic [4:0]  ds_flags;

  fpu_divsqrt u_divsqrt (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .start_i (req_fire & req_divsqrt),
    .sqrt_i  (op_i == FPU_SQRT),
    .a_i     (a_i),
    .b_i     (b_i),
    .rm_i    (rm_i),
    .busy_o  (ds_busy),
    .done_o  (ds_done),
    .result_o(ds_result),
    .fflags_o(ds_flags)
  );

  // --- response --------------------------------------------------------------------
  logic [63:0] single_result;
  logic [4:0]  single_flags;

  always_comb begin
    single_result = 64'd0;
    single_flags  = 5'd0;
    unique case (op_q)
      FPU_ADD, FPU_SUB, FPU_MUL, FPU_MADD, FPU_MSUB, FPU_NMSUB, FPU_NMADD: begin
        single_result = {32'd0, fma_result};
        single_flags  = fma_flags;
      end
      FPU_MIN, FPU_MAX: begin
        single_result = {32'd0, cmp_result};
        single_flags  = cmp_flags;
      end
      FPU_EQ, FPU_LT, FPU_LE: begin
        single_result = {32'd0, cmp_result};  // 0 or 1: sign extension is zero
        single_flags  = cmp_flags;
      end
      FPU_CLASS: single_result = {54'd0, class_mask};
      FPU_SGNJ, FPU_SGNJN, FPU_SGNJX: single_result = {32'd0, sgnj_result};
      FPU_CVT_W_S, FPU_CVT_WU_S, FPU_CVT_L_S, FPU_CVT_LU_S: begin
        single_result = f2i_result;
        single_flags  = f2i_flags;
      end
      FPU_CVT_S_W, FPU_CVT_S_WU, FPU_CVT_S_L, FPU_CVT_S_LU: begin
        single_result = {32'd0, i2f_result};
        single_flags  = i2f_flags;
      end
      default: ;  // FPU_DIV, FPU_SQRT answer through the divsqrt unit
    endcase
  end

  // valid_q and ds_done never coincide: no request is taken while divsqrt iterates,
  // and a divsqrt request never sets valid_q.
  assign resp_valid_o = valid_q | ds_done;
  assign result_o     = ds_done ? {32'd0, ds_result} : single_result;
  assign fflags_o     = ds_done ? ds_flags : single_flags;

endmodule
