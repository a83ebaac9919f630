// Scoreboard of the vector unit on register groups (PIPELINE.md): it keeps the
// instruction each engine executes (the sequencer's, the LSU's issuing one and its
// draining ones, oldest first) with its reorder-buffer tag, and decides
//   * at dispatch: may the queue head start? (WAR: the other engine still reads a
//     register the head writes; RAW: a producer still writes a register the head
//     reads: with chaining only v0, which is read as a whole; WAW is the reorder
//     buffer's answer, vec_rob.sv);
//   * every cycle, with chaining (Chain = 1): the row interlock. An engine reading a
//     row of a destination that an older instruction on the other engine has not
//     written yet stalls for the cycle (each engine reports the rows it reads and
//     the frontier below which its destination rows are final).
module vec_scoreboard
  import vec_pkg::*;
#(
  parameter int unsigned VLEN     = 256,
  parameter int unsigned DLEN     = 64,
  parameter int unsigned RobDepth = 4,
  parameter bit          Chain    = 1'b1,   // 0: a consumer waits for its producer to finish
  parameter int unsigned Drains   = 4,      // the LSU's drain queue (vec_lsu Drains)
  localparam int unsigned Rows = 32 * VLEN / DLEN,
  localparam int unsigned RowW = $clog2(Rows),
  localparam int unsigned TagW = $clog2(RobDepth),
  localparam int unsigned DW   = (Drains > 1) ? $clog2(Drains) : 1
) (
  input  logic            clk_i,             // in: clock
  input  logic            rst_ni,            // in: asynchronous reset, active low
  // dispatch of the queue head
  input  vinsn_t          head_i,            // in: the queue head
  input  logic            head_lsu_i,        // in: it goes to the LSU (else the sequencer)
  input  logic            dispatch_i,        // in: it is dispatched this cycle
  input  logic [TagW-1:0] dispatch_tag_i,    // in: its reorder-buffer entry
  input  logic [TagW-1:0] rob_head_i,        // in: the oldest reorder-buffer entry
  output logic            war_o,             // out: the head would overwrite a register still read
  output logic            raw_o,             // out: the head would read a register still written
  // the engines
  input  logic            seq_busy_i,        // in: the sequencer executes an instruction
  input  logic            seq_done_i,        // in: it finishes it this cycle
  input  logic [2:0]      seq_used_i,        // in: its read ports {c, b, a} in use
  input  logic [RowW-1:0] seq_raddr_a_i,     // in: its row on read port a
  input  logic [RowW-1:0] seq_raddr_b_i,     // in: its row on read port b
  input  logic [RowW-1:0] seq_raddr_c_i,     // in: its row on read port c
  input  logic [RowW:0]   seq_front_i,       // in: rows of its destination below are final
  input  logic            lsu_issue_busy_i,  // in: the LSU issues requests of an instruction
  input  logic [DW-1:0]   lsu_drain_rd_i,    // in: the LSU's drain queue: its oldest entry
  input  logic [DW:0]     lsu_drain_n_i,     // in: ... and how many it holds
  input  logic            lsu_done_i,        // in: an LSU instruction finishes this cycle
  input  logic            lsu_done_drain_i,  // in: the finishing one is the draining one
  input  logic            lsu_to_drain_i,    // in: the issuing instruction moves to draining
  input  logic [1:0]      lsu_used_i,        // in: its read ports {e, d} in use
  input  logic [RowW-1:0] lsu_raddr_d_i,     // in: its row on read port d (store data)
  input  logic [RowW-1:0] lsu_raddr_e_i,     // in: its row on read port e (indices)
  input  logic [RowW:0]   lsu_front_i,       // in: final rows of the issuing load's destination
  input  logic [RowW:0]   lsu_drain_front_i, // in: final rows of the oldest draining load's destination
  output logic [TagW-1:0] seq_tag_o,         // out: the sequencer's reorder-buffer entry
  output logic [TagW-1:0] lsu_done_tag_o,    // out: the finishing LSU instruction's entry
  output logic            seq_stall_o,       // out: the sequencer waits for a row this cycle
  output logic            lsu_stall_o        // out: the LSU waits for a row this cycle
);

  localparam int unsigned RowsPerRegLg = $clog2(VLEN / DLEN);

  vinsn_t          seq_ins_q, lsu_ins_q;   // valid while the engine is busy
  logic [TagW-1:0] seq_tag_q, lsu_tag_q;
  // the LSU's draining instructions at the places of its drain queue: entry
  // (lsu_drain_rd_i + d) mod Drains for d < lsu_drain_n_i
  vinsn_t          drain_ins_q [Drains];
  logic [TagW-1:0] drain_tag_q [Drains];
  logic [DW-1:0]   drain_rd;
  logic [DW:0]     drain_n;
  assign drain_rd = lsu_drain_rd_i;
  assign drain_n  = lsu_drain_n_i;

  assign seq_tag_o      = seq_tag_q;
  assign lsu_done_tag_o = lsu_done_drain_i ? drain_tag_q[drain_rd] : lsu_tag_q;

  function automatic logic [DW-1:0] drain_slot(logic [DW-1:0] rd, int unsigned d);
    return DW'((32'(rd) + d) % Drains);
  endfunction

  function automatic logic [RowW:0] register_row(logic [5:0] r);
    return (RowW + 1)'(32'(r) << RowsPerRegLg);
  endfunction

  // Instructions still executing after this cycle: the sequencer's, the LSU's
  // issuing one (also when it moves to the drain queue) and the LSU's draining ones.
  logic seq_active, issue_active;
  logic drain_active [Drains];   // by position d in the queue (0: the oldest)
  assign seq_active   = seq_busy_i && !seq_done_i;
  assign issue_active = lsu_issue_busy_i && !(lsu_done_i && !lsu_done_drain_i);
  always_comb begin
    for (int unsigned d = 0; d < Drains; d++)
      drain_active[d] = (32'(drain_n) > d) && !(d == 0 && lsu_done_i && lsu_done_drain_i);
  end

  // does producer p (executing, with a destination) hold back the head's reads?
  function automatic logic raw_on(logic active, vinsn_t p, vinsn_t h);
    if (!active || !has_destination(p)) return 1'b0;
    // with chaining only the mask (v0 is read as a whole); rows of the other
    // operands are interlocked cycle by cycle (below)
    if (Chain) return uses_v0(h) && (p.uop.vd == 5'd0);
    return reads_registers(h, 6'(p.uop.vd), destination_end(p));
  endfunction

  logic [5:0] head_first, head_end;
  logic       head_destination;
  assign head_destination = has_destination(head_i);
  assign head_first       = 6'(head_i.uop.vd);
  assign head_end         = destination_end(head_i);
  // WAR: the other engine still reads a register the head writes (the head's own
  // engine is free or finishing: its reads are over)
  assign war_o = head_destination
              && (head_lsu_i ? (seq_active && reads_registers(seq_ins_q, head_first, head_end))
                             : (issue_active && reads_registers(lsu_ins_q, head_first, head_end)));
  always_comb begin
    raw_o = raw_on(seq_active, seq_ins_q, head_i) || raw_on(issue_active, lsu_ins_q, head_i);
    for (int unsigned d = 0; d < Drains; d++)
      raw_o = raw_o || raw_on(drain_active[d], drain_ins_q[drain_slot(drain_rd, d)], head_i);
  end

  // row r of [first, end) not final below the writer's frontier
  function automatic logic row_pending(logic [RowW-1:0] r, logic [5:0] first, logic [5:0] last,
                                       logic [RowW:0] front);
    return ({1'b0, r} >= register_row(first)) && ({1'b0, r} < register_row(last)) && ({1'b0, r} >= front);
  endfunction

  // is entry a older than entry b?
  function automatic logic older(logic [TagW-1:0] a, logic [TagW-1:0] b, logic [TagW-1:0] head);
    return TagW'(a - head) < TagW'(b - head);
  endfunction

  always_comb begin
    logic [5:0] first, last;
    seq_stall_o = 1'b0;
    lsu_stall_o = 1'b0;
    // sequencer reads vs. the LSU's issuing and draining loads
    first = 6'(lsu_ins_q.uop.vd);
    last  = destination_end(lsu_ins_q);
    if (seq_busy_i && lsu_issue_busy_i && older(lsu_tag_q, seq_tag_q, rob_head_i) && has_destination(lsu_ins_q)) begin
      seq_stall_o = (seq_used_i[0] && row_pending(seq_raddr_a_i, first, last, lsu_front_i))
                 || (seq_used_i[1] && row_pending(seq_raddr_b_i, first, last, lsu_front_i))
                 || (seq_used_i[2] && row_pending(seq_raddr_c_i, first, last, lsu_front_i));
    end
    // draining loads: the oldest has written the rows below lsu_drain_front_i; the
    // younger ones nothing yet (their responses come after its)
    for (int unsigned d = 0; d < Drains; d++) begin
      vinsn_t          p;
      logic [TagW-1:0] t;
      logic [RowW:0]   front;
      p     = drain_ins_q[drain_slot(drain_rd, d)];
      t     = drain_tag_q[drain_slot(drain_rd, d)];
      first = 6'(p.uop.vd);
      last  = destination_end(p);
      front = (d == 0) ? lsu_drain_front_i : '0;
      if (seq_busy_i && (32'(drain_n) > d) && older(t, seq_tag_q, rob_head_i) && has_destination(p)) begin
        seq_stall_o = seq_stall_o
                   || (seq_used_i[0] && row_pending(seq_raddr_a_i, first, last, front))
                   || (seq_used_i[1] && row_pending(seq_raddr_b_i, first, last, front))
                   || (seq_used_i[2] && row_pending(seq_raddr_c_i, first, last, front));
      end
      if (lsu_issue_busy_i && (32'(drain_n) > d) && has_destination(p)) begin
        lsu_stall_o = lsu_stall_o
                   || (lsu_used_i[0] && row_pending(lsu_raddr_d_i, first, last, front))
                   || (lsu_used_i[1] && row_pending(lsu_raddr_e_i, first, last, front));
      end
    end
    // LSU reads (store data, indices) vs. the sequencer and the draining load
    first = 6'(seq_ins_q.uop.vd);
    last  = destination_end(seq_ins_q);
    if (lsu_issue_busy_i && seq_busy_i && older(seq_tag_q, lsu_tag_q, rob_head_i) && has_destination(seq_ins_q)) begin
      lsu_stall_o = (lsu_used_i[0] && row_pending(lsu_raddr_d_i, first, last, seq_front_i))
                 || (lsu_used_i[1] && row_pending(lsu_raddr_e_i, first, last, seq_front_i));
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      seq_ins_q   <= '0;
      lsu_ins_q   <= '0;
      seq_tag_q   <= '0;
      lsu_tag_q   <= '0;
      for (int unsigned d = 0; d < Drains; d++) begin
        drain_ins_q[d] <= '0;
        drain_tag_q[d] <= '0;
      end
    end else begin
      if (lsu_to_drain_i) begin   // into the LSU's next free entry
        drain_ins_q[drain_slot(drain_rd, 32'(drain_n))] <= lsu_ins_q;
        drain_tag_q[drain_slot(drain_rd, 32'(drain_n))] <= lsu_tag_q;
      end
      if (dispatch_i && head_lsu_i) begin
        lsu_ins_q <= head_i;
        lsu_tag_q <= dispatch_tag_i;
      end else if (dispatch_i) begin
        seq_ins_q <= head_i;
        seq_tag_q <= dispatch_tag_i;
      end
    end
  end

endmodule
