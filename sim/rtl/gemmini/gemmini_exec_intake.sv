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
  input  logic                 clk_i,
  input  logic                 rst_ni,
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
  output row_t                 drain_hi_o,
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
  output row_t                 result_hi_o,
  output logic                 os_replaced_o,      // out: OS: a preload's result is replaced without being written
  output logic [31:0]          macs_o,             // out: the compute's useful MACs
  // fetch tasks
  output logic                 push0_o,            // out: queue task0_o
  output task_t                task0_o,
  output logic                 push1_o,            // out: queue task1_o after it
  output task_t                task1_o,
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
    row_t lo, hi, c0, rows;
    c0   = row_t'(d.row);
    rows = row_t'(d.rows);
    if (os) begin
      lo = c0 + row_t'(Dim - 1) - row_t'(Dim - 1) * row_t'(cs);
      hi = c0 + row_t'(Dim - 1) - (row_t'(Dim) - rows) * row_t'(cs) + 1;
    end else begin
      lo = c0;
      hi = c0 + (rows - 1) * row_t'(cs) + 1;
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
  function automatic task_t make_task(logic [JobW-1:0] job, operand_e opnd, logic [63:0] rs, logic t,
                                      logic tr, logic [15:0] stride, logic chk, logic [IdW-1:0] cid);
    task_t k;
    logic [15:0] rows, cols, mrows, mcols;
    rows       = rs[63:48];
    cols       = rs[47:32];
    mrows      = t ? cols : rows;
    mcols      = t ? rows : cols;
    k.job      = job;
    k.opnd     = opnd;
    k.acc      = rs[31];
    k.tr       = tr;
    k.chk_f    = chk;
    k.base     = rs[25:0];
    k.stride   = stride;
    k.count    = field(mrows);
    k.mcols    = field(mcols);
    k.lo       = row_t'(rs[25:0]);
    k.hi       = row_t'(rs[25:0]) + (row_t'(mrows) - 1) * row_t'(stride) + 1;
    k.cmp_last = 1'b0;
    k.cmp_pair = 1'b0;
    k.cmp_id   = cid;
    return k;
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
  logic              osv_q;                 // the pending OS result (`_os_out` naming a C)
  dst_t              os_dst_q;
  logic              pend_v_q;              // a preload waits for its compute (`_pending`)
  logic [JobW-1:0]   pend_q;
  logic [CountW-1:0] wcols_q;               // WS: columns of the weights in the mesh (MAC count)

  logic c_cfg, c_pre, c_cmp, c_drain, c_flip, in_fire, idle_cfg;
  assign c_cfg   = cmd_i.funct == FunctConfig;
  assign c_pre   = cmd_i.funct == FunctPreload;
  assign c_cmp   = cmd_i.funct == FunctComputePreloaded || cmd_i.funct == FunctComputeAccumulated;
  assign c_drain = cmd_i.funct == FunctDrain;
  assign c_flip  = cmd_i.funct == FunctComputePreloaded;

  // The model's _os_drain_if_read: a read that overlaps the pending result's rows.
  function automatic logic drain_hit(logic ov, dst_t od, logic [63:0] rs, logic [15:0] stride, logic [15:0] cs);
    row_t lo, hi, mx, st;
    logic [63:0] cr;
    if (!ov || is_garbage(rs[31:0]) || rs[31] != od.acc) return 1'b0;
    mx = row_t'(rs[63:48]) > row_t'(rs[47:32]) ? row_t'(rs[63:48]) : row_t'(rs[47:32]);
    if (mx == 0) mx = 1;
    st = stride == '0 ? 1 : row_t'(stride);
    lo = row_t'(rs[25:0]);
    hi = lo + mx * st;
    cr = dst_range(od, 1'b1, cs);
    return lo < cr[31:0] && cr[63:32] < hi;
  endfunction

  logic            dr_pre, dr_a, dr_b, dr_cmp;
  logic [JobW-1:0] cj;        // the compute's job
  logic            cj_alloc;  // the compute allocates its job (no preload waiting)
  assign dr_pre   = cfg_os_q && drain_hit(osv_q, os_dst_q, cmd_i.rs1, 16'd1, cfg_cstride_q);
  assign dr_a     = cfg_os_q && drain_hit(osv_q, os_dst_q, cmd_i.rs1, cfg_astride_q, cfg_cstride_q);
  assign dr_b     = cfg_os_q && drain_hit(osv_q, os_dst_q, cmd_i.rs2, 16'd1, cfg_cstride_q);
  assign dr_cmp   = dr_a || dr_b;
  assign cj_alloc = !pend_v_q;
  assign cj       = pend_v_q ? pend_q : tail_i;

  logic ring_full;
  assign ring_full = jobs_i == PtrW'(Jobs);

  always_comb begin
    logic rdy;
    rdy = 1'b1;
    if (c_cfg) rdy = idle_cfg;
    else if (c_pre) rdy = !ring_full && task_room1_i;
    else if (c_cmp) rdy = (pend_v_q || !ring_full) && task_room2_i;
    else if (c_drain) rdy = !osv_q || pend_v_q || !ring_full;
    cmd_ready_o = rdy && done_room_i;
  end
  assign in_fire = cmd_valid_i && cmd_ready_o;

  // config_ex waits until nothing it affects is in flight: every job written
  // (a preload still waiting for its compute may stay: its reads are done).
  always_comb begin
    logic jobs_ok;
    jobs_ok = jobs_i == '0 ||
              (jobs_i == PtrW'(1) && pend_v_q && pend_q == head_i && (!drain_i[head_i] || drain_done_i[head_i]));
    idle_cfg = jobs_ok && idle_i;
  end

  // ---------------------------------------------------------------- tasks and results

  logic [63:0]       mrange_c, frange_c;
  dst_t              mdst_c;
  logic              mrec_c;       // the compute's tile carries a result
  logic              os_replaced;  // OS: a preload replaces a pending result without writing it
  logic              cmp_taskA, cmp_taskB;
  logic [31:0]       macs_c;
  logic [CountW-1:0] wc_c;         // WS: the weights' columns after this compute

  always_comb begin
    logic at, tra, trb;
    task_t ta, tb;
    push0_o = 1'b0;
    push1_o = 1'b0;
    task0_o = '0;
    task1_o = '0;
    mrec_c = 1'b0;
    mdst_c = '0;
    os_replaced = 1'b0;
    cmp_taskA = !task_zero(cmd_i.rs1) && !is_garbage(cmd_i.rs1[31:0]);
    cmp_taskB = !task_zero(cmd_i.rs2);
    // preload: one read (WS weights, transposed with b_transpose; OS D)
    if (c_pre) begin
      push0_o = in_fire && !task_zero(cmd_i.rs1);
      task0_o = make_task(tail_i, OpP, cmd_i.rs1, !cfg_os_q && cfg_bt_q, !cfg_os_q && cfg_bt_q, 16'd1, dr_pre, '0);
    end
    // compute: A (a_stride; transposed as a_transpose; OS streams A's columns) and B/D
    at  = cfg_at_q;
    tra = at ^ cfg_os_q;
    trb = cfg_os_q && cfg_bt_q;
    ta  = make_task(cj, OpA, cmd_i.rs1, at, tra, cfg_astride_q, dr_cmp || (!cj_alloc && drain_i[cj]), cmd_i.id);
    tb  = make_task(cj, OpB, cmd_i.rs2, trb, trb, 16'd1, dr_cmp || (!cj_alloc && drain_i[cj]), cmd_i.id);
    if (c_cmp) begin
      if (cmp_taskA && cmp_taskB) begin
        ta.cmp_last = 1'b1;
        ta.cmp_pair = 1'b1;
        tb.cmp_last = 1'b1;
        tb.cmp_pair = 1'b1;
        push0_o = in_fire;
        task0_o = ta;
        push1_o = in_fire;
        task1_o = tb;
      end else if (cmp_taskA) begin
        ta.cmp_last = 1'b1;
        push0_o = in_fire;
        task0_o = ta;
      end else if (cmp_taskB) begin
        tb.cmp_last = 1'b1;
        push0_o = in_fire;
        task0_o = tb;
      end
      if (!cfg_os_q) begin
        // WS: the tile's rows are this job's preload's C
        mrec_c = !cj_alloc && pre_c_i[cj];
        mdst_c = pre_dst_i[cj];
      end else begin
        // OS: a flipped tile shifts the pending result out (unless drained just now)
        mrec_c = c_flip && osv_q && !dr_cmp;
        mdst_c = os_dst_q;
        os_replaced = !c_flip && !cj_alloc && osv_q && !dr_cmp;
      end
    end
    mrange_c = dst_range(mdst_c, cfg_os_q, cfg_cstride_q);
    frange_c = dst_range(os_dst_q, 1'b1, cfg_cstride_q);
    // useful MACs, as the model's gemmini_macs
    wc_c = c_flip ? ((!cj_alloc && pre_bd_i[cj]) ? pre_bd_cols_i[cj] : '0) : wcols_q;
    if (!cfg_os_q) begin
      macs_c = is_garbage(cmd_i.rs1[31:0]) ? '0 : 32'(cmd_i.rs1[63:48]) * 32'(cmd_i.rs1[47:32]) * 32'(wc_c);
    end else begin
      macs_c = (is_garbage(cmd_i.rs1[31:0]) || is_garbage(cmd_i.rs2[31:0])) ? '0 :
               32'(cmd_i.rs1[63:48]) * 32'(cmd_i.rs1[47:32]) * 32'(cmd_i.rs2[47:32]);
    end
  end

  // ---------------------------------------------------------------- program-order state

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pend_v_q      <= 1'b0;
      pend_q        <= '0;
      osv_q         <= 1'b0;
      os_dst_q      <= '0;
      wcols_q       <= '0;
      cfg_os_q      <= !HasWs;
      cfg_relu_q    <= 1'b0;
      cfg_at_q      <= 1'b0;
      cfg_bt_q      <= 1'b0;
      cfg_scale_q   <= 32'h3F80_0000;
      cfg_shift_q   <= '0;
      cfg_astride_q <= 16'd1;
      cfg_cstride_q <= 16'd1;
    end else if (in_fire) begin
      if (c_cfg && cmd_i.rs1[1:0] == 2'd0) begin
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
      if (c_pre) begin
        pend_v_q <= 1'b1;
        pend_q   <= tail_i;
        if (dr_pre) osv_q <= 1'b0;
      end
      if (c_cmp) begin
        pend_v_q <= 1'b0;
        if (!cfg_os_q) begin
          if (c_flip) wcols_q <= wc_c;
        end else if (!cj_alloc) begin
          osv_q    <= pre_c_i[cj];  // the preload's C is now the pending result
          os_dst_q <= pre_dst_i[cj];
        end else if (c_flip || dr_cmp) begin
          osv_q <= 1'b0;  // shifted out or drained
        end
      end
      if (c_drain && osv_q) osv_q <= 1'b0;
    end
  end

  // ---------------------------------------------------------------- outputs

  assign fire_o       = in_fire;
  assign is_preload_o = c_pre;
  assign is_compute_o = c_cmp;
  assign is_flip_o    = c_flip;
  assign is_drain_o   = c_drain;
  assign done_o       = in_fire && (c_cfg || (c_drain && !osv_q) || (c_cmp && !cmp_taskA && !cmp_taskB) ||
                                    !(c_cfg || c_pre || c_cmp || c_drain));
  assign alloc_o      = in_fire && (c_pre || (c_cmp && cj_alloc) || (c_drain && osv_q && !pend_v_q));
  assign job_o        = cj;
  assign job_alloc_o  = cj_alloc;
  assign pending_o    = pend_v_q;
  assign pending_job_o = pend_q;
  assign os_pending_o = osv_q;
  assign os_dst_o     = os_dst_q;
  assign drain_preload_o = dr_pre;
  assign drain_compute_o = dr_cmp;
  assign drain_lo_o   = frange_c[63:32];
  assign drain_hi_o   = frange_c[31:0];
  assign preload_read_o    = !task_zero(cmd_i.rs1);
  assign preload_c_o       = names_c(cmd_i.rs2);
  assign preload_dst_o     = make_dst(cmd_i.rs2, cmd_i.id);
  assign preload_bd_o      = !is_garbage(cmd_i.rs1[31:0]);
  assign preload_bd_cols_o = field(cmd_i.rs1[47:32]);
  assign read_a_o     = cmp_taskA;
  assign read_b_o     = cmp_taskB;
  assign result_o     = mrec_c;
  assign result_dst_o = mdst_c;
  assign result_lo_o  = mrange_c[63:32];
  assign result_hi_o  = mrange_c[31:0];
  assign os_replaced_o = os_replaced;
  assign macs_o       = macs_c;
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
    pend_v_q |-> PtrW'(JobW'(pend_q - head_i)) < jobs_i)
    else $error("exec intake: the waiting preload's job %0d is not in the ring", pend_q);
  // config_ex changes the dataflow, shift, strides only with nothing in flight.
  ConfigIdle: assert property (@(posedge clk_i) disable iff (!checking) in_fire && c_cfg |-> idle_i)
    else $error("exec config_ex taken while reads, beats or writes were in flight");
`endif

endmodule
