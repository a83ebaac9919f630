// Store controller of the Gemmini-style unit (UNIT.md beside this file;
// STORE.md for the behaviour, the pipeline and measured timing): config_st and
// mvout, bit-exact with sim/gemmini/model.py (_config's config_st branch,
// _mvout, _mvout_pool, _acc_read_scaled).
//
// Pipeline (one scratchpad/accumulator read a cycle, one DMA write request per
// output row):
//   S0  sequencer: walks the output rows of the active mvout and, per row, its
//       pieces (normal: the row's DIM-column blocks; 1-D: one row; pooling: the
//       pool_size x pool_size window, padding pixels as pieces without a read)
//       and issues one read a cycle. A row's last piece is only issued when the
//       write queue and the done queue have room for it, counting the rows in
//       S1 and S2 (reads cannot stall: the data come exactly one cycle after
//       the accepted request).
//   S1  the cycle the read data arrive: registered with their piece.
//   S2  accumulator elements through gemmini_scale (fp32, RNE, int8
//       saturation), then ReLU (AccumulatorScale's order); full-width rows
//       raw; merged into the row being assembled (block b at columns b*DIM;
//       pooling: the running element max, padding counting as zero). The last
//       piece pushes the row into the write queue and an entry into the done
//       queue.
//   WQ  write queue (WrDepth rows) -> the DMA's write request port.
//   DQ  done queue (DoneDepth entries, in command order): one entry per write
//       request (id, last of its command) plus one "marker" per command that
//       writes nothing (config_st, garbage or empty mvouts). Each wr_done pulse
//       retires the oldest write entry; a command is done when its last entry
//       retires, so commands complete in order (a config_st behind mvouts whose
//       writes are in flight completes after them; with none, the cycle after
//       it is taken, without entering the queue).
// A new mvout is taken in the cycle the previous one issues its last read, so
// back-to-back mvouts stream without a bubble.
module gemmini_store
  import gemmini_pkg::*;
