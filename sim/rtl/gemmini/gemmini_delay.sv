// A Depth-cycle delay line (Depth = 0: a wire), reset to zero. The skew and
// de-skew registers of gemmini_array.sv; it shifts every cycle, valid or not.
module gemmini_delay #(
  parameter int unsigned Width = 1,
  parameter int unsigned Depth = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [Width-1:0] d_i,
  output logic [Width-1:0] q_o
);

  if (Depth == 0) begin : g_wire
    assign q_o = d_i;
    logic unused_clk;
    assign unused_clk = clk_i ^ rst_ni;
  end else begin : g_pipe
    logic [Width-1:0] pipe_q [Depth];
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        for (int unsigned i = 0; i < Depth; i++) pipe_q[i] <= '0;
      end else begin
        pipe_q[0] <= d_i;
        for (int unsigned i = 1; i < Depth; i++) pipe_q[i] <= pipe_q[i-1];
      end
    end
    assign q_o = pipe_q[Depth-1];
  end

endmodule
