// Load controller of the Gemmini unit (UNIT.md, LOAD.md beside this file):
// config_ld and mvin / mvin2 / mvin3, bit-exact with sim/gemmini/model.py
// (_config's config_ld branch, _mvin, _pixel_repeat).
//
// Three stages around a command queue (CmdDepth entries, program order):
//   accept     config_ld updates the id's config registers at once; every
//              command (config_ld and mvins that move nothing too) becomes a
//              queue entry that captures the config in force, so later
//              config_lds never touch a command already taken.
//   generator  walks the queue ahead of the writer and sends one DMA read per
//              DRAM row (dram + r*stride, cols * element bytes), up to
//              MaxInflight requests unanswered, across command boundaries.
//   writer     takes the DMA responses (in request order) through a 2-entry
//              buffer, cuts each row into DIM-column blocks (block b to row
//              base + b*block_stride + r; the last block masked), scales int8
//              data (gemmini_scale, to int8) when the id's scale is not 1.0,
//              makes the pixel-repeat copies, and registers one row write a
//              cycle for the scratchpad or the accumulator port. A busy port
//              holds the output register, then the buffer, then
//              rd_resp_ready_o: back-pressure, never loss.
// A DRAM address of 0 (ZeroWriter) writes zeros without a request. Completions
// leave the output register in queue order: a command is done the cycle after
// its last write is accepted (config_ld and empty mvins the cycle after they
// reach the writer), at most one a cycle.
//
// Write order. The model writes block by block (b outer, r inner); the
// hardware's natural order is row by row (one request carries every block of a
// row). Both give the same memory whenever the blocks' target rows cannot meet,
// i.e. block_stride >= rows + pixel_repeats - 1. When they can (a small
// block_stride), the command is "split": one request per (block, row), blocks
// outer, exactly the model's order (slower, as many requests as block rows).
//
// Counters: busy_o (a command taken and not yet through the output register),
// rd_bytes_o (bytes of the read request accepted this cycle), stall_mem_o (a
// write waits for its memory port), rd_err_o (a response with an access error
// was taken; its data are written as they came).
module gemmini_load
  import gemmini_pkg::*;
