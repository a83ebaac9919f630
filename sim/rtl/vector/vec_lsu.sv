// Vector load/store unit: unit-stride (incl. whole-register, vlm/vsm and
// fault-only-first without faults), strided and indexed accesses.
//
// The request side walks the elements of the instruction. Unit-stride accesses
// are packed: one memory beat carries every element of the current VRF row that
// falls in the same MemW-bit aligned beat. Strided and indexed accesses move one
// element per beat. Up to Outstanding requests are in flight; their bookkeeping
// (target row, byte shift, byte enables) waits in a FIFO for the in-order
// responses, which are written into the VRF with per-byte enables, so masked-off,
// prestart and tail elements stay undisturbed. Every request (store too) gets one
// response. Elements must be naturally aligned (misaligned accesses are not
// detected yet).
module vec_lsu
  import vec_pkg::*;
#(
  parameter int unsigned VLEN        = 256,
  parameter int unsigned DLEN        = 64,
  parameter int unsigned MemW        = 64,
  parameter int unsigned Outstanding = 4,
  localparam int unsigned Rows = 32 * VLEN / DLEN,
  localparam int unsigned RowW = $clog2(Rows),
  localparam int unsigned MB   = MemW / 8
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,
  input  vinsn_t          ins_i,
  output logic            busy_o,
  output logic            done_o,
  // register file
  output logic [RowW-1:0] raddr_a_o,   // store data
  input  logic [DLEN-1:0] rdata_a_i,
  output logic [RowW-1:0] raddr_b_o,   // indices
  input  logic [DLEN-1:0] rdata_b_i,
  input  logic [VLEN-1:0] v0_i,
  output logic            we_o,
  output logic [RowW-1:0] waddr_o,
  output logic [DLEN-1:0] wdata_o,
  output logic [DLEN-1:0] wbe_o,
  // memory port
  output logic            mem_req_valid_o,
  input  logic            mem_req_ready_i,
  output logic [31:0]     mem_req_addr_o,
  output logic            mem_req_we_o,
  output logic [MB-1:0]   mem_req_be_o,
  output logic [MemW-1:0] mem_req_wdata_o,
  input  logic            mem_rsp_valid_i,
  input  logic [MemW-1:0] mem_rsp_rdata_i,
  output logic            mem_pending_o
);

  localparam int unsigned RB       = DLEN / 8;     // bytes per VRF row
  localparam int unsigned RBLg     = $clog2(RB);
  localparam int unsigned MBLg     = $clog2(MB);
  localparam int unsigned RprLg    = $clog2(VLEN / DLEN);
  localparam int unsigned MaxElems = DLEN / 8;
  localparam int unsigned PW       = $clog2(Outstanding);   // Outstanding: a power of 2
  localparam int unsigned QW       = PW + 1;

  vuop_t u;
  assign u = ins_i.uop;

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

  logic [31:0] evl_start;
  always_comb begin
    if (u.whole)       evl_start = (32'(u.nregs) * VLEN) >> (3 + u.eew);
    else if (u.maskls) evl_start = (ins_i.vl + 32'd7) >> 3;
    else               evl_start = ins_i.vl;
  end

  // element address
  logic [31:0] idx_val;
  logic [31:0] ibytes;
  assign ibytes    = i_q * ieb;
  assign raddr_b_o = rowaddr(u.vs2, ibytes >> RBLg);
  always_comb begin
    logic [31:0] raw;
    raw = 32'(rdata_b_i >> (8 * (ibytes & (RB - 1))));
    unique case (u.ieew)
      2'd0:    idx_val = {24'b0, raw[7:0]};
      2'd1:    idx_val = {16'b0, raw[15:0]};
      default: idx_val = raw;
    endcase
  end

  logic [31:0] addr;
  // field f of a segment sits f*EEW bytes after field 0; unit-stride segments
  // are packed, element i at (i*nf + f)*EEW
  always_comb begin
    unique case (u.lsmode)
      LS_STRIDED: addr = ins_i.rs1 + i_q * ins_i.rs2 + 32'(f_q) * eb;
      LS_INDEXED: addr = ins_i.rs1 + idx_val + 32'(f_q) * eb;
      default:    addr = ins_i.rs1 + (i_q * (32'(u.nf) + 32'd1) + 32'(f_q)) * eb;
    endcase
  end

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
  always_comb begin
    logic [31:0] n_beat, n_row, n_left;
    n_beat = (MB - off) >> u.eew;
    n_row  = (RB - rowoff) >> u.eew;
    n_left = evl_q - i_q;
    nel    = 32'd1;
    if (u.lsmode == LS_UNIT && u.nf == 3'd0) begin
      nel = n_left;
      if (n_beat < nel) nel = n_beat;
      if (n_row < nel) nel = n_row;
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

  // FIFO of in-flight beats
  typedef struct packed {
    logic            load;
    logic [RowW-1:0] row;
    logic [RBLg:0]   rowoff;
    logic [MBLg:0]   off;
    logic [RB-1:0]   be;      // row byte enables (already shifted to rowoff)
  } meta_t;

  meta_t        fifo_q [Outstanding];
  logic [PW-1:0] wp_q, rp_q;
  logic [QW-1:0] cnt_q;
  logic          push, pop;
  meta_t         push_meta;

  logic fifo_full;
  assign fifo_full = (cnt_q == QW'(Outstanding));

  logic any_act;
  assign any_act = |act_bytes;

  assign raddr_a_o = rowaddr(freg, dbytes >> RBLg);

  logic [DLEN-1:0] sd;   // store data, element i in the low bytes
  assign sd = rdata_a_i >> (8 * rowoff);
  always_comb begin
    logic [RB-1:0]   rbe;
    rbe = RB'(act_bytes << rowoff);
    mem_req_valid_o = run_q && (i_q < evl_q) && any_act && !fifo_full;
    mem_req_addr_o  = addr & ~32'(MB - 1);
    mem_req_we_o    = (u.cls == VC_STORE);
    mem_req_be_o    = MB'(act_bytes) << off;
    mem_req_wdata_o = MemW'(sd) << (8 * off);
    push_meta.load   = (u.cls == VC_LOAD);
    push_meta.row    = rowaddr(freg, dbytes >> RBLg);
    push_meta.rowoff = (RBLg + 1)'(rowoff);
    push_meta.off    = (MBLg + 1)'(off);
    push_meta.be     = rbe;
  end

  assign push = mem_req_valid_o && mem_req_ready_i;
  assign pop  = mem_rsp_valid_i;

  always_comb begin
    run_d = run_q;
    i_d   = i_q;
    f_d   = f_q;
    evl_d = evl_q;
    if (start_i && !run_q) begin
      run_d = 1'b1;
      evl_d = evl_start;
      i_d   = ins_i.vstart;
      f_d   = '0;
    end else if (run_q && i_q < evl_q) begin
      if (!any_act) begin
        i_d = i_q + nel;          // masked-off element: every field skipped
        f_d = '0;
      end else if (push) begin
        if (f_q == u.nf) begin
          i_d = i_q + nel;
          f_d = '0;
        end else begin
          f_d = f_q + 3'd1;
        end
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Response side
  // ---------------------------------------------------------------------------
  meta_t head;
  assign head = fifo_q[rp_q];
  always_comb begin
    logic [DLEN-1:0] d;
    d       = DLEN'(mem_rsp_rdata_i >> (8 * head.off));
    we_o    = pop && head.load;
    waddr_o = head.row;
    wdata_o = d << (8 * head.rowoff);
    for (int unsigned b = 0; b < DLEN; b++) wbe_o[b] = head.be[b / 8];
  end

  logic finished;
  assign finished = run_q && (i_q >= evl_q) && (cnt_q == '0);
  assign done_o        = finished;
  assign busy_o        = run_q;
  assign mem_pending_o = run_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q <= 1'b0;
      i_q   <= '0;
      f_q   <= '0;
      evl_q <= '0;
      wp_q  <= '0;
      rp_q  <= '0;
      cnt_q <= '0;
      for (int unsigned q = 0; q < Outstanding; q++) fifo_q[q] <= '0;
    end else begin
      run_q <= finished ? 1'b0 : run_d;
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

  logic unused;
  assign unused = ^{sd, ins_i.frs1, ins_i.frm, ins_i.vxrm, ins_i.seq, ins_i.sew, ins_i.lmul, u};

endmodule
