// Normalizer: shifts a nonzero value left until its MSB is set and reports the
// shift distance. A logarithmic shifter (one stage per bit of the count) rather
// than a priority loop: fewer gates, and far cheaper to simulate, which matters
// because the core evaluates this cone every cycle.
module fpu_norm #(
  parameter int unsigned Width = 64
) (
  input  logic [Width-1:0]         x_i,
  output logic [Width-1:0]         x_o,
  output logic [$clog2(Width)-1:0] shift_o,   // leading-zero count (meaningless when zero_o)
  output logic                     zero_o
);

  localparam int unsigned Stages = $clog2(Width);
  localparam int unsigned PadW   = 1 << Stages;

  // stage[s] holds the value after the stages above s; zeros padded below the LSB.
  logic [Stages:0][PadW-1:0] stage;
  logic [Stages-1:0]         lz;

  if (PadW > Width) begin : g_pad
    assign stage[Stages] = {x_i, {(PadW - Width){1'b0}}};
  end else begin : g_nopad
    assign stage[Stages] = x_i;
  end

  for (genvar s = Stages - 1; s >= 0; s--) begin : g_stage
    localparam int unsigned Step = 1 << s;
    assign lz[s]    = ~|stage[s+1][PadW-1 -: Step];
    assign stage[s] = lz[s] ? (stage[s+1] << Step) : stage[s+1];
  end

  assign x_o     = stage[0][PadW-1 -: Width];
  assign shift_o = lz;
  assign zero_o  = ~|x_i;

endmodule
