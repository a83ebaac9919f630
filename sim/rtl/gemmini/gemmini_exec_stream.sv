// Stream stage of the execute controller (gemmini_exec.sv; EXEC.md "Pipeline"):
// one tile (Dim beats) per job into the array, the jobs in ring order.
//
// Beat k of a compute tile is buffer row k of A and B, and on in_d_i, last row
// first, the P buffer of the next job (double buffering: the next flipped tile's
// weights / D stream in beside this compute). A job whose P did not ride on the
// tile before gets a carrier tile (zeros, unflipped) first; an OS drain is a
// flipped tile of zeros. A tile waits (bubbles) while operands are missing, and a
// beat that brings a result row out waits for a write-queue credit. A dead
// preload's job (replaced before its compute) is passed over once its read is in.
module gemmini_exec_stream
  import gemmini_pkg::*;
  import gemmini_exec_pkg::*;
#(
  parameter int unsigned Dim    = 4,
  localparam int unsigned CountW = $clog2(Dim + 1),
  localparam int unsigned BeatW  = Dim > 1 ? $clog2(Dim) : 1
) (
  input  logic                    clk_i,              // in: clock
  input  logic                    rst_ni,             // in: asynchronous reset, active low
  input  logic                    os_i,               // in: config_ex dataflow is OS
  // the job ring
  input  logic [PtrW-1:0]         tail_i,             // in: the next free job (ring pointer)
  output logic [PtrW-1:0]         stream_o,           // out: the job being streamed (ring pointer)
  input  logic [Jobs-1:0]         compute_i,          // in: job x has its compute
  input  logic [Jobs-1:0]         flip_i,             // in: ... a compute_preloaded (flips the PEs)
  input  logic [Jobs-1:0]         skip_i,             // in: job x is a dead preload
  input  logic [Jobs-1:0]         drain_only_i,       // in: job x is a FunctDrain alone
  input  logic [Jobs-1:0]         carried_i,          // in: job x's P rode on the tile before
  input  logic [Jobs-1:0]         p_zero_i,           // in: job x's P is zeros (no read)
  input  logic [Jobs-1:0]         p_in_i,             // in: job x's P rows are in
  input  logic [Jobs-1:0]         a_zero_i,           // in: job x's A is zeros (no read)
  input  logic [Jobs-1:0]         a_in_i,             // in: job x's A rows are in
  input  logic [Jobs-1:0]         b_zero_i,           // in: job x's B / D is zeros (no read)
  input  logic [Jobs-1:0]         b_in_i,             // in: job x's B / D rows are in
  input  logic [Jobs-1:0]         drain_i,            // in: job x drains the pending OS result
  input  logic [Jobs-1:0]         drain_streamed_i,   // in: ... its drain tile has streamed
  input  logic [Jobs-1:0]         p_before_drain_i,   // in: ... after its P read (queued before it)
  input  logic [Jobs-1:0]         result_i,           // in: job x's compute tile writes result rows
  input  logic [CountW-1:0]       result_rows_i [Jobs],  // in: ... this many
  input  logic [CountW-1:0]       drain_rows_i [Jobs],   // in: rows job x's drain tile writes
  // the fetch queue's head (a P about to be read)
  input  logic                    head_valid_i,       // in: a fetch task is queued
  input  logic [JobW-1:0]         head_job_i,         // in: ... for this job
  input  logic                    head_hazard_i,      // in: ... and waits for rows to be written
  input  logic                    credit_i,           // in: the write queue has a free row
  // operand rows (from gemmini_exec_fetch's buffers)
  output logic [BeatW-1:0]        beat_o,             // out: the beat (A and B row) of the tile
  output logic [JobW-1:0]         carry_job_o,        // out: whose P rides on in_d_i
  output logic [BeatW-1:0]        carry_row_o,        // out: ... its row this beat
  input  in_t [Dim-1:0]           row_a_i,            // in: A row of the streamed job
  input  in_t [Dim-1:0]           row_b_i,            // in: B row of the streamed job
  input  in_t [Dim-1:0]           row_p_i,            // in: P row of carry_job_o
  // beats into the array
  output logic                    fire_o,             // out: a beat enters the array
  output tile_e                   kind_o,             // out: ... of this kind of tile
  output logic                    carry_o,            // out: ... carrying a P on in_d_i
  output logic                    flip_o,             // out: ... flipping the PEs
  output logic                    write_o,            // out: ... bringing a result row out
  output logic                    last_o,             // out: ... the result's last row
  output in_t [Dim-1:0]           a_o,                // out: in_a_i
  output in_t [Dim-1:0]           b_o,                // out: in_b_i
  output in_t [Dim-1:0]           d_o,                // out: in_d_i
  // events
  output logic                    tile_start_o,       // out: a tile's first beat enters
  output logic                    tile_end_o,         // out: a tile's last beat enters
  output logic                    skip_o,             // out: a dead preload's job is passed over
  output logic                    active_o,           // out: a tile is under way
  output logic                    wait_operand_o      // out: a compute waits for its operands
);

  logic [JobW-1:0] stream_job, next_job;
  logic [PtrW-1:0] stream_q;
  assign stream_job    = stream_q[JobW-1:0];
  assign stream_o = stream_q;

  tile_e            kind_q, kind;
  logic [BeatW-1:0] beat_q, beat;
  logic             active_q;
  logic             carry_q, carry;        // this tile carries a P on in_d_i
  logic [JobW-1:0]  carry_job_q, carry_job;      // whose P
  logic             go, beat_write, beat_last, beat_fire, stream_alive, next_alive, wait_operand;
  logic             skip;           // a dead preload's job is passed over this cycle
  in_t [Dim-1:0]    beat_a, beat_b, beat_d;
  logic             beat_flip;

  assign stream_alive = tail_i != stream_q;
  assign next_job        = stream_job + 1'b1;
  assign next_alive  = (tail_i - stream_q) > PtrW'(1);

  always_comb begin
    logic drain_pending, operands_in;
    go = 1'b0;
    kind = TileCompute;
    beat = beat_q;
    carry = 1'b0;
    carry_job = '0;
    skip = 1'b0;
    wait_operand = 1'b0;
    drain_pending = drain_i[stream_job] && !drain_streamed_i[stream_job];
    operands_in = (a_in_i[stream_job] || a_zero_i[stream_job]) && (b_in_i[stream_job] || b_zero_i[stream_job]) && p_in_i[stream_job];
    if (active_q) begin
      go   = 1'b1;
      kind = kind_q;
      carry   = carry_q;
      carry_job = carry_job_q;
    end else if (stream_alive) begin
      beat = '0;
      if (drain_pending) begin
        // an OS drain: a flipped tile of zeros (after the P it would overwrite is read)
        kind = TileFlush;
        go   = !(p_before_drain_i[stream_job] && !p_in_i[stream_job]);
        carry   = p_in_i[stream_job];
        carry_job = stream_job;
      end else if (skip_i[stream_job]) begin
        skip = p_in_i[stream_job];
      end else if (compute_i[stream_job]) begin
        if (flip_i[stream_job] && !carried_i[stream_job]) begin
          kind = TileCarrier;  // the flipped tile's P did not ride on the tile before: it needs only P
          go   = p_in_i[stream_job];
          wait_operand = !p_in_i[stream_job];
          carry   = 1'b1;
          carry_job = stream_job;
        end else if (!operands_in) begin
          wait_operand = 1'b1;
        end else begin
          kind = TileCompute;
          go   = 1'b1;
          // carry the next job's P; wait for it while its read is under way
          if (next_alive && !drain_only_i[next_job] && !skip_i[next_job] && !(drain_i[next_job] && !drain_streamed_i[next_job])) begin
            if (p_in_i[next_job]) begin
              carry   = 1'b1;
              carry_job = next_job;
            end else if (!(head_valid_i && head_job_i == next_job && head_hazard_i)) begin
              go = 1'b0;
              wait_operand = 1'b1;
            end
          end
        end
      end
    end
  end

  // beat contents
  assign beat_o      = beat;
  assign carry_job_o = carry_job;
  assign carry_row_o = BeatW'(Dim - 1) - beat;
  always_comb begin
    logic [BeatW-1:0] result_row;
    result_row = os_i ? BeatW'(Dim - 1) - beat : beat;  // the result row this beat brings out
    beat_a = '0;
    beat_b = '0;
    beat_d = '0;
    beat_flip = 1'b0;
    beat_write = 1'b0;
    beat_last = 1'b0;
    if (kind == TileCompute) begin
      if (!a_zero_i[stream_job]) beat_a = row_a_i;
      if (!b_zero_i[stream_job]) beat_b = row_b_i;
      beat_flip = flip_i[stream_job];
      beat_write   = result_i[stream_job] && CountW'(result_row) < result_rows_i[stream_job];
      beat_last = os_i ? beat == BeatW'(Dim - 1) : CountW'(beat) == result_rows_i[stream_job] - 1'b1;
    end else if (kind == TileFlush) begin
      beat_flip = 1'b1;
      beat_write   = CountW'(BeatW'(Dim - 1) - beat) < drain_rows_i[stream_job];
      beat_last = beat == BeatW'(Dim - 1);
    end
    if (carry && !p_zero_i[carry_job]) beat_d = row_p_i;
  end

  assign beat_fire = go && (!beat_write || credit_i);

  logic tile_start, tile_end, advance;
  assign tile_start = beat_fire && !active_q;
  assign tile_end   = beat_fire && beat == BeatW'(Dim - 1);
  assign advance    = (tile_end && (kind == TileCompute || (kind == TileFlush && drain_only_i[stream_job]))) || skip;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q    <= 1'b0;
      kind_q      <= TileCompute;
      beat_q      <= '0;
      carry_q     <= 1'b0;
      carry_job_q <= '0;
      stream_q    <= '0;
    end else begin
      if (beat_fire) begin
        active_q    <= !tile_end;
        kind_q      <= kind;
        beat_q      <= tile_end ? '0 : beat + 1'b1;
        carry_q     <= carry;
        carry_job_q <= carry_job;
      end
      if (advance) stream_q <= stream_q + 1'b1;
    end
  end

  assign fire_o         = beat_fire;
  assign kind_o         = kind;
  assign carry_o        = carry;
  assign flip_o         = beat_flip;
  assign write_o        = beat_write;
  assign last_o         = beat_last;
  assign a_o            = beat_a;
  assign b_o            = beat_b;
  assign d_o            = beat_d;
  assign tile_start_o   = tile_start;
  assign tile_end_o     = tile_end;
  assign skip_o         = skip;
  assign active_o       = active_q;
  assign wait_operand_o = wait_operand;

