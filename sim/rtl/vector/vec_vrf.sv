// Vector register file: 32 registers of VLEN bits, stored as rows of DLEN bits
// (register r occupies rows r*VLEN/DLEN .. (r+1)*VLEN/DLEN-1, so a register group
// is a contiguous run of rows). Six combinational row read ports (a/b/c for the
// arithmetic sequencer, d/e for the load/store unit), one whole-register read port
// (the memory checker's indices), the whole of v0 for masks,
// and two row write ports (0: sequencer, 1: load/store unit) with per-bit enables:
// bits not enabled (masked-off, prestart and tail elements) keep their value,
// which is how the unit leaves agnostic elements undisturbed. The scoreboard
// never lets both ports write one row in a cycle; if they did, port 1 would win
// on the bits both enable.
module vec_vrf #(
  parameter int unsigned VLEN = 256,
  parameter int unsigned DLEN = 64,
  localparam int unsigned Rows = 32 * VLEN / DLEN,
  localparam int unsigned RowW = $clog2(Rows)
) (
  input  logic            clk_i,      // in: clock (the unit's gated clock)
  input  logic            rst_ni,     // in: asynchronous reset, active low (rows to zero)
  // read ports: the row at the address, combinationally
  input  logic [RowW-1:0] raddr_a_i,  // in: row of read port a (sequencer: vs2)
  output logic [DLEN-1:0] rdata_a_o,  // out: that row
  input  logic [RowW-1:0] raddr_b_i,  // in: row of read port b (sequencer: vs1)
  output logic [DLEN-1:0] rdata_b_o,  // out: that row
  input  logic [RowW-1:0] raddr_c_i,  // in: row of read port c (sequencer: vd, the addend)
  output logic [DLEN-1:0] rdata_c_o,  // out: that row
  input  logic [RowW-1:0] raddr_d_i,  // in: row of read port d (LSU store data, or the debug port)
  output logic [DLEN-1:0] rdata_d_o,  // out: that row
  input  logic [RowW-1:0] raddr_e_i,  // in: row of read port e (LSU: indices)
  output logic [DLEN-1:0] rdata_e_o,  // out: that row
  input  logic [4:0]      rreg_f_i,   // in: register of read port f (memory checker: indices)
  output logic [VLEN-1:0] rdata_f_o,  // out: that register, all its rows
  output logic [VLEN-1:0] v0_o,       // out: v0 as a whole (mask, carries)
  // write ports: bits enabled in wbe are written at the clock edge
  input  logic            we0_i,      // in: write port 0 (sequencer) writes this cycle
  input  logic [RowW-1:0] waddr0_i,   // in: its row
  input  logic [DLEN-1:0] wdata0_i,   // in: its data
  input  logic [DLEN-1:0] wbe0_i,     // in: its per-bit enable
  input  logic            we1_i,      // in: write port 1 (LSU, or the debug port) writes this cycle
  input  logic [RowW-1:0] waddr1_i,   // in: its row
  input  logic [DLEN-1:0] wdata1_i,   // in: its data
  input  logic [DLEN-1:0] wbe1_i      // in: its per-bit enable; wins over port 0 on a shared row
);

  localparam int unsigned RowsPerReg = VLEN / DLEN;

  logic [DLEN-1:0] mem_q [Rows];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned r = 0; r < Rows; r++) mem_q[r] <= '0;
    end else begin
      if (we0_i && !(we1_i && waddr1_i == waddr0_i)) begin
        mem_q[waddr0_i] <= (mem_q[waddr0_i] & ~wbe0_i) | (wdata0_i & wbe0_i);
      end
      if (we1_i && we0_i && waddr1_i == waddr0_i) begin
        mem_q[waddr1_i] <= (((mem_q[waddr1_i] & ~wbe0_i) | (wdata0_i & wbe0_i)) & ~wbe1_i)
                           | (wdata1_i & wbe1_i);
      end else if (we1_i) begin
        mem_q[waddr1_i] <= (mem_q[waddr1_i] & ~wbe1_i) | (wdata1_i & wbe1_i);
      end
    end
  end

  assign rdata_a_o = mem_q[raddr_a_i];
  assign rdata_b_o = mem_q[raddr_b_i];
  assign rdata_c_o = mem_q[raddr_c_i];
  assign rdata_d_o = mem_q[raddr_d_i];
  assign rdata_e_o = mem_q[raddr_e_i];

  always_comb begin
    for (int unsigned r = 0; r < RowsPerReg; r++) begin
      v0_o[r*DLEN +: DLEN]      = mem_q[r];
      rdata_f_o[r*DLEN +: DLEN] = mem_q[RowW'(32'(rreg_f_i) * RowsPerReg + r)];
    end
  end

endmodule
