// Normalizer: shifts a nonzero value left until its MSB is set and reports the
// shift distance. Used after the FMA adder and before integer-to-float rounding.
module fpu_norm #(
  parameter int unsigned Width = 64
) (
  input  logic [Width-1:0]         x_i,
  output logic [Width-1:0]         x_o,
  output logic [$clog2(Width)-1:0] shift_o,   // leading-zero count (0 when x_i == 0)
  output logic                     zero_o
);

  logic [$clog2(Width)-1:0] lz;
  logic                     found;

  always_comb begin
    lz    = '0;
    found = 1'b0;
    for (int i = Width - 1; i >= 0; i--) begin
      if (!found && x_i[i]) begin
        lz    = ($clog2(Width))'(Width - 1 - i);
        found = 1'b1;
      end
    end
  end

  assign shift_o = lz;
  assign zero_o  = ~found;
  assign x_o     = x_i << lz;

endmodule
