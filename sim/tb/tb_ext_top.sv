// Test-bench top for a config's own RTL ([rtl] section; sim/tb/CONTRACT.md).
//
// The same memory ports (tb_mem_port.sv), DPI backing store and MMIO page
// (tb_dpi.cpp), plusargs, result file and run endings as tb_top.sv, around
// cosim_ext_core: the wrapper sim/ext_rtl.py generates for the config's top module.
// No commit trace, vector or Gemmini monitors; the hooks a core drives are named
// by HookRetire / HookHalt:
//   retire: instret counts its pulses, the watchdog watches them and the run ends
//           when the EXIT store retires. Without it, the run ends on the EXIT store
//           itself, instret is 0 and the watchdog watches instruction fetches.
//   halt:   the core stopped for good; the run ends as a trap at pc_o.
// The clock is driven by the C++ main loop (no --timing), as for tb_top.sv.
`timescale 1ns / 1ps
module tb_top #(
  parameter int unsigned XLEN           = 32,
  parameter int unsigned DataW          = 32,
  // Accepted so the build passes every SoC the same parameters; unused here.
  parameter int unsigned AccDataW       = 64,
  parameter int unsigned Accel          = 0,
  parameter int unsigned VLEN           = 128,
  parameter int unsigned DLEN           = 64,
  parameter int unsigned MemLatency     = 4,
  parameter int unsigned MemOutstanding = 4,
  parameter bit          HookRetire     = 1'b0,
  parameter bit          HookHalt       = 1'b0,
  parameter logic [31:0] MmioBase       = 32'h1000_0000,
  parameter logic [31:0] MmioSize       = 32'h0000_1000,
  parameter logic [31:0] Mem0Base       = 32'h2000_0000,
  parameter logic [32:0] Mem0Size       = 33'h0_2000_0000,
  parameter logic [31:0] Mem1Base       = 32'h4000_0000,
  parameter logic [32:0] Mem1Size       = 33'h0_8000_0000,
  parameter logic [31:0] Mem2Base       = 32'hC000_0000,
  parameter logic [32:0] Mem2Size       = 33'h0_0100_0000
) (
  input logic clk
);
  import "DPI-C" function int tb_init(input string elf, input string outdir, input string trace,
                                      input string dumps, input string regions, input longint mmio_base,
                                      input string mmio_offsets,
                                      input int xlen, output longint entry);
  import "DPI-C" function void tb_finish(input int reason, input longint cycle, input longint pc,
                                         input longint instret, input longint imem_busy,
                                         input longint dmem_busy, input longint amem_busy,
                                         input longint trap_cause, input longint trap_epc,
                                         input longint trap_tval);
  import "DPI-C" function void tb_fail(input string message);

  // Reset: released by the 4th rising edge, as in tb_top.sv.
  logic       rst_n = 1'b0;
  logic [1:0] rst_cnt = '0;
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      rst_cnt <= rst_cnt + 1'b1;
      if (rst_cnt == 2'd3) rst_n <= 1'b1;
    end
  end

  logic            done /*verilator public_flat_rd*/ = 1'b0;
  longint unsigned cycle = 0;

  string           elf, outdir, trace, dumps, regions, offsets;
  longint unsigned max_cycles = 64'd200_000_000;
  longint unsigned watchdog   = 64'd100_000;
  longint unsigned mmio_base  = 64'h1000_0000;
  longint          entry;
  bit              finish_on_done = 1'b0;
  int              rc;

  initial begin
    if (!$value$plusargs("elf=%s", elf)) elf = "";
    if (!$value$plusargs("out=%s", outdir)) outdir = ".";
    if (!$value$plusargs("dumps=%s", dumps)) dumps = "";
    if (!$value$plusargs("regions=%s", regions)) regions = "";
    if (!$value$plusargs("mmio_offsets=%s", offsets)) offsets = "";
    if ($value$plusargs("mmio=%h", mmio_base)) ;
    if ($value$plusargs("max_cycles=%d", max_cycles)) ;
    if ($value$plusargs("watchdog=%d", watchdog)) ;
    finish_on_done = $test$plusargs("finish_on_done");
    // No commit trace: a +trace request gets an empty file from tb_init.
    trace = "";
    rc = tb_init(elf, outdir, trace, dumps, regions, mmio_base, offsets, XLEN, entry);
    if (rc != 0) begin
      done = 1'b1;
      if (finish_on_done) $finish;
    end
  end

  logic               imem_req_valid, imem_req_ready, imem_resp_valid, imem_resp_err;
  logic [31:0]        imem_req_addr;
  logic [DataW-1:0]   imem_resp_data;
  logic               dmem_req_valid, dmem_req_ready, dmem_req_we, dmem_resp_valid, dmem_resp_err;
  logic [31:0]        dmem_req_addr;
  logic [DataW/8-1:0] dmem_req_wstrb;
  logic [DataW-1:0]   dmem_req_wdata, dmem_resp_data;
  logic               retire_raw, halt_raw, retire, halt;
  logic [63:0]        core_pc;
  logic               imem_exit, dmem_exit, imem_profile, dmem_profile;
  longint unsigned    imem_busy, dmem_busy;

  cosim_ext_core #(.XLEN(XLEN), .DataW(DataW)) u_soc (
    .clk_i             (clk),
    .rst_ni            (rst_n),
    .boot_addr_i       (64'(entry)),
    .imem_req_valid_o  (imem_req_valid),
    .imem_req_ready_i  (imem_req_ready),
    .imem_req_addr_o   (imem_req_addr),
    .imem_resp_valid_i (imem_resp_valid),
    .imem_resp_data_i  (imem_resp_data),
    .imem_resp_err_i   (imem_resp_err),
    .dmem_req_valid_o  (dmem_req_valid),
    .dmem_req_ready_i  (dmem_req_ready),
    .dmem_req_addr_o   (dmem_req_addr),
    .dmem_req_we_o     (dmem_req_we),
    .dmem_req_wstrb_o  (dmem_req_wstrb),
    .dmem_req_wdata_o  (dmem_req_wdata),
    .dmem_resp_valid_i (dmem_resp_valid),
    .dmem_resp_data_i  (dmem_resp_data),
    .dmem_resp_err_i   (dmem_resp_err),
    .retire_o          (retire_raw),
    .halt_o            (halt_raw),
    .pc_o              (core_pc)
  );
  // A hook the config does not name is ignored, whatever the core drives on it.
  assign retire = HookRetire && retire_raw;
  assign halt   = HookHalt && halt_raw;

  tb_mem_port #(.DataW(DataW), .Latency(MemLatency), .Outstanding(MemOutstanding), .Port(0)) u_imem (
    .clk_i (clk), .rst_ni (rst_n), .cycle_i (cycle),
    .req_valid_i (imem_req_valid), .req_ready_o (imem_req_ready), .req_addr_i (imem_req_addr),
    .req_we_i (1'b0), .req_wstrb_i ('0), .req_wdata_i ('0),
    .resp_valid_o (imem_resp_valid), .resp_data_o (imem_resp_data), .resp_err_o (imem_resp_err),
    .exit_o (imem_exit), .profile_o (imem_profile), .busy_cycles_o (imem_busy)
  );

  tb_mem_port #(.DataW(DataW), .Latency(MemLatency), .Outstanding(MemOutstanding), .Port(1)) u_dmem (
    .clk_i (clk), .rst_ni (rst_n), .cycle_i (cycle),
    .req_valid_i (dmem_req_valid), .req_ready_o (dmem_req_ready), .req_addr_i (dmem_req_addr),
    .req_we_i (dmem_req_we), .req_wstrb_i (dmem_req_wstrb), .req_wdata_i (dmem_req_wdata),
    .resp_valid_o (dmem_resp_valid), .resp_data_o (dmem_resp_data), .resp_err_o (dmem_resp_err),
    .exit_o (dmem_exit), .profile_o (dmem_profile), .busy_cycles_o (dmem_busy)
  );

  localparam int ReasonExit = 0, ReasonMaxCycles = 1, ReasonWatchdog = 2, ReasonTrapLoop = 3;

  longint unsigned instret = 0;
  longint unsigned idle = 0;
  bit              exit_seen = 1'b0;

  task automatic finish_run(int reason);
    // A halt is reported as a trap at the core's PC with cause 2 (the contract has
    // no cause port: PicoRV32-style cores stop on illegal and misaligned alike).
    tb_finish(reason, cycle, longint'(core_pc), instret + longint'(retire), imem_busy, dmem_busy, 0,
              2, longint'(core_pc), 0);
    done <= 1'b1;
    if (finish_on_done) $finish;
  endtask

  always_ff @(posedge clk) begin
    if (rst_n && !done) begin
      cycle <= cycle + 1;
      if (retire) instret <= instret + 1;
      idle <= (HookRetire ? retire : (imem_req_valid && imem_req_ready)) ? 0 : idle + 1;
      if (dmem_exit || imem_exit) exit_seen <= 1'b1;
      if (exit_seen && (retire || !HookRetire)) begin
        finish_run(ReasonExit);
      end else if (halt) begin
        tb_fail($sformatf("the core halted (its halt hook) at pc 0x%0h, cycle %0d", core_pc, cycle));
        finish_run(ReasonTrapLoop);
      end else if (cycle + 1 >= max_cycles) begin
        finish_run(ReasonMaxCycles);
      end else if (idle + 1 >= watchdog) begin
        finish_run(ReasonWatchdog);
      end
    end
  end
endmodule
