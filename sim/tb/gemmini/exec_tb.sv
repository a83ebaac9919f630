// Test-bench top of the Gemmini execute controller (sim/rtl/gemmini/gemmini_exec.sv,
// which drives its own gemmini_array) for the cocotb driver exec_cocotb.py. The
// controller reads and writes the real scratchpad and accumulator (gemmini_spad,
// gemmini_acc; global rows split into banks as the unit's top does). The driver
// preloads the memories and reads them back through a port of its own (pre_*,
// dump_*), used only while the controller is idle. The ready of the controller's
// five memory ports (the top's arbitration) is random: an LFSR per port, ready
// when its low byte is below ready_pct_i (256: always); the second scratchpad
// read port (the fetch's lane 1) also loses a bank the first one takes. Counters of the perf
// outputs for the driver. Flat ports, public for cocotb.
module exec_tb
  import gemmini_pkg::*;
#(
  parameter int unsigned Dim         = 4,
  parameter int unsigned SpBanks     = 4,
  parameter int unsigned SpBankRows  = 1024,
  parameter int unsigned AccBanks    = 2,
  parameter int unsigned AccBankRows = 128,
  localparam int unsigned SpRows     = SpBanks * SpBankRows,
  localparam int unsigned AccRows    = AccBanks * AccBankRows,
  localparam int unsigned SpAddrW    = $clog2(SpBankRows),
  localparam int unsigned AccAddrW   = $clog2(AccBankRows),
  localparam int unsigned SpRowW     = $clog2(SpRows),
  localparam int unsigned AccRowW    = $clog2(AccRows)
) (
  input  logic                clk_i /*verilator public_flat_rw*/,
  input  logic                rst_ni /*verilator public_flat_rw*/,
  // preload and read back (whole rows)
  input  logic                pre_sp_en_i /*verilator public_flat_rw*/,
  input  logic [SpRowW-1:0]   pre_sp_row_i /*verilator public_flat_rw*/,
  input  logic [Dim*8-1:0]    pre_sp_data_i /*verilator public_flat_rw*/,
  input  logic                pre_acc_en_i /*verilator public_flat_rw*/,
  input  logic [AccRowW-1:0]  pre_acc_row_i /*verilator public_flat_rw*/,
  input  logic [Dim*32-1:0]   pre_acc_data_i /*verilator public_flat_rw*/,
  input  logic                dump_en_i /*verilator public_flat_rw*/,
  input  logic [SpRowW-1:0]   dump_sp_row_i /*verilator public_flat_rw*/,
  input  logic [AccRowW-1:0]  dump_acc_row_i /*verilator public_flat_rw*/,
  output logic [Dim*8-1:0]    dump_sp_data_o /*verilator public_flat_rd*/,
  output logic [Dim*32-1:0]   dump_acc_data_o /*verilator public_flat_rd*/,
  // commands
  input  logic                cmd_valid_i /*verilator public_flat_rw*/,
  output logic                cmd_ready_o /*verilator public_flat_rd*/,
  output logic                cmd_fire_q_o /*verilator public_flat_rd*/,
  input  logic [6:0]          cmd_funct_i /*verilator public_flat_rw*/,
  input  logic [63:0]         cmd_rs1_i /*verilator public_flat_rw*/,
  input  logic [63:0]         cmd_rs2_i /*verilator public_flat_rw*/,
  input  logic [IdW-1:0]      cmd_id_i /*verilator public_flat_rw*/,
  output logic                done_valid_o /*verilator public_flat_rd*/,
  output logic [IdW-1:0]      done_id_o /*verilator public_flat_rd*/,
  // randomness of the memory ports' ready
  input  logic [8:0]          ready_pct_i /*verilator public_flat_rw*/,
  input  logic [15:0]         seed_i /*verilator public_flat_rw*/,
  // counters
  output logic [31:0]         cycle_o /*verilator public_flat_rd*/,
  output logic [63:0]         macs_o /*verilator public_flat_rd*/,
  output logic [31:0]         busy_cycles_o /*verilator public_flat_rd*/,
  output logic [31:0]         mesh_cycles_o /*verilator public_flat_rd*/,
  output logic [31:0]         stall_mem_o /*verilator public_flat_rd*/,
  output logic [31:0]         stall_operand_o /*verilator public_flat_rd*/,
  output logic                busy_o /*verilator public_flat_rd*/,
  // what the controller does this cycle (for the timing diagram of EXEC.md)
  output logic [31:0]         trace_o /*verilator public_flat_rd*/
);

  gm_cmd_t cmd;
  assign cmd = '{funct: cmd_funct_i, rs1: cmd_rs1_i, rs2: cmd_rs2_i, id: cmd_id_i};

  logic                sp_rd_valid, sp_rd_ready, acc_rd_valid, acc_rd_ready, sp_rd1_valid, sp_rd1_ready;
  logic [SpRowW-1:0]   sp_rd1_row;
  logic [Dim*8-1:0]    sp_rd1_data;
  logic                sp_wr_valid, sp_wr_ready, acc_wr_valid, acc_wr_ready, acc_wr_accumulate;
  logic [SpRowW-1:0]   sp_rd_row, sp_wr_row;
  logic [AccRowW-1:0]  acc_rd_row, acc_wr_row;
  logic [Dim-1:0]      sp_wr_mask, acc_wr_mask;
  logic [Dim*8-1:0]    sp_rd_data, sp_wr_data;
  logic [Dim*32-1:0]   acc_rd_data, acc_wr_data;
  logic [IdW-1:0]      sp_wr_id, acc_wr_id;
  logic [31:0]         macs;
  logic                perf_busy, mesh_busy, stall_mem, stall_operand;

  gemmini_exec #(.Dim(Dim), .SpRows(SpRows), .AccRows(AccRows)) u_exec (
    .clk_i,
    .rst_ni,
    .cmd_valid_i,
    .cmd_ready_o,
    .cmd_i               (cmd),
    .done_valid_o,
    .done_id_o,
    .sp_rd_valid_o       (sp_rd_valid),
    .sp_rd_ready_i       (sp_rd_ready),
    .sp_rd_row_o         (sp_rd_row),
    .sp_rd_data_i        (sp_rd_data),
    .sp_rd1_valid_o      (sp_rd1_valid),
    .sp_rd1_ready_i      (sp_rd1_ready),
    .sp_rd1_row_o        (sp_rd1_row),
    .sp_rd1_data_i       (sp_rd1_data),
    .acc_rd_valid_o      (acc_rd_valid),
    .acc_rd_ready_i      (acc_rd_ready),
    .acc_rd_row_o        (acc_rd_row),
    .acc_rd_data_i       (acc_rd_data),
    .sp_wr_valid_o       (sp_wr_valid),
    .sp_wr_ready_i       (sp_wr_ready),
    .sp_wr_row_o         (sp_wr_row),
    .sp_wr_mask_o        (sp_wr_mask),
    .sp_wr_data_o        (sp_wr_data),
    .sp_wr_id_o          (sp_wr_id),
    .acc_wr_valid_o      (acc_wr_valid),
    .acc_wr_ready_i      (acc_wr_ready),
    .acc_wr_row_o        (acc_wr_row),
    .acc_wr_mask_o       (acc_wr_mask),
    .acc_wr_data_o       (acc_wr_data),
    .acc_wr_accumulate_o (acc_wr_accumulate),
    .acc_wr_id_o         (acc_wr_id),
    .perf_macs_o         (macs),
    .perf_busy_o         (perf_busy),
    .perf_mesh_busy_o    (mesh_busy),
    .perf_stall_mem_o    (stall_mem),
    .perf_stall_operand_o(stall_operand)
  );

  // ---------------------------------------------------------------- random ready

  logic [4:0][15:0] lfsr_q;
  logic [4:0]       rdy;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < 5; i++) lfsr_q[i] <= seed_i ^ 16'(16'h1D2B * (i + 1)) | 16'h1;
    end else begin
      for (int i = 0; i < 5; i++) begin
        // xorshift16
        logic [15:0] x;
        x = lfsr_q[i];
        x = x ^ (x << 7);
        x = x ^ (x >> 9);
        x = x ^ (x << 8);
        lfsr_q[i] <= x;
      end
    end
  end
  for (genvar i = 0; i < 5; i++) begin : g_rdy
    assign rdy[i] = {1'b0, lfsr_q[i][7:0]} < ready_pct_i;
  end
  assign sp_rd_ready  = rdy[0];
  assign acc_rd_ready = rdy[1];
  assign sp_wr_ready  = rdy[2];
  assign acc_wr_ready = rdy[3];
  // lane 1 gets a bank only when the first port (or the dump) does not read it
  assign sp_rd1_ready = rdy[4] && !(sp_rd_go && 32'(sp_r_row) / SpBankRows == 32'(sp_rd1_row) / SpBankRows);

  // ---------------------------------------------------------------- memories

  logic [SpBanks-1:0]                sp_wr_en, sp_rd_en;
  logic [SpBanks-1:0][SpAddrW-1:0]   sp_wr_addr, sp_rd_addr;
  logic [SpBanks-1:0][Dim-1:0]       sp_wr_mask_b;
  logic [SpBanks-1:0][Dim*8-1:0]     sp_wr_data_b, sp_rd_data_b;
  logic [AccBanks-1:0]               acc_wr_en, acc_wr_acc, acc_rd_en;
  logic [AccBanks-1:0][AccAddrW-1:0] acc_wr_addr, acc_rd_addr;
  logic [AccBanks-1:0][Dim-1:0]      acc_wr_mask_b;
  logic [AccBanks-1:0][Dim*32-1:0]   acc_wr_data_b, acc_rd_data_b;
  logic                              sp_wr_go, acc_wr_go, sp_rd_go, acc_rd_go, sp_rd1_go;
  logic [SpRowW-1:0]                 sp_w_row, sp_r_row, sp_r_row_q, sp_r1_row_q;
  logic [AccRowW-1:0]                acc_w_row, acc_r_row, acc_r_row_q;

  always_comb begin
    sp_wr_go  = pre_sp_en_i || (sp_wr_valid && sp_wr_ready);
    acc_wr_go = pre_acc_en_i || (acc_wr_valid && acc_wr_ready);
    sp_rd_go  = dump_en_i || (sp_rd_valid && sp_rd_ready);
    acc_rd_go = dump_en_i || (acc_rd_valid && acc_rd_ready);
    sp_rd1_go = !dump_en_i && sp_rd1_valid && sp_rd1_ready;
    sp_w_row  = pre_sp_en_i ? pre_sp_row_i : sp_wr_row;
    acc_w_row = pre_acc_en_i ? pre_acc_row_i : acc_wr_row;
    sp_r_row  = dump_en_i ? dump_sp_row_i : sp_rd_row;
    acc_r_row = dump_en_i ? dump_acc_row_i : acc_rd_row;
    for (int unsigned b = 0; b < SpBanks; b++) begin
      sp_wr_en[b]     = sp_wr_go && (32'(sp_w_row) / SpBankRows) == b;
      sp_wr_addr[b]   = SpAddrW'(sp_w_row % SpBankRows);
      sp_wr_mask_b[b] = pre_sp_en_i ? '1 : sp_wr_mask;
      sp_wr_data_b[b] = pre_sp_en_i ? pre_sp_data_i : sp_wr_data;
      sp_rd_en[b]     = sp_rd_go && (32'(sp_r_row) / SpBankRows) == b;
      sp_rd_addr[b]   = SpAddrW'(sp_r_row % SpBankRows);
      if (sp_rd1_go && (32'(sp_rd1_row) / SpBankRows) == b) begin
        sp_rd_en[b]   = 1'b1;
        sp_rd_addr[b] = SpAddrW'(sp_rd1_row % SpBankRows);
      end
    end
    for (int unsigned b = 0; b < AccBanks; b++) begin
      acc_wr_en[b]     = acc_wr_go && (32'(acc_w_row) / AccBankRows) == b;
      acc_wr_acc[b]    = !pre_acc_en_i && acc_wr_accumulate;
      acc_wr_addr[b]   = AccAddrW'(acc_w_row % AccBankRows);
      acc_wr_mask_b[b] = pre_acc_en_i ? '1 : acc_wr_mask;
      acc_wr_data_b[b] = pre_acc_en_i ? pre_acc_data_i : acc_wr_data;
      acc_rd_en[b]     = acc_rd_go && (32'(acc_r_row) / AccBankRows) == b;
      acc_rd_addr[b]   = AccAddrW'(acc_r_row % AccBankRows);
    end
  end

  gemmini_spad #(.Dim(Dim), .Banks(SpBanks), .BankRows(SpBankRows)) u_spad (
    .clk_i,
    .rst_ni,
    .wr_en_i   (sp_wr_en),
    .wr_addr_i (sp_wr_addr),
    .wr_mask_i (sp_wr_mask_b),
    .wr_data_i (sp_wr_data_b),
    .rd_en_i   (sp_rd_en),
    .rd_addr_i (sp_rd_addr),
    .rd_data_o (sp_rd_data_b)
  );

  gemmini_acc #(.Dim(Dim), .Banks(AccBanks), .BankRows(AccBankRows)) u_acc (
    .clk_i,
    .rst_ni,
    .wr_en_i   (acc_wr_en),
    .wr_acc_i  (acc_wr_acc),
    .wr_addr_i (acc_wr_addr),
    .wr_mask_i (acc_wr_mask_b),
    .wr_data_i (acc_wr_data_b),
    .rd_en_i   (acc_rd_en),
    .rd_addr_i (acc_rd_addr),
    .rd_data_o (acc_rd_data_b)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sp_r_row_q      <= '0;
      sp_r1_row_q     <= '0;
      acc_r_row_q     <= '0;
      cycle_o         <= '0;
      macs_o          <= '0;
      busy_cycles_o   <= '0;
      mesh_cycles_o   <= '0;
      stall_mem_o     <= '0;
      stall_operand_o <= '0;
      cmd_fire_q_o    <= 1'b0;
    end else begin
      if (sp_rd_go) sp_r_row_q <= sp_r_row;
      if (sp_rd1_go) sp_r1_row_q <= sp_rd1_row;
      if (acc_rd_go) acc_r_row_q <= acc_r_row;
      cycle_o         <= cycle_o + 1;
      macs_o          <= macs_o + 64'(macs);
      busy_cycles_o   <= busy_cycles_o + 32'(perf_busy);
      mesh_cycles_o   <= mesh_cycles_o + 32'(mesh_busy);
      stall_mem_o     <= stall_mem_o + 32'(stall_mem);
      stall_operand_o <= stall_operand_o + 32'(stall_operand);
      cmd_fire_q_o    <= cmd_valid_i && cmd_ready_o;
    end
  end

  assign sp_rd_data      = sp_rd_data_b[32'(sp_r_row_q) / SpBankRows];
  assign sp_rd1_data     = sp_rd_data_b[32'(sp_r1_row_q) / SpBankRows];
  assign acc_rd_data     = acc_rd_data_b[32'(acc_r_row_q) / AccBankRows];
  assign dump_sp_data_o  = sp_rd_data;
  assign dump_acc_data_o = acc_rd_data;
  assign busy_o          = perf_busy;

  // [0] a beat enters the array, [2:1] its tile kind (0 carrier, 1 drain, 2 compute), [3] flip, [7:4] beat,
  // [10:8] job, [11] in_d carries a P, [14:12] whose, [15] a row leaves the array, [16] a result row is written,
  // [17] a done, [18] an operand row read, [20:19] which operand (0 P, 1 A, 2 B), [23:21] its job, [24] from acc,
  // [25] an operand row read on lane 1 (the second scratchpad port), [27:26] which operand, [30:28] its job
  assign trace_o = {1'b0, u_exec.u_fetch.next_task.job, u_exec.u_fetch.next_task.operand, u_exec.u_fetch.next_fire,
                    u_exec.u_fetch.head_task.acc, u_exec.u_fetch.head_task.job, u_exec.u_fetch.head_task.operand, u_exec.u_fetch.head_fire,
                    done_valid_o, (sp_wr_valid && sp_wr_ready) || (acc_wr_valid && acc_wr_ready), u_exec.out_valid,
                    u_exec.carry_job, u_exec.carry, u_exec.stream_job, 4'(u_exec.beat), u_exec.beat_flip, u_exec.kind,
                    u_exec.beat_fire};

  logic unused;
  assign unused = ^{sp_wr_id, acc_wr_id};

endmodule
