// Write stage of the execute controller (gemmini_exec.sv; EXEC.md "Pipeline"):
// array rows that carry a result row wait here for the scratchpad (int8 clip,
// ReLU) or accumulator (overwrite / accumulate) write port.
//
// The stream reserves a credit for every beat that brings a result row out
// (reserve_i), so a row leaving the array (fixed latency, no back-pressure) always
// finds room. C stride as the model: WS row r at C + r*cs; OS row r at
// C + Dim-1-(Dim-1-r)*cs (a drain's rows are OS rows).
module gemmini_exec_write
  import gemmini_pkg::*;
  import gemmini_exec_pkg::*;
#(
  parameter int unsigned Dim     = 4,
  parameter int unsigned SpRowW  = 12,
  parameter int unsigned AccRowW = 8,
  parameter int unsigned TagW    = 3 + JobW,
  localparam int unsigned CountW = $clog2(Dim + 1),
  localparam int unsigned BeatW  = Dim > 1 ? $clog2(Dim) : 1,
  localparam int unsigned Depth  = 4 * Dim,  // 2*Dim rows in the array plus slack
  localparam int unsigned DepthW = $clog2(Depth)
) (
  input  logic                clk_i,                // in: clock
  input  logic                rst_ni,               // in: asynchronous reset, active low
  // config_ex
  input  logic                os_i,                 // in: the dataflow is OS
  input  logic                relu_i,               // in: ReLU on scratchpad writes
  input  logic [15:0]         c_stride_i,           // in: rows between result rows
  // credits
  input  logic                reserve_i,            // in: a beat bringing a result row out enters the array
  output logic                credit_o,             // out: a reservation finds room
  output logic                idle_o,               // out: no row reserved or queued
  // rows out of the array: tag = {write, last, drain, job}
  input  logic                out_valid_i,          // in: a row leaves the array
  input  logic [TagW-1:0]     out_tag_i,            // in: ... its beat's tag
  input  logic [BeatW-1:0]    out_row_i,            // in: ... its beat index
  input  out_t [Dim-1:0]      out_c_i,              // in: ... its values
  // the queue's head and where it goes
  output logic [JobW-1:0]     head_job_o,           // out: the head row's job
  output logic                head_drain_o,         // out: ... from the job's drain tile
  output logic                head_last_o,          // out: ... the last row of its result
  input  logic                dst_acc_i,            // in: the head's destination is the accumulator
  input  logic                dst_accumulate_i,     // in: ... accumulating
  input  logic [25:0]         dst_row_i,            // in: ... its C row
  input  logic [CountW-1:0]   dst_cols_i,           // in: ... its columns
  input  logic [IdW-1:0]      dst_id_i,             // in: ... the preload's id (the writes carry it)
  output logic                pop_o,                // out: the head row is written
  // scratchpad / accumulator writes
  output logic                sp_wr_valid_o,        // out: a scratchpad row write
  input  logic                sp_wr_ready_i,        // in: ... the bank takes it
  output logic [SpRowW-1:0]   sp_wr_row_o,          // out: ... its row
  output logic [Dim-1:0]      sp_wr_mask_o,         // out: ... its element mask
  output logic [Dim*8-1:0]    sp_wr_data_o,         // out: ... its int8 values
  output logic [IdW-1:0]      sp_wr_id_o,           // out: ... its command id
  output logic                acc_wr_valid_o,       // out: an accumulator row write
  input  logic                acc_wr_ready_i,       // in: ... the bank takes it
  output logic [AccRowW-1:0]  acc_wr_row_o,         // out: ... its row
  output logic [Dim-1:0]      acc_wr_mask_o,        // out: ... its element mask
  output logic [Dim*32-1:0]   acc_wr_data_o,        // out: ... its int32 values
  output logic                acc_wr_accumulate_o,  // out: ... added to the row (else overwrite)
  output logic [IdW-1:0]      acc_wr_id_o           // out: ... its command id
);

  typedef struct packed {
    out_t [Dim-1:0]   values;
    logic [BeatW-1:0] beat;
    logic             last;
    logic             drain;
    logic [JobW-1:0]  job;
  } entry_t;

  entry_t            queue_q [Depth];
  logic [DepthW-1:0] head_q, tail_q;
  logic [DepthW:0]   count_q;
  logic [DepthW:0]   reserved_q;  // rows reserved (in the array or queued)
  logic              push, pop;
  entry_t            head;
  /* verilator lint_off UNUSEDSIGNAL */
  row_t              row;  // legal rows fit the port
  /* verilator lint_on UNUSEDSIGNAL */

  assign push      = out_valid_i && out_tag_i[TagW-1];
  assign head           = queue_q[head_q];
  assign head_job_o   = head.job;
  assign head_drain_o = head.drain;
  assign head_last_o  = head.last;
  assign credit_o     = reserved_q < (DepthW + 1)'(Depth);
  assign idle_o       = reserved_q == '0;

  always_comb begin
    logic os;
    os   = head.drain || os_i;
    row = os ? row_t'(dst_row_i) + row_t'(Dim - 1) - row_t'(head.beat) * row_t'(c_stride_i)
              : row_t'(dst_row_i) + row_t'(head.beat) * row_t'(c_stride_i);
    for (int e = 0; e < Dim; e++) begin
      out_t value;
      in_t  clipped;
      value = head.values[e];
      clipped = value > out_t'(127) ? in_t'(127) : value < out_t'(-128) ? in_t'(-128) : in_t'(value);
      if (relu_i && clipped < 0) clipped = '0;
      sp_wr_data_o[e*8 +: 8]    = clipped;
      acc_wr_data_o[e*32 +: 32] = 32'(signed'(value));
      sp_wr_mask_o[e]           = CountW'(e) < dst_cols_i;
    end
  end

  assign acc_wr_mask_o       = sp_wr_mask_o;
  assign sp_wr_valid_o       = count_q != '0 && !dst_acc_i;
  assign acc_wr_valid_o      = count_q != '0 && dst_acc_i;
  assign sp_wr_row_o         = SpRowW'(row);
  assign acc_wr_row_o        = AccRowW'(row);
  assign acc_wr_accumulate_o = dst_accumulate_i;
  assign sp_wr_id_o          = dst_id_i;
  assign acc_wr_id_o         = dst_id_i;
  assign pop = (sp_wr_valid_o && sp_wr_ready_i) || (acc_wr_valid_o && acc_wr_ready_i);
  assign pop_o  = pop;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q     <= '0;
      tail_q     <= '0;
      count_q    <= '0;
      reserved_q <= '0;
    end else begin
      if (push) begin
        queue_q[tail_q] <= '{values: out_c_i, beat: out_row_i, last: out_tag_i[TagW-2], drain: out_tag_i[TagW-3],
                           job: out_tag_i[JobW-1:0]};
        tail_q <= tail_q + 1'b1;
      end
      if (pop) head_q <= head_q + 1'b1;
      count_q    <= count_q + (DepthW + 1)'(push) - (DepthW + 1)'(pop);
      reserved_q <= reserved_q + (DepthW + 1)'(reserve_i) - (DepthW + 1)'(pop);
    end
  end

