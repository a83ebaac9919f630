// Accumulator of the Gemmini-style unit (README.md beside this file): Banks
// banks of BankRows rows of Dim int32 elements. Each bank has one write port
// with a per-element mask and a mode per write (wr_acc_i = 0: overwrite,
// 1: accumulate, a 32-bit wrapping add onto the stored element, as the
// accumulate bit of an accumulator address in sim/gemmini/model.py), and one
// read port with a registered output (read latency 1 cycle).
//
// Write pipeline, per bank (no stall, one write a cycle):
//   cycle t    the request is registered and the old row is read (s1);
//   cycle t+1  the merged row (masked elements: new value or old + new; the
//              others: old) is computed and written into the array (s2).
// The row in s2 is forwarded to every read sampled in cycle t+1 (the read of a
// following accumulate in s1 and the external read port), so back-to-back
// accumulates to one row chain correctly and a read issued in the cycle after
// the write (or later) returns the written row. A read issued in the same cycle
// as the write returns the row before it. Internally a bank reads twice a cycle
// (the read port and the accumulate's old row) and writes once.
// A global accumulator row r lives in bank r / BankRows at row r % BankRows.
// BankRows must be a power of two. rd_data_o holds its value between reads.
module gemmini_acc
  import gemmini_pkg::*;
#(
  parameter int unsigned Dim      = 4,
  parameter int unsigned Banks    = 2,
  parameter int unsigned BankRows = 128,
  localparam int unsigned BankAddrW   = BankRows > 1 ? $clog2(BankRows) : 1,
  localparam int unsigned RowW    = Dim * AccW
) (
  input  logic                              clk_i,      // clock
  input  logic                              rst_ni,     // asynchronous reset, active low
  input  logic [Banks-1:0]                  wr_en_i,    // per bank: write a row this cycle
  input  logic [Banks-1:0]                  wr_acc_i,   // ... accumulate onto it (else overwrite)
  input  logic [Banks-1:0][BankAddrW-1:0]   wr_addr_i,  // ... its row in the bank
  input  logic [Banks-1:0][Dim-1:0]         wr_mask_i,  // ... its element enables
  input  logic [Banks-1:0][RowW-1:0]        wr_data_i,  // ... its int32 elements
  input  logic [Banks-1:0]                  rd_en_i,    // per bank: read a row this cycle
  input  logic [Banks-1:0][BankAddrW-1:0]   rd_addr_i,  // ... its row in the bank
  output logic [Banks-1:0][RowW-1:0]        rd_data_o   // per bank: the row read the cycle before
);

  for (genvar b = 0; b < Banks; b++) begin : g_bank
    logic [RowW-1:0]  mem_q [BankRows];
    // s1: the registered request and the old row it reads
    logic             s1_en_q, s1_acc_q;
    logic [BankAddrW-1:0] s1_addr_q;
    logic [Dim-1:0]   s1_mask_q;
    logic [RowW-1:0]  s1_data_q, s1_old_q, s1_old_d;
    // s2: the merged row written this cycle
    logic [RowW-1:0]  s2_row;
    logic [RowW-1:0]  rd_q, rd_d;

    always_comb begin
      for (int unsigned e = 0; e < Dim; e++) begin
        if (!s1_mask_q[e]) begin
          s2_row[e*AccW +: AccW] = s1_old_q[e*AccW +: AccW];
        end else if (s1_acc_q) begin
          s2_row[e*AccW +: AccW] = s1_old_q[e*AccW +: AccW] + s1_data_q[e*AccW +: AccW];
        end else begin
          s2_row[e*AccW +: AccW] = s1_data_q[e*AccW +: AccW];
        end
      end
    end

    // Reads sampled this cycle see the row being written (forwarding from s2).
    always_comb begin
      s1_old_d = (s1_en_q && s1_addr_q == wr_addr_i[b]) ? s2_row : mem_q[wr_addr_i[b]];
      rd_d     = (s1_en_q && s1_addr_q == rd_addr_i[b]) ? s2_row : mem_q[rd_addr_i[b]];
    end

    // The array has no reset (an SRAM macro); it starts zeroed under the
    // test build's --x-initial 0, as the model's accumulator does.
    always_ff @(posedge clk_i) begin
      if (s1_en_q) mem_q[s1_addr_q] <= s2_row;
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        s1_en_q   <= 1'b0;
        s1_acc_q  <= 1'b0;
        s1_addr_q <= '0;
        s1_mask_q <= '0;
        s1_data_q <= '0;
        s1_old_q  <= '0;
        rd_q      <= '0;
      end else begin
        s1_en_q <= wr_en_i[b];
        if (wr_en_i[b]) begin
          s1_acc_q  <= wr_acc_i[b];
          s1_addr_q <= wr_addr_i[b];
          s1_mask_q <= wr_mask_i[b];
          s1_data_q <= wr_data_i[b];
          s1_old_q  <= s1_old_d;
        end
        if (rd_en_i[b]) rd_q <= rd_d;
      end
    end

    assign rd_data_o[b] = rd_q;
  end

endmodule
