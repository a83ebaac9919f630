// Legality of Gemmini instructions at the issue handshake (UNIT.md, "Illegal
// reasons"), for gemmini_unit.
//
// Every GemminiIllegal check of sim/gemmini/model.py and sim/gemmini/loop_ws.py
// is made here, in the model's order, on a shadow copy of the state the checks
// read: the three config_ld's shrink / block stride / pixel repeats / stride,
// config_ex's dataflow, transposes and strides, config_st's stride and pooling
// geometry, the loop_ws config and its scratchpad/accumulator halves, the
// preload waiting for its compute and (OS) the result waiting in the array.
// The shadow changes only when an instruction is accepted (accept_i: the
// handshake with legal_o = 1), so a refused instruction has no effect (the core
// traps precisely; the model is rolled back the same way in the tests).
//
// loop_ws is decided as a whole: its own checks, then those its unrolled
// commands would fail, from the loop config and the shadow configs. Within one
// loop the reason follows the order of the unroller's phases (D loads, A loads,
// B loads, the computes' A reads, the C writes, the C stores); when two phases
// would fail, the model may name the later one when its failing command comes
// first (the legality itself does not depend on it).
//
// A DMA byte range is legal when its first and last byte and every byte between
// lie in the memory map's regions (Mem0/1/2), which is the model's row-by-row
// check whenever the regions between them are contiguous (they are in every
// config). Scratchpad and accumulator row counts are powers of two.
//
// One module of about 630 lines, by design: every check reads the same shadow
// state and helper functions, and the checks of one instruction are one case
// item of one funct case (the model's order within it). sim/rtl/gemmini/
// gen_coverage.py parses that case to say which fields the RTL checks per funct
// (COVERAGE.md); the largest item, loop_ws (about 140 lines), derives its
// commands' checks from the same shadow configs as the block moves' items, so a
// module of its own would take the whole shadow as ports.
module gemmini_unit_decode
  import gemmini_pkg::*;
  import gemmini_unit_pkg::*;
