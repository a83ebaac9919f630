// Gemmini-style spatial array with its input skew and output de-skew (the part
// of Gemmini's MeshWithDelays the execute controller drives): a row stream in,
// a row stream out, fixed latency, no back-pressure. README.md beside this file
// has the timing and the contract; in short:
//
//  * A tile is Dim accepted beats (in_valid_i high); bubbles may come anywhere.
//    On a tile's first beat in_flip_i = 1 flips the PEs' double buffer
//    (compute_preloaded), 0 keeps it (compute_accumulated).
//  * Beat k of a tile carries row k of the streamed operands:
//      WS: in_a_i = row k of A (element r goes to mesh row r), in_b_i = row k of
//          the bias D; out row k of the same tile = A * W + D, row k (20 bits).
//      OS: in_a_i = column k of A, in_b_i = row k of B; the PEs accumulate A * B.
//  * in_d_i preloads the next flipped tile: the Dim beats just before a flipped
//    tile must carry, last row first (beat k = row Dim-1-k), the WS weights or
//    the OS D that tile starts from.
//  * OS results leave while the next flipped tile streams: its beat k brings out
//    row Dim-1-k of the finished result, rounding-shifted by that tile's
//    in_shift_i and saturated to 20 bits. A flipped tile of zeros flushes the last
//    result out.
//  * out_valid_o is high Latency = 2 * Dim cycles after the beat's in_valid_i,
//    with the beat's row index, tag, dataflow and flip.
module gemmini_array
  import gemmini_pkg::*;
