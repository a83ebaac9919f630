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
  input  logic                     clk_i,             // in: clock
  input  logic                     rst_ni,            // in: asynchronous reset, active low
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
  input  row_t                     result_hi_i [Jobs],  // in: ... its end row (exclusive)
  input  logic [Jobs-1:0]          drain_i,           // in: job x's drain tile writes rows
  input  logic [Jobs-1:0]          drain_done_i,      // in: ... and they are all written
  input  logic [Jobs-1:0]          drain_acc_i,       // in: ... into the accumulator
  input  row_t                     drain_lo_i [Jobs],   // in: ... rows [lo, hi)
  input  row_t                     drain_hi_i [Jobs],   // in: ... its end row (exclusive)
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

  function automatic logic [JobW-1:0] relative(logic [JobW-1:0] x, logic [JobW-1:0] base);
    return x - base;
  endfunction

  // ---------------------------------------------------------------- task queue

  task_t            tasks_q [TaskDepth];
  logic [TaskW-1:0] task_head_q, task_tail_q, task_next;
  logic [TaskW:0]   task_count_q;
  logic [1:0]       task_pop;  // tasks leaving the queue this cycle

  assign room1_o = task_count_q <= (TaskW + 1)'(TaskDepth - 1);
  assign room2_o = task_count_q <= (TaskW + 1)'(TaskDepth - 2);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      task_head_q  <= '0;
      task_tail_q  <= '0;
      task_count_q <= '0;
      for (int i = 0; i < TaskDepth; i++) tasks_q[i] <= '0;
    end else begin
      logic [TaskW-1:0] w;
      w = task_tail_q;
      if (push0_i) begin
        tasks_q[w] <= task0_i;
        w = w + 1'b1;
      end
      if (push1_i) begin
        tasks_q[w] <= task1_i;
        w = w + 1'b1;
      end
      task_tail_q  <= w;
      task_count_q <= task_count_q + (TaskW + 1)'(push0_i) + (TaskW + 1)'(push1_i) - (TaskW + 1)'(task_pop);
      task_head_q  <= task_head_q + TaskW'(task_pop);
    end
  end

  // ---------------------------------------------------------------- lanes

  task_t             head_task, next_task;
  logic              head_valid, head_set_busy, head_hazard, head_blocked, head_fire, head_last;
  logic              next_valid, next_set_busy, next_hazard, next_blocked, next_fire, next_last;
  logic [CountW-1:0] head_index_q, next_index_q;
  logic              next_requested_q;  // lane 1 has requested every row of its task
  /* verilator lint_off UNUSEDSIGNAL */
  row_t              head_row, next_row;  // legal rows fit the port
  /* verilator lint_on UNUSEDSIGNAL */
  assign task_next = task_head_q + 1'b1;
  assign head_task     = tasks_q[task_head_q];
  assign next_task    = tasks_q[task_next];
  assign head_valid   = task_count_q != '0;
  assign next_valid  = task_count_q >= (TaskW + 1)'(2) && !next_requested_q && !next_task.acc;

  // {the task's buffer set is still streamed, the task reads rows not written yet}
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [1:0] task_wait(task_t t);
    logic [JobW-1:0] job_age;
    logic busy, hazard;
    busy = relative(t.job, stream_i) >= JobW'(BufSets);
    job_age = relative(t.job, head_i);
    hazard = 1'b0;
    for (int x = 0; x < Jobs; x++) begin
      logic older, own;
      older = alive_i[x] && relative(JobW'(x), head_i) < job_age;
      own   = JobW'(x) == t.job && t.check_drain;
      if (older && result_i[x] && !result_done_i[x] && result_acc_i[x] == t.acc &&
          overlaps(t.lo, t.hi, result_lo_i[x], result_hi_i[x])) hazard = 1'b1;
      if ((older || own) && drain_i[x] && !drain_done_i[x] && drain_acc_i[x] == t.acc &&
          overlaps(t.lo, t.hi, drain_lo_i[x], drain_hi_i[x])) hazard = 1'b1;
    end
    return {busy, hazard};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  always_comb begin
    {head_set_busy, head_hazard}   = task_wait(head_task);
    {next_set_busy, next_hazard} = task_wait(next_task);
    head_blocked  = head_set_busy || head_hazard;
    next_blocked = next_set_busy || next_hazard;
    head_row    = row_t'(head_task.base) + row_t'(head_index_q) * row_t'(head_task.stride);
    next_row   = row_t'(next_task.base) + row_t'(next_index_q) * row_t'(next_task.stride);
    head_last   = head_index_q == head_task.count - 1'b1;
    next_last  = next_index_q == next_task.count - 1'b1;
  end

  // (apart from the requests: the valids must not depend on the readies)
  assign head_fire  = head_valid && !head_blocked && (head_task.acc ? acc_rd_ready_i : sp_rd_ready_i);
  assign next_fire = next_valid && !next_blocked && sp_rd1_ready_i;
  assign task_pop     = !(head_fire && head_last) ? 2'd0 : (next_requested_q || (next_fire && next_last)) ? 2'd2 : 2'd1;

  assign sp_rd_valid_o  = head_valid && !head_blocked && !head_task.acc;
  assign acc_rd_valid_o = head_valid && !head_blocked && head_task.acc;
  assign sp_rd_row_o    = SpRowW'(head_row);
  assign acc_rd_row_o   = AccRowW'(head_row);
  assign sp_rd1_valid_o = next_valid && !next_blocked;
  assign sp_rd1_row_o   = SpRowW'(next_row);

  assign head_valid_o  = head_valid;
  assign head_job_o    = head_task.job;
  assign head_hazard_o = head_hazard;

  // ---------------------------------------------------------------- reads in flight

  // lane 0's read in flight (its data arrive the next cycle)
  logic              read_valid_q, read_acc_q, read_transpose_q, read_last_q, read_compute_q, read_pair_q;
  logic [JobW-1:0]   read_job_q;
  logic [1:0]        read_operand_q;
  logic [BeatW-1:0]  read_index_q;
  logic [CountW-1:0] read_cols_q;
  logic [IdW-1:0]    read_id_q;
  // lane 1's read in flight
  logic              read1_valid_q, read1_transpose_q, read1_last_q, read1_compute_q, read1_pair_q;
  logic [JobW-1:0]   read1_job_q;
  logic [1:0]        read1_operand_q;
  logic [BeatW-1:0]  read1_index_q;
  logic [CountW-1:0] read1_cols_q;
  logic [IdW-1:0]    read1_id_q;

  assign idle_o           = task_count_q == '0 && !read_valid_q && !read1_valid_q;
  assign arrive_o         = {read1_valid_q, read_valid_q};
  assign arrive_last_o    = {read1_last_q, read_last_q};
  assign arrive_operand_o = {read1_operand_q, read_operand_q};
  assign arrive_job_o     = {read1_job_q, read_job_q};
  assign arrive_compute_o = {read1_compute_q, read_compute_q};
  assign arrive_pair_o    = {read1_pair_q, read_pair_q};
  assign arrive_id_o      = {read1_id_q, read_id_q};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_index_q      <= '0;
      next_index_q      <= '0;
      next_requested_q  <= 1'b0;
      read_valid_q      <= 1'b0;
      read_acc_q        <= 1'b0;
      read_transpose_q  <= 1'b0;
      read_last_q       <= 1'b0;
      read_compute_q    <= 1'b0;
      read_pair_q       <= 1'b0;
      read_job_q        <= '0;
      read_operand_q    <= '0;
      read_index_q      <= '0;
      read_cols_q       <= '0;
      read_id_q         <= '0;
      read1_valid_q     <= 1'b0;
      read1_transpose_q <= 1'b0;
      read1_last_q      <= 1'b0;
      read1_compute_q   <= 1'b0;
      read1_pair_q      <= 1'b0;
      read1_job_q       <= '0;
      read1_operand_q   <= '0;
      read1_index_q     <= '0;
      read1_cols_q      <= '0;
      read1_id_q        <= '0;
    end else begin
      read_valid_q  <= head_fire;
      read1_valid_q <= next_fire;
      // row counters: lane 1's task moves to lane 0 when the head leaves
      if (task_pop == 2'd2) begin
        head_index_q     <= '0;
        next_index_q     <= '0;
        next_requested_q <= 1'b0;
      end else if (task_pop == 2'd1) begin
        head_index_q     <= next_fire ? next_index_q + 1'b1 : next_index_q;
        next_index_q     <= '0;
        next_requested_q <= 1'b0;
      end else begin
        if (head_fire) head_index_q <= head_index_q + 1'b1;
        if (next_fire) begin
          next_index_q     <= next_last ? '0 : next_index_q + 1'b1;
          next_requested_q <= next_last;
        end
      end
      if (next_fire) begin
        read1_transpose_q <= next_task.transpose;
        read1_last_q      <= next_last;
        read1_compute_q   <= next_last && next_task.compute_last;
        read1_pair_q      <= next_task.compute_pair;
        read1_job_q       <= next_task.job;
        read1_operand_q   <= next_task.operand;
        read1_index_q     <= BeatW'(next_index_q);
        read1_cols_q      <= next_task.memory_cols;
        read1_id_q        <= next_task.compute_id;
      end
      if (head_fire) begin
        read_acc_q       <= head_task.acc;
        read_transpose_q <= head_task.transpose;
        read_last_q      <= head_last;
        read_compute_q   <= head_last && head_task.compute_last;
        read_pair_q      <= head_task.compute_pair;
        read_job_q       <= head_task.job;
        read_operand_q   <= head_task.operand;
        read_index_q     <= BeatW'(head_index_q);
        read_cols_q      <= head_task.memory_cols;
        read_id_q        <= head_task.compute_id;
      end
    end
  end

  // ---------------------------------------------------------------- operand buffers

  // accumulator rows: scaled by acc_scale to int8, then ReLU (_acc_read_scaled);
  // the scale is computed only in the branch of an accumulator read.
  in_t [Dim-1:0] row_in;
  always_comb begin
    for (int e = 0; e < Dim; e++) begin
      in_t v;
      if (read_acc_q) begin
        v = in_t'(scale_to_int(acc_rd_data_i[e*32 +: 32], acc_scale_i, 1'b1));  // within [-128, 127]
        if (relu_i && v < 0) v = '0;
      end else begin
        v = in_t'(sp_rd_data_i[e*8 +: 8]);
      end
      row_in[e] = CountW'(e) < read_cols_q ? v : '0;
    end
  end
  in_t [Dim-1:0] row_in1;
  always_comb begin
    for (int e = 0; e < Dim; e++) row_in1[e] = CountW'(e) < read1_cols_q ? in_t'(sp_rd1_data_i[e*8 +: 8]) : '0;
  end

  // [set][P/A/B][row][element]
  in_t [Dim-1:0][Dim-1:0] buffer_q [BufSets][3];

  always_ff @(posedge clk_i) begin
    // a task's first row clears its buffer; lanes fill different buffers
    if (head_fire && head_index_q == '0) begin
      buffer_q[SetW'(head_task.job)][head_task.operand] <= '0;
    end
    if (next_fire && next_index_q == '0) begin
      buffer_q[SetW'(next_task.job)][next_task.operand] <= '0;
    end
    // memory row i: buffer row i, or buffer column i when transposed (one row
    // or one column written, not a loop over every element)
    if (read_valid_q) begin
      if (read_transpose_q) begin
        for (int r = 0; r < Dim; r++) buffer_q[SetW'(read_job_q)][read_operand_q][r][read_index_q] <= row_in[r];
      end else begin
        buffer_q[SetW'(read_job_q)][read_operand_q][read_index_q] <= row_in;
      end
    end
    if (read1_valid_q) begin
      if (read1_transpose_q) begin
        for (int r = 0; r < Dim; r++) buffer_q[SetW'(read1_job_q)][read1_operand_q][r][read1_index_q] <= row_in1[r];
      end else begin
        buffer_q[SetW'(read1_job_q)][read1_operand_q][read1_index_q] <= row_in1;
      end
    end
  end

  assign read_a_o = buffer_q[read_set_i][OpA][read_row_i];
  assign read_b_o = buffer_q[read_set_i][OpB][read_row_i];
  assign read_p_o = buffer_q[read_p_set_i][OpP][read_p_row_i];

`ifdef COSIM_ASSERT
  // The queue's count stays within its depth and the intake pushes only with room
  // (it asks room1_o / room2_o); push 1 only beside push 0, so the order is kept.
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));

  TaskCountInRange: assert property (@(posedge clk_i) disable iff (!checking)
    task_count_q <= (TaskW + 1)'(TaskDepth))
    else $error("fetch task queue holds %0d tasks, more than %0d", task_count_q, TaskDepth);
  TaskPushWithRoom: assert property (@(posedge clk_i) disable iff (!checking)
    (TaskW + 2)'(task_count_q) + (TaskW + 2)'(push0_i) + (TaskW + 2)'(push1_i) <= (TaskW + 2)'(TaskDepth))
    else $error("fetch task pushed into a full queue");
  TaskPushInOrder: assert property (@(posedge clk_i) disable iff (!checking) push1_i |-> push0_i)
    else $error("fetch task 1 pushed without task 0");
  TaskPopQueued: assert property (@(posedge clk_i) disable iff (!checking) (TaskW + 1)'(task_pop) <= task_count_q)
    else $error("fetch pops %0d tasks of %0d", task_pop, task_count_q);
  // A read request waiting for its bank stays, with its row, until taken (a
  // waiting lane-1 request moves to lane 0 when the head task leaves).
  ReadHeld: assert property (@(posedge clk_i) disable iff (!checking)
    (sp_rd_valid_o && !sp_rd_ready_i) || (acc_rd_valid_o && !acc_rd_ready_i) |=>
    (sp_rd_valid_o || acc_rd_valid_o) && $stable(head_row))
    else $error("fetch lane 0 withdrew or changed a read the memory had not taken");
  Read1Held: assert property (@(posedge clk_i) disable iff (!checking)
    sp_rd1_valid_o && !sp_rd1_ready_i && task_pop == 2'd0 |=> sp_rd1_valid_o && $stable(sp_rd1_row_o))
    else $error("fetch lane 1 withdrew or changed a read the memory had not taken");
  // The lanes never fill one buffer in the same cycle.
  LanesDisjoint: assert property (@(posedge clk_i) disable iff (!checking)
    read_valid_q && read1_valid_q |-> {SetW'(read_job_q), read_operand_q} != {SetW'(read1_job_q), read1_operand_q})
    else $error("both fetch lanes write the buffer of job %0d operand %0d", read_job_q, read_operand_q);
`endif

endmodule
