// Execute controller of the Gemmini-style unit (UNIT.md, EXEC.md beside this
// file): config_ex, preload, compute_preloaded, compute_accumulated and
// FunctDrain, bit-exact with sim/gemmini/model.py, driving gemmini_array.
//
// This module holds the job ring (the state every stage reads) and wires the
// stages (EXEC.md has the timing):
//   gemmini_exec_intake  one command a cycle, in program order: config_ex, the
//                        model's program-order state, the job a command belongs
//                        to and its operand reads as fetch tasks
//   gemmini_exec_fetch   the task queue, two read lanes, the operand buffers
//   gemmini_exec_stream  one tile (Dim beats) per job into the array
//   gemmini_array        the mesh (fixed latency 2*Dim)
//   gemmini_exec_write   the write queue in front of the scratchpad /
//                        accumulator write ports
//   gemmini_exec_done    the completions queue
// A job is a preload with its compute (or a compute alone, or a drain alone);
// the ring holds Jobs of them from intake until their rows are written.
// done: config_ex when applied; a compute when its operand reads are in; a
// preload when its C rows are all written (OS: at the shift-out or drain), or
// when its compute has streamed if it names no C; FunctDrain when the drain's
// rows are written (at once if nothing is pending).
//
// About 640 lines, past the ~600-line guide on purpose: 185 of them are the port
// maps of the six stages above, and the rest is the job ring itself (per-job flags
// that every stage reads by its job number) and the completions it drives; as a
// module of its own the ring would be a port per flag to the same six stages.
module gemmini_exec
  import gemmini_pkg::*;
  import gemmini_exec_pkg::*;
