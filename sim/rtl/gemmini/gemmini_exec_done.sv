// Completions of the execute controller (gemmini_exec.sv): the ids of the
// commands done this cycle (up to Pushes, from the intake, the fetch, the stream
// and the write stage) enter a queue in push order and leave one a cycle on
// done_valid_o. The controller accepts a command only while fewer than Depth are
// held (accepted, their done not left), so the queue never overflows.
module gemmini_exec_done
  import gemmini_pkg::*;
#(
  parameter int unsigned Pushes = 7,
  parameter int unsigned Depth  = 16,  // at most Depth commands held
  localparam int unsigned DepthW = $clog2(Depth)
) (
  input  logic                          clk_i,         // in: clock
  input  logic                          rst_ni,        // in: asynchronous reset, active low
  input  logic                          accept_i,      // in: a command is accepted
  output logic                          room_o,        // out: one more command may be held
  output logic                          held_o,        // out: a command is held
  input  logic [Pushes-1:0]             push_i,        // in: command push_id_i[i] is done
  input  logic [Pushes-1:0][IdW-1:0]    push_id_i,     // in: ... its id
  output logic                          done_valid_o,  // out: a done leaves (always taken)
  output logic [IdW-1:0]                done_id_o      // out: ... its id
);

  logic [IdW-1:0]    ids_q [Depth];
  logic [DepthW-1:0] head_q, tail_q;
  logic [DepthW:0]   count_q;
  logic [DepthW:0]   held_q;  // commands accepted whose done has not left

  assign done_valid_o = count_q != '0;
  assign done_id_o    = ids_q[head_q];
  assign room_o       = held_q < (DepthW + 1)'(Depth);
  assign held_o       = held_q != '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q  <= '0;
      tail_q  <= '0;
      count_q <= '0;
      held_q  <= '0;
      for (int i = 0; i < Depth; i++) ids_q[i] <= '0;
    end else begin
      logic [DepthW-1:0] tail;
      logic [DepthW:0]   pushed;
      tail = tail_q;
      pushed = '0;
      for (int i = 0; i < Pushes; i++) begin
        if (push_i[i]) begin
          ids_q[tail] <= push_id_i[i];
          tail = tail + 1'b1;
          pushed = pushed + 1'b1;
        end
      end
      tail_q  <= tail;
      count_q <= count_q + pushed - (DepthW + 1)'(done_valid_o);
      if (done_valid_o) head_q <= head_q + 1'b1;
      held_q <= held_q + (DepthW + 1)'(accept_i) - (DepthW + 1)'(done_valid_o);
    end
  end

`ifdef COSIM_ASSERT
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));

  // Dones queued never exceed the commands held, nor the held count the depth:
  // a command completes at most once, and only after it was accepted.
  DoneCountInRange: assert property (@(posedge clk_i) disable iff (!checking)
    count_q <= held_q && held_q <= (DepthW + 1)'(Depth))
    else $error("exec completions: %0d queued, %0d held, depth %0d", count_q, held_q, Depth);
  AcceptWithRoom: assert property (@(posedge clk_i) disable iff (!checking) accept_i |-> room_o)
    else $error("exec accepted a command with %0d held", held_q);
`endif

endmodule
