// Clock gate of the spatial array (the usual latch-based ICG cell): gclk_o
// follows clk_i while en_i was high during clk_i's low phase, else it stays
// low. The latch is transparent while clk_i is low, so en_i may change
// anywhere in the cycle without a glitch on gclk_o.
//
// Why the array has one: a simulator evaluates every register of the mesh (256
// PEs at DIM 16), its skew lines and the wires between them on every clock
// edge, even when no beat is inside, which is most of the time while tiles are
// being loaded. Verilator evaluates sequential logic clocked by gclk_o, and the
// logic fed only by it, only on gclk_o's edges. In hardware it saves the same
// idle toggling.
module gemmini_clock_gate (
  input  logic clk_i,   // free-running clock
  input  logic en_i,    // the next cycle's clock is wanted
  output logic gclk_o   // the gated clock
);

  logic en_l;
  always_latch begin
    if (!clk_i) en_l = en_i;
  end
  assign gclk_o = clk_i && en_l;

endmodule
