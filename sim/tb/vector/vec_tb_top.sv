// Standalone test-bench top of the vector unit (sim/rtl/vector/vec_unit.sv): flat
// ports, data as arrays of 32-bit words, for the C++ driver vec_tb.cpp.
module vec_tb_top
  import cosim_pkg::*;
#(
  parameter int unsigned VLEN = 256,
  parameter int unsigned DLEN = 64,
  parameter int unsigned MemW = 64,
  parameter bit          Chain = 1'b1,
  localparam int unsigned Rows = 32 * VLEN / DLEN,
  localparam int unsigned RowW = $clog2(Rows)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            req_valid_i,
  output logic            req_ready_o,
  output logic            req_illegal_o,
  input  logic [31:0]     insn_i,
  input  logic [31:0]     rs1_i,
  input  logic [31:0]     rs2_i,
  input  logic [31:0]     frs1_i,
  input  logic [31:0]     vtype_i,
  input  logic [31:0]     vl_i,
  input  logic [31:0]     vstart_i,
  input  logic [2:0]      frm_i,
  input  logic [1:0]      vxrm_i,
  input  logic [7:0]      seq_i,
  output logic            cmp_valid_o,
  output logic [7:0]      cmp_seq_o,
  output logic            cmp_x_we_o,
  output logic            cmp_f_we_o,
  output logic [4:0]      cmp_rd_o,
  output logic [31:0]     cmp_wdata_o,
  output logic [4:0]      cmp_fflags_o,
  output logic            cmp_vxsat_o,
  output logic            cmp_exc_o,
  output logic            mem_req_valid_o,
  input  logic            mem_req_ready_i,
  output logic [31:0]     mem_req_addr_o,
  output logic            mem_req_we_o,
  output logic [MemW/8-1:0] mem_req_be_o,
  output logic [31:0]     mem_req_wdata_o [MemW/32],
  input  logic            mem_rsp_valid_i,
  input  logic [31:0]     mem_rsp_rdata_i [MemW/32],
  output logic            busy_o,
  output logic            mem_pending_o,
  output logic            lane_active_o,
  // performance events (vec_unit.perf_o, flattened)
  output logic            perf_arith_busy_o,
  output logic            perf_mem_busy_o,
  output logic [15:0]     perf_lane_ops_o,
  output logic [15:0]     perf_fma_ops_o,
  output logic [15:0]     perf_mem_bytes_o,
  output logic            perf_port_busy_o,
  output logic [4:0]      perf_stalls_o,    // {iq_full, issue, mem, struct, dep}
  // pipeline trace (hierarchical probes, test bench only)
  output logic            t_disp_o,
  output logic            t_s_we_o,
  output logic [RowW-1:0] t_s_wa_o,
  output logic            t_l_we_o,
  output logic [RowW-1:0] t_l_wa_o,
  output logic            t_s_stall_o,
  output logic            t_l_stall_o,
  input  logic            dbg_we_i,
  input  logic [RowW-1:0] dbg_addr_i,
  input  logic [31:0]     dbg_wdata_i [DLEN/32],
  output logic [31:0]     dbg_rdata_o [DLEN/32]
);

  vec_pkg::vec_perf_t perf;
  cop_req_t        req;
  cop_cmp_t        cmp;
  logic [MemW-1:0] wdata, rdata;
  logic [DLEN-1:0] dwdata, drdata;

  always_comb begin
    req        = '0;
    req.insn   = insn_i;
    req.rs1    = {32'b0, rs1_i};
    req.rs2    = {32'b0, rs2_i};
    req.frs1   = frs1_i;
    req.vtype  = vtype_i;
    req.vl     = vl_i;
    req.vstart = vstart_i;
    req.frm    = frm_i;
    req.vxrm   = vxrm_i;
    req.seq    = seq_i;
  end

  for (genvar k = 0; k < MemW / 32; k++) begin : g_mem
    assign mem_req_wdata_o[k] = wdata[32*k +: 32];
    assign rdata[32*k +: 32]  = mem_rsp_rdata_i[k];
  end
  for (genvar k = 0; k < DLEN / 32; k++) begin : g_dbg
    assign dwdata[32*k +: 32] = dbg_wdata_i[k];
    assign dbg_rdata_o[k]     = drdata[32*k +: 32];
  end

  // Memory faults (vec_memcheck) are checked in the SoC against Spike (tests/
  // test_vector_faults.py); the scripts here use aligned in-region addresses only.
  cosim_pkg::cop_ack_t ack;
  logic unused_ack;
  assign unused_ack = ^ack;

  vec_unit #(.VLEN(VLEN), .DLEN(DLEN), .MemW(MemW), .Chain(Chain)) u_vec (
    .clk_i, .rst_ni,
    .cop_req_valid_i (req_valid_i),
    .cop_req_ready_o (req_ready_o),
    .cop_req_i       (req),
    .cop_illegal_o   (req_illegal_o),
    .cop_ack_o       (ack),
    .cop_cmp_valid_o (cmp_valid_o),
    .cop_cmp_o       (cmp),
    .mem_req_valid_o,
    .mem_req_ready_i,
    .mem_req_addr_o,
    .mem_req_we_o,
    .mem_req_be_o,
    .mem_req_wdata_o (wdata),
    .mem_rsp_valid_i,
    .mem_rsp_rdata_i (rdata),
    .busy_o,
    .mem_pending_o,
    .lane_active_o,
    .perf_o          (perf),
    .dbg_we_i,
    .dbg_addr_i,
    .dbg_wdata_i     (dwdata),
    .dbg_rdata_o     (drdata)
  );

  assign perf_arith_busy_o = perf.arith_busy;
  assign perf_mem_busy_o   = perf.mem_busy;
  assign perf_lane_ops_o   = perf.lane_ops;
  assign perf_fma_ops_o    = perf.fma_ops;
  assign perf_mem_bytes_o  = perf.mem_bytes;
  assign perf_port_busy_o  = perf.port_busy;
  assign perf_stalls_o     = {perf.iq_full, perf.stall_issue, perf.stall_mem, perf.stall_struct,
                              perf.stall_dep};

  assign t_disp_o    = u_vec.dispatch;
  assign t_s_we_o    = u_vec.seq_we;
  assign t_s_wa_o    = u_vec.seq_waddr;
  assign t_l_we_o    = u_vec.lsu_we;
  assign t_l_wa_o    = u_vec.lsu_waddr;
  assign t_s_stall_o = u_vec.seq_stall;
  assign t_l_stall_o = u_vec.lsu_stall;

  assign cmp_seq_o    = cmp.seq;
  assign cmp_x_we_o   = cmp.x_we;
  assign cmp_f_we_o   = cmp.f_we;
  assign cmp_rd_o     = cmp.rd;
  assign cmp_wdata_o  = cmp.wdata[31:0];
  assign cmp_fflags_o = cmp.fflags;
  assign cmp_vxsat_o  = cmp.vxsat;
  assign cmp_exc_o    = cmp.exc;

endmodule
