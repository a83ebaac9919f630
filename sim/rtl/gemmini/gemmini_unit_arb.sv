// Bank arbiter of one Gemmini memory (scratchpad or accumulator) for
// gemmini_unit: two write requesters (0: load, 1: exec) and Rd read requesters
// (the unit: 0 exec, 1 store, 2 exec's second fetch lane on the scratchpad),
// one write and one read port per bank (README.md).
//
// Per bank and port, a request wins when no other request wants the bank, or
// when it comes first in the bank's rotating priority; after a contested cycle
// the priority starts after the winner, so no requester starves (with two
// requesters the loser goes first; each waits at most Rd-1 cycles per contest). ready_o is combinational from the valids (a controller's valid must
// not wait for its ready). Read data reach the requester in the cycle after
// the grant, from the bank it was granted (the memories' read latency); the
// routing holds its bank until the next grant, as the memory holds its data.
// Rows are global (bank = row / BankRows).
module gemmini_unit_arb
  import gemmini_pkg::*;
#(
  parameter int unsigned Dim      = 4,
  parameter int unsigned Banks    = 4,
  parameter int unsigned BankRows = 1024,
  parameter int unsigned RowW     = Dim * 8,     // data bits of a row
  parameter int unsigned Rd       = 2,           // read requesters (2 or more)
  localparam int unsigned BankAW   = BankRows > 1 ? $clog2(BankRows) : 1,
  localparam int unsigned RowIdxW = $clog2(Banks * BankRows),
  localparam int unsigned BankW   = Banks > 1 ? $clog2(Banks) : 1,
  localparam int unsigned RdW     = $clog2(Rd)
) (
  input  logic                        clk_i,         // clock
  input  logic                        rst_ni,        // asynchronous reset, active low
  // writers
  input  logic [1:0]                  wr_valid_i,    // per writer (0 load, 1 exec): a row write
  output logic [1:0]                  wr_ready_o,    // ... granted (combinational from the valids)
  input  logic [1:0][RowIdxW-1:0]     wr_row_i,      // its global row
  input  logic [1:0][Dim-1:0]         wr_mask_i,     // its column enables
  input  logic [1:0][RowW-1:0]        wr_data_i,     // its data
  input  logic [1:0]                  wr_acc_i,      // accumulate into the row (else overwrite)
  input  logic [1:0][IdW-1:0]         wr_id_i,       // the writing command's id
  // readers
  input  logic [Rd-1:0]               rd_valid_i,    // per reader: a row read
  output logic [Rd-1:0]               rd_ready_o,    // ... granted (combinational from the valids)
  input  logic [Rd-1:0][RowIdxW-1:0]  rd_row_i,      // its global row
  output logic [Rd-1:0][RowW-1:0]     rd_data_o,     // the row, the cycle after the grant
  // the memory's banks
  output logic [Banks-1:0]            m_wr_en_o,     // per bank: write this cycle
  output logic [Banks-1:0]            m_wr_acc_o,    // ... accumulating
  output logic [Banks-1:0][BankAW-1:0] m_wr_addr_o,  // its row in the bank
  output logic [Banks-1:0][Dim-1:0]   m_wr_mask_o,   // its column enables
  output logic [Banks-1:0][RowW-1:0]  m_wr_data_o,   // its data
  output logic [Banks-1:0][IdW-1:0]   m_wr_id_o,     // the writing command's id
  output logic [Banks-1:0]            m_rd_en_o,     // per bank: read this cycle
  output logic [Banks-1:0][BankAW-1:0] m_rd_addr_o,  // its row in the bank
  input  logic [Banks-1:0][RowW-1:0]  m_rd_data_i    // per bank: the row read (the cycle after)
);

  function automatic logic [BankW-1:0] bank_of(logic [RowIdxW-1:0] row);
    if (Banks == 1) return '0;
    return BankW'(row >> BankAW);
  endfunction

  logic [Banks-1:0] wr_prio_q, wr_prio_d;  // 1: writer 1 first
  logic [Banks-1:0][RdW-1:0] rd_ptr_q, rd_ptr_d;  // the reader that comes first on the bank
  logic [Rd-1:0][BankW-1:0] rd_bank_q;

  // place of reader r in the rotation starting at p (0: first)
  function automatic logic [RdW:0] rd_place(int unsigned r, logic [RdW-1:0] p);
    return r >= int'(p) ? (RdW + 1)'(r - int'(p)) : (RdW + 1)'(r + Rd - int'(p));
  endfunction

  // ready_o[r] says whether r would win: it depends on the other requester's
  // request and the priority, never on r's own valid (no combinational loop
  // through a controller whose valid waits for a ready of another port)
  logic [1:0][BankW-1:0] wb;
  logic [Rd-1:0][BankW-1:0] rb;
  always_comb begin
    for (int unsigned r = 0; r < 2; r++) wb[r] = bank_of(wr_row_i[r]);
    for (int unsigned r = 0; r < Rd; r++) rb[r] = bank_of(rd_row_i[r]);
    // writer 0 loses a shared bank when writer 1 holds its priority, and the other way round
    wr_ready_o[0] = !(wr_valid_i[1] && wb[1] == wb[0] && wr_prio_q[wb[0]]);
    wr_ready_o[1] = !(wr_valid_i[0] && wb[0] == wb[1] && !wr_prio_q[wb[1]]);
  end

  // a reader loses when another reader of its bank comes earlier in the bank's
  // rotation (one block per reader: a reader's valid may depend on another's ready)
  for (genvar r = 0; r < Rd; r++) begin : g_rd_ready
    always_comb begin
      rd_ready_o[r] = 1'b1;
      for (int unsigned o = 0; o < Rd; o++) begin
        if (o != r && rd_valid_i[o] && rb[o] == rb[r] && rd_place(o, rd_ptr_q[rb[r]]) < rd_place(r, rd_ptr_q[rb[r]]))
          rd_ready_o[r] = 1'b0;
      end
    end
  end

  always_comb begin
    logic [1:0] gw;
    logic [Rd-1:0] gr;
    logic       pw;
    logic [RdW-1:0] pr;
    logic [RdW:0] nreq;
    gw = wr_valid_i & wr_ready_o;
    gr = rd_valid_i & rd_ready_o;
    pw = 1'b0;
    pr = '0;
    rd_data_o   = '0;
    m_wr_en_o   = '0;
    m_wr_acc_o  = '0;
    m_wr_addr_o = '0;
    m_wr_mask_o = '0;
    m_wr_data_o = '0;
    m_wr_id_o   = '0;
    m_rd_en_o   = '0;
    m_rd_addr_o = '0;
    wr_prio_d   = wr_prio_q;
    rd_ptr_d    = rd_ptr_q;
    for (int unsigned b = 0; b < Banks; b++) begin
      if ((gw[0] && wb[0] == BankW'(b)) || (gw[1] && wb[1] == BankW'(b))) begin
        pw = gw[1] && wb[1] == BankW'(b);
        m_wr_en_o[b]   = 1'b1;
        m_wr_acc_o[b]  = wr_acc_i[pw];
        m_wr_addr_o[b] = BankAW'(wr_row_i[pw]);
        m_wr_mask_o[b] = wr_mask_i[pw];
        m_wr_data_o[b] = wr_data_i[pw];
        m_wr_id_o[b]   = wr_id_i[pw];
      end
      nreq = '0;
      for (int unsigned r = 0; r < Rd; r++) begin
        if (rd_valid_i[r] && rb[r] == BankW'(b)) nreq = nreq + 1'b1;
        if (gr[r] && rb[r] == BankW'(b)) begin
          pr = RdW'(r);
          m_rd_en_o[b]   = 1'b1;
          m_rd_addr_o[b] = BankAW'(rd_row_i[r]);
        end
      end
      // after a contested cycle the rotation starts after the winner
      if (nreq > (RdW + 1)'(1)) rd_ptr_d[b] = 32'(pr) + 1 >= Rd ? '0 : RdW'(32'(pr) + 1);
    end
    // after a contested cycle the loser goes first
    if (wr_valid_i == 2'b11 && wb[0] == wb[1]) wr_prio_d[wb[0]] = !gw[1];
    for (int unsigned r = 0; r < Rd; r++) rd_data_o[r] = m_rd_data_i[rd_bank_q[r]];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_prio_q <= '0;
      rd_ptr_q  <= '0;
      rd_bank_q <= '0;
    end else begin
      wr_prio_q <= wr_prio_d;
      rd_ptr_q  <= rd_ptr_d;
      for (int unsigned r = 0; r < Rd; r++) begin
        if (rd_valid_i[r] && rd_ready_o[r]) rd_bank_q[r] <= bank_of(rd_row_i[r]);
      end
    end
  end

endmodule