#(
  parameter int unsigned Dim     = 4,
  parameter int unsigned SpRows  = 4096,
  parameter int unsigned AccRows = 256,
  parameter bit          HasWs   = 1'b1,  // reset dataflow: WS if the config has it (as the model)
  localparam int unsigned SpRowW  = $clog2(SpRows),
  localparam int unsigned AccRowW = $clog2(AccRows)
) (
  input  logic                 clk_i,                // in: clock
  input  logic                 rst_ni,               // in: asynchronous reset, active low
  // commands (program order) and completions
  input  logic                 cmd_valid_i,          // in: the ROB offers a command
  output logic                 cmd_ready_o,          // out: ... the controller takes it
  input  gm_cmd_t              cmd_i,                // in: the command
  output logic                 done_valid_o,         // out: a command is done (always taken)
  output logic [IdW-1:0]       done_id_o,            // out: ... its id
  // scratchpad read (data the cycle after the accepted request)
  output logic                 sp_rd_valid_o,        // out: the first fetch lane reads the scratchpad
  input  logic                 sp_rd_ready_i,        // in: ... the bank takes it
  output logic [SpRowW-1:0]    sp_rd_row_o,          // out: ... this row
  input  logic [Dim*8-1:0]     sp_rd_data_i,         // in: the row read the cycle before
  // the second fetch lane's scratchpad read (same timing)
  output logic                 sp_rd1_valid_o,       // out: the second fetch lane reads the scratchpad
  input  logic                 sp_rd1_ready_i,       // in: ... the bank takes it
  output logic [SpRowW-1:0]    sp_rd1_row_o,         // out: ... this row
  input  logic [Dim*8-1:0]     sp_rd1_data_i,        // in: the row read the cycle before
  // accumulator read (raw int32)
  output logic                 acc_rd_valid_o,       // out: the first fetch lane reads the accumulator
  input  logic                 acc_rd_ready_i,       // in: ... the bank takes it
  output logic [AccRowW-1:0]   acc_rd_row_o,         // out: ... this row
  input  logic [Dim*32-1:0]    acc_rd_data_i,        // in: the row read the cycle before
  // scratchpad write
  output logic                 sp_wr_valid_o,        // out: a result row for the scratchpad
  input  logic                 sp_wr_ready_i,        // in: ... the bank takes it
  output logic [SpRowW-1:0]    sp_wr_row_o,          // out: ... its row
  output logic [Dim-1:0]       sp_wr_mask_o,         // out: ... its element mask
  output logic [Dim*8-1:0]     sp_wr_data_o,         // out: ... its int8 values
  output logic [IdW-1:0]       sp_wr_id_o,           // out: ... the id of the preload naming it
  // accumulator write
  output logic                 acc_wr_valid_o,       // out: a result row for the accumulator
  input  logic                 acc_wr_ready_i,       // in: ... the bank takes it
  output logic [AccRowW-1:0]   acc_wr_row_o,         // out: ... its row
  output logic [Dim-1:0]       acc_wr_mask_o,        // out: ... its element mask
  output logic [Dim*32-1:0]    acc_wr_data_o,        // out: ... its int32 values
  output logic                 acc_wr_accumulate_o,  // out: ... added to the row (else overwrite)
  output logic [IdW-1:0]       acc_wr_id_o,          // out: ... the id of the preload naming it
  // events of this cycle (counters)
  output logic [31:0]          perf_macs_o,          // out: useful MACs of the compute whose tile starts now
  output logic                 perf_busy_o,          // out: a command is held
  output logic                 perf_mesh_busy_o,     // out: a beat is inside the array
  output logic                 perf_stall_mem_o,     // out: a read or write request the memory does not take
  output logic                 perf_stall_operand_o  // out: a compute waits for its operands
);

  // ---------------------------------------------------------------- types

  localparam int unsigned CountW = $clog2(Dim + 1);
  localparam int unsigned BeatW  = Dim > 1 ? $clog2(Dim) : 1;
  localparam int unsigned TagW   = 3 + JobW;  // the array's beat tag: {write, last, drain, job}
  localparam int unsigned Pushes = 7;         // completions a cycle

  // Where a result goes (a preload's C).
  typedef struct packed {
    logic              acc;    // accumulator (else scratchpad)
    logic              accum;  // accumulate (address bit 30)
    logic [25:0]       row;
    logic [CountW-1:0] rows;
    logic [CountW-1:0] cols;
    logic [IdW-1:0]    id;     // the preload's
  } dst_t;

  // One operand read: `count` memory rows from `base` every `stride`.
  typedef struct packed {
    logic [JobW-1:0]   job;
    logic [1:0]        operand;      // operand_e
    logic              acc;
    logic              transpose;        // write memory row i as buffer column i
    logic              check_drain;     // also wait for the job's own drain rows
    logic [25:0]       base;
    logic [15:0]       stride;
    logic [CountW-1:0] count;
    logic [CountW-1:0] memory_cols;
    row_t              lo, hi;    // rows read: [lo, hi)
    logic              compute_last;  // a read of the compute: its done comes with the last of them
    logic              compute_pair;  // the compute reads A and B (done when both are in)
    logic [IdW-1:0]    compute_id;
  } task_t;

  // ---------------------------------------------------------------- job ring

  logic [PtrW-1:0] head_q, tail_q, stream;  // oldest, next free, being streamed
  logic [PtrW-1:0] jobs;
  logic [JobW-1:0] head, tail, stream_job;
  assign jobs       = tail_q - head_q;
  assign head       = head_q[JobW-1:0];
  assign tail       = tail_q[JobW-1:0];
  assign stream_job = stream[JobW-1:0];

  logic [Jobs-1:0]   compute_q, flip_q, skip_q, drain_only_q;
  logic [Jobs-1:0]   pre_c_q, done_at_stream_q, pre_bd_q;
  logic [Jobs-1:0]   p_zero_q, p_in_q, a_zero_q, a_in_q, b_zero_q, b_in_q;
  logic [Jobs-1:0]   carried_q;
  logic [Jobs-1:0]   drain_q, drain_streamed_q, drain_done_q, p_before_drain_q, drain_cmd_q;
  logic [Jobs-1:0]   result_q, result_done_q;
  dst_t              pre_dst_q [Jobs];     // the preload's C
  dst_t              result_dst_q [Jobs];  // where the compute tile's result rows go
  dst_t              drain_dst_q [Jobs];   // where the drain tile's rows go
  row_t              result_lo_q [Jobs], result_hi_q [Jobs], drain_lo_q [Jobs], drain_hi_q [Jobs];
  logic [IdW-1:0]    drain_id_q [Jobs];    // the FunctDrain's id
  logic [31:0]       macs_q [Jobs];
  logic [CountW-1:0] pre_bd_cols_q [Jobs];  // columns of the preload's weights (WS MAC count)

  function automatic logic [JobW-1:0] relative(logic [JobW-1:0] x, logic [JobW-1:0] base);
    return x - base;
  endfunction

  logic [Jobs-1:0] alive, result_acc, drain_acc;
  logic [CountW-1:0] result_rows [Jobs], drain_rows [Jobs];
  always_comb begin
    for (int x = 0; x < Jobs; x++) begin
      alive[x]       = PtrW'(relative(JobW'(x), head)) < jobs;
      result_acc[x]  = result_dst_q[x].acc;
      drain_acc[x]   = drain_dst_q[x].acc;
      result_rows[x] = result_dst_q[x].rows;
      drain_rows[x]  = drain_dst_q[x].rows;
    end
  end

  // ---------------------------------------------------------------- intake

  logic              cmd_fire, is_preload, is_compute, is_flip, is_drain, cmd_done, alloc, compute_alloc;
  logic [JobW-1:0]   compute_job, pending_job;
  logic              pending, os_pending, drain_preload, drain_compute, preload_read, preload_c, preload_bd, read_a, read_b, result, os_replaced;
  dst_t              os_dst, preload_dst, result_dst;
  row_t              drain_lo, drain_hi, result_lo, result_hi;
  logic [CountW-1:0] preload_bd_cols;
  logic [31:0]       macs;
  logic              push0, push1;
  task_t             task0, task1;
  logic              cfg_os, cfg_relu;
  logic [31:0]       cfg_scale;
  logic [ShiftW-1:0] cfg_shift;
  logic [15:0]       cfg_cstride;
  logic              done_room, held, task_room1, task_room2, fetch_idle, stream_active, array_busy, write_idle;

  gemmini_exec_intake #(.Dim(Dim), .HasWs(HasWs), .dst_t(dst_t), .task_t(task_t)) u_intake (
    .clk_i, .rst_ni,
    .cmd_valid_i, .cmd_ready_o, .cmd_i,
    .fire_o            (cmd_fire),
    .is_preload_o      (is_preload),
    .is_compute_o      (is_compute),
    .is_flip_o         (is_flip),
    .is_drain_o        (is_drain),
    .done_o            (cmd_done),
    .done_room_i       (done_room),
    .task_room1_i      (task_room1),
    .task_room2_i      (task_room2),
    .idle_i            (fetch_idle && !stream_active && !array_busy && write_idle),
    .jobs_i            (jobs),
    .head_i            (head),
    .tail_i            (tail),
    .pre_c_i           (pre_c_q),
    .pre_dst_i         (pre_dst_q),
    .pre_bd_i          (pre_bd_q),
    .pre_bd_cols_i     (pre_bd_cols_q),
    .drain_i           (drain_q),
    .drain_done_i      (drain_done_q),
    .alloc_o           (alloc),
    .job_o             (compute_job),
    .job_alloc_o       (compute_alloc),
    .pending_o         (pending),
    .pending_job_o     (pending_job),
    .os_pending_o      (os_pending),
    .os_dst_o          (os_dst),
    .drain_preload_o   (drain_preload),
    .drain_compute_o   (drain_compute),
    .drain_lo_o        (drain_lo),
    .drain_hi_o        (drain_hi),
    .preload_read_o    (preload_read),
    .preload_c_o       (preload_c),
    .preload_dst_o     (preload_dst),
    .preload_bd_o      (preload_bd),
    .preload_bd_cols_o (preload_bd_cols),
    .read_a_o          (read_a),
    .read_b_o          (read_b),
    .result_o          (result),
    .result_dst_o      (result_dst),
    .result_lo_o       (result_lo),
    .result_hi_o       (result_hi),
    .os_replaced_o     (os_replaced),
    .macs_o            (macs),
    .push0_o           (push0),
    .task0_o           (task0),
    .push1_o           (push1),
    .task1_o           (task1),
    .os_o              (cfg_os),
    .relu_o            (cfg_relu),
    .acc_scale_o       (cfg_scale),
    .shift_o           (cfg_shift),
    .c_stride_o        (cfg_cstride)
  );

  // ---------------------------------------------------------------- fetch

  logic                 head_task_valid, head_task_hazard;
  logic [JobW-1:0]      head_task_job;
  logic [1:0]           arrive, arrive_last, arrive_compute, arrive_pair;
  logic [1:0][1:0]      arrive_operand;
  logic [1:0][JobW-1:0] arrive_job;
  logic [1:0][IdW-1:0]  arrive_id;
  logic [BeatW-1:0]     beat, carry_row;
  logic [JobW-1:0]      carry_job;
  in_t [Dim-1:0]        row_a, row_b, row_p;

  gemmini_exec_fetch #(.Dim(Dim), .SpRowW(SpRowW), .AccRowW(AccRowW), .task_t(task_t)) u_fetch (
    .clk_i, .rst_ni,
    .push0_i (push0), .task0_i (task0), .push1_i (push1), .task1_i (task1),
    .room1_o (task_room1), .room2_o (task_room2), .idle_o (fetch_idle),
    .alive_i         (alive),
    .head_i          (head),
    .stream_i        (stream_job),
    .result_i        (result_q),
    .result_done_i   (result_done_q),
    .result_acc_i    (result_acc),
    .result_lo_i     (result_lo_q),
    .result_hi_i     (result_hi_q),
    .drain_i         (drain_q),
    .drain_done_i    (drain_done_q),
    .drain_acc_i     (drain_acc),
    .drain_lo_i      (drain_lo_q),
    .drain_hi_i      (drain_hi_q),
    .acc_scale_i     (cfg_scale),
    .relu_i          (cfg_relu),
    .sp_rd_valid_o, .sp_rd_ready_i, .sp_rd_row_o, .sp_rd_data_i,
    .sp_rd1_valid_o, .sp_rd1_ready_i, .sp_rd1_row_o, .sp_rd1_data_i,
    .acc_rd_valid_o, .acc_rd_ready_i, .acc_rd_row_o, .acc_rd_data_i,
    .head_valid_o     (head_task_valid),
    .head_job_o       (head_task_job),
    .head_hazard_o    (head_task_hazard),
    .arrive_o         (arrive),
    .arrive_last_o    (arrive_last),
    .arrive_operand_o (arrive_operand),
    .arrive_job_o     (arrive_job),
    .arrive_compute_o (arrive_compute),
    .arrive_pair_o    (arrive_pair),
    .arrive_id_o      (arrive_id),
    .read_set_i       (stream_job[1:0]),
    .read_row_i       (beat),
    .read_p_set_i     (carry_job[1:0]),
    .read_p_row_i     (carry_row),
    .read_a_o         (row_a),
    .read_b_o         (row_b),
    .read_p_o         (row_p)
  );

  // ---------------------------------------------------------------- stream

  logic          beat_fire, carry, beat_flip, beat_wr, beat_last, credit;
  logic          tile_start, tile_end, skip, wait_operand;
  tile_e         kind;
  in_t [Dim-1:0] beat_a, beat_b, beat_d;

  gemmini_exec_stream #(.Dim(Dim)) u_stream (
    .clk_i, .rst_ni,
    .os_i              (cfg_os),
    .tail_i            (tail_q),
    .stream_o          (stream),
    .compute_i         (compute_q),
    .flip_i            (flip_q),
    .skip_i            (skip_q),
    .drain_only_i      (drain_only_q),
    .carried_i         (carried_q),
    .p_zero_i          (p_zero_q),
    .p_in_i            (p_in_q),
    .a_zero_i          (a_zero_q),
    .a_in_i            (a_in_q),
    .b_zero_i          (b_zero_q),
    .b_in_i            (b_in_q),
    .drain_i           (drain_q),
    .drain_streamed_i  (drain_streamed_q),
    .p_before_drain_i  (p_before_drain_q),
    .result_i          (result_q),
    .result_rows_i     (result_rows),
    .drain_rows_i      (drain_rows),
    .head_valid_i      (head_task_valid),
    .head_job_i        (head_task_job),
    .head_hazard_i     (head_task_hazard),
    .credit_i          (credit),
    .beat_o            (beat),
    .carry_job_o       (carry_job),
    .carry_row_o       (carry_row),
    .row_a_i           (row_a),
    .row_b_i           (row_b),
    .row_p_i           (row_p),
    .fire_o            (beat_fire),
    .kind_o            (kind),
    .carry_o           (carry),
    .flip_o            (beat_flip),
    .write_o           (beat_wr),
    .last_o            (beat_last),
    .a_o               (beat_a),
    .b_o               (beat_b),
    .d_o               (beat_d),
    .tile_start_o      (tile_start),
    .tile_end_o        (tile_end),
    .skip_o            (skip),
    .active_o          (stream_active),
    .wait_operand_o    (wait_operand)
  );

  // ---------------------------------------------------------------- the array

  logic            out_valid, out_flip;
  logic [BeatW-1:0] out_row;
  dataflow_e       out_df;
  logic [TagW-1:0] out_tag;
  out_t [Dim-1:0]  out_c;

  gemmini_array #(.Dim(Dim), .TagW(TagW)) u_array (
    .clk_i,
    .rst_ni,
    .in_valid_i  (beat_fire),
    .in_flip_i   (beat_flip),
    .in_df_i     (cfg_os ? DfOs : DfWs),
    .in_shift_i  (cfg_shift),
    .in_tag_i    ({beat_wr, beat_last, kind == TileFlush, stream_job}),
    .in_a_i      (beat_a),
    .in_b_i      (beat_b),
    .in_d_i      (beat_d),
    .out_valid_o (out_valid),
    .out_row_o   (out_row),
    .out_flip_o  (out_flip),
    .out_df_o    (out_df),
    .out_tag_o   (out_tag),
    .out_c_o     (out_c),
    .busy_o      (array_busy)
  );

  // ---------------------------------------------------------------- write queue

  logic            write_pop, write_drain, write_last;
  logic [JobW-1:0] write_job;
  /* verilator lint_off UNUSEDSIGNAL */
  dst_t            write_dst;  // rows are in the record for the stream, not the write
  /* verilator lint_on UNUSEDSIGNAL */
  assign write_dst = write_drain ? drain_dst_q[write_job] : result_dst_q[write_job];

  gemmini_exec_write #(.Dim(Dim), .SpRowW(SpRowW), .AccRowW(AccRowW), .TagW(TagW)) u_write (
    .clk_i, .rst_ni,
    .os_i             (cfg_os),
    .relu_i           (cfg_relu),
    .c_stride_i       (cfg_cstride),
    .reserve_i        (beat_fire && beat_wr),
    .credit_o         (credit),
    .idle_o           (write_idle),
    .out_valid_i      (out_valid),
    .out_tag_i        (out_tag),
    .out_row_i        (out_row),
    .out_c_i          (out_c),
    .head_job_o       (write_job),
    .head_drain_o     (write_drain),
    .head_last_o      (write_last),
    .dst_acc_i        (write_dst.acc),
    .dst_accumulate_i (write_dst.accum),
    .dst_row_i        (write_dst.row),
    .dst_cols_i       (write_dst.cols),
    .dst_id_i         (write_dst.id),
    .pop_o            (write_pop),
    .sp_wr_valid_o, .sp_wr_ready_i, .sp_wr_row_o, .sp_wr_mask_o, .sp_wr_data_o, .sp_wr_id_o,
    .acc_wr_valid_o, .acc_wr_ready_i, .acc_wr_row_o, .acc_wr_mask_o, .acc_wr_data_o, .acc_wr_accumulate_o,
    .acc_wr_id_o
  );

  logic unused_out;
  assign unused_out = ^{out_flip, out_df};

  // ---------------------------------------------------------------- job state

  // The oldest job retires once streamed past and its result and drain rows are written.
  logic retire;
  assign retire = jobs != '0 && head_q != stream &&
                  (!drain_q[head] || drain_done_q[head]) && (!result_q[head] || result_done_q[head]);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q <= '0;
      tail_q <= '0;
      compute_q <= '0; flip_q <= '0; skip_q <= '0; drain_only_q <= '0;
      pre_c_q <= '0; done_at_stream_q <= '0; pre_bd_q <= '0;
      p_zero_q <= '0; p_in_q <= '0; a_zero_q <= '0; a_in_q <= '0; b_zero_q <= '0; b_in_q <= '0;
      carried_q <= '0;
      drain_q <= '0; drain_streamed_q <= '0; drain_done_q <= '0; p_before_drain_q <= '0; drain_cmd_q <= '0;
      result_q <= '0; result_done_q <= '0;
      for (int i = 0; i < Jobs; i++) begin
        pre_dst_q[i] <= '0; result_dst_q[i] <= '0; drain_dst_q[i] <= '0;
        result_lo_q[i] <= '0; result_hi_q[i] <= '0; drain_lo_q[i] <= '0; drain_hi_q[i] <= '0;
        drain_id_q[i] <= '0; macs_q[i] <= '0; pre_bd_cols_q[i] <= '0;
      end
    end else begin
      if (retire) head_q <= head_q + 1'b1;

      // ---- intake
      if (alloc) begin
        // a new job
        tail_q <= tail_q + 1'b1;
        compute_q[tail] <= 1'b0; flip_q[tail] <= 1'b0; skip_q[tail] <= 1'b0;
        drain_only_q[tail] <= is_drain;
        pre_c_q[tail] <= 1'b0; done_at_stream_q[tail] <= 1'b0;
        p_zero_q[tail] <= 1'b1; p_in_q[tail] <= 1'b1;
        a_zero_q[tail] <= 1'b1; a_in_q[tail] <= 1'b1; b_zero_q[tail] <= 1'b1; b_in_q[tail] <= 1'b1;
        carried_q[tail] <= 1'b0;
        drain_q[tail] <= 1'b0; drain_streamed_q[tail] <= 1'b0; drain_done_q[tail] <= 1'b0;
        p_before_drain_q[tail] <= 1'b0; drain_cmd_q[tail] <= 1'b0;
        result_q[tail] <= 1'b0; result_done_q[tail] <= 1'b0; pre_bd_q[tail] <= 1'b0;
        macs_q[tail] <= '0;
      end
      if (cmd_fire && is_preload) begin
        if (pending) skip_q[pending_job] <= 1'b1;  // a preload replaced before its compute: nothing of it stays
        pre_c_q[tail]       <= preload_c;
        pre_dst_q[tail]     <= preload_dst;
        pre_bd_q[tail]      <= preload_bd;
        pre_bd_cols_q[tail] <= preload_bd_cols;
        if (preload_read) begin
          p_zero_q[tail] <= 1'b0;
          p_in_q[tail]   <= 1'b0;
        end
        if (drain_preload) begin
          drain_q[tail]     <= 1'b1;
          drain_dst_q[tail] <= os_dst;
          drain_lo_q[tail]  <= drain_lo;
          drain_hi_q[tail]  <= drain_hi;
        end
      end
      if (cmd_fire && is_compute) begin
        compute_q[compute_job]        <= 1'b1;
        flip_q[compute_job]           <= is_flip;
        done_at_stream_q[compute_job] <= !compute_alloc && !pre_c_q[compute_job];
        if (read_a) begin
          a_zero_q[compute_job] <= 1'b0;
          a_in_q[compute_job]   <= 1'b0;
        end
        if (read_b) begin
          b_zero_q[compute_job] <= 1'b0;
          b_in_q[compute_job]   <= 1'b0;
        end
        result_q[compute_job]     <= result;
        result_dst_q[compute_job] <= result_dst;
        result_lo_q[compute_job]  <= result_lo;
        result_hi_q[compute_job]  <= result_hi;
        macs_q[compute_job]       <= macs;
        if (drain_compute) begin
          drain_q[compute_job]          <= 1'b1;
          drain_dst_q[compute_job]      <= os_dst;
          drain_lo_q[compute_job]       <= drain_lo;
          drain_hi_q[compute_job]       <= drain_hi;
          p_before_drain_q[compute_job] <= !compute_alloc;  // the P read was queued before this drain
        end
      end
      if (cmd_fire && is_drain && os_pending) begin
        if (pending) begin
          drain_q[pending_job]          <= 1'b1;
          drain_dst_q[pending_job]      <= os_dst;
          drain_lo_q[pending_job]       <= drain_lo;
          drain_hi_q[pending_job]       <= drain_hi;
          drain_cmd_q[pending_job]      <= 1'b1;
          drain_id_q[pending_job]       <= cmd_i.id;
          p_before_drain_q[pending_job] <= !p_zero_q[pending_job];
        end else begin
          drain_q[tail]     <= 1'b1;
          drain_dst_q[tail] <= os_dst;
          drain_lo_q[tail]  <= drain_lo;
          drain_hi_q[tail]  <= drain_hi;
          drain_cmd_q[tail] <= 1'b1;
          drain_id_q[tail]  <= cmd_i.id;
        end
      end

      // ---- fetch: a task's last row is in
      for (int l = 0; l < 2; l++) begin
        if (arrive[l] && arrive_last[l]) begin
          case (arrive_operand[l])
            OpP:     p_in_q[arrive_job[l]] <= 1'b1;
            OpA:     a_in_q[arrive_job[l]] <= 1'b1;
            default: b_in_q[arrive_job[l]] <= 1'b1;
          endcase
        end
      end

      // ---- stream
      if (tile_start && carry) carried_q[carry_job] <= 1'b1;
      if (tile_end && kind == TileFlush) drain_streamed_q[stream_job] <= 1'b1;

      // ---- write: a result's last row accepted
      if (write_pop && write_last) begin
        if (write_drain) drain_done_q[write_job] <= 1'b1;
        else result_done_q[write_job] <= 1'b1;
      end

      // a drain added to a job whose P is read: that P must ride on the drain tile or a carrier
      if (cmd_fire && is_drain && os_pending && pending) carried_q[pending_job] <= 1'b0;
      if (cmd_fire && is_compute && drain_compute) carried_q[compute_job] <= 1'b0;
    end
  end

  // ---------------------------------------------------------------- completions

  logic [Pushes-1:0]          push;
  logic [Pushes-1:0][IdW-1:0] push_id;

  // the other operand of a compute reading A and B is in (registered)
  function automatic logic partner_in(logic [JobW-1:0] j, logic [1:0] operand);
    return operand == OpA ? b_in_q[j] : a_in_q[j];
  endfunction

  always_comb begin
    push    = '0;
    push_id = '0;
    // intake: config_ex, a drain with nothing pending, a compute with no reads, an unknown funct
