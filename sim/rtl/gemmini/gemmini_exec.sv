// Execute controller of the Gemmini-style unit (UNIT.md, EXEC.md beside this
// file): config_ex, preload, compute_preloaded, compute_accumulated and
// FunctDrain, bit-exact with sim/gemmini/model.py, driving gemmini_array.
//
// Pipeline (EXEC.md has the timing):
//   intake   one command a cycle, in program order. It keeps the model's
//            program-order state (the preload waiting for its compute, the
//            pending OS result `_os_out`, the WS weights' columns for the MAC
//            count), turns every preload/compute into a *job* (a ring of NS
//            entries) and queues the job's operand reads (P: the preload's
//            weights/D, A, B: the compute's A and B/D) as fetch tasks.
//   fetch    two lanes, one row request a cycle each: lane 0 takes the oldest
//            task on the scratchpad or accumulator read port, lane 1 the next
//            one on a second scratchpad read port (so a P and an A read from
//            different banks proceed in the same cycle); tasks leave the queue
//            in order. The rows land in the job's operand buffers (NB sets of
//            three DIM x DIM int8 tiles). The transposer is in the buffer's
//            write: a transposed operand's memory row i is written as buffer
//            column i, so the stream always reads buffer rows. Accumulator rows
//            go through gemmini_scale (acc_scale, int8) and ReLU on the way in.
//            A task waits while an older job's result rows it reads are not
//            written yet (the exec's own read-after-write order).
//   stream   one tile (DIM beats) per job into the array: beat k = buffer row k
//            of A and B, and on in_d_i, last row first, the P buffer of the
//            next job (double buffering: the next flipped tile's weights/D
//            stream in beside this compute). A job whose P did not ride on the
//            tile before gets a carrier tile (zeros, unflipped) first; an OS
//            drain is a flipped tile of zeros. Bubbles when operands or
//            write-queue credits are missing.
//   write    array rows (fixed latency 2*DIM) that carry a result row go into a
//            write queue (credits reserved at stream time, so nothing is lost
//            under back-pressure) and leave on the scratchpad (int8 clip, ReLU)
//            or accumulator (overwrite / accumulate) write port; C stride as
//            the model (WS row r at C + r*cs; OS row r at C + DIM-1-(DIM-1-r)*cs).
// done: config_ex when applied; a compute when its operand reads are in; a
// preload when its C rows are all written (OS: at the shift-out or drain), or
// when its compute has streamed if it names no C; FunctDrain when the drain's
// rows are written (at once if nothing is pending).
module gemmini_exec
  import gemmini_pkg::*;
