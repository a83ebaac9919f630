// Gemmini's loop_ws unroller (LoopMatmul; DMA.md beside this file): takes the
// five loop_ws configs (funct 9..13) and loop_ws (funct 8) and emits the
// primitive commands of sim/gemmini/loop_ws.py's LoopWs.commands (mvin3 for D,
// mvin for A, mvin2 for B, preload + compute_preloaded/accumulated, mvout for C),
// the same multiset, in an order that keeps every dependency of the model's.
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
// (dma_max_bytes / Dim), MaxBlockLenAcc (dma_max_bytes / (4 Dim)).
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
  parameter int unsigned MaxBlockLenAcc = 4
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        in_valid_i,
  output logic        in_ready_o,
  input  logic [6:0]  in_funct_i,
  input  logic [63:0] in_rs1_i,
  input  logic [63:0] in_rs2_i,
  output logic        out_valid_o,
  input  logic        out_ready_i,
  output logic [6:0]  out_funct_o,
  output logic [63:0] out_rs1_o,
  output logic [63:0] out_rs2_o,
  output logic        busy_o
);

  // sim/gemmini/isa.py
  localparam logic [6:0] FMvin2 = 7'd1, FMvin = 7'd2, FMvout = 7'd3, FComputePre = 7'd4,
                         FComputeAcc = 7'd5, FPreload = 7'd6, FLoopWs = 7'd8, FBounds = 7'd9,
                         FAddrsAB = 7'd10, FAddrsDC = 7'd11, FStridesAB = 7'd12, FStridesDC = 7'd13,
                         FMvin3 = 7'd14;
  localparam logic [31:0] Garbage = 32'hffff_ffff;
  localparam logic [15:0] D16 = 16'(Dim);

  typedef enum logic [2:0] {PhIdle, PhLdD, PhLdA, PhLdB, PhEx, PhStC} phase_e;

  // ---------------------------------------------------------------- config (funct 9..13)
  logic [15:0] max_i_q, max_j_q, max_k_q, pad_i_q, pad_j_q, pad_k_q;
  logic [63:0] a_addr_q, b_addr_q, d_addr_q, c_addr_q, a_stride_q, b_stride_q, d_stride_q, c_stride_q;

  // ---------------------------------------------------------------- the running loop
  logic        ex_acc_q, full_c_q, low_d_q, a_t_q, b_t_q;
  logic        sp_half_q, acc_half_q;    // halves the next loop takes (the model's loops_started % 2, acc_half)
  logic [31:0] a_start_q, b_start_q, acc_start_q;
  phase_e      phase_q;
  logic [16:0] row_q, col_q;             // block moves: tile row, first tile column of the move
  logic [15:0] ei_q, ej_q, ek_q;         // execute: tile indices
  logic        ecmp_q;                   // execute: 0 preload, 1 compute

  assign busy_o     = (phase_q != PhIdle);
  assign in_ready_o = !busy_o;

  logic in_fire, out_fire, start;
  assign in_fire  = in_valid_i && in_ready_o;
  assign out_fire = out_valid_o && out_ready_i;
  assign start    = in_fire && (in_funct_i == FLoopWs);

  function automatic logic [15:0] min16(logic [15:0] a, logic [15:0] b);
    return (a < b) ? a : b;
  endfunction

  // ---------------------------------------------------------------- block moves (D, A, B, C)
  // One generator: for col in 0..n_cols step bm, for row in 0..n_rows: a move of
  // min(bm, n_cols - col) tiles, DRAM dram0 + (row*stride + col)*Dim*eb, local
  // row sp0 + (row*n_cols + col)*Dim; the last tile row loses pad_r rows, the
  // move reaching the last tile column pad_c columns.
  logic [6:0]  mv_funct;
  logic [63:0] mv_dram0, mv_stride;
  logic        mv_eb4;                   // 4-byte elements (int32 D or C)
  logic [31:0] mv_sp0;
  logic [15:0] mv_rows_n, mv_cols_n, mv_pad_r, mv_pad_c, mv_bm;
  always_comb begin
    mv_funct  = FMvin;
    mv_dram0  = a_addr_q;
    mv_stride = a_stride_q;
    mv_eb4    = 1'b0;
    mv_sp0    = a_start_q;
    mv_rows_n = a_t_q ? max_k_q : max_i_q;
    mv_cols_n = a_t_q ? max_i_q : max_k_q;
    mv_pad_r  = a_t_q ? pad_k_q : pad_i_q;
    mv_pad_c  = a_t_q ? pad_i_q : pad_k_q;
    mv_bm     = min16(mv_cols_n, 16'(MaxBlockLen));
    unique case (phase_q)
      PhLdD: begin
        mv_funct  = FMvin3;
        mv_dram0  = d_addr_q;
        mv_stride = d_stride_q;
        mv_eb4    = !low_d_q;
        mv_sp0    = 32'h8000_0000 | acc_start_q;
        mv_rows_n = max_i_q;
        mv_cols_n = max_j_q;
        mv_pad_r  = pad_i_q;
        mv_pad_c  = pad_j_q;
        mv_bm     = min16(max_j_q, low_d_q ? 16'(MaxBlockLen) : 16'(MaxBlockLenAcc));
      end
      PhLdB: begin
        mv_funct  = FMvin2;
        mv_dram0  = b_addr_q;
        mv_stride = b_stride_q;
        mv_sp0    = b_start_q;
        mv_rows_n = b_t_q ? max_j_q : max_k_q;
        mv_cols_n = b_t_q ? max_k_q : max_j_q;
        mv_pad_r  = b_t_q ? pad_j_q : pad_k_q;
        mv_pad_c  = b_t_q ? pad_k_q : pad_j_q;
        mv_bm     = min16(mv_cols_n, 16'(MaxBlockLen));
      end
      PhStC: begin
        mv_funct  = FMvout;
        mv_dram0  = c_addr_q;
        mv_stride = c_stride_q;
        mv_eb4    = full_c_q;
        mv_sp0    = 32'h8000_0000 | (32'(full_c_q) << 29) | acc_start_q;
        mv_rows_n = max_i_q;
        mv_cols_n = max_j_q;
        mv_pad_r  = pad_i_q;
        mv_pad_c  = pad_j_q;
        mv_bm     = full_c_q ? 16'd1 : min16(max_j_q, 16'(MaxBlockLen));
      end
      default: ;
    endcase
  end

  logic        mv_last_row, mv_last_col;
  logic [16:0] mv_blocks;
  logic [15:0] mv_cols, mv_rows;
  logic [63:0] mv_elem, mv_rs1;
  logic [31:0] mv_sp;
  always_comb begin
    mv_last_row = (row_q == 17'(mv_rows_n) - 17'd1);
    mv_blocks   = (17'(mv_cols_n) - col_q < 17'(mv_bm)) ? 17'(mv_cols_n) - col_q : 17'(mv_bm);
    mv_last_col = (col_q + mv_blocks >= 17'(mv_cols_n));
    mv_cols     = 16'(mv_blocks * 17'(Dim)) - (mv_last_col ? mv_pad_c : 16'd0);  // <= MaxBlockLen * Dim
    mv_rows     = D16 - (mv_last_row ? mv_pad_r : 16'd0);
    mv_elem     = (64'(row_q) * mv_stride + 64'(col_q)) * 64'(Dim);
    mv_rs1      = mv_dram0 + (mv_eb4 ? (mv_elem << 2) : mv_elem);
    mv_sp       = mv_sp0 + (32'(row_q) * 32'(mv_cols_n) + 32'(col_q)) * 32'(Dim);
  end

  // ---------------------------------------------------------------- execute
  // k outermost, j, then i fastest; preload then compute for each tile.
  logic        ex_last_i, ex_last_j, ex_last_k;
  logic [15:0] ex_rows, ex_kcols, ex_bcols;
  logic [31:0] ex_a, ex_b, ex_out, ex_pre;
  always_comb begin
    ex_last_i = (ei_q == max_i_q - 16'd1);
    ex_last_j = (ej_q == max_j_q - 16'd1);
    ex_last_k = (ek_q == max_k_q - 16'd1);
    ex_rows   = D16 - (ex_last_i ? pad_i_q : 16'd0);
    ex_kcols  = D16 - (ex_last_k ? pad_k_q : 16'd0);  // A columns = B rows
    ex_bcols  = D16 - (ex_last_j ? pad_j_q : 16'd0);
    ex_b      = b_start_q + (b_t_q ? 32'(ej_q) * 32'(max_k_q) + 32'(ek_q)
                                   : 32'(ek_q) * 32'(max_j_q) + 32'(ej_q)) * 32'(Dim);
    ex_a      = a_start_q + (a_t_q ? 32'(ek_q) * 32'(max_i_q) + 32'(ei_q)
                                   : 32'(ei_q) * 32'(max_k_q) + 32'(ek_q)) * 32'(Dim);
    ex_out    = (((ex_acc_q || ek_q != 16'd0) ? 32'hc000_0000 : 32'h8000_0000) | acc_start_q)
                + (32'(ei_q) * 32'(max_j_q) + 32'(ej_q)) * 32'(Dim);
    ex_pre    = (ei_q == 16'd0) ? ex_b : Garbage;
  end

  // ---------------------------------------------------------------- output
  always_comb begin
    out_valid_o = busy_o;
    if (phase_q == PhEx) begin
      if (!ecmp_q) begin
        out_funct_o = FPreload;
        out_rs1_o   = {ex_kcols, ex_bcols, ex_pre};
        out_rs2_o   = {ex_rows, ex_bcols, ex_out};
      end else begin
        out_funct_o = (ei_q == 16'd0) ? FComputePre : FComputeAcc;
        out_rs1_o   = {ex_rows, ex_kcols, ex_a};
        out_rs2_o   = {D16, D16, Garbage};
      end
    end else begin
      out_funct_o = mv_funct;
      out_rs1_o   = mv_rs1;
      out_rs2_o   = {mv_rows, mv_cols, mv_sp};
    end
  end

  // The phase after a finished one (loads of D, A, B, execute, store of C).
  function automatic phase_e next_phase(phase_e ph, logic has_c);
    unique case (ph)
      PhLdD:   return PhLdA;
      PhLdA:   return PhLdB;
      PhLdB:   return PhEx;
      PhEx:    return has_c ? PhStC : PhIdle;
      default: return PhIdle;
    endcase
  endfunction

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
      phase_q     <= PhIdle;
      row_q       <= '0;
      col_q       <= '0;
      ei_q        <= '0;
      ej_q        <= '0;
      ek_q        <= '0;
      ecmp_q      <= 1'b0;
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
        row_q  <= '0;
        col_q  <= '0;
        ei_q   <= '0;
        ej_q   <= '0;
        ek_q   <= '0;
        ecmp_q <= 1'b0;
        if (max_i_q == 16'd0 || max_j_q == 16'd0 || max_k_q == 16'd0) phase_q <= PhIdle;
        else if (d_addr_q != 64'd0) phase_q <= PhLdD;
        else phase_q <= PhLdA;
      end
      if (out_fire) begin
        if (phase_q == PhEx) begin
          ecmp_q <= ~ecmp_q;
          if (ecmp_q) begin
            ei_q <= ex_last_i ? 16'd0 : ei_q + 16'd1;
            if (ex_last_i) begin
              ej_q <= ex_last_j ? 16'd0 : ej_q + 16'd1;
              if (ex_last_j) begin
                ek_q <= ek_q + 16'd1;
                if (ex_last_k) phase_q <= next_phase(phase_q, c_addr_q != 64'd0);
              end
            end
          end
        end else begin
          row_q <= mv_last_row ? 17'd0 : row_q + 17'd1;
          if (mv_last_row) begin
            col_q <= col_q + 17'(mv_bm);
            if (mv_last_col) begin
              col_q   <= '0;
              phase_q <= next_phase(phase_q, c_addr_q != 64'd0);
            end
          end
        end
      end
    end
  end

endmodule
