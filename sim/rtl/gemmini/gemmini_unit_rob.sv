// Gemmini unit's ROB (UNIT.md, "The top"): every command gets an entry (its id
// is the entry's index), in program order, with the rows and DRAM bytes it reads
// and writes (gemmini_unit_sets). A queue per controller (load, exec, store)
// holds its entries in order; the queue's head goes to its controller when no
// older entry of another controller that is not done conflicts with it:
//   read after write, write after read, write after write on overlapping rows
//   of the same memory; DRAM bytes an mvout writes and an mvin reads (either way).
// Each controller keeps its own commands' order itself (UNIT.md), so entries of
// the same controller never hold each other back. Entries are done when their
// controller says so (done_*), and leave the ROB in order from the oldest.
// tag_busy_o[t]: an entry of instruction-table tag t is not done yet (the top
// completes a core instruction when its tag is no longer busy).
module gemmini_unit_rob
  import gemmini_pkg::*;
  import gemmini_unit_pkg::*;
#(
  parameter int unsigned Depth = 32,   // entries (a power of two, at most 2^IdW)
  parameter int unsigned Tags  = 16,   // instruction-table entries (a power of two)
  localparam int unsigned PW   = $clog2(Depth),
  localparam int unsigned TagW = $clog2(Tags)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // allocation (program order)
  input  logic                     alloc_valid_i,
  output logic                     alloc_ready_o,
  input  gm_ctl_e                  alloc_ctl_i,     // CtlLoad, CtlExec or CtlStore
  input  logic [6:0]               alloc_funct_i,
  input  logic [63:0]              alloc_rs1_i,
  input  logic [63:0]              alloc_rs2_i,
  input  gm_sets_t                 alloc_sets_i,
  input  logic [TagW-1:0]          alloc_tag_i,
  output logic [IdW-1:0]           alloc_id_o,
  // to the controllers (0 load, 1 exec, 2 store)
  output logic [2:0]               q_valid_o,
  input  logic [2:0]               q_ready_i,
  output gm_cmd_t [2:0]            q_cmd_o,
  // completions from the controllers
  input  logic [2:0]               done_valid_i,
  input  logic [2:0][IdW-1:0]      done_id_i,
  // status
  output logic [Tags-1:0]          tag_busy_o,
  output logic                     empty_o,
  output logic [2:0]               stall_hazard_o   // a queue head waits for an older command
);

  typedef struct packed {
    gm_ctl_e         ctl;
    logic [TagW-1:0] tag;
    logic [6:0]      funct;
    logic [63:0]     rs1, rs2;
    gm_sets_t        sets;
  } entry_t;

  entry_t         ent_q [Depth];
  logic [Depth-1:0] v_q, done_q;
  logic [PW-1:0]  head_q, tail_q;
  logic [PW:0]    cnt_q;

  // per-controller queues of entry indices
  logic [PW-1:0]  fifo_q [3][Depth];
  logic [PW-1:0]  fh_q [3], ft_q [3];
  logic [PW:0]    fc_q [3];

  function automatic logic rows_ov(gm_rows_t a, gm_rows_t b);
    return a.v && b.v && a.acc == b.acc && a.lo < b.hi && b.lo < a.hi;
  endfunction

  function automatic logic dram_ov(gm_dram_t a, gm_dram_t b);
    return a.v && b.v && a.lo < b.hi && b.lo < a.hi;
  endfunction

  // does `e` (younger) have to wait for `o` (older)?
  function automatic logic conflict(gm_sets_t o, gm_sets_t e);
    return rows_ov(o.wr, e.rd0) || rows_ov(o.wr, e.rd1) || rows_ov(o.rd0, e.wr) || rows_ov(o.rd1, e.wr)
        || rows_ov(o.wr, e.wr) || dram_ov(o.dwr, e.drd) || dram_ov(o.drd, e.dwr);
  endfunction

  assign alloc_ready_o = cnt_q != (PW + 1)'(Depth);
  assign alloc_id_o    = IdW'(tail_q);
  assign empty_o       = cnt_q == '0;

  logic alloc;
  assign alloc = alloc_valid_i && alloc_ready_o;

  // heads and their hazards
  logic [2:0] blocked;
  always_comb begin
    logic [PW-1:0] hi, age_h, age_o;
    blocked = '0;
    hi = '0;
    age_h = '0;
    age_o = '0;
    for (int unsigned c = 0; c < 3; c++) begin
      hi = fifo_q[c][fh_q[c]];
      age_h = hi - head_q;
      for (int unsigned o = 0; o < Depth; o++) begin
        age_o = PW'(o) - head_q;
        if (v_q[o] && !done_q[o] && age_o < age_h && ent_q[o].ctl != gm_ctl_e'(c)
            && conflict(ent_q[o].sets, ent_q[hi].sets)) begin
          blocked[c] = 1'b1;
        end
      end
      q_valid_o[c]       = fc_q[c] != '0 && !blocked[c];
      q_cmd_o[c].funct   = ent_q[hi].funct;
      q_cmd_o[c].rs1     = ent_q[hi].rs1;
      q_cmd_o[c].rs2     = ent_q[hi].rs2;
      q_cmd_o[c].id      = IdW'(hi);
      stall_hazard_o[c]  = fc_q[c] != '0 && blocked[c];
    end
  end

  always_comb begin
    tag_busy_o = '0;
    for (int unsigned o = 0; o < Depth; o++) begin
      if (v_q[o] && !done_q[o]) tag_busy_o[ent_q[o].tag] = 1'b1;
    end
  end

  logic retire;
  assign retire = v_q[head_q] && done_q[head_q];

  always_ff @(posedge clk_i) begin
    if (alloc) begin
      ent_q[tail_q] <= '{ctl: alloc_ctl_i, tag: alloc_tag_i, funct: alloc_funct_i, rs1: alloc_rs1_i,
                         rs2: alloc_rs2_i, sets: alloc_sets_i};
      fifo_q[alloc_ctl_i][ft_q[alloc_ctl_i]] <= tail_q;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v_q    <= '0;
      done_q <= '0;
      head_q <= '0;
      tail_q <= '0;
      cnt_q  <= '0;
      for (int unsigned c = 0; c < 3; c++) begin
        fh_q[c] <= '0;
        ft_q[c] <= '0;
        fc_q[c] <= '0;
      end
    end else begin
      for (int unsigned c = 0; c < 3; c++) begin
        if (done_valid_i[c]) done_q[PW'(done_id_i[c])] <= 1'b1;
      end
      if (retire) begin
        v_q[head_q] <= 1'b0;
        head_q      <= head_q + 1'b1;
      end
      if (alloc) begin
        v_q[tail_q]    <= 1'b1;
        done_q[tail_q] <= 1'b0;
        tail_q         <= tail_q + 1'b1;
      end
      cnt_q <= cnt_q + (PW + 1)'(alloc) - (PW + 1)'(retire);
      for (int unsigned c = 0; c < 3; c++) begin
        logic push, pop;
        push = alloc && alloc_ctl_i == gm_ctl_e'(c);
        pop  = q_valid_o[c] && q_ready_i[c];
        if (push) ft_q[c] <= ft_q[c] + 1'b1;
        if (pop) fh_q[c] <= fh_q[c] + 1'b1;
        fc_q[c] <= fc_q[c] + (PW + 1)'(push) - (PW + 1)'(pop);
      end
    end
  end

endmodule
