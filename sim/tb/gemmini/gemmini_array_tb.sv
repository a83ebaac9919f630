// Standalone test-bench top of the Gemmini-style spatial array
// (sim/rtl/gemmini/gemmini_array.sv) for the cocotb driver mesh_cocotb.py:
// flat ports (packed rows as plain integers), each public for cocotb (the build
// has no --public-flat-rw), and a cycle counter. The clock is
// cocotb's (GPI); nothing else here is simulation-only.
module gemmini_array_tb
  import gemmini_pkg::*;
#(
  parameter int unsigned Dim  = 4,
  parameter int unsigned TagW = 16,
  localparam int unsigned RowW = Dim > 1 ? $clog2(Dim) : 1
) (
  input  logic                   clk_i /*verilator public_flat_rw*/,
  input  logic                   rst_ni /*verilator public_flat_rw*/,
  input  logic                   in_valid_i /*verilator public_flat_rw*/,
  input  logic                   in_flip_i /*verilator public_flat_rw*/,
  input  logic                   in_ws_i /*verilator public_flat_rw*/,
  input  logic [ShiftW-1:0]      in_shift_i /*verilator public_flat_rw*/,
  input  logic [TagW-1:0]        in_tag_i /*verilator public_flat_rw*/,
  input  logic [Dim*InputW-1:0]  in_a_i /*verilator public_flat_rw*/,
  input  logic [Dim*InputW-1:0]  in_b_i /*verilator public_flat_rw*/,
  input  logic [Dim*InputW-1:0]  in_d_i /*verilator public_flat_rw*/,
  output logic                   out_valid_o /*verilator public_flat_rd*/,
  output logic [RowW-1:0]        out_row_o /*verilator public_flat_rd*/,
  output logic                   out_flip_o /*verilator public_flat_rd*/,
  output logic                   out_ws_o /*verilator public_flat_rd*/,
  output logic [TagW-1:0]        out_tag_o /*verilator public_flat_rd*/,
  output logic [Dim*OutputW-1:0] out_c_o /*verilator public_flat_rd*/,
  output logic                   busy_o /*verilator public_flat_rd*/,
  output logic [31:0]            cycle_o /*verilator public_flat_rd*/
);

  dataflow_e out_df;

  gemmini_array #(.Dim(Dim), .TagW(TagW)) u_array (
    .clk_i,
    .rst_ni,
    .in_valid_i,
    .in_flip_i,
    .in_df_i    (in_ws_i ? DfWs : DfOs),
    .in_shift_i,
    .in_tag_i,
    .in_a_i,
    .in_b_i,
    .in_d_i,
    .out_valid_o,
    .out_row_o,
    .out_flip_o,
    .out_df_o   (out_df),
    .out_tag_o,
    .out_c_o,
    .busy_o
  );

  assign out_ws_o = out_df == DfWs;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cycle_o <= '0;
    else cycle_o <= cycle_o + 1;
  end

endmodule
