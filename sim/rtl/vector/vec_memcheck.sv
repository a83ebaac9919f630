// Fault checking of vector memory instructions before they are accepted, so
// that memory exceptions stay precise (README.md, "Memory exceptions").
//
// Element (i, f) of an access (segment field f) faults when its address is
// misaligned for its EEW (cause 4 load / 6 store) or the EEW bytes at it are not
// inside one memory region (5 / 7), with mtval = that address; masked-off
// elements never fault; elements are visited in order from vstart, as Spike
// does. The answer comes in the issue handshake:
//   - nothing: every active element is fine;
//   - fault at (i, f): the unit executes every element before it (the fields
//     < f of segment i too) and the core traps at the instruction with
//     vstart = i once that has completed;
//   - fault-only-first loads with a fault at element i > 0: trim vl to i (the
//     elements before it, and the fields < f of segment i, are written).
// Fast path, answered in the request cycle: unit-stride and strided accesses
// (masked or not) whose whole address range [first, last] lies in one region with
// base and stride aligned to EEW cannot fault; nor can an indexed access without
// segments whose indices all lie in one register and are final (no older
// instruction writes it) with every active element aligned and in a region: all
// of them are checked at once, from the whole register. Everything else (other
// indexed accesses, region crossings, misalignment, any fault) holds the
// handshake (hold_o) and walks the elements one (element, field) per cycle,
// indexed accesses without segments one index row per cycle. Masked and indexed
// checks first wait until no older instruction (queued or running) writes v0 or
// the index register group, so what they read is final (they run beside the
// older instructions, on their own VRF read port).
module vec_memcheck
  import cosim_pkg::*;
  import vec_pkg::*;
