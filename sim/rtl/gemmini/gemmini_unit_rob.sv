// Gemmini unit's ROB (UNIT.md, "The top"): every command gets an entry (its id
// is the entry's index), in program order, with the rows and DRAM bytes it reads
// and writes (gemmini_unit_sets). A queue per controller (load, exec, store)
// holds its entries in order; the queue's head goes to its controller when no
// older entry of another controller that is not done conflicts with it:
//   read after write, write after read, write after write on overlapping rows
//   of the same memory; DRAM bytes an mvout writes and an mvin reads (either way).
// Each controller keeps its own commands' order itself (UNIT.md), so entries of
// the same controller never hold each other back. An entry leaves the ROB when
// its controller says it is done (done_*), in any order (a preload whose compute
// never comes must not hold the others back); a dependency matrix, filled at
// allocation, says which entries each one waits for. tag_busy_o[t]: an entry of
// instruction-table tag t is not done yet (the top completes a core instruction
// when its tag is no longer busy), preloads
// excepted (nowait): their C lands when a later compute or drain comes, and only
// the accumulator / scratchpad see it, which the hazards order.
module gemmini_unit_rob
  import gemmini_pkg::*;
  import gemmini_unit_pkg::*;
#(
  parameter int unsigned Depth = 32,   // entries (a power of two, at most 2^IdW)
  parameter int unsigned Tags  = 16,   // instruction-table entries (a power of two)
  localparam int unsigned PW   = $clog2(Depth),
  localparam int unsigned TagW = $clog2(Tags)
) (
  input  logic                     clk_i,           // clock
  input  logic                     rst_ni,          // asynchronous reset, active low
  // allocation (program order)
  input  logic                     alloc_valid_i,   // a command to allocate, in program order
  output logic                     alloc_ready_o,   // ... allocated (a free entry)
  input  gm_ctl_e                  alloc_ctl_i,     // CtlLoad, CtlExec or CtlStore
  input  logic [6:0]               alloc_funct_i,   // its funct
  input  logic [63:0]              alloc_rs1_i,     // its rs1
  input  logic [63:0]              alloc_rs2_i,     // its rs2
  input  gm_sets_t                 alloc_sets_i,    // the rows and DRAM bytes it reads and writes
  input  logic [TagW-1:0]          alloc_tag_i,     // its core instruction's table tag
  input  logic                     alloc_nowait_i,  // the instruction's completion does not wait for it
  input  logic                     alloc_preload_i, // a preload: its C write counts once armed
  // a compute consumed the pending preload `arm_id_i`: from now on its C rows are
  // written in program order (before this cycle's allocation: not for it)
  input  logic                     arm_valid_i,     // a compute consumed a pending preload
  input  logic [IdW-1:0]           arm_id_i,        // ... this one
  output logic [IdW-1:0]           alloc_id_o,      // the id (entry) the allocated command gets
  // to the controllers (0 load, 1 exec, 2 store)
  output logic [2:0]               q_valid_o,       // per controller (0 load, 1 exec, 2 store): a command for it
  input  logic [2:0]               q_ready_i,       // ... taken
  output gm_cmd_t [2:0]            q_cmd_o,         // the command
  // completions from the controllers
  input  logic [2:0]               done_valid_i,    // per controller: a command completes
  input  logic [2:0][IdW-1:0]      done_id_i,       // ... its id
  // status
  output logic [Tags-1:0]          tag_busy_o,      // per table tag: an entry of it (no preload) is not done
  output logic                     empty_o,         // no entry in use
  output logic                     active_o,        // an entry that is no preload is not done
  output logic [2:0]               stall_hazard_o   // a queue head waits for an older command
);

  typedef struct packed {
    gm_ctl_e         ctl;
    logic [TagW-1:0] tag;
    logic            nowait;
    logic [6:0]      funct;
    logic [63:0]     rs1, rs2;
    gm_sets_t        sets;
  } entry_t;

  entry_t           ent_q [Depth];
  logic [Depth-1:0] v_q;
  // dep_q[e][o]: e waits for o while o is valid. Set at e's allocation where o was
  // valid then (so older), belongs to another controller and conflicts with e;
  // o's write set counts only if it is in force for e (o is no preload, or its
  // compute came before e: a preload's C is written at its compute, WS, or later,
  // OS, so commands between the two must not wait for it). Neither entry's sets
  // nor that choice change afterwards, so the comparison is made once, at
  // allocation, instead of for every queue head in every cycle (the same
  // stalls; the test bench's cycle counts hold it). Column o is cleared when
  // entry o is allocated again.
  logic [Depth-1:0] dep_q [Depth];
  logic [Depth-1:0] pre_q, armed_q;

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

  // does `e` (younger) have to wait for `o` (older)? wr_live: o's writes count
  function automatic logic conflict(gm_sets_t o, gm_sets_t e, logic wr_live);
    return (wr_live && (rows_ov(o.wr, e.rd0) || rows_ov(o.wr, e.rd1) || rows_ov(o.wr, e.wr)))
        || rows_ov(o.rd0, e.wr) || rows_ov(o.rd1, e.wr) || dram_ov(o.dwr, e.drd) || dram_ov(o.drd, e.dwr);
  endfunction

  // ids above Depth never occur (the entry index is the id)
  logic unused_ids;
  assign unused_ids = ^{arm_id_i, done_id_i};

  // the lowest free entry
  logic [PW-1:0] free_idx;
  always_comb begin
    free_idx = '0;
    for (int i = Depth - 1; i >= 0; i--) begin
      if (!v_q[i]) free_idx = PW'(i);
    end
  end

  assign alloc_ready_o = !(&v_q);
  assign alloc_id_o    = IdW'(free_idx);
  assign empty_o       = v_q == '0;
  assign active_o      = (v_q & ~pre_q) != '0;

  logic alloc;
  assign alloc = alloc_valid_i && alloc_ready_o;

  // heads and their hazards
  logic [2:0] blocked;
  always_comb begin
    logic [PW-1:0] hi;
    blocked = '0;
    hi = '0;
    for (int unsigned c = 0; c < 3; c++) begin
      hi = fifo_q[c][fh_q[c]];
      blocked[c] = (dep_q[hi] & v_q) != '0;
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
      if (v_q[o] && !ent_q[o].nowait) tag_busy_o[ent_q[o].tag] = 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (alloc) begin
      ent_q[free_idx] <= '{ctl: alloc_ctl_i, tag: alloc_tag_i, nowait: alloc_nowait_i, funct: alloc_funct_i,
                           rs1: alloc_rs1_i, rs2: alloc_rs2_i, sets: alloc_sets_i};
      fifo_q[alloc_ctl_i][ft_q[alloc_ctl_i]] <= free_idx;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v_q     <= '0;
      pre_q   <= '0;
      armed_q <= '0;
      for (int unsigned e = 0; e < Depth; e++) dep_q[e] <= '0;
      for (int unsigned c = 0; c < 3; c++) begin
        fh_q[c] <= '0;
        ft_q[c] <= '0;
        fc_q[c] <= '0;
      end
    end else begin
      for (int unsigned c = 0; c < 3; c++) begin
        if (done_valid_i[c]) v_q[PW'(done_id_i[c])] <= 1'b0;
      end
      if (alloc) begin
        v_q[free_idx] <= 1'b1;
        // the new entry waits for the valid entries it conflicts with; no older one waits for it
        for (int unsigned o = 0; o < Depth; o++) begin
          dep_q[free_idx][o] <= v_q[o] && ent_q[o].ctl != alloc_ctl_i
                                && conflict(ent_q[o].sets, alloc_sets_i, !pre_q[o] || armed_q[o]);
        end
        pre_q[free_idx]   <= alloc_preload_i;
        armed_q[free_idx] <= 1'b0;
        for (int unsigned e = 0; e < Depth; e++) dep_q[e][free_idx] <= 1'b0;
      end
      if (arm_valid_i) armed_q[PW'(arm_id_i)] <= 1'b1;
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
