// Reorder buffer of the vector unit: one entry per dispatched, not yet completed
// instruction, in dispatch order. The engines finish entries out of order (the
// sequencer and the LSU run side by side); the head entry completes on the
// coprocessor port once it has finished, in the cycle it finishes at the earliest,
// so every instruction completes exactly once, in order, with its sequence number.
// It also answers the scoreboard's WAW question: does an older, not yet completed
// instruction write a register of the given destination range?
module vec_rob
  import cosim_pkg::*;
  import vec_pkg::*;
#(
  parameter int unsigned RobDepth = 4,   // instructions in flight (power of 2)
  localparam int unsigned TagW = $clog2(RobDepth)
) (
  input  logic            clk_i,               // in: clock
  input  logic            rst_ni,              // in: asynchronous reset, active low
  // dispatch: the queue head enters entry tail_o
  input  logic            dispatch_i,          // in: an instruction is dispatched this cycle
  input  vinsn_t          dispatch_ins_i,      // in: the dispatched instruction
  input  logic            dispatch_memory_i,   // in: it is a load or store
  output logic [TagW-1:0] tail_o,              // out: the entry (tag) a dispatch takes
  output logic            room_o,              // out: an entry is free, or one completes now
  // engine results
  input  logic            seq_done_i,          // in: the sequencer finishes entry seq_tag_i
  input  logic [TagW-1:0] seq_tag_i,           // in: the sequencer's entry
  input  logic [31:0]     seq_xres_i,          // in: its x/f result
  input  logic            seq_vxsat_i,         // in: its vxsat
  input  logic [4:0]      seq_fflags_i,        // in: its fflags
  input  logic            lsu_done_i,          // in: the LSU finishes entry lsu_tag_i
  input  logic [TagW-1:0] lsu_tag_i,           // in: the LSU's finishing entry
  // WAW query of the scoreboard
  input  logic            query_destination_i, // in: the queue head writes registers
  input  logic [5:0]      query_first_i,       // in: its first destination register
  input  logic [5:0]      query_end_i,         // in: one past its last destination register
  output logic            destination_busy_o,  // out: an older, uncompleted entry writes one
  // completion and status
  output logic [TagW-1:0] head_o,              // out: the oldest entry (tag)
  output logic            cmp_valid_o,         // out: the head entry completes this cycle
  output cop_cmp_t        cmp_o,               // out: its completion record
  output logic            empty_o,             // out: no instruction in flight
  output logic            memory_pending_o,    // out: a load or store is in flight
  output logic [31:0]     writes_o             // out: registers an entry in flight writes (bit r: vr)
);

  logic [RobDepth-1:0] valid_q, finished_q, memory_q, destination_q, xwrite_q, fwrite_q, vxsat_q;
  logic [7:0]          seq_q    [RobDepth];
  logic [4:0]          rd_q     [RobDepth];
  logic [5:0]          first_q  [RobDepth];   // destination registers [first, end)
  logic [5:0]          end_q    [RobDepth];
  logic [31:0]         xres_q   [RobDepth];
  logic [4:0]          fflags_q [RobDepth];
  logic [TagW-1:0]     head_q, tail_q;
  logic [TagW:0]       count_q;

  logic head_seq_done, head_lsu_done;
  assign head_seq_done = seq_done_i && (seq_tag_i == head_q);
  assign head_lsu_done = lsu_done_i && (lsu_tag_i == head_q);
  assign cmp_valid_o   = (count_q != '0) && (finished_q[head_q] || head_seq_done || head_lsu_done);
  assign room_o        = (count_q != (TagW + 1)'(RobDepth)) || cmp_valid_o;
  assign head_o        = head_q;
  assign tail_o        = tail_q;
  assign empty_o       = (count_q == '0);
  assign memory_pending_o = |(valid_q & memory_q);

  // for the memory checker: an index register or v0 is final when no entry writes it
  always_comb begin
    writes_o = '0;
    for (int unsigned j = 0; j < RobDepth; j++) begin
      if (valid_q[j] && destination_q[j]) writes_o = writes_o | register_range(first_q[j], end_q[j]);
    end
  end

  // WAW: an older destination not completed yet (the commit trace reads a
  // destination one cycle after its completion, so no younger write may land first)
  always_comb begin
    destination_busy_o = 1'b0;
    for (int unsigned j = 0; j < RobDepth; j++) begin
      if (valid_q[j] && destination_q[j] && !(cmp_valid_o && TagW'(j) == head_q) && query_destination_i
          && first_q[j] < query_end_i && query_first_i < end_q[j]) begin
        destination_busy_o = 1'b1;
      end
    end
  end

  // the head's record: from its entry, or from the sequencer finishing it now
  always_comb begin
    cmp_o      = '0;
    cmp_o.seq  = seq_q[head_q];
    cmp_o.x_we = xwrite_q[head_q];
    cmp_o.f_we = fwrite_q[head_q];
    cmp_o.rd   = rd_q[head_q];
    if (finished_q[head_q]) begin
      cmp_o.wdata  = {32'b0, xres_q[head_q]};
      cmp_o.fflags = fflags_q[head_q];
      cmp_o.vxsat  = vxsat_q[head_q];
    end else if (head_seq_done) begin
      cmp_o.wdata  = {32'b0, seq_xres_i};
      cmp_o.fflags = seq_fflags_i;
      cmp_o.vxsat  = seq_vxsat_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q       <= '0;
      finished_q    <= '0;
      memory_q      <= '0;
      destination_q <= '0;
      xwrite_q      <= '0;
      fwrite_q      <= '0;
      vxsat_q       <= '0;
      for (int unsigned j = 0; j < RobDepth; j++) begin
        seq_q[j]    <= '0;
        rd_q[j]     <= '0;
        first_q[j]  <= '0;
        end_q[j]    <= '0;
        xres_q[j]   <= '0;
        fflags_q[j] <= '0;
      end
      head_q  <= '0;
      tail_q  <= '0;
      count_q <= '0;
    end else begin
      // engine results (before a new entry: a finishing entry is never the new one)
      if (seq_done_i) begin
        finished_q[seq_tag_i] <= 1'b1;
        xres_q[seq_tag_i]     <= seq_xres_i;
        vxsat_q[seq_tag_i]    <= seq_vxsat_i;
        fflags_q[seq_tag_i]   <= seq_fflags_i;
      end
      if (lsu_done_i) finished_q[lsu_tag_i] <= 1'b1;
      if (cmp_valid_o) begin
        valid_q[head_q] <= 1'b0;
        head_q          <= head_q + 1'b1;
      end
      if (dispatch_i) begin
        valid_q[tail_q]       <= 1'b1;
        finished_q[tail_q]    <= 1'b0;
        memory_q[tail_q]      <= dispatch_memory_i;
        destination_q[tail_q] <= query_destination_i;
        xwrite_q[tail_q]      <= dispatch_ins_i.uop.xwrite;
        fwrite_q[tail_q]      <= dispatch_ins_i.uop.fwrite;
        vxsat_q[tail_q]       <= 1'b0;
        seq_q[tail_q]         <= dispatch_ins_i.seq;
        rd_q[tail_q]          <= dispatch_ins_i.uop.vd;
        first_q[tail_q]       <= query_first_i;
        end_q[tail_q]         <= query_end_i;
        xres_q[tail_q]        <= '0;
        fflags_q[tail_q]      <= '0;
        tail_q                <= tail_q + 1'b1;
      end
      count_q <= count_q + (TagW + 1)'(dispatch_i) - (TagW + 1)'(cmp_valid_o);
    end
  end

`ifdef COSIM_ASSERT
  // Assertions (sim/rtl/vector/README.md "Assertions"): each message states the rule.
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));

  // Each entry completes once: the head completes only while it is in flight, and a
  // dispatch never overwrites an entry in flight (room_o said so).
  CompleteInFlight: assert property (@(posedge clk_i) disable iff (!checking)
      cmp_valid_o |-> valid_q[head_q])
    else $error("completion of a reorder-buffer entry not in flight");
  DispatchWithRoom: assert property (@(posedge clk_i) disable iff (!checking)
      dispatch_i |-> !valid_q[tail_q] || (cmp_valid_o && tail_q == head_q))
    else $error("dispatch into a reorder-buffer entry still in flight");
  // An engine finishes only an entry in flight that has not finished yet.
  SeqFinishesOnce: assert property (@(posedge clk_i) disable iff (!checking)
      seq_done_i |-> valid_q[seq_tag_i] && !finished_q[seq_tag_i])
    else $error("sequencer finished a reorder-buffer entry twice or one not in flight");
  LsuFinishesOnce: assert property (@(posedge clk_i) disable iff (!checking)
      lsu_done_i |-> valid_q[lsu_tag_i] && !finished_q[lsu_tag_i])
    else $error("LSU finished a reorder-buffer entry twice or one not in flight");
  // Sequence numbers in flight are distinct, so each one completes once.
  logic seq_repeated;
  always_comb begin
    seq_repeated = 1'b0;
    for (int unsigned j = 0; j < RobDepth; j++) begin
      if (valid_q[j] && TagW'(j) != head_q && seq_q[j] == seq_q[head_q]) seq_repeated = 1'b1;
    end
  end
  OneCompletionPerSeq: assert property (@(posedge clk_i) disable iff (!checking)
      cmp_valid_o |-> !seq_repeated)
    else $error("two instructions in flight with one sequence number");
  // No dispatch writes a register group an older, uncompleted instruction writes
  // (the commit trace reads a group the cycle after its completion).
  DispatchToFreeGroup: assert property (@(posedge clk_i) disable iff (!checking)
      dispatch_i |-> !destination_busy_o)
    else $error("dispatch to a register group an older instruction still writes");
  CountInRange: assert property (@(posedge clk_i) disable iff (!checking)
      count_q <= (TagW + 1)'(RobDepth))
    else $error("reorder-buffer count beyond its depth");
`endif

  // Entries record the instruction's completion fields only.
  logic unused;
  assign unused = ^{dispatch_ins_i};

endmodule
