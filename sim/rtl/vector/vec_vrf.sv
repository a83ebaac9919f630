// Vector register file: 32 registers of VLEN bits, stored as rows of DLEN bits
// (register r occupies rows r*VLEN/DLEN .. (r+1)*VLEN/DLEN-1, so a register group
// is a contiguous run of rows). Three combinational row read ports, the whole of
// v0 for masks, and one row write port with a per-bit enable: bits not enabled
// (masked-off, prestart and tail elements) keep their value, which is how the
// unit leaves agnostic elements undisturbed.
module vec_vrf #(
  parameter int unsigned VLEN = 256,
  parameter int unsigned DLEN = 64,
  localparam int unsigned Rows = 32 * VLEN / DLEN,
  localparam int unsigned RowW = $clog2(Rows)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [RowW-1:0] raddr_a_i,
  output logic [DLEN-1:0] rdata_a_o,
  input  logic [RowW-1:0] raddr_b_i,
  output logic [DLEN-1:0] rdata_b_o,
  input  logic [RowW-1:0] raddr_c_i,
  output logic [DLEN-1:0] rdata_c_o,
  output logic [VLEN-1:0] v0_o,
  input  logic            we_i,
  input  logic [RowW-1:0] waddr_i,
  input  logic [DLEN-1:0] wdata_i,
  input  logic [DLEN-1:0] wbe_i
);

  localparam int unsigned RowsPerReg = VLEN / DLEN;

  logic [DLEN-1:0] mem_q [Rows];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned r = 0; r < Rows; r++) mem_q[r] <= '0;
    end else if (we_i) begin
      mem_q[waddr_i] <= (mem_q[waddr_i] & ~wbe_i) | (wdata_i & wbe_i);
    end
  end

  assign rdata_a_o = mem_q[raddr_a_i];
  assign rdata_b_o = mem_q[raddr_b_i];
  assign rdata_c_o = mem_q[raddr_c_i];

  always_comb begin
    for (int unsigned r = 0; r < RowsPerReg; r++) v0_o[r*DLEN +: DLEN] = mem_q[r];
  end

endmodule
