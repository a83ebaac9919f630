// One processing element of the spatial array (gemmini_mesh.sv), with
// Gemmini v0.7's PE semantics (PE.scala): two registers c1/c2, of which one
// propagates (shifts down the column through d_i -> c_o) and the other computes;
// ctrl_i.prop says which (1: c1 propagates, c2 computes). A change of prop
// between two valid beats (a "flip") swaps their roles.
//
//   WS: the computing register holds this PE's weight; b_o = b_i + a_i * weight
//       (20 bits, wrapping); the propagating register shifts the weights of the
//       next tile in (c_o = its value, it takes d_i).
//   OS: the computing register accumulates a_i * b_i and b_i
//       passes down unchanged (the MAC's output is 20 bits wide in both dataflows, as
//       in PE.scala, so the sum wraps at 20 bits and is kept sign-extended); the
//       propagating register shifts the previous result
//       out and the next tile's D in (c_o = its value, it takes d_i). In the beat
//       of a flip the register that just finished is sent out rounding-shifted
//       right by ctrl_i.shift and saturated to 20 bits; later beats pass on values
//       that are already shifted.
//
// A flows right (a_o), B / partial sums and the shift chain flow down (b_o, c_o).
// All outputs are registers, updated only in valid beats (Gemmini's Pipe between
// PEs); valid_o follows valid_i by one cycle. Nothing changes in a beat without
// valid_i, so bubbles may enter the array at any time.
module gemmini_pe
  import gemmini_pkg::*;
(
  input  logic     clk_i,    // clock (the array's gated clock)
  input  logic     rst_ni,   // asynchronous reset, active low
  input  logic     valid_i,  // a beat comes in
  input  pe_ctrl_t ctrl_i,   // its control (dataflow, prop, shift)
  input  in_t      a_i,      // A, from the left
  input  out_t     b_i,      // B or the partial sum, from above
  input  out_t     d_i,      // the shift chain from above (next weights / D)
  output logic     valid_o,  // the beat goes on (one cycle later)
  output pe_ctrl_t ctrl_o,   // its control
  output in_t      a_o,      // A, to the right
  output out_t     b_o,      // WS: the partial sum down; OS: B down
  output out_t     c_o       // the propagating register, down the column (weights / D in, OS results out)
);

  acc_t     c1_q, c2_q;
  logic     prop_q;  // prop of the last valid beat (Gemmini's last_s)
  logic     valid_q;
  pe_ctrl_t ctrl_q;
  in_t      a_q;
  out_t     b_q, c_q;

  // The next state is computed inside the valid branch (not in an always_comb):
  // the same logic, but a simulator then spends nothing on a PE in a beat
  // without valid_i, and only the dataflow in use is evaluated.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
      prop_q  <= 1'b0;
      c1_q    <= '0;
      c2_q    <= '0;
      ctrl_q  <= '0;
      a_q     <= '0;
      b_q     <= '0;
      c_q     <= '0;
    end else begin
      valid_q <= valid_i;
      if (valid_i) begin
        acc_t prop_reg, work_reg, work_next;
        out_t mac;  // the MAC's output has the 20-bit mesh output width in both dataflows
        prop_reg = ctrl_i.prop ? c1_q : c2_q;
        work_reg = ctrl_i.prop ? c2_q : c1_q;
        // One multiplier and one adder for both dataflows (Gemmini's MacUnit).
        if (ctrl_i.df == DfOs) begin
          logic [ShiftW-1:0] shamt;
          shamt     = prop_q != ctrl_i.prop ? ctrl_i.shift : '0;  // a flip sends the result out
          mac       = out_t'(work_reg + acc_t'(prod_t'(a_i) * prod_t'(in_t'(b_i))));
          c_q       <= saturate_out(round_shift(prop_reg, shamt));
          b_q       <= b_i;
          work_next = acc_t'(mac);
        end else begin
          mac       = out_t'(acc_t'(b_i) + acc_t'(prod_t'(a_i) * prod_t'(in_t'(work_reg))));
          c_q       <= out_t'(prop_reg);
          b_q       <= mac;
          work_next = work_reg;
        end
        c1_q   <= ctrl_i.prop ? acc_t'(d_i) : work_next;
        c2_q   <= ctrl_i.prop ? work_next : acc_t'(d_i);
        prop_q <= ctrl_i.prop;
        ctrl_q <= ctrl_i;
        a_q    <= a_i;
      end
    end
  end

  assign valid_o = valid_q;
  assign ctrl_o  = ctrl_q;
  assign a_o     = a_q;
  assign b_o     = b_q;
  assign c_o     = c_q;

endmodule