#(
  parameter int unsigned Dim            = 4,
  parameter int unsigned SpRows         = 4096,
  parameter int unsigned AccRows        = 256,
  /* verilator lint_off UNUSEDPARAM */
  // The unit's common parameters (UNIT.md); the store controller needs only some.
  parameter int unsigned SpBanks        = 4,
  parameter int unsigned AccBanks       = 2,
  parameter int unsigned DmaBytes       = 16,
  parameter int unsigned MaxBlockLen    = 16,
  parameter int unsigned MaxBlockLenAcc = 4,
  parameter bit          HasWs          = 1'b1,
  parameter bit          HasOs          = 1'b1,
  /* verilator lint_on UNUSEDPARAM */
  parameter int unsigned DmaMaxBytes    = 64,
  parameter int unsigned WrDepth        = 4,   // write queue rows (a power of two)
  parameter int unsigned DoneDepth      = 32,  // writes in flight + markers (a power of two)
  localparam int unsigned SpRowW        = $clog2(SpRows),
  localparam int unsigned AccRowW       = $clog2(AccRows),
  localparam int unsigned LenW          = $clog2(DmaMaxBytes + 1),
  localparam int unsigned DataW         = DmaMaxBytes * 8
) (
  input  logic                clk_i,            // clock
  input  logic                rst_ni,           // asynchronous reset, active low
  // commands (config_st, mvout) in program order
  input  logic                cmd_valid_i,      // a command
  output logic                cmd_ready_o,      // ... taken
  input  gm_cmd_t             cmd_i,            // the command (funct 0 config_st, 3 mvout)
  output logic                done_valid_o,     // a command completes (registered)
  output logic [IdW-1:0]      done_id_o,        // its ROB id
  // scratchpad read port (data the cycle after the accepted request)
  output logic                sp_rd_valid_o,    // a scratchpad row read
  input  logic                sp_rd_ready_i,    // ... granted
  output logic [SpRowW-1:0]   sp_rd_row_o,      // its row
  input  logic [Dim*8-1:0]    sp_rd_data_i,     // the row (the cycle after the grant)
  // accumulator read port (raw int32 rows)
  output logic                acc_rd_valid_o,   // an accumulator row read
  input  logic                acc_rd_ready_i,   // ... granted
  output logic [AccRowW-1:0]  acc_rd_row_o,     // its row
  input  logic [Dim*32-1:0]   acc_rd_data_i,    // the row (the cycle after the grant)
  // DMA write requests (byte i of data to addr + i, len bytes); wr_done_i in order
  output logic                wr_req_valid_o,   // a DMA write request
  input  logic                wr_req_ready_i,   // ... accepted
  output logic [AddrW-1:0]    wr_req_addr_o,    // its byte address
  output logic [LenW-1:0]     wr_req_len_o,     // its length in bytes
  output logic [DataW-1:0]    wr_req_data_o,    // its bytes
  output logic [IdW-1:0]      wr_req_id_o,      // the writing command's id (trace)
  input  logic                wr_done_i,        // the oldest write request is done
  // counters
  output logic                busy_o,           // a command is held (reads, writes or done pending)
  output logic [63:0]         bytes_written_o,  // bytes of accepted write requests since reset
  output logic                stall_mem_o       // work waits on the DMA (request refused, queues full)
);

  localparam logic [6:0] FunctConfig = 7'd0;
  localparam logic [31:0] GarbageAddr = 32'hFFFF_FFFF;
  localparam logic [31:0] OneF32 = 32'h3F80_0000;
  localparam int unsigned WrPtrW = $clog2(WrDepth);
  localparam int unsigned DqPtrW = $clog2(DoneDepth);

  typedef enum logic [1:0] {ModeRows, ModeOneD, ModePool} mode_e;

  // ---------------------------------------------------------------- config_st registers
  // StoreConfig's fields and reset values (stride: one int8 row, scale 1.0).
  logic [31:0] cfg_stride_q, cfg_scale_q;
  logic        cfg_relu_q;
  logic [1:0]  cfg_pool_stride_q, cfg_pool_size_q, cfg_upad_q, cfg_lpad_q;
  logic [7:0]  cfg_pool_out_dim_q, cfg_porows_q, cfg_pocols_q, cfg_orows_q, cfg_ocols_q;

  // ---------------------------------------------------------------- decode of the offered command
  logic        cmd_is_cfg, cmd_marker, cmd_acc, cmd_full;
  logic [31:0] cmd_raw;
  logic [15:0] cmd_cols, cmd_rows;
  mode_e       cmd_mode;
  logic [15:0] cmd_ni;      // output lines: rows / orows / porows
  logic [7:0]  cmd_nj;      // pixels a line: 1 / ocols / pocols
  logic [7:0]  cmd_nk;      // blocks a row (ModeRows)
  logic [31:0] cmd_base;    // first local row
  logic [LenW-1:0] cmd_len;

  always_comb begin
    cmd_is_cfg = cmd_i.funct == FunctConfig;
    cmd_raw    = cmd_i.rs2[31:0];
    cmd_cols   = cmd_i.rs2[47:32];
    cmd_rows   = cmd_i.rs2[63:48];
    cmd_acc    = cmd_raw[31];
    cmd_full   = cmd_acc && cmd_raw[29];
    cmd_base   = cmd_acc ? {6'd0, cmd_raw[25:0]} : {2'd0, cmd_raw[29:0]};
    if (cfg_pool_stride_q != 2'd0) cmd_mode = ModePool;
    else if (cfg_pool_size_q != 2'd0) cmd_mode = ModeOneD;
    else cmd_mode = ModeRows;
    cmd_nk = 8'd1;
    cmd_nj = 8'd1;
    unique case (cmd_mode)
      ModePool: begin
        cmd_ni = {8'd0, cfg_porows_q};
        cmd_nj = cfg_pocols_q;
      end
      ModeOneD: begin
        cmd_ni = {8'd0, cfg_orows_q};
        cmd_nj = cfg_ocols_q;
      end
      default: begin
        cmd_ni = cmd_rows;
        cmd_nk = 8'((32'(cmd_cols) + Dim - 1) / Dim);
      end
    endcase
    // Legal commands keep cols * element bytes within DmaMaxBytes.
    cmd_len = cmd_full ? LenW'({cmd_cols, 2'b00}) : LenW'(cmd_cols);
    // Nothing to write: the model returns before touching memory, or its loops are empty.
    cmd_marker = cmd_is_cfg || cmd_raw == GarbageAddr || cmd_cols == '0
              || (cmd_rows == '0 && cfg_pool_stride_q == 2'd0) || cmd_ni == '0 || cmd_nj == '0;
  end

  // ---------------------------------------------------------------- S0: the sequencer
  logic            act_q;                // an mvout is issuing reads
  mode_e           a_mode_q;
  logic            a_acc_q, a_full_q, a_relu_q;
  logic [IdW-1:0]  a_id_q;
  logic [31:0]     a_scale_q, a_base_q, a_lin_q, a_stride_q, a_line_step_q;
  logic [31:0]     a_pix_addr_q, a_line_addr_q;
  logic [LenW-1:0] a_len_q;
  logic [15:0]     a_ni_q, a_i_q;
  logic [7:0]      a_nj_q, a_j_q, a_nk_q, a_k_q;
  logic [1:0]      a_wr_q, a_wc_q, a_ps_q, a_psz_q, a_upad_q, a_lpad_q;
  logic [7:0]      a_orows_q, a_ocols_q;

  // The piece S0 offers this cycle.
  logic            p_pad, p_first, p_last, p_row_last, p_cmd_last;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0]     p_row;   // wide for the arithmetic; the ports take the row bits
  /* verilator lint_on UNUSEDSIGNAL */
  logic signed [12:0] p_orow, p_ocol;

  always_comb begin
    p_orow  = 13'(a_i_q) * 13'(a_ps_q) + 13'(a_wr_q) - 13'(a_upad_q);
    p_ocol  = 13'(a_j_q) * 13'(a_ps_q) + 13'(a_wc_q) - 13'(a_lpad_q);
    p_pad   = 1'b0;
    p_first = 1'b1;
    p_last  = 1'b1;
    unique case (a_mode_q)
      ModePool: begin
        p_pad   = p_orow < 0 || p_ocol < 0 || p_orow >= $signed({5'd0, a_orows_q})
               || p_ocol >= $signed({5'd0, a_ocols_q});
        p_row   = a_base_q + 32'(p_orow) * 32'(a_ocols_q) + 32'(p_ocol);
        p_first = a_wr_q == 2'd0 && a_wc_q == 2'd0;
        p_last  = a_wr_q == a_psz_q - 2'd1 && a_wc_q == a_psz_q - 2'd1;
      end
      ModeOneD: p_row = a_lin_q;
      default: begin
        // block k of row i is the DIM rows after block k-1
        p_row   = a_lin_q + 32'(a_k_q) * Dim;
        p_first = a_k_q == '0;
        p_last  = a_k_q == a_nk_q - 8'd1;
      end
    endcase
    p_row_last = a_j_q == a_nj_q - 8'd1;
    p_cmd_last = p_last && p_row_last && a_i_q == a_ni_q - 16'd1;
  end

  // Room for one more row in the write queue and one more entry in the done
  // queue, counting the rows S1 and S2 will push (pops not counted).
  logic             s1_valid_q, s1_marker_q, s1_last_q, s2_row_push, s2_dq_push;
  logic             s1_row_pend, s1_dq_pend, dq_pend;
  logic [WrPtrW:0]  wq_cnt_q;
  logic [DqPtrW:0]  dq_cnt_q;
  logic             wq_room, dq_room, credit_ok, s0_fire, s0_read, mem_ready;

  always_comb begin
    s1_row_pend = s1_valid_q && s1_last_q && !s1_marker_q;
    s1_dq_pend  = s1_valid_q && (s1_last_q || s1_marker_q);
    dq_pend     = s1_dq_pend || s2_dq_push;
    wq_room     = 32'(wq_cnt_q) + 32'(s1_row_pend) + 32'(s2_row_push) < WrDepth;
    dq_room     = 32'(dq_cnt_q) + 32'(s1_dq_pend) + 32'(s2_dq_push) < DoneDepth;
    credit_ok = !p_last || (wq_room && dq_room);
    s0_read   = act_q && !p_pad && credit_ok;
    mem_ready = a_acc_q ? acc_rd_ready_i : sp_rd_ready_i;
    s0_fire   = act_q && credit_ok && (p_pad || mem_ready);
  end

  assign sp_rd_valid_o  = s0_read && !a_acc_q;
  assign acc_rd_valid_o = s0_read && a_acc_q;
  assign sp_rd_row_o    = SpRowW'(p_row);
  assign acc_rd_row_o   = AccRowW'(p_row);

  // A marker needs S1 and the done queue; an mvout may follow the last read of
  // the previous one directly. A marker with nothing older left to complete
  // (done queue empty, nothing in S1 or S2 to push) completes at once: done
  // the next cycle, past the pipeline and the queue.
  logic cmd_fire, cmd_start, marker_fast, marker_slow;
  always_comb begin
    if (cmd_marker) cmd_ready_o = !act_q && dq_room;
    else cmd_ready_o = !act_q || (s0_fire && p_cmd_last);
    cmd_fire    = cmd_valid_i && cmd_ready_o;
    cmd_start   = cmd_fire && !cmd_marker;
    marker_fast = cmd_fire && cmd_marker && dq_cnt_q == '0 && !dq_pend;
    marker_slow = cmd_fire && cmd_marker && !marker_fast;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cfg_stride_q       <= 32'(Dim);
      cfg_scale_q        <= OneF32;
      cfg_relu_q         <= 1'b0;
      cfg_pool_stride_q  <= '0;
      cfg_pool_size_q    <= '0;
      cfg_upad_q         <= '0;
      cfg_lpad_q         <= '0;
      cfg_pool_out_dim_q <= '0;
      cfg_porows_q       <= '0;
      cfg_pocols_q       <= '0;
      cfg_orows_q        <= '0;
      cfg_ocols_q        <= '0;
    end else if (cmd_fire && cmd_is_cfg) begin
      // config_st: the pooling geometry only with a pool stride; the output
      // dims also for a 1-D mvout; a scale of all ones keeps the scale.
      cfg_relu_q        <= cmd_i.rs1[2];
      cfg_pool_stride_q <= cmd_i.rs1[5:4];
      cfg_pool_size_q   <= cmd_i.rs1[7:6];
      if (cmd_i.rs1[5:4] != 2'd0) begin
        cfg_upad_q   <= cmd_i.rs1[9:8];
        cfg_lpad_q   <= cmd_i.rs1[11:10];
        cfg_porows_q <= cmd_i.rs1[39:32];
        cfg_pocols_q <= cmd_i.rs1[47:40];
      end
      if (cmd_i.rs1[7:4] != 4'd0) begin
        cfg_pool_out_dim_q <= cmd_i.rs1[31:24];
        cfg_orows_q        <= cmd_i.rs1[55:48];
        cfg_ocols_q        <= cmd_i.rs1[63:56];
      end
      cfg_stride_q <= cmd_i.rs2[31:0];
      if (cmd_i.rs2[63:32] != 32'hFFFF_FFFF) cfg_scale_q <= cmd_i.rs2[63:32];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      act_q         <= 1'b0;
      a_mode_q      <= ModeRows;
      a_acc_q       <= 1'b0;
      a_full_q      <= 1'b0;
      a_relu_q      <= 1'b0;
      a_id_q        <= '0;
      a_scale_q     <= '0;
      a_base_q      <= '0;
      a_lin_q       <= '0;
      a_stride_q    <= '0;
      a_line_step_q <= '0;
      a_pix_addr_q  <= '0;
      a_line_addr_q <= '0;
      a_len_q       <= '0;
      a_ni_q        <= '0;
      a_i_q         <= '0;
      a_nj_q        <= '0;
      a_j_q         <= '0;
      a_nk_q        <= '0;
      a_k_q         <= '0;
      a_wr_q        <= '0;
      a_wc_q        <= '0;
      a_ps_q        <= '0;
      a_psz_q       <= '0;
      a_upad_q      <= '0;
      a_lpad_q      <= '0;
      a_orows_q     <= '0;
      a_ocols_q     <= '0;
    end else begin
      if (s0_fire) begin
        // next piece, then next pixel, then next line
        if (!p_last) begin
          if (a_mode_q == ModePool) begin
            if (a_wc_q == a_psz_q - 2'd1) begin
              a_wc_q <= '0;
              a_wr_q <= a_wr_q + 2'd1;
            end else begin
              a_wc_q <= a_wc_q + 2'd1;
            end
          end else begin
            a_k_q <= a_k_q + 8'd1;
          end
        end else begin
          a_k_q   <= '0;
          a_wr_q  <= '0;
          a_wc_q  <= '0;
          a_lin_q <= a_lin_q + 32'd1;
          if (!p_row_last) begin
            a_j_q        <= a_j_q + 8'd1;
            a_pix_addr_q <= a_pix_addr_q + a_stride_q;
          end else begin
            a_j_q         <= '0;
            a_i_q         <= a_i_q + 16'd1;
            a_line_addr_q <= a_line_addr_q + a_line_step_q;
            a_pix_addr_q  <= a_line_addr_q + a_line_step_q;
          end
          if (p_cmd_last) act_q <= 1'b0;
        end
      end
      if (cmd_start) begin
        act_q         <= 1'b1;
        a_mode_q      <= cmd_mode;
        a_acc_q       <= cmd_acc;
        a_full_q      <= cmd_full;
        a_relu_q      <= cfg_relu_q;
        a_id_q        <= cmd_i.id;
        a_scale_q     <= cfg_scale_q;
        a_base_q      <= cmd_base;
        a_lin_q       <= cmd_base;
        a_stride_q    <= cfg_stride_q;
        // rows: one stride a line; 1-D and pooling: pool_out_dim pixels a line
        a_line_step_q <= cmd_mode == ModeRows ? cfg_stride_q : 32'(cfg_pool_out_dim_q) * cfg_stride_q;
        a_pix_addr_q  <= cmd_i.rs1[31:0];
        a_line_addr_q <= cmd_i.rs1[31:0];
        a_len_q       <= cmd_len;
        a_ni_q        <= cmd_ni;
        a_i_q         <= '0;
        a_nj_q        <= cmd_nj;
        a_j_q         <= '0;
        a_nk_q        <= cmd_nk;
        a_k_q         <= '0;
        a_wr_q        <= '0;
        a_wc_q        <= '0;
        a_ps_q        <= cfg_pool_stride_q;
        a_psz_q       <= cfg_pool_size_q;
        a_upad_q      <= cfg_upad_q;
        a_lpad_q      <= cfg_lpad_q;
        a_orows_q     <= cfg_orows_q;
        a_ocols_q     <= cfg_ocols_q;
      end
    end
  end

  // ---------------------------------------------------------------- S1: the piece whose data arrive
  logic            s1_pad_q, s1_acc_q, s1_full_q, s1_pool_q, s1_first_q, s1_relu_q, s1_cmd_last_q;
  logic [7:0]      s1_blk_q;
  logic [31:0]     s1_scale_q, s1_addr_q;
  logic [LenW-1:0] s1_len_q;
  logic [IdW-1:0]  s1_id_q;
  logic [DataW-1:0] asm_q, asm_d;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_valid_q    <= 1'b0;
      s1_marker_q   <= 1'b0;
      s1_last_q     <= 1'b0;
      s1_pad_q      <= 1'b0;
      s1_acc_q      <= 1'b0;
      s1_full_q     <= 1'b0;
      s1_pool_q     <= 1'b0;
      s1_first_q    <= 1'b0;
      s1_relu_q     <= 1'b0;
      s1_cmd_last_q <= 1'b0;
      s1_blk_q      <= '0;
      s1_scale_q    <= '0;
      s1_addr_q     <= '0;
      s1_len_q      <= '0;
      s1_id_q       <= '0;
    end else begin
      s1_valid_q <= s0_fire || marker_slow;
      if (s0_fire) begin
        s1_marker_q   <= 1'b0;
        s1_last_q     <= p_last;
        s1_pad_q      <= p_pad;
        s1_acc_q      <= a_acc_q;
        s1_full_q     <= a_full_q;
        s1_pool_q     <= a_mode_q == ModePool;
        s1_first_q    <= p_first;
        s1_relu_q     <= a_relu_q;
        s1_cmd_last_q <= p_cmd_last;
        s1_blk_q      <= a_k_q;
        s1_scale_q    <= a_scale_q;
        s1_addr_q     <= a_pix_addr_q;
        s1_len_q      <= a_len_q;
        s1_id_q       <= a_id_q;
      end else if (marker_slow) begin
        s1_marker_q   <= 1'b1;
        s1_last_q     <= 1'b1;
        s1_cmd_last_q <= 1'b1;
        s1_id_q       <= cmd_i.id;
      end
    end
  end

  // ---------------------------------------------------------------- S2: scale, assembly
  // S1 is the cycle the read data arrive: they are registered here with their
  // piece, so the scale units start from a register (not from the memories'
  // bank multiplexers).
  logic             s2_valid_q, s2_marker_q, s2_last_q, s2_pad_q, s2_acc_flag_q, s2_full_q, s2_pool_q;
  logic             s2_first_q, s2_relu_q, s2_cmd_last_q;
  logic [7:0]       s2_blk_q;
  logic [31:0]      s2_scale_q, s2_addr_q;
  logic [LenW-1:0]  s2_len_q;
  logic [IdW-1:0]   s2_id_q;
  logic [Dim*8-1:0]  s2_sp_q;
  logic [Dim*32-1:0] s2_acc_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s2_valid_q    <= 1'b0;
      s2_marker_q   <= 1'b0;
      s2_last_q     <= 1'b0;
      s2_pad_q      <= 1'b0;
      s2_acc_flag_q <= 1'b0;
      s2_full_q     <= 1'b0;
      s2_pool_q     <= 1'b0;
      s2_first_q    <= 1'b0;
      s2_relu_q     <= 1'b0;
      s2_cmd_last_q <= 1'b0;
      s2_blk_q      <= '0;
      s2_scale_q    <= '0;
      s2_addr_q     <= '0;
      s2_len_q      <= '0;
      s2_id_q       <= '0;
    end else begin
      s2_valid_q <= s1_valid_q;
      if (s1_valid_q) begin
        s2_marker_q   <= s1_marker_q;
        s2_last_q     <= s1_last_q;
        s2_pad_q      <= s1_pad_q;
        s2_acc_flag_q <= s1_acc_q;
        s2_full_q     <= s1_full_q;
        s2_pool_q     <= s1_pool_q;
        s2_first_q    <= s1_first_q;
        s2_relu_q     <= s1_relu_q;
        s2_cmd_last_q <= s1_cmd_last_q;
        s2_blk_q      <= s1_blk_q;
        s2_scale_q    <= s1_scale_q;
        s2_addr_q     <= s1_addr_q;
        s2_len_q      <= s1_len_q;
        s2_id_q       <= s1_id_q;
      end
    end
  end

  // The data registers have no reset (only read when their piece is valid).
  always_ff @(posedge clk_i) begin
    if (s1_valid_q && !s1_marker_q && !s1_pad_q) begin
      s2_sp_q  <= sp_rd_data_i;
      s2_acc_q <= acc_rd_data_i;
    end
  end

  // One scale unit per element (UNIT.md: combinational; registered before and
  // after), computed only in the branch that takes a scaled accumulator element
  // of a valid piece (asm_d is taken by asm_q and the write queue only with
  // s2_valid_q, so a piece that is not valid may carry any value).
  function automatic logic [7:0] scaled8(logic signed [31:0] x);
    logic signed [31:0] y;
    y = scale_to_int(x, s2_scale_q, 1'b1);
    return s2_relu_q && y < 0 ? 8'd0 : y[7:0];
  endfunction

  logic [Dim*8-1:0] piece8;
  always_comb begin
    for (int unsigned e = 0; e < Dim; e++) begin
      if (s2_pad_q) piece8[e*8 +: 8] = 8'd0;  // padding pixels count as zero (after scaling)
      else if (!s2_acc_flag_q || !s2_valid_q) piece8[e*8 +: 8] = s2_sp_q[e*8 +: 8];
      else piece8[e*8 +: 8] = scaled8(s2_acc_q[e*32 +: 32]);
    end
    asm_d = asm_q;
    if (s2_full_q) begin
      asm_d[Dim*32-1:0] = s2_acc_q;
    end else if (s2_pool_q) begin
      for (int unsigned e = 0; e < Dim; e++) begin
        if (s2_first_q || $signed(piece8[e*8 +: 8]) > $signed(asm_q[e*8 +: 8])) begin
          asm_d[e*8 +: 8] = piece8[e*8 +: 8];
        end
      end
    end else begin
      asm_d[32'(s2_blk_q) * Dim * 8 +: Dim * 8] = piece8;
    end
  end

  assign s2_row_push = s2_valid_q && s2_last_q && !s2_marker_q;
  assign s2_dq_push  = s2_valid_q && (s2_last_q || s2_marker_q);

  always_ff @(posedge clk_i) begin
    if (s2_valid_q && !s2_marker_q) asm_q <= asm_d;
  end

  // ---------------------------------------------------------------- write queue
  logic [AddrW-1:0] wq_addr_q [WrDepth];
  logic [LenW-1:0]  wq_len_q  [WrDepth];
  logic [DataW-1:0] wq_data_q [WrDepth];
  logic [IdW-1:0]   wq_id_q   [WrDepth];
  logic [WrPtrW-1:0] wq_wp_q, wq_rp_q;
  logic wq_pop;

  assign wr_req_valid_o = wq_cnt_q != '0;
  assign wr_req_addr_o  = wq_addr_q[wq_rp_q];
  assign wr_req_len_o   = wq_len_q[wq_rp_q];
  assign wr_req_data_o  = wq_data_q[wq_rp_q];
  assign wr_req_id_o    = wq_id_q[wq_rp_q];
  assign wq_pop         = wr_req_valid_o && wr_req_ready_i;

  always_ff @(posedge clk_i) begin
    if (s2_row_push) begin
      wq_addr_q[wq_wp_q] <= s2_addr_q;
      wq_len_q[wq_wp_q]  <= s2_len_q;
      wq_data_q[wq_wp_q] <= asm_d;
      wq_id_q[wq_wp_q]   <= s2_id_q;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wq_wp_q         <= '0;
      wq_rp_q         <= '0;
      wq_cnt_q        <= '0;
      bytes_written_o <= '0;
    end else begin
      if (s2_row_push) wq_wp_q <= wq_wp_q + 1'b1;
      if (wq_pop) begin
        wq_rp_q         <= wq_rp_q + 1'b1;
        bytes_written_o <= bytes_written_o + 64'(wr_req_len_o);
      end
      wq_cnt_q <= wq_cnt_q + (WrPtrW + 1)'(s2_row_push) - (WrPtrW + 1)'(wq_pop);
    end
  end

  // ---------------------------------------------------------------- done queue
  logic [IdW-1:0]    dq_id_q [DoneDepth];
  logic              dq_last_q [DoneDepth];
  logic              dq_marker_q [DoneDepth];
  logic [DqPtrW-1:0] dq_wp_q, dq_rp_q;
  logic [DqPtrW:0]   dones_q, dones_avail;  // wr_done pulses not yet matched to an entry
  logic              dq_pop, dq_pop_write;
  logic              done_valid_q;
  logic [IdW-1:0]    done_id_q;

  always_comb begin
    dones_avail  = dones_q + (DqPtrW + 1)'(wr_done_i);
    dq_pop       = dq_cnt_q != '0 && (dq_marker_q[dq_rp_q] || dones_avail != '0);
    dq_pop_write = dq_pop && !dq_marker_q[dq_rp_q];
  end

  always_ff @(posedge clk_i) begin
    if (s2_dq_push) begin
      dq_id_q[dq_wp_q]     <= s2_id_q;
      dq_last_q[dq_wp_q]   <= s2_cmd_last_q;
      dq_marker_q[dq_wp_q] <= s2_marker_q;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dq_wp_q      <= '0;
      dq_rp_q      <= '0;
      dq_cnt_q     <= '0;
      dones_q      <= '0;
      done_valid_q <= 1'b0;
      done_id_q    <= '0;
    end else begin
      if (s2_dq_push) dq_wp_q <= dq_wp_q + 1'b1;
      if (dq_pop) dq_rp_q <= dq_rp_q + 1'b1;
      dq_cnt_q     <= dq_cnt_q + (DqPtrW + 1)'(s2_dq_push) - (DqPtrW + 1)'(dq_pop);
      dones_q      <= dones_avail - (DqPtrW + 1)'(dq_pop_write);
      // dq_pop and marker_fast exclude each other (the fast path needs an empty queue)
      done_valid_q <= (dq_pop && dq_last_q[dq_rp_q]) || marker_fast;
      if (dq_pop) done_id_q <= dq_id_q[dq_rp_q];
      else if (marker_fast) done_id_q <= cmd_i.id;
    end
  end

  assign done_valid_o = done_valid_q;
  assign done_id_o    = done_id_q;

  // ---------------------------------------------------------------- counters
  assign busy_o      = act_q || s1_valid_q || s2_valid_q || wq_cnt_q != '0 || dq_cnt_q != '0 || done_valid_q;
  assign stall_mem_o = (wr_req_valid_o && !wr_req_ready_i) || (act_q && p_last && !credit_ok);

endmodule
