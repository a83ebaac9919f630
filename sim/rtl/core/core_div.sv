// Iterative divider (one quotient bit per cycle) for div/divu/rem/remu and, on
// RV64, their *W forms (the operands' low 32 bits are extended here; the core
// sign-extends the low half of the result). Division by zero and signed
// overflow give the ISA's fixed results without iterating.
module core_div #(
  parameter int unsigned XLEN = 32
) (
  input  logic            clk_i,      // clock
  input  logic            rst_ni,     // asynchronous reset, active low (idle)
  input  logic            start_i,    // latch the operands and start (one cycle)
  input  logic            signed_i,   // div/rem (else divu/remu)
  input  logic            rem_i,      // the result is the remainder
  input  logic            word_i,     // an RV64 *W form: divide the low 32 bits
  input  logic [XLEN-1:0] a_i,        // dividend
  input  logic [XLEN-1:0] b_i,        // divisor
  output logic            done_o,     // result_o is valid (one cycle)
  output logic [XLEN-1:0] result_o    // quotient or remainder (RV64 *W: sign-extended by the core)
);

  localparam int unsigned CountW = $clog2(XLEN) + 1;

  logic            busy_q, busy_d;
  logic [CountW-1:0] count_q, count_d;
  logic [XLEN-1:0] quotient_q, quotient_d;   // dividend shifting out, quotient shifting in
  logic [XLEN-1:0] remainder_q, remainder_d;
  logic [XLEN-1:0] divisor_q, divisor_d;
  logic            negate_quotient_q, negate_quotient_d;  // negate the quotient at the end
  logic            negate_remainder_q, negate_remainder_d;  // negate the remainder at the end
  logic            want_remainder_q, want_remainder_d;
  logic            done_q, done_d;
  logic [XLEN-1:0] result_q, result_d;

  logic [XLEN-1:0] a, b;       // the operands, extended for *W forms
  logic [XLEN-1:0] a_abs, b_abs;
  logic            a_neg, b_neg;
  logic [XLEN+1:0] trial;      // sign in the top bit
  logic [XLEN:0]   remainder_shifted;  // one bit wider: the remainder may exceed 2^(XLEN-1)

  always_comb begin
    a = a_i;
    b = b_i;
    if (word_i) begin
      a = signed_i ? XLEN'($signed(a_i[31:0])) : XLEN'(a_i[31:0]);
      b = signed_i ? XLEN'($signed(b_i[31:0])) : XLEN'(b_i[31:0]);
    end
  end

  assign a_neg = signed_i & a[XLEN-1];
  assign b_neg = signed_i & b[XLEN-1];
  assign a_abs = a_neg ? -a : a;
  assign b_abs = b_neg ? -b : b;

  // Only while iterating: keeps the wide subtraction off idle cycles of a
  // cycle-based simulation.
  always_comb begin
    remainder_shifted = '0;
    trial     = '0;
    if (busy_q) begin
      remainder_shifted = {remainder_q, quotient_q[XLEN-1]};
      trial     = {1'b0, remainder_shifted} - {2'b00, divisor_q};
    end
  end

  always_comb begin
    busy_d    = busy_q;
    count_d     = count_q;
    quotient_d    = quotient_q;
    remainder_d     = remainder_q;
    divisor_d = divisor_q;
    negate_quotient_d   = negate_quotient_q;
    negate_remainder_d   = negate_remainder_q;
    want_remainder_d = want_remainder_q;
    done_d    = 1'b0;
    result_d  = result_q;
    if (start_i) begin
      if (b == '0) begin
        // x / 0 = all ones, x % 0 = x
        done_d   = 1'b1;
        result_d = rem_i ? a : '1;
      end else if (signed_i && a == {1'b1, {(XLEN-1){1'b0}}} && b == '1) begin
        // most negative / -1 overflows: quotient = dividend, remainder = 0
        done_d   = 1'b1;
        result_d = rem_i ? '0 : a;
      end else begin
        busy_d    = 1'b1;
        count_d     = CountW'(XLEN);
        quotient_d    = a_abs;
        remainder_d     = '0;
        divisor_d = b_abs;
        negate_quotient_d   = a_neg ^ b_neg;
        negate_remainder_d   = a_neg;
        want_remainder_d = rem_i;
      end
    end else if (busy_q) begin
      if (!trial[XLEN+1]) begin
        remainder_d = trial[XLEN-1:0];
      end else begin
        remainder_d = remainder_shifted[XLEN-1:0];
      end
      quotient_d = {quotient_q[XLEN-2:0], ~trial[XLEN+1]};
      count_d  = count_q - 1'b1;
      if (count_q == CountW'(1)) begin
        busy_d = 1'b0;
        done_d = 1'b1;
        if (want_remainder_q) begin
          result_d = negate_remainder_q ? -remainder_d : remainder_d;
        end else begin
          result_d = negate_quotient_q ? -quotient_d : quotient_d;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q             <= 1'b0;
      count_q            <= '0;
      quotient_q         <= '0;
      remainder_q        <= '0;
      divisor_q          <= '0;
      negate_quotient_q  <= 1'b0;
      negate_remainder_q <= 1'b0;
      want_remainder_q   <= 1'b0;
      done_q             <= 1'b0;
      result_q           <= '0;
    end else begin
      busy_q             <= busy_d;
      count_q            <= count_d;
      quotient_q         <= quotient_d;
      remainder_q        <= remainder_d;
      divisor_q          <= divisor_d;
      negate_quotient_q  <= negate_quotient_d;
      negate_remainder_q <= negate_remainder_d;
      want_remainder_q   <= want_remainder_d;
      done_q             <= done_d;
      result_q           <= result_d;
    end
  end

  assign done_o   = done_q;
  assign result_o = result_q;

endmodule
