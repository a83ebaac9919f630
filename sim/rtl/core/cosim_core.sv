// Scalar core: RV{32,64}IMF + Zicsr, machine mode, precise traps (README.md).
// An in-order core that executes straight out of the fetch queue, with
// non-blocking loads and stores. This module wires its stages: fetch, decode and
// register files, execute units (ALU, multiplier, divider, FPU, vset), CSRs,
// load/store formatting and the non-blocking unit, coprocessor tracking, the
// controller (sequencer) and the commit queue that orders the monitor's records.
//
// About 650 lines, past the ~600-line guide on purpose: about 300 are the port
// maps of the twelve units it wires, and the logic of its own (the coprocessor
// request, the monitor records, the port assertions) is glue between two units or
// a check on the core's own ports, read next to the wires it joins. The largest
// piece, the monitor records with the commit queue (~75 lines), would need a
// module of about 40 ports for 30 lines of logic and leave this file over 600
// lines all the same.
module cosim_core
  import core_pkg::*;
  import cosim_pkg::*;
  import fpu_pkg::*;
#(
  parameter int unsigned XLEN       = 32,
  parameter int unsigned DataW      = 32,   // memory port width (>= XLEN)
  parameter bit          VecPresent = 1'b0,
  parameter int unsigned VLEN       = 128,
  // Custom (RoCC) instructions and scalar memory: 0 = a custom instruction may
  // read and write memory, so scalar loads/stores wait for it (kind 2'b11);
  // 1 = only fence and MMIO accesses wait for it (Gemmini: its DMA is ordered
  // against the core's memory by fence alone, DESIGN.md; kind 2'b00).
  parameter bit          CustomFenceOnly = 1'b0,
  // The MMIO page (DESIGN.md memory map; every config today): scalar accesses
  // to it wait until the coprocessor is idle (EXIT/PROFILE drain the unit).
  parameter logic [31:0] MmioBase   = 32'h1000_0000,
  parameter logic [31:0] MmioSize   = 32'h0000_1000,
  parameter int unsigned ICacheWords = 256,
  // Memory regions that never answer with an error (DESIGN.md memory map; a
  // test checks every config against these). Loads and stores to them do not
  // block: the core goes on with independent instructions while they are in
  // flight. Accesses elsewhere wait for their response (precise access faults).
  parameter logic [31:0] Mem0Base   = 32'h2000_0000,
  parameter logic [32:0] Mem0Size   = 33'h0_2000_0000,
  parameter logic [31:0] Mem1Base   = 32'h4000_0000,
  parameter logic [32:0] Mem1Size   = 33'h0_8000_0000,
  parameter logic [31:0] Mem2Base   = 32'hC000_0000,
  parameter logic [32:0] Mem2Size   = 33'h0_0100_0000
) (
  input  logic               clk_i,               // clock
  input  logic               rst_ni,              // asynchronous reset, active low
  input  logic [XLEN-1:0]    boot_addr_i,         // the PC after reset

  // Instruction port: word requests (valid/ready), responses in order
  output logic               imem_req_valid_o,    // a fetch request
  input  logic               imem_req_ready_i,    // ... accepted
  output logic [31:0]        imem_req_addr_o,     // its address
  input  logic               imem_resp_valid_i,   // a response (in request order)
  input  logic [DataW-1:0]   imem_resp_data_i,    // the beat holding the word
  input  logic               imem_resp_err_i,     // access fault

  // Data port: loads and stores (valid/ready), responses in order
  output logic               dmem_req_valid_o,    // a load or store request
  input  logic               dmem_req_ready_i,    // ... accepted
  output logic [31:0]        dmem_req_addr_o,     // its byte address
  output logic               dmem_req_we_o,       // a store
  output logic [DataW/8-1:0] dmem_req_wstrb_o,    // store byte enables
  output logic [DataW-1:0]   dmem_req_wdata_o,    // store data, in its byte lanes
  input  logic               dmem_resp_valid_i,   // a response (in request order)
  input  logic [DataW-1:0]   dmem_resp_data_i,    // load data beat
  input  logic               dmem_resp_err_i,     // access fault

  // Coprocessor port (DESIGN.md "Coprocessor contract")
  output logic               cop_req_valid_o,     // an instruction for the coprocessor
  input  logic               cop_req_ready_i,     // ... accepted (or refused, cop_illegal_i)
  output cop_req_t           cop_req_o,           // the instruction, its operands, vtype/vl, seq
  input  logic               cop_illegal_i,       // the coprocessor refuses it: illegal instruction
  input  cop_ack_t           cop_ack_i,           // memory fault / ff trim, with the handshake
  input  logic               cop_cmp_valid_i,     // a completion (exactly one per accepted seq)
  input  cop_cmp_t           cop_cmp_i,           // ... its seq, register write, flags, vl, exception
  output logic               cop_busy_o,          // accepted instructions not yet completed

  // Fault injection (test of the difftest): flip bit 0 of the first register
  // write retired at corrupt_pc_i.
  input  logic               corrupt_en_i,        // injection armed
  input  logic [63:0]        corrupt_pc_i,        // at this PC

  // Monitors for the test bench
  output retire_t            retire_o,            // one retired instruction, in program order
  output trap_t              trap_o,              // a trap taken
  output late_wb_t           late_wb_o,           // a register write by a coprocessor completion
  output core_perf_t         perf_o               // performance events of this cycle
);
  localparam int unsigned OffW    = $clog2(DataW / 8);  // byte offset inside a beat
  localparam int unsigned CommitW = 3;                  // index of the 8-record commit queue

  // The instruction being worked on and its PC (controller). tb_top reads pc_q
  // and cop_cnt_q through the hierarchy (u_core.pc_q, u_core.cop_cnt_q).
  logic [31:0]     insn;
  logic [XLEN-1:0] pc_q;
  logic            running, mem_waiting;
  logic [XLEN-1:0] mem_held_addr;

  // ---------------------------------------------------------------------------
  // Fetch (sequential prefetch and I-cache, restarted on every redirect)
  // ---------------------------------------------------------------------------
  logic            fetch_valid, fetch_err, fetch_consume, fetch_flush, redirect;
  logic [31:0]     fetch_insn;
  logic [XLEN-1:0] redirect_pc;
  logic            store_accept;   // a store leaves: invalidate its I-cache lines

  core_fetch #(.XLEN(XLEN), .DataW(DataW), .Depth(8), .CacheWords(ICacheWords)) u_fetch (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .boot_addr_i       (boot_addr_i),
    .redirect_i        (redirect),
    .redirect_addr_i   (redirect_pc),
    .flush_i           (fetch_flush),
    .inval_i           (store_accept),
    .inval_addr_i      (dmem_req_addr_o),
    .imem_req_valid_o  (imem_req_valid_o),
    .imem_req_ready_i  (imem_req_ready_i),
    .imem_req_addr_o   (imem_req_addr_o),
    .imem_resp_valid_i (imem_resp_valid_i),
    .imem_resp_data_i  (imem_resp_data_i),
    .imem_resp_err_i   (imem_resp_err_i),
    .valid_o           (fetch_valid),
    .insn_o            (fetch_insn),
    .err_o             (fetch_err),
    .consume_i         (fetch_consume)
  );

  // ---------------------------------------------------------------------------
  // Decode and register files
  // ---------------------------------------------------------------------------
  cls_e            cls;
  logic [XLEN-1:0] imm;
  logic            word, uses_rm, fpu_int_rd;
  fpu_op_e         fpu_op;

  core_decoder #(.XLEN(XLEN), .VecPresent(VecPresent)) u_decoder (
    .insn_i       (insn),
    .class_o      (cls),
    .imm_o        (imm),
    .word_o       (word),
    .uses_rm_o    (uses_rm),
    .fpu_op_o     (fpu_op),
    .fpu_int_rd_o (fpu_int_rd)
  );

  logic [2:0] funct3;
  logic [4:0] rd, rs1, rs2, rs3;
  assign funct3 = insn[14:12];
  assign rd     = insn[11:7];
  assign rs1    = insn[19:15];
  assign rs2    = insn[24:20];
  assign rs3    = insn[31:27];

  // Write port A: the instruction's own result or a coprocessor completion;
  // port B: a non-blocking load returning from memory (core_lsu).
  logic [XLEN-1:0] rs1_value, rs2_value, unused_x_c;
  logic            x_we, load_x_we, load_f_we;
  logic [4:0]      x_waddr, load_rd;
  logic [XLEN-1:0] x_wdata, load_x_wdata;
  logic [31:0]     load_f_wdata;

  core_regfile #(.Width(XLEN), .ZeroReg(1'b1)) u_xregs (
    .clk_i     (clk_i),
    .raddr_a_i (rs1),
    .raddr_b_i (rs2),
    .raddr_c_i (5'd0),
    .rdata_a_o (rs1_value),
    .rdata_b_o (rs2_value),
    .rdata_c_o (unused_x_c),
    .we_i      (x_we),
    .waddr_i   (x_waddr),
    .wdata_i   (x_wdata),
    .we_b_i    (load_x_we),
    .waddr_b_i (load_rd),
    .wdata_b_i (load_x_wdata)
  );

  // f registers hold binary32 plus a "NaN-boxed" bit: on RV64 a register that was
  // never written (Spike's initial 0) is not boxed and reads as the canonical NaN.
  logic [32:0] frs1_value, frs2_value, frs3_value;
  logic        f_we;
  logic [4:0]  f_waddr;
  logic [31:0] f_wdata;

  core_regfile #(.Width(33), .ZeroReg(1'b0)) u_fregs (
    .clk_i     (clk_i),
    .raddr_a_i (rs1),
    .raddr_b_i (rs2),
    .raddr_c_i (rs3),
    .rdata_a_o (frs1_value),
    .rdata_b_o (frs2_value),
    .rdata_c_o (frs3_value),
    .we_i      (f_we),
    .waddr_i   (f_waddr),
    .wdata_i   ({1'b1, f_wdata}),
    .we_b_i    (load_f_we),
    .waddr_b_i (load_rd),
    .wdata_b_i ({1'b1, load_f_wdata})
  );

  function automatic logic [31:0] unbox(logic [32:0] r);
    if (XLEN == 64 && !r[32]) return CanonicalNaN;
    return r[31:0];
  endfunction

  // The trace shows an f value NaN-boxed on RV64.
  function automatic logic [63:0] boxed(logic [31:0] f);
    return {(XLEN == 64) ? 32'hffff_ffff : 32'h0, f};
  endfunction

  // ---------------------------------------------------------------------------
  // Execute units: ALU, multiplier, divider, FPU; vset{i}vl{i}
  // ---------------------------------------------------------------------------
  logic            branch_taken, div_start, div_done, rm_bad;
  logic [XLEN-1:0] alu_result, mul_result, div_result;
  logic            fpu_req_valid, fpu_req_ready, fpu_resp_valid;
  logic [63:0]     fpu_result;
  logic [4:0]      fpu_fflags;
  logic [2:0]      frm;

  core_ex_block #(.XLEN(XLEN)) u_ex_block (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .class_i          (cls),
    .insn_i           (insn),
    .imm_i            (imm),
    .word_i           (word),
    .rs1_i            (rs1_value),
    .rs2_i            (rs2_value),
    .frs1_i           (unbox(frs1_value)),
    .frs2_i           (unbox(frs2_value)),
    .frs3_i           (unbox(frs3_value)),
    .alu_result_o     (alu_result),
    .branch_taken_o   (branch_taken),
    .mul_enable_i     (running && fetch_valid && cls == ClsMul),
    .mul_result_o     (mul_result),
    .div_start_i      (div_start),
    .div_done_o       (div_done),
    .div_result_o     (div_result),
    .fpu_uses_rm_i    (uses_rm),
    .fpu_op_i         (fpu_op),
    .frm_i            (frm),
    .fpu_rm_bad_o     (rm_bad),
    .fpu_req_valid_i  (fpu_req_valid),
    .fpu_req_ready_o  (fpu_req_ready),
    .fpu_resp_valid_o (fpu_resp_valid),
    .fpu_result_o     (fpu_result),
    .fpu_fflags_o     (fpu_fflags)
  );

  // vset{i}vl{i}: the new vl and vtype.
  logic [XLEN-1:0] vset_vl, vset_vtype, vl;

  core_vset #(.XLEN(XLEN), .VecPresent(VecPresent), .VLEN(VLEN)) u_vset (
    .enable_i (cls == ClsVset),
    .insn_i   (insn),
    .rs1_i    (rs1_value),
    .rs2_i    (rs2_value),
    .vl_i     (vl),
    .vl_o     (vset_vl),
    .vtype_o  (vset_vtype)
  );

  // ---------------------------------------------------------------------------
  // CSRs
  // ---------------------------------------------------------------------------
  logic            csr_write_intent, csr_illegal, csr_we;
  logic [XLEN-1:0] csr_rdata, csr_wlegal;
  logic            trap, mret, retire, vset;
  logic [5:0]      trap_cause;
  logic [XLEN-1:0] trap_tval, trap_epc;
  logic [XLEN-1:0] mtvec, mepc, vtype, vstart;
  logic [1:0]      fs, vs, vxrm;
  logic            fflags_we, cop_issue, cop_vstart_we;
  logic [4:0]      fflags_accrued;
  logic [31:0]     cop_vstart;

  assign fflags_we      = fpu_resp_valid || cop_cmp_valid_i;
  assign fflags_accrued = (fpu_resp_valid ? fpu_fflags : 5'd0) | (cop_cmp_valid_i ? cop_cmp_i.fflags : 5'd0);

  core_csr #(.XLEN(XLEN), .VecPresent(VecPresent), .VLEN(VLEN)) u_csr (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .csr_addr_i    (insn[31:20]),
    .csr_funct3_i  (funct3),
    .csr_rs1_i     (rs1),
    .csr_rs1_value_i (rs1_value),
    .csr_write_o   (csr_write_intent),
    .csr_rdata_o   (csr_rdata),
    .csr_illegal_o (csr_illegal),
    .csr_we_i      (csr_we),
    .csr_wlegal_o  (csr_wlegal),
    .trap_i        (trap),
    .trap_cause_i  (trap_cause),
    .trap_epc_i    (trap_epc),
    .trap_tval_i   (trap_tval),
    .mret_i        (mret),
    .mtvec_o       (mtvec),
    .mepc_o        (mepc),
    .retire_i      (retire),
    .fs_dirty_i    (f_we || load_f_we),
    .fflags_we_i   (fflags_we),
    .fflags_i      (fflags_accrued),
    .vxsat_i       (cop_cmp_valid_i && cop_cmp_i.vxsat),
    .vs_dirty_i    (1'b0),
    .vset_i        (vset),
    .vstart_clr_i  (cop_issue),
    .vset_vl_i     (vset_vl),
    .vset_vtype_i  (vset_vtype),
    .vstart_we_i   (cop_vstart_we),
    .vstart_i      (cop_vstart),
    .vl_we_i       ((cop_cmp_valid_i && cop_cmp_i.vl_we) || (cop_issue && cop_ack_i.trim)),
    .vl_i          ((cop_issue && cop_ack_i.trim) ? cop_ack_i.elem : cop_cmp_i.vl),
    .fs_o          (fs),
    .vs_o          (vs),
    .frm_o         (frm),
    .vtype_o       (vtype),
    .vl_o          (vl),
    .vstart_o      (vstart),
    .vxrm_o        (vxrm)
  );

  // ---------------------------------------------------------------------------
  // Loads and stores: formatting, the non-blocking unit, the commit queue
  // ---------------------------------------------------------------------------
  logic               mem_store, mem_misaligned, mem_mmio, mem_nonblocking;
  logic [1:0]         mem_size;
  logic [XLEN-1:0]    mem_addr;
  logic [63:0]        store_data, load_value;
  logic               lsu_stall, lsu_full, lsu_busy, lsu_issue, corrupt_load;
  logic               head_unsigned;
  logic [1:0]         head_size;
  logic [OffW-1:0]    head_offset;
  logic               fill;
  logic [CommitW-1:0] fill_index, commit_index;
  logic [63:0]        fill_data;
  logic               commit_full, commit_empty, drained;

  // A blocking access (StMemWait) formats its own data; otherwise the response
  // belongs to the oldest non-blocking access.
  core_lsu_format #(.XLEN(XLEN), .DataW(DataW)) u_lsu_format (
    .class_i         (cls),
    .funct3_i        (funct3),
    .rs1_i           (rs1_value),
    .imm_i           (imm),
    .rs2_i           (rs2_value),
    .frs2_i          (frs2_value[31:0]),
    .store_o         (mem_store),
    .size_o          (mem_size),
    .addr_o          (mem_addr),
    .misaligned_o    (mem_misaligned),
    .store_offset_i  (running ? mem_addr[OffW-1:0] : mem_held_addr[OffW-1:0]),
    .store_data_o    (store_data),
    .store_strb_o    (dmem_req_wstrb_o),
    .store_wdata_o   (dmem_req_wdata_o),
    .resp_data_i     (dmem_resp_data_i),
    .load_unsigned_i (mem_waiting ? (cls == ClsLoad && funct3[2]) : head_unsigned),
    .load_size_i     (mem_waiting ? mem_size : head_size),
    .load_offset_i   (mem_waiting ? mem_held_addr[OffW-1:0] : head_offset),
    .load_value_o    (load_value)
  );

  core_lsu #(
    .XLEN(XLEN), .DataW(DataW), .CommitW(CommitW), .MmioBase(MmioBase), .MmioSize(MmioSize),
    .Mem0Base(Mem0Base), .Mem0Size(Mem0Size), .Mem1Base(Mem1Base), .Mem1Size(Mem1Size),
    .Mem2Base(Mem2Base), .Mem2Size(Mem2Size)
  ) u_lsu (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .class_i         (cls),
    .funct3_i        (funct3),
    .rd_i            (rd),
    .rs1_i           (rs1),
    .rs2_i           (rs2),
    .rs3_i           (rs3),
    .stall_o         (lsu_stall),
    .addr_i          (mem_addr),
    .store_i         (mem_store),
    .size_i          (mem_size),
    .mmio_o          (mem_mmio),
    .nonblocking_o   (mem_nonblocking),
    .issue_i         (lsu_issue),
    .commit_index_i  (commit_index),
    .corrupt_i       (corrupt_load),
    .full_o          (lsu_full),
    .busy_o          (lsu_busy),
    .resp_valid_i    (dmem_resp_valid_i),
    .head_unsigned_o (head_unsigned),
    .head_size_o     (head_size),
    .head_offset_o   (head_offset),
    .load_value_i    (load_value),
    .x_we_o          (load_x_we),
    .f_we_o          (load_f_we),
    .rd_o            (load_rd),
    .x_wdata_o       (load_x_wdata),
    .f_wdata_o       (load_f_wdata),
    .fill_o          (fill),
    .fill_index_o    (fill_index),
    .fill_data_o     (fill_data)
  );

  assign drained          = commit_empty && !lsu_busy;
  assign dmem_req_addr_o  = mem_addr[31:0];   // requests leave from StRun only
  assign dmem_req_we_o    = mem_store;
  assign store_accept     = dmem_req_valid_o && dmem_req_ready_i && mem_store;

  // ---------------------------------------------------------------------------
  // Coprocessor instructions in flight and the request
  // ---------------------------------------------------------------------------
  logic [4:0]      cop_cnt_q;
  logic            cop_vector, cop_writes_x, cop_writes_f, cop_full, mem_order_ok;
  logic [XLEN-1:0] cop_cmp_pc;
  logic [7:0]      cop_seq;

  assign cop_issue = cop_req_valid_o && cop_req_ready_i && !cop_illegal_i;

  core_cop_tracker #(.XLEN(XLEN), .CustomFenceOnly(CustomFenceOnly)) u_cop_tracker (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .insn_i         (insn),
    .vector_o       (cop_vector),
    .writes_x_o     (cop_writes_x),
    .writes_f_o     (cop_writes_f),
    .issue_i        (cop_issue),
    .seq_i          (cop_seq),
    .pc_i           (pc_q),
    .cmp_valid_i    (cop_cmp_valid_i),
    .cmp_seq_i      (cop_cmp_i.seq),
    .cmp_pc_o       (cop_cmp_pc),
    .count_o        (cop_cnt_q),
    .full_o         (cop_full),
    .mem_store_i    (mem_store),
    .mem_mmio_i     (mem_mmio),
    .mem_order_ok_o (mem_order_ok)
  );

  assign cop_busy_o = (cop_cnt_q != '0);

  always_comb begin
    cop_req_o        = '0;
    cop_req_o.insn   = insn;
    cop_req_o.rs1    = 64'(rs1_value);
    cop_req_o.rs2    = 64'(rs2_value);
    cop_req_o.frs1   = unbox(frs1_value);
    cop_req_o.vtype  = 32'(vtype);
    if (XLEN == 64) cop_req_o.vtype[31] = vtype[XLEN-1];  // vill in bit 31 for every XLEN
    cop_req_o.vl     = 32'(vl);
    cop_req_o.vstart = 32'(vstart);
    cop_req_o.frm    = frm;
    cop_req_o.vxrm   = vxrm;
    cop_req_o.seq    = cop_seq;
  end

  // ---------------------------------------------------------------------------
  // Controller
  // ---------------------------------------------------------------------------
  logic            own_x_we, own_f_we, late_x_we, late_f_we;
  logic            retire_load, retire_store, retire_cop;
  logic            perf_issue_stall, perf_cop_wait;

  core_controller #(.XLEN(XLEN), .VecPresent(VecPresent)) u_controller (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .boot_addr_i        (boot_addr_i),
    .fetch_valid_i      (fetch_valid),
    .fetch_insn_i       (fetch_insn),
    .fetch_err_i        (fetch_err),
    .fetch_consume_o    (fetch_consume),
    .redirect_o         (redirect),
    .redirect_pc_o      (redirect_pc),
    .fetch_flush_o      (fetch_flush),
    .insn_o             (insn),
    .pc_o               (pc_q),
    .running_o          (running),
    .mem_waiting_o      (mem_waiting),
    .mem_held_addr_o    (mem_held_addr),
    .class_i            (cls),
    .imm_i              (imm),
    .word_i             (word),
    .fpu_int_rd_i       (fpu_int_rd),
    .rs1_i              (rs1_value),
    .frs1_i             (frs1_value[31:0]),
    .alu_result_i       (alu_result),
    .branch_taken_i     (branch_taken),
    .mul_result_i       (mul_result),
    .div_start_o        (div_start),
    .div_done_i         (div_done),
    .div_result_i       (div_result),
    .fpu_req_valid_o    (fpu_req_valid),
    .fpu_req_ready_i    (fpu_req_ready),
    .fpu_rm_bad_i       (rm_bad),
    .fpu_resp_valid_i   (fpu_resp_valid),
    .fpu_result_i       (fpu_result[XLEN-1:0]),
    .csr_illegal_i      (csr_illegal),
    .csr_write_i        (csr_write_intent),
    .csr_rdata_i        (csr_rdata),
    .csr_we_o           (csr_we),
    .fs_i               (fs),
    .vs_i               (vs),
    .mtvec_i            (mtvec),
    .mepc_i             (mepc),
    .vset_vl_i          (vset_vl),
    .vset_o             (vset),
    .mret_o             (mret),
    .retire_o           (retire),
    .trap_o             (trap),
    .trap_cause_o       (trap_cause),
    .trap_epc_o         (trap_epc),
    .trap_tval_o        (trap_tval),
    .lsu_stall_i        (lsu_stall),
    .lsu_full_i         (lsu_full),
    .commit_full_i      (commit_full),
    .drained_i          (drained),
    .mem_store_i        (mem_store),
    .mem_addr_i         (mem_addr),
    .mem_misaligned_i   (mem_misaligned),
    .mem_nonblocking_i  (mem_nonblocking),
    .mem_order_ok_i     (mem_order_ok),
    .dmem_req_valid_o   (dmem_req_valid_o),
    .dmem_req_ready_i   (dmem_req_ready_i),
    .dmem_resp_valid_i  (dmem_resp_valid_i),
    .dmem_resp_err_i    (dmem_resp_err_i),
    .load_value_i       (load_value),
    .lsu_issue_o        (lsu_issue),
    .retire_load_o      (retire_load),
    .retire_store_o     (retire_store),
    .cop_idle_i         (cop_cnt_q == '0),
    .cop_full_i         (cop_full),
    .cop_vector_i       (cop_vector),
    .cop_writes_reg_i   (cop_writes_x || cop_writes_f),
    .cop_req_valid_o    (cop_req_valid_o),
    .cop_req_ready_i    (cop_req_ready_i),
    .cop_illegal_i      (cop_illegal_i),
    .cop_ack_i          (cop_ack_i),
    .cop_cmp_valid_i    (cop_cmp_valid_i),
    .cop_cmp_i          (cop_cmp_i),
    .cop_cmp_pc_i       (cop_cmp_pc),
    .cop_seq_o          (cop_seq),
    .retire_cop_o       (retire_cop),
    .vstart_we_o        (cop_vstart_we),
    .vstart_o           (cop_vstart),
    .x_we_o             (x_we),
    .x_waddr_o          (x_waddr),
    .x_wdata_o          (x_wdata),
    .f_we_o             (f_we),
    .f_waddr_o          (f_waddr),
    .f_wdata_o          (f_wdata),
    .own_x_we_o         (own_x_we),
    .own_f_we_o         (own_f_we),
    .late_x_we_o        (late_x_we),
    .late_f_we_o        (late_f_we),
    .corrupt_en_i       (corrupt_en_i),
    .corrupt_pc_i       (corrupt_pc_i),
    .corrupt_load_o     (corrupt_load),
    .perf_issue_stall_o (perf_issue_stall),
    .perf_cop_wait_o    (perf_cop_wait)
  );

  // ---------------------------------------------------------------------------
  // Monitors
  // ---------------------------------------------------------------------------
  // The record of this cycle's retirement; the monitor sees the commit queue's
  // head, or this record directly when nothing older is queued.
  retire_t record;
  logic    record_pending;   // a non-blocking load: its data is still to come
  assign record_pending = lsu_issue && !mem_store;
  always_comb begin
    record           = '0;
    record.valid     = retire;
    record.pc        = 64'(pc_q);
    record.insn      = insn;
    record.x_we      = (own_x_we || (record_pending && cls == ClsLoad)) && rd != 5'd0;
    record.f_we      = own_f_we || (record_pending && cls == ClsFload);
    record.rd        = rd;
    record.rd_wdata  = own_f_we ? boxed(f_wdata) : 64'(x_wdata);
    record.mem_re    = retire_load;
    record.mem_we    = retire_store;
    record.mem_addr  = running ? 64'(mem_addr) : 64'(mem_held_addr);
    record.mem_wdata = store_data;
    record.mem_size  = mem_size;
    record.csr_we    = csr_we;
    record.csr_addr  = insn[31:20];
    record.csr_wdata = 64'(csr_wlegal);
    record.cop       = retire_cop;
    record.seq       = cop_seq;
  end

  core_commit #(.Depth(8)) u_commit (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .record_i      (record),
    .pending_i     (record_pending),
    .write_index_o (commit_index),
    .full_o        (commit_full),
    .empty_o       (commit_empty),
    .fill_i        (fill),
    .fill_index_i  (fill_index),
    .fill_data_i   (fill_data),
    .retire_o      (retire_o)
  );

  always_comb begin
    trap_o       = '0;
    trap_o.valid = trap;
    trap_o.cause = trap_cause;
    trap_o.epc   = 64'(trap_epc);
    trap_o.tval  = 64'(trap_tval);

    late_wb_o       = '0;
    late_wb_o.valid = late_x_we || late_f_we;
    late_wb_o.seq   = cop_cmp_i.seq;
    late_wb_o.x_we  = late_x_we;
    late_wb_o.f_we  = late_f_we;
    late_wb_o.rd    = cop_cmp_i.rd;
    late_wb_o.wdata = late_f_we ? boxed(cop_cmp_i.wdata[31:0]) : 64'(cop_cmp_i.wdata[XLEN-1:0]);
  end

  // Performance events (core_perf_t).
  always_comb begin
    perf_o                 = '0;
    perf_o.cop_issue_stall = perf_issue_stall;
    perf_o.cop_wait        = perf_cop_wait;
  end

