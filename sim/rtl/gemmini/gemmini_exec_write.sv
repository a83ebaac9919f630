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
  input  logic                clk_i,
  input  logic                rst_ni,
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
    out_t [Dim-1:0]   c;
    logic [BeatW-1:0] k;
    logic             last;
    logic             fsel;
    logic [JobW-1:0]  job;
  } entry_t;

  entry_t            wq_q [Depth];
  logic [DepthW-1:0] wq_rd_q, wq_wr_q;
  logic [DepthW:0]   wq_cnt_q;
  logic [DepthW:0]   wres_q;  // rows reserved (in the array or queued)
  logic              wq_push, wq_pop;
  entry_t            wh;
  /* verilator lint_off UNUSEDSIGNAL */
  row_t              wrow;  // legal rows fit the port
  /* verilator lint_on UNUSEDSIGNAL */

  assign wq_push      = out_valid_i && out_tag_i[TagW-1];
  assign wh           = wq_q[wq_rd_q];
  assign head_job_o   = wh.job;
  assign head_drain_o = wh.fsel;
  assign head_last_o  = wh.last;
  assign credit_o     = wres_q < (DepthW + 1)'(Depth);
  assign idle_o       = wres_q == '0;

  always_comb begin
    logic os;
    os   = wh.fsel || os_i;
    wrow = os ? row_t'(dst_row_i) + row_t'(Dim - 1) - row_t'(wh.k) * row_t'(c_stride_i)
              : row_t'(dst_row_i) + row_t'(wh.k) * row_t'(c_stride_i);
    for (int e = 0; e < Dim; e++) begin
      out_t v;
      in_t  s;
      v = wh.c[e];
      s = v > out_t'(127) ? in_t'(127) : v < out_t'(-128) ? in_t'(-128) : in_t'(v);
      if (relu_i && s < 0) s = '0;
      sp_wr_data_o[e*8 +: 8]    = s;
      acc_wr_data_o[e*32 +: 32] = 32'(signed'(v));
      sp_wr_mask_o[e]           = CountW'(e) < dst_cols_i;
    end
  end

  assign acc_wr_mask_o       = sp_wr_mask_o;
  assign sp_wr_valid_o       = wq_cnt_q != '0 && !dst_acc_i;
  assign acc_wr_valid_o      = wq_cnt_q != '0 && dst_acc_i;
  assign sp_wr_row_o         = SpRowW'(wrow);
  assign acc_wr_row_o        = AccRowW'(wrow);
  assign acc_wr_accumulate_o = dst_accumulate_i;
  assign sp_wr_id_o          = dst_id_i;
  assign acc_wr_id_o         = dst_id_i;
  assign wq_pop = (sp_wr_valid_o && sp_wr_ready_i) || (acc_wr_valid_o && acc_wr_ready_i);
  assign pop_o  = wq_pop;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wq_rd_q  <= '0;
      wq_wr_q  <= '0;
      wq_cnt_q <= '0;
      wres_q   <= '0;
    end else begin
      if (wq_push) begin
        wq_q[wq_wr_q] <= '{c: out_c_i, k: out_row_i, last: out_tag_i[TagW-2], fsel: out_tag_i[TagW-3],
                           job: out_tag_i[JobW-1:0]};
        wq_wr_q <= wq_wr_q + 1'b1;
      end
      if (wq_pop) wq_rd_q <= wq_rd_q + 1'b1;
      wq_cnt_q <= wq_cnt_q + (DepthW + 1)'(wq_push) - (DepthW + 1)'(wq_pop);
      wres_q   <= wres_q + (DepthW + 1)'(reserve_i) - (DepthW + 1)'(wq_pop);
    end
  end

`ifdef COSIM_ASSERT
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));

  // Every queued row was reserved, the reservations fit the queue, and a row
  // leaving the array always finds room (the array has no back-pressure).
  WriteCountInRange: assert property (@(posedge clk_i) disable iff (!checking)
    wq_cnt_q <= wres_q && wres_q <= (DepthW + 1)'(Depth))
    else $error("exec write queue: %0d rows queued, %0d reserved, depth %0d", wq_cnt_q, wres_q, Depth);
  ReserveWithCredit: assert property (@(posedge clk_i) disable iff (!checking) reserve_i |-> credit_o)
    else $error("exec write queue reserved beyond its depth");
  PushWithRoom: assert property (@(posedge clk_i) disable iff (!checking)
    wq_push |-> wq_cnt_q < (DepthW + 1)'(Depth) || wq_pop)
    else $error("exec write queue: a row left the array into a full queue");
  // A write waiting for its bank stays, with its row, until taken.
  WriteHeld: assert property (@(posedge clk_i) disable iff (!checking)
    (sp_wr_valid_o && !sp_wr_ready_i) || (acc_wr_valid_o && !acc_wr_ready_i) |=>
    (sp_wr_valid_o || acc_wr_valid_o) && $stable(wrow) && $stable(wh))
    else $error("exec write withdrawn or changed before the memory took it");
`endif

endmodule
