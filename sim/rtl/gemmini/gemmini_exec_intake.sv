// Intake of the execute controller (gemmini_exec.sv; EXEC.md "Pipeline"): one
// command a cycle, in program order. It holds config_ex and the model's
// program-order state (the preload waiting for its compute `_pending`, the
// pending OS result `_os_out`, the WS weights' columns for the MAC count),
// decides which job a preload / compute / drain belongs to, and builds the job's
// operand reads (P: the preload's weights / D; A, B: the compute's A and B / D)
// as fetch tasks. gemmini_exec records the job fields it hands out.
module gemmini_exec_intake
  import gemmini_pkg::*;
  import gemmini_exec_pkg::*;
#(
  parameter int unsigned Dim    = 4,
  parameter bit          HasWs  = 1'b1,   // reset dataflow: WS if the config has it (as the model)
  parameter type         dst_t  = logic,  // gemmini_exec's result destination
  parameter type         task_t = logic,  // gemmini_exec's fetch task
  localparam int unsigned CountW = $clog2(Dim + 1)
) (
  input  logic                 clk_i,              // in: clock
  input  logic                 rst_ni,             // in: asynchronous reset, active low
  // the command
  input  logic                 cmd_valid_i,        // in: a command is offered
  output logic                 cmd_ready_o,        // out: ... and taken
  input  gm_cmd_t              cmd_i,              // in: the command
  output logic                 fire_o,             // out: a command is taken this cycle
  output logic                 is_preload_o,       // out: ... a preload
  output logic                 is_compute_o,       // out: ... a compute
  output logic                 is_flip_o,          // out: ... a compute_preloaded
  output logic                 is_drain_o,         // out: ... a FunctDrain
  output logic                 done_o,             // out: it completes now (config, nothing to drain, no reads)
  // what the rest of the controller can take
  input  logic                 done_room_i,        // in: one more command may be held
  input  logic                 task_room1_i,       // in: the fetch queue takes one task
  input  logic                 task_room2_i,       // in: ... two tasks
  input  logic                 idle_i,             // in: no read, beat or write in flight
  // the job ring
  input  logic [PtrW-1:0]      jobs_i,             // in: jobs held
  input  logic [JobW-1:0]      head_i,             // in: the oldest job
  input  logic [JobW-1:0]      tail_i,             // in: the next free job
  input  logic [Jobs-1:0]      pre_c_i,            // in: job x's preload names a C
  input  dst_t                 pre_dst_i [Jobs],   // in: ... that C
  input  logic [Jobs-1:0]      pre_bd_i,           // in: job x's preload names its weights / D
  input  logic [CountW-1:0]    pre_bd_cols_i [Jobs],  // in: ... their columns
  input  logic [Jobs-1:0]      drain_i,            // in: job x drains the pending OS result
  input  logic [Jobs-1:0]      drain_done_i,       // in: ... and its rows are written
  // the job this command belongs to
  output logic                 alloc_o,            // out: the command opens a new job at tail_i
  output logic [JobW-1:0]      job_o,              // out: the compute's job (tail_i or the waiting preload's)
  output logic                 job_alloc_o,        // out: the compute opens its job (no preload waiting)
  output logic                 pending_o,          // out: a preload waits for its compute
  output logic [JobW-1:0]      pending_job_o,      // out: ... in this job
  output logic                 os_pending_o,       // out: an OS result waits to be shifted out or drained
  output dst_t                 os_dst_o,           // out: ... where it goes
  output logic                 drain_preload_o,    // out: the preload's read overlaps the pending OS result
  output logic                 drain_compute_o,    // out: the compute's reads overlap it
  output row_t                 drain_lo_o,         // out: the pending result's rows [lo, hi)
  output row_t                 drain_hi_o,         // out: ... its end row (exclusive)
  output logic                 preload_read_o,     // out: the preload reads its weights / D
  output logic                 preload_c_o,        // out: the preload names a C
  output dst_t                 preload_dst_o,      // out: ... that C
  output logic                 preload_bd_o,       // out: the preload names its weights / D
  output logic [CountW-1:0]    preload_bd_cols_o,  // out: ... their columns
  output logic                 read_a_o,           // out: the compute reads A
  output logic                 read_b_o,           // out: the compute reads B / D
  output logic                 result_o,           // out: the compute's tile writes result rows
  output dst_t                 result_dst_o,       // out: ... there
  output row_t                 result_lo_o,        // out: ... rows [lo, hi)
  output row_t                 result_hi_o,        // out: ... its end row (exclusive)
  output logic                 os_replaced_o,      // out: OS: a preload's result is replaced without being written
  output logic [31:0]          macs_o,             // out: the compute's useful MACs
  // fetch tasks
  output logic                 push0_o,            // out: queue task0_o
  output task_t                task0_o,            // out: the first fetch task
  output logic                 push1_o,            // out: queue task1_o after it
  output task_t                task1_o,            // out: the second
  // config_ex
  output logic                 os_o,               // out: the dataflow is OS
  output logic                 relu_o,             // out: ReLU
  output logic [31:0]          acc_scale_o,        // out: fp32 scale of accumulator reads
  output logic [ShiftW-1:0]    shift_o,            // out: OS result shift
  output logic [15:0]          c_stride_o          // out: rows between result rows
);

  // ---------------------------------------------------------------- helpers
  // (they take whole register values and use the fields they need)
  /* verilator lint_off UNUSEDSIGNAL */

  // Rows a result writes: [lo, hi) (model _write_result / _os_drain_if_read).
  function automatic logic [63:0] dst_range(dst_t d, logic os, logic [15:0] cs);
    row_t lo, hi, first, rows;
    first   = row_t'(d.row);
    rows = row_t'(d.rows);
    if (os) begin
      lo = first + row_t'(Dim - 1) - row_t'(Dim - 1) * row_t'(cs);
      hi = first + row_t'(Dim - 1) - (row_t'(Dim) - rows) * row_t'(cs) + 1;
    end else begin
      lo = first;
      hi = first + (rows - 1) * row_t'(cs) + 1;
    end
    return {lo, hi};
  endfunction

  function automatic logic [CountW-1:0] field(logic [15:0] v);
    return CountW'(v);  // rows / cols fields: legal values are <= Dim
  endfunction

  function automatic dst_t make_dst(logic [63:0] rs, logic [IdW-1:0] id);
    dst_t d;
    d.acc   = rs[31];
    d.accum = rs[30];
    d.row   = rs[25:0];
    d.cols  = field(rs[47:32]);
    d.rows  = field(rs[63:48]);
    d.id    = id;
    return d;
  endfunction

  function automatic logic names_c(logic [63:0] rs);
    return !is_garbage(rs[31:0]) && rs[47:32] != '0 && rs[63:48] != '0;
  endfunction

  // The operand read of `_read_operand` (fields of rs, logical transpose `t`).
  function automatic task_t make_task(logic [JobW-1:0] job, operand_e operand, logic [63:0] rs, logic transposed,
                                      logic transpose, logic [15:0] stride, logic check_drain, logic [IdW-1:0] id);
    task_t read;
    logic [15:0] rows, cols, memory_rows, memory_cols;
    rows               = rs[63:48];
    cols               = rs[47:32];
    memory_rows        = transposed ? cols : rows;
    memory_cols        = transposed ? rows : cols;
    read.job           = job;
    read.operand       = operand;
    read.acc           = rs[31];
    read.transpose     = transpose;
    read.check_drain   = check_drain;
    read.base          = rs[25:0];
    read.stride        = stride;
    read.count         = field(memory_rows);
    read.memory_cols   = field(memory_cols);
    read.lo            = row_t'(rs[25:0]);
    read.hi            = row_t'(rs[25:0]) + (row_t'(memory_rows) - 1) * row_t'(stride) + 1;
    read.compute_last  = 1'b0;
    read.compute_pair  = 1'b0;
    read.compute_id    = id;
    return read;
  endfunction

  function automatic logic task_zero(logic [63:0] rs);
    return is_garbage(rs[31:0]) || rs[47:32] == '0 || rs[63:48] == '0;
  endfunction

  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------- state

  logic              cfg_os_q, cfg_relu_q, cfg_at_q, cfg_bt_q;
  logic [31:0]       cfg_scale_q;
  logic [ShiftW-1:0] cfg_shift_q;
  logic [15:0]       cfg_astride_q, cfg_cstride_q;
  logic              os_pending_q;                 // the pending OS result (`_os_out` naming a C)
  dst_t              os_dst_q;
  logic              pending_q;              // a preload waits for its compute (`_pending`)
  logic [JobW-1:0]   pending_job_q;
  logic [CountW-1:0] weight_cols_q;               // WS: columns of the weights in the mesh (MAC count)

  logic is_config, is_preload, is_compute, is_drain, is_flip, fire, config_ready;
  assign is_config   = cmd_i.funct == FunctConfig;
  assign is_preload   = cmd_i.funct == FunctPreload;
  assign is_compute   = cmd_i.funct == FunctComputePreloaded || cmd_i.funct == FunctComputeAccumulated;
  assign is_drain = cmd_i.funct == FunctDrain;
  assign is_flip  = cmd_i.funct == FunctComputePreloaded;

  // The model's _os_drain_if_read: a read that overlaps the pending result's rows.
  function automatic logic drain_hit(logic pending, dst_t dst, logic [63:0] rs, logic [15:0] stride, logic [15:0] cs);
    row_t lo, hi, span, step;
    logic [63:0] result_rows;
    if (!pending || is_garbage(rs[31:0]) || rs[31] != dst.acc) return 1'b0;
    span = row_t'(rs[63:48]) > row_t'(rs[47:32]) ? row_t'(rs[63:48]) : row_t'(rs[47:32]);
    if (span == 0) span = 1;
    step = stride == '0 ? 1 : row_t'(stride);
    lo = row_t'(rs[25:0]);
    hi = lo + span * step;
    result_rows = dst_range(dst, 1'b1, cs);
    return lo < result_rows[31:0] && result_rows[63:32] < hi;
  endfunction

  logic            drain_preload, drain_a, drain_b, drain_compute;
  logic [JobW-1:0] compute_job;        // the compute's job
  logic            compute_alloc;  // the compute allocates its job (no preload waiting)
  assign drain_preload   = cfg_os_q && drain_hit(os_pending_q, os_dst_q, cmd_i.rs1, 16'd1, cfg_cstride_q);
  assign drain_a     = cfg_os_q && drain_hit(os_pending_q, os_dst_q, cmd_i.rs1, cfg_astride_q, cfg_cstride_q);
  assign drain_b     = cfg_os_q && drain_hit(os_pending_q, os_dst_q, cmd_i.rs2, 16'd1, cfg_cstride_q);
  assign drain_compute   = drain_a || drain_b;
  assign compute_alloc = !pending_q;
  assign compute_job       = pending_q ? pending_job_q : tail_i;

  logic ring_full;
  assign ring_full = jobs_i == PtrW'(Jobs);

  always_comb begin
    logic ready;
    ready = 1'b1;
    if (is_config) ready = config_ready;
    else if (is_preload) ready = !ring_full && task_room1_i;
    else if (is_compute) ready = (pending_q || !ring_full) && task_room2_i;
    else if (is_drain) ready = !os_pending_q || pending_q || !ring_full;
    cmd_ready_o = ready && done_room_i;
  end
  assign fire = cmd_valid_i && cmd_ready_o;

  // config_ex waits until nothing it affects is in flight: every job written
  // (a preload still waiting for its compute may stay: its reads are done).
  always_comb begin
    logic jobs_ok;
    jobs_ok = jobs_i == '0 ||
              (jobs_i == PtrW'(1) && pending_q && pending_job_q == head_i && (!drain_i[head_i] || drain_done_i[head_i]));
    config_ready = jobs_ok && idle_i;
  end

  // ---------------------------------------------------------------- tasks and results

  logic [63:0]       result_range, drain_range;
  dst_t              result_dst;
  logic              result;       // the compute's tile carries a result
  logic              os_replaced;  // OS: a preload replaces a pending result without writing it
  logic              read_a, read_b;
  logic [31:0]       macs;
  logic [CountW-1:0] weight_cols;         // WS: the weights' columns after this compute

  always_comb begin
    logic a_transpose, a_buffer_transpose, b_transpose;
    task_t task_a, task_b;
    push0_o = 1'b0;
    push1_o = 1'b0;
    task0_o = '0;
    task1_o = '0;
    result = 1'b0;
    result_dst = '0;
    os_replaced = 1'b0;
    read_a = !task_zero(cmd_i.rs1) && !is_garbage(cmd_i.rs1[31:0]);
    read_b = !task_zero(cmd_i.rs2);
    // preload: one read (WS weights, transposed with b_transpose; OS D)
    if (is_preload) begin
      push0_o = fire && !task_zero(cmd_i.rs1);
      task0_o = make_task(tail_i, OpP, cmd_i.rs1, !cfg_os_q && cfg_bt_q, !cfg_os_q && cfg_bt_q, 16'd1, drain_preload, '0);
    end
    // compute: A (a_stride; transposed as a_transpose; OS streams A's columns) and B/D
    a_transpose  = cfg_at_q;
    a_buffer_transpose = a_transpose ^ cfg_os_q;
    b_transpose = cfg_os_q && cfg_bt_q;
    task_a  = make_task(compute_job, OpA, cmd_i.rs1, a_transpose, a_buffer_transpose, cfg_astride_q, drain_compute || (!compute_alloc && drain_i[compute_job]), cmd_i.id);
    task_b  = make_task(compute_job, OpB, cmd_i.rs2, b_transpose, b_transpose, 16'd1, drain_compute || (!compute_alloc && drain_i[compute_job]), cmd_i.id);
    if (is_compute) begin
      if (read_a && read_b) begin
        task_a.compute_last = 1'b1;
        task_a.compute_pair = 1'b1;
        task_b.compute_last = 1'b1;
        task_b.compute_pair = 1'b1;
        push0_o = fire;
        task0_o = task_a;
        push1_o = fire;
        task1_o = task_b;
      end else if (read_a) begin
        task_a.compute_last = 1'b1;
        push0_o = fire;
        task0_o = task_a;
      end else if (read_b) begin
        task_b.compute_last = 1'b1;
        push0_o = fire;
        task0_o = task_b;
      end
      if (!cfg_os_q) begin
        // WS: the tile's rows are this job's preload's C
        result = !compute_alloc && pre_c_i[compute_job];
        result_dst = pre_dst_i[compute_job];
      end else begin
        // OS: a flipped tile shifts the pending result out (unless drained just now)
        result = is_flip && os_pending_q && !drain_compute;
        result_dst = os_dst_q;
        os_replaced = !is_flip && !compute_alloc && os_pending_q && !drain_compute;
      end
    end
    result_range = dst_range(result_dst, cfg_os_q, cfg_cstride_q);
    drain_range = dst_range(os_dst_q, 1'b1, cfg_cstride_q);
    // useful MACs, as the model's gemmini_macs
    weight_cols = is_flip ? ((!compute_alloc && pre_bd_i[compute_job]) ? pre_bd_cols_i[compute_job] : '0) : weight_cols_q;
    if (!cfg_os_q) begin
      macs = is_garbage(cmd_i.rs1[31:0]) ? '0 : 32'(cmd_i.rs1[63:48]) * 32'(cmd_i.rs1[47:32]) * 32'(weight_cols);
    end else begin
      macs = (is_garbage(cmd_i.rs1[31:0]) || is_garbage(cmd_i.rs2[31:0])) ? '0 :
               32'(cmd_i.rs1[63:48]) * 32'(cmd_i.rs1[47:32]) * 32'(cmd_i.rs2[47:32]);
    end
  end

  // ---------------------------------------------------------------- program-order state

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pending_q     <= 1'b0;
      pending_job_q <= '0;
      os_pending_q  <= 1'b0;
      os_dst_q      <= '0;
      weight_cols_q <= '0;
      cfg_os_q      <= !HasWs;
      cfg_relu_q    <= 1'b0;
      cfg_at_q      <= 1'b0;
      cfg_bt_q      <= 1'b0;
      cfg_scale_q   <= 32'h3F80_0000;
      cfg_shift_q   <= '0;
      cfg_astride_q <= 16'd1;
      cfg_cstride_q <= 16'd1;
    end else if (fire) begin
      if (is_config && cmd_i.rs1[1:0] == 2'd0) begin
        if (!cmd_i.rs1[7]) begin
          cfg_os_q    <= cmd_i.rs1[2] == 1'b0;
          cfg_relu_q  <= cmd_i.rs1[4:3] == 2'd1;
          cfg_at_q    <= cmd_i.rs1[8];
          cfg_bt_q    <= cmd_i.rs1[9];
          cfg_scale_q <= cmd_i.rs1[63:32];
          cfg_shift_q <= cmd_i.rs2[ShiftW-1:0];
        end
        cfg_astride_q <= cmd_i.rs1[31:16];
        cfg_cstride_q <= cmd_i.rs2[63:48];
      end
      if (is_preload) begin
        pending_q     <= 1'b1;
        pending_job_q <= tail_i;
        if (drain_preload) os_pending_q <= 1'b0;
      end
      if (is_compute) begin
        pending_q <= 1'b0;
        if (!cfg_os_q) begin
          if (is_flip) weight_cols_q <= weight_cols;
        end else if (!compute_alloc) begin
          os_pending_q <= pre_c_i[compute_job];  // the preload's C is now the pending result
          os_dst_q     <= pre_dst_i[compute_job];
        end else if (is_flip || drain_compute) begin
          os_pending_q <= 1'b0;  // shifted out or drained
        end
      end
      if (is_drain && os_pending_q) os_pending_q <= 1'b0;
    end
  end

  // ---------------------------------------------------------------- outputs

  assign fire_o       = fire;
  assign is_preload_o = is_preload;
  assign is_compute_o = is_compute;
  assign is_flip_o    = is_flip;
  assign is_drain_o   = is_drain;
  assign done_o       = fire && (is_config || (is_drain && !os_pending_q) || (is_compute && !read_a && !read_b) ||
                                    !(is_config || is_preload || is_compute || is_drain));
  assign alloc_o      = fire && (is_preload || (is_compute && compute_alloc) || (is_drain && os_pending_q && !pending_q));
  assign job_o        = compute_job;
  assign job_alloc_o  = compute_alloc;
  assign pending_o    = pending_q;
  assign pending_job_o = pending_job_q;
  assign os_pending_o = os_pending_q;
  assign os_dst_o     = os_dst_q;
  assign drain_preload_o = drain_preload;
  assign drain_compute_o = drain_compute;
  assign drain_lo_o   = drain_range[63:32];
  assign drain_hi_o   = drain_range[31:0];
  assign preload_read_o    = !task_zero(cmd_i.rs1);
  assign preload_c_o       = names_c(cmd_i.rs2);
  assign preload_dst_o     = make_dst(cmd_i.rs2, cmd_i.id);
  assign preload_bd_o      = !is_garbage(cmd_i.rs1[31:0]);
  assign preload_bd_cols_o = field(cmd_i.rs1[47:32]);
  assign read_a_o     = read_a;
  assign read_b_o     = read_b;
  assign result_o     = result;
  assign result_dst_o = result_dst;
  assign result_lo_o  = result_range[63:32];
  assign result_hi_o  = result_range[31:0];
  assign os_replaced_o = os_replaced;
  assign macs_o       = macs;
  assign os_o         = cfg_os_q;
  assign relu_o       = cfg_relu_q;
  assign acc_scale_o  = cfg_scale_q;
  assign shift_o      = cfg_shift_q;
  assign c_stride_o   = cfg_cstride_q;

  logic unused;
  assign unused = ^{cmd_i.rs1[15:10], cmd_i.rs1[6:5], cmd_i.rs2[47:ShiftW]};

`ifdef COSIM_ASSERT
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));

  // A new job only with room in the ring; a compute finds its preload's job alive.
  AllocWithRoom: assert property (@(posedge clk_i) disable iff (!checking) alloc_o |-> !ring_full)
    else $error("exec intake opened a job in a full ring");
  PendingJobAlive: assert property (@(posedge clk_i) disable iff (!checking)
    pending_q |-> PtrW'(JobW'(pending_job_q - head_i)) < jobs_i)
    else $error("exec intake: the waiting preload's job %0d is not in the ring", pending_job_q);
  // config_ex changes the dataflow, shift, strides only with nothing in flight.
  ConfigIdle: assert property (@(posedge clk_i) disable iff (!checking) fire && is_config |-> idle_i)
    else $error("exec config_ex taken while reads, beats or writes were in flight");
`endif

endmodule
