// Scratchpad of the Gemmini-style unit (README.md beside this file): Banks
// banks of BankRows rows of Dim int8 elements. Each bank has one write port
// (per-element write mask: an mvin of fewer than Dim columns keeps the rest of
// the row) and one read port with a registered output (read latency 1 cycle).
// A read and a write of the same row in the same cycle return the old row
// (read-first); a read issued the cycle after a write sees the written row.
// Ports are per bank; a global scratchpad row r lives in bank r / BankRows at
// row r % BankRows (contiguous banks, as Gemmini and sim/gemmini/model.py).
// BankRows must be a power of two. rd_data_o holds its value between reads.
module gemmini_spad
  import gemmini_pkg::*;
#(
  parameter int unsigned Dim      = 4,
  parameter int unsigned Banks    = 4,
  parameter int unsigned BankRows = 1024,
  localparam int unsigned BankAddrW   = BankRows > 1 ? $clog2(BankRows) : 1,
  localparam int unsigned RowW    = Dim * InputW
) (
  input  logic                              clk_i,      // clock
  input  logic                              rst_ni,     // asynchronous reset, active low
  input  logic [Banks-1:0]                  wr_en_i,    // per bank: write a row this cycle
  input  logic [Banks-1:0][BankAddrW-1:0]   wr_addr_i,  // ... its row in the bank
  input  logic [Banks-1:0][Dim-1:0]         wr_mask_i,  // ... its element enables
  input  logic [Banks-1:0][RowW-1:0]        wr_data_i,  // ... its int8 elements
  input  logic [Banks-1:0]                  rd_en_i,    // per bank: read a row this cycle
  input  logic [Banks-1:0][BankAddrW-1:0]   rd_addr_i,  // ... its row in the bank
  output logic [Banks-1:0][RowW-1:0]        rd_data_o   // per bank: the row read the cycle before (read-first)
);

  for (genvar b = 0; b < Banks; b++) begin : g_bank
    logic [RowW-1:0] mem_q [BankRows];
    logic [RowW-1:0] rd_q;

    // The array itself has no reset (an SRAM macro); the model's scratchpad
    // starts zeroed, which the Verilator build's --x-initial 0 matches.
    always_ff @(posedge clk_i) begin
      if (wr_en_i[b]) begin
        for (int unsigned e = 0; e < Dim; e++) begin
          if (wr_mask_i[b][e]) mem_q[wr_addr_i[b]][e*InputW +: InputW] <= wr_data_i[b][e*InputW +: InputW];
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) rd_q <= '0;
      else if (rd_en_i[b]) rd_q <= mem_q[rd_addr_i[b]];
    end

    assign rd_data_o[b] = rd_q;
  end

endmodule
