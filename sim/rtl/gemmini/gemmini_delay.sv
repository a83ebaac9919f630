// A Depth-cycle delay line (Depth = 0: a wire), reset to zero. The skew and
// de-skew registers of gemmini_array.sv; it moves every cycle, valid or not.
// Built as a ring of Depth registers and a pointer rather than a shift chain:
// the same timing, but each cycle writes one register instead of Depth, which
// keeps the simulation's per-cycle work independent of Depth.
module gemmini_delay #(
  parameter int unsigned Width = 1,
  parameter int unsigned Depth = 1
) (
  input  logic             clk_i,   // clock
  input  logic             rst_ni,  // asynchronous reset, active low (the line to zero)
  input  logic [Width-1:0] d_i,     // the value entering the line
  output logic [Width-1:0] q_o      // d_i of Depth cycles ago
);

  if (Depth == 0) begin : g_wire
    assign q_o = d_i;
    logic unused_clk;
    assign unused_clk = clk_i ^ rst_ni;
  end else if (Depth == 1) begin : g_reg
    logic [Width-1:0] q_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) q_q <= '0;
      else q_q <= d_i;
    end
    assign q_o = q_q;
  end else begin : g_ring
    localparam int unsigned PtrW = $clog2(Depth);
    logic [Width-1:0] ring_q [Depth];
    logic [PtrW-1:0]  ptr_q;  // the slot written Depth cycles ago: read out, then overwritten
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        for (int unsigned i = 0; i < Depth; i++) ring_q[i] <= '0;
        ptr_q <= '0;
      end else begin
        ring_q[ptr_q] <= d_i;
        ptr_q <= ptr_q == PtrW'(Depth - 1) ? '0 : ptr_q + 1'b1;
      end
    end
    assign q_o = ring_q[ptr_q];
  end

endmodule
