// The window in which a block's assertions are checked: low in reset and in the first
// cycle after it, high from then on. A block's `ifdef COSIM_ASSERT section instantiates
// one and writes its properties as `disable iff (!checking)`, so that rst_ni stays an
// asynchronous reset only (a property that sampled rst_ni itself would see its release
// race the clock). sim/verilator_build.py defines COSIM_ASSERT for the test builds.
module cosim_assert_window (
  input  logic clk_i,      // in: the block's clock
  input  logic rst_ni,     // in: the block's asynchronous reset, active low
  output logic checking_o  // out: the block's assertions are checked this cycle
);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) checking_o <= 1'b0;
    else checking_o <= 1'b1;
  end

endmodule