`ifdef COSIM_ASSERT
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));

  // The stream never passes the ring's tail, and a tile once started streams one
  // beat a cycle apart from credit waits, with its kind and carried P unchanged.
  StreamBehindTail: assert property (@(posedge clk_i) disable iff (!checking)
    PtrW'(tail_i - stream_q) <= PtrW'(Jobs))
    else $error("exec stream pointer left the job ring");
  AdvanceFromLiveJob: assert property (@(posedge clk_i) disable iff (!checking) advance |-> stream_alive)
    else $error("exec stream advanced past the ring's tail");
  TileKept: assert property (@(posedge clk_i) disable iff (!checking)
    active_q |-> kind == kind_q && carry == carry_q && carry_job == carry_job_q)
    else $error("exec tile changed its kind or carried P midway");
  // A compute tile's operands are in before its first beat.
  OperandsIn: assert property (@(posedge clk_i) disable iff (!checking)
    tile_start && kind == TileCompute |-> (a_in_i[stream_job] || a_zero_i[stream_job]) && (b_in_i[stream_job] || b_zero_i[stream_job]))
    else $error("exec compute tile of job %0d started before its operands were in", stream_job);
  CarryIn: assert property (@(posedge clk_i) disable iff (!checking) tile_start && carry |-> p_in_i[carry_job])
    else $error("exec tile carries the P of job %0d before it is read", carry_job);
`endif

endmodule
