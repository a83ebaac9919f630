// Test bench top of gemmini_scale: Lanes independent elements side by side, so
// one cocotb step checks Lanes vectors (lane l at bits [l*32 +: 32]); flat
// ports public for cocotb (scale_cocotb.py).
module scale_tb #(
  parameter int unsigned Lanes = 64
) (
  input  logic [Lanes*32-1:0] x_i /*verilator public_flat_rw*/,
  input  logic [Lanes*32-1:0] scale_i /*verilator public_flat_rw*/,
  input  logic [Lanes-1:0]    to_i8_i /*verilator public_flat_rw*/,
  output logic [Lanes*32-1:0] y_o /*verilator public_flat_rd*/
);
  for (genvar l = 0; l < Lanes; l++) begin : g_lane
    gemmini_scale u_scale (
      .x_i    (x_i[l*32 +: 32]),
      .scale_i(scale_i[l*32 +: 32]),
      .to_i8_i(to_i8_i[l]),
      .y_o    (y_o[l*32 +: 32])
    );
  end
endmodule
