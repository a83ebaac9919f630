// Waves window, compiled into the waves build flavour only (sim/verilator_build.py,
// sim/waves.py): the dump opens at cycle +waves_from into +waves_file and the run
// itself ends at the window's last cycle (the runner lowers +max_cycles), so the
// file holds exactly the window. Verilator ignores $dumpoff, hence no close here.
// +waves_mark_instret=K writes into +waves_mark_file the cycle in which the K-th
// instruction retired (a difftest divergence is named by instruction, its window
// ends at that cycle).
//
// Plusargs: +waves_file=F +waves_from=N [+waves_mark_instret=K +waves_mark_file=F]
module tb_waves (
  input logic            clk,
  input longint unsigned cycle,
  input longint unsigned instret
);
  string           file = "", mark_file = "";
  longint unsigned from_cycle = 0, mark_instret = 0;
  bit              open_q = 1'b0, marked_q = 1'b0;
  int              fd;

  initial begin
    if (!$value$plusargs("waves_file=%s", file)) file = "";
    if ($value$plusargs("waves_from=%d", from_cycle)) ;
    if (!$value$plusargs("waves_mark_file=%s", mark_file)) mark_file = "";
    if ($value$plusargs("waves_mark_instret=%d", mark_instret)) ;
  end

  always @(posedge clk) begin
    if (file != "" && !open_q && cycle >= from_cycle) begin
      $dumpfile(file);
      $dumpvars;
      open_q <= 1'b1;
    end
    // instret counts retirements up to the previous cycle, so the K-th one retired in cycle - 1.
    if (mark_file != "" && !marked_q && mark_instret != 0 && instret >= mark_instret) begin
      fd = $fopen(mark_file, "w");
      $fwrite(fd, "%0d\n", cycle - 1);
      $fclose(fd);
      marked_q <= 1'b1;
    end
  end
endmodule

bind tb_top tb_waves u_waves (.clk(clk), .cycle(cycle), .instret(instret));