`ifdef COSIM_MUTATION_PRELOAD_DONE_EARLY
    push[0]    = cmd_done || (cmd_fire && is_preload);  // test only: a preload completes at intake too
`else
    push[0]    = cmd_done;
`endif
    push_id[0] = cmd_i.id;
    // intake: a pending OS result replaced without being written
    push[1]    = cmd_fire && is_compute && os_replaced;
    push_id[1] = os_dst.id;
    // fetch: a compute's reads are in (with A and B, at the later of the two;
    // lane 0 reports when both come in the same cycle)
    push[2]    = arrive[0] && arrive_compute[0] &&
                 (!arrive_pair[0] || partner_in(arrive_job[0], arrive_operand[0]) ||
                  (arrive[1] && arrive_compute[1] && arrive_job[1] == arrive_job[0]));
    push_id[2] = arrive_id[0];
    push[6]    = arrive[1] && arrive_compute[1] && (!arrive_pair[1] || partner_in(arrive_job[1], arrive_operand[1]));
    push_id[6] = arrive_id[1];
    // stream: a preload without C (or a dead one) whose compute has streamed
    push[3]    = (tile_end && kind == TileCompute && done_at_stream_q[stream_job]) || skip;
    push_id[3] = pre_dst_q[stream_job].id;
    // write: a result's last row
    push[4]    = write_pop && write_last;
    push_id[4] = write_dst.id;
    push[5]    = write_pop && write_last && write_drain && drain_cmd_q[write_job];
    push_id[5] = drain_id_q[write_job];
  end

  gemmini_exec_done #(.Pushes(Pushes), .Depth(16)) u_done (
    .clk_i, .rst_ni,
    .accept_i     (cmd_fire),
    .room_o       (done_room),
    .held_o       (held),
    .push_i       (push),
    .push_id_i    (push_id),
    .done_valid_o,
    .done_id_o
  );

  // ---------------------------------------------------------------- events

  assign perf_macs_o          = tile_start && kind == TileCompute ? macs_q[stream_job] : '0;
  assign perf_busy_o          = jobs != '0 || held || array_busy;
  assign perf_mesh_busy_o     = array_busy;
  assign perf_stall_mem_o     = (sp_rd_valid_o && !sp_rd_ready_i) || (acc_rd_valid_o && !acc_rd_ready_i) ||
                                (sp_rd1_valid_o && !sp_rd1_ready_i) ||
                                (sp_wr_valid_o && !sp_wr_ready_i) || (acc_wr_valid_o && !acc_wr_ready_i);
  assign perf_stall_operand_o = wait_operand;

`ifdef COSIM_ASSERT
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));

  // The ring holds at most Jobs jobs; the stream is between its head and tail.
  RingCountInRange: assert property (@(posedge clk_i) disable iff (!checking)
    jobs <= PtrW'(Jobs) && PtrW'(stream - head_q) <= jobs)
    else $error("exec job ring: %0d jobs, stream %0d past the head", jobs, PtrW'(stream - head_q));
  // A result row written belongs to a job still in the ring (the head retires
  // only after its rows are written).
  WriteOfStreamedJob: assert property (@(posedge clk_i) disable iff (!checking)
    write_pop |-> alive[write_job])
    else $error("exec wrote a result row of job %0d, which is not in the ring", write_job);
  // An operand of a job is read by one task: the two lanes never finish the same one.
  OperandArrivesOnce: assert property (@(posedge clk_i) disable iff (!checking)
    arrive[0] && arrive_last[0] && arrive[1] && arrive_last[1] |->
    {arrive_job[0], arrive_operand[0]} != {arrive_job[1], arrive_operand[1]})
    else $error("both fetch lanes finished operand %0d of job %0d", arrive_operand[0], arrive_job[0]);
  // One completion per command: an id is accepted only when its last command is
  // done, and every completion names an accepted id not completed yet (the
  // mutation COSIM_MUTATION_PRELOAD_DONE_EARLY breaks this; tests/test_gemmini_exec.py).
  logic [2**IdW-1:0] open_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      open_q <= '0;
    end else begin
      if (cmd_fire) open_q[cmd_i.id] <= 1'b1;
      for (int i = 0; i < Pushes; i++) if (push[i]) open_q[push_id[i]] <= 1'b0;
    end
  end
  AcceptFreshId: assert property (@(posedge clk_i) disable iff (!checking) cmd_fire |-> !open_q[cmd_i.id])
    else $error("exec accepted id %0d while its previous command is not done", cmd_i.id);
  for (genvar i = 0; i < Pushes; i++) begin : g_done_open
    DoneOfOpenId: assert property (@(posedge clk_i) disable iff (!checking)
      push[i] |-> open_q[push_id[i]] || (cmd_fire && cmd_i.id == push_id[i]))
      else $error("exec completes id %0d (path %0d), which is not open: a second completion", push_id[i], i);
  end
  // ... and no id twice in one cycle.
  for (genvar i = 0; i < Pushes; i++) begin : g_done_unique
    for (genvar j = i + 1; j < Pushes; j++) begin : g_pair
      DoneOnce: assert property (@(posedge clk_i) disable iff (!checking)
        push[i] && push[j] |-> push_id[i] != push_id[j])
        else $error("exec completes id %0d twice in one cycle (paths %0d and %0d)", push_id[i], i, j);
    end
  end
`endif

endmodule
