// Allocation stage of the Gemmini unit (gemmini_unit.sv; UNIT.md "Allocation"):
// hands the ROB one command a cycle, in program order, from the instruction
// buffer or, while a loop_ws runs, from the loop unroller (gemmini_loop_ws).
//
// A FunctDrain goes first when a command that is not preload / compute follows
// one that is. loop_ws and its configs go to the unroller, flush, clkgate_en and
// the counter complete here. Each command carries the rows and bytes it reads
// and writes (gemmini_unit_sets); a preload's C rows wait for the compute that
// takes it, which carries them as its own write set and arms the preload in the
// ROB.
module gemmini_unit_alloc
  import gemmini_pkg::*;
  import gemmini_unit_pkg::*;
#(
  parameter int unsigned Dim            = 4,
  parameter int unsigned SpRows         = 1024,
  parameter int unsigned AccRows        = 256,
  parameter int unsigned MaxBlockLen    = 16,
  parameter int unsigned MaxBlockLenAcc = 4,
  parameter int unsigned TagW           = 4
) (
  input  logic            clk_i,            // in: clock
  input  logic            rst_ni,           // in: asynchronous reset, active low
  // the instruction buffer (gemmini_unit_issue)
  input  logic            buf_valid_i,      // in: an instruction waits
  input  logic [6:0]      buf_funct_i,      // in: ... its funct
  input  logic [63:0]     buf_rs1_i,        // in: ... its rs1
  input  logic [63:0]     buf_rs2_i,        // in: ... its rs2
  input  logic [TagW-1:0] buf_tag_i,        // in: ... its table entry
  output logic            buf_pop_o,        // out: it leaves the buffer
  output logic            close_o,          // out: table entry close_tag_o has all its commands
  output logic [TagW-1:0] close_tag_o,      // out: its instruction-table tag
  output logic            counter_o,        // out: the buffer's instruction is the counter instruction
  // to the ROB
  output logic            alloc_valid_o,    // out: a command to allocate
  input  logic            alloc_ready_i,    // in: ... the ROB takes it
  output gm_ctl_e         alloc_ctl_o,      // out: ... its controller
  output logic [6:0]      alloc_funct_o,    // out: ... its funct (FunctDrain for an inserted drain)
  output logic [63:0]     alloc_rs1_o,      // out: ... its rs1
  output logic [63:0]     alloc_rs2_o,      // out: ... its rs2
  output gm_sets_t        alloc_sets_o,     // out: ... what it reads and writes
  output logic [TagW-1:0] alloc_tag_o,      // out: ... the table entry it belongs to
  input  logic [IdW-1:0]  alloc_id_i,       // in: the ROB id it gets
  output logic            arm_valid_o,      // out: the waiting preload (arm_id_o) may issue
  output logic [IdW-1:0]  arm_id_o,         // out: the preload's ROB id
  // status
  output logic            loop_o,           // out: a loop_ws runs
  output logic            loop_busy_o       // out: the unroller holds work
);

  logic            loop_in_valid, loop_in_ready, loop_out_valid, loop_out_ready, loop_busy;
  logic [6:0]      loop_out_funct;
  logic [63:0]     loop_out_rs1, loop_out_rs2;
  logic            loop_q, loop_wait_q;
  logic [TagW-1:0] loop_tag_q;
  logic            last_mesh_q;

  logic            src_valid;
  logic [6:0]      src_funct;
  logic [63:0]     src_rs1, src_rs2;
  logic [TagW-1:0] src_tag;
  logic            src_mesh, need_drain, loop_end;
  gm_ctl_e         src_ctl;
  logic            rob_alloc;

  always_comb begin
    src_valid     = loop_q ? loop_out_valid : buf_valid_i;
    src_funct = loop_q ? loop_out_funct : buf_funct_i;
    src_rs1   = loop_q ? loop_out_rs1 : buf_rs1_i;
    src_rs2   = loop_q ? loop_out_rs2 : buf_rs2_i;
    src_tag   = loop_q ? loop_tag_q : buf_tag_i;
    src_mesh  = src_funct inside {7'd4, 7'd5, 7'd6};
    unique case (src_funct)
      7'd0:              src_ctl = src_rs1[1:0] == 2'd1 ? CtlLoad : (src_rs1[1:0] == 2'd2 ? CtlStore : CtlExec);
      7'd1, 7'd2, 7'd14: src_ctl = CtlLoad;
      7'd3:              src_ctl = CtlStore;
      7'd4, 7'd5, 7'd6:  src_ctl = CtlExec;
      default:           src_ctl = CtlNone;
    endcase
    need_drain = src_valid && last_mesh_q && !src_mesh;
  end

  // the loop's instruction completes when its last command is allocated
  assign loop_end = loop_q && !loop_wait_q && !loop_busy && !loop_out_valid;

  always_comb begin
    alloc_valid_o = 1'b0;
    alloc_ctl_o   = CtlExec;
    alloc_funct_o = FunctDrain;
    alloc_rs1_o   = '0;
    alloc_rs2_o   = '0;
    loop_in_valid   = 1'b0;
    loop_out_ready  = 1'b0;
    buf_pop_o     = 1'b0;
    close_o       = 1'b0;
    close_tag_o   = buf_tag_i;
    counter_o     = 1'b0;
    if (need_drain) begin
      alloc_valid_o = 1'b1;
    end else if (src_valid && src_ctl != CtlNone) begin
      alloc_valid_o = 1'b1;
      alloc_ctl_o   = src_ctl;
      alloc_funct_o = src_funct;
      alloc_rs1_o   = src_rs1;
      alloc_rs2_o   = src_rs2;
      if (alloc_ready_i) begin
        if (loop_q) begin
          loop_out_ready = 1'b1;
        end else begin
          buf_pop_o = 1'b1;
          close_o   = 1'b1;
        end
      end
    end else if (src_valid && !loop_q) begin
      // loop_ws and its configs go to the unroller; flush, clkgate_en and the
      // counter complete here
      if (src_funct inside {[7'd8 : 7'd13]}) begin
        loop_in_valid = 1'b1;
        buf_pop_o   = loop_in_ready;
        close_o     = loop_in_ready && src_funct != 7'd8;
      end else begin
        buf_pop_o = 1'b1;
        close_o   = 1'b1;
        counter_o = src_funct == 7'd126;
      end
    end
    if (loop_end) begin
      close_o     = 1'b1;
      close_tag_o = loop_tag_q;
    end
  end

  assign rob_alloc   = alloc_valid_o && alloc_ready_i;
  assign alloc_tag_o = src_tag;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      loop_q      <= 1'b0;
      loop_wait_q <= 1'b0;
      loop_tag_q  <= '0;
      last_mesh_q <= 1'b0;
    end else begin
      loop_wait_q <= 1'b0;
      if (loop_in_valid && loop_in_ready && src_funct == 7'd8) begin
        loop_q      <= 1'b1;
        loop_wait_q <= 1'b1;
        loop_tag_q  <= buf_tag_i;
      end else if (loop_end) begin
        loop_q <= 1'b0;
      end
      if (rob_alloc) last_mesh_q <= need_drain ? 1'b0 : src_mesh;
    end
  end

  gemmini_loop_ws #(
    .Dim(Dim), .SpRows(SpRows), .AccRows(AccRows), .MaxBlockLen(MaxBlockLen), .MaxBlockLenAcc(MaxBlockLenAcc)
  ) u_loop (
    .clk_i, .rst_ni,
    .in_valid_i  (loop_in_valid),
    .in_ready_o  (loop_in_ready),
    .in_funct_i  (buf_funct_i),
    .in_rs1_i    (buf_rs1_i),
    .in_rs2_i    (buf_rs2_i),
    .out_valid_o (loop_out_valid),
    .out_ready_i (loop_out_ready),
    .out_funct_o (loop_out_funct),
    .out_rs1_o   (loop_out_rs1),
    .out_rs2_o   (loop_out_rs2),
    .busy_o      (loop_busy)
  );

  gm_sets_t sets;
  gemmini_unit_sets #(.Dim(Dim)) u_sets (
    .clk_i, .rst_ni,
    .funct_i  (alloc_funct_o),
    .rs1_i    (alloc_rs1_o),
    .rs2_i    (alloc_rs2_o),
    .update_i (rob_alloc),
    .sets_o   (sets)
  );

  // The preload waiting for its compute (allocation order).
  logic           pending_q, is_compute;
  logic [IdW-1:0] pending_id_q;
  gm_rows_t       pending_write_q;
  assign is_compute  = alloc_funct_o inside {7'd4, 7'd5};
  assign arm_valid_o = rob_alloc && is_compute && pending_q;
  assign arm_id_o    = pending_id_q;
  always_comb begin
    alloc_sets_o = sets;
    if (is_compute && pending_q) alloc_sets_o.wr = pending_write_q;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pending_q       <= 1'b0;
      pending_id_q    <= '0;
      pending_write_q <= '0;
    end else if (rob_alloc) begin
      if (alloc_funct_o == 7'd6) begin
        pending_q       <= 1'b1;
        pending_id_q    <= alloc_id_i;
        pending_write_q <= sets.wr;
      end else if (is_compute) begin
        pending_q <= 1'b0;
      end
    end
  end

  assign loop_o      = loop_q;
  assign loop_busy_o = loop_busy;

`ifdef COSIM_ASSERT
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));

  // A command of the instruction buffer (or a drain inserted before it) offered
  // to the ROB stays, unchanged, until taken. The unroller's offer may change:
  // it offers a load until the look-ahead is ready, then the compute.
  AllocHeld: assert property (@(posedge clk_i) disable iff (!checking)
    alloc_valid_o && !alloc_ready_i && !loop_q |=>
    alloc_valid_o && $stable(alloc_funct_o) && $stable(alloc_rs1_o) && $stable(alloc_rs2_o) && $stable(alloc_tag_o))
    else $error("gemmini allocation withdrew or changed a command before the ROB took it");
  // An inserted drain comes only between a mesh command and one that is not.
  DrainAfterMesh: assert property (@(posedge clk_i) disable iff (!checking)
    alloc_valid_o && alloc_funct_o == FunctDrain |-> last_mesh_q)
    else $error("gemmini allocation inserted a drain after a command that is not a mesh command");
  LoopBufferQuiet: assert property (@(posedge clk_i) disable iff (!checking) loop_q |-> !buf_pop_o)
    else $error("gemmini allocation took a buffered instruction while a loop_ws runs");
`endif

endmodule
