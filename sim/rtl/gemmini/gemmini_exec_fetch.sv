// Operand fetch of the execute controller (gemmini_exec.sv; EXEC.md "Pipeline"):
// the fetch task queue, two read lanes and the operand buffers.
//
// Lane 0 fetches the queue's head (scratchpad or accumulator), lane 1 the task
// after it (scratchpad only, its own read port), so a P and an A read from
// different banks proceed in the same cycle; one row request a cycle each. When
// the head leaves, lane 1's task becomes lane 0's with the rows it already
// requested; a task lane 1 has finished leaves with it. Tasks leave in order.
//
// The rows land in the job's operand buffers (BufSets sets of three Dim x Dim
// int8 tiles). The transposer is in the buffer's write: a transposed operand's
// memory row i is written as buffer column i, so the stream always reads buffer
// rows. Accumulator rows go through the acc_scale datapath (int8) and ReLU.
// A task waits for its buffer set (still streamed by the job BufSets earlier) and
// while an older job's result rows it reads (or its own job's drain rows) are
// not written yet: the exec's own read-after-write order.
module gemmini_exec_fetch
  import gemmini_pkg::*;
  import gemmini_exec_pkg::*;
#(
  parameter int unsigned Dim     = 4,
  parameter int unsigned SpRowW  = 12,
  parameter int unsigned AccRowW = 8,
  parameter type         task_t  = logic,  // gemmini_exec's fetch task
  localparam int unsigned CountW = $clog2(Dim + 1),
  localparam int unsigned BeatW  = Dim > 1 ? $clog2(Dim) : 1,
  localparam int unsigned TaskDepth = 8,
  localparam int unsigned TaskW  = 3,
  localparam int unsigned SetW   = $clog2(BufSets)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // tasks from the intake, at most two a cycle (push 0 first)
  input  logic                     push0_i,           // in: queue task0_i
  input  task_t                    task0_i,           // in: the first task
  input  logic                     push1_i,           // in: queue task1_i after task0_i
  input  task_t                    task1_i,           // in: the second task
  output logic                     room1_o,           // out: the queue takes one more task
  output logic                     room2_o,           // out: the queue takes two more tasks
  output logic                     idle_o,            // out: no task queued, no read in flight
  // the job ring (for the waits)
  input  logic [Jobs-1:0]          alive_i,           // in: job x holds a command
  input  logic [JobW-1:0]          head_i,            // in: the oldest job
  input  logic [JobW-1:0]          stream_i,          // in: the job being streamed
  input  logic [Jobs-1:0]          result_i,          // in: job x's compute tile writes result rows
  input  logic [Jobs-1:0]          result_done_i,     // in: ... and they are all written
  input  logic [Jobs-1:0]          result_acc_i,      // in: ... into the accumulator
  input  row_t                     result_lo_i [Jobs],  // in: ... rows [lo, hi)
  input  row_t                     result_hi_i [Jobs],
  input  logic [Jobs-1:0]          drain_i,           // in: job x's drain tile writes rows
  input  logic [Jobs-1:0]          drain_done_i,      // in: ... and they are all written
  input  logic [Jobs-1:0]          drain_acc_i,       // in: ... into the accumulator
  input  row_t                     drain_lo_i [Jobs],   // in: ... rows [lo, hi)
  input  row_t                     drain_hi_i [Jobs],
  // config_ex
  input  logic [31:0]              acc_scale_i,       // in: fp32 scale of accumulator reads
  input  logic                     relu_i,            // in: ReLU on accumulator reads
  // scratchpad / accumulator reads (data the cycle after the accepted request)
  output logic                     sp_rd_valid_o,     // out: lane 0 reads the scratchpad
  input  logic                     sp_rd_ready_i,     // in: ... the bank takes it
  output logic [SpRowW-1:0]        sp_rd_row_o,       // out: ... this row
  input  logic [Dim*8-1:0]         sp_rd_data_i,      // in: the row read the cycle before
  output logic                     sp_rd1_valid_o,    // out: lane 1 reads the scratchpad
  input  logic                     sp_rd1_ready_i,    // in: ... the bank takes it
  output logic [SpRowW-1:0]        sp_rd1_row_o,      // out: ... this row
  input  logic [Dim*8-1:0]         sp_rd1_data_i,     // in: the row read the cycle before
  output logic                     acc_rd_valid_o,    // out: lane 0 reads the accumulator
  input  logic                     acc_rd_ready_i,    // in: ... the bank takes it
  output logic [AccRowW-1:0]       acc_rd_row_o,      // out: ... this row
  input  logic [Dim*32-1:0]        acc_rd_data_i,     // in: the raw int32 row read the cycle before
  // the queue's head (the stream waits for a P the head task is about to read)
  output logic                     head_valid_o,      // out: a task is queued
  output logic [JobW-1:0]          head_job_o,        // out: the head task's job
  output logic                     head_hazard_o,     // out: the head task waits for rows to be written
  // a task's row arrives (lane 0 / lane 1), registered with the read
  output logic [1:0]               arrive_o,          // out: a row lands in a buffer
  output logic [1:0]               arrive_last_o,     // out: ... the task's last row
  output logic [1:0][1:0]          arrive_operand_o,  // out: ... of this operand (operand_e)
  output logic [1:0][JobW-1:0]     arrive_job_o,      // out: ... of this job
  output logic [1:0]               arrive_compute_o,  // out: ... the last row of a compute's read
  output logic [1:0]               arrive_pair_o,     // out: ... of a compute reading A and B
  output logic [1:0][IdW-1:0]      arrive_id_o,       // out: ... the compute's id
  // operand buffer rows for the stream
  input  logic [SetW-1:0]          read_set_i,        // in: the buffer set whose A and B rows are streamed
  input  logic [BeatW-1:0]         read_row_i,        // in: ... this row of them
  input  logic [SetW-1:0]          read_p_set_i,      // in: the buffer set whose P row rides on in_d_i
  input  logic [BeatW-1:0]         read_p_row_i,      // in: ... this row of it
  output in_t [Dim-1:0]            read_a_o,          // out: the A row
  output in_t [Dim-1:0]            read_b_o,          // out: the B / D row
  output in_t [Dim-1:0]            read_p_o           // out: the P row
);

  function automatic logic [JobW-1:0] rel(logic [JobW-1:0] x, logic [JobW-1:0] base);
    return x - base;
  endfunction

  // ---------------------------------------------------------------- task queue

  task_t            tq_q [TaskDepth];
  logic [TaskW-1:0] tq_rd_q, tq_wr_q, tq_rd1;
  logic [TaskW:0]   tq_cnt_q;
  logic [1:0]       tpop;  // tasks leaving the queue this cycle

  assign room1_o = tq_cnt_q <= (TaskW + 1)'(TaskDepth - 1);
  assign room2_o = tq_cnt_q <= (TaskW + 1)'(TaskDepth - 2);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tq_rd_q  <= '0;
      tq_wr_q  <= '0;
      tq_cnt_q <= '0;
      for (int i = 0; i < TaskDepth; i++) tq_q[i] <= '0;
    end else begin
      logic [TaskW-1:0] w;
      w = tq_wr_q;
      if (push0_i) begin
        tq_q[w] <= task0_i;
        w = w + 1'b1;
      end
      if (push1_i) begin
        tq_q[w] <= task1_i;
        w = w + 1'b1;
      end
      tq_wr_q  <= w;
      tq_cnt_q <= tq_cnt_q + (TaskW + 1)'(push0_i) + (TaskW + 1)'(push1_i) - (TaskW + 1)'(tpop);
      tq_rd_q  <= tq_rd_q + TaskW'(tpop);
    end
  end

  // ---------------------------------------------------------------- lanes

  task_t             ft, ft2;
  logic              ft_v, ft_buf_busy, ft_haz, ft_block, ft_fire, ft_last;
  logic              ft2_v, ft2_buf_busy, ft2_haz, ft2_block, ft2_fire, ft2_last;
  logic [CountW-1:0] fi_q, fi2_q;
  logic              l2done_q;  // lane 1 has requested every row of its task
  /* verilator lint_off UNUSEDSIGNAL */
  row_t              ft_row, ft2_row;  // legal rows fit the port
  /* verilator lint_on UNUSEDSIGNAL */
  assign tq_rd1 = tq_rd_q + 1'b1;
  assign ft     = tq_q[tq_rd_q];
  assign ft2    = tq_q[tq_rd1];
  assign ft_v   = tq_cnt_q != '0;
  assign ft2_v  = tq_cnt_q >= (TaskW + 1)'(2) && !l2done_q && !ft2.acc;

  // {the task's buffer set is still streamed, the task reads rows not written yet}
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [1:0] task_wait(task_t t);
    logic [JobW-1:0] mrel;
    logic busy, haz;
    busy = rel(t.job, stream_i) >= JobW'(BufSets);
    mrel = rel(t.job, head_i);
    haz = 1'b0;
    for (int x = 0; x < Jobs; x++) begin
      logic older, own;
      older = alive_i[x] && rel(JobW'(x), head_i) < mrel;
      own   = JobW'(x) == t.job && t.chk_f;
      if (older && result_i[x] && !result_done_i[x] && result_acc_i[x] == t.acc &&
          overlaps(t.lo, t.hi, result_lo_i[x], result_hi_i[x])) haz = 1'b1;
      if ((older || own) && drain_i[x] && !drain_done_i[x] && drain_acc_i[x] == t.acc &&
          overlaps(t.lo, t.hi, drain_lo_i[x], drain_hi_i[x])) haz = 1'b1;
    end
    return {busy, haz};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  always_comb begin
    {ft_buf_busy, ft_haz}   = task_wait(ft);
    {ft2_buf_busy, ft2_haz} = task_wait(ft2);
    ft_block  = ft_buf_busy || ft_haz;
    ft2_block = ft2_buf_busy || ft2_haz;
    ft_row    = row_t'(ft.base) + row_t'(fi_q) * row_t'(ft.stride);
    ft2_row   = row_t'(ft2.base) + row_t'(fi2_q) * row_t'(ft2.stride);
    ft_last   = fi_q == ft.count - 1'b1;
    ft2_last  = fi2_q == ft2.count - 1'b1;
  end

  // (apart from the requests: the valids must not depend on the readies)
  assign ft_fire  = ft_v && !ft_block && (ft.acc ? acc_rd_ready_i : sp_rd_ready_i);
  assign ft2_fire = ft2_v && !ft2_block && sp_rd1_ready_i;
  assign tpop     = !(ft_fire && ft_last) ? 2'd0 : (l2done_q || (ft2_fire && ft2_last)) ? 2'd2 : 2'd1;

  assign sp_rd_valid_o  = ft_v && !ft_block && !ft.acc;
  assign acc_rd_valid_o = ft_v && !ft_block && ft.acc;
  assign sp_rd_row_o    = SpRowW'(ft_row);
  assign acc_rd_row_o   = AccRowW'(ft_row);
  assign sp_rd1_valid_o = ft2_v && !ft2_block;
  assign sp_rd1_row_o   = SpRowW'(ft2_row);

  assign head_valid_o  = ft_v;
  assign head_job_o    = ft.job;
  assign head_hazard_o = ft_haz;

  // ---------------------------------------------------------------- reads in flight

  // lane 0's read in flight (its data arrive the next cycle)
  logic              rq_v_q, rq_acc_q, rq_tr_q, rq_last_q, rq_cmp_q, rq_pair_q;
  logic [JobW-1:0]   rq_job_q;
  logic [1:0]        rq_opnd_q;
  logic [BeatW-1:0]  rq_i_q;
  logic [CountW-1:0] rq_mcols_q;
  logic [IdW-1:0]    rq_cid_q;
  // lane 1's read in flight
  logic              rq1_v_q, rq1_tr_q, rq1_last_q, rq1_cmp_q, rq1_pair_q;
  logic [JobW-1:0]   rq1_job_q;
  logic [1:0]        rq1_opnd_q;
  logic [BeatW-1:0]  rq1_i_q;
  logic [CountW-1:0] rq1_mcols_q;
  logic [IdW-1:0]    rq1_cid_q;

  assign idle_o           = tq_cnt_q == '0 && !rq_v_q && !rq1_v_q;
  assign arrive_o         = {rq1_v_q, rq_v_q};
  assign arrive_last_o    = {rq1_last_q, rq_last_q};
  assign arrive_operand_o = {rq1_opnd_q, rq_opnd_q};
  assign arrive_job_o     = {rq1_job_q, rq_job_q};
  assign arrive_compute_o = {rq1_cmp_q, rq_cmp_q};
  assign arrive_pair_o    = {rq1_pair_q, rq_pair_q};
  assign arrive_id_o      = {rq1_cid_q, rq_cid_q};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fi_q        <= '0;
      fi2_q       <= '0;
      l2done_q    <= 1'b0;
      rq_v_q      <= 1'b0;
      rq_acc_q    <= 1'b0;
      rq_tr_q     <= 1'b0;
      rq_last_q   <= 1'b0;
      rq_cmp_q    <= 1'b0;
      rq_pair_q   <= 1'b0;
      rq_job_q    <= '0;
      rq_opnd_q   <= '0;
      rq_i_q      <= '0;
      rq_mcols_q  <= '0;
      rq_cid_q    <= '0;
      rq1_v_q     <= 1'b0;
      rq1_tr_q    <= 1'b0;
      rq1_last_q  <= 1'b0;
      rq1_cmp_q   <= 1'b0;
      rq1_pair_q  <= 1'b0;
      rq1_job_q   <= '0;
      rq1_opnd_q  <= '0;
      rq1_i_q     <= '0;
      rq1_mcols_q <= '0;
      rq1_cid_q   <= '0;
    end else begin
      rq_v_q  <= ft_fire;
      rq1_v_q <= ft2_fire;
      // row counters: lane 1's task moves to lane 0 when the head leaves
      if (tpop == 2'd2) begin
        fi_q     <= '0;
        fi2_q    <= '0;
        l2done_q <= 1'b0;
      end else if (tpop == 2'd1) begin
        fi_q     <= ft2_fire ? fi2_q + 1'b1 : fi2_q;
        fi2_q    <= '0;
        l2done_q <= 1'b0;
      end else begin
        if (ft_fire) fi_q <= fi_q + 1'b1;
        if (ft2_fire) begin
          fi2_q    <= ft2_last ? '0 : fi2_q + 1'b1;
          l2done_q <= ft2_last;
        end
      end
      if (ft2_fire) begin
        rq1_tr_q    <= ft2.tr;
        rq1_last_q  <= ft2_last;
        rq1_cmp_q   <= ft2_last && ft2.cmp_last;
        rq1_pair_q  <= ft2.cmp_pair;
        rq1_job_q   <= ft2.job;
        rq1_opnd_q  <= ft2.opnd;
        rq1_i_q     <= BeatW'(fi2_q);
        rq1_mcols_q <= ft2.mcols;
        rq1_cid_q   <= ft2.cmp_id;
      end
      if (ft_fire) begin
        rq_acc_q   <= ft.acc;
        rq_tr_q    <= ft.tr;
        rq_last_q  <= ft_last;
        rq_cmp_q   <= ft_last && ft.cmp_last;
        rq_pair_q  <= ft.cmp_pair;
        rq_job_q   <= ft.job;
        rq_opnd_q  <= ft.opnd;
        rq_i_q     <= BeatW'(fi_q);
        rq_mcols_q <= ft.mcols;
        rq_cid_q   <= ft.cmp_id;
      end
    end
  end

  // ---------------------------------------------------------------- operand buffers

  // accumulator rows: scaled by acc_scale to int8, then ReLU (_acc_read_scaled);
  // the scale is computed only in the branch of an accumulator read.
  in_t [Dim-1:0] rd_row;
  always_comb begin
    for (int e = 0; e < Dim; e++) begin
      in_t v;
      if (rq_acc_q) begin
        v = in_t'(scale_to_int(acc_rd_data_i[e*32 +: 32], acc_scale_i, 1'b1));  // within [-128, 127]
        if (relu_i && v < 0) v = '0;
      end else begin
        v = in_t'(sp_rd_data_i[e*8 +: 8]);
      end
      rd_row[e] = CountW'(e) < rq_mcols_q ? v : '0;
    end
  end
  in_t [Dim-1:0] rd_row1;
  always_comb begin
    for (int e = 0; e < Dim; e++) rd_row1[e] = CountW'(e) < rq1_mcols_q ? in_t'(sp_rd1_data_i[e*8 +: 8]) : '0;
  end

  // [set][P/A/B][row][element]
  in_t [Dim-1:0][Dim-1:0] buf_q [BufSets][3];

  always_ff @(posedge clk_i) begin
    // a task's first row clears its buffer; lanes fill different buffers
    if (ft_fire && fi_q == '0) begin
      buf_q[SetW'(ft.job)][ft.opnd] <= '0;
    end
    if (ft2_fire && fi2_q == '0) begin
      buf_q[SetW'(ft2.job)][ft2.opnd] <= '0;
    end
    // memory row i: buffer row i, or buffer column i when transposed (one row
    // or one column written, not a loop over every element)
    if (rq_v_q) begin
      if (rq_tr_q) begin
        for (int r = 0; r < Dim; r++) buf_q[SetW'(rq_job_q)][rq_opnd_q][r][rq_i_q] <= rd_row[r];
      end else begin
        buf_q[SetW'(rq_job_q)][rq_opnd_q][rq_i_q] <= rd_row;
      end
    end
    if (rq1_v_q) begin
      if (rq1_tr_q) begin
        for (int r = 0; r < Dim; r++) buf_q[SetW'(rq1_job_q)][rq1_opnd_q][r][rq1_i_q] <= rd_row1[r];
      end else begin
        buf_q[SetW'(rq1_job_q)][rq1_opnd_q][rq1_i_q] <= rd_row1;
      end
    end
  end

  assign read_a_o = buf_q[read_set_i][OpA][read_row_i];
  assign read_b_o = buf_q[read_set_i][OpB][read_row_i];
  assign read_p_o = buf_q[read_p_set_i][OpP][read_p_row_i];

`ifdef COSIM_ASSERT
  // The queue's count stays within its depth and the intake pushes only with room
  // (it asks room1_o / room2_o); push 1 only beside push 0, so the order is kept.
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));

  TaskCountInRange: assert property (@(posedge clk_i) disable iff (!checking)
    tq_cnt_q <= (TaskW + 1)'(TaskDepth))
    else $error("fetch task queue holds %0d tasks, more than %0d", tq_cnt_q, TaskDepth);
  TaskPushWithRoom: assert property (@(posedge clk_i) disable iff (!checking)
    (TaskW + 2)'(tq_cnt_q) + (TaskW + 2)'(push0_i) + (TaskW + 2)'(push1_i) <= (TaskW + 2)'(TaskDepth))
    else $error("fetch task pushed into a full queue");
  TaskPushInOrder: assert property (@(posedge clk_i) disable iff (!checking) push1_i |-> push0_i)
    else $error("fetch task 1 pushed without task 0");
  TaskPopQueued: assert property (@(posedge clk_i) disable iff (!checking) (TaskW + 1)'(tpop) <= tq_cnt_q)
    else $error("fetch pops %0d tasks of %0d", tpop, tq_cnt_q);
  // A read request waiting for its bank stays, with its row, until taken (a
  // waiting lane-1 request moves to lane 0 when the head task leaves).
  ReadHeld: assert property (@(posedge clk_i) disable iff (!checking)
    (sp_rd_valid_o && !sp_rd_ready_i) || (acc_rd_valid_o && !acc_rd_ready_i) |=>
    (sp_rd_valid_o || acc_rd_valid_o) && $stable(ft_row))
    else $error("fetch lane 0 withdrew or changed a read the memory had not taken");
  Read1Held: assert property (@(posedge clk_i) disable iff (!checking)
    sp_rd1_valid_o && !sp_rd1_ready_i && tpop == 2'd0 |=> sp_rd1_valid_o && $stable(sp_rd1_row_o))
    else $error("fetch lane 1 withdrew or changed a read the memory had not taken");
  // The lanes never fill one buffer in the same cycle.
  LanesDisjoint: assert property (@(posedge clk_i) disable iff (!checking)
    rq_v_q && rq1_v_q |-> {SetW'(rq_job_q), rq_opnd_q} != {SetW'(rq1_job_q), rq1_opnd_q})
    else $error("both fetch lanes write the buffer of job %0d operand %0d", rq_job_q, rq_opnd_q);
`endif

endmodule
