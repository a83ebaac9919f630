// Iterative divider (one quotient bit per cycle) for div/divu/rem/remu and, on
// RV64, their *W forms (the core passes operands already extended from 32 bits
// and sign-extends the low half of the result). Division by zero and signed
// overflow give the ISA's fixed results without iterating.
module core_div #(
  parameter int unsigned XLEN = 32
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,
  input  logic            signed_i,
  input  logic            rem_i,
  input  logic [XLEN-1:0] a_i,
  input  logic [XLEN-1:0] b_i,
  output logic            done_o,
  output logic [XLEN-1:0] result_o
);

  localparam int unsigned CntW = $clog2(XLEN) + 1;

  logic            busy_q, busy_d;
  logic [CntW-1:0] cnt_q, cnt_d;
  logic [XLEN-1:0] quot_q, quot_d;   // dividend shifting out, quotient shifting in
  logic [XLEN-1:0] rem_q, rem_d;
  logic [XLEN-1:0] divisor_q, divisor_d;
  logic            neg_q_q, neg_q_d;  // negate the quotient at the end
  logic            neg_r_q, neg_r_d;  // negate the remainder at the end
  logic            rem_sel_q, rem_sel_d;
  logic            done_q, done_d;
  logic [XLEN-1:0] result_q, result_d;

  logic [XLEN-1:0] a_abs, b_abs;
  logic            a_neg, b_neg;
  logic [XLEN+1:0] trial;      // sign in the top bit
  logic [XLEN:0]   rem_shift;  // one bit wider: the remainder may exceed 2^(XLEN-1)

  assign a_neg = signed_i & a_i[XLEN-1];
  assign b_neg = signed_i & b_i[XLEN-1];
  assign a_abs = a_neg ? -a_i : a_i;
  assign b_abs = b_neg ? -b_i : b_i;

  // Only while iterating: keeps the wide subtraction off idle cycles of a
  // cycle-based simulation.
  always_comb begin
    rem_shift = '0;
    trial     = '0;
    if (busy_q) begin
      rem_shift = {rem_q, quot_q[XLEN-1]};
      trial     = {1'b0, rem_shift} - {2'b00, divisor_q};
    end
  end

  always_comb begin
    busy_d    = busy_q;
    cnt_d     = cnt_q;
    quot_d    = quot_q;
    rem_d     = rem_q;
    divisor_d = divisor_q;
    neg_q_d   = neg_q_q;
    neg_r_d   = neg_r_q;
    rem_sel_d = rem_sel_q;
    done_d    = 1'b0;
    result_d  = result_q;
    if (start_i) begin
      if (b_i == '0) begin
        // x / 0 = all ones, x % 0 = x
        done_d   = 1'b1;
        result_d = rem_i ? a_i : '1;
      end else if (signed_i && a_i == {1'b1, {(XLEN-1){1'b0}}} && b_i == '1) begin
        // most negative / -1 overflows: quotient = dividend, remainder = 0
        done_d   = 1'b1;
        result_d = rem_i ? '0 : a_i;
      end else begin
        busy_d    = 1'b1;
        cnt_d     = CntW'(XLEN);
        quot_d    = a_abs;
        rem_d     = '0;
        divisor_d = b_abs;
        neg_q_d   = a_neg ^ b_neg;
        neg_r_d   = a_neg;
        rem_sel_d = rem_i;
      end
    end else if (busy_q) begin
      if (!trial[XLEN+1]) begin
        rem_d = trial[XLEN-1:0];
      end else begin
        rem_d = rem_shift[XLEN-1:0];
      end
      quot_d = {quot_q[XLEN-2:0], ~trial[XLEN+1]};
      cnt_d  = cnt_q - 1'b1;
      if (cnt_q == CntW'(1)) begin
        busy_d = 1'b0;
        done_d = 1'b1;
        if (rem_sel_q) begin
          result_d = neg_r_q ? -rem_d : rem_d;
        end else begin
          result_d = neg_q_q ? -quot_d : quot_d;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q    <= 1'b0;
      cnt_q     <= '0;
      quot_q    <= '0;
      rem_q     <= '0;
      divisor_q <= '0;
      neg_q_q   <= 1'b0;
      neg_r_q   <= 1'b0;
      rem_sel_q <= 1'b0;
      done_q    <= 1'b0;
      result_q  <= '0;
    end else begin
      busy_q    <= busy_d;
      cnt_q     <= cnt_d;
      quot_q    <= quot_d;
      rem_q     <= rem_d;
      divisor_q <= divisor_d;
      neg_q_q   <= neg_q_d;
      neg_r_q   <= neg_r_d;
      rem_sel_q <= rem_sel_d;
      done_q    <= done_d;
      result_q  <= result_d;
    end
  end

  assign done_o   = done_q;
  assign result_o = result_q;

endmodule
