// Waves window, compiled into the waves build flavour only (sim/verilator_build.py,
// sim/waves.py): the dump opens at cycle +waves_from into +waves_file and the run
// itself ends at the window's last cycle (the runner lowers +max_cycles), so the
// file holds exactly the window. Verilator ignores $dumpoff, hence no close here.
//
// Plusargs: +waves_file=F +waves_from=N
module tb_waves (
  input logic            clk,
  input longint unsigned cycle
);
  string           file = "";
  longint unsigned from_cycle = 0;
  bit              open_q = 1'b0;

  initial begin
    if (!$value$plusargs("waves_file=%s", file)) file = "";
    if ($value$plusargs("waves_from=%d", from_cycle)) ;
  end

  always @(posedge clk) begin
    if (file != "" && !open_q && cycle >= from_cycle) begin
      $dumpfile(file);
      $dumpvars;
      open_q <= 1'b1;
    end
  end
endmodule

bind tb_top tb_waves u_waves (.clk(clk), .cycle(cycle));
