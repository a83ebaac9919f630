// Dim x Dim processing elements (gemmini_pe.sv) of the Gemmini-style spatial
// array, wired as Gemmini's Mesh with one register stage per PE: A enters at
// the left of each row and moves one PE right per cycle; B (OS operand, WS bias
// and partial sums), D (the shift chain) and the control enter at the top of
// each column and move one PE down per cycle. Inputs must arrive skewed (row r's
// A r cycles late, column c's B/D/control/valid c cycles late) and outputs leave
// the bottom row skewed the same way (column c c cycles late); gemmini_array.sv
// does the skewing. Row r of column c works on a beat r + c cycles after the
// beat's column-0 entry; b_o/c_o of column c carry it Dim + c cycles after.
module gemmini_mesh
  import gemmini_pkg::*;
#(
  parameter int unsigned Dim = 4
) (
  input  logic                 clk_i,    // clock (the array's gated clock)
  input  logic                 rst_ni,   // asynchronous reset, active low
  input  in_t      [Dim-1:0]   a_i,      // element r enters row r
  input  logic     [Dim-1:0]   valid_i,  // per column
  input  pe_ctrl_t [Dim-1:0]   ctrl_i,   // per column
  input  in_t      [Dim-1:0]   b_i,      // per column: OS B, WS bias D
  input  in_t      [Dim-1:0]   d_i,      // per column: the shift chain (next weights / next D)
  output logic     [Dim-1:0]   valid_o,  // bottom row, per column
  output pe_ctrl_t [Dim-1:0]   ctrl_o,   // bottom row, per column: the PE control that came with it
  output out_t     [Dim-1:0]   b_o,      // WS results
  output out_t     [Dim-1:0]   c_o       // OS results (shifted out)
);

  // Wires between PEs: [row][col]; row Dim / column Dim are the array's edges.
  logic     v_w [Dim+1][Dim];
  pe_ctrl_t k_w [Dim+1][Dim];
  out_t     b_w [Dim+1][Dim];
  out_t     c_w [Dim+1][Dim];
  in_t      a_w [Dim][Dim+1];

  for (genvar c = 0; c < Dim; c++) begin : g_top
    assign v_w[0][c] = valid_i[c];
    assign k_w[0][c] = ctrl_i[c];
    assign b_w[0][c] = out_t'(b_i[c]);  // sign-extended
    assign c_w[0][c] = out_t'(d_i[c]);
    assign valid_o[c] = v_w[Dim][c];
    assign ctrl_o[c]  = k_w[Dim][c];
    assign b_o[c]     = b_w[Dim][c];
    assign c_o[c]     = c_w[Dim][c];
  end

  logic [Dim*InputW-1:0] a_right;  // A leaving the right edge: not used
  for (genvar r = 0; r < Dim; r++) begin : g_row
    assign a_w[r][0] = a_i[r];
    assign a_right[r*InputW +: InputW] = a_w[r][Dim];
    for (genvar c = 0; c < Dim; c++) begin : g_col
      gemmini_pe u_pe (
        .clk_i   (clk_i),
        .rst_ni  (rst_ni),
        .valid_i (v_w[r][c]),
        .ctrl_i  (k_w[r][c]),
        .a_i     (a_w[r][c]),
        .b_i     (b_w[r][c]),
        .d_i     (c_w[r][c]),
        .valid_o (v_w[r+1][c]),
        .ctrl_o  (k_w[r+1][c]),
        .a_o     (a_w[r][c+1]),
        .b_o     (b_w[r+1][c]),
        .c_o     (c_w[r+1][c])
      );
    end
  end

  logic unused_a_right;
  assign unused_a_right = ^a_right;

endmodule
