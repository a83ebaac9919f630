// Vector load/store unit: unit-stride (incl. whole-register, vlm/vsm and
// fault-only-first), strided and indexed accesses.
//
// The request side walks the elements of the instruction. Unit-stride accesses
// are packed: one memory beat carries every element of the current VRF row that
// falls in the same MemW-bit aligned beat. Strided non-segment accesses whose
// stride is a power of two from EEW up to below MemW/8 bytes are packed too: one
// beat carries every element of the current row in the same aligned beat, at
// `stride` bytes apart in memory and packed in the row (a stride-2 pooling read
// moves MemW/64 fp32 elements per beat). Indexed non-segment accesses are
// gathered: one beat carries the consecutive elements of the current row whose
// addresses fall in the aligned block of the first one's, each at its own offset
// (a row of equal indices is one beat; stores: a later element wins a byte two
// elements write, as in element order). Other strided and segment accesses move
// one element per beat. Up to Outstanding requests are in flight; their bookkeeping
// (target row, byte shift, byte enables) waits in a FIFO for the in-order
// responses, which are written into the VRF with per-byte enables, so masked-off,
// prestart and tail elements stay undisturbed. Every request (store too) gets one
// response. Faults are found before the instruction is accepted (vec_memcheck):
// an instruction that faults, or a fault-only-first load that trims vl, arrives
// with `stop` and executes only the elements (segment fields) before the fault.
//
// The instruction is latched at start_i. Once it has issued its last request it
// moves to the drain queue (Drains deep), where it waits for its responses, and
// the next instruction is accepted (ready_o) and issues behind it: with one slot,
// one-beat loads and stores ran at one per round trip of the port (2.4 cycles each
// in the SoC); with four they stream at the port's rate (1.2). A store does not
// start while a load drains (the port moves at most MemW bits of data per cycle).
// stall_i (the scoreboard: the store data or index row of this cycle's request is
// not final yet) holds the request side; wfront_o tells the scoreboard which
// destination rows are final (rows of a unit-stride load are written in order, so
// loads chain into arithmetic).
//
// Splats (vrgather.vx/.vi, vec_pkg::is_splat_op) also run here, without memory: the
// source element's row is read through the store-data port and the destination
// is written one row per cycle through the load write port, in cycles when no
// load response needs it. They chain into arithmetic like unit-stride loads.
module vec_lsu
  import vec_pkg::*;