#(
  parameter int unsigned VLEN     = 256,
  parameter int unsigned DLEN     = 64,
  parameter logic [31:0] Mem0Base = 32'h2000_0000,
  parameter logic [32:0] Mem0Size = 33'h0_2000_0000,
  parameter logic [31:0] Mem1Base = 32'h4000_0000,
  parameter logic [32:0] Mem1Size = 33'h0_8000_0000,
  parameter logic [31:0] Mem2Base = 32'hC000_0000,
  parameter logic [32:0] Mem2Size = 33'h0_0100_0000
) (
  input  logic            clk_i,      // in: clock (the unit's gated clock)
  input  logic            rst_ni,     // in: asynchronous reset, active low
  // the issue handshake of the instruction checked
  input  logic            check_i,    // in: a legal vector memory instruction is offered
  input  logic            fire_i,     // in: ... and accepted this cycle
  input  cop_req_t        req_i,      // in: its request (encoding, rs1/rs2, vl, vstart)
  input  vuop_t           uop_i,      // in: its decoded form (EEW, mode, fields, mask)
  input  logic            final_i,    // in: no older instruction writes v0 (masked) or the index group (indexed)
  // register file, read while walking
  input  logic [VLEN-1:0] v0_i,       // in: v0 as a whole (the mask)
  output logic [4:0]      rreg_o,     // out: index register (vs2; while walking, the walk's)
  input  logic [VLEN-1:0] rdata_i,    // in: that register
  // the answer
  output logic            walking_o,  // out: the walk is on
  output logic            hold_o,     // out: keep the handshake waiting (check not finished)
  output cop_ack_t        ack_o       // out: the answer (fault / ff trim), valid with fire_i
);

  localparam int unsigned RB    = DLEN / 8;
  localparam int unsigned RBLg  = $clog2(RB);

  typedef enum logic [1:0] {StIdle, StWalk, StDone} state_e;
  state_e state_q, state_d;

  logic [31:0] i_q, i_d;
  logic [2:0]  f_q, f_d;
  cop_ack_t    res_q, res_d;

  // ---------------------------------------------------------------------------
  // The instruction's shape
  // ---------------------------------------------------------------------------
  logic [31:0] eb, nfl, evl;
  logic        store, ff, masked;
  assign eb     = 32'd1 << uop_i.eew;
  assign nfl    = 32'(uop_i.nf) + 32'd1;
  assign store  = (uop_i.cls == VC_STORE);
  // vle<eew>ff.v / vlseg<nf>e<eew>ff.v: unit-stride load, lumop 10000
  assign ff     = !store && uop_i.lsmode == LS_UNIT && req_i.insn[24:20] == 5'b10000;
  assign masked = !uop_i.vm;
  always_comb begin
    if (uop_i.whole)       evl = (32'(uop_i.nregs) * VLEN) >> (3 + uop_i.eew);
    else if (uop_i.maskls) evl = (req_i.vl + 32'd7) >> 3;
    else                   evl = req_i.vl;
  end

  // Is [lo, hi) inside one memory region? (64-bit: no wrap-around hides a fault)
  function automatic logic in_region(logic signed [63:0] lo, logic signed [63:0] hi);
    logic [63:0] l, h;
    if (lo < 0 || hi < lo) return 1'b0;   // below address 0: never in a region
    l = 64'(lo);
    h = 64'(hi);
    return (l >= 64'(Mem0Base) && h <= 64'(Mem0Base) + 64'(Mem0Size))
        || (l >= 64'(Mem1Base) && h <= 64'(Mem1Base) + 64'(Mem1Size))
        || (l >= 64'(Mem2Base) && h <= 64'(Mem2Base) + 64'(Mem2Size));
  endfunction

  // ---------------------------------------------------------------------------
  // Fast path: unit-stride and strided ranges (the mask only removes elements)
  // ---------------------------------------------------------------------------
  logic fast_ok, idx_ok;
  always_comb begin
    logic signed [63:0] base, stride, first, last, lo, hi;
    logic               aligned;
    base    = 64'(req_i.rs1[31:0]);
    stride  = 64'($signed(req_i.rs2[31:0]));
    aligned = (req_i.rs1[31:0] & (eb - 32'd1)) == '0;
    first   = '0;
    last    = '0;
    if (uop_i.lsmode == LS_STRIDED) begin
      aligned = aligned && ((req_i.rs2[31:0] & (eb - 32'd1)) == '0);
      first   = base + 64'(req_i.vstart) * stride;
      last    = base + 64'(evl - 32'd1) * stride;
    end else begin
      first   = base + 64'(req_i.vstart) * 64'(nfl) * 64'(eb);
      last    = base + 64'(evl - 32'd1) * 64'(nfl) * 64'(eb);
    end
    lo = (first < last) ? first : last;
    hi = ((first < last) ? last : first) + 64'(nfl) * 64'(eb);
    if (req_i.vstart >= evl) fast_ok = 1'b1;   // no element executes
    else fast_ok = ((uop_i.lsmode != LS_INDEXED) && aligned && in_region(lo, hi)) || idx_ok;
  end

  // Indexed, no segments, every index in register vs2, final: all elements at once
  localparam int unsigned MaxIdx = VLEN / 8;
  always_comb begin
    idx_ok = 1'b0;
    if (state_q == StIdle && check_i && uop_i.lsmode == LS_INDEXED && uop_i.nf == 3'd0 && final_i
        && (evl << uop_i.ieew) <= VLEN / 8) begin   // gated: other cycles skip the loop
      idx_ok = 1'b1;
      for (int unsigned k = 0; k < MaxIdx; k++) begin
        logic [31:0] iv, a;
        unique case (uop_i.ieew)
          2'd0:    iv = {24'b0, rdata_i[k * 8 +: 8]};
          2'd1:    iv = (k < VLEN / 16) ? {16'b0, rdata_i[(k % (VLEN / 16)) * 16 +: 16]} : '0;
          default: iv = (k < VLEN / 32) ? rdata_i[(k % (VLEN / 32)) * 32 +: 32] : '0;
        endcase
        a = req_i.rs1[31:0] + iv;
        if (32'(k) >= req_i.vstart && 32'(k) < evl && (!masked || v0_i[k])
            && ((a & (eb - 32'd1)) != '0 || !in_region(64'(a), 64'(a) + 64'(eb)))) idx_ok = 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Walk: element i_q, field f_q
  // ---------------------------------------------------------------------------
  logic [31:0] ieb, ibytes, idx, addr;
  assign ieb     = 32'd1 << uop_i.ieew;
  assign ibytes  = i_q * ieb;
  assign rreg_o  = (state_q == StWalk) ? 5'(32'(uop_i.vs2) + (ibytes >> ($clog2(VLEN) - 3))) : uop_i.vs2;
  // the walk's index row
  logic [DLEN-1:0] row;
  assign row  = DLEN'(rdata_i >> (DLEN * ((ibytes >> RBLg) & ((VLEN / DLEN) - 1))));
  assign idx  = index_value(32'(row >> (8 * (ibytes & (RB - 1)))), uop_i.ieew);
  // the address as the LSU computes it (the same function)
  assign addr = elem_addr(uop_i.lsmode, req_i.rs1[31:0], req_i.rs2[31:0], idx, i_q, f_q, uop_i.nf, eb);

  logic active, misal, outside;
  assign active  = !masked || ((i_q < VLEN) && v0_i[i_q[$clog2(VLEN)-1:0]]);
  assign misal   = (addr & (eb - 32'd1)) != '0;
  assign outside = !in_region(64'(addr), 64'(addr) + 64'(eb));

  // Indexed, no segments: every index of the current row in one cycle (the first
  // faulting active element wins)
  localparam int unsigned MaxK = DLEN / 8;
  logic        row_mode, row_hit, row_mis;
  logic [31:0] row_left, row_k, row_addr;
  assign row_mode = (uop_i.lsmode == LS_INDEXED) && (uop_i.nf == 3'd0);
  assign row_left = (RB - (ibytes & (RB - 1))) >> uop_i.ieew;
  always_comb begin
    row_hit  = 1'b0;
    row_mis  = 1'b0;
    row_k    = '0;
    row_addr = '0;
    if (state_q == StWalk && row_mode) begin   // gated: idle cycles stay cheap
      for (int unsigned k = 0; k < MaxK; k++) begin
        logic [31:0] j, raw, iv, a;
        j = i_q + 32'(k);
        if (!row_hit && 32'(k) < row_left && j < evl
            && (!masked || (j < VLEN && v0_i[j[$clog2(VLEN)-1:0]]))) begin
          raw = 32'(row >> (8 * ((ibytes & (RB - 1)) + 32'(k) * ieb)));
          unique case (uop_i.ieew)
            2'd0:    iv = {24'b0, raw[7:0]};
            2'd1:    iv = {16'b0, raw[15:0]};
            default: iv = raw;
          endcase
          a = req_i.rs1[31:0] + iv;
          if ((a & (eb - 32'd1)) != '0 || !in_region(64'(a), 64'(a) + 64'(eb))) begin
            row_hit  = 1'b1;
            row_mis  = (a & (eb - 32'd1)) != '0;
            row_k    = 32'(k);
            row_addr = a;
          end
        end
      end
    end
  end

  always_comb begin
    state_d  = state_q;
    i_d   = i_q;
    f_d   = f_q;
    res_d = res_q;
    unique case (state_q)
      StIdle: begin
        if (check_i && !fast_ok && final_i) begin
          state_d  = StWalk;
          i_d   = req_i.vstart;
          f_d   = '0;
          res_d = '0;
        end
      end
      StWalk: begin
        if (i_q >= evl) begin
          state_d = StDone;
        end else if (row_mode) begin
          if (row_hit) begin
            state_d        = StDone;
            res_d.elem  = i_q + row_k;
            res_d.field = '0;
            res_d.tval  = row_addr;
            res_d.cause = row_mis ? (store ? 6'd6 : 6'd4) : (store ? 6'd7 : 6'd5);
            res_d.fault = 1'b1;
          end else begin
            i_d = i_q + row_left;
          end
        end else if (!active) begin
          i_d = i_q + 32'd1;
        end else if (misal || outside) begin
          state_d          = StDone;
          res_d.elem    = i_q;
          res_d.field   = f_q;
          res_d.tval    = addr;
          res_d.cause   = misal ? (store ? 6'd6 : 6'd4) : (store ? 6'd7 : 6'd5);
          // fault-only-first: only element 0 traps; later ones trim vl
          res_d.fault   = !ff || (i_q == '0);
          res_d.trim    = ff && (i_q != '0);
        end else if (f_q == uop_i.nf) begin
          i_d = i_q + 32'd1;
          f_d = '0;
        end else begin
          f_d = f_q + 3'd1;
        end
      end
      default: begin   // StDone: the answer waits for the handshake
        if (fire_i) state_d = StIdle;
      end
    endcase
  end

  assign walking_o = (state_q == StWalk);
  assign hold_o    = check_i && (state_q != StDone) && !(state_q == StIdle && fast_ok);
  assign ack_o     = (state_q == StDone) ? res_q : '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      i_q     <= '0;
      f_q     <= '0;
      res_q   <= '0;
    end else begin
      state_q <= state_d;
      i_q     <= i_d;
      f_q     <= f_d;
      res_q   <= res_d;
    end
  end

  logic unused;
  assign unused = ^{req_i.rs1[63:32], req_i.rs2[63:32], req_i.frs1, req_i.vtype, req_i.frm,
                    req_i.vxrm, req_i.seq, req_i.insn, uop_i};

endmodule
