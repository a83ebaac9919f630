// Gemmini difftest trace (sim/difftest/gemmini.py reads it): the unit's trace_*
// outputs (sim/rtl/gemmini/UNIT.md) as text lines in the order the unit made
// them, into the file named by +gemmini_trace=FILE. Nothing is written (and
// nothing is paid) without the plusarg. Lines (numbers hex unless noted):
//
//   sp   <cycle dec> <seq dec> <row> <mask> <data>       a scratchpad row write as the bank took it
//   acc  <cycle dec> <seq dec> <row> <mask> <data>       an accumulator row write: the row after it
//   wr   <cycle dec> <seq dec> <addr> <len dec> <data>   a DMA write request (byte i of data -> addr + i)
//   issue <cycle dec> <seq dec>                          the unit accepted an instruction
//
// data is the whole vector, most significant digit first (element e / byte i
// at bits [e*W +: W]). A write belongs to the latest `issue` of its seq: the
// unit accepts in program order, so the k-th `issue` is the k-th Gemmini
// instruction. (Completions are no boundary: an instruction may complete before
// its last row is written, e.g. a preload whose C its compute writes later.)
//
// Fault injection: +gemmini_corrupt_sp=N flips bit 0 of the first written
// element of the N-th scratchpad row write (counting from 1, banks in index
// order within a cycle) in the bank itself, the cycle after the bank took it,
// so everything that reads the row later computes with the corrupted value;
// the `sp` line shows the row as the bank then holds it. Compiled for Gemmini
// SoCs only (it reaches into gemmini_unit through the hierarchy).
module tb_gemmini_trace #(
  parameter int unsigned Dim         = 4,
  parameter int unsigned SpRows      = 1024,
  parameter int unsigned AccRows     = 256,
  parameter int unsigned SpBanks     = 4,
  parameter int unsigned AccBanks    = 2,
  parameter int unsigned DmaMaxBytes = 64
) (
  input logic            clk_i,
  input logic            run_i,         // out of reset and not done
  input longint unsigned cycle_i,
  input logic            issue_i,       // the unit accepts a request (not refused)
  input logic [7:0]      issue_seq_i
);
  localparam int unsigned SpBankRows = SpRows / SpBanks;
  localparam int unsigned SpAW       = SpBankRows > 1 ? $clog2(SpBankRows) : 1;

  string           path;
  int              fd = 0;
  bit              active = 1'b0;
  longint unsigned corrupt_n = 0;    // 0: no fault injection
  longint unsigned sp_writes = 0;

  initial begin
    if ($value$plusargs("gemmini_trace=%s", path)) begin
      fd = $fopen(path, "w");
      if (fd == 0) $display("tb_gemmini_trace: cannot write %s", path);
      active = fd != 0;
    end
    if ($value$plusargs("gemmini_corrupt_sp=%d", corrupt_n)) ;
  end

  // The fault: which bank, row in the bank and bit to flip next cycle.
  logic                  fix_v_q = 1'b0;
  int unsigned           fix_bank_q = 0;
  logic [SpAW-1:0]       fix_addr_q = '0;
  int unsigned           fix_bit_q = 0;

  always_ff @(posedge clk_i) begin
    fix_v_q <= 1'b0;
    if (run_i && (active || corrupt_n != 0)) begin
      longint unsigned n;
      n = sp_writes;
      for (int b = 0; b < int'(SpBanks); b++) begin
        if (tb_top.u_soc.g_gemmini.trace_sp_valid[b]) begin
          logic [Dim*8-1:0] data;
          logic [Dim-1:0]   mask;
          data = tb_top.u_soc.g_gemmini.trace_sp_data[b];
          mask = tb_top.u_soc.g_gemmini.trace_sp_mask[b];
          n++;
          if (n == corrupt_n && mask != '0) begin
            int e;
            e = -1;
            for (int k = int'(Dim) - 1; k >= 0; k--) if (mask[k]) e = k;  // the lowest written element
            data[e*8] = ~data[e*8];
            fix_v_q    <= 1'b1;
            fix_bank_q <= b;
            fix_addr_q <= SpAW'(tb_top.u_soc.g_gemmini.trace_sp_row[b] % SpBankRows);
            fix_bit_q  <= e * 8;
          end
          if (active) $fwrite(fd, "sp %0d %0d %h %h %h\n", cycle_i, tb_top.u_soc.g_gemmini.trace_sp_seq[b],
                              tb_top.u_soc.g_gemmini.trace_sp_row[b], mask, data);
        end
      end
      sp_writes <= n;
      if (active) begin
        for (int b = 0; b < int'(AccBanks); b++) begin
          if (tb_top.u_soc.g_gemmini.trace_acc_valid[b])
            $fwrite(fd, "acc %0d %0d %h %h %h\n", cycle_i, tb_top.u_soc.g_gemmini.trace_acc_seq[b],
                    tb_top.u_soc.g_gemmini.trace_acc_row[b], tb_top.u_soc.g_gemmini.trace_acc_mask[b],
                    tb_top.u_soc.g_gemmini.trace_acc_data[b]);
        end
        if (tb_top.u_soc.g_gemmini.trace_wr_valid)
          $fwrite(fd, "wr %0d %0d %h %0d %h\n", cycle_i, tb_top.u_soc.g_gemmini.trace_wr_seq,
                  tb_top.u_soc.g_gemmini.trace_wr_addr, tb_top.u_soc.g_gemmini.trace_wr_len,
                  tb_top.u_soc.g_gemmini.trace_wr_data);
        if (issue_i) $fwrite(fd, "issue %0d %0d\n", cycle_i, issue_seq_i);
      end
    end
  end

  // The flip itself, in the bank's array (a simulation-only write from here).
  for (genvar gb = 0; gb < int'(SpBanks); gb++) begin : g_fault
    always_ff @(posedge clk_i) begin
      if (fix_v_q && fix_bank_q == gb)
        tb_top.u_soc.g_gemmini.u_acc.u_spad.g_bank[gb].mem_q[fix_addr_q][fix_bit_q] <=
          ~tb_top.u_soc.g_gemmini.u_acc.u_spad.g_bank[gb].mem_q[fix_addr_q][fix_bit_q];
    end
  end

  // Flush when the run ends (cocotb may tear the simulator down without final blocks).
  logic run_q = 1'b0;
  always_ff @(posedge clk_i) begin
    run_q <= run_i;
    if (active && run_q && !run_i) $fflush(fd);
  end

  final begin
    if (fd != 0) $fclose(fd);
  end

endmodule