`ifdef COSIM_ASSERT
  // Assertions: compiled when sim/verilator_build.py passes --assert (the
  // default; the speed bench builds without them). Each message states the rule.
  // They are checked from the cycle after reset (sim/rtl/cosim_assert_window.sv).
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));
  // A waiting request does not change until accepted (valid/ready).
  DmemReqStable: assert property (@(posedge clk_i) disable iff (!checking)
      dmem_req_valid_o && $past(dmem_req_valid_o && !dmem_req_ready_i)
      |-> dmem_req_addr_o == $past(dmem_req_addr_o) && dmem_req_we_o == $past(dmem_req_we_o)
          && (!dmem_req_we_o || (dmem_req_wdata_o == $past(dmem_req_wdata_o)
                                 && dmem_req_wstrb_o == $past(dmem_req_wstrb_o))))
    else $error("data request changed while waiting for the port");
  // (vl may change meanwhile: an older instruction's completion trims it.)
  CopReqStable: assert property (@(posedge clk_i) disable iff (!checking)
      cop_req_valid_o && $past(cop_req_valid_o && !cop_req_ready_i)
      |-> cop_req_o.insn == $past(cop_req_o.insn) && cop_req_o.seq == $past(cop_req_o.seq)
          && cop_req_o.rs1 == $past(cop_req_o.rs1) && cop_req_o.rs2 == $past(cop_req_o.rs2))
    else $error("coprocessor request changed while waiting for the port");
  // The two write ports never write one register in the same cycle (scoreboard).
  WritePortsDisjoint: assert property (@(posedge clk_i) disable iff (!checking)
      !(x_we && load_x_we && x_waddr == load_rd) && !(f_we && load_f_we && f_waddr == load_rd))
    else $error("write ports A and B write the same register in one cycle");
  // A blocking access is the only one in flight.
  BlockingAccessAlone: assert property (@(posedge clk_i) disable iff (!checking) mem_waiting |-> !lsu_busy)
    else $error("blocking access waits with non-blocking accesses in flight");
`endif

  // Bits that are legitimately unused in some configurations.
  logic unused;
  assign unused = ^{fpu_result[63:32], mtvec[1:0], load_value[63:32], unused_x_c,
                    vstart, vl, cop_ack_i.field};  // field: the unit's own business

endmodule