`ifdef COSIM_ASSERT
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));

  // Every queued row was reserved, the reservations fit the queue, and a row
  // leaving the array always finds room (the array has no back-pressure).
  WriteCountInRange: assert property (@(posedge clk_i) disable iff (!checking)
    count_q <= reserved_q && reserved_q <= (DepthW + 1)'(Depth))
    else $error("exec write queue: %0d rows queued, %0d reserved, depth %0d", count_q, reserved_q, Depth);
  ReserveWithCredit: assert property (@(posedge clk_i) disable iff (!checking) reserve_i |-> credit_o)
    else $error("exec write queue reserved beyond its depth");
  PushWithRoom: assert property (@(posedge clk_i) disable iff (!checking)
    push |-> count_q < (DepthW + 1)'(Depth) || pop)
    else $error("exec write queue: a row left the array into a full queue");
  // A write waiting for its bank stays, with its row, until taken.
  WriteHeld: assert property (@(posedge clk_i) disable iff (!checking)
    (sp_wr_valid_o && !sp_wr_ready_i) || (acc_wr_valid_o && !acc_wr_ready_i) |=>
    (sp_wr_valid_o || acc_wr_valid_o) && $stable(row) && $stable(head))
    else $error("exec write withdrawn or changed before the memory took it");
`endif

endmodule
