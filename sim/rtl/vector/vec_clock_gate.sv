// Clock gate: gclk_o follows clk_i in the cycles whose en_i was high at the
// preceding falling edge, and stays low in the others. en_i is sampled while
// clk_i is low, so gclk_o has no glitch however en_i settles after the rising edge
// (the same guarantee as a latch-based ICG cell). A falling-edge flop, not a
// latch: Verilator evaluates whatever feeds a clock before every edge, and a
// latch's fan-in here (the core's issue logic, through en_i) would join it.
//
// Why the vector unit has one: in a simulation a unit holding no work still costs
// its whole evaluation every cycle. Verilator evaluates sequential logic clocked by
// gclk_o, and combinational logic fed only by it, only on gclk_o's edges.
module vec_clock_gate (
  input  logic clk_i,   // in: free-running clock
  input  logic rst_ni,  // in: asynchronous reset, active low (gate open)
  input  logic en_i,    // in: the next cycle's clock is wanted
  output logic gclk_o   // out: the gated clock
);

  logic en_q;
  always_ff @(negedge clk_i or negedge rst_ni) begin
    if (!rst_ni) en_q <= 1'b1;
    else en_q <= en_i;
  end
  assign gclk_o = clk_i && en_q;

endmodule
