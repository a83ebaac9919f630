// Coprocessor instructions in flight (README.md "Coprocessor port"): what the
// instruction at the head is (vector or custom, scalar result, memory kind),
// how many accepted instructions have not completed, the PC and memory kind of
// each by sequence number, and whether a scalar load or store may pass the
// coprocessor work in flight. Every accepted instruction completes exactly once.
module core_cop_tracker
  import core_pkg::*;
#(
  parameter int unsigned XLEN            = 32,
  parameter bit          CustomFenceOnly = 1'b0,   // custom opcodes are ordered by fence alone
  localparam int unsigned MaxInFlight    = 16,
  localparam int unsigned CountW         = $clog2(MaxInFlight) + 1
) (
  input  logic              clk_i,          // clock
  input  logic              rst_ni,         // asynchronous reset, active low (nothing in flight)

  // The instruction at the head
  input  logic [31:0]       insn_i,         // the instruction word
  output logic              vector_o,       // a vector form (needs mstatus.VS), not custom
  output logic              writes_x_o,     // its completion writes an x register
  output logic              writes_f_o,     // its completion writes an f register

  // Issue and completion
  input  logic              issue_i,        // the coprocessor accepts it this cycle
  input  logic [7:0]        seq_i,          // its sequence number
  input  logic [XLEN-1:0]   pc_i,           // its PC
  input  logic              cmp_valid_i,    // a completion
  input  logic [7:0]        cmp_seq_i,      // ... of this sequence number
  output logic [XLEN-1:0]   cmp_pc_o,       // the PC of the completing instruction
  output logic [CountW-1:0] count_o,        // accepted, not yet completed
  output logic              full_o,         // the core's in-flight limit is reached

  // Ordering of a scalar access against the coprocessor work in flight
  input  logic              mem_store_i,    // the access is a store
  input  logic              mem_mmio_i,     // ... to the MMIO page
  output logic              mem_order_ok_o  // it may go now
);

  localparam int unsigned IdxW = $clog2(MaxInFlight);

  logic [CountW-1:0] count_q, count_d;
  logic [CountW-1:0] read_count_q, read_count_d;    // in flight that read memory
  logic [CountW-1:0] write_count_q, write_count_d;  // in flight that write memory
  logic [XLEN-1:0]   pc_q [MaxInFlight];
  // Memory kind by seq: bit 0 it reads memory, bit 1 it writes memory.
  logic [1:0]        kind_q [MaxInFlight];
  logic [1:0]        kind, cmp_kind;
  logic [2:0]        funct3;
  logic [6:0]        opcode;

  assign opcode = insn_i[6:0];
  assign funct3 = insn_i[14:12];

  assign vector_o   = (opcode == OpOpV) || (opcode == OpLoadFp) || (opcode == OpStoreFp);
  // Scalar results: vmv.x.s / vcpop.m / vfirst.m (OPMVV funct6 010000),
  // vfmv.f.s (OPFVV funct6 010000), RoCC instructions with xd set.
  assign writes_x_o = ((opcode == OpOpV) && funct3 == 3'b010 && insn_i[31:26] == 6'b010000)
                   || (!vector_o && insn_i[14] && insn_i[11:7] != 5'd0);
  assign writes_f_o = (opcode == OpOpV) && funct3 == 3'b001 && insn_i[31:26] == 6'b010000;

  always_comb begin
    if (!vector_o) kind = CustomFenceOnly ? 2'b00 : 2'b11;  // custom (RoCC)
    else if (opcode == OpLoadFp) kind = 2'b01;               // vector load
    else if (opcode == OpStoreFp) kind = 2'b10;              // vector store
    else kind = 2'b00;                                       // vector arithmetic, moves
  end

  // A scalar load waits for older coprocessor instructions that write memory, a
  // scalar store also for those that read it; vector arithmetic never holds them
  // back. The MMIO page (EXIT, PROFILE, UART) waits until the coprocessor is idle.
  always_comb begin
    if (mem_mmio_i) mem_order_ok_o = (count_q == '0);
    else if (mem_store_i) mem_order_ok_o = (write_count_q == '0) && (read_count_q == '0);
    else mem_order_ok_o = (write_count_q == '0);
  end

  assign cmp_kind      = cmp_valid_i ? kind_q[cmp_seq_i[IdxW-1:0]] : 2'b00;
  assign count_d       = count_q + CountW'(issue_i) - CountW'(cmp_valid_i);
  assign read_count_d  = read_count_q + CountW'(issue_i && kind[0]) - CountW'(cmp_kind[0]);
  assign write_count_d = write_count_q + CountW'(issue_i && kind[1]) - CountW'(cmp_kind[1]);
  assign count_o       = count_q;
  assign full_o        = (count_q == CountW'(MaxInFlight));
  assign cmp_pc_o      = pc_q[cmp_seq_i[IdxW-1:0]];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q       <= '0;
      read_count_q  <= '0;
      write_count_q <= '0;
    end else begin
      count_q       <= count_d;
      read_count_q  <= read_count_d;
      write_count_q <= write_count_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (issue_i) begin
      pc_q[seq_i[IdxW-1:0]]   <= pc_i;
      kind_q[seq_i[IdxW-1:0]] <= kind;
    end
  end

`ifdef COSIM_ASSERT
  // Assertions: compiled when sim/verilator_build.py passes --assert (the
  // default; the speed bench builds without them). Each message states the rule.
  // They are checked from the cycle after reset (sim/rtl/cosim_assert_window.sv).
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));
  // One completion per sequence number: which (seq mod MaxInFlight) are in flight.
  logic [MaxInFlight-1:0] in_flight_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) in_flight_q <= '0;
    else begin
      if (issue_i) in_flight_q[seq_i[IdxW-1:0]] <= 1'b1;
      if (cmp_valid_i) in_flight_q[cmp_seq_i[IdxW-1:0]] <= 1'b0;
    end
  end
  IssueBelowLimit: assert property (@(posedge clk_i) disable iff (!checking) issue_i |-> !full_o)
    else $error("coprocessor instruction accepted beyond the core's in-flight limit");
  IssueFreshSeq: assert property (@(posedge clk_i) disable iff (!checking)
      issue_i |-> !in_flight_q[seq_i[IdxW-1:0]])
    else $error("coprocessor sequence number reused while in flight");
  OneCompletionPerSeq: assert property (@(posedge clk_i) disable iff (!checking)
      cmp_valid_i |-> in_flight_q[cmp_seq_i[IdxW-1:0]]
                      || (issue_i && seq_i[IdxW-1:0] == cmp_seq_i[IdxW-1:0]))
    else $error("coprocessor completion for a sequence number not in flight (a second completion?)");
  KindCountsBounded: assert property (@(posedge clk_i) disable iff (!checking)
      read_count_q <= count_q && write_count_q <= count_q)
    else $error("coprocessor memory-kind counters exceed the instructions in flight");
`endif

  // Sequence numbers wrap at 256; MaxInFlight of them index the tables. The
  // register fields travel with the request.
  logic unused;
  assign unused = ^{seq_i, cmp_seq_i, insn_i[25:15]};

endmodule
