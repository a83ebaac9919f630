// Commit queue: keeps the monitor's retirement records in program order while
// non-blocking loads are in flight. A load's record waits here for its data and
// younger records queue behind it, so the commit trace equals that of a core
// that waits for every load. A complete record with nothing older queued goes
// straight to the monitor.
module core_commit
  import core_pkg::*;
#(
  parameter int unsigned Depth = 8,
  localparam int unsigned IdxW = $clog2(Depth)
) (
  input  logic            clk_i,           // clock
  input  logic            rst_ni,          // asynchronous reset, active low (queue empty)

  input  retire_t         record_i,        // the record of this cycle's retirement (valid: it retires)
  input  logic            pending_i,       // ... a load whose data is still to come
  output logic [IdxW-1:0] write_index_o,   // where record_i goes if it is queued
  output logic            full_o,          // no room: the controller retires nothing
  output logic            empty_o,         // no record queued

  input  logic            fill_i,          // a load's data arrives
  input  logic [IdxW-1:0] fill_index_i,    // its record
  input  logic [63:0]     fill_data_i,     // the value the record shows

  output retire_t         retire_o         // to the monitor: the oldest complete record
);

  retire_t          record_q [Depth];
  logic [Depth-1:0] pending_q;            // the record waits for its load data
  logic [IdxW-1:0]  read_q, write_q;
  logic [IdxW:0]    count_q, count_d;
  logic             pop, push, head_fill;

  assign write_index_o = write_q;
  assign full_o        = (count_q == (IdxW+1)'(Depth));
  assign empty_o       = (count_q == '0);

  assign head_fill = fill_i && fill_index_i == read_q;
  assign pop       = (count_q != '0) && (!pending_q[read_q] || head_fill);
  assign push      = record_i.valid && !((count_q == '0) && !pending_i);
  assign count_d   = count_q + (IdxW+1)'(push) - (IdxW+1)'(pop);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      read_q    <= '0;
      write_q   <= '0;
      count_q   <= '0;
      pending_q <= '0;
    end else begin
      count_q <= count_d;
      if (push) write_q <= write_q + IdxW'(1);
      if (pop) read_q <= read_q + IdxW'(1);
      if (fill_i) pending_q[fill_index_i] <= 1'b0;
      if (push) pending_q[write_q] <= pending_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (fill_i) record_q[fill_index_i].rd_wdata <= fill_data_i;
    if (push) record_q[write_q] <= record_i;
  end

  always_comb begin
    if (count_q != '0) begin
      retire_o       = record_q[read_q];
      retire_o.valid = pop;
      if (head_fill) retire_o.rd_wdata = fill_data_i;
    end else begin
      retire_o       = record_i;
      retire_o.valid = record_i.valid && !pending_i;
    end
  end

`ifdef COSIM_ASSERT
  // Assertions: compiled when sim/verilator_build.py passes --assert (the
  // default; the speed bench builds without them). Each message states the rule.
  // They are checked from the cycle after reset (sim/rtl/cosim_assert_window.sv).
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));
  PushWithRoom: assert property (@(posedge clk_i) disable iff (!checking) push && !pop |-> !full_o)
    else $error("retirement record pushed into a full commit queue");
  // A load's data fills the record that waits for it (the one queued at issue).
  FillPendingRecord: assert property (@(posedge clk_i) disable iff (!checking)
      fill_i |-> count_q != '0 && pending_q[fill_index_i])
    else $error("load data for a commit-queue record that does not wait for it");
`endif

endmodule
