// Comparisons and min/max (RISC-V F): feq is quiet (NV only for signalling NaNs),
// flt/fle are signalling (NV for any NaN); a NaN operand makes a compare false.
// fmin/fmax follow IEEE 754-2019 minimumNumber/maximumNumber as RISC-V 2.2+
// requires: -0 < +0, a single NaN operand yields the other operand, two NaNs the
// canonical NaN, and a signalling NaN raises NV.
module fpu_cmp
  import fpu_pkg::*;
(
  input  logic [31:0] a_i,       // binary32 operand (rs1)
  input  logic [31:0] b_i,       // binary32 operand (rs2)
  input  logic [2:0]  sel_i,     // one of CmpEq, CmpLt, CmpLe, CmpMin, CmpMax
  output logic [31:0] result_o,  // 0/1 for compares, binary32 for min/max
  output logic [4:0]  fflags_o   // NV (the only flag raised)
);

  fp_info_t ia, ib;
  assign ia = fp_classify(a_i);
  assign ib = fp_classify(b_i);

  logic unused_info;
  assign unused_info = ^{ia.exp, ia.mant, ia.is_sub, ia.is_inf,
                         ib.exp, ib.mant, ib.is_sub, ib.is_inf};

  // Total order on non-NaN values with -0 below +0 (what min/max need); the IEEE
  // compare differs only in treating the two zeros as equal.
  logic mag_lt, mag_gt, lt_signed0, both_zero, eq, lt;

  assign mag_lt     = a_i[30:0] < b_i[30:0];
  assign mag_gt     = a_i[30:0] > b_i[30:0];
  assign lt_signed0 = (ia.sign & ~ib.sign) | (~ia.sign & ~ib.sign & mag_lt) |
                      (ia.sign & ib.sign & mag_gt);
  assign both_zero  = ia.is_zero & ib.is_zero;
  assign eq         = (a_i == b_i) | both_zero;
  assign lt         = lt_signed0 & ~both_zero;

  logic any_nan, any_snan;
  assign any_nan  = ia.is_nan | ib.is_nan;
  assign any_snan = ia.is_snan | ib.is_snan;

  always_comb begin
    result_o = 32'd0;
    fflags_o = 5'd0;
    unique case (sel_i)
      CmpEq: begin
        result_o[0]      = ~any_nan & eq;
        fflags_o[FlagNV] = any_snan;
      end
      CmpLt: begin
        result_o[0]      = ~any_nan & lt;
        fflags_o[FlagNV] = any_nan;
      end
      CmpLe: begin
        result_o[0]      = ~any_nan & (lt | eq);
        fflags_o[FlagNV] = any_nan;
      end
      CmpMin, CmpMax: begin
        fflags_o[FlagNV] = any_snan;
        if (ia.is_nan & ib.is_nan) begin
          result_o = CanonicalNaN;
        end else if (ia.is_nan) begin
          result_o = b_i;
        end else if (ib.is_nan) begin
          result_o = a_i;
        end else if ((sel_i == CmpMin) == lt_signed0) begin
          result_o = a_i;
        end else begin
          result_o = b_i;
        end
      end
      default: begin
        result_o = 32'd0;
      end
    endcase
  end

endmodule