#(
  parameter int unsigned Dim            = 4,
  parameter int unsigned SpRows         = 1024,
  parameter int unsigned AccRows        = 256,
  parameter int unsigned MaxBlockLen    = 16,
  parameter int unsigned MaxBlockLenAcc = 4,
  parameter bit          HasWs          = 1'b1,
  parameter bit          HasOs          = 1'b1,
  parameter logic [31:0] Mem0Base       = 32'h2000_0000,
  parameter logic [32:0] Mem0Size       = 33'h0_2000_0000,
  parameter logic [31:0] Mem1Base       = 32'h4000_0000,
  parameter logic [32:0] Mem1Size       = 33'h0_8000_0000,
  parameter logic [31:0] Mem2Base       = 32'hC000_0000,
  parameter logic [32:0] Mem2Size       = 33'h0_0100_0000
) (
  input  logic        clk_i,         // clock
  input  logic        rst_ni,        // asynchronous reset, active low
  input  logic [6:0]  funct_i,       // the instruction's funct
  input  logic [63:0] rs1_i,         // its rs1
  input  logic [63:0] rs2_i,         // its rs2
  output logic        legal_o,       // it passes every check of the model
  output gm_illegal_e reason_o,      // else the first check it fails
  input  logic        accept_i       // the instruction is taken (valid && ready && legal_o)
);

  typedef logic [127:0] wide_t;   // DRAM byte arithmetic without wrap-around
  typedef logic [63:0]  u64_t;

  localparam u64_t D       = u64_t'(Dim);
  localparam u64_t SpR     = u64_t'(SpRows);
  localparam u64_t AccR    = u64_t'(AccRows);
  localparam u64_t HalfSp  = u64_t'(SpRows) / 2;
  localparam u64_t HalfAcc = u64_t'(AccRows) / 2;
  localparam logic [31:0] Garbage = 32'hFFFF_FFFF;

  // ---------------------------------------------------------------------------
  // Shadow state (the model's names)
  // ---------------------------------------------------------------------------
  typedef struct packed {
    logic [63:0] stride;
    logic        shrink;
    logic [15:0] block_stride;
    logic [7:0]  pixel_repeats;
  } ld_cfg_t;

  typedef struct packed {
    logic        ws;          // dataflow
    logic        a_t, b_t;
    logic [15:0] a_stride, c_stride;
  } ex_cfg_t;

  typedef struct packed {
    logic [31:0] stride;
    logic [1:0]  pool_stride, pool_size;
    logic [7:0]  pool_out_dim, porows, pocols, orows, ocols;
  } st_cfg_t;

  typedef struct packed {
    logic [15:0] max_i, max_j, max_k, pad_i, pad_j, pad_k;
    logic [63:0] a_addr, b_addr, d_addr, c_addr, a_stride, b_stride, d_stride, c_stride;
  } loop_cfg_t;

  // a C destination (preload waiting for its compute; OS result in the array)
  typedef struct packed {
    logic        v;
    logic [31:0] c;
    logic [15:0] rows, cols;
  } c_dest_t;

  typedef struct packed {
    ld_cfg_t [2:0] ld;
    ex_cfg_t       ex;
    st_cfg_t       st;
    loop_cfg_t     lp;
    logic          loop_half;  // which scratchpad half the next loop takes
    logic          acc_half;   // which accumulator half the next loop takes
    c_dest_t       pend;
    c_dest_t       os;
  } shadow_t;

  shadow_t s_q, s_d;

  // ---------------------------------------------------------------------------
  // Checks (the functions look at a few fields of whole addresses and records)
  // ---------------------------------------------------------------------------
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic u64_t umax(u64_t a, u64_t b);
    return a > b ? a : b;
  endfunction

  function automatic u64_t umin(u64_t a, u64_t b);
    return a < b ? a : b;
  endfunction

  function automatic wide_t wmax(wide_t a, wide_t b);
    return a > b ? a : b;
  endfunction

  // _acc_row / _sp_row: rows [row, row + span) of the address's memory.
  function automatic gm_illegal_e chk_local(logic [31:0] raw, u64_t span);
    if (raw[31]) begin
      if (raw[28:26] != 3'd0) return IllNormCmd;
      if (u64_t'(raw[25:0]) + span > AccR) return IllAccRange;
    end else if (u64_t'(raw[29:0]) + span > SpR) begin
      return IllSpRange;
    end
    return IllNone;
  endfunction

  // _read_operand
  function automatic gm_illegal_e chk_read(logic [31:0] raw, logic [15:0] rows, logic [15:0] cols,
                                           logic transpose, logic [15:0] stride);
    logic [15:0] mrows, mcols;
    mrows = transpose ? cols : rows;
    mcols = transpose ? rows : cols;
    if (raw == Garbage || mrows == 16'd0 || mcols == 16'd0) return IllNone;
    return chk_local(raw, (u64_t'(mrows) - 1) * u64_t'(stride) + 1);
  endfunction

  // _write_result (the rows a result lands in, with config_ex's C stride)
  function automatic gm_illegal_e chk_write(c_dest_t c, logic ws, logic [15:0] cs);
    u64_t span;
    if (c.c == Garbage || c.rows == 16'd0 || c.cols == 16'd0) return IllNone;
    if (cs == 16'd1) span = u64_t'(c.rows);
    else if (ws) span = (u64_t'(c.rows) - 1) * u64_t'(cs) + 1;
    else if (cs > 16'd1) return IllOsStride;  // OS rows would land below C
    else span = D;                            // OS, stride 0: row DIM-1 for all
    return chk_local(c.c, span);
  endfunction

  // Does a result that can be written (not garbage, rows and cols) wait in the array?
  function automatic logic drainable(c_dest_t c);
    return c.v && c.c != Garbage && c.rows != 16'd0 && c.cols != 16'd0;
  endfunction

  // _os_drain_if_read: does a read of rows of `raw` overlap the pending OS result?
  function automatic logic os_overlap(c_dest_t os, logic [31:0] raw, logic [15:0] rows, logic [15:0] cols,
                                      logic [15:0] stride, logic [15:0] cs);
    logic signed [63:0] lo, hi, c0, c_lo, c_hi;
    u64_t mask;
    if (!os.v || raw == Garbage || os.c == Garbage || os.rows == 16'd0) return 1'b0;
    if (raw[31] != os.c[31]) return 1'b0;
    mask = raw[31] ? AccR - 1 : SpR - 1;
    lo   = $signed(u64_t'(raw[25:0]) & mask);
    hi   = lo + $signed(umax(umax(u64_t'(rows), u64_t'(cols)), 1) * umax(u64_t'(stride), 1));
    c0   = $signed(u64_t'(os.c[25:0]) & mask);
    c_lo = c0 + $signed(D - 1) - $signed((D - 1) * u64_t'(cs));
    c_hi = c0 + $signed(D - 1) - $signed((D - u64_t'(os.rows)) * u64_t'(cs)) + 1;
    return lo < c_hi && c_lo < hi;
  endfunction

  function automatic logic in_map(wide_t a);
    return (a >= wide_t'(Mem0Base) && a < wide_t'(Mem0Base) + wide_t'(Mem0Size))
        || (a >= wide_t'(Mem1Base) && a < wide_t'(Mem1Base) + wide_t'(Mem1Size))
        || (a >= wide_t'(Mem2Base) && a < wide_t'(Mem2Base) + wide_t'(Mem2Size));
  endfunction

  // Bytes lo..hi all in the memory map (a gap starts at some region's end).
  function automatic logic dma_ok(wide_t lo, wide_t hi);
    wide_t e0, e1, e2;
    e0 = wide_t'(Mem0Base) + wide_t'(Mem0Size);
    e1 = wide_t'(Mem1Base) + wide_t'(Mem1Size);
    e2 = wide_t'(Mem2Base) + wide_t'(Mem2Size);
    if (!in_map(lo) || !in_map(hi)) return 1'b0;
    if (lo < e0 && e0 <= hi && !in_map(e0)) return 1'b0;
    if (lo < e1 && e1 <= hi && !in_map(e1)) return 1'b0;
    if (lo < e2 && e2 <= hi && !in_map(e2)) return 1'b0;
    return 1'b1;
  endfunction

  // One of loop_ws's tiled move streams (loop_ws.py's loads() and _c_tiles()): nr
  // tile rows, nc tile columns moved up to `mbl` tiles at a time, i fastest. The
  // largest local row end and last DRAM byte are at one of the last two tile rows
  // and the last two moves (everything grows with the row and the move).
  typedef struct packed {
    u64_t  first_end;  // local row end of the first command
    u64_t  loc_end;    // largest local row end
    logic  dma;        // some command moves bytes
    wide_t lo, hi;     // first and last DRAM byte
  } stream_t;

  function automatic stream_t stream(u64_t base, logic [15:0] nr, logic [15:0] nc, u64_t mbl,
                                     logic [15:0] pad_r, logic [15:0] pad_c, u64_t bstride,
                                     logic [63:0] dram0, logic [63:0] rstride, u64_t eb_l, u64_t eb_m,
                                     logic [63:0] ld_stride, logic zero_skip);
    stream_t s;
    u64_t b, nmoves, row, mv, col, blocks, rows, cols;
    wide_t addr, lo1;
    s = '0;
    b = umin(u64_t'(nc), mbl);
    nmoves = (u64_t'(nc) + b - 1) / b;
    s.first_end = base + (b - 1) * bstride + (D - (nr == 16'd1 ? u64_t'(pad_r) : 0));
    for (int unsigned cr = 0; cr < 2; cr++) begin
      for (int unsigned cm = 0; cm < 2; cm++) begin
        if (u64_t'(cr) < u64_t'(nr) && u64_t'(cm) < nmoves) begin
          row    = u64_t'(nr) - 1 - u64_t'(cr);
          mv     = nmoves - 1 - u64_t'(cm);
          col    = mv * b;
          blocks = umin(b, u64_t'(nc) - col);
          rows   = D - (row == u64_t'(nr) - 1 ? u64_t'(pad_r) : 0);
          cols   = blocks * D - (mv == nmoves - 1 ? u64_t'(pad_c) : 0);
          s.loc_end = umax(s.loc_end, base + (row * u64_t'(nc) + col) * D + (blocks - 1) * bstride + rows);
          addr = wide_t'(dram0) + (wide_t'(row) * wide_t'(rstride) + wide_t'(col)) * wide_t'(D * eb_l);
          if (!(zero_skip && addr == '0)) begin
            s.hi  = wmax(s.hi, addr + (wide_t'(rows) - 1) * wide_t'(ld_stride) + wide_t'(cols * eb_m) - 1);
            s.dma = 1'b1;
          end
        end
      end
    end
    // the first byte: of the first move, or (ZeroWriter: DRAM address 0 reads
    // nothing) of the second row or the second move
    if (dram0 != '0 || !zero_skip) begin
      s.lo = wide_t'(dram0);
    end else begin
      s.lo = '1;
      lo1 = wide_t'(rstride) * wide_t'(D * eb_l);
      if (nr > 16'd1 && lo1 != '0) s.lo = lo1;
      lo1 = wide_t'(b * D * eb_l);
      if (nmoves > 1 && lo1 < s.lo) s.lo = lo1;
    end
    return s;
  endfunction

  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------------------
  // The instruction against the shadow: reason and next shadow
  // ---------------------------------------------------------------------------
  logic [31:0] raw1, raw2;
  logic [15:0] rows1, cols1, rows2, cols2;
  assign raw1  = rs1_i[31:0];
  assign cols1 = rs1_i[47:32];
  assign rows1 = rs1_i[63:48];
  assign raw2  = rs2_i[31:0];
  assign cols2 = rs2_i[47:32];
  assign rows2 = rs2_i[63:48];

  gm_illegal_e r;

  always_comb begin
    int unsigned idx;
    u64_t        blocks, maxb, span, nrows, pitch, eb, end_row, a_start, b_start, b_end, acc_start, bc;
    u64_t        mi, mj, mk, mrows, tile, rows_i, a_cols, maxj;
    logic        to_acc, int32, full, one_d, flip, a_t, b_t, low_d, full_c, ex_acc, w_any;
    c_dest_t     pre;
    /* verilator lint_off UNUSEDSIGNAL */
    stream_t     sd, sa, sb, sc;        // first_end matters for D only
    /* verilator lint_on UNUSEDSIGNAL */
    wide_t       hi;

    s_d = s_q;
    r   = IllNone;
    idx = 0;
    {blocks, maxb, span, nrows, pitch, eb, end_row, a_start, b_start, b_end, acc_start, bc} = '0;
    {mi, mj, mk, mrows, tile, rows_i, a_cols, maxj} = '0;
    {to_acc, int32, full, one_d, flip, a_t, b_t, low_d, full_c, ex_acc, w_any} = '0;
    pre = '0;
    {sd, sa, sb, sc} = '0;
    hi = '0;

    // unknown functs; loop_conv (no hardware) is decided after the drain
    if (!(funct_i <= 7'd22 || funct_i == 7'd126)) r = IllFunct;

    // a command outside the mesh stream first writes a pending OS result
    if (r == IllNone && !(funct_i inside {7'd4, 7'd5, 7'd6}) && drainable(s_d.os)) begin
      s_d.os.v = 1'b0;
      r = chk_write(s_q.os, s_q.ex.ws, s_q.ex.c_stride);
    end

    if (r == IllNone) begin
      unique case (funct_i)
        // ------------------------------------------------------------ config
        7'd0: begin
          unique case (rs1_i[1:0])
            2'd0: begin  // config_ex
              if (!rs1_i[7]) begin
                if ((rs1_i[2] && !HasWs) || (!rs1_i[2] && !HasOs)) r = IllExDataflow;
                else if (rs1_i[4:3] > 2'd1) r = IllExAct;
                else if (32'((rs1_i[2] ? rs1_i[8] : !rs1_i[8])) + 32'(rs1_i[9]) > 1) r = IllExTranspose;
                s_d.ex.ws  = rs1_i[2];
                s_d.ex.a_t = rs1_i[8];
                s_d.ex.b_t = rs1_i[9];
              end
              s_d.ex.a_stride = rs1_i[31:16];
              s_d.ex.c_stride = rs2_i[63:48];
            end
            2'd1: begin  // config_ld
              if (rs1_i[4:3] == 2'd3) begin
                r = IllLdId;
              end else begin
                idx = 32'(rs1_i[4:3]);
                s_d.ld[idx].stride        = rs2_i;
                s_d.ld[idx].shrink        = rs1_i[2];
                s_d.ld[idx].pixel_repeats = rs1_i[15:8] == 8'd0 ? 8'd1 : rs1_i[15:8];
                s_d.ld[idx].block_stride  = rs1_i[31:16];
              end
            end
            2'd2: begin  // config_st
              if (rs1_i[3:2] > 2'd1) r = IllStAct;
              s_d.st.pool_stride = rs1_i[5:4];
              s_d.st.pool_size   = rs1_i[7:6];
              if (rs1_i[5:4] != 2'd0) begin
                s_d.st.porows = rs1_i[39:32];
                s_d.st.pocols = rs1_i[47:40];
              end
              if (rs1_i[5:4] != 2'd0 || rs1_i[7:6] != 2'd0) begin
                s_d.st.pool_out_dim = rs1_i[31:24];
                s_d.st.orows        = rs1_i[55:48];
                s_d.st.ocols        = rs1_i[63:56];
              end
              s_d.st.stride = rs2_i[31:0];
            end
            default: r = IllCfgNorm;
          endcase
        end
        // ------------------------------------------------------------ mvin, mvin2, mvin3
        7'd2, 7'd1, 7'd14: begin
          idx = funct_i == 7'd2 ? 0 : (funct_i == 7'd1 ? 1 : 2);
          if (!(raw2 == Garbage || rows2 == 16'd0 || cols2 == 16'd0)) begin
            to_acc = raw2[31];
            int32  = to_acc && !s_q.ld[idx].shrink;
            maxb   = int32 ? u64_t'(MaxBlockLenAcc) : u64_t'(MaxBlockLen);
            blocks = (u64_t'(cols2) + D - 1) / D;
            span   = (blocks - 1) * u64_t'(s_q.ld[idx].block_stride) + u64_t'(rows2);
            eb     = int32 ? 4 : 1;
            if (u64_t'(rows2) > D) r = IllRows;
            else if (blocks > maxb) r = IllBlocks;
            else r = chk_local(raw2, span);
            if (r == IllNone && to_acc && s_q.ld[idx].pixel_repeats > 8'd1) r = IllPixelRepeat;
            if (r == IllNone && rs1_i != '0) begin
              hi = wide_t'(rs1_i) + (wide_t'(rows2) - 1) * wide_t'(s_q.ld[idx].stride)
                 + wide_t'(u64_t'(cols2) * eb) - 1;
              if (!dma_ok(wide_t'(rs1_i), hi)) r = IllDmaRange;
            end
          end
        end
        // ------------------------------------------------------------ mvout
        7'd3: begin
          if (!(raw2 == Garbage || cols2 == 16'd0 || (rows2 == 16'd0 && s_q.st.pool_stride == 2'd0))) begin
            full = raw2[31] && raw2[29];
            if (s_q.st.pool_stride != 2'd0) begin
              if (u64_t'(cols2) > D) r = IllCols;
              else if (full) r = IllPoolFull;
              else if (s_q.st.pool_size == 2'd0 || s_q.st.ocols == 8'd0 || s_q.st.orows == 8'd0) r = IllPoolDims;
              else r = chk_local(raw2, u64_t'(s_q.st.orows) * u64_t'(s_q.st.ocols));
              if (r == IllNone && s_q.st.porows != 8'd0 && s_q.st.pocols != 8'd0) begin
                pitch = (u64_t'(s_q.st.porows) - 1) * u64_t'(s_q.st.pool_out_dim) + u64_t'(s_q.st.pocols) - 1;
                hi = wide_t'(rs1_i) + wide_t'(pitch) * wide_t'(s_q.st.stride) + wide_t'(cols2) - 1;
                if (!dma_ok(wide_t'(rs1_i), hi)) r = IllDmaRange;
              end
            end else begin
              one_d  = s_q.st.pool_size != 2'd0;
              maxb   = (full || one_d) ? 1 : u64_t'(MaxBlockLen);
              blocks = (u64_t'(cols2) + D - 1) / D;
              nrows  = one_d ? u64_t'(s_q.st.orows) * u64_t'(s_q.st.ocols) : u64_t'(rows2);
              eb     = full ? 4 : 1;
              if (u64_t'(rows2) > D && !one_d) r = IllRows;
              else if (blocks > maxb) r = IllBlocks;
              else r = chk_local(raw2, (blocks - 1) * D + nrows);
              if (r == IllNone && nrows != 0) begin
                pitch = one_d ? (u64_t'(s_q.st.orows) - 1) * u64_t'(s_q.st.pool_out_dim) + u64_t'(s_q.st.ocols) - 1
                              : nrows - 1;
                hi = wide_t'(rs1_i) + wide_t'(pitch) * wide_t'(s_q.st.stride) + wide_t'(u64_t'(cols2) * eb) - 1;
                if (!dma_ok(wide_t'(rs1_i), hi)) r = IllDmaRange;
              end
            end
          end
        end
        // ------------------------------------------------------------ preload
        7'd6: begin
          if (u64_t'(rows1) > D) r = IllRows;
          else if (u64_t'(cols1) > D) r = IllCols;
          else if (u64_t'(rows2) > D) r = IllRows;
          else if (u64_t'(cols2) > D) r = IllCols;
          if (r == IllNone && !s_q.ex.ws
              && os_overlap(s_d.os, raw1, rows1, cols1, 16'd1, s_q.ex.c_stride) && drainable(s_d.os)) begin
            s_d.os.v = 1'b0;
            r = chk_write(s_q.os, 1'b0, s_q.ex.c_stride);
          end
          if (r == IllNone) r = chk_read(raw1, rows1, cols1, s_q.ex.ws && s_q.ex.b_t, 16'd1);
          s_d.pend = '{v: 1'b1, c: raw2, rows: rows2, cols: cols2};
        end
        // ------------------------------------------------------------ compute
        7'd4, 7'd5: begin
          flip = funct_i == 7'd4;
          if (u64_t'(rows1) > D) r = IllRows;
          else if (u64_t'(cols1) > D) r = IllCols;
          else if (u64_t'(rows2) > D) r = IllRows;
          else if (u64_t'(cols2) > D) r = IllCols;
          if (r == IllNone && !s_q.ex.ws) begin
            if (os_overlap(s_d.os, raw1, rows1, cols1, s_q.ex.a_stride, s_q.ex.c_stride) && drainable(s_d.os)) begin
              s_d.os.v = 1'b0;
              r = chk_write(s_q.os, 1'b0, s_q.ex.c_stride);
            end
            if (r == IllNone && os_overlap(s_d.os, raw2, rows2, cols2, 16'd1, s_q.ex.c_stride)
                && drainable(s_d.os)) begin
              s_d.os.v = 1'b0;
              r = chk_write(s_q.os, 1'b0, s_q.ex.c_stride);
            end
          end
          if (r == IllNone) r = chk_read(raw1, rows1, cols1, s_q.ex.a_t, s_q.ex.a_stride);
          pre = s_q.pend;
          s_d.pend.v = 1'b0;
          if (s_q.ex.ws) begin
            if (r == IllNone) r = chk_read(raw2, rows2, cols2, 1'b0, 16'd1);
            if (r == IllNone && pre.v) r = chk_write(pre, 1'b1, s_q.ex.c_stride);
          end else begin
            if (r == IllNone) r = chk_read(raw2, rows2, cols2, s_q.ex.b_t, 16'd1);
            if (flip && s_d.os.v) begin
              if (r == IllNone) r = chk_write(s_d.os, 1'b0, s_q.ex.c_stride);
              s_d.os.v = 1'b0;
            end
            if (pre.v) s_d.os = pre;
          end
        end
        // ------------------------------------------------------------ loop_ws configs
        7'd9: begin
          s_d.lp.max_i = rs2_i[15:0];
          s_d.lp.max_j = rs2_i[31:16];
          s_d.lp.max_k = rs2_i[47:32];
          s_d.lp.pad_i = rs1_i[15:0];
          s_d.lp.pad_j = rs1_i[31:16];
          s_d.lp.pad_k = rs1_i[47:32];
        end
        7'd10: begin s_d.lp.a_addr = rs1_i;   s_d.lp.b_addr = rs2_i;   end
        7'd11: begin s_d.lp.d_addr = rs1_i;   s_d.lp.c_addr = rs2_i;   end
        7'd12: begin s_d.lp.a_stride = rs1_i; s_d.lp.b_stride = rs2_i; end
        7'd13: begin s_d.lp.d_stride = rs1_i; s_d.lp.c_stride = rs2_i; end
        // ------------------------------------------------------------ loop_ws
        7'd8: begin
          mi = u64_t'(s_q.lp.max_i);
          mj = u64_t'(s_q.lp.max_j);
          mk = u64_t'(s_q.lp.max_k);
          ex_acc = rs1_i[0];
          full_c = rs1_i[1];
          low_d  = rs1_i[2];
          a_t    = rs2_i[0];
          b_t    = rs2_i[1];
          // LoopWs._check
          if (u64_t'(s_q.lp.pad_i) >= D || u64_t'(s_q.lp.pad_j) >= D || u64_t'(s_q.lp.pad_k) >= D) r = IllLoopBounds;
          else if (rs1_i[10:8] > 3'd1) r = IllLoopAct;
          else if (rs2_i[2]) r = IllLoopResidual;
          else if (a_t && b_t) r = IllLoopTranspose;
          else if ((mi * mk + mk * mj) * D > HalfSp - D) r = IllLoopSp;
          else if (mi * mj * D > HalfAcc) r = IllLoopAcc;
          a_start   = s_q.loop_half ? HalfSp : 0;
          b_end     = (s_q.loop_half ? SpR : HalfSp) - D;
          b_start   = b_end - mk * mj * D;
          acc_start = s_q.acc_half ? HalfAcc : 0;
          if (r == IllNone && mi != 0 && mj != 0 && mk != 0) begin
            // D: mvin3 into the accumulator
            if (s_q.lp.d_addr != '0) begin
              int32 = !s_q.ld[2].shrink;
              maxb  = int32 ? u64_t'(MaxBlockLenAcc) : u64_t'(MaxBlockLen);
              sd = stream(acc_start, s_q.lp.max_i, s_q.lp.max_j, low_d ? u64_t'(MaxBlockLen) : u64_t'(MaxBlockLenAcc),
                          s_q.lp.pad_i, s_q.lp.pad_j, u64_t'(s_q.ld[2].block_stride), s_q.lp.d_addr,
                          s_q.lp.d_stride, low_d ? 1 : 4, int32 ? 4 : 1, s_q.ld[2].stride, 1'b1);
              if (umin(mj, low_d ? u64_t'(MaxBlockLen) : u64_t'(MaxBlockLenAcc)) > maxb) r = IllBlocks;
              else if (sd.first_end > AccR) r = IllAccRange;
              else if (s_q.ld[2].pixel_repeats > 8'd1) r = IllPixelRepeat;
              else if (sd.loc_end > AccR) r = IllAccRange;
              else if (sd.dma && !dma_ok(sd.lo, sd.hi)) r = IllDmaRange;
            end
            // A (mvin) and B (mvin2) into the scratchpad
            sa = a_t ? stream(a_start, s_q.lp.max_k, s_q.lp.max_i, u64_t'(MaxBlockLen), s_q.lp.pad_k, s_q.lp.pad_i,
                              u64_t'(s_q.ld[0].block_stride), s_q.lp.a_addr, s_q.lp.a_stride, 1, 1,
                              s_q.ld[0].stride, 1'b1)
                     : stream(a_start, s_q.lp.max_i, s_q.lp.max_k, u64_t'(MaxBlockLen), s_q.lp.pad_i, s_q.lp.pad_k,
                              u64_t'(s_q.ld[0].block_stride), s_q.lp.a_addr, s_q.lp.a_stride, 1, 1,
                              s_q.ld[0].stride, 1'b1);
            sb = b_t ? stream(b_start, s_q.lp.max_j, s_q.lp.max_k, u64_t'(MaxBlockLen), s_q.lp.pad_j, s_q.lp.pad_k,
                              u64_t'(s_q.ld[1].block_stride), s_q.lp.b_addr, s_q.lp.b_stride, 1, 1,
                              s_q.ld[1].stride, 1'b1)
                     : stream(b_start, s_q.lp.max_k, s_q.lp.max_j, u64_t'(MaxBlockLen), s_q.lp.pad_k, s_q.lp.pad_j,
                              u64_t'(s_q.ld[1].block_stride), s_q.lp.b_addr, s_q.lp.b_stride, 1, 1,
                              s_q.ld[1].stride, 1'b1);
            if (r == IllNone) begin
              if (sa.loc_end > SpR) r = IllSpRange;
              else if (sa.dma && !dma_ok(sa.lo, sa.hi)) r = IllDmaRange;
              else if (sb.loc_end > SpR) r = IllSpRange;
              else if (sb.dma && !dma_ok(sb.lo, sb.hi)) r = IllDmaRange;
            end
            // the computes' A reads (config_ex's A transpose and stride): the last
            // two tile rows and columns of A hold the largest row end
            for (int unsigned ci = 0; ci < 2; ci++) begin
              for (int unsigned ck = 0; ck < 2; ck++) begin
                if (u64_t'(ci) < mi && u64_t'(ck) < mk) begin
                  rows_i = D - (ci == 0 ? u64_t'(s_q.lp.pad_i) : 0);
                  a_cols = D - (ck == 0 ? u64_t'(s_q.lp.pad_k) : 0);
                  tile   = a_t ? (mk - 1 - u64_t'(ck)) * mi + (mi - 1 - u64_t'(ci))
                               : (mi - 1 - u64_t'(ci)) * mk + (mk - 1 - u64_t'(ck));
                  mrows  = s_q.ex.a_t ? a_cols : rows_i;
                  end_row = a_start + tile * D + (mrows - 1) * u64_t'(s_q.ex.a_stride) + 1;
                  if (r == IllNone && end_row > SpR) r = IllSpRange;
                end
              end
            end
            // the C writes (config_ex's C stride)
            if (r == IllNone && s_q.ex.ws) begin
              for (int unsigned ci = 0; ci < 2; ci++) begin
                if (u64_t'(ci) < mi) begin
                  rows_i = D - (ci == 0 ? u64_t'(s_q.lp.pad_i) : 0);
                  span   = s_q.ex.c_stride == 16'd1 ? rows_i : (rows_i - 1) * u64_t'(s_q.ex.c_stride) + 1;
                  end_row = acc_start + ((mi - 1 - u64_t'(ci)) * mj + mj - 1) * D + span;
                  if (r == IllNone && end_row > AccR) r = IllAccRange;
                end
              end
            end else if (r == IllNone) begin
              // OS: the results of tile row I-1 shift out at the flips and at the
              // drain before the stores; the last one waits when nothing stores C
              w_any = mk * mj >= 2 || s_q.lp.c_addr != '0;
              maxj  = (mk >= 2 || s_q.lp.c_addr != '0) ? mj - 1 : mj - 2;
              rows_i = D - u64_t'(s_q.lp.pad_i);
              if (w_any) begin
                if (s_q.ex.c_stride > 16'd1) r = IllOsStride;
                else if (acc_start + ((mi - 1) * mj + maxj) * D + (s_q.ex.c_stride == 16'd1 ? rows_i : D) > AccR)
                  r = IllAccRange;
              end
            end
            // C: mvout from the accumulator (config_st)
            if (r == IllNone && s_q.lp.c_addr != '0) begin
              bc = full_c ? 1 : umin(mj, u64_t'(MaxBlockLen));
              eb = full_c ? 4 : 1;
              end_row = acc_start + ((mi - 1) * mj + mj - 1) * D;
              if (s_q.st.pool_stride != 2'd0) begin
                pitch = (u64_t'(s_q.st.porows) - 1) * u64_t'(s_q.st.pool_out_dim) + u64_t'(s_q.st.pocols) - 1;
                rows_i = D - u64_t'(s_q.lp.pad_j);
                hi = wide_t'(s_q.lp.c_addr) + ((wide_t'(mi) - 1) * wide_t'(s_q.lp.c_stride) + wide_t'(mj) - 1) * wide_t'(D)
                   + wide_t'(pitch) * wide_t'(s_q.st.stride) + wide_t'(rows_i) - 1;
                if (bc >= 2) r = IllCols;
                else if (full_c) r = IllPoolFull;
                else if (s_q.st.pool_size == 2'd0 || s_q.st.ocols == 8'd0 || s_q.st.orows == 8'd0) r = IllPoolDims;
                else if (end_row + u64_t'(s_q.st.orows) * u64_t'(s_q.st.ocols) > AccR) r = IllAccRange;
                else if (s_q.st.porows != 8'd0 && s_q.st.pocols != 8'd0 && !dma_ok(wide_t'(s_q.lp.c_addr), hi))
                  r = IllDmaRange;
              end else if (s_q.st.pool_size != 2'd0) begin
                nrows = u64_t'(s_q.st.orows) * u64_t'(s_q.st.ocols);
                pitch = (u64_t'(s_q.st.orows) - 1) * u64_t'(s_q.st.pool_out_dim) + u64_t'(s_q.st.ocols) - 1;
                rows_i = (D - u64_t'(s_q.lp.pad_j)) * eb;
                hi = wide_t'(s_q.lp.c_addr)
                   + ((wide_t'(mi) - 1) * wide_t'(s_q.lp.c_stride) + wide_t'(mj) - 1) * wide_t'(D * eb)
                   + wide_t'(pitch) * wide_t'(s_q.st.stride) + wide_t'(rows_i) - 1;
                if (bc >= 2) r = IllBlocks;
                else if (end_row + nrows > AccR) r = IllAccRange;
                else if (nrows != 0 && !dma_ok(wide_t'(s_q.lp.c_addr), hi)) r = IllDmaRange;
              end else begin
                sc = stream(acc_start, s_q.lp.max_i, s_q.lp.max_j, full_c ? 1 : u64_t'(MaxBlockLen),
                            s_q.lp.pad_i, s_q.lp.pad_j, D, s_q.lp.c_addr, s_q.lp.c_stride, eb, eb,
                            u64_t'(s_q.st.stride), 1'b0);
                if (sc.loc_end > AccR) r = IllAccRange;
                else if (!dma_ok(sc.lo, sc.hi)) r = IllDmaRange;
              end
            end
          end
          // the loop's effects on the shadow
          s_d.loop_half = !s_q.loop_half;
          if (s_q.lp.c_addr != '0) s_d.acc_half = !s_q.acc_half;
          if (mi != 0 && mj != 0 && mk != 0) begin
            s_d.pend.v = 1'b0;
            if (!s_q.ex.ws) begin
              s_d.os.v    = s_q.lp.c_addr == '0;
              s_d.os.c    = 32'((ex_acc || mk > 1) ? 64'hC000_0000 : 64'h8000_0000)
                          + 32'(acc_start + ((mi - 1) * mj + mj - 1) * D);
              s_d.os.rows = 16'(D - u64_t'(s_q.lp.pad_i));
              s_d.os.cols = 16'(D - u64_t'(s_q.lp.pad_j));
            end
          end
        end
        // ------------------------------------------------------------ the rest
        7'd15, 7'd16, 7'd17, 7'd18, 7'd19, 7'd20, 7'd21: r = IllLoopConv;
        default: ;  // flush (7), clkgate_en (22), counter (126): no checks
      endcase
    end
  end

  assign legal_o  = r == IllNone;
  assign reason_o = r;

  // Reset values: the model's (strides one int8 row, block stride DIM, pixel
  // repeats 1, WS when the config has it, scales not kept here).
  shadow_t s_rst;
  always_comb begin
    s_rst = '0;
    for (int unsigned i = 0; i < 3; i++) begin
      s_rst.ld[i].stride        = D;
      s_rst.ld[i].block_stride  = 16'(Dim);
      s_rst.ld[i].pixel_repeats = 8'd1;
    end
    s_rst.ex.ws       = HasWs;
    s_rst.ex.a_stride = 16'd1;
    s_rst.ex.c_stride = 16'd1;
    s_rst.st.stride   = 32'(Dim);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) s_q <= s_rst;
    else if (accept_i) s_q <= s_d;
  end

endmodule
