// t1-style vector unit (zve32f subset, see COVERAGE.md), top level.
//
// Coprocessor port (cosim_pkg): the decoder answers legal/illegal in the issue
// handshake; legal instructions wait in an issue queue, so the core can go on with
// scalar work. Two engines run instructions at the same time: arithmetic in
// vec_seq (DLEN bits per cycle through Lanes 32-bit lanes) and memory in vec_lsu
// (own memory port, MemW bits per beat). Instructions leave the queue in order;
// a scoreboard on register groups (PIPELINE.md) decides when the queue head may
// start, and a row interlock lets a consumer follow its producer row by row
// (chaining, Chain = 1). A reorder buffer of RobDepth entries keeps completions
// in order: each instruction completes once, with its sequence number. `busy_o` is high while anything is queued or executing;
// `mem_pending_o` while a vector memory instruction is queued or executing (the
// core's ordering rules). The dbg_* port reads and writes VRF rows while the unit
// is idle (test benches only; tie off in an SoC).
module vec_unit
  import cosim_pkg::*;
  import vec_pkg::*;
#(
  parameter int unsigned VLEN        = 256,
  parameter int unsigned DLEN        = 64,
  parameter int unsigned MemW        = 64,
  parameter int unsigned IqDepth     = 8,
  parameter int unsigned Outstanding = 8,     // memory requests in flight (power of 2)
  parameter int unsigned RobDepth    = 4,     // instructions in flight (power of 2)
  parameter int unsigned Drains      = 4,     // memory instructions waiting for their responses
  parameter bit          Chain       = 1'b1,  // 0: a consumer waits for its producer to finish
  // Memory regions (config memory_map): element accesses outside them fault
  parameter logic [31:0] Mem0Base    = 32'h2000_0000,
  parameter logic [32:0] Mem0Size    = 33'h0_2000_0000,
  parameter logic [31:0] Mem1Base    = 32'h4000_0000,
  parameter logic [32:0] Mem1Size    = 33'h0_8000_0000,
  parameter logic [31:0] Mem2Base    = 32'hC000_0000,
  parameter logic [32:0] Mem2Size    = 33'h0_0100_0000,
  localparam int unsigned Rows = 32 * VLEN / DLEN,
  localparam int unsigned RowW = $clog2(Rows),
  localparam int unsigned MB   = MemW / 8
) (
  input  logic            clk_i,            // in: clock
  input  logic            rst_ni,           // in: asynchronous reset, active low
  // coprocessor issue
  input  logic            cop_req_valid_i,  // in: the core presents an instruction
  output logic            cop_req_ready_o,  // out: it is answered this cycle
  input  cop_req_t        cop_req_i,        // in: instruction, operands, vtype/vl/vstart, seq
  output logic            cop_illegal_o,    // out: the answer: illegal (else accepted)
  output cop_ack_t        cop_ack_o,        // out: memory fault / ff trim (vec_memcheck)
  // coprocessor completion
  output logic            cop_cmp_valid_o,  // out: an instruction completes (in order)
  output cop_cmp_t        cop_cmp_o,        // out: its record: seq, x/f result, vxsat, fflags
  // memory port (every request, store included, gets one in-order response)
  output logic            mem_req_valid_o,  // out: a request is presented
  input  logic            mem_req_ready_i,  // in: the port accepts it this cycle
  output logic [31:0]     mem_req_addr_o,   // out: its MemW-aligned address
  output logic            mem_req_we_o,     // out: a store
  output logic [MB-1:0]   mem_req_be_o,     // out: its byte enables
  output logic [MemW-1:0] mem_req_wdata_o,  // out: its store data
  input  logic            mem_rsp_valid_i,  // in: the oldest request's response
  input  logic [MemW-1:0] mem_rsp_rdata_i,  // in: its load data
  // status
  output logic            busy_o,           // out: something is queued or executing
  output logic            mem_pending_o,    // out: a vector memory instruction is queued or executing
  output logic            lane_active_o,    // out: the lanes do element-wise work this cycle
  output vec_perf_t       perf_o,           // out: performance events of this cycle (vec_pkg)
  // debug access to the VRF (idle only; test benches, tied off in an SoC)
  input  logic            dbg_we_i,         // in: write row dbg_addr_i
  input  logic [RowW-1:0] dbg_addr_i,       // in: the row read or written
  input  logic [DLEN-1:0] dbg_wdata_i,      // in: the data written
  output logic [DLEN-1:0] dbg_rdata_o       // out: the row read
);

  localparam int unsigned IqPtrW = $clog2(IqDepth);   // IqDepth: a power of 2

  // ---------------------------------------------------------------------------
  // Clock gate: every flop below runs on gclk, which stops while the unit holds no
  // work and nothing arrives (a scalar stretch of a program then costs the
  // simulation nothing here; vec_clock_gate.sv). Enabled while anything is queued,
  // executing or outstanding at the memory port, while a request or a debug write
  // is presented or the fault checker walks, and for two cycles after, so flops
  // that settle once the last instruction has left (idle state, cleared pulses) do
  // so before the clock stops. Stopping it never changes a flop: each holds its value.
  // ---------------------------------------------------------------------------
  logic       gclk, unit_active;
  logic [1:0] active_tail_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) active_tail_q <= '1;
    else active_tail_q <= {active_tail_q[0], unit_active};
  end
  vec_clock_gate u_clock_gate (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .en_i   (unit_active || (|active_tail_q)),
    .gclk_o (gclk)
  );

  // ---------------------------------------------------------------------------
  // Decode and issue queue
  // ---------------------------------------------------------------------------
  logic  legal;
  vuop_t decoded_uop;
  logic [1:0] decoded_sew;

  vec_decoder u_decoder (
    .insn_i   (cop_req_i.insn),
    .vtype_i  (cop_req_i.vtype),
    .vstart_i (cop_req_i.vstart),
    .frm_i    (cop_req_i.frm),
    .legal_o  (legal),
    .uop_o    (decoded_uop),
    .sew_o    (decoded_sew)
  );

  vinsn_t        iq_q [IqDepth];
  logic [IqPtrW-1:0] iq_write_q, iq_read_q;
  logic [IqPtrW:0]   iq_count_q;
  logic          iq_push, iq_pop;
  vinsn_t        new_instruction;

  always_comb begin
    new_instruction        = '0;
    new_instruction.uop    = decoded_uop;
    new_instruction.rs1    = cop_req_i.rs1[31:0];
    new_instruction.rs2    = cop_req_i.rs2[31:0];
    new_instruction.frs1   = cop_req_i.frs1;
    new_instruction.sew    = decoded_sew;
    new_instruction.lmul   = cop_req_i.vtype[2:0];
    new_instruction.vl     = cop_req_i.vl;
    new_instruction.vstart = cop_req_i.vstart;
    new_instruction.frm    = cop_req_i.frm;
    new_instruction.vxrm   = cop_req_i.vxrm;
    new_instruction.seq    = cop_req_i.seq;
    new_instruction.stop   = cop_ack_o.fault || cop_ack_o.trim;
    new_instruction.stop_i = cop_ack_o.elem;
    new_instruction.stop_f = cop_ack_o.field;
  end

  // Memory instructions are checked for faults before they are accepted
  logic            check_hold, check_walking;
  logic [4:0]      check_rreg;
  logic [VLEN-1:0] v0;
  logic [DLEN-1:0] rdata_e;
  logic [VLEN-1:0] rdata_f;
  logic            idle, check_final;
  vec_memcheck #(
    .VLEN(VLEN), .DLEN(DLEN),
    .Mem0Base(Mem0Base), .Mem0Size(Mem0Size), .Mem1Base(Mem1Base), .Mem1Size(Mem1Size),
    .Mem2Base(Mem2Base), .Mem2Size(Mem2Size)
  ) u_memcheck (
    .clk_i (gclk), .rst_ni,
    .check_i   (cop_req_valid_i && legal && (decoded_uop.cls == VC_LOAD || decoded_uop.cls == VC_STORE)),
    .fire_i    (iq_push),
    .req_i     (cop_req_i),
    .uop_i     (decoded_uop),
    .final_i   (check_final),
    .v0_i      (v0),
    .rreg_o    (check_rreg),
    .rdata_i   (rdata_f),
    .walking_o (check_walking),
    .hold_o    (check_hold),
    .ack_o     (cop_ack_o)
  );

  assign cop_req_ready_o = (iq_count_q != (IqPtrW + 1)'(IqDepth)) && !check_hold;
  assign cop_illegal_o   = !legal;
  assign iq_push         = cop_req_valid_i && cop_req_ready_o && legal;

  localparam int unsigned TagW = $clog2(RobDepth);   // RobDepth: a power of 2

  // ---------------------------------------------------------------------------
  // Engines and their instructions
  // ---------------------------------------------------------------------------
  vinsn_t   head;
  logic     head_mem, head_lsu;
  assign head     = iq_q[iq_read_q];
  assign head_mem = (head.uop.cls == VC_LOAD) || (head.uop.cls == VC_STORE);

  logic            dispatch;   // the queue head starts this cycle
  logic [TagW-1:0] seq_tag, lsu_done_tag, rob_head, rob_tail;
  logic   lsu_issue_busy, lsu_to_drain, lsu_done_drain;
  localparam int unsigned DrainW = (Drains > 1) ? $clog2(Drains) : 1;
  logic [DrainW-1:0] lsu_drain_rd;   // the LSU's drain queue: oldest entry, entries
  logic [DrainW:0]   lsu_drain_n;
  logic [RowW:0] lsu_drain_front;

  logic   seq_ready, seq_busy, seq_done, seq_stall;
  logic   lsu_ready, lsu_busy, lsu_done, lsu_stall;
  // Splats run on either engine: the sequencer when it can take one, else the LSU
  // (in a matmul the sequencer is busy with the FMAs the splats feed).
  assign head_lsu = head_mem || (is_splat_op(head.uop.cls, head.uop.op, head.uop.src) && lsu_ready && (!lsu_busy || !seq_ready));
  logic [31:0] seq_xres;
  logic   seq_vxsat;
  logic [4:0] seq_fflags;
  logic [2:0] seq_used;
  logic [1:0] lsu_used;
  logic [RowW:0] seq_front, lsu_front;
  logic [15:0] seq_lane_ops, seq_fma_ops, lsu_mem_bytes;

  logic [RowW-1:0] seq_raddr_a, seq_raddr_b, seq_raddr_c, seq_waddr, lsu_raddr_d, lsu_raddr_e, lsu_waddr, port_d_raddr;
  logic [DLEN-1:0] seq_wdata, seq_wbe, lsu_wdata, lsu_wbe, port1_wdata, port1_wbe;
  logic            seq_we, lsu_we, port1_we;
  logic [DLEN-1:0] rdata_a, rdata_b, rdata_c, rdata_d;

  vec_seq #(.VLEN(VLEN), .DLEN(DLEN)) u_seq (
    .clk_i (gclk), .rst_ni,
    .start_i       (dispatch && !head_lsu),
    .ins_i         (head),
    .ready_o       (seq_ready),
    .stall_i       (seq_stall),
    .busy_o        (seq_busy),
    .done_o        (seq_done),
    .xres_o        (seq_xres),
    .vxsat_o       (seq_vxsat),
    .fflags_o      (seq_fflags),
    .raddr_a_o     (seq_raddr_a),
    .rdata_a_i     (rdata_a),
    .raddr_b_o     (seq_raddr_b),
    .rdata_b_i     (rdata_b),
    .raddr_c_o     (seq_raddr_c),
    .rdata_c_i     (rdata_c),
    .v0_i          (v0),
    .we_o          (seq_we),
    .waddr_o       (seq_waddr),
    .wdata_o       (seq_wdata),
    .wbe_o         (seq_wbe),
    .rd_used_o     (seq_used),
    .wfront_o      (seq_front),
    .lane_active_o (lane_active_o),
    .perf_lane_ops_o (seq_lane_ops),
    .perf_fma_ops_o  (seq_fma_ops)
  );

  logic lsu_pending;
  vec_lsu #(.VLEN(VLEN), .DLEN(DLEN), .MemW(MemW), .Outstanding(Outstanding), .Drains(Drains)) u_lsu (
    .clk_i (gclk), .rst_ni,
    .start_i         (dispatch && head_lsu),
    .ins_i           (head),
    .ready_o         (lsu_ready),
    .stall_i         (lsu_stall),
    .busy_o          (lsu_busy),
    .req_busy_o      (lsu_issue_busy),
    .drain_rd_o      (lsu_drain_rd),
    .drain_n_o       (lsu_drain_n),
    .to_drain_o      (lsu_to_drain),
    .done_o          (lsu_done),
    .done_drain_o    (lsu_done_drain),
    .dfront_o        (lsu_drain_front),
    .rd_used_o       (lsu_used),
    .wfront_o        (lsu_front),
    .mem_bytes_o     (lsu_mem_bytes),
    .raddr_a_o       (lsu_raddr_d),
    .rdata_a_i       (rdata_d),
    .raddr_b_o       (lsu_raddr_e),
    .rdata_b_i       (rdata_e),
    .v0_i            (v0),
    .we_o            (lsu_we),
    .waddr_o         (lsu_waddr),
    .wdata_o         (lsu_wdata),
    .wbe_o           (lsu_wbe),
    .mem_req_valid_o,
    .mem_req_ready_i,
    .mem_req_addr_o,
    .mem_req_we_o,
    .mem_req_be_o,
    .mem_req_wdata_o,
    .mem_rsp_valid_i,
    .mem_rsp_rdata_i,
    .mem_pending_o   (lsu_pending)
  );

  // ---------------------------------------------------------------------------
  // Reorder buffer (vec_rob.sv): in-order completions, the WAW answer
  // ---------------------------------------------------------------------------
  logic            rob_room, rob_empty, rob_has_mem, destination_busy;
  logic [31:0]     rob_writes;
  logic            head_destination;
  logic [5:0]      head_first, head_end;
  assign head_destination = has_destination(head);
  assign head_first       = 6'(head.uop.vd);
  assign head_end         = destination_end(head);

  vec_rob #(.RobDepth(RobDepth)) u_rob (
    .clk_i (gclk), .rst_ni,
    .dispatch_i          (dispatch),
    .dispatch_ins_i      (head),
    .dispatch_memory_i   (head_mem),
    .tail_o              (rob_tail),
    .room_o              (rob_room),
    .seq_done_i          (seq_done),
    .seq_tag_i           (seq_tag),
    .seq_xres_i          (seq_xres),
    .seq_vxsat_i         (seq_vxsat),
    .seq_fflags_i        (seq_fflags),
    .lsu_done_i          (lsu_done),
    .lsu_tag_i           (lsu_done_tag),
    .query_destination_i (head_destination),
    .query_first_i       (head_first),
    .query_end_i         (head_end),
    .destination_busy_o  (destination_busy),
    .head_o              (rob_head),
    .cmp_valid_o         (cop_cmp_valid_o),
    .cmp_o               (cop_cmp_o),
    .empty_o             (rob_empty),
    .memory_pending_o    (rob_has_mem),
    .writes_o            (rob_writes)
  );

  // ---------------------------------------------------------------------------
  // Scoreboard (vec_scoreboard.sv): may the queue head start; row interlock
  // ---------------------------------------------------------------------------
  logic war, raw, engine_ready, iq_nonempty;
  vec_scoreboard #(.VLEN(VLEN), .DLEN(DLEN), .RobDepth(RobDepth), .Chain(Chain), .Drains(Drains)) u_scoreboard (
    .clk_i (gclk), .rst_ni,
    .head_i            (head),
    .head_lsu_i        (head_lsu),
    .dispatch_i        (dispatch),
    .dispatch_tag_i    (rob_tail),
    .rob_head_i        (rob_head),
    .war_o             (war),
    .raw_o             (raw),
    .seq_busy_i        (seq_busy),
    .seq_done_i        (seq_done),
    .seq_used_i        (seq_used),
    .seq_raddr_a_i     (seq_raddr_a),
    .seq_raddr_b_i     (seq_raddr_b),
    .seq_raddr_c_i     (seq_raddr_c),
    .seq_front_i       (seq_front),
    .lsu_issue_busy_i  (lsu_issue_busy),
    .lsu_drain_rd_i    (lsu_drain_rd),
    .lsu_drain_n_i     (lsu_drain_n),
    .lsu_done_i        (lsu_done),
    .lsu_done_drain_i  (lsu_done_drain),
    .lsu_to_drain_i    (lsu_to_drain),
    .lsu_used_i        (lsu_used),
    .lsu_raddr_d_i     (lsu_raddr_d),
    .lsu_raddr_e_i     (lsu_raddr_e),
    .lsu_front_i       (lsu_front),
    .lsu_drain_front_i (lsu_drain_front),
    .seq_tag_o         (seq_tag),
    .lsu_done_tag_o    (lsu_done_tag),
    .seq_stall_o       (seq_stall),
    .lsu_stall_o       (lsu_stall)
  );

  assign engine_ready = head_lsu ? lsu_ready : seq_ready;
  assign iq_nonempty  = (iq_count_q != '0);
  assign dispatch     = iq_nonempty && engine_ready && rob_room && !destination_busy && !war && !raw;
  assign iq_pop       = dispatch;

  // ---------------------------------------------------------------------------
  // Issue queue
  // ---------------------------------------------------------------------------
  always_ff @(posedge gclk or negedge rst_ni) begin
    if (!rst_ni) begin
      iq_write_q <= '0;
      iq_read_q  <= '0;
      iq_count_q <= '0;
      for (int unsigned q = 0; q < IqDepth; q++) iq_q[q] <= '0;
    end else begin
      if (iq_push) begin
        iq_q[iq_write_q] <= new_instruction;
        iq_write_q       <= iq_write_q + 1'b1;
      end
      if (iq_pop) iq_read_q <= iq_read_q + 1'b1;
      iq_count_q <= iq_count_q + (IqPtrW + 1)'(iq_push) - (IqPtrW + 1)'(iq_pop);
    end
  end

  // ---------------------------------------------------------------------------
  // Register file: sequencer on ports a/b/c and write port 0, LSU on d/e and
  // write port 1; the debug port uses the LSU's ports while the unit is idle
  // ---------------------------------------------------------------------------
  assign idle    = rob_empty && !iq_nonempty;
  assign port_d_raddr = idle ? dbg_addr_i : lsu_raddr_d;
  always_comb begin
    port1_we  = lsu_we;
    port1_wdata  = lsu_wdata;
    port1_wbe = lsu_wbe;
    if (idle) begin
      port1_we  = dbg_we_i;
      port1_wdata  = dbg_wdata_i;
      port1_wbe = '1;
    end
  end
  assign dbg_rdata_o = rdata_d;

  vec_vrf #(.VLEN(VLEN), .DLEN(DLEN)) u_vrf (
    .clk_i (gclk), .rst_ni,
    .raddr_a_i (seq_raddr_a),
    .rdata_a_o (rdata_a),
    .raddr_b_i (seq_raddr_b),
    .rdata_b_o (rdata_b),
    .raddr_c_i (seq_raddr_c),
    .rdata_c_o (rdata_c),
    .raddr_d_i (port_d_raddr),
    .rdata_d_o (rdata_d),
    .raddr_e_i (lsu_raddr_e),
    .rdata_e_o (rdata_e),
    .rreg_f_i  (check_rreg),
    .rdata_f_o (rdata_f),
    .v0_o      (v0),
    .we0_i     (seq_we),
    .waddr0_i  (seq_waddr),
    .wdata0_i  (seq_wdata),
    .wbe0_i    (seq_wbe),
    .we1_i     (idle ? port1_we : lsu_we),
    .waddr1_i  (idle ? dbg_addr_i : lsu_waddr),
    .wdata1_i  (port1_wdata),
    .wbe1_i    (port1_wbe)
  );

  // The checker's walk reads v0 (masked accesses) and the index group (indexed
  // ones): final once no queued or running instruction writes them
  logic [31:0] iq_writes, check_reads;
  always_comb begin
    iq_writes = '0;
    for (int unsigned q = 0; q < IqDepth; q++) begin
      vinsn_t x;
      x = iq_q[IqPtrW'(iq_read_q + IqPtrW'(q))];
      if ((IqPtrW + 1)'(q) < iq_count_q && has_destination(x))
        iq_writes = iq_writes | register_range(6'(x.uop.vd), destination_end(x));
    end
    check_reads = '0;
    if (!decoded_uop.vm) check_reads[0] = 1'b1;
    if (decoded_uop.lsmode == LS_INDEXED)
      check_reads = check_reads | register_range(6'(decoded_uop.vs2), 6'(decoded_uop.vs2)
                                     + emul_regs(decoded_uop.ieew, decoded_sew, cop_req_i.vtype[2:0]));
  end
  assign check_final = ((iq_writes | rob_writes) & check_reads) == '0;

  // ---------------------------------------------------------------------------
  // Status
  // ---------------------------------------------------------------------------
  logic iq_has_mem;
  always_comb begin
    iq_has_mem = 1'b0;
    for (int unsigned q = 0; q < IqDepth; q++) begin
      if ((IqPtrW + 1)'(q) < iq_count_q
          && (iq_q[IqPtrW'(iq_read_q + IqPtrW'(q))].uop.cls == VC_LOAD
              || iq_q[IqPtrW'(iq_read_q + IqPtrW'(q))].uop.cls == VC_STORE)) begin
        iq_has_mem = 1'b1;
      end
    end
  end

  assign busy_o        = !idle;
  assign mem_pending_o = rob_has_mem || iq_has_mem;

  // ---------------------------------------------------------------------------
  // Performance events (one sample per cycle; PIPELINE.md gives the meanings)
  // ---------------------------------------------------------------------------
  logic [$clog2(Outstanding + 1):0] outstanding_q;   // memory requests awaiting a response
  always_ff @(posedge gclk or negedge rst_ni) begin
    if (!rst_ni) outstanding_q <= '0;
    else outstanding_q <= outstanding_q + ($bits(outstanding_q))'(mem_req_valid_o && mem_req_ready_i)
                        - ($bits(outstanding_q))'(mem_rsp_valid_i);
  end
  assign unit_active = !idle || cop_req_valid_i || dbg_we_i || check_walking || seq_busy || lsu_busy
                       || mem_req_valid_o || mem_rsp_valid_i || (outstanding_q != '0);

  always_comb begin
    perf_o              = '0;
    perf_o.arith_busy   = seq_busy;
    perf_o.mem_busy     = lsu_busy;
    perf_o.lane_ops     = seq_lane_ops;
    perf_o.fma_ops      = seq_fma_ops;
    perf_o.mem_bytes    = lsu_mem_bytes;
    perf_o.port_busy    = mem_req_valid_o || (outstanding_q != '0);
    perf_o.stall_struct = iq_nonempty && !(engine_ready && rob_room);
    perf_o.stall_dep    = (iq_nonempty && engine_ready && rob_room && (destination_busy || war || raw))
                       || seq_stall || lsu_stall;
    perf_o.stall_mem    = mem_req_valid_o && !mem_req_ready_i;
    perf_o.stall_issue  = idle;
    perf_o.iq_full      = !cop_req_ready_o;
  end

`ifdef COSIM_ASSERT
  // Assertions (sim/rtl/vector/README.md "Assertions"): each message states the rule.
  // The unit's flops run on gclk; the checks run on the free clock, so they also see
  // the cycles the gate stops.
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));

  // A memory request waiting for the port does not change until accepted.
  MemReqHeld: assert property (@(posedge clk_i) disable iff (!checking)
      $past(mem_req_valid_o && !mem_req_ready_i)
      |-> mem_req_valid_o && mem_req_addr_o == $past(mem_req_addr_o) && mem_req_we_o == $past(mem_req_we_o)
          && (!mem_req_we_o || (mem_req_wdata_o == $past(mem_req_wdata_o)
                                && mem_req_be_o == $past(mem_req_be_o))))
    else $error("vector memory request changed or withdrawn while waiting for the port");
  // The port moves at most MemW bits a cycle.
  MemBytesWithinPort: assert property (@(posedge clk_i) disable iff (!checking)
      perf_o.mem_bytes <= 16'(MB))
    else $error("more bytes on the vector memory port in one cycle than its width");
  // The debug port writes the register file only while no instruction is in flight.
  DebugWriteIdle: assert property (@(posedge clk_i) disable iff (!checking) dbg_we_i |-> idle)
    else $error("debug register-file write while instructions are in flight");
`endif

  logic unused;
  assign unused = ^{lsu_pending, cop_req_i.rs1[63:32], cop_req_i.rs2[63:32]};

endmodule