#(
  parameter int unsigned Dim     = 4,
  parameter int unsigned SpRows  = 4096,
  parameter int unsigned AccRows = 256,
  parameter bit          HasWs   = 1'b1,  // reset dataflow: WS if the config has it (as the model)
  localparam int unsigned SpRowW  = $clog2(SpRows),
  localparam int unsigned AccRowW = $clog2(AccRows)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // commands (program order) and completions
  input  logic                 cmd_valid_i,
  output logic                 cmd_ready_o,
  input  gm_cmd_t              cmd_i,
  output logic                 done_valid_o,
  output logic [IdW-1:0]       done_id_o,
  // scratchpad read (data the cycle after the accepted request)
  output logic                 sp_rd_valid_o,
  input  logic                 sp_rd_ready_i,
  output logic [SpRowW-1:0]    sp_rd_row_o,
  input  logic [Dim*8-1:0]     sp_rd_data_i,
  // the second fetch lane's scratchpad read (same timing)
  output logic                 sp_rd1_valid_o,
  input  logic                 sp_rd1_ready_i,
  output logic [SpRowW-1:0]    sp_rd1_row_o,
  input  logic [Dim*8-1:0]     sp_rd1_data_i,
  // accumulator read (raw int32)
  output logic                 acc_rd_valid_o,
  input  logic                 acc_rd_ready_i,
  output logic [AccRowW-1:0]   acc_rd_row_o,
  input  logic [Dim*32-1:0]    acc_rd_data_i,
  // scratchpad write
  output logic                 sp_wr_valid_o,
  input  logic                 sp_wr_ready_i,
  output logic [SpRowW-1:0]    sp_wr_row_o,
  output logic [Dim-1:0]       sp_wr_mask_o,
  output logic [Dim*8-1:0]     sp_wr_data_o,
  output logic [IdW-1:0]       sp_wr_id_o,
  // accumulator write
  output logic                 acc_wr_valid_o,
  input  logic                 acc_wr_ready_i,
  output logic [AccRowW-1:0]   acc_wr_row_o,
  output logic [Dim-1:0]       acc_wr_mask_o,
  output logic [Dim*32-1:0]    acc_wr_data_o,
  output logic                 acc_wr_accumulate_o,
  output logic [IdW-1:0]       acc_wr_id_o,
  // events of this cycle (counters)
  output logic [31:0]          perf_macs_o,         // useful MACs of the compute whose tile starts now
  output logic                 perf_busy_o,         // a command is held
  output logic                 perf_mesh_busy_o,    // a beat is inside the array
  output logic                 perf_stall_mem_o,    // a read or write request the memory does not take
  output logic                 perf_stall_operand_o // a compute waits for its operands
);

  // ---------------------------------------------------------------- sizes and types

  localparam int unsigned NS    = 8;  // jobs in flight (fetching .. written)
  localparam int unsigned JobW  = 3;
  localparam int unsigned PtrW  = JobW + 1;
  localparam int unsigned NB    = 4;  // operand buffer sets (job j uses set j % NB)
  localparam int unsigned CntW  = $clog2(Dim + 1);
  localparam int unsigned KW    = Dim > 1 ? $clog2(Dim) : 1;
  localparam int unsigned TqN   = 8;  // fetch task queue
  localparam int unsigned TqW   = 3;
  localparam int unsigned WqN   = 4 * Dim;  // write queue: 2*Dim rows in the array plus slack
  localparam int unsigned WqW   = $clog2(WqN);
  localparam int unsigned DqN   = 16;  // completions queue; at most DqN commands held
  localparam int unsigned DqW   = 4;
  localparam int unsigned TagW  = 3 + JobW;
  localparam logic [31:0] Garbage = 32'hFFFF_FFFF;
  localparam logic [6:0]  FConfig = 7'd0, FCompP = 7'd4, FCompA = 7'd5, FPreload = 7'd6;
  localparam logic [1:0]  OpP = 2'd0, OpA = 2'd1, OpB = 2'd2;

  typedef logic [31:0] rowc_t;  // row arithmetic (legal rows fit in 26 bits)

  // Where a result goes (a preload's C).
  typedef struct packed {
    logic            acc;    // accumulator (else scratchpad)
    logic            accum;  // accumulate (address bit 30)
    logic [25:0]     row;
    logic [CntW-1:0] rows;
    logic [CntW-1:0] cols;
    logic [IdW-1:0]  id;     // the preload's
  } dst_t;

  // One operand read: `count` memory rows from `base` every `stride`.
  typedef struct packed {
    logic [JobW-1:0] job;
    logic [1:0]      opnd;
    logic            acc;
    logic            tr;       // write memory row i as buffer column i
    logic            chk_f;    // also wait for the job's own drain rows
    logic [25:0]     base;
    logic [15:0]     stride;
    logic [CntW-1:0] count;
    logic [CntW-1:0] mcols;
    rowc_t           lo, hi;   // rows read: [lo, hi)
    logic            cmp_last; // a read of the compute: its done comes with the last of them
    logic            cmp_pair; // the compute reads A and B (done when both are in)
    logic [IdW-1:0]  cmp_id;
  } task_t;

  typedef enum logic [1:0] {TkCarrier, TkFlush, TkCompute} tk_e;

  // ---------------------------------------------------------------- config_ex registers

  logic              cfg_os_q, cfg_relu_q, cfg_at_q, cfg_bt_q;
  logic [31:0]       cfg_scale_q;
  logic [ShiftW-1:0] cfg_shift_q;
  logic [15:0]       cfg_astride_q, cfg_cstride_q;
  dataflow_e         cfg_df;
  assign cfg_df = cfg_os_q ? DfOs : DfWs;

  // ---------------------------------------------------------------- helpers
  // (they take whole register values and use the fields they need)
  /* verilator lint_off UNUSEDSIGNAL */

  function automatic logic is_garbage(logic [31:0] raw);
    return raw == Garbage;
  endfunction

  // Rows a result writes: [lo, hi) (model _write_result / _os_drain_if_read).
  function automatic logic [63:0] dst_range(dst_t d, logic os, logic [15:0] cs);
    rowc_t lo, hi, c0, rows;
    c0   = rowc_t'(d.row);
    rows = rowc_t'(d.rows);
    if (os) begin
      lo = c0 + rowc_t'(Dim - 1) - rowc_t'(Dim - 1) * rowc_t'(cs);
      hi = c0 + rowc_t'(Dim - 1) - (rowc_t'(Dim) - rows) * rowc_t'(cs) + 1;
    end else begin
      lo = c0;
      hi = c0 + (rows - 1) * rowc_t'(cs) + 1;
    end
    return {lo, hi};
  endfunction

  function automatic logic [CntW-1:0] fld(logic [15:0] v);
    return CntW'(v);  // rows / cols fields: legal values are <= Dim
  endfunction

  function automatic dst_t mk_dst(logic [63:0] rs, logic [IdW-1:0] id);
    dst_t d;
    d.acc   = rs[31];
    d.accum = rs[30];
    d.row   = rs[25:0];
    d.cols  = fld(rs[47:32]);
    d.rows  = fld(rs[63:48]);
    d.id    = id;
    return d;
  endfunction

  function automatic logic names_c(logic [63:0] rs);
    return !is_garbage(rs[31:0]) && rs[47:32] != '0 && rs[63:48] != '0;
  endfunction

  // The operand read of `_read_operand` (fields of rs, logical transpose `t`).
  function automatic task_t mk_task(logic [JobW-1:0] job, logic [1:0] opnd, logic [63:0] rs, logic t,
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
    k.count    = fld(mrows);
    k.mcols    = fld(mcols);
    k.lo       = rowc_t'(rs[25:0]);
    k.hi       = rowc_t'(rs[25:0]) + (rowc_t'(mrows) - 1) * rowc_t'(stride) + 1;
    k.cmp_last = 1'b0;
    k.cmp_pair = 1'b0;
    k.cmp_id   = cid;
    return k;
  endfunction

  function automatic logic task_zero(logic [63:0] rs);
    return is_garbage(rs[31:0]) || rs[47:32] == '0 || rs[63:48] == '0;
  endfunction

  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------- job ring

  logic [PtrW-1:0] head_q, tail_q, str_q;  // oldest, next free, being streamed
  logic [PtrW-1:0] jcount;
  logic [JobW-1:0] head_i, tail_i, str_i;
  assign jcount = tail_q - head_q;
  assign head_i = head_q[JobW-1:0];
  assign tail_i = tail_q[JobW-1:0];
  assign str_i  = str_q[JobW-1:0];

  logic [NS-1:0] j_cmp_q, j_flip_q, j_skip_q, j_fonly_q, j_strd_q;
  logic [NS-1:0] j_pre_q, j_pre_c_q, j_pre_dstr_q;
  logic [NS-1:0] j_pz_q, j_pv_q, j_az_q, j_av_q, j_bz_q, j_bv_q;
  logic [NS-1:0] j_carried_q;
  logic [NS-1:0] j_f_q, j_fstr_q, j_fdone_q, j_pbf_q, j_fdrain_q;
  logic [NS-1:0] j_m_q, j_mdone_q;
  dst_t          j_pdst_q [NS];  // the preload's C
  dst_t          j_mdst_q [NS];  // where the compute tile's result rows go
  dst_t          j_fdst_q [NS];  // where the drain tile's rows go
  rowc_t         j_mlo_q [NS], j_mhi_q [NS], j_flo_q [NS], j_fhi_q [NS];
  logic [IdW-1:0] j_fdid_q [NS];  // the FunctDrain's id
  logic [31:0]   j_macs_q [NS];
  logic [NS-1:0] j_bdng_q;             // the preload's bd is not garbage (WS MAC count)
  logic [CntW-1:0] j_bdcols_q [NS];

  function automatic logic [JobW-1:0] rel(logic [JobW-1:0] x, logic [JobW-1:0] base);
    return x - base;
  endfunction

  // ---------------------------------------------------------------- completions queue

  localparam int unsigned NPush = 7;
  logic [NPush-1:0]          dpush_v;
  logic [NPush-1:0][IdW-1:0] dpush_id;
  logic [IdW-1:0]            dq_q [DqN];
  logic [DqW-1:0]            dq_rd_q, dq_wr_q;
  logic [DqW:0]              dq_cnt_q;
  logic [DqW:0]              held_q;  // commands accepted whose done has not left

  assign done_valid_o = dq_cnt_q != '0;
  assign done_id_o    = dq_q[dq_rd_q];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dq_rd_q  <= '0;
      dq_wr_q  <= '0;
      dq_cnt_q <= '0;
      for (int i = 0; i < DqN; i++) dq_q[i] <= '0;
    end else begin
      logic [DqW-1:0] w;
      logic [DqW:0]   n;
      w = dq_wr_q;
      n = '0;
      for (int i = 0; i < NPush; i++) begin
        if (dpush_v[i]) begin
          dq_q[w] <= dpush_id[i];
          w = w + 1'b1;
          n = n + 1'b1;
        end
      end
      dq_wr_q  <= w;
      dq_cnt_q <= dq_cnt_q + n - (DqW + 1)'(done_valid_o);
      if (done_valid_o) dq_rd_q <= dq_rd_q + 1'b1;
    end
  end

  // ---------------------------------------------------------------- fetch task queue

  task_t           tq_q [TqN];
  logic [TqW-1:0]  tq_rd_q, tq_wr_q;
  logic [TqW:0]    tq_cnt_q;
  logic            tpush0, tpush1;
  logic [1:0]      tpop;  // tasks leaving the queue this cycle
  task_t           tpush0_t, tpush1_t;

  // ---------------------------------------------------------------- intake

  logic        c_cfg, c_pre, c_cmp, c_drain, c_flip, in_fire, idle_cfg, osv_q;
  dst_t        os_dst_q;                // the pending OS result (`_os_out` naming a C)
  logic        pend_v_q;                // a preload waits for its compute (`_pending`)
  logic [JobW-1:0] pend_q;
  logic [CntW-1:0] wcols_q;             // WS: columns of the weights in the mesh (MAC count)
  logic        rq_v_q;                  // a read's data arrive this cycle
  logic        st_act_q, arr_busy;
  logic [WqW:0] wres_q;                 // write-queue rows reserved (in the array or queued)

  assign c_cfg   = cmd_i.funct == FConfig;
  assign c_pre   = cmd_i.funct == FPreload;
  assign c_cmp   = cmd_i.funct == FCompP || cmd_i.funct == FCompA;
  assign c_drain = cmd_i.funct == FunctDrain;
  assign c_flip  = cmd_i.funct == FCompP;

  // The model's _os_drain_if_read: a read that overlaps the pending result's rows.
  function automatic logic drain_hit(logic ov, dst_t od, logic [63:0] rs, logic [15:0] stride, logic [15:0] cs);
    rowc_t lo, hi, mx, st;
    logic [63:0] cr;
    if (!ov || is_garbage(rs[31:0]) || rs[31] != od.acc) return 1'b0;
    mx = rowc_t'(rs[63:48]) > rowc_t'(rs[47:32]) ? rowc_t'(rs[63:48]) : rowc_t'(rs[47:32]);
    if (mx == 0) mx = 1;
    st = stride == '0 ? 1 : rowc_t'(stride);
    lo = rowc_t'(rs[25:0]);
    hi = lo + mx * st;
    cr = dst_range(od, 1'b1, cs);
    return lo < cr[31:0] && cr[63:32] < hi;
  endfunction

  logic        dr_pre, dr_a, dr_b, dr_cmp;
  logic [JobW-1:0] cj;       // the compute's job
  logic        cj_alloc;     // the compute allocates its job (no preload waiting)
  assign dr_pre = cfg_os_q && drain_hit(osv_q, os_dst_q, cmd_i.rs1, 16'd1, cfg_cstride_q);
  assign dr_a   = cfg_os_q && drain_hit(osv_q, os_dst_q, cmd_i.rs1, cfg_astride_q, cfg_cstride_q);
  assign dr_b   = cfg_os_q && drain_hit(osv_q, os_dst_q, cmd_i.rs2, 16'd1, cfg_cstride_q);
  assign dr_cmp = dr_a || dr_b;
  assign cj_alloc = !pend_v_q;
  assign cj       = pend_v_q ? pend_q : tail_i;

  logic ring_full, tq_room1, tq_room2;
  assign ring_full = jcount == PtrW'(NS);
  assign tq_room1  = tq_cnt_q <= (TqW + 1)'(TqN - 1);
  assign tq_room2  = tq_cnt_q <= (TqW + 1)'(TqN - 2);

  always_comb begin
    logic rdy;
    rdy = 1'b1;
    if (c_cfg) rdy = idle_cfg;
    else if (c_pre) rdy = !ring_full && tq_room1;
    else if (c_cmp) rdy = (pend_v_q || !ring_full) && tq_room2;
    else if (c_drain) rdy = !osv_q || pend_v_q || !ring_full;
    cmd_ready_o = rdy && held_q < (DqW + 1)'(DqN);
  end
  assign in_fire = cmd_valid_i && cmd_ready_o;

  // config_ex waits until nothing it affects is in flight: every job written
  // (a preload still waiting for its compute may stay: its reads are done).
  always_comb begin
    logic jobs_ok;
    jobs_ok = jcount == '0 ||
              (jcount == PtrW'(1) && pend_v_q && pend_q == head_i && (!j_f_q[head_i] || j_fdone_q[head_i]));
    idle_cfg = jobs_ok && tq_cnt_q == '0 && !rq_v_q && !rq1_v_q && !st_act_q && !arr_busy && wres_q == '0;
  end

  // Tasks and completions the command makes.
  logic [63:0] mrange_c, frange_c;
  dst_t        mdst_c;
  logic        mrec_c;       // the compute's tile carries a result
  logic        os_replaced;  // OS: a preload replaces a pending result without writing it
  logic        cmp_taskA, cmp_taskB;
  logic [31:0] macs_c;
  logic [CntW-1:0] wc_c;    // WS: the weights' columns after this compute

  always_comb begin
    logic at, tra, trb;
    task_t ta, tb;
    tpush0 = 1'b0;
    tpush1 = 1'b0;
    tpush0_t = '0;
    tpush1_t = '0;
    mrec_c = 1'b0;
    mdst_c = '0;
    os_replaced = 1'b0;
    cmp_taskA = !task_zero(cmd_i.rs1) && !is_garbage(cmd_i.rs1[31:0]);
    cmp_taskB = !task_zero(cmd_i.rs2);
    // preload: one read (WS weights, transposed with b_transpose; OS D)
    if (c_pre) begin
      tpush0   = in_fire && !task_zero(cmd_i.rs1);
      tpush0_t = mk_task(tail_i, OpP, cmd_i.rs1, !cfg_os_q && cfg_bt_q, !cfg_os_q && cfg_bt_q, 16'd1,
                         dr_pre, '0);
    end
    // compute: A (a_stride; transposed as a_transpose; OS streams A's columns) and B/D
    at  = cfg_at_q;
    tra = at ^ cfg_os_q;
    trb = cfg_os_q && cfg_bt_q;
    ta  = mk_task(cj, OpA, cmd_i.rs1, at, tra, cfg_astride_q, dr_cmp || (!cj_alloc && j_f_q[cj]), cmd_i.id);
    tb  = mk_task(cj, OpB, cmd_i.rs2, trb, trb, 16'd1, dr_cmp || (!cj_alloc && j_f_q[cj]), cmd_i.id);
    if (c_cmp) begin
      if (cmp_taskA && cmp_taskB) begin
        ta.cmp_last = 1'b1;
        ta.cmp_pair = 1'b1;
        tb.cmp_last = 1'b1;
        tb.cmp_pair = 1'b1;
        tpush0 = in_fire;
        tpush0_t = ta;
        tpush1 = in_fire;
        tpush1_t = tb;
      end else if (cmp_taskA) begin
        ta.cmp_last = 1'b1;
        tpush0 = in_fire;
        tpush0_t = ta;
      end else if (cmp_taskB) begin
        tb.cmp_last = 1'b1;
        tpush0 = in_fire;
        tpush0_t = tb;
      end
      if (!cfg_os_q) begin
        // WS: the tile's rows are this job's preload's C
        mrec_c = !cj_alloc && j_pre_c_q[cj];
        mdst_c = j_pdst_q[cj];
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
    wc_c = c_flip ? ((!cj_alloc && j_bdng_q[cj]) ? j_bdcols_q[cj] : '0) : wcols_q;
    if (!cfg_os_q) begin
      macs_c = is_garbage(cmd_i.rs1[31:0]) ? '0 : 32'(cmd_i.rs1[63:48]) * 32'(cmd_i.rs1[47:32]) * 32'(wc_c);
    end else begin
      macs_c = (is_garbage(cmd_i.rs1[31:0]) || is_garbage(cmd_i.rs2[31:0])) ? '0 :
               32'(cmd_i.rs1[63:48]) * 32'(cmd_i.rs1[47:32]) * 32'(cmd_i.rs2[47:32]);
    end
  end

  // ---------------------------------------------------------------- fetch
  // Lane 0 fetches the queue's head (either memory), lane 1 the task after it
  // (scratchpad only). When the head leaves, lane 1's task becomes lane 0's with
  // the rows it already requested; a task lane 1 has finished leaves with it.

  task_t           ft, ft2;
  logic            ft_v, ft_buf_busy, ft_haz, ft_block, ft_fire, ft_last;
  logic            ft2_v, ft2_buf_busy, ft2_haz, ft2_block, ft2_fire, ft2_last;
  logic [CntW-1:0] fi_q, fi2_q;
  logic            l2done_q;  // lane 1 has requested every row of its task
  logic [TqW-1:0]  tq_rd1;
  /* verilator lint_off UNUSEDSIGNAL */
  rowc_t           ft_row, ft2_row;  // legal rows fit the port
  /* verilator lint_on UNUSEDSIGNAL */
  assign tq_rd1 = tq_rd_q + 1'b1;
  assign ft     = tq_q[tq_rd_q];
  assign ft2    = tq_q[tq_rd1];
  assign ft_v   = tq_cnt_q != '0;
  assign ft2_v  = tq_cnt_q >= (TqW + 1)'(2) && !l2done_q && !ft2.acc;

  logic [NS-1:0] alive;
  always_comb begin
    for (int x = 0; x < NS; x++) alive[x] = PtrW'(rel(JobW'(x), head_i)) < jcount;
  end

  // a task waits for its buffer set (still streamed by the job NB earlier) and
  // for older jobs' result rows (and its job's own drain rows) that it reads
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [1:0] task_wait(task_t t);
    logic [JobW-1:0] mrel;
    logic busy, haz;
    busy = rel(t.job, str_i) >= JobW'(NB);
    mrel = rel(t.job, head_i);
    haz = 1'b0;
    for (int x = 0; x < NS; x++) begin
      logic older, own;
      older = alive[x] && rel(JobW'(x), head_i) < mrel;
      own   = JobW'(x) == t.job && t.chk_f;
      if (older && j_m_q[x] && !j_mdone_q[x] && j_mdst_q[x].acc == t.acc &&
          t.lo < j_mhi_q[x] && j_mlo_q[x] < t.hi) haz = 1'b1;
      if ((older || own) && j_f_q[x] && !j_fdone_q[x] && j_fdst_q[x].acc == t.acc &&
          t.lo < j_fhi_q[x] && j_flo_q[x] < t.hi) haz = 1'b1;
    end
    return {busy, haz};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  always_comb begin
    {ft_buf_busy, ft_haz}   = task_wait(ft);
    {ft2_buf_busy, ft2_haz} = task_wait(ft2);
    ft_block  = ft_buf_busy || ft_haz;
    ft2_block = ft2_buf_busy || ft2_haz;
    ft_row    = rowc_t'(ft.base) + rowc_t'(fi_q) * rowc_t'(ft.stride);
    ft2_row   = rowc_t'(ft2.base) + rowc_t'(fi2_q) * rowc_t'(ft2.stride);
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

  // the read in flight (its data arrive the next cycle)
  logic            rq_acc_q, rq_tr_q, rq_last_q, rq_cmp_q, rq_pair_q;
  logic [JobW-1:0] rq_job_q;
  logic [1:0]      rq_opnd_q;
  logic [KW-1:0]   rq_i_q;
  logic [CntW-1:0] rq_mcols_q;
  logic [IdW-1:0]  rq_cid_q;
  // lane 1's read in flight
  logic            rq1_v_q, rq1_tr_q, rq1_last_q, rq1_cmp_q, rq1_pair_q;
  logic [JobW-1:0] rq1_job_q;
  logic [1:0]      rq1_opnd_q;
  logic [KW-1:0]   rq1_i_q;
  logic [CntW-1:0] rq1_mcols_q;
  logic [IdW-1:0]  rq1_cid_q;

  // accumulator rows: scaled by acc_scale to int8, then ReLU (_acc_read_scaled);
  // the scale is computed only in the branch of an accumulator read.
  in_t [Dim-1:0] rd_row;
  always_comb begin
    for (int e = 0; e < Dim; e++) begin
      in_t v;
      if (rq_acc_q) begin
        v = in_t'(scale_to_int(acc_rd_data_i[e*32 +: 32], cfg_scale_q, 1'b1));  // within [-128, 127]
        if (cfg_relu_q && v < 0) v = '0;
      end else begin
        v = in_t'(sp_rd_data_i[e*8 +: 8]);
      end
      rd_row[e] = CntW'(e) < rq_mcols_q ? v : '0;
    end
  end
  in_t [Dim-1:0] rd_row1;
  always_comb begin
    for (int e = 0; e < Dim; e++) rd_row1[e] = CntW'(e) < rq1_mcols_q ? in_t'(sp_rd1_data_i[e*8 +: 8]) : '0;
  end

  // operand buffers: [set][P/A/B][row][element]
  in_t [Dim-1:0][Dim-1:0] buf_q [NB][3];

  always_ff @(posedge clk_i) begin
    // a task's first row clears its buffer; lanes fill different buffers
    if (ft_fire && fi_q == '0) begin
      buf_q[ft.job[1:0]][ft.opnd] <= '0;
    end
    if (ft2_fire && fi2_q == '0) begin
      buf_q[ft2.job[1:0]][ft2.opnd] <= '0;
    end
    // memory row i: buffer row i, or buffer column i when transposed (one row
    // or one column written, not a loop over every element)
    if (rq_v_q) begin
      if (rq_tr_q) begin
        for (int r = 0; r < Dim; r++) buf_q[rq_job_q[1:0]][rq_opnd_q][r][rq_i_q] <= rd_row[r];
      end else begin
        buf_q[rq_job_q[1:0]][rq_opnd_q][rq_i_q] <= rd_row;
      end
    end
    if (rq1_v_q) begin
      if (rq1_tr_q) begin
        for (int r = 0; r < Dim; r++) buf_q[rq1_job_q[1:0]][rq1_opnd_q][r][rq1_i_q] <= rd_row1[r];
      end else begin
        buf_q[rq1_job_q[1:0]][rq1_opnd_q][rq1_i_q] <= rd_row1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fi_q       <= '0;
      fi2_q      <= '0;
      l2done_q   <= 1'b0;
      rq_v_q     <= 1'b0;
      rq_acc_q   <= 1'b0;
      rq_tr_q    <= 1'b0;
      rq_last_q  <= 1'b0;
      rq_cmp_q   <= 1'b0;
      rq_pair_q  <= 1'b0;
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
      rq_job_q   <= '0;
      rq_opnd_q  <= '0;
      rq_i_q     <= '0;
      rq_mcols_q <= '0;
      rq_cid_q   <= '0;
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
        rq1_i_q     <= KW'(fi2_q);
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
        rq_i_q     <= KW'(fi_q);
        rq_mcols_q <= ft.mcols;
        rq_cid_q   <= ft.cmp_id;
      end
    end
  end

  // task queue
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tq_rd_q  <= '0;
      tq_wr_q  <= '0;
      tq_cnt_q <= '0;
      for (int i = 0; i < TqN; i++) tq_q[i] <= '0;
    end else begin
      logic [TqW-1:0] w;
      w = tq_wr_q;
      if (tpush0) begin
        tq_q[w] <= tpush0_t;
        w = w + 1'b1;
      end
      if (tpush1) begin
        tq_q[w] <= tpush1_t;
        w = w + 1'b1;
      end
      tq_wr_q  <= w;
      tq_cnt_q <= tq_cnt_q + (TqW + 1)'(tpush0) + (TqW + 1)'(tpush1) - (TqW + 1)'(tpop);
      tq_rd_q  <= tq_rd_q + TqW'(tpop);
    end
  end

  // ---------------------------------------------------------------- stream

  tk_e             st_kind_q, kind;
  logic [KW-1:0]   st_k_q, k;
  logic            st_cv_q, cv;        // this tile carries a P on in_d_i
  logic [JobW-1:0] st_cj_q, cjob;      // whose P
  logic            go, beat_wr, beat_last, beat_fire, credit_ok, str_alive, nx_alive, wait_operand;
  logic [JobW-1:0] nx;
  logic            adv_skip;           // a dead preload's job is passed over this cycle
  in_t [Dim-1:0]   beat_a, beat_b, beat_d;
  logic            beat_flip;

  assign str_alive = tail_q != str_q;
  assign nx        = str_i + 1'b1;
  assign nx_alive  = (tail_q - str_q) > PtrW'(1);
  assign credit_ok = wres_q < (WqW + 1)'(WqN);

  always_comb begin
    logic j_f_pend, ops_ok;
    go = 1'b0;
    kind = TkCompute;
    k = st_k_q;
    cv = 1'b0;
    cjob = '0;
    adv_skip = 1'b0;
    wait_operand = 1'b0;
    j_f_pend = j_f_q[str_i] && !j_fstr_q[str_i];
    ops_ok = (j_av_q[str_i] || j_az_q[str_i]) && (j_bv_q[str_i] || j_bz_q[str_i]) && j_pv_q[str_i];
    if (st_act_q) begin
      go   = 1'b1;
      kind = st_kind_q;
      cv   = st_cv_q;
      cjob = st_cj_q;
    end else if (str_alive) begin
      k = '0;
      if (j_f_pend) begin
        // an OS drain: a flipped tile of zeros (after the P it would overwrite is read)
        kind = TkFlush;
        go   = !(j_pbf_q[str_i] && !j_pv_q[str_i]);
        cv   = j_pv_q[str_i];
        cjob = str_i;
      end else if (j_skip_q[str_i]) begin
        adv_skip = j_pv_q[str_i];
      end else if (j_cmp_q[str_i]) begin
        if (j_flip_q[str_i] && !j_carried_q[str_i]) begin
          kind = TkCarrier;  // the flipped tile's P did not ride on the tile before: it needs only P
          go   = j_pv_q[str_i];
          wait_operand = !j_pv_q[str_i];
          cv   = 1'b1;
          cjob = str_i;
        end else if (!ops_ok) begin
          wait_operand = 1'b1;
        end else begin
          kind = TkCompute;
          go   = 1'b1;
          // carry the next job's P; wait for it while its read is under way
          if (nx_alive && !j_fonly_q[nx] && !j_skip_q[nx] && !(j_f_q[nx] && !j_fstr_q[nx])) begin
            if (j_pv_q[nx]) begin
              cv   = 1'b1;
              cjob = nx;
            end else if (!(ft_v && ft.job == nx && ft_haz)) begin
              go = 1'b0;
              wait_operand = 1'b1;
            end
          end
        end
      end
    end
  end

  // beat contents
  always_comb begin
    logic [KW-1:0] r;
    logic          os;
    os = cfg_os_q;
    r  = os ? KW'(Dim - 1) - k : k;  // the result row this beat brings out
    beat_a = '0;
    beat_b = '0;
    beat_d = '0;
    beat_flip = 1'b0;
    beat_wr = 1'b0;
    beat_last = 1'b0;
    if (kind == TkCompute) begin
      if (!j_az_q[str_i]) beat_a = buf_q[str_i[1:0]][OpA][k];
      if (!j_bz_q[str_i]) beat_b = buf_q[str_i[1:0]][OpB][k];
      beat_flip = j_flip_q[str_i];
      beat_wr   = j_m_q[str_i] && CntW'(r) < j_mdst_q[str_i].rows;
      beat_last = os ? k == KW'(Dim - 1) : CntW'(k) == j_mdst_q[str_i].rows - 1'b1;
    end else if (kind == TkFlush) begin
      beat_flip = 1'b1;
      beat_wr   = CntW'(KW'(Dim - 1) - k) < j_fdst_q[str_i].rows;
      beat_last = k == KW'(Dim - 1);
    end
    if (cv && !j_pz_q[cjob]) beat_d = buf_q[cjob[1:0]][OpP][KW'(Dim - 1) - k];
  end

  assign beat_fire = go && (!beat_wr || credit_ok);

  logic tile_start, tile_end;
  assign tile_start = beat_fire && !st_act_q;
  assign tile_end   = beat_fire && k == KW'(Dim - 1);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_act_q  <= 1'b0;
      st_kind_q <= TkCompute;
      st_k_q    <= '0;
      st_cv_q   <= 1'b0;
      st_cj_q   <= '0;
      str_q     <= '0;
    end else begin
      if (beat_fire) begin
        st_act_q  <= !tile_end;
        st_kind_q <= kind;
        st_k_q    <= tile_end ? '0 : k + 1'b1;
        st_cv_q   <= cv;
        st_cj_q   <= cjob;
      end
      if ((tile_end && (kind == TkCompute || (kind == TkFlush && j_fonly_q[str_i]))) || adv_skip) begin
        str_q <= str_q + 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------- the array

  logic            out_valid, out_flip;
  logic [KW-1:0]   out_row;
  dataflow_e       out_df;
  logic [TagW-1:0] out_tag;
  out_t [Dim-1:0]  out_c;

  gemmini_array #(.Dim(Dim), .TagW(TagW)) u_array (
    .clk_i,
    .rst_ni,
    .in_valid_i  (beat_fire),
    .in_flip_i   (beat_flip),
    .in_df_i     (cfg_df),
    .in_shift_i  (cfg_shift_q),
    .in_tag_i    ({beat_wr, beat_last, kind == TkFlush, str_i}),
    .in_a_i      (beat_a),
    .in_b_i      (beat_b),
    .in_d_i      (beat_d),
    .out_valid_o (out_valid),
    .out_row_o   (out_row),
    .out_flip_o  (out_flip),
    .out_df_o    (out_df),
    .out_tag_o   (out_tag),
    .out_c_o     (out_c),
    .busy_o      (arr_busy)
  );

  // ---------------------------------------------------------------- write queue

  typedef struct packed {
    out_t [Dim-1:0]  c;
    logic [KW-1:0]   k;
    logic            last;
    logic            fsel;
    logic [JobW-1:0] job;
  } wq_t;

  wq_t            wq_q [WqN];
  logic [WqW-1:0] wq_rd_q, wq_wr_q;
  logic [WqW:0]   wq_cnt_q;
  logic           wq_push, wq_pop;
  wq_t            wh;
  /* verilator lint_off UNUSEDSIGNAL */
  dst_t           wdst;  // rows are in the record for the stream, not the write
  rowc_t          wrow;
  /* verilator lint_on UNUSEDSIGNAL */

  assign wq_push = out_valid && out_tag[TagW-1];
  assign wh      = wq_q[wq_rd_q];

  always_comb begin
    logic os;
    wdst = wh.fsel ? j_fdst_q[wh.job] : j_mdst_q[wh.job];
    os   = wh.fsel || cfg_os_q;
    wrow = os ? rowc_t'(wdst.row) + rowc_t'(Dim - 1) - rowc_t'(wh.k) * rowc_t'(cfg_cstride_q)
              : rowc_t'(wdst.row) + rowc_t'(wh.k) * rowc_t'(cfg_cstride_q);
    for (int e = 0; e < Dim; e++) begin
      out_t v;
      in_t  s;
      v = wh.c[e];
      s = v > out_t'(127) ? in_t'(127) : v < out_t'(-128) ? in_t'(-128) : in_t'(v);
      if (cfg_relu_q && s < 0) s = '0;
      sp_wr_data_o[e*8 +: 8]    = s;
      acc_wr_data_o[e*32 +: 32] = 32'(signed'(v));
      sp_wr_mask_o[e]           = CntW'(e) < wdst.cols;
    end
  end

  assign acc_wr_mask_o       = sp_wr_mask_o;
  assign sp_wr_valid_o       = wq_cnt_q != '0 && !wdst.acc;
  assign acc_wr_valid_o      = wq_cnt_q != '0 && wdst.acc;
  assign sp_wr_row_o         = SpRowW'(wrow);
  assign acc_wr_row_o        = AccRowW'(wrow);
  assign acc_wr_accumulate_o = wdst.accum;
  assign sp_wr_id_o          = wdst.id;
  assign acc_wr_id_o         = wdst.id;
  assign wq_pop = (sp_wr_valid_o && sp_wr_ready_i) || (acc_wr_valid_o && acc_wr_ready_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wq_rd_q  <= '0;
      wq_wr_q  <= '0;
      wq_cnt_q <= '0;
      wres_q   <= '0;
    end else begin
      if (wq_push) begin
        wq_q[wq_wr_q] <= '{c: out_c, k: out_row, last: out_tag[TagW-2], fsel: out_tag[TagW-3],
                           job: out_tag[JobW-1:0]};
        wq_wr_q <= wq_wr_q + 1'b1;
      end
      if (wq_pop) wq_rd_q <= wq_rd_q + 1'b1;
      wq_cnt_q <= wq_cnt_q + (WqW + 1)'(wq_push) - (WqW + 1)'(wq_pop);
      wres_q   <= wres_q + (WqW + 1)'(beat_fire && beat_wr) - (WqW + 1)'(wq_pop);
    end
  end

  logic unused_out;
  assign unused_out = ^{out_flip, out_df};

  // ---------------------------------------------------------------- job state

  logic retire;
  always_comb begin
    logic h;
    h = 1'b0;
    if (jcount != '0 && head_q != str_q) begin  // streamed past
      h = (!j_f_q[head_i] || j_fdone_q[head_i]) && (!j_m_q[head_i] || j_mdone_q[head_i]);
    end
    retire = h;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q <= '0;
      tail_q <= '0;
      pend_v_q <= 1'b0;
      pend_q <= '0;
      osv_q <= 1'b0;
      os_dst_q <= '0;
      wcols_q <= '0;
      held_q <= '0;
      cfg_os_q <= !HasWs;
      cfg_relu_q <= 1'b0;
      cfg_at_q <= 1'b0;
      cfg_bt_q <= 1'b0;
      cfg_scale_q <= 32'h3F80_0000;
      cfg_shift_q <= '0;
      cfg_astride_q <= 16'd1;
      cfg_cstride_q <= 16'd1;
      j_cmp_q <= '0; j_flip_q <= '0; j_skip_q <= '0; j_fonly_q <= '0; j_strd_q <= '0;
      j_pre_q <= '0; j_pre_c_q <= '0; j_pre_dstr_q <= '0;
      j_pz_q <= '0; j_pv_q <= '0; j_az_q <= '0; j_av_q <= '0; j_bz_q <= '0; j_bv_q <= '0;
      j_carried_q <= '0;
      j_f_q <= '0; j_fstr_q <= '0; j_fdone_q <= '0; j_pbf_q <= '0; j_fdrain_q <= '0;
      j_m_q <= '0; j_mdone_q <= '0; j_bdng_q <= '0;
      for (int i = 0; i < NS; i++) begin
        j_pdst_q[i] <= '0; j_mdst_q[i] <= '0; j_fdst_q[i] <= '0;
        j_mlo_q[i] <= '0; j_mhi_q[i] <= '0; j_flo_q[i] <= '0; j_fhi_q[i] <= '0;
        j_fdid_q[i] <= '0; j_macs_q[i] <= '0; j_bdcols_q[i] <= '0;
      end
    end else begin
      held_q <= held_q + (DqW + 1)'(in_fire) - (DqW + 1)'(done_valid_o);
      if (retire) head_q <= head_q + 1'b1;

      // ---- intake
      if (in_fire && c_cfg && cmd_i.rs1[1:0] == 2'd0) begin
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
      if (in_fire && (c_pre || (c_cmp && cj_alloc) || (c_drain && osv_q && !pend_v_q))) begin
        // a new job
        tail_q <= tail_q + 1'b1;
        j_cmp_q[tail_i] <= 1'b0; j_flip_q[tail_i] <= 1'b0; j_skip_q[tail_i] <= 1'b0;
        j_fonly_q[tail_i] <= c_drain; j_strd_q[tail_i] <= 1'b0;
        j_pre_q[tail_i] <= c_pre; j_pre_c_q[tail_i] <= 1'b0; j_pre_dstr_q[tail_i] <= 1'b0;
        j_pz_q[tail_i] <= 1'b1; j_pv_q[tail_i] <= 1'b1;
        j_az_q[tail_i] <= 1'b1; j_av_q[tail_i] <= 1'b1; j_bz_q[tail_i] <= 1'b1; j_bv_q[tail_i] <= 1'b1;
        j_carried_q[tail_i] <= 1'b0;
        j_f_q[tail_i] <= 1'b0; j_fstr_q[tail_i] <= 1'b0; j_fdone_q[tail_i] <= 1'b0;
        j_pbf_q[tail_i] <= 1'b0; j_fdrain_q[tail_i] <= 1'b0;
        j_m_q[tail_i] <= 1'b0; j_mdone_q[tail_i] <= 1'b0; j_bdng_q[tail_i] <= 1'b0;
        j_macs_q[tail_i] <= '0;
      end
      if (in_fire && c_pre) begin
        if (pend_v_q) j_skip_q[pend_q] <= 1'b1;  // a preload replaced before its compute: nothing of it stays
        pend_v_q <= 1'b1;
        pend_q   <= tail_i;
        j_pre_c_q[tail_i] <= names_c(cmd_i.rs2);
        j_pdst_q[tail_i]  <= mk_dst(cmd_i.rs2, cmd_i.id);
        j_bdng_q[tail_i]  <= !is_garbage(cmd_i.rs1[31:0]);
        j_bdcols_q[tail_i] <= fld(cmd_i.rs1[47:32]);
        if (!task_zero(cmd_i.rs1)) begin
          j_pz_q[tail_i] <= 1'b0;
          j_pv_q[tail_i] <= 1'b0;
        end
        if (dr_pre) begin
          j_f_q[tail_i]    <= 1'b1;
          j_fdst_q[tail_i] <= os_dst_q;
          j_flo_q[tail_i]  <= frange_c[63:32];
          j_fhi_q[tail_i]  <= frange_c[31:0];
          osv_q <= 1'b0;
        end
      end
      if (in_fire && c_cmp) begin
        pend_v_q <= 1'b0;
        j_cmp_q[cj]  <= 1'b1;
        j_flip_q[cj] <= c_flip;
        j_pre_dstr_q[cj] <= !cj_alloc && !j_pre_c_q[cj];
        if (cmp_taskA) begin
          j_az_q[cj] <= 1'b0;
          j_av_q[cj] <= 1'b0;
        end
        if (cmp_taskB) begin
          j_bz_q[cj] <= 1'b0;
          j_bv_q[cj] <= 1'b0;
        end
        j_m_q[cj]    <= mrec_c;
        j_mdst_q[cj] <= mdst_c;
        j_mlo_q[cj]  <= mrange_c[63:32];
        j_mhi_q[cj]  <= mrange_c[31:0];
        j_macs_q[cj] <= macs_c;
        if (dr_cmp) begin
          j_f_q[cj]    <= 1'b1;
          j_fdst_q[cj] <= os_dst_q;
          j_flo_q[cj]  <= frange_c[63:32];
          j_fhi_q[cj]  <= frange_c[31:0];
          j_pbf_q[cj]  <= !cj_alloc;  // the P read was queued before this drain
          j_carried_q[cj] <= 1'b0;
        end
        if (!cfg_os_q) begin
          if (c_flip) wcols_q <= wc_c;
        end else if (!cj_alloc) begin
          osv_q    <= j_pre_c_q[cj];  // the preload's C is now the pending result
          os_dst_q <= j_pdst_q[cj];
        end else if (c_flip || dr_cmp) begin
          osv_q <= 1'b0;  // shifted out or drained
        end
      end
      if (in_fire && c_drain && osv_q) begin
        osv_q <= 1'b0;
        if (pend_v_q) begin
          j_f_q[pend_q]      <= 1'b1;
          j_fdst_q[pend_q]   <= os_dst_q;
          j_flo_q[pend_q]    <= frange_c[63:32];
          j_fhi_q[pend_q]    <= frange_c[31:0];
          j_fdrain_q[pend_q] <= 1'b1;
          j_fdid_q[pend_q]   <= cmd_i.id;
          j_pbf_q[pend_q]    <= !j_pz_q[pend_q];
          j_carried_q[pend_q] <= 1'b0;
        end else begin
          j_f_q[tail_i]      <= 1'b1;
          j_fdst_q[tail_i]   <= os_dst_q;
          j_flo_q[tail_i]    <= frange_c[63:32];
          j_fhi_q[tail_i]    <= frange_c[31:0];
          j_fdrain_q[tail_i] <= 1'b1;
          j_fdid_q[tail_i]   <= cmd_i.id;
        end
      end

      // ---- fetch: operand data in
      if (rq_v_q && rq_last_q) begin
        case (rq_opnd_q)
          OpP:     j_pv_q[rq_job_q] <= 1'b1;
          OpA:     j_av_q[rq_job_q] <= 1'b1;
          default: j_bv_q[rq_job_q] <= 1'b1;
        endcase
      end
      if (rq1_v_q && rq1_last_q) begin
        case (rq1_opnd_q)
          OpP:     j_pv_q[rq1_job_q] <= 1'b1;
          OpA:     j_av_q[rq1_job_q] <= 1'b1;
          default: j_bv_q[rq1_job_q] <= 1'b1;
        endcase
      end

      // ---- stream
      if (tile_start && cv) j_carried_q[cjob] <= 1'b1;
      if (tile_end && kind == TkFlush) j_fstr_q[str_i] <= 1'b1;
      if ((tile_end && (kind == TkCompute || (kind == TkFlush && j_fonly_q[str_i]))) || adv_skip) begin
        j_strd_q[str_i] <= 1'b1;
      end

      // ---- write: a result's last row accepted
      if (wq_pop && wh.last) begin
        if (wh.fsel) j_fdone_q[wh.job] <= 1'b1;
        else j_mdone_q[wh.job] <= 1'b1;
      end

      // a drain added to the waiting preload's job: its P must ride on the drain tile or a carrier
      if (in_fire && c_drain && osv_q && pend_v_q) j_carried_q[pend_q] <= 1'b0;
      if (in_fire && c_cmp && dr_cmp) j_carried_q[cj] <= 1'b0;
    end
  end

  // ---------------------------------------------------------------- completions

  // the other operand of a compute reading A and B is in (registered)
  function automatic logic partner_in(logic [JobW-1:0] j, logic [1:0] opnd);
    return opnd == OpA ? j_bv_q[j] : j_av_q[j];
  endfunction

  always_comb begin
    dpush_v  = '0;
    dpush_id = '0;
    // intake: config_ex, a drain with nothing pending, a compute with no reads
    dpush_v[0]  = in_fire && (c_cfg || (c_drain && !osv_q) || (c_cmp && !cmp_taskA && !cmp_taskB) ||
                              !(c_cfg || c_pre || c_cmp || c_drain));
    dpush_id[0] = cmd_i.id;
    // intake: a pending OS result replaced without being written
    dpush_v[1]  = in_fire && c_cmp && os_replaced;
    dpush_id[1] = os_dst_q.id;
    // fetch: a compute's reads are in (with A and B, at the later of the two;
    // lane 0 reports when both come in the same cycle)
    dpush_v[2]  = rq_v_q && rq_cmp_q && (!rq_pair_q || partner_in(rq_job_q, rq_opnd_q) ||
                                         (rq1_v_q && rq1_cmp_q && rq1_job_q == rq_job_q));
    dpush_id[2] = rq_cid_q;
    dpush_v[6]  = rq1_v_q && rq1_cmp_q && (!rq1_pair_q || partner_in(rq1_job_q, rq1_opnd_q));
    dpush_id[6] = rq1_cid_q;
    // stream: a preload without C (or a dead one) whose compute has streamed
    dpush_v[3]  = (tile_end && kind == TkCompute && j_pre_dstr_q[str_i]) || adv_skip;
    dpush_id[3] = j_pdst_q[str_i].id;
    // write: a result's last row
    dpush_v[4]  = wq_pop && wh.last;
    dpush_id[4] = wdst.id;
    dpush_v[5]  = wq_pop && wh.last && wh.fsel && j_fdrain_q[wh.job];
    dpush_id[5] = j_fdid_q[wh.job];
  end

  // ---------------------------------------------------------------- events

  assign perf_macs_o          = tile_start && kind == TkCompute ? j_macs_q[str_i] : '0;
  assign perf_busy_o          = jcount != '0 || held_q != '0 || arr_busy;
  assign perf_mesh_busy_o     = arr_busy;
  assign perf_stall_mem_o     = (sp_rd_valid_o && !sp_rd_ready_i) || (acc_rd_valid_o && !acc_rd_ready_i) ||
                                (sp_rd1_valid_o && !sp_rd1_ready_i) ||
                                (sp_wr_valid_o && !sp_wr_ready_i) || (acc_wr_valid_o && !acc_wr_ready_i);
  assign perf_stall_operand_o = wait_operand;

  logic unused;
  assign unused = ^{j_strd_q, j_pre_q, cmd_i.rs1[15:10], cmd_i.rs1[6:5], cmd_i.rs2[47:ShiftW]};

endmodule
