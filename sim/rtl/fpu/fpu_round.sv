// Rounds a normalized, exact-with-sticky significand to binary32 and packs it.
// Handles gradual underflow (subnormal results), overflow per rounding mode and
// the RISC-V flag rules: underflow is tininess AFTER rounding (the value rounded
// to 24 bits with unbounded exponent is below 2^-126) and inexact.
//
// Value represented: (sig_i / 2^(Width-1) + sticky) * 2^(exp_i - 127), sig_i[Width-1]
// set. Exact zeros never reach this unit: callers produce them directly.
module fpu_round
  import fpu_pkg::*;
#(
  parameter int unsigned Width = 26   // at least 26: 24 kept bits, guard, one more
) (
  input  logic                   sign_i,
  input  logic signed [ExpW-1:0] exp_i,     // biased exponent of sig_i's MSB
  input  logic [Width-1:0]       sig_i,     // normalized significand (MSB set)
  input  logic                   sticky_i,  // nonzero bits below sig_i
  input  logic [2:0]             rm_i,
  output logic [31:0]            result_o,
  output logic                   of_o,
  output logic                   uf_o,
  output logic                   nx_o
);

  // Only the top 26 bits matter (24 kept, guard, and the guard after the one-bit
  // renormalization); everything below is sticky. Compressing first keeps the
  // rounding logic narrow whatever the caller's width. Right shifts for subnormal
  // results only move bits downward, so the compression stays exact.
  localparam int unsigned RW  = 26;
  localparam int unsigned ShW = $clog2(RW + 2) + 1;

  logic [RW-1:0] sig;
  logic          sticky_in;

  if (Width > RW) begin : g_compress
    assign sig       = sig_i[Width-1 -: RW];
    assign sticky_in = sticky_i | (|sig_i[Width-RW-1:0]);
  end else begin : g_exact
    assign sig       = sig_i;
    assign sticky_in = sticky_i;
  end

  // --- denormalize: results below 2^-126 keep fewer significand bits ----------
  logic [ShW-1:0] dshift;
  logic [RW-1:0]  sig_sh;
  logic           lost;

  always_comb begin
    if (exp_i >= 1) begin
      dshift = '0;
    end else if (exp_i < -$signed(ExpW'(RW))) begin
      dshift = ShW'(RW + 1);  // everything goes to sticky
    end else begin
      dshift = ShW'(1 - exp_i);
    end
  end

  assign sig_sh = sig >> dshift;
  assign lost   = |(sig & ~({RW{1'b1}} << dshift));

  // --- round at the 24-bit boundary (subnormals: the fixed 2^-149 ulp) ----------
  logic [23:0] kept;
  logic        guard;
  logic        sticky;
  logic        inc;
  logic [24:0] kept_r;

  assign kept   = sig_sh[RW-1 -: 24];
  assign guard  = sig_sh[RW-25];
  assign sticky = sig_sh[RW-26] | lost | sticky_in;
  assign inc    = round_up(rm_i, sign_i, kept[0], guard, sticky);
  assign kept_r = {1'b0, kept} + 25'(inc);

  // --- result exponent: carry out of the significand bumps it; a subnormal that
  // rounds up into bit 23 becomes the smallest normal ---------------------------
  logic                   subnormal;
  logic signed [ExpW-1:0] exp_r;
  logic                   inexact;
  logic                   overflow;

  assign subnormal = (exp_i < 1);
  assign exp_r     = subnormal ? ExpW'({kept_r[23]}) : exp_i + ExpW'({kept_r[24]});
  assign inexact   = guard | sticky;
  assign overflow  = (exp_r >= 255);

  // --- tininess after rounding: round the unshifted significand to 24 bits ------
  logic guard_u;
  logic sticky_u;
  logic carry_u;
  logic tiny;

  assign guard_u  = sig[RW-25];
  assign sticky_u = sig[RW-26] | sticky_in;
  assign carry_u  = (&sig[RW-1 -: 24]) & round_up(rm_i, sign_i, sig[RW-24], guard_u, sticky_u);
  assign tiny     = (exp_i < 0) || ((exp_i == 0) && !carry_u);

  // --- overflow result per rounding mode: infinity or the largest finite --------
  logic to_inf;

  always_comb begin
    unique case (rm_i)
      RM_RTZ:  to_inf = 1'b0;
      RM_RDN:  to_inf = sign_i;
      RM_RUP:  to_inf = ~sign_i;
      default: to_inf = 1'b1;  // RNE, RMM
    endcase
  end

  always_comb begin
    if (overflow) begin
      result_o = {sign_i, to_inf ? PosInf[30:0] : MaxFinite[30:0]};
    end else begin
      result_o = {sign_i, exp_r[7:0], kept_r[22:0]};
    end
  end

  assign of_o = overflow;
  assign nx_o = inexact | overflow;
  assign uf_o = tiny & inexact;

endmodule
