// Gemmini's loop_ws unroller (LoopMatmul; DMA.md beside this file): takes the
// five loop_ws configs (funct 9..13) and loop_ws (funct 8) and emits the
// primitive commands of sim/gemmini/loop_ws.py's LoopWs.commands (mvin3 for D,
// mvin for A, mvin2 for B, preload + compute_preloaded/accumulated, mvout for C),
// the same multiset, in an order that keeps every dependency of the model's:
// the D, A and B moves are interleaved with the execute commands, each emitted
// just before the first tile that needs it (up to LookAhead tiles early), so
// the mesh starts after the first tile's loads instead of after all of them
// (DMA.md, "loop_ws order"). The C stores follow the last compute.
//
// Ports
//   clk_i, rst_ni                  clock, asynchronous active-low reset
//   in_valid_i, in_ready_o         command in (valid/ready)
//   in_funct_i[6:0]                8 (loop_ws) or 9..13 (its configs); the top
//                                  sends nothing else here
//   in_rs1_i[63:0], in_rs2_i[63:0] the instruction's source registers as written
//   out_valid_o, out_ready_i       primitive command out (valid/ready)
//   out_funct_o[6:0]               MVIN 2, MVIN2 1, MVIN3 14, PRELOAD 6,
//                                  COMPUTE_PRELOADED 4, COMPUTE_ACCUMULATED 5,
//                                  MVOUT 3
//   out_rs1_o[63:0], out_rs2_o[63:0]  exactly as the model's generator yields them
//   busy_o                         a loop is being unrolled (commands still to
//                                  come); low when idle
//
// Parameters (sim/gemmini/params.py): Dim, SpRows, AccRows, MaxBlockLen
// (dma_max_bytes / Dim), MaxBlockLenAcc (dma_max_bytes / (4 Dim)); the order's
// JGroup and LookAhead (defaults measured in DMA.md).
//
// Handshake: in_ready_o = !busy_o (state only): a config or the next loop_ws
// waits until the current loop's last command has been taken, so a loop's
// config registers never change under it. The scratchpad half alternates with every loop_ws, the accumulator half
// with every loop_ws whose C address is non-zero, as the model's. Commands are
// assumed legal (the top checks LoopWs._check's rules at its handshake).
module gemmini_loop_ws #(
  parameter int unsigned Dim            = 4,
  parameter int unsigned SpRows         = 4096,
  parameter int unsigned AccRows        = 256,
  parameter int unsigned MaxBlockLen    = 16,
  parameter int unsigned MaxBlockLenAcc = 4,
  parameter int unsigned JGroup         = 3,   // C tile columns a group of the execute order spans
  parameter int unsigned LookAhead      = 64   // tiles the loads may run ahead of execute (< 256)
) (
  input  logic        clk_i,        // clock
  input  logic        rst_ni,       // asynchronous reset, active low
  input  logic        in_valid_i,   // a command (loop_ws or one of its configs)
  output logic        in_ready_o,   // ... taken (!busy_o)
  input  logic [6:0]  in_funct_i,   // 8 (loop_ws) or 9..13 (its configs)
  input  logic [63:0] in_rs1_i,     // its rs1, as written
  input  logic [63:0] in_rs2_i,     // its rs2, as written
  output logic        out_valid_o,  // a primitive command
  input  logic        out_ready_i,  // ... taken
  output logic [6:0]  out_funct_o,  // its funct (header list)
  output logic [63:0] out_rs1_o,    // its rs1, as the model's generator yields it
  output logic [63:0] out_rs2_o,    // its rs2, likewise
  output logic        busy_o        // a loop is being unrolled
);

  // sim/gemmini/isa.py
  localparam logic [6:0] FMvin2 = 7'd1, FMvin = 7'd2, FMvout = 7'd3, FComputePre = 7'd4,
                         FComputeAcc = 7'd5, FPreload = 7'd6, FLoopWs = 7'd8, FBounds = 7'd9,
                         FAddrsAB = 7'd10, FAddrsDC = 7'd11, FStridesAB = 7'd12, FStridesDC = 7'd13,
                         FMvin3 = 7'd14;
  localparam logic [31:0] Garbage = 32'hffff_ffff;
  localparam logic [15:0] D16 = 16'(Dim);

  typedef enum logic [1:0] {StIdle, StRun, StStoreC} phase_e;
  typedef enum logic [1:0] {StreamD, StreamA, StreamB, StreamC} stream_e;
  typedef struct packed {
    logic [15:0] i, j, k, jg;            // tile indices; jg the group's first C column (or k, B transposed)
    logic        last;                   // (next_tile) the loop's last tile was passed
  } tile_t;

  // One block-move stream (D, A, B or C): for col in 0..cols_n step bm, for row
  // in 0..rows_n: a move of min(bm, cols_n - col) tiles, DRAM dram0 +
  // (row*stride + col)*Dim*eb, local row sp0 + (row*cols_n + col)*Dim; the last
  // tile row loses pad_r rows, the move reaching the last tile column pad_c columns.
  typedef struct packed {
    logic [6:0]  funct;
    logic [63:0] dram0, stride;
    logic        eb4;                    // 4-byte elements (int32 D or C)
    logic [31:0] sp0;
    logic [15:0] rows_n, cols_n, pad_r, pad_c, bm;
  } geom_t;

  // ---------------------------------------------------------------- config (funct 9..13)
  logic [15:0] max_i_q, max_j_q, max_k_q, pad_i_q, pad_j_q, pad_k_q;
  logic [63:0] a_addr_q, b_addr_q, d_addr_q, c_addr_q, a_stride_q, b_stride_q, d_stride_q, c_stride_q;

  // ---------------------------------------------------------------- the running loop
  logic        ex_acc_q, full_c_q, low_d_q, a_t_q, b_t_q;
  logic        sp_half_q, acc_half_q;    // halves the next loop takes (the model's loops_started % 2, acc_half)
  logic [31:0] a_start_q, b_start_q, acc_start_q;
  phase_e      phase_q;
  logic [16:0] row_q [4], col_q [4];     // per stream: tile row, first tile column of its next move
  logic [3:0]  sdone_q;                  // D, A, B: every move of the stream is out (C unused)
  tile_t       ex_q, la_q;               // execute cursor, look-ahead cursor
  logic        ecmp_q;                   // execute: 0 preload, 1 compute
  logic        la_done_q;                // the look-ahead cursor has passed the last tile
  logic [7:0]  la_cnt_q;                 // tiles the look-ahead cursor is ahead of execute

  logic unused_sdone;                    // the C stream ends the loop instead
  assign unused_sdone = sdone_q[StreamC];

  assign busy_o     = (phase_q != StIdle);
  assign in_ready_o = !busy_o;

  logic in_fire, out_fire, start;
  assign in_fire  = in_valid_i && in_ready_o;
  assign out_fire = out_valid_o && out_ready_i;
  assign start    = in_fire && (in_funct_i == FLoopWs);

  function automatic logic [15:0] min16(logic [15:0] a, logic [15:0] b);
    return (a < b) ? a : b;
  endfunction

  // ---------------------------------------------------------------- the four streams' geometry
  geom_t geo [4];
  always_comb begin
    geo[StreamD] = '{funct: FMvin3, dram0: d_addr_q, stride: d_stride_q, eb4: !low_d_q,
                sp0: 32'h8000_0000 | acc_start_q, rows_n: max_i_q, cols_n: max_j_q, pad_r: pad_i_q,
                pad_c: pad_j_q, bm: min16(max_j_q, low_d_q ? 16'(MaxBlockLen) : 16'(MaxBlockLenAcc))};
    geo[StreamA] = a_t_q
      ? '{funct: FMvin, dram0: a_addr_q, stride: a_stride_q, eb4: 1'b0, sp0: a_start_q, rows_n: max_k_q,
          cols_n: max_i_q, pad_r: pad_k_q, pad_c: pad_i_q, bm: min16(max_i_q, 16'(MaxBlockLen))}
      : '{funct: FMvin, dram0: a_addr_q, stride: a_stride_q, eb4: 1'b0, sp0: a_start_q, rows_n: max_i_q,
          cols_n: max_k_q, pad_r: pad_i_q, pad_c: pad_k_q, bm: min16(max_k_q, 16'(MaxBlockLen))};
    geo[StreamB] = b_t_q
      ? '{funct: FMvin2, dram0: b_addr_q, stride: b_stride_q, eb4: 1'b0, sp0: b_start_q, rows_n: max_j_q,
          cols_n: max_k_q, pad_r: pad_j_q, pad_c: pad_k_q, bm: min16(max_k_q, 16'(MaxBlockLen))}
      : '{funct: FMvin2, dram0: b_addr_q, stride: b_stride_q, eb4: 1'b0, sp0: b_start_q, rows_n: max_k_q,
          cols_n: max_j_q, pad_r: pad_k_q, pad_c: pad_j_q, bm: min16(max_j_q, 16'(MaxBlockLen))};
    geo[StreamC] = '{funct: FMvout, dram0: c_addr_q, stride: c_stride_q, eb4: full_c_q,
                sp0: 32'h8000_0000 | (32'(full_c_q) << 29) | acc_start_q, rows_n: max_i_q, cols_n: max_j_q,
                pad_r: pad_i_q, pad_c: pad_j_q, bm: full_c_q ? 16'd1 : min16(max_j_q, 16'(MaxBlockLen))};
  end

  // the move a stream emits next, and whether it is the stream's last row / column
  logic [63:0] mv_rs1 [4], mv_rs2 [4];
  logic        mv_last_row [4], mv_last_col [4];
  always_comb begin
    for (int unsigned s = 0; s < 4; s++) begin
      logic [16:0] blocks;
      logic [15:0] cols, rows;
      logic [63:0] elem;
      mv_last_row[s] = (row_q[s] == 17'(geo[s].rows_n) - 17'd1);
      blocks         = (17'(geo[s].cols_n) - col_q[s] < 17'(geo[s].bm)) ? 17'(geo[s].cols_n) - col_q[s]
                                                                        : 17'(geo[s].bm);
      mv_last_col[s] = (col_q[s] + blocks >= 17'(geo[s].cols_n));
      cols           = 16'(blocks * 17'(Dim)) - (mv_last_col[s] ? geo[s].pad_c : 16'd0);  // <= MaxBlockLen*Dim
      rows           = D16 - (mv_last_row[s] ? geo[s].pad_r : 16'd0);
      elem           = (64'(row_q[s]) * geo[s].stride + 64'(col_q[s])) * 64'(Dim);
      mv_rs1[s]      = geo[s].dram0 + (geo[s].eb4 ? (elem << 2) : elem);
      mv_rs2[s]      = {rows, cols, geo[s].sp0 + (32'(row_q[s]) * 32'(geo[s].cols_n) + 32'(col_q[s])) * 32'(Dim)};
    end
  end

  // has stream s emitted the move holding tile (r, c) of its matrix? Moves go
  // column block by column block, rows fastest.
  function automatic logic emitted(logic [15:0] bm, logic [16:0] row, logic [16:0] col, logic done,
                                   logic [15:0] r, logic [15:0] c);
    return done || 17'(c) < col || (17'(c) < col + 17'(bm) && 17'(r) < row);
  endfunction

  // ---------------------------------------------------------------- tile order
  // Execute order, B as stored ([K, N]): column groups of JGroup C tile columns;
  // within a group k, then j, then i fastest. B stored transposed ([N, K], a
  // linear's weights): groups of kb = min(K, MaxBlockLen) k steps, the span of one
  // B move; within a group j, then k, then i fastest, so the tiles take B's moves
  // in the order the stream emits them (with the column groups, the first group
  // would wait for the moves of every other column before its second k group).
  // Weights are preloaded once per (k, j) and reused while i runs (the model's
  // commands for the tile), and every C tile sees its k in increasing order, so
  // the accumulator ends as the model's. A group's first columns need only their
  // own D tiles, so the bias loads spread over the loop instead of all coming
  // before the first compute.
  // Both orders are one walk: i fastest, then the grouped index (j, or k when
  // k_groups) within [jg, jg + span), then the other index, then the next group.
  function automatic tile_t next_tile(tile_t t, logic [15:0] mi, logic [15:0] mj, logic [15:0] mk,
                                      logic k_groups, logic [15:0] kb);
    tile_t       n = t;
    logic [15:0] grouped, grouped_n, other, other_n, span;
    grouped   = k_groups ? t.k : t.j;
    grouped_n = k_groups ? mk : mj;
    other     = k_groups ? t.j : t.k;
    other_n   = k_groups ? mj : mk;
    span      = k_groups ? kb : 16'(JGroup);
    n.last    = 1'b0;
    if (t.i != mi - 16'd1) begin
      n.i = t.i + 16'd1;
    end else begin
      n.i = '0;
      if (17'(grouped) + 17'd1 < 17'(t.jg) + 17'(span) && grouped + 16'd1 < grouped_n) begin
        grouped = grouped + 16'd1;
      end else begin
        grouped = t.jg;
        if (other != other_n - 16'd1) begin
          other = other + 16'd1;
        end else begin
          other   = '0;
          n.jg    = t.jg + span;
          grouped = t.jg + span;
          n.last  = 17'(t.jg) + 17'(span) >= 17'(grouped_n);
        end
      end
      n.j = k_groups ? other : grouped;
      n.k = k_groups ? grouped : other;
    end
    return n;
  endfunction

  logic [15:0] k_block;  // k steps one B move spans when B is stored transposed
  assign k_block = min16(max_k_q, 16'(MaxBlockLen));

  // the look-ahead cursor's tile: which of its loads are not out yet
  logic la_need_d, la_need_a, la_need_b, la_ready;
  always_comb begin
    la_need_d = !la_done_q && la_q.k == 16'd0
                && !emitted(geo[StreamD].bm, row_q[StreamD], col_q[StreamD], sdone_q[StreamD], la_q.i, la_q.j);
    la_need_a = !la_done_q && !emitted(geo[StreamA].bm, row_q[StreamA], col_q[StreamA], sdone_q[StreamA],
                                       a_t_q ? la_q.k : la_q.i, a_t_q ? la_q.i : la_q.k);
    la_need_b = !la_done_q && !emitted(geo[StreamB].bm, row_q[StreamB], col_q[StreamB], sdone_q[StreamB],
                                       b_t_q ? la_q.j : la_q.k, b_t_q ? la_q.k : la_q.j);
    la_ready  = !(la_need_d || la_need_a || la_need_b);
  end

  // Loads first: whatever the look-ahead tile (LookAhead tiles ahead of
  // execute at most) still needs; otherwise the next execute command. Execute
  // is behind the look-ahead cursor or at it with its loads out, so every
  // compute comes after the loads of its tile.
  logic    ld_sel, la_adv;
  stream_e sel;
  always_comb begin
    ld_sel = phase_q == StRun && !la_ready && !ecmp_q;  // never between a preload and its compute
    sel    = la_need_d ? StreamD : la_need_a ? StreamA : StreamB;
    if (phase_q == StStoreC) sel = StreamC;
    la_adv = phase_q == StRun && !la_done_q && la_ready && la_cnt_q < 8'(LookAhead);
  end

  // ---------------------------------------------------------------- execute
  logic        ex_last_i, ex_last_j, ex_last_k;
  logic [15:0] ex_rows, ex_kcols, ex_bcols;
  logic [31:0] ex_a, ex_b, ex_out, ex_pre;
  always_comb begin
    ex_last_i = (ex_q.i == max_i_q - 16'd1);
    ex_last_j = (ex_q.j == max_j_q - 16'd1);
    ex_last_k = (ex_q.k == max_k_q - 16'd1);
    ex_rows   = D16 - (ex_last_i ? pad_i_q : 16'd0);
    ex_kcols  = D16 - (ex_last_k ? pad_k_q : 16'd0);  // A columns = B rows
    ex_bcols  = D16 - (ex_last_j ? pad_j_q : 16'd0);
    ex_b      = b_start_q + (b_t_q ? 32'(ex_q.j) * 32'(max_k_q) + 32'(ex_q.k)
                                   : 32'(ex_q.k) * 32'(max_j_q) + 32'(ex_q.j)) * 32'(Dim);
    ex_a      = a_start_q + (a_t_q ? 32'(ex_q.k) * 32'(max_i_q) + 32'(ex_q.i)
                                   : 32'(ex_q.i) * 32'(max_k_q) + 32'(ex_q.k)) * 32'(Dim);
    ex_out    = (((ex_acc_q || ex_q.k != 16'd0) ? 32'hc000_0000 : 32'h8000_0000) | acc_start_q)
                + (32'(ex_q.i) * 32'(max_j_q) + 32'(ex_q.j)) * 32'(Dim);
    ex_pre    = (ex_q.i == 16'd0) ? ex_b : Garbage;
  end

  // ---------------------------------------------------------------- output
  always_comb begin
    out_valid_o = busy_o;
    if (phase_q == StRun && !ld_sel) begin
      if (!ecmp_q) begin
        out_funct_o = FPreload;
        out_rs1_o   = {ex_kcols, ex_bcols, ex_pre};
        out_rs2_o   = {ex_rows, ex_bcols, ex_out};
      end else begin
        out_funct_o = (ex_q.i == 16'd0) ? FComputePre : FComputeAcc;
        out_rs1_o   = {ex_rows, ex_kcols, ex_a};
        out_rs2_o   = {D16, D16, Garbage};
      end
    end else begin
      out_funct_o = geo[sel].funct;
      out_rs1_o   = mv_rs1[sel];
      out_rs2_o   = mv_rs2[sel];
    end
  end

  logic ex_tile_out, mv_out;
  assign ex_tile_out = out_fire && phase_q == StRun && !ld_sel && ecmp_q;
  assign mv_out      = out_fire && (ld_sel || phase_q == StStoreC);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      max_i_q     <= '0;
      max_j_q     <= '0;
      max_k_q     <= '0;
      pad_i_q     <= '0;
      pad_j_q     <= '0;
      pad_k_q     <= '0;
      a_addr_q    <= '0;
      b_addr_q    <= '0;
      d_addr_q    <= '0;
      c_addr_q    <= '0;
      a_stride_q  <= '0;
      b_stride_q  <= '0;
      d_stride_q  <= '0;
      c_stride_q  <= '0;
      ex_acc_q    <= 1'b0;
      full_c_q    <= 1'b0;
      low_d_q     <= 1'b0;
      a_t_q       <= 1'b0;
      b_t_q       <= 1'b0;
      sp_half_q   <= 1'b0;
      acc_half_q  <= 1'b0;
      a_start_q   <= '0;
      b_start_q   <= '0;
      acc_start_q <= '0;
      phase_q     <= StIdle;
      for (int unsigned s = 0; s < 4; s++) begin
        row_q[s] <= '0;
        col_q[s] <= '0;
      end
      sdone_q   <= '0;
      ex_q      <= '0;
      la_q      <= '0;
      ecmp_q    <= 1'b0;
      la_done_q <= 1'b0;
      la_cnt_q  <= '0;
    end else begin
      if (in_fire) begin
        unique case (in_funct_i)
          FBounds: begin
            {max_k_q, max_j_q, max_i_q} <= in_rs2_i[47:0];
            {pad_k_q, pad_j_q, pad_i_q} <= in_rs1_i[47:0];
          end
          FAddrsAB:   {a_addr_q, b_addr_q} <= {in_rs1_i, in_rs2_i};
          FAddrsDC:   {d_addr_q, c_addr_q} <= {in_rs1_i, in_rs2_i};
          FStridesAB: {a_stride_q, b_stride_q} <= {in_rs1_i, in_rs2_i};
          FStridesDC: {d_stride_q, c_stride_q} <= {in_rs1_i, in_rs2_i};
          default: ;  // loop_ws: below
        endcase
      end
      if (start) begin
        // the model's commands(): the halves advance even for an empty loop
        ex_acc_q    <= in_rs1_i[0];
        full_c_q    <= in_rs1_i[1];
        low_d_q     <= in_rs1_i[2];
        a_t_q       <= in_rs2_i[0];
        b_t_q       <= in_rs2_i[1];
        sp_half_q   <= ~sp_half_q;
        a_start_q   <= sp_half_q ? 32'(SpRows / 2) : 32'd0;
        b_start_q   <= (sp_half_q ? 32'(SpRows) : 32'(SpRows / 2)) - 32'(Dim)
                       - 32'(max_k_q) * 32'(max_j_q) * 32'(Dim);
        acc_start_q <= acc_half_q ? 32'(AccRows / 2) : 32'd0;
        if (c_addr_q != 64'd0) acc_half_q <= ~acc_half_q;
        for (int unsigned s = 0; s < 4; s++) begin
          row_q[s] <= '0;
          col_q[s] <= '0;
        end
        sdone_q   <= {3'b000, d_addr_q == 64'd0};
        ex_q      <= '0;
        la_q      <= '0;
        ecmp_q    <= 1'b0;
        la_done_q <= 1'b0;
        la_cnt_q  <= '0;
        if (max_i_q == 16'd0 || max_j_q == 16'd0 || max_k_q == 16'd0) phase_q <= StIdle;
        else phase_q <= StRun;
      end
      if (la_adv) begin
        la_q      <= next_tile(la_q, max_i_q, max_j_q, max_k_q, b_t_q, k_block);
        la_done_q <= next_tile(la_q, max_i_q, max_j_q, max_k_q, b_t_q, k_block).last;
      end
      la_cnt_q <= la_cnt_q + 8'(la_adv) - 8'(ex_tile_out);
      if (out_fire && phase_q == StRun && !ld_sel) begin
        ecmp_q <= ~ecmp_q;
        if (ecmp_q) begin
          ex_q <= next_tile(ex_q, max_i_q, max_j_q, max_k_q, b_t_q, k_block);
          // every load is out once the last tile's are (each move holds a tile)
          if (next_tile(ex_q, max_i_q, max_j_q, max_k_q, b_t_q, k_block).last) phase_q <= (c_addr_q != 64'd0) ? StStoreC : StIdle;
        end
      end
      if (mv_out) begin
        row_q[sel] <= mv_last_row[sel] ? 17'd0 : row_q[sel] + 17'd1;
        if (mv_last_row[sel]) begin
          col_q[sel] <= col_q[sel] + 17'(geo[sel].bm);
          if (mv_last_col[sel]) begin
            sdone_q[sel] <= 1'b1;
            if (sel == StreamC) phase_q <= StIdle;
          end
        end
      end
    end
  end

endmodule
