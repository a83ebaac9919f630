// Test bench top of gemmini_unit_rob: the ROB with flat ports, public for cocotb
// (unit_rob_cocotb.py).
module unit_rob_tb
  import gemmini_pkg::*;
  import gemmini_unit_pkg::*;
#(
  parameter int unsigned Depth = 32,
  parameter int unsigned Tags  = 16
) (
  input  logic                      clk_i         /*verilator public_flat_rw*/,
  input  logic                      rst_ni        /*verilator public_flat_rw*/,
  input  logic                      alloc_valid_i /*verilator public_flat_rw*/,
  output logic                      alloc_ready_o /*verilator public_flat_rd*/,
  input  logic [1:0]                alloc_ctl_i   /*verilator public_flat_rw*/,
  input  logic [$bits(gm_sets_t)-1:0] alloc_sets_i /*verilator public_flat_rw*/,
  input  logic [$clog2(Tags)-1:0]   alloc_tag_i   /*verilator public_flat_rw*/,
  output logic [IdW-1:0]            alloc_id_o    /*verilator public_flat_rd*/,
  output logic [2:0]                q_valid_o     /*verilator public_flat_rd*/,
  input  logic [2:0]                q_ready_i     /*verilator public_flat_rw*/,
  output logic [3*IdW-1:0]          q_id_o        /*verilator public_flat_rd*/,
  input  logic [2:0]                done_valid_i  /*verilator public_flat_rw*/,
  input  logic [3*IdW-1:0]          done_id_i     /*verilator public_flat_rw*/,
  output logic [Tags-1:0]           tag_busy_o    /*verilator public_flat_rd*/,
  output logic                      empty_o       /*verilator public_flat_rd*/
);
  gm_cmd_t [2:0]       q_cmd;
  logic [2:0]          stall;
  logic                active;
  logic [2:0][IdW-1:0] done_id;
  assign done_id = done_id_i;

  gemmini_unit_rob #(.Depth(Depth), .Tags(Tags)) u_rob (
    .clk_i, .rst_ni,
    .alloc_valid_i, .alloc_ready_o,
    .alloc_ctl_i    (gm_ctl_e'(alloc_ctl_i)),
    .alloc_funct_i  (7'd0),
    .alloc_rs1_i    (64'd0),
    .alloc_rs2_i    (64'd0),
    .alloc_sets_i   (gm_sets_t'(alloc_sets_i)),
    .alloc_tag_i, .alloc_id_o,
    .alloc_nowait_i (1'b0),
    .alloc_preload_i(1'b0),
    .arm_valid_i    (1'b0),
    .arm_id_i       ('0),
    .q_valid_o, .q_ready_i,
    .q_cmd_o        (q_cmd),
    .done_valid_i,
    .done_id_i      (done_id),
    .tag_busy_o, .empty_o,
    .active_o       (active),
    .stall_hazard_o (stall)
  );
  for (genvar c = 0; c < 3; c++) begin : g_id
    assign q_id_o[c*IdW +: IdW] = q_cmd[c].id;
  end
  logic unused;
  assign unused = ^{q_cmd, stall, active};
endmodule