#(
  parameter int unsigned Dim  = 4,
  parameter int unsigned TagW = 8,
  localparam int unsigned RowW = Dim > 1 ? $clog2(Dim) : 1,
  localparam int unsigned Latency = 2 * Dim
) (
  input  logic                clk_i,       // clock
  input  logic                rst_ni,      // asynchronous reset, active low
  // row stream in (always accepted)
  input  logic                in_valid_i,  // a beat (always accepted)
  input  logic                in_flip_i,   // read on a tile's first beat
  input  dataflow_e           in_df_i,     // its dataflow (WS / OS)
  input  logic [ShiftW-1:0]   in_shift_i,  // OS: rounding shift of the result that leaves in this tile
  input  logic [TagW-1:0]     in_tag_i,    // the controller's tag, returned with the beat
  input  in_t  [Dim-1:0]      in_a_i,      // WS: row k of A; OS: column k of A
  input  in_t  [Dim-1:0]      in_b_i,      // WS: row k of D; OS: row k of B
  input  in_t  [Dim-1:0]      in_d_i,      // the next flipped tile's weights / D, last row first
  // row stream out (Latency cycles after the beat went in)
  output logic                out_valid_o, // a beat leaves (Latency cycles after it came in)
  output logic [RowW-1:0]     out_row_o,   // the beat's index in its tile
  output logic                out_flip_o,  // the beat's tile flipped (OS: it carries a result)
  output dataflow_e           out_df_o,    // its dataflow
  output logic [TagW-1:0]     out_tag_o,   // its tag
  output out_t [Dim-1:0]      out_c_o,     // WS: C row out_row_o; OS: result row Dim-1-out_row_o
  output logic                busy_o       // beats are inside the array
);

  localparam int unsigned CtrlW  = $bits(pe_ctrl_t);
  localparam int unsigned SideW  = 1 + RowW + 1 + 1 + TagW;
  localparam int unsigned CountW = $clog2(Latency + 2);

  // ---------------------------------------------------------------- tile state

  logic [RowW-1:0] row_q;      // index of the next beat in its tile
  logic            prop_q;     // the PEs' prop of the current tile
  logic            tflip_q;    // the current tile flipped
  logic            first, prop_beat, flip_beat;

  always_comb begin
    first     = row_q == '0;
    prop_beat = first ? prop_q ^ in_flip_i : prop_q;
    flip_beat = first ? in_flip_i : tflip_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      row_q   <= '0;
      prop_q  <= 1'b0;
      tflip_q <= 1'b0;
    end else if (in_valid_i) begin
      row_q   <= row_q == RowW'(Dim - 1) ? '0 : row_q + 1'b1;
      prop_q  <= prop_beat;
      tflip_q <= flip_beat;
    end
  end

  // ---------------------------------------------------------------- clock gate
  // The input register, the skew lines, the mesh and the de-skew lines run on
  // a clock that stops while no beat is in the array: nothing in them changes
  // then (every beat that left has shifted its valid bits out, and the PEs'
  // stationary registers change only with a valid beat). The tile state, the
  // side band and the beat counter keep the free-running clock.

  logic arr_en, arr_clk;
  logic [CountW-1:0] inflight_q;  // beats in flight (below)
  assign arr_en = in_valid_i || inflight_q != '0;
  gemmini_clock_gate u_cg (.clk_i, .en_i(arr_en), .gclk_o(arr_clk));

  // ---------------------------------------------------------------- input register

  logic                 s0_valid_q;
  pe_ctrl_t             s0_ctrl_q;
  in_t      [Dim-1:0]   s0_a_q, s0_b_q, s0_d_q;

  always_ff @(posedge arr_clk or negedge rst_ni) begin
    if (!rst_ni) begin
      s0_valid_q <= 1'b0;
      s0_ctrl_q  <= '0;
      s0_a_q     <= '0;
      s0_b_q     <= '0;
      s0_d_q     <= '0;
    end else begin
      s0_valid_q <= in_valid_i;
      if (in_valid_i) begin
        s0_ctrl_q <= '{df: in_df_i, prop: prop_beat, shift: in_shift_i};
        s0_a_q    <= in_a_i;
        s0_b_q    <= in_b_i;
        s0_d_q    <= in_d_i;
      end
    end
  end

  // ---------------------------------------------------------------- skew, mesh, de-skew

  in_t      [Dim-1:0] m_a, m_b, m_d;
  logic     [Dim-1:0] m_valid, m_valid_out;
  pe_ctrl_t [Dim-1:0] m_ctrl, m_ctrl_out;
  out_t     [Dim-1:0] m_b_out, m_c_out;

  for (genvar i = 0; i < Dim; i++) begin : g_skew
    gemmini_delay #(.Width(InputW), .Depth(i)) u_skew_a (
      .clk_i(arr_clk), .rst_ni, .d_i(s0_a_q[i]), .q_o(m_a[i])
    );
    gemmini_delay #(.Width(1 + CtrlW + 2 * InputW), .Depth(i)) u_skew_col (
      .clk_i(arr_clk), .rst_ni,
      .d_i({s0_valid_q, s0_ctrl_q, s0_b_q[i], s0_d_q[i]}),
      .q_o({m_valid[i], m_ctrl[i], m_b[i], m_d[i]})
    );
  end

  gemmini_mesh #(.Dim(Dim)) u_mesh (
    .clk_i(arr_clk), .rst_ni,
    .a_i     (m_a),
    .valid_i (m_valid),
    .ctrl_i  (m_ctrl),
    .b_i     (m_b),
    .d_i     (m_d),
    .valid_o (m_valid_out),
    .ctrl_o  (m_ctrl_out),
    .b_o     (m_b_out),
    .c_o     (m_c_out)
  );

  logic [Dim*(CtrlW-1)-1:0] unused_ctrl;
  for (genvar c = 0; c < Dim; c++) begin : g_deskew
    out_t sel;
    // The column's own dataflow picks its output: C (OS) or the partial sums (WS).
    assign sel = m_ctrl_out[c].df == DfOs ? m_c_out[c] : m_b_out[c];
    assign unused_ctrl[c*(CtrlW-1) +: CtrlW-1] = {m_ctrl_out[c].prop, m_ctrl_out[c].shift};
    gemmini_delay #(.Width(OutputW), .Depth(Dim - 1 - c)) u_deskew (
      .clk_i(arr_clk), .rst_ni, .d_i(sel), .q_o(out_c_o[c])
    );
  end

  // ---------------------------------------------------------------- beat side band

  logic            side_valid, side_flip;
  logic [RowW-1:0] side_row;
  dataflow_e       side_df;
  logic [TagW-1:0] side_tag;

  gemmini_delay #(.Width(SideW), .Depth(Latency)) u_side (
    .clk_i, .rst_ni,
    .d_i({in_valid_i, row_q, flip_beat, in_df_i, in_tag_i}),
    .q_o({side_valid, side_row, side_flip, side_df, side_tag})
  );

  assign out_valid_o = side_valid;
  assign out_row_o   = side_row;
  assign out_flip_o  = side_flip;
  assign out_df_o    = side_df;
  assign out_tag_o   = side_tag;

  // Beats in flight (for a controller waiting until the array has drained, and
  // the clock gate: a beat's last register in the array takes its last edge in
  // the cycle its side band comes out, when the count still includes it).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      inflight_q <= '0;
    end else if (in_valid_i != side_valid) begin
      inflight_q <= in_valid_i ? inflight_q + 1'b1 : inflight_q - 1'b1;
    end
  end
  assign busy_o = inflight_q != '0;

  logic unused_mesh;
  assign unused_mesh = ^{m_valid_out, unused_ctrl};

endmodule