#(
  parameter int unsigned Dim            = 4,
  parameter int unsigned SpRows         = 4096,
  parameter int unsigned AccRows        = 256,
  parameter int unsigned DmaMaxBytes    = 64,
  parameter int unsigned MaxBlockLen    = 16,   // DmaMaxBytes / Dim (at least 1)
  parameter int unsigned MaxBlockLenAcc = 4,    // DmaMaxBytes / (4 Dim) (at least 1)
  // The unit's other parameters, accepted so the top can pass one set to every block.
  /* verilator lint_off UNUSEDPARAM */
  parameter int unsigned SpBanks        = 4,
  parameter int unsigned AccBanks       = 2,
  parameter int unsigned DmaBytes       = 16,
  parameter bit          HasWs          = 1'b1,
  parameter bit          HasOs          = 1'b1,
  /* verilator lint_on UNUSEDPARAM */
  parameter int unsigned CmdDepth       = 16,   // queue entries (a power of two)
  parameter int unsigned MaxInflight    = 32,   // DMA reads sent and not yet answered (at most 256: 8-bit tags)
  localparam int unsigned SpRowW        = $clog2(SpRows),
  localparam int unsigned AccRowW       = $clog2(AccRows),
  localparam int unsigned LenW          = $clog2(DmaMaxBytes + 1)
) (
  input  logic                     clk_i,                // clock
  input  logic                     rst_ni,               // asynchronous reset, active low
  // commands (program order) and completions
  input  logic                     cmd_valid_i,          // a config_ld / mvin command, in program order
  output logic                     cmd_ready_o,          // ... taken (the queue has room)
  input  gm_cmd_t                  cmd_i,                // the command
  output logic                     done_valid_o,         // a command completes (registered, at most one a cycle)
  output logic [IdW-1:0]           done_id_o,            // its ROB id
  // scratchpad write port
  output logic                     sp_wr_valid_o,        // a scratchpad row write
  input  logic                     sp_wr_ready_i,        // ... accepted
  output logic [SpRowW-1:0]        sp_wr_row_o,          // its row
  output logic [Dim-1:0]           sp_wr_mask_o,         // its column enables
  output logic [Dim*8-1:0]         sp_wr_data_o,         // its int8 values
  output logic [IdW-1:0]           sp_wr_id_o,           // the writing command's id (trace)
  // accumulator write port
  output logic                     acc_wr_valid_o,       // an accumulator row write
  input  logic                     acc_wr_ready_i,       // ... accepted
  output logic [AccRowW-1:0]       acc_wr_row_o,         // its row
  output logic [Dim-1:0]           acc_wr_mask_o,        // its column enables
  output logic [Dim*32-1:0]        acc_wr_data_o,        // its int32 values
  output logic                     acc_wr_accumulate_o,  // add to the row (else overwrite)
  output logic [IdW-1:0]           acc_wr_id_o,          // the writing command's id (trace)
  // DMA read side
  output logic                     rd_req_valid_o,       // a DMA read of one DRAM row
  input  logic                     rd_req_ready_i,       // ... accepted
  output logic [31:0]              rd_req_addr_o,        // its byte address
  output logic [LenW-1:0]          rd_req_len_o,         // its length in bytes
  output logic [7:0]               rd_req_tag_o,         // its tag (requests counted modulo 256)
  input  logic                     rd_resp_valid_i,      // a response, in request order
  output logic                     rd_resp_ready_o,      // ... taken (the buffer has room)
  input  logic [7:0]               rd_resp_tag_i,        // its tag
  input  logic [DmaMaxBytes*8-1:0] rd_resp_data_i,       // its bytes
  input  logic                     rd_resp_err_i,        // an access error (the data are written as they came)
  // counters
  output logic                     busy_o,               // a command taken and not yet completed
  output logic [LenW-1:0]          rd_bytes_o,           // bytes of the read request accepted this cycle
  output logic                     stall_mem_o,          // a write waits for its memory port
  output logic                     rd_err_o              // a response with an access error was taken
);

  localparam int unsigned RowW   = SpRowW > AccRowW ? SpRowW : AccRowW;
  localparam int unsigned RowsW  = $clog2(Dim + 1);            // rows 1..Dim
  localparam int unsigned IdxW   = Dim > 1 ? $clog2(Dim) : 1;  // row index 0..Dim-1
  localparam int unsigned BlkW   = MaxBlockLen > 1 ? $clog2(MaxBlockLen) : 1;  // block index
  localparam int unsigned QW     = $clog2(CmdDepth);
  localparam int unsigned FlW    = $clog2(MaxInflight + 1);
  localparam int unsigned HalfSp = SpRows / 2;                 // PixelRepeater: copies stay in their half
  // The response as whole blocks of either element width (padded when DIM is wider than a request).
  localparam int unsigned Blk32  = MaxBlockLenAcc;
  localparam int unsigned PadB0  = MaxBlockLen * Dim > DmaMaxBytes ? MaxBlockLen * Dim : DmaMaxBytes;
  localparam int unsigned PadB   = Blk32 * Dim * 4 > PadB0 ? Blk32 * Dim * 4 : PadB0;
  localparam logic [31:0] ScaleOne = 32'h3F80_0000;

  // ---------------------------------------------------------------- config_ld registers

  typedef struct packed {
    logic [31:0] stride;    // DRAM bytes between rows
    logic [31:0] scale;     // fp32 bits
    logic        shrink;    // accumulator mvins read int8
    logic [15:0] bstride;   // local rows between blocks
    logic [7:0]  reps;      // pixel repeats, 1..255
  } ld_cfg_t;

  localparam ld_cfg_t CfgReset = '{stride: 32'(Dim), scale: ScaleOne, shrink: 1'b0,
                                   bstride: 16'(Dim), reps: 8'd1};

  ld_cfg_t cfg_q [3];

  // ---------------------------------------------------------------- queue entries

  typedef struct packed {
    logic [IdW-1:0]   id;
    logic             nop;      // config_ld or an mvin that moves nothing: a completion only
    logic             zero;     // ZeroWriter (DRAM address 0): zeros, no request
    logic             to_acc;
    logic             accum;    // accumulate into the accumulator
    logic             int32;    // 4-byte elements (accumulator, no shrink)
    logic             scaled;   // int8 data through the scale unit
    logic             split;    // one request per (block, row), blocks outer (header)
    logic [31:0]      dram;
    logic [31:0]      stride;
    logic [RowW-1:0]  base;
    logic [RowsW-1:0] rows;     // 1..Dim
    logic [BlkW:0]    blocks;   // 1..MaxBlockLen
    logic [RowsW-1:0] last_w;   // columns of the last block, 1..Dim
    logic [LenW-1:0]  len;      // bytes of a whole-row request
    logic [15:0]      bstride;
    logic [7:0]       reps;
    logic [31:0]      scale;
  } desc_t;

  desc_t          q_q [CmdDepth];
  logic [QW:0]    tail_q, gen_q, head_q;  // accept / generator / writer, with a wrap bit

  // ---------------------------------------------------------------- accept

  logic          acc_fire, is_cfg;
  logic [1:0]    mv_id, cfg_id;
  ld_cfg_t       cfg_cur;
  desc_t         nd;
  logic [31:0]   raw;
  logic [15:0]   cols, rows16;
  logic [16:0]   blocks17;
  logic [31:0]   span_need;

  assign cmd_ready_o = (tail_q - head_q) != (QW + 1)'(CmdDepth);
  assign acc_fire    = cmd_valid_i && cmd_ready_o;

  always_comb begin
    is_cfg  = cmd_i.funct == 7'd0;
    cfg_id  = cmd_i.rs1[4:3];
    unique case (cmd_i.funct)
      7'd1:    mv_id = 2'd1;  // mvin2
      7'd14:   mv_id = 2'd2;  // mvin3
      default: mv_id = 2'd0;  // mvin
    endcase
    cfg_cur  = cfg_q[mv_id];
    raw      = cmd_i.rs2[31:0];
    cols     = cmd_i.rs2[47:32];
    rows16   = cmd_i.rs2[63:48];
    blocks17 = (17'(cols) + 17'(Dim - 1)) / 17'(Dim);

    nd        = '0;
    nd.id     = cmd_i.id;
    nd.nop    = is_cfg || raw == 32'hFFFF_FFFF || rows16 == '0 || cols == '0;
    nd.zero   = cmd_i.rs1 == '0;
    nd.to_acc = raw[31];
    nd.accum  = raw[31] && raw[30];
    nd.int32  = raw[31] && !cfg_cur.shrink;
    nd.scaled = !nd.int32 && !nd.zero && cfg_cur.scale != ScaleOne;
    nd.dram   = cmd_i.rs1[31:0];
    nd.stride = cfg_cur.stride;
    nd.base   = raw[31] ? RowW'(raw[AccRowW-1:0]) : RowW'(raw[SpRowW-1:0]);
    nd.rows   = RowsW'(rows16);
    nd.blocks = (BlkW + 1)'(blocks17);
    nd.last_w = RowsW'(17'(cols) - (blocks17 - 17'd1) * 17'(Dim));
    nd.len    = LenW'(nd.int32 ? {cols, 2'b00} : 18'(cols));
    nd.bstride = cfg_cur.bstride;
    nd.reps   = raw[31] ? 8'd1 : cfg_cur.reps;
    nd.scale  = cfg_cur.scale;
    // Blocks whose rows may meet must go in the model's order (header).
    span_need = 32'(rows16) + 32'(nd.reps) - 32'd1;
    nd.split  = blocks17 > 17'd1 && 32'(cfg_cur.bstride) < span_need && !nd.zero;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned i = 0; i < 3; i++) cfg_q[i] <= CfgReset;
      tail_q <= '0;
    end else if (acc_fire) begin
      if (is_cfg && cfg_id != 2'd3) begin
        cfg_q[cfg_id].stride  <= cmd_i.rs2[31:0];
        cfg_q[cfg_id].shrink  <= cmd_i.rs1[2];
        cfg_q[cfg_id].reps    <= cmd_i.rs1[15:8] == '0 ? 8'd1 : cmd_i.rs1[15:8];  // 0 read as 1
        cfg_q[cfg_id].bstride <= cmd_i.rs1[31:16];
        cfg_q[cfg_id].scale   <= cmd_i.rs1[63:32];
      end
      tail_q <= tail_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (acc_fire) q_q[tail_q[QW-1:0]] <= nd;
  end

  // ---------------------------------------------------------------- generator (DMA reads)

  /* verilator lint_off UNUSEDSIGNAL */
  desc_t            g;      // the generator reads only the request fields
  /* verilator lint_on UNUSEDSIGNAL */
  logic             g_has, g_skip, g_fire, g_last_r, g_last_b, g_fresh_q;
  logic [IdxW-1:0]  g_r_q, g_r;
  logic [BlkW-1:0]  g_b_q, g_b;
  logic [31:0]      g_addr_q, g_blk_q, g_addr, g_blk, g_blk_bytes;
  logic [FlW-1:0]   inflight_q;
  logic [7:0]       tag_q;
  logic             resp_fire;

  always_comb begin
    g           = q_q[gen_q[QW-1:0]];
    g_has       = gen_q != tail_q;
    g_skip      = g_has && (g.nop || g.zero);
    g_r         = g_fresh_q ? '0 : g_r_q;
    g_b         = g_fresh_q ? '0 : g_b_q;
    g_addr      = g_fresh_q ? g.dram : g_addr_q;
    g_blk       = g_fresh_q ? g.dram : g_blk_q;
    g_last_r    = 32'(g_r) == 32'(g.rows) - 32'd1;
    g_last_b    = 32'(g_b) == 32'(g.blocks) - 32'd1;
    g_blk_bytes = g.int32 ? 32'(Dim * 4) : 32'(Dim);
    rd_req_valid_o = g_has && !g.nop && !g.zero && inflight_q != FlW'(MaxInflight);
    rd_req_addr_o  = g_addr;
    rd_req_tag_o   = tag_q;
    if (!g.split) rd_req_len_o = g.len;
    else rd_req_len_o = LenW'((g_last_b ? 32'(g.last_w) : 32'(Dim)) * (g.int32 ? 32'd4 : 32'd1));
  end

  assign g_fire = rd_req_valid_o && rd_req_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      gen_q      <= '0;
      g_fresh_q  <= 1'b1;
      g_r_q      <= '0;
      g_b_q      <= '0;
      g_addr_q   <= '0;
      g_blk_q    <= '0;
      inflight_q <= '0;
      tag_q      <= '0;
    end else begin
      if (g_skip) begin
        gen_q     <= gen_q + 1'b1;
        g_fresh_q <= 1'b1;
      end else if (g_fire) begin
        tag_q <= tag_q + 1'b1;
        if (!g_last_r) begin            // next row of this block
          g_r_q     <= g_r + 1'b1;
          g_b_q     <= g_b;
          g_addr_q  <= g_addr + g.stride;
          g_blk_q   <= g_blk;
          g_fresh_q <= 1'b0;
        end else if (g.split && !g_last_b) begin  // split: row 0 of the next block
          g_r_q     <= '0;
          g_b_q     <= g_b + 1'b1;
          g_addr_q  <= g_blk + g_blk_bytes;
          g_blk_q   <= g_blk + g_blk_bytes;
          g_fresh_q <= 1'b0;
        end else begin                  // the command's last request
          gen_q     <= gen_q + 1'b1;
          g_fresh_q <= 1'b1;
        end
      end
      inflight_q <= inflight_q + FlW'(g_fire) - FlW'(resp_fire);
    end
  end

  assign rd_bytes_o = g_fire ? rd_req_len_o : '0;

  // ---------------------------------------------------------------- response buffer (2 entries)

  logic [DmaMaxBytes*8-1:0] rb_data_q [2];
  logic [1:0]               rb_cnt_q;
  logic                     rb_wr_q, rb_rd_q, rb_pop;

  assign rd_resp_ready_o = rb_cnt_q != 2'd2;
  assign resp_fire       = rd_resp_valid_i && rd_resp_ready_o;
  assign rd_err_o        = resp_fire && rd_resp_err_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rb_cnt_q <= '0;
      rb_wr_q  <= 1'b0;
      rb_rd_q  <= 1'b0;
    end else begin
      if (resp_fire) rb_wr_q <= !rb_wr_q;
      if (rb_pop) rb_rd_q <= !rb_rd_q;
      rb_cnt_q <= rb_cnt_q + 2'(resp_fire) - 2'(rb_pop);
    end
  end

  always_ff @(posedge clk_i) begin
    if (resp_fire) rb_data_q[rb_wr_q] <= rd_resp_data_i;
  end

  // ---------------------------------------------------------------- writer

  /* verilator lint_off UNUSEDSIGNAL */
  desc_t            w;      // the writer reads only the write fields
  /* verilator lint_on UNUSEDSIGNAL */
  logic             w_has, w_need, w_go, w_fresh_q, w_inblk_q, w_last_r, w_last_b, w_end;
  logic [IdxW-1:0]  w_r_q, w_r;
  logic [BlkW-1:0]  w_b_q, w_b, w_sel;
  logic [RowW-1:0]  w_cur_q, w_outer_q, w_cur, w_outer, w_room;
  logic [7:0]       w_k_q, w_k, w_kstart, w_kmax;
  logic [RowsW-1:0] w_bw;
  logic [15:0]      w_c;
  logic [PadB*8-1:0]         w_pad;
  logic [Dim*8-1:0]          w_blk8;
  logic [Dim*32-1:0]         w_blk32, w_vals, w_shifted;
  logic [Dim-1:0]            w_mask;

  // output register (one write, or a completion only)
  logic             out_valid_q, out_write_q, out_acc_q, out_accum_q, out_last_q, out_ready, out_adv;
  logic [RowW-1:0]  out_row_q;
  logic [Dim-1:0]   out_mask_q;
  logic [Dim*32-1:0] out_data_q;
  logic [IdW-1:0]   out_id_q;

  always_comb begin
    w       = q_q[head_q[QW-1:0]];
    w_need  = !w.nop && !w.zero;
    // An entry that sends requests may start as soon as the generator has it
    // (its responses gate it); one without waits until the generator is past.
    w_has   = head_q != tail_q && (head_q != gen_q || w_need);
    w_go    = w_has && out_adv && (!w_need || rb_cnt_q != '0);
    w_r     = w_fresh_q ? '0 : w_r_q;
    w_b     = w_fresh_q ? '0 : w_b_q;
    w_cur   = w_fresh_q ? w.base : w_cur_q;
    w_outer = w_fresh_q ? w.base : w_outer_q;
    w_last_r = 32'(w_r) == 32'(w.rows) - 32'd1;
    w_last_b = 32'(w_b) == 32'(w.blocks) - 32'd1;
    w_bw    = w_last_b ? w.last_w : RowsW'(Dim);
    // Pixel repeats: copy k of this block row goes k rows up and k*w columns
    // right; copies past DIM columns or below the row's scratchpad half drop.
    w_room  = (32'(w_cur) >= HalfSp) ? w_cur - RowW'(HalfSp) : w_cur;
    w_kmax  = '0;                      // (Dim - 1) / w: a table of constants, no divider
    for (int unsigned i = 1; i <= Dim; i++) begin
      if (32'(w_bw) == i) w_kmax = 8'((Dim - 1) / i);
    end
    w_kstart = w.reps - 8'd1;
    if (w_kmax < w_kstart) w_kstart = w_kmax;
    if (32'(w_room) < 32'(w_kstart)) w_kstart = 8'(w_room);
    w_k     = w_inblk_q ? w_k_q : w_kstart;
    w_c     = 16'(w_k) * 16'(w_bw);
    w_mask  = Dim'((({Dim{1'b1}} >> (Dim - 32'(w_bw)))) << w_c);
    // this block's elements out of the head response (a split request holds one block)
    w_sel   = w.split ? '0 : w_b;
    w_pad   = (PadB * 8)'(rb_data_q[rb_rd_q]);
    w_blk8  = '0;
    w_blk32 = '0;
    for (int unsigned i = 0; i < MaxBlockLen; i++) begin
      if (w_sel == BlkW'(i)) w_blk8 = w_pad[i*Dim*8 +: Dim*8];
    end
    for (int unsigned i = 0; i < Blk32; i++) begin
      if (w_sel == BlkW'(i)) w_blk32 = w_pad[i*Dim*32 +: Dim*32];
    end
  end

  // The element values; the scale (one unit per element) is computed only in the
  // branch of a scaled write.
  always_comb begin
    for (int unsigned e = 0; e < Dim; e++) begin
      logic [31:0] x8;
      x8 = {{24{w_blk8[e*8+7]}}, w_blk8[e*8 +: 8]};
      if (w.zero) w_vals[e*32 +: 32] = '0;
      else if (w.int32) w_vals[e*32 +: 32] = w_blk32[e*32 +: 32];
      else if (w.scaled) w_vals[e*32 +: 32] = scale_to_int(x8, w.scale, 1'b1);
      else w_vals[e*32 +: 32] = x8;
    end
    w_shifted = w_vals << (32'(w_c) * 32);
  end

  // w_end: this write is the entry's last; rb_pop: it finishes the head response.
  always_comb begin
    w_end  = 1'b0;
    rb_pop = 1'b0;
    if (w_go) begin
      if (w.nop) w_end = 1'b1;
      else if (w_k == '0) begin
        if (w.split) begin
          rb_pop = 1'b1;
          w_end  = w_last_r && w_last_b;
        end else begin
          rb_pop = w_last_b && w_need;
          w_end  = w_last_b && w_last_r;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q    <= '0;
      w_fresh_q <= 1'b1;
      w_inblk_q <= 1'b0;
      w_k_q     <= '0;
      w_r_q     <= '0;
      w_b_q     <= '0;
      w_cur_q   <= '0;
      w_outer_q <= '0;
    end else if (w_go) begin
      if (w_end) begin
        head_q    <= head_q + 1'b1;
        w_fresh_q <= 1'b1;
        w_inblk_q <= 1'b0;
      end else if (w_k != '0) begin   // more copies of this block row
        w_inblk_q <= 1'b1;
        w_k_q     <= w_k - 8'd1;
        w_fresh_q <= 1'b0;
        w_r_q     <= w_r;
        w_b_q     <= w_b;
        w_cur_q   <= w_cur;
        w_outer_q <= w_outer;
      end else begin
        w_inblk_q <= 1'b0;
        w_fresh_q <= 1'b0;
        if (!w.split) begin           // rows outer, blocks inner
          if (!w_last_b) begin
            w_r_q     <= w_r;
            w_b_q     <= w_b + 1'b1;
            w_cur_q   <= w_cur + RowW'(w.bstride);
            w_outer_q <= w_outer;
          end else begin
            w_r_q     <= w_r + 1'b1;
            w_b_q     <= '0;
            w_cur_q   <= w_outer + 1'b1;
            w_outer_q <= w_outer + 1'b1;
          end
        end else begin                // blocks outer, rows inner
          if (!w_last_r) begin
            w_r_q     <= w_r + 1'b1;
            w_b_q     <= w_b;
            w_cur_q   <= w_cur + 1'b1;
            w_outer_q <= w_outer;
          end else begin
            w_r_q     <= '0;
            w_b_q     <= w_b + 1'b1;
            w_cur_q   <= w_outer + RowW'(w.bstride);
            w_outer_q <= w_outer + RowW'(w.bstride);
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------- output register, completions

  assign out_ready = !out_write_q || (out_acc_q ? acc_wr_ready_i : sp_wr_ready_i);
  assign out_adv   = !out_valid_q || out_ready;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_q  <= 1'b0;
      out_write_q  <= 1'b0;
      out_acc_q    <= 1'b0;
      out_accum_q  <= 1'b0;
      out_last_q   <= 1'b0;
      out_row_q    <= '0;
      out_mask_q   <= '0;
      out_data_q   <= '0;
      out_id_q     <= '0;
      done_valid_o <= 1'b0;
      done_id_o    <= '0;
    end else begin
      done_valid_o <= out_valid_q && out_ready && out_last_q;
      done_id_o    <= out_id_q;
      if (out_adv) begin
        out_valid_q <= w_go;
        if (w_go) begin
          out_write_q <= !w.nop;
          out_acc_q   <= w.to_acc;
          out_accum_q <= w.accum;
          out_last_q  <= w_end;
          out_row_q   <= w_cur - RowW'(w_k);
          out_mask_q  <= w_mask;
          out_data_q  <= w_shifted;
          out_id_q    <= w.id;
        end
      end
    end
  end

  assign sp_wr_valid_o       = out_valid_q && out_write_q && !out_acc_q;
  assign sp_wr_row_o         = SpRowW'(out_row_q);
  assign sp_wr_mask_o        = out_mask_q;
  assign sp_wr_id_o          = out_id_q;
  assign acc_wr_valid_o      = out_valid_q && out_write_q && out_acc_q;
  assign acc_wr_row_o        = AccRowW'(out_row_q);
  assign acc_wr_mask_o       = out_mask_q;
  assign acc_wr_data_o       = out_data_q;
  assign acc_wr_accumulate_o = out_accum_q;
  assign acc_wr_id_o         = out_id_q;
  for (genvar e = 0; e < Dim; e++) begin : g_sp_data
    assign sp_wr_data_o[e*8 +: 8] = out_data_q[e*32 +: 8];
  end

  assign busy_o      = tail_q != head_q || out_valid_q;
  assign stall_mem_o = out_valid_q && !out_ready;

  // Responses come back in request order; the tag is only echoed.
  logic unused;
  assign unused = ^{rd_resp_tag_i, cmd_i.rs1[7:5], cmd_i.rs2[63:32], raw[29:0]};

endmodule