#(
  parameter int unsigned VLEN        = 256,
  parameter int unsigned DLEN        = 64,
  parameter int unsigned MemW        = 64,
  parameter int unsigned Outstanding = 4,
  parameter int unsigned Drains      = 4,   // instructions waiting for their responses
  localparam int unsigned Rows = 32 * VLEN / DLEN,
  localparam int unsigned RowW = $clog2(Rows),
  localparam int unsigned MB   = MemW / 8,
  localparam int unsigned DW   = (Drains > 1) ? $clog2(Drains) : 1
) (
  input  logic            clk_i,            // in: clock (the unit's gated clock)
  input  logic            rst_ni,           // in: asynchronous reset, active low
  // instruction: taken when start_i && ready_o, latched in the request slot
  input  logic            start_i,          // in: a memory instruction or splat starts here this cycle
  input  vinsn_t          ins_i,            // in: that instruction
  output logic            ready_o,          // out: the request slot is free (or freed this cycle)
  input  logic            stall_i,          // in: hold the request side (store data or index row not final)
  output logic            busy_o,           // out: an instruction issuing or draining
  output logic            req_busy_o,       // out: an instruction issuing requests
  output logic [DW-1:0]   drain_rd_o,       // out: the drain queue's oldest entry
  output logic [DW:0]     drain_n_o,        // out: instructions in it, waiting for their responses
  output logic            to_drain_o,       // out: the issuing instruction moves to the drain queue
  output logic            done_o,           // out: an instruction finishes (its last response)
  output logic            done_drain_o,     // out: ... and it is the oldest draining one
  output logic [RowW:0]   dfront_o,         // out: rows of the oldest draining load's vd below this are final
  // scoreboard: operand ports read this cycle, final-row frontier of vd
  output logic [1:0]      rd_used_o,        // out: read ports {b: indices, a: store data} in use
  output logic [RowW:0]   wfront_o,         // out: rows of the issuing instruction's vd below this are final
  output logic [15:0]     mem_bytes_o,      // out: bytes moved this cycle (store request / load response)
  // register file
  output logic [RowW-1:0] raddr_a_o,        // out: row of read port a (store data, splat source)
  input  logic [DLEN-1:0] rdata_a_i,        // in: that row
  output logic [RowW-1:0] raddr_b_o,        // out: row of read port b (indices)
  input  logic [DLEN-1:0] rdata_b_i,        // in: that row
  input  logic [VLEN-1:0] v0_i,             // in: v0 as a whole (the mask)
  output logic            we_o,             // out: write port 1 writes this cycle (load data, splat)
  output logic [RowW-1:0] waddr_o,          // out: its row
  output logic [DLEN-1:0] wdata_o,          // out: its data
  output logic [DLEN-1:0] wbe_o,            // out: its per-bit enable (active body bytes only)
  // memory port: valid/ready requests, one in-order response each (stores too)
  output logic            mem_req_valid_o,  // out: a request is offered
  input  logic            mem_req_ready_i,  // in: the port takes it this cycle
  output logic [31:0]     mem_req_addr_o,   // out: its MemW-aligned beat address
  output logic            mem_req_we_o,     // out: it is a store
  output logic [MB-1:0]   mem_req_be_o,     // out: its byte enables
  output logic [MemW-1:0] mem_req_wdata_o,  // out: its store data
  input  logic            mem_rsp_valid_i,  // in: the oldest outstanding request's response
  input  logic [MemW-1:0] mem_rsp_rdata_i,  // in: its load data
  output logic            mem_pending_o     // out: an instruction issuing or draining (as busy_o)
);

  localparam int unsigned RB       = DLEN / 8;     // bytes per VRF row
  localparam int unsigned RBLg     = $clog2(RB);
  localparam int unsigned MBLg     = $clog2(MB);
  localparam int unsigned RprLg    = $clog2(VLEN / DLEN);
  localparam int unsigned MaxElems = DLEN / 8;
  localparam int unsigned PW       = $clog2(Outstanding);   // Outstanding: a power of 2
  localparam int unsigned QW       = PW + 1;

  vinsn_t ins_q;
  vuop_t  u;
  assign u = ins_q.uop;

  logic [31:0] eb;       // element bytes
  logic [31:0] ieb;      // index bytes
  assign eb  = 32'd1 << u.eew;
  assign ieb = 32'd1 << u.ieew;

  function automatic logic [RowW-1:0] rowaddr(logic [4:0] vreg, logic [31:0] rel_row);
    return RowW'((32'(vreg) << RprLg) + rel_row);
  endfunction

  // ---------------------------------------------------------------------------
  // Request side
  // ---------------------------------------------------------------------------
  logic        run_q, run_d;
  logic [31:0] i_q, i_d;
  logic [2:0]  f_q, f_d;     // segment field of element i_q
  logic [31:0] evl_q, evl_d;

  logic [31:0] evl_start;   // of the instruction presented at start_i
  always_comb begin
    logic [31:0] stop_evl;
    if (ins_i.uop.whole)       evl_start = (32'(ins_i.uop.nregs) * VLEN) >> (3 + ins_i.uop.eew);
    else if (ins_i.uop.maskls) evl_start = (ins_i.vl + 32'd7) >> 3;
    else                       evl_start = ins_i.vl;
    // a fault (or ff trim) at element stop_i: the elements before it, and the
    // fields < stop_f of segment stop_i
    stop_evl = ins_i.stop_i + ((ins_i.stop_f != '0) ? 32'd1 : 32'd0);
    if (ins_i.stop && stop_evl < evl_start) evl_start = stop_evl;
  end

  // last field of element i_q (fewer in the segment a fault stops in)
  logic [2:0] last_f;
  assign last_f = (ins_q.stop && i_q == ins_q.stop_i) ? ins_q.stop_f - 3'd1 : u.nf;

  // element address
  logic [31:0] idx_val;
  logic [31:0] ibytes;
  assign ibytes    = i_q * ieb;
  assign raddr_b_o = rowaddr(u.vs2, ibytes >> RBLg);
  assign idx_val = index_value(32'(rdata_b_i >> (8 * (ibytes & (RB - 1)))), u.ieew);

  logic [31:0] addr;
  assign addr = elem_addr(u.lsmode, ins_q.rs1, ins_q.rs2, idx_val, i_q, f_q, u.nf, eb);

  // register of field f_q: vd + f*seg_regs
  logic [4:0] freg;
  assign freg = u.vd + 5'(32'(f_q) * 32'(u.seg_regs));

  logic [31:0] off;        // byte offset of the element in its beat
  logic [31:0] dbytes;     // byte offset of element i in its register group
  logic [31:0] rowoff;     // byte offset of element i in its VRF row
  logic [31:0] nel;        // elements moved by this beat
  assign off    = addr & (MB - 1);
  assign dbytes = i_q * eb;
  assign rowoff = dbytes & (RB - 1);
  // packed strided access: stride = 2^slg bytes, EEW <= stride < MemW/8
  logic        pk;
  logic [4:0]  slg;
  always_comb begin
    slg = '0;
    for (int unsigned b = 0; b < 32; b++) if (ins_q.rs2 == (32'd1 << b)) slg = 5'(b);
    pk = (u.lsmode == LS_STRIDED) && (u.nf == 3'd0) && !sp && (ins_q.rs2 == (32'd1 << slg))
         && (ins_q.rs2 >= eb) && (ins_q.rs2 < 32'(MB));
  end

  // gathered indexed beat: the elements of the row (and of the index row read this
  // cycle) from i_q on whose addresses lie in element i_q's aligned block
  logic gx;
  assign gx = (u.lsmode == LS_INDEXED) && (u.nf == 3'd0) && !sp;
  // byte offset in the beat of element t of a packed or gathered beat
  logic [MBLg-1:0] eoff [MaxElems];
  logic [31:0]     gx_n;   // elements of the gathered run
  always_comb begin
    logic [31:0] ioff, n_idx, a;
    logic        stop, act;
    ioff = ibytes & (RB - 1);
    n_idx = (RB - ioff) >> u.ieew;
    gx_n = 32'd1;
    stop = 1'b0;
    a    = '0;
    act  = 1'b0;
    for (int unsigned t = 0; t < MaxElems; t++) begin
      eoff[t] = MBLg'(off + (32'(t) << slg));
      if (gx) begin   // gated: the other accesses leave this loop idle
        a = ins_q.rs1 + index_value(32'(rdata_b_i >> (8 * (ioff + (32'(t) << u.ieew)))), u.ieew);
        eoff[t] = MBLg'(a);
        act = u.vm || ((i_q + 32'(t) < VLEN) && v0_i[(i_q + 32'(t)) % VLEN]);
        if (t > 0 && !stop) begin
          // element i_q masked off: alone (its index names no block)
          if (32'(t) >= n_idx || !(u.vm || v0_i[i_q % VLEN])
              || (act && ((a ^ addr) & ~32'(MB - 1)) != '0)) stop = 1'b1;
          else gx_n = 32'(t) + 32'd1;
        end
      end
    end
  end

  always_comb begin
    logic [31:0] n_beat, n_row, n_left;
    n_beat = (MB - off) >> u.eew;
    n_row  = (RB - rowoff) >> u.eew;
    n_left = evl_q - i_q;
    nel    = 32'd1;
    if (pk || gx) begin   // packed: elements at off + t*stride < MemW/8
      nel = pk ? (MB - off + ins_q.rs2 - 32'd1) >> slg : gx_n;
      if (n_row < nel) nel = n_row;
      if (n_left < nel) nel = n_left;
    end
    if ((u.lsmode == LS_UNIT && u.nf == 3'd0) || sp) begin   // a splat: the rest of the row
      nel = n_left;
      if (n_beat < nel) nel = n_beat;
      if (n_row < nel) nel = n_row;
      // a misaligned base (every element misaligned): only masked-off elements
      // before the fault get here, one at a time
      if (nel == '0) nel = 32'd1;
    end
  end

  // active elements of the beat, as row bytes (relative to rowoff)
  logic [RB-1:0] act_bytes;
  always_comb begin
    act_bytes = '0;
    for (int unsigned t = 0; t < MaxElems; t++) begin
      logic [31:0] j;
      logic        m;
      j = i_q + 32'(t);
      m = (j < VLEN) ? v0_i[j[$clog2(VLEN)-1:0]] : 1'b0;
      if (32'(t) < nel && (u.vm || m)) begin
        for (int unsigned bb = 0; bb < 4; bb++) begin
          if (32'(bb) < eb && (t * eb + bb) < RB) act_bytes[t * eb + bb] = 1'b1;
        end
      end
    end
  end

  // splat: the source element vs2[idx] (0 past VLMAX), replicated over a row
  logic            sp;
  logic [31:0]     sp_idx, sp_sbytes, sp_val, vlmax;
  logic [DLEN-1:0] sp_row;
  assign sp        = is_splat_op(u.cls, u.op, u.src);
  assign sp_idx    = (u.src == SRC_X) ? ins_q.rs1 : 32'(u.imm);
  assign sp_sbytes = sp_idx * eb;
  assign vlmax  = vlmax_of($clog2(VLEN), ins_q.sew, ins_q.lmul);
  assign sp_val = (sp_idx < vlmax) ? 32'(rdata_a_i >> (8 * (sp_sbytes & (RB - 1)))) : '0;
  assign sp_row = {(DLEN / 32){replicate(sp_val, u.eew)}};

  // FIFO of in-flight beats
  typedef struct packed {
    logic            load;
    logic [RowW-1:0] row;
    logic [RBLg:0]   rowoff;
    logic [MBLg:0]   off;
    logic [RB-1:0]   be;      // row byte enables (already shifted to rowoff)
    logic            pk;      // packed strided or gathered beat: element t at byte eoff[t]
    logic [MaxElems-1:0][MBLg-1:0] eoff;
    logic [1:0]      eew;
  } meta_t;

  meta_t        fifo_q [Outstanding];
  logic [PW-1:0] wp_q, rp_q;
  logic [QW-1:0] cnt_q;
  logic          push, pop;
  meta_t         push_meta;

  logic fifo_full;
  assign fifo_full = (cnt_q == QW'(Outstanding)) && !pop;   // a response frees its slot at once

  logic any_act;
  assign any_act = |act_bytes;
  logic [RB-1:0] row_be;   // the active bytes at their place in the VRF row
  assign row_be = RB'(act_bytes << rowoff);

  assign raddr_a_o = sp ? rowaddr(u.vs2, sp_sbytes >> RBLg) : rowaddr(freg, dbytes >> RBLg);

  logic [DLEN-1:0] sd;   // store data, element i in the low bytes
  assign sd = rdata_a_i >> (8 * rowoff);

  // packed strided or gathered beat: element t (row bytes t*EEW...) at byte eoff[t];
  // in element order, so a later element wins a byte two of them write
  logic [MB-1:0]   pk_be;
  logic [MemW-1:0] pk_wdata;
  always_comb begin
    logic [31:0] mb, rb;
    pk_be    = '0;
    pk_wdata = '0;
    for (int unsigned t = 0; t < MaxElems; t++) begin
      for (int unsigned bb = 0; bb < 4; bb++) begin
        mb = 32'(eoff[t]) + 32'(bb);
        rb = 32'(t) * eb + 32'(bb);
        if (32'(bb) < eb && mb < 32'(MB) && rb < 32'(RB) && act_bytes[rb[RBLg-1:0]]) begin
          pk_be[mb[MBLg-1:0]] = 1'b1;
          pk_wdata[8 * mb[MBLg-1:0] +: 8] = sd[8 * rb[RBLg-1:0] +: 8];
        end
      end
    end
  end
  always_comb begin
    mem_req_valid_o = run_q && !sp && (i_q < evl_q) && any_act && !fifo_full && !stall_i;
    mem_req_addr_o  = addr & ~32'(MB - 1);
    mem_req_we_o    = (u.cls == VC_STORE);
    mem_req_be_o    = MB'(act_bytes) << off;
    mem_req_wdata_o = MemW'(sd) << (8 * off);
    if (pk || gx) begin
      mem_req_be_o    = pk_be;
      mem_req_wdata_o = pk_wdata;
    end
    push_meta.load   = (u.cls == VC_LOAD);
    push_meta.row    = rowaddr(freg, dbytes >> RBLg);
    push_meta.rowoff = (RBLg + 1)'(rowoff);
    push_meta.off    = (MBLg + 1)'(off);
    push_meta.be     = row_be;
    push_meta.pk     = pk || gx;
    for (int unsigned t = 0; t < MaxElems; t++) push_meta.eoff[t] = eoff[t];
    push_meta.eew    = u.eew;
  end

  assign push = mem_req_valid_o && mem_req_ready_i;
  assign pop  = mem_rsp_valid_i;

  // a splat row is written when no load response takes the write port
  logic sp_we;
  assign sp_we = run_q && sp && (i_q < evl_q) && any_act && !stall_i && !(pop && fifo_q[rp_q].load);

  // progress of the issuing instruction this cycle
  logic [31:0] i_adv;
  logic [2:0]  f_adv;
  always_comb begin
    i_adv = i_q;
    f_adv = f_q;
    if (run_q && i_q < evl_q) begin
      if (!any_act) begin
        i_adv = i_q + nel;        // masked-off element: every field skipped
        f_adv = '0;
      end else if (push || sp_we) begin
        if (f_q == last_f) begin
          i_adv = i_q + nel;
          f_adv = '0;
        end else begin
          f_adv = f_q + 3'd1;
        end
      end
    end
  end

  always_comb begin
    run_d = leave ? 1'b0 : run_q;
    i_d   = i_adv;
    f_d   = f_adv;
    evl_d = evl_q;
    if (take) begin
      run_d = 1'b1;
      evl_d = evl_start;
      i_d   = ins_i.vstart;
      f_d   = '0;
    end
  end

  // ---------------------------------------------------------------------------
  // Response side
  // ---------------------------------------------------------------------------
  meta_t head, own_head;   // oldest beat; oldest beat of the issuing instruction
  assign head     = fifo_q[rp_q];

  // a packed strided or gathered response: element t from byte eoff[t], packed in the row
  logic [DLEN-1:0] pk_rsp;
  always_comb begin
    logic [31:0] mb, rb;
    pk_rsp = '0;
    for (int unsigned t = 0; t < MaxElems; t++) begin
      for (int unsigned bb = 0; bb < 4; bb++) begin
        mb = 32'(head.eoff[t]) + 32'(bb);
        rb = (32'(t) << head.eew) + 32'(bb);
        if (32'(bb) < (32'd1 << head.eew) && mb < 32'(MB) && rb < 32'(RB))
          pk_rsp[8 * rb[RBLg-1:0] +: 8] = mem_rsp_rdata_i[8 * mb[MBLg-1:0] +: 8];
      end
    end
  end
  assign own_head = fifo_q[PW'(rp_q + PW'(dr_sum))];
  always_comb begin
    logic [DLEN-1:0] d;
    d       = DLEN'(mem_rsp_rdata_i >> (8 * head.off));
    if (head.pk) d = pk_rsp;
    we_o    = (pop && head.load) || sp_we;
    waddr_o = sp_we ? rowaddr(u.vd, dbytes >> RBLg) : head.row;
    wdata_o = sp_we ? sp_row : d << (8 * head.rowoff);
    for (int unsigned b = 0; b < DLEN; b++) wbe_o[b] = sp_we ? row_be[b / 8] : head.be[b / 8];
  end

  // drain queue: older instructions, every request issued, responses due (oldest
  // first: the responses are in order). Short accesses (a row each) stream at the
  // port's rate instead of one per round trip.
  // Entry (dq_rd_q + d) mod Drains for d < dq_n_q; the scoreboard keeps the
  // instructions at the same places (drain_rd_o, drain_n_o).
  logic [QW-1:0] dq_cnt_q   [Drains];   // beats still due
  logic          dq_load_q  [Drains];
  logic          dq_chain_q [Drains];   // writes its rows in order (a frontier)
  logic [DW-1:0] dq_rd_q, dq_wr;
  logic [DW:0]   dq_n_q;                // instructions draining
  logic [QW-1:0] dr_sum;                // their beats still due
  logic          dr_load;               // one of them is a load
  logic          dr_v_q;
  assign dr_v_q = (dq_n_q != '0);
  assign dq_wr  = DW'((32'(dq_rd_q) + 32'(dq_n_q)) % Drains);
  always_comb begin
    dr_sum  = '0;
    dr_load = 1'b0;
    for (int unsigned d = 0; d < Drains; d++) begin
      if (32'(dq_n_q) > d) begin
        dr_sum  = dr_sum + dq_cnt_q[DW'((32'(dq_rd_q) + d) % Drains)];
        dr_load = dr_load || (dq_load_q[DW'((32'(dq_rd_q) + d) % Drains)] && !(d == 0 && dr_done));
      end
    end
  end

  logic          dr_done, leave, req_done, to_drain, take, ld_drain_next;
  logic [QW-1:0] own_cnt, own_left;
  logic          req_end, dq_room;
  assign own_cnt  = cnt_q - dr_sum;
  assign dr_done  = dr_v_q && pop && (dq_cnt_q[dq_rd_q] == QW'(1));
  assign dq_room  = (32'(dq_n_q) != Drains) || dr_done;
  // no request after this cycle (the last one may be accepted now)
  assign req_end  = run_q && (i_adv >= evl_q);
  // its beats outstanding after this cycle (a response goes to the draining ones first)
  assign own_left = own_cnt + QW'(push) - QW'(pop && !dr_v_q);
  // leave the request slot: finished (nothing draining: one completion a cycle, in
  // order), or to the drain queue with beats outstanding while it has room
  assign leave    = req_end && (own_left != '0 ? dq_room : !dr_v_q);
  assign req_done = leave && (own_left == '0);
  assign to_drain = leave && (own_left != '0);
  assign ld_drain_next = dr_load || (to_drain && u.cls == VC_LOAD);

  assign done_o        = dr_done || req_done;   // never both: req_done needs nothing draining
  assign done_drain_o  = dr_done;
  assign to_drain_o    = to_drain;
  assign busy_o        = run_q || dr_v_q;
  assign req_busy_o    = run_q;
  assign drain_rd_o    = dq_rd_q;
  assign drain_n_o     = dq_n_q;
  assign mem_pending_o = run_q || dr_v_q;
  assign ready_o       = (!run_q || leave) && !(ins_i.uop.cls == VC_STORE && ld_drain_next);
  assign take          = start_i && ready_o;

  // store data is read in request cycles; indices too (indexed accesses)
  assign rd_used_o = {run_q && !sp && (i_q < evl_q) && (u.lsmode == LS_INDEXED),
                      run_q && (i_q < evl_q) && (u.cls == VC_STORE || sp)};

  // A unit-stride, non-segment load writes its rows in order: rows below the
  // oldest outstanding beat's row (or, none outstanding, the next request's)
  // are final. Other loads: only at the end.
  always_comb begin
    logic [RowW:0] r;
    r = (RowW + 1)'(32'(u.vd) << RprLg);
    if (sp) begin
      if (i_q < evl_q) r = {1'b0, rowaddr(u.vd, dbytes >> RBLg)};
      else             r = '1;
    end else if (u.cls == VC_LOAD && u.lsmode == LS_UNIT && u.nf == 3'd0) begin
      if (own_cnt != '0)    r = {1'b0, own_head.row};
      else if (i_q < evl_q) r = {1'b0, rowaddr(freg, dbytes >> RBLg)};
      else                  r = '1;   // all written (finishing this cycle)
    end
    wfront_o = r;
  end
  // the oldest draining load's beats are the oldest in the FIFO
  assign dfront_o = (dr_v_q && dq_chain_q[dq_rd_q]) ? {1'b0, head.row} : '0;

  always_comb begin
    mem_bytes_o = '0;
    if (push && mem_req_we_o) begin
      for (int unsigned b = 0; b < MB; b++) mem_bytes_o = mem_bytes_o + 16'(mem_req_be_o[b]);
    end
    if (pop && head.load) begin
      for (int unsigned b = 0; b < RB; b++) mem_bytes_o = mem_bytes_o + 16'(head.be[b]);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ins_q      <= '0;
      run_q      <= 1'b0;
      dq_rd_q    <= '0;
      dq_n_q     <= '0;
      for (int unsigned q = 0; q < Drains; q++) begin
        dq_cnt_q[q]   <= '0;
        dq_load_q[q]  <= 1'b0;
        dq_chain_q[q] <= 1'b0;
      end
      i_q        <= '0;
      f_q        <= '0;
      evl_q      <= '0;
      wp_q       <= '0;
      rp_q       <= '0;
      cnt_q      <= '0;
      for (int unsigned q = 0; q < Outstanding; q++) fifo_q[q] <= '0;
    end else begin
      run_q <= run_d;
      if (take) ins_q <= ins_i;
      // a response goes to the oldest draining instruction; a finished one leaves
      if (dr_v_q && pop) dq_cnt_q[dq_rd_q] <= dq_cnt_q[dq_rd_q] - 1'b1;
      if (dr_done) dq_rd_q <= (32'(dq_rd_q) == Drains - 1) ? '0 : dq_rd_q + 1'b1;
      if (to_drain) begin
        dq_cnt_q[dq_wr]   <= own_left;
        dq_load_q[dq_wr]  <= (u.cls == VC_LOAD);
        dq_chain_q[dq_wr] <= (u.cls == VC_LOAD) && (u.lsmode == LS_UNIT) && (u.nf == 3'd0);
      end
      dq_n_q <= dq_n_q + (DW + 1)'(to_drain) - (DW + 1)'(dr_done);
      i_q   <= i_d;
      f_q   <= f_d;
      evl_q <= evl_d;
      if (push) begin
        fifo_q[wp_q] <= push_meta;
        wp_q <= wp_q + 1'b1;
      end
      if (pop) begin
        rp_q <= rp_q + 1'b1;
      end
      cnt_q <= cnt_q + QW'(push) - QW'(pop);
    end
  end

`ifdef COSIM_ASSERT
  // Assertions (sim/rtl/vector/README.md "Assertions"): each message states the rule.
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));

  // The drain queue's bookkeeping: every draining instruction still waits for at
  // least one beat, at most Drains of them, and their beats are in the FIFO.
  logic dq_empty_entry;
  always_comb begin
    dq_empty_entry = 1'b0;
    for (int unsigned d = 0; d < Drains; d++) begin
      if (32'(dq_n_q) > d && dq_cnt_q[DW'((32'(dq_rd_q) + d) % Drains)] == '0) dq_empty_entry = 1'b1;
    end
  end
  DrainEntriesWait: assert property (@(posedge clk_i) disable iff (!checking)
      !dq_empty_entry && 32'(dq_n_q) <= Drains)
    else $error("a drain-queue entry waits for no beat, or more entries than Drains");
  DrainBeatsCounted: assert property (@(posedge clk_i) disable iff (!checking)
      dr_sum <= cnt_q)
    else $error("the draining instructions wait for more beats than are in flight");
  // Every response answers a request in flight.
  ResponseExpected: assert property (@(posedge clk_i) disable iff (!checking)
      mem_rsp_valid_i |-> cnt_q != '0)
    else $error("a memory response with no vector request in flight");
`endif

  logic unused;
  assign unused = ^{sd, own_head, ins_i, ins_q.vl, ins_q.stop_f, ins_q.vstart, ins_q.frs1, ins_q.frm, ins_q.vxrm, ins_q.seq, ins_q.sew, ins_q.lmul, u};

endmodule
