// Test-bench top: reset, the SoC, its memory ports served by the
// DPI backing store (tb_dpi.cpp, which also models the MMIO page), the commit
// trace monitor, and the run endings (EXIT, trap loop, cycle limit, watchdog).
// The clock is the one input: the C++ main loop (bench_main.cpp, or
// cocotb_main.cpp under cocotb) toggles it, so builds need no --timing.
// Python (cocotb) only waits for `done`.
//
// Plusargs: +elf=F +out=DIR [+trace=F] [+max_cycles=N] [+watchdog=N]
//           [+corrupt_pc=HEX] [+dumps=ADDR:SIZE,...] [+mmio=BASE] [+regions=B:S,...]
//           [+mmio_offsets=EXIT,UART,PROFILE,TRAP_CAUSE,TRAP_EPC,TRAP_TVAL]
//           [+finish_on_done] (plain C++ main loops without cocotb)
//           [+gemmini_trace=F] [+gemmini_corrupt_sp=N] (tb_gemmini_trace.sv)
//           [+perf_max_fma=N] [+perf_max_lane_ops=N] [+perf_max_mem_bytes=N]
//           (lower the width assertions' bounds; tests prove the checks can fire)
`timescale 1ns / 1ps
module tb_top #(
  parameter int unsigned XLEN           = 32,
  parameter int unsigned DataW          = 32,
  parameter int unsigned AccDataW       = 64,
  parameter int unsigned Accel          = 0,
  parameter int unsigned VLEN           = 128,
  parameter int unsigned DLEN           = 64,
  parameter int unsigned MemLatency     = 4,
  parameter int unsigned MemOutstanding = 4,
  // Gemmini unit (Accel == 2): sim/gemmini/params.py through sim/verilator_build.soc_parameters
  parameter int unsigned Dim            = 4,
  parameter int unsigned SpRows         = 1024,
  parameter int unsigned AccRows        = 256,
  parameter int unsigned SpBanks        = 4,
  parameter int unsigned AccBanks       = 2,
  parameter int unsigned DmaBytes       = 8,
  parameter int unsigned DmaMaxBytes    = 64,
  parameter int unsigned MaxBlockLen    = 16,
  parameter int unsigned MaxBlockLenAcc = 4,
  parameter bit          HasWs          = 1'b1,
  parameter bit          HasOs          = 1'b1,
  // Memory map (config memory_map, sim/verilator_build.memory_map_parameters)
  parameter logic [31:0] MmioBase       = 32'h1000_0000,
  parameter logic [31:0] MmioSize       = 32'h0000_1000,
  parameter logic [31:0] Mem0Base       = 32'h2000_0000,
  parameter logic [32:0] Mem0Size       = 33'h0_2000_0000,
  parameter logic [31:0] Mem1Base       = 32'h4000_0000,
  parameter logic [32:0] Mem1Size       = 33'h0_8000_0000,
  parameter logic [31:0] Mem2Base       = 32'hC000_0000,
  parameter logic [32:0] Mem2Size       = 33'h0_0100_0000
) (
  input logic clk  // driven by the C++ main loop: one eval per edge
);
  import core_pkg::*;

  import "DPI-C" function int tb_init(input string elf, input string outdir, input string trace,
                                      input string dumps, input string regions, input longint mmio_base,
                                      input string mmio_offsets,
                                      input int xlen, output longint entry);
  import "DPI-C" function void tb_retire(input longint pc, input int insn, input int x_we, input int f_we,
                                         input int rd, input longint wdata, input int mem_re, input int mem_we,
                                         input longint mem_addr, input longint mem_wdata, input int mem_size,
                                         input int csr_we, input int csr_addr, input longint csr_wdata,
                                         input int cop, input int seq);
  import "DPI-C" function void tb_trap(input int cause, input longint epc, input longint tval);
  import "DPI-C" function void tb_late_wb(input int seq, input int f_we, input int rd, input longint wdata);
  import "DPI-C" function void tb_perf_name(input int idx, input string name);
  import "DPI-C" function void tb_perf_sample(input int idx, input longint value);
  import "DPI-C" function void tb_perf_total(input int idx, input longint value);
  import "DPI-C" function void tb_fail(input string message);
  import "DPI-C" function void tb_gemmini_issue(input longint pc, input int insn, input longint rs1,
                                                input longint rs2);
  import "DPI-C" function void tb_gemmini_refused(input longint pc, input int insn, input longint rs1,
                                                  input longint rs2, input int reason);
  import "DPI-C" function void tb_cop_inflight(input int count);
  import "DPI-C" function void tb_finish(input int reason, input longint cycle, input longint pc,
                                         input longint instret, input longint imem_busy,
                                         input longint dmem_busy, input longint amem_busy,
                                         input longint trap_cause, input longint trap_epc,
                                         input longint trap_tval);

  // ---------------------------------------------------------------------------
  // Reset: released by the 4th rising clock edge (an HDL-timed clock would cost
  // ~2.5x in run time, sim/tb/README.md)
  // ---------------------------------------------------------------------------
  logic            rst_n = 1'b0;
  logic [1:0]      rst_cnt = '0;
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      rst_cnt <= rst_cnt + 1'b1;
      if (rst_cnt == 2'd3) rst_n <= 1'b1;
    end
  end

  logic            done /*verilator public_flat_rd*/ = 1'b0;
  longint unsigned cycle = 0;

  // ---------------------------------------------------------------------------
  // Plusargs and ELF loading
  // ---------------------------------------------------------------------------
  string           elf, outdir, trace, dumps, regions, offsets;
  longint unsigned max_cycles = 64'd200_000_000;
  longint unsigned watchdog   = 64'd100_000;
  longint unsigned corrupt_pc = 0;
  longint unsigned mmio_base  = 64'h1000_0000;
  longint          entry;
  bit              corrupt_en = 1'b0;
  bit              finish_on_done = 1'b0;
  bit              trace_en = 1'b0;
  int              rc;

  initial begin
    if (!$value$plusargs("elf=%s", elf)) elf = "";
    if (!$value$plusargs("out=%s", outdir)) outdir = ".";
    if (!$value$plusargs("trace=%s", trace)) trace = "";
    if (!$value$plusargs("dumps=%s", dumps)) dumps = "";
    if (!$value$plusargs("regions=%s", regions)) regions = "";
    if (!$value$plusargs("mmio_offsets=%s", offsets)) offsets = "";
    if ($value$plusargs("mmio=%h", mmio_base)) ;
    if ($value$plusargs("max_cycles=%d", max_cycles)) ;
    if ($value$plusargs("watchdog=%d", watchdog)) ;
    if ($value$plusargs("corrupt_pc=%h", corrupt_pc)) corrupt_en = 1'b1;
    finish_on_done = $test$plusargs("finish_on_done");
    trace_en = (trace != "");
    rc = tb_init(elf, outdir, trace, dumps, regions, mmio_base, offsets, XLEN, entry);
    if (rc != 0) begin
      // tb_init wrote the reason into the result file.
      done = 1'b1;
      if (finish_on_done) $finish;
    end
  end

  // ---------------------------------------------------------------------------
  // SoC and memory ports
  // ---------------------------------------------------------------------------
  logic                  imem_req_valid, imem_req_ready, imem_resp_valid, imem_resp_err;
  logic [31:0]           imem_req_addr;
  logic [DataW-1:0]      imem_resp_data;
  logic                  dmem_req_valid, dmem_req_ready, dmem_req_we, dmem_resp_valid, dmem_resp_err;
  logic [31:0]           dmem_req_addr;
  logic [DataW/8-1:0]    dmem_req_wstrb;
  logic [DataW-1:0]      dmem_req_wdata, dmem_resp_data;
  logic                  amem_req_valid, amem_req_ready, amem_req_we, amem_resp_valid, amem_resp_err;
  logic [31:0]           amem_req_addr;
  logic [AccDataW/8-1:0] amem_req_wstrb;
  logic [AccDataW-1:0]   amem_req_wdata, amem_resp_data;
  retire_t               retire;
  trap_t                 trap;
  late_wb_t              late_wb;
  logic                  acc_progress;
  logic                  imem_exit, dmem_exit, amem_exit;
  logic                  imem_profile, dmem_profile, amem_profile;
  core_perf_t            core_perf;
  vec_pkg::vec_perf_t    vec_perf;
  gemmini_unit_pkg::gm_perf_t    gm_perf;
  gemmini_unit_pkg::gm_illegal_e gm_illegal_reason;
  longint unsigned       imem_busy, dmem_busy, amem_busy;

  cosim_soc #(
    .XLEN(XLEN), .DataW(DataW), .AccDataW(AccDataW), .Accel(Accel), .VLEN(VLEN), .DLEN(DLEN),
    .MemOutstanding(MemOutstanding), .Dim(Dim), .SpRows(SpRows), .AccRows(AccRows), .SpBanks(SpBanks),
    .AccBanks(AccBanks), .DmaBytes(DmaBytes), .DmaMaxBytes(DmaMaxBytes), .MaxBlockLen(MaxBlockLen),
    .MaxBlockLenAcc(MaxBlockLenAcc), .HasWs(HasWs), .HasOs(HasOs),
    .MmioBase(MmioBase), .MmioSize(MmioSize), .Mem0Base(Mem0Base), .Mem0Size(Mem0Size),
    .Mem1Base(Mem1Base), .Mem1Size(Mem1Size), .Mem2Base(Mem2Base), .Mem2Size(Mem2Size)
  ) u_soc (
    .clk_i             (clk),
    .rst_ni            (rst_n),
    .boot_addr_i       (XLEN'(entry)),
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
    .amem_req_valid_o  (amem_req_valid),
    .amem_req_ready_i  (amem_req_ready),
    .amem_req_addr_o   (amem_req_addr),
    .amem_req_we_o     (amem_req_we),
    .amem_req_wstrb_o  (amem_req_wstrb),
    .amem_req_wdata_o  (amem_req_wdata),
    .amem_resp_valid_i (amem_resp_valid),
    .amem_resp_data_i  (amem_resp_data),
    .amem_resp_err_i   (amem_resp_err),
    .corrupt_en_i      (corrupt_en),
    .corrupt_pc_i      (corrupt_pc),
    .retire_o          (retire),
    .trap_o            (trap),
    .late_wb_o         (late_wb),
    .core_perf_o       (core_perf),
    .vec_perf_o        (vec_perf),
    .gm_perf_o         (gm_perf),
    .gm_illegal_reason_o (gm_illegal_reason),
    .acc_progress_o    (acc_progress)
  );

  // Fetches never write: the instruction port has no write data.
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

  tb_mem_port #(.DataW(AccDataW), .Latency(MemLatency), .Outstanding(MemOutstanding), .Port(2)) u_amem (
    .clk_i (clk), .rst_ni (rst_n), .cycle_i (cycle),
    .req_valid_i (amem_req_valid), .req_ready_o (amem_req_ready), .req_addr_i (amem_req_addr),
    .req_we_i (amem_req_we), .req_wstrb_i (amem_req_wstrb), .req_wdata_i (amem_req_wdata),
    .resp_valid_o (amem_resp_valid), .resp_data_o (amem_resp_data), .resp_err_o (amem_resp_err),
    .exit_o (amem_exit), .profile_o (amem_profile), .busy_cycles_o (amem_busy)
  );

  // ---------------------------------------------------------------------------
  // Performance counters: every event of the core's core_perf_t, the vector
  // unit's vec_perf_t (vec_pkg) and the Gemmini unit's gm_perf_t
  // (gemmini_unit_pkg) summed per cycle into 64-bit counters, reported in
  // result.txt (names below; vec_* only on vector SoCs, the Gemmini ones only on
  // Gemmini SoCs) and sampled at every PROFILE store. The Gemmini names are the
  // functional model's where they mean the same (sim/gemmini/model.py
  // BASE_COUNTERS: gemmini_macs, dma_bytes_read, dma_bytes_written);
  // harness/results.py derives mesh_utilization from gemmini_macs.
  // ---------------------------------------------------------------------------
  localparam int NPerf = 23;
  localparam int NCorePerf = 2;   // core_* first; vec_* only exist for Accel == 1
  localparam int GmPerf = 13;     // first Gemmini counter (Accel == 2)
  localparam int unsigned Lanes = DLEN / 32;
  longint unsigned perf_q  [NPerf] = '{default: 0};
  longint unsigned perf_ev [NPerf];

  initial begin
    tb_perf_name(0, "core_cop_issue_stall_cycles");
    tb_perf_name(1, "core_cop_wait_cycles");
    if (Accel == 1) begin
      tb_perf_name(2, "vec_arith_busy_cycles");
      tb_perf_name(3, "vec_mem_busy_cycles");
      tb_perf_name(4, "vec_lane_ops");
      tb_perf_name(5, "vec_fma_ops");
      tb_perf_name(6, "vec_mem_bytes");
      tb_perf_name(7, "vec_port_busy_cycles");
      tb_perf_name(8, "vec_stall_dep_cycles");
      tb_perf_name(9, "vec_stall_struct_cycles");
      tb_perf_name(10, "vec_stall_mem_cycles");
      tb_perf_name(11, "vec_stall_issue_cycles");
      tb_perf_name(12, "vec_iq_full_cycles");
    end
    if (Accel == 2) begin
      tb_perf_name(GmPerf + 0, "gemmini_macs");
      tb_perf_name(GmPerf + 1, "gemmini_load_busy_cycles");
      tb_perf_name(GmPerf + 2, "gemmini_exec_busy_cycles");
      tb_perf_name(GmPerf + 3, "gemmini_store_busy_cycles");
      tb_perf_name(GmPerf + 4, "gemmini_mesh_busy_cycles");
      tb_perf_name(GmPerf + 5, "dma_bytes_read");
      tb_perf_name(GmPerf + 6, "dma_bytes_written");
      tb_perf_name(GmPerf + 7, "gemmini_stall_hazard_cycles");
      tb_perf_name(GmPerf + 8, "gemmini_stall_queue_cycles");
      tb_perf_name(GmPerf + 9, "gemmini_stall_mem_cycles");
    end
  end

  // vec_perf_t's one-bit events in counter order (2..3, 7..12) and its counts
  // (all zero on SoCs without a vector unit).
  logic [7:0]  vec_bits;
  logic [15:0] vec_lane_ops, vec_fma_ops, vec_mem_bytes;
  assign vec_bits = {vec_perf.iq_full, vec_perf.stall_issue, vec_perf.stall_mem, vec_perf.stall_struct,
                     vec_perf.stall_dep, vec_perf.port_busy, vec_perf.mem_busy, vec_perf.arith_busy};
  assign vec_lane_ops  = vec_perf.lane_ops;
  assign vec_fma_ops   = vec_perf.fma_ops;
  assign vec_mem_bytes = vec_perf.mem_bytes;

  always_comb begin
    perf_ev[0]  = longint'(core_perf.cop_issue_stall);
    perf_ev[1]  = longint'(core_perf.cop_wait);
    perf_ev[2]  = longint'(vec_bits[0]);
    perf_ev[3]  = longint'(vec_bits[1]);
    perf_ev[4]  = longint'(vec_lane_ops);
    perf_ev[5]  = longint'(vec_fma_ops);
    perf_ev[6]  = longint'(vec_mem_bytes);
    perf_ev[7]  = longint'(vec_bits[2]);
    perf_ev[8]  = longint'(vec_bits[3]);
    perf_ev[9]  = longint'(vec_bits[4]);
    perf_ev[10] = longint'(vec_bits[5]);
    perf_ev[11] = longint'(vec_bits[6]);
    perf_ev[12] = longint'(vec_bits[7]);
    perf_ev[GmPerf + 0] = longint'(gm_perf.macs);
    perf_ev[GmPerf + 1] = longint'(gm_perf.load_busy);
    perf_ev[GmPerf + 2] = longint'(gm_perf.exec_busy);
    perf_ev[GmPerf + 3] = longint'(gm_perf.store_busy);
    perf_ev[GmPerf + 4] = longint'(gm_perf.mesh_busy);
    perf_ev[GmPerf + 5] = longint'(gm_perf.dma_rd_bytes);
    perf_ev[GmPerf + 6] = longint'(gm_perf.dma_wr_bytes);
    perf_ev[GmPerf + 7] = longint'(gm_perf.stall_hazard);
    perf_ev[GmPerf + 8] = longint'(gm_perf.stall_queue);
    perf_ev[GmPerf + 9] = longint'(gm_perf.stall_mem);
  end

  // Width assertions (issue 5): per cycle at most `lanes` FP multiply-adds, at
  // most DLEN/8 element operations (a DLEN-bit row of SEW-8 elements; SEW-32 work
  // is at most `lanes`), at most MemW/8 bytes on the vector memory port. A
  // violation ends the run (result status `error`, message with cycle and counts).
  int unsigned max_fma       = Lanes;
  int unsigned max_lane_ops  = DLEN / 8;
  int unsigned max_mem_bytes = AccDataW / 8;
  initial begin
    if ($value$plusargs("perf_max_fma=%d", max_fma)) ;
    if ($value$plusargs("perf_max_lane_ops=%d", max_lane_ops)) ;
    if ($value$plusargs("perf_max_mem_bytes=%d", max_mem_bytes)) ;
  end
  logic fma_bad, lane_bad, mem_bad;
  assign fma_bad  = 32'(vec_fma_ops) > max_fma;
  assign lane_bad = 32'(vec_lane_ops) > max_lane_ops;
  assign mem_bad  = 32'(vec_mem_bytes) > max_mem_bytes;

  // The message is formatted only when an assertion fails (never per cycle).
  function automatic string width_message();
    if (fma_bad)
      return $sformatf("width assertion failed at cycle %0d: %0d FP multiply-adds in one cycle, at most %0d (lanes = DLEN/32)",
                       cycle, vec_fma_ops, max_fma);
    if (lane_bad)
      return $sformatf("width assertion failed at cycle %0d: %0d element operations in one cycle, at most %0d (DLEN/8)",
                       cycle, vec_lane_ops, max_lane_ops);
    return $sformatf("width assertion failed at cycle %0d: %0d bytes on the vector memory port in one cycle, at most %0d (MemW/8)",
                     cycle, vec_mem_bytes, max_mem_bytes);
  endfunction

  // ---------------------------------------------------------------------------
  // Monitors and run endings
  // ---------------------------------------------------------------------------
  localparam int ReasonExit = 0, ReasonMaxCycles = 1, ReasonWatchdog = 2, ReasonTrapLoop = 3,
                 ReasonAssert = 4;

  longint unsigned instret = 0;
  longint unsigned idle = 0;
  bit              exit_seen = 1'b0;
  bit              last_was_trap = 1'b0;
  trap_t           first_trap;

  task automatic finish_run(int reason);
    for (int i = 0; i < NPerf; i++) tb_perf_total(i, longint'(perf_q[i]));
    // A hang report says whether the core was waiting for its coprocessor.
    if (reason == ReasonWatchdog || reason == ReasonMaxCycles) tb_cop_inflight(int'(u_soc.u_core.cop_cnt_q));
    tb_finish(reason, cycle, retire.valid ? retire.pc : longint'(u_soc.u_core.pc_q),
              instret + longint'(retire.valid),
              imem_busy, dmem_busy, amem_busy, longint'(first_trap.cause), first_trap.epc, first_trap.tval);
    done <= 1'b1;
    if (finish_on_done) $finish;
  endtask

  always_ff @(posedge clk) begin
    if (rst_n && !done) begin
      cycle <= cycle + 1;
      if (retire.valid) begin
        instret <= instret + 1;
        last_was_trap <= 1'b0;
        if (trace_en) begin
          tb_retire(retire.pc, retire.insn, int'(retire.x_we), int'(retire.f_we), int'(retire.rd),
                    retire.rd_wdata, int'(retire.mem_re), int'(retire.mem_we), retire.mem_addr,
                    retire.mem_wdata, int'(retire.mem_size), int'(retire.csr_we), int'(retire.csr_addr),
                    retire.csr_wdata, int'(retire.cop), int'(retire.seq));
        end
      end
      if (trace_en && late_wb.valid) tb_late_wb(int'(late_wb.seq), int'(late_wb.f_we), int'(late_wb.rd),
                                                late_wb.wdata);
      if (trap.valid) begin
        if (trace_en) tb_trap(int'(trap.cause), trap.epc, trap.tval);
        if (!last_was_trap) first_trap <= trap;
        last_was_trap <= 1'b1;
      end
      for (int i = 0; i < NPerf; i++) perf_q[i] <= perf_q[i] + perf_ev[i];
      // PROFILE stores: the counters so far (events of cycles 0 .. the store's stamp)
      // go with the region event, so the runner can report per-region counters.
      if (imem_profile || dmem_profile || amem_profile) begin
        for (int i = 0; i < NPerf; i++) tb_perf_sample(i, longint'(perf_q[i]));
      end
      idle <= (retire.valid || acc_progress || late_wb.valid) ? 0 : idle + 1;
      if (dmem_exit || amem_exit || imem_exit) exit_seen <= 1'b1;

      // The EXIT store ends the run when it retires (so it counts in instret).
      if (exit_seen && retire.valid) begin
        finish_run(ReasonExit);
      end else if (trap.valid && last_was_trap) begin
        // Trapping again before any instruction retired: the handler itself
        // faults (e.g. no trap vector installed). Report the first trap.
        finish_run(ReasonTrapLoop);
      end else if (fma_bad || lane_bad || mem_bad) begin
        tb_fail(width_message());
        finish_run(ReasonAssert);
      end else if (cycle + 1 >= max_cycles) begin
        finish_run(ReasonMaxCycles);
      end else if (idle + 1 >= watchdog) begin
        finish_run(ReasonWatchdog);
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Gemmini instructions at the issue handshake (Accel == 2), for the trap
  // report: every accepted one and the refused one, with the core's PC and the
  // source registers, go to tb_dpi.cpp, which writes them into result.txt when
  // an instruction was refused; sim/rtl_runner.py then names the refused field
  // (the unit's illegal_reason_o, and the functional model's own text from a
  // replay of the accepted instructions). illegal_reason_o is registered ("the
  // last refused instruction"), so it is read the cycle after the refusal.
  // ---------------------------------------------------------------------------
  if (Accel == 2) begin : g_gm_issue
    logic        refused_q = 1'b0;
    longint      refused_pc_q, refused_rs1_q, refused_rs2_q;
    logic [31:0] refused_insn_q;
    always_ff @(posedge clk) begin
      refused_q <= 1'b0;
      if (rst_n && !done && u_soc.cop_req_valid && u_soc.cop_req_ready) begin
        if (u_soc.cop_illegal) begin
          refused_q      <= 1'b1;
          refused_pc_q   <= longint'(u_soc.u_core.pc_q);
          refused_insn_q <= u_soc.cop_req.insn;
          refused_rs1_q  <= u_soc.cop_req.rs1;
          refused_rs2_q  <= u_soc.cop_req.rs2;
        end else begin
          tb_gemmini_issue(longint'(u_soc.u_core.pc_q), u_soc.cop_req.insn, u_soc.cop_req.rs1,
                           u_soc.cop_req.rs2);
        end
      end
      if (refused_q) tb_gemmini_refused(refused_pc_q, refused_insn_q, refused_rs1_q, refused_rs2_q,
                                        int'(gm_illegal_reason));
    end
  end

  // ---------------------------------------------------------------------------
  // Vector register writes in the commit trace (tb_vtrace.sv, compiled only for
  // vector SoCs: it reads the vector unit's register file through the hierarchy).
  // ---------------------------------------------------------------------------
  if (Accel == 1) begin : g_vtrace
    tb_vtrace #(.VLEN(VLEN), .DLEN(DLEN)) u_vtrace (
      .clk_i         (clk),
      .active_i      (trace_en && rst_n && !done),
      .req_fire_i    (u_soc.cop_req_valid && u_soc.cop_req_ready),
      .req_seq_i     (u_soc.cop_req.seq),
      .req_insn_i    (u_soc.cop_req.insn),
      .req_vtype_i   (u_soc.cop_req.vtype),
      .cmp_valid_i   (u_soc.cop_cmp_valid && !u_soc.cop_cmp.exc),
      .cmp_seq_i     (u_soc.cop_cmp.seq)
    );
  end

  // ---------------------------------------------------------------------------
  // Gemmini difftest trace and fault injection (tb_gemmini_trace.sv, compiled
  // only for Gemmini SoCs; +gemmini_trace=F, +gemmini_corrupt_sp=N).
  // ---------------------------------------------------------------------------
  if (Accel == 2) begin : g_gmtrace
    tb_gemmini_trace #(
      .Dim(Dim), .SpRows(SpRows), .AccRows(AccRows), .SpBanks(SpBanks), .AccBanks(AccBanks),
      .DmaMaxBytes(DmaMaxBytes)
    ) u_gmtrace (
      .clk_i       (clk),
      .run_i       (rst_n && !done),
      .cycle_i     (cycle),
      .issue_i     (u_soc.cop_req_valid && u_soc.cop_req_ready && !u_soc.cop_illegal),
      .issue_seq_i (u_soc.cop_req.seq)
    );
  end

endmodule
