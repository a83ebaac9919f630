// Scalar core: RV{32,64}IMF + Zicsr, machine mode, precise traps. A multi-cycle
// in-order design (see README.md): fetch -> execute -> (memory | divide | FPU |
// coprocessor) -> retire, one instruction at a time. Memory and coprocessor
// requests are valid/ready with in-order responses from the SoC.
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
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [XLEN-1:0]    boot_addr_i,

  // Instruction port
  output logic               imem_req_valid_o,
  input  logic               imem_req_ready_i,
  output logic [31:0]        imem_req_addr_o,
  input  logic               imem_resp_valid_i,
  input  logic [DataW-1:0]   imem_resp_data_i,
  input  logic               imem_resp_err_i,

  // Data port
  output logic               dmem_req_valid_o,
  input  logic               dmem_req_ready_i,
  output logic [31:0]        dmem_req_addr_o,
  output logic               dmem_req_we_o,
  output logic [DataW/8-1:0] dmem_req_wstrb_o,
  output logic [DataW-1:0]   dmem_req_wdata_o,
  input  logic               dmem_resp_valid_i,
  input  logic [DataW-1:0]   dmem_resp_data_i,
  input  logic               dmem_resp_err_i,

  // Coprocessor port (DESIGN.md "Coprocessor contract")
  output logic               cop_req_valid_o,
  input  logic               cop_req_ready_i,
  output cop_req_t           cop_req_o,
  input  logic               cop_illegal_i,
  input  cop_ack_t           cop_ack_i,      // memory fault / ff trim, with the handshake
  input  logic               cop_cmp_valid_i,
  input  cop_cmp_t           cop_cmp_i,
  output logic               cop_busy_o,     // accepted instructions not yet completed

  // Fault injection (test of the difftest): flip bit 0 of the first register
  // write retired at corrupt_pc_i.
  input  logic               corrupt_en_i,
  input  logic [63:0]        corrupt_pc_i,

  // Monitors for the test bench
  output retire_t            retire_o,
  output trap_t              trap_o,
  output late_wb_t           late_wb_o,
  output core_perf_t         perf_o          // performance events of this cycle
);

  localparam int unsigned OffW    = $clog2(DataW / 8);  // byte offset inside a beat
  localparam int unsigned CopMax  = 16;                 // coprocessor instructions in flight

  // StRun executes the instruction at the head of the fetch queue (one per
  // cycle); the other states finish a multi-cycle instruction latched in insn_q.
  typedef enum logic [2:0] {
    StRun, StMemWait, StDiv, StFpuWait, StCopWait
  } state_e;

  state_e          state_q, state_d;
  logic [XLEN-1:0] pc_q, pc_d;
  logic [31:0]     insn_q, insn_d;
  logic [XLEN-1:0] maddr_q, maddr_d;
  logic [7:0]      seq_q, seq_d;
  logic [7:0]      wait_seq_q, wait_seq_d;
  logic [4:0]      cop_cnt_q, cop_cnt_d;
  logic            corrupt_done_q, corrupt_done_d;
  logic            cop_exc_q, cop_exc_d;
  logic [5:0]      cop_exc_cause_q, cop_exc_cause_d;
  logic [XLEN-1:0] cop_exc_tval_q, cop_exc_tval_d;
  logic [XLEN-1:0] cop_exc_pc_q, cop_exc_pc_d;
  logic            cop_exc_vs_q, cop_exc_vs_d;            // the trap sets vstart (memory fault)
  logic [31:0]     cop_exc_vstart_q, cop_exc_vstart_d;
  logic [XLEN-1:0] cop_pc_q [CopMax];
  // Memory kind of every coprocessor instruction in flight (by seq): bit 0 it
  // reads memory, bit 1 it writes memory (custom opcodes: both, unless CustomFenceOnly).
  logic [1:0]      cop_kind_q [CopMax];
  logic [4:0]      cop_rd_cnt_q, cop_rd_cnt_d;   // in flight that read memory
  logic [4:0]      cop_wr_cnt_q, cop_wr_cnt_d;   // in flight that write memory

  logic            cop_issue;   // a coprocessor instruction is accepted this cycle
  logic            perf_issue_stall, perf_cop_wait;

  // The instruction being worked on: the fetch queue head in StRun, else insn_q.
  logic [31:0]     insn;

  // ---------------------------------------------------------------------------
  // Fetch (sequential prefetch, restarted on every redirect)
  // ---------------------------------------------------------------------------
  logic        if_valid, if_err, if_consume, redirect, is_fence_i;
  logic [31:0] if_insn;
  logic        st_accept, fetch_flush;
  logic [31:0] st_addr;

  core_fetch #(.XLEN(XLEN), .DataW(DataW), .Depth(8), .CacheWords(ICacheWords)) u_fetch (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .boot_addr_i       (boot_addr_i),
    .redirect_i        (redirect),
    .redirect_addr_i   (pc_d),
    .flush_i           (fetch_flush),
    .inval_i           (st_accept),
    .inval_addr_i      (st_addr),
    .imem_req_valid_o  (imem_req_valid_o),
    .imem_req_ready_i  (imem_req_ready_i),
    .imem_req_addr_o   (imem_req_addr_o),
    .imem_resp_valid_i (imem_resp_valid_i),
    .imem_resp_data_i  (imem_resp_data_i),
    .imem_resp_err_i   (imem_resp_err_i),
    .valid_o           (if_valid),
    .insn_o            (if_insn),
    .err_o             (if_err),
    .consume_i         (if_consume)
  );

  assign insn       = (state_q == StRun) ? if_insn : insn_q;
  assign is_fence_i = (insn[6:0] == OpMiscMem) && (insn[14:12] == 3'b001);

  // ---------------------------------------------------------------------------
  // Decode and operands
  // ---------------------------------------------------------------------------
  cls_e            cls;
  logic [XLEN-1:0] imm;
  logic            word;
  logic            uses_rm;
  fpu_op_e         fpu_op;
  logic            fpu_int_rd;

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

  logic [XLEN-1:0] rs1_v, rs2_v, unused_x_c;
  // Write port B: data of a non-blocking load returning from memory.
  logic            lw_x_we, lw_f_we;
  logic [4:0]      lw_rd;
  logic [XLEN-1:0] lw_x_wdata;
  logic [31:0]     lw_f_wdata;
  logic            x_we;
  logic [4:0]      x_waddr;
  logic [XLEN-1:0] x_wdata;

  core_regfile #(.Width(XLEN), .ZeroReg(1'b1)) u_xregs (
    .clk_i     (clk_i),
    .raddr_a_i (rs1),
    .raddr_b_i (rs2),
    .raddr_c_i (5'd0),
    .rdata_a_o (rs1_v),
    .rdata_b_o (rs2_v),
    .rdata_c_o (unused_x_c),
    .we_i      (x_we),
    .waddr_i   (x_waddr),
    .wdata_i   (x_wdata),
    .we_b_i    (lw_x_we),
    .waddr_b_i (lw_rd),
    .wdata_b_i (lw_x_wdata)
  );

  // f registers hold binary32 plus a "NaN-boxed" bit: on RV64 a register that was
  // never written (Spike's initial 0) is not boxed and reads as the canonical NaN.
  logic [32:0] frs1_v, frs2_v, frs3_v;
  logic        f_we;
  logic [4:0]  f_waddr;
  logic [31:0] f_wdata;

  core_regfile #(.Width(33), .ZeroReg(1'b0)) u_fregs (
    .clk_i     (clk_i),
    .raddr_a_i (rs1),
    .raddr_b_i (rs2),
    .raddr_c_i (rs3),
    .rdata_a_o (frs1_v),
    .rdata_b_o (frs2_v),
    .rdata_c_o (frs3_v),
    .we_i      (f_we),
    .waddr_i   (f_waddr),
    .wdata_i   ({1'b1, f_wdata}),
    .we_b_i    (lw_f_we),
    .waddr_b_i (lw_rd),
    .wdata_b_i ({1'b1, lw_f_wdata})
  );

  function automatic logic [31:0] unbox(logic [32:0] r);
    if (XLEN == 64 && !r[32]) return CanonicalNaN;
    return r[31:0];
  endfunction

  // ---------------------------------------------------------------------------
  // Execute units
  // ---------------------------------------------------------------------------
  logic            alu_alt;
  logic [XLEN-1:0] alu_b, alu_res;
  logic            br_taken;

  assign alu_alt = (cls == ClsAluReg) ? insn[30] : (funct3 == 3'b101 && insn[30]);
  assign alu_b   = (cls == ClsAluImm) ? imm : rs2_v;

  core_alu #(.XLEN(XLEN)) u_alu (
    .funct3_i       (funct3),
    .alt_i          (alu_alt),
    .word_i         (word),
    .a_i            (rs1_v),
    .b_i            (alu_b),
    .result_o       (alu_res),
    .branch_taken_o (br_taken)
  );

  // Multiply: one cycle, (XLEN+1)-bit signed operands cover every signedness.
  logic signed [XLEN:0]     mul_a, mul_b;
  logic signed [2*XLEN+1:0] mul_p;
  logic [XLEN-1:0]          mul_res;
  assign mul_a = $signed({(funct3 == 3'b001 || funct3 == 3'b010) & rs1_v[XLEN-1], rs1_v});
  assign mul_b = $signed({(funct3 == 3'b001) & rs2_v[XLEN-1], rs2_v});
  // Evaluated only for multiplies: keeps the wide product off every other cycle
  // of a cycle-based simulation (the result is unused otherwise).
  always_comb begin
    mul_p = '0;
    if (state_q == StRun && if_valid && cls == ClsMul) mul_p = mul_a * mul_b;
  end
  always_comb begin
    if (word) mul_res = XLEN'($signed(mul_p[31:0]));
    else if (funct3 == 3'b000) mul_res = mul_p[XLEN-1:0];
    else mul_res = mul_p[2*XLEN-1:XLEN];
  end

  // Divide: iterative; *W forms divide the 32-bit operands extended to XLEN.
  logic            div_start, div_done;
  logic [XLEN-1:0] div_a, div_b, div_res;
  always_comb begin
    div_a = rs1_v;
    div_b = rs2_v;
    if (word) begin
      div_a = funct3[0] ? XLEN'(rs1_v[31:0]) : XLEN'($signed(rs1_v[31:0]));
      div_b = funct3[0] ? XLEN'(rs2_v[31:0]) : XLEN'($signed(rs2_v[31:0]));
    end
  end

  core_div #(.XLEN(XLEN)) u_div (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .start_i  (div_start),
    .signed_i (~funct3[0]),
    .rem_i    (funct3[1]),
    .a_i      (div_a),
    .b_i      (div_b),
    .done_o   (div_done),
    .result_o (div_res)
  );

  // FPU
  logic        fpu_req_valid, fpu_req_ready, fpu_resp_valid;
  logic [63:0] fpu_result;
  logic [4:0]  fpu_fflags;
  logic [2:0]  frm;
  logic [2:0]  rm;
  logic        rm_bad;

  assign rm     = (funct3 == 3'b111) ? frm : funct3;
  assign rm_bad = uses_rm && (rm == 3'b101 || rm == 3'b110 || rm == 3'b111);

  cosim_fpu u_fpu (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .req_valid_i  (fpu_req_valid),
    .req_ready_o  (fpu_req_ready),
    .op_i         (fpu_op),
    .rm_i         (uses_rm ? rm : 3'b000),
    .a_i          (unbox(frs1_v)),
    .b_i          (unbox(frs2_v)),
    .c_i          (unbox(frs3_v)),
    .int_i        (64'($signed(rs1_v))),
    .resp_valid_o (fpu_resp_valid),
    .result_o     (fpu_result),
    .fflags_o     (fpu_fflags)
  );

  // ---------------------------------------------------------------------------
  // CSRs
  // ---------------------------------------------------------------------------
  logic            csr_write_intent, csr_illegal, csr_we;
  logic [XLEN-1:0] csr_rdata, csr_operand, csr_wdata, csr_wlegal;
  logic            trap, mret, retire;
  logic [5:0]      trap_cause;
  logic [XLEN-1:0] trap_tval, trap_epc;
  logic [XLEN-1:0] mtvec, mepc;
  logic [1:0]      fs, vs;
  logic [XLEN-1:0] vtype, vl, vstart;
  logic [1:0]      vxrm;
  logic            fflags_we;
  logic [4:0]      fflags_acc;
  logic            vset;
  logic [XLEN-1:0] vset_vl, vset_vtype;

  // CSRs that coprocessor completions update (fflags, vxsat, vl and their aliases).
  logic csr_cop_updated;
  assign csr_cop_updated = insn[31:20] inside {CsrFflags, CsrFcsr, CsrVxsat, CsrVcsr, CsrVl};

  assign csr_operand      = funct3[2] ? XLEN'(rs1) : rs1_v;
  assign csr_write_intent = (funct3[1:0] == 2'b01) || (rs1 != 5'd0);
  always_comb begin
    unique case (funct3[1:0])
      2'b01:   csr_wdata = csr_operand;
      2'b10:   csr_wdata = csr_rdata | csr_operand;
      default: csr_wdata = csr_rdata & ~csr_operand;
    endcase
  end

  assign fflags_we  = fpu_resp_valid || cop_cmp_valid_i;
  assign fflags_acc = (fpu_resp_valid ? fpu_fflags : 5'd0) | (cop_cmp_valid_i ? cop_cmp_i.fflags : 5'd0);

  core_csr #(.XLEN(XLEN), .VecPresent(VecPresent), .VLEN(VLEN)) u_csr (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .csr_addr_i    (insn[31:20]),
    .csr_write_i   (csr_write_intent),
    .csr_rdata_o   (csr_rdata),
    .csr_illegal_o (csr_illegal),
    .csr_we_i      (csr_we),
    .csr_wdata_i   (csr_wdata),
    .csr_wlegal_o  (csr_wlegal),
    .trap_i        (trap),
    .trap_cause_i  (trap_cause),
    .trap_epc_i    (trap_epc),
    .trap_tval_i   (trap_tval),
    .mret_i        (mret),
    .mtvec_o       (mtvec),
    .mepc_o        (mepc),
    .retire_i      (retire),
    .fs_dirty_i    (f_we || lw_f_we),
    .fflags_we_i   (fflags_we),
    .fflags_i      (fflags_acc),
    .vxsat_i       (cop_cmp_valid_i && cop_cmp_i.vxsat),
    .vs_dirty_i    (1'b0),
    .vset_i        (vset),
    .vstart_clr_i  (cop_issue),
    .vset_vl_i     (vset_vl),
    .vset_vtype_i  (vset_vtype),
    .vstart_we_i   (trap && cop_exc_q && cop_exc_vs_q),
    .vstart_i      (cop_exc_vstart_q),
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
  // vset{i}vl{i} (RVV 1.0, with Spike's choices for vill and the AVL rules)
  // ---------------------------------------------------------------------------
  logic [XLEN-1:0] vs_newtype, vs_avl;
  logic            vs_rs1_zero, vs_vill;
  logic [2:0]      vs_sew, vs_lmul;
  logic [XLEN-1:0] vs_vlmax;
  always_comb begin
    vs_newtype  = '0;
    vs_avl      = '0;
    vs_rs1_zero = 1'b0;
    vs_sew      = '0;
    vs_lmul     = '0;
    vs_vill     = 1'b1;
    vs_vlmax    = '0;
    vset_vtype  = '0;
    vset_vl     = '0;
    // Without a vector unit vset{i}vl{i} is illegal and this block folds away.
    if (VecPresent && cls == ClsVset) begin
      if (!insn[31]) begin              // vsetvli
        vs_newtype  = XLEN'(insn[30:20]);
        vs_avl      = rs1_v;
        vs_rs1_zero = (rs1 == 5'd0);
      end else if (insn[30]) begin      // vsetivli
        vs_newtype  = XLEN'(insn[29:20]);
        vs_avl      = XLEN'(rs1);
        vs_rs1_zero = 1'b0;
      end else begin                      // vsetvl
        vs_newtype  = rs2_v;
        vs_avl      = rs1_v;
        vs_rs1_zero = (rs1 == 5'd0);
      end
      vs_sew  = vs_newtype[5:3];
      vs_lmul = vs_newtype[2:0];
      // ELEN = 32: SEW <= 32 * min(LMUL, 1); reserved bits and LMUL code 4 are vill.
      vs_vill = (vs_newtype[XLEN-1:8] != '0) || vs_sew > 3'd2 || vs_lmul == 3'b100
             || vs_lmul == 3'b101 || (vs_lmul == 3'b110 && vs_sew > 3'd0)
             || (vs_lmul == 3'b111 && vs_sew > 3'd1);
      // VLMAX = VLEN / SEW * LMUL
      if (vs_lmul[2]) vs_vlmax = XLEN'(VLEN) >> (vs_sew + 3'd3 + (3'd4 - {1'b0, vs_lmul[1:0]}));
      else vs_vlmax = (XLEN'(VLEN) >> (vs_sew + 3'd3)) << vs_lmul[1:0];
      if (vs_vill) begin
        vset_vtype = {1'b1, {(XLEN-1){1'b0}}};
        vset_vl    = '0;
      end else begin
        vset_vtype = vs_newtype;
        if (vs_rs1_zero && rd == 5'd0) vset_vl = (vl > vs_vlmax) ? vs_vlmax : vl;
        else if (vs_rs1_zero) vset_vl = vs_vlmax;
        else vset_vl = (vs_avl > vs_vlmax) ? vs_vlmax : vs_avl;
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Load/store formatting
  // ---------------------------------------------------------------------------
  logic [1:0]         msize;      // log2 bytes
  logic               is_store;
  logic [XLEN-1:0]    agen;
  logic               misaligned;
  logic [63:0]        st_data;    // store data, low bits
  logic [63:0]        st_data_masked;
  logic [OffW-1:0]    moff;
  logic [DataW/8-1:0] st_strb;
  logic [DataW-1:0]   ld_beat;
  logic [63:0]        ld_raw, ld_val;

  assign is_store = (cls == ClsStore) || (cls == ClsFstore);
  assign msize    = (cls == ClsFload || cls == ClsFstore) ? 2'd2 : funct3[1:0];
  assign agen     = rs1_v + imm;
  always_comb begin
    unique case (msize)
      2'd0:    misaligned = 1'b0;
      2'd1:    misaligned = agen[0];
      2'd2:    misaligned = agen[1:0] != 2'b00;
      default: misaligned = agen[2:0] != 3'b000;
    endcase
  end
  assign st_data = (cls == ClsFstore) ? 64'(frs2_v[31:0]) : 64'(rs2_v);
  always_comb begin
    unique case (msize)
      2'd0:    st_data_masked = {56'b0, st_data[7:0]};
      2'd1:    st_data_masked = {48'b0, st_data[15:0]};
      2'd2:    st_data_masked = {32'b0, st_data[31:0]};
      default: st_data_masked = st_data;
    endcase
  end
  assign moff    = (state_q == StRun) ? agen[OffW-1:0] : maddr_q[OffW-1:0];
  assign st_strb = (DataW/8)'(((1 << (1 << msize)) - 1)) << moff;
  // Load data: the blocking access in StMemWait, or the oldest non-blocking one.
  logic            lf_uns;     // lbu/lhu/lwu
  logic [1:0]      lf_msize;
  logic [OffW-1:0] lf_off;
  assign ld_beat = dmem_resp_data_i >> {lf_off, 3'b000};
  assign ld_raw  = 64'(ld_beat);
  always_comb begin
    unique case ({lf_uns, lf_msize})
      3'b000:  ld_val = 64'($signed(ld_raw[7:0]));
      3'b001:  ld_val = 64'($signed(ld_raw[15:0]));
      3'b010:  ld_val = 64'($signed(ld_raw[31:0]));
      3'b100:  ld_val = {56'b0, ld_raw[7:0]};
      3'b101:  ld_val = {48'b0, ld_raw[15:0]};
      3'b110:  ld_val = {32'b0, ld_raw[31:0]};
      default: ld_val = ld_raw;
    endcase
  end

  // Vector forms of the coprocessor (need VS enabled) versus custom opcodes.
  logic cop_is_vector, cop_writes_x, cop_writes_f;
  assign cop_is_vector = (insn[6:0] == OpOpV) || (insn[6:0] == OpLoadFp) || (insn[6:0] == OpStoreFp);
  // Scalar results: vmv.x.s / vcpop.m / vfirst.m (OPMVV funct6 010000),
  // vfmv.f.s (OPFVV funct6 010000), RoCC instructions with xd set.
  assign cop_writes_x = ((insn[6:0] == OpOpV) && funct3 == 3'b010 && insn[31:26] == 6'b010000)
                     || (!cop_is_vector && insn[14] && rd != 5'd0);
  assign cop_writes_f = (insn[6:0] == OpOpV) && funct3 == 3'b001 && insn[31:26] == 6'b010000;

  // ---------------------------------------------------------------------------
  // Non-blocking loads and stores (see README.md "Pipeline")
  // ---------------------------------------------------------------------------
  // An access to a region that cannot fault issues from StRun and the core goes
  // on: pq_* remembers every access in flight (responses come back in order),
  // the x/f scoreboard holds back any instruction that reads or writes a
  // register a load will still write, and the commit queue cf_* keeps the
  // monitor's retirement records in program order: a load's record waits there
  // for its data, younger records wait behind it. Traps, CSR and fence
  // instructions, coprocessor requests and blocking accesses (MMIO, anything
  // outside the regions) wait until both queues are empty ("drained").
  localparam int unsigned PqDepth = 4;
  localparam int unsigned CfDepth = 8;

  typedef struct packed {
    logic            store;
    logic            fp;
    logic [4:0]      rd;
    logic            uns;
    logic [1:0]      msize;
    logic [OffW-1:0] off;
    logic [2:0]      cidx;      // its record in the commit queue (loads)
    logic            corrupt;   // fault injection: flip bit 0 of the loaded value
  } pq_t;

  pq_t        pq_q [PqDepth];
  logic [1:0] pq_rd_q, pq_wr_q;
  logic [2:0] pq_cnt_q, pq_cnt_d;
  pq_t        pq_head, pq_new;
  logic       pq_rsp, nb_issue;

  retire_t    cf_rec_q [CfDepth];
  logic [CfDepth-1:0] cf_pend_q;
  logic [2:0] cf_rd_q, cf_wr_q;
  logic [3:0] cf_cnt_q, cf_cnt_d;
  logic       cf_pop, cf_push, cf_head_fill;
  retire_t    rec;        // the record of the instruction retiring in the sequencer
  logic       rec_pend;   // ... whose load data is still to come

  logic [31:0] x_busy_q, x_busy_d, f_busy_q, f_busy_d;
  logic        sb_stall, drained, cf_full, pq_full, mem_safe, is_mmio;
  logic        uses_f, rs2_is_x;

  assign pq_head = pq_q[pq_rd_q];
  assign pq_rsp  = dmem_resp_valid_i && (pq_cnt_q != '0);
  assign drained = (cf_cnt_q == '0) && (pq_cnt_q == '0);
  assign cf_full = (cf_cnt_q == 4'(CfDepth));
  assign pq_full = (pq_cnt_q == 3'(PqDepth));

  assign mem_safe = !is_mmio
                 && (((33'(agen[31:0]) - 33'(Mem0Base)) < Mem0Size && agen[31:0] >= Mem0Base)
                  || ((33'(agen[31:0]) - 33'(Mem1Base)) < Mem1Size && agen[31:0] >= Mem1Base)
                  || ((33'(agen[31:0]) - 33'(Mem2Base)) < Mem2Size && agen[31:0] >= Mem2Base));

  // Scoreboard check of the instruction at the queue head (conservative: the
  // rd field is checked in both files for every class).
  assign uses_f   = (cls == ClsFpu) || (cls == ClsFstore) || (cls == ClsFmvXW) || (cls == ClsCop);
  assign rs2_is_x = (cls == ClsBranch) || (cls == ClsStore) || (cls == ClsAluReg) || (cls == ClsMul)
                 || (cls == ClsDiv) || (cls == ClsCop) || (cls == ClsVset);
  assign sb_stall = x_busy_q[rs1] || (rs2_is_x && x_busy_q[rs2]) || x_busy_q[rd] || f_busy_q[rd]
                 || (uses_f && (f_busy_q[rs1] || f_busy_q[rs2] || f_busy_q[rs3]));

  // Load data formatting inputs: the blocking access, or the oldest in flight.
  assign lf_uns    = (state_q == StMemWait) ? (cls == ClsLoad && funct3[2]) : pq_head.uns;
  assign lf_msize  = (state_q == StMemWait) ? msize : pq_head.msize;
  assign lf_off    = (state_q == StMemWait) ? maddr_q[OffW-1:0] : pq_head.off;

  assign lw_rd      = pq_head.rd;
  assign lw_x_we    = pq_rsp && !pq_head.store && !pq_head.fp && pq_head.rd != 5'd0;
  assign lw_f_we    = pq_rsp && !pq_head.store && pq_head.fp;
  assign lw_x_wdata = ld_val[XLEN-1:0] ^ XLEN'(pq_head.corrupt);
  assign lw_f_wdata = ld_val[31:0] ^ 32'(pq_head.corrupt);

  // ---------------------------------------------------------------------------
  // Main sequencer
  // ---------------------------------------------------------------------------
  logic            pc_ok;            // the PC is inside the 32-bit physical space
  logic [XLEN-1:0] pc_plus4, target, jalr_target;
  logic            x_we_raw, f_we_raw;
  logic [XLEN-1:0] x_wdata_raw;
  logic [31:0]     f_wdata_raw;
  logic            corrupt_hit;
  logic            ret_mem_re, ret_mem_we, ret_cop;
  logic            mem_order_ok;     // older coprocessor work allows this scalar access
  logic [1:0]      cop_kind;         // memory kind of the coprocessor instruction in StRun

  assign pc_ok       = (64'(pc_q) >> 32) == 64'd0;
  assign pc_plus4    = pc_q + XLEN'(4);
  assign target      = pc_q + imm;
  assign jalr_target = (rs1_v + imm) & ~XLEN'(1);

  logic [63:0] mem_addr_hi;
  assign mem_addr_hi = 64'(agen) >> 32;

  // Scalar memory vs coprocessor memory ordering (see README.md): a scalar load
  // waits for older coprocessor instructions that write memory, a scalar store
  // also for those that read it; vector arithmetic never holds them back. The
  // MMIO page (EXIT, PROFILE, UART) waits until the coprocessor is idle.
  assign is_mmio = (agen[31:0] - MmioBase) < MmioSize;
  always_comb begin
    if (is_mmio) mem_order_ok = (cop_cnt_q == '0);
    else if (is_store) mem_order_ok = (cop_wr_cnt_q == '0) && (cop_rd_cnt_q == '0);
    else mem_order_ok = (cop_wr_cnt_q == '0);
  end
  always_comb begin
    if (!cop_is_vector) cop_kind = CustomFenceOnly ? 2'b00 : 2'b11;  // custom (RoCC)
    else if (insn[6:0] == OpLoadFp) cop_kind = 2'b01;     // vector load
    else if (insn[6:0] == OpStoreFp) cop_kind = 2'b10;    // vector store
    else cop_kind = 2'b00;                                // vector arithmetic, moves
  end

  always_comb begin
    state_d         = state_q;
    pc_d            = pc_q;
    insn_d          = insn_q;
    maddr_d         = maddr_q;
    seq_d           = seq_q;
    wait_seq_d      = wait_seq_q;
    cop_exc_d       = cop_exc_q;
    cop_exc_cause_d = cop_exc_cause_q;
    cop_exc_tval_d  = cop_exc_tval_q;
    cop_exc_pc_d    = cop_exc_pc_q;
    cop_exc_vs_d    = cop_exc_vs_q;
    cop_exc_vstart_d = cop_exc_vstart_q;

    if_consume       = 1'b0;
    nb_issue         = 1'b0;
    perf_issue_stall = 1'b0;
    perf_cop_wait    = 1'b0;
    dmem_req_valid_o = 1'b0;
    cop_req_valid_o  = 1'b0;
    fpu_req_valid    = 1'b0;
    div_start        = 1'b0;

    x_we_raw    = 1'b0;
    x_wdata_raw = '0;
    f_we_raw    = 1'b0;
    f_wdata_raw = '0;
    csr_we      = 1'b0;
    vset        = 1'b0;
    mret        = 1'b0;
    retire      = 1'b0;
    ret_mem_re  = 1'b0;
    ret_mem_we  = 1'b0;
    ret_cop     = 1'b0;
    trap        = 1'b0;
    trap_cause  = ExcIllegalInsn;
    trap_epc    = pc_q;
    trap_tval   = '0;

    unique case (state_q)
      StRun: begin
        // Traps are taken once every older access and record is out (drained).
        if (cop_exc_q) begin
          // A coprocessor instruction faulted after it retired: trap at it now.
          if (drained) begin
            trap       = 1'b1;
            trap_cause = cop_exc_cause_q;
            trap_epc   = cop_exc_pc_q;
            trap_tval  = cop_exc_tval_q;
            cop_exc_d  = 1'b0;
            cop_exc_vs_d = 1'b0;
          end
        end else if (!pc_ok) begin
          trap       = drained;
          trap_cause = ExcInsnAccessFault;
          trap_tval  = pc_q;
        end else if (if_valid && if_err) begin
          trap       = drained;
          trap_cause = ExcInsnAccessFault;
          trap_tval  = pc_q;
          if_consume = drained;
        end else if (if_valid && !sb_stall && !cf_full) begin
          // Execute the queue head. An instruction that cannot proceed this
          // cycle (ordering, a busy port) stays at the head and tries again.
          insn_d = if_insn;
          unique case (cls)
            ClsLui:    begin x_we_raw = 1'b1; x_wdata_raw = imm; retire = 1'b1; end
            ClsAuipc:  begin x_we_raw = 1'b1; x_wdata_raw = target; retire = 1'b1; end
            ClsAluImm, ClsAluReg: begin x_we_raw = 1'b1; x_wdata_raw = alu_res; retire = 1'b1; end
            ClsMul:    begin x_we_raw = 1'b1; x_wdata_raw = mul_res; retire = 1'b1; end
            ClsDiv:    begin div_start = 1'b1; state_d = StDiv; end
            ClsJal, ClsJalr: begin
              if (((cls == ClsJal) ? target[1] : jalr_target[1])) begin
                trap       = 1'b1;
                trap_cause = ExcInsnMisaligned;
                trap_tval  = (cls == ClsJal) ? target : jalr_target;
              end else begin
                x_we_raw    = 1'b1;
                x_wdata_raw = pc_plus4;
                pc_d        = (cls == ClsJal) ? target : jalr_target;
                retire      = 1'b1;
              end
            end
            ClsBranch: begin
              if (br_taken && target[1]) begin
                trap       = 1'b1;
                trap_cause = ExcInsnMisaligned;
                trap_tval  = target;
              end else begin
                pc_d   = br_taken ? target : pc_plus4;
                retire = 1'b1;
              end
            end
            ClsLoad, ClsStore, ClsFload, ClsFstore: begin
              if ((cls == ClsFload || cls == ClsFstore) && fs == 2'b00) begin
                trap      = 1'b1;
                trap_tval = XLEN'(insn);
              end else if (misaligned) begin
                trap       = 1'b1;
                trap_cause = is_store ? ExcStoreMisaligned : ExcLoadMisaligned;
                trap_tval  = agen;
              end else if (mem_addr_hi != '0) begin
                trap       = 1'b1;
                trap_cause = is_store ? ExcStoreAccessFault : ExcLoadAccessFault;
                trap_tval  = agen;
              end else if (!mem_order_ok) begin
                perf_cop_wait = 1'b1;   // older coprocessor memory accesses in flight
              end else if (mem_safe) begin
                // Non-blocking: retires now, a load's data comes later.
                if (!pq_full) begin
                  dmem_req_valid_o = 1'b1;
                  if (dmem_req_ready_i) begin
                    nb_issue   = 1'b1;
                    retire     = 1'b1;
                    ret_mem_re = !is_store;
                    ret_mem_we = is_store;
                  end
                end
              end else if (drained) begin
                // Blocking (MMIO, or a region that may fault): wait in StMemWait.
                dmem_req_valid_o = 1'b1;
                if (dmem_req_ready_i) begin
                  maddr_d = agen;
                  state_d = StMemWait;
                end
              end
            end
            ClsFence: begin
              // fence, fence.i and wfi wait until the coprocessor is idle.
              if (cop_cnt_q == '0 && drained) retire = 1'b1;
              perf_cop_wait = (cop_cnt_q != '0);
            end
            ClsEcall:  begin trap = 1'b1; trap_cause = ExcEcallM; end
            ClsEbreak: begin trap = 1'b1; trap_cause = ExcBreakpoint; trap_tval = pc_q; end
            ClsMret:   begin mret = 1'b1; pc_d = mepc; retire = 1'b1; end
            ClsCsr: begin
              if (csr_illegal) begin
                trap      = 1'b1;
                trap_tval = XLEN'(insn);
              end else if ((csr_cop_updated && cop_cnt_q != '0) || !drained) begin
                perf_cop_wait = csr_cop_updated && cop_cnt_q != '0;
                // fflags/vxsat/vl are updated by accelerator completions: read or
                // write them only after every older coprocessor instruction completed.
                // Every CSR access waits for older loads (mstatus.FS, counters).
              end else begin
                x_we_raw    = 1'b1;
                x_wdata_raw = csr_rdata;
                csr_we      = csr_write_intent;
                retire      = 1'b1;
              end
            end
            ClsFpu: begin
              if (fs == 2'b00 || rm_bad) begin
                trap      = 1'b1;
                trap_tval = XLEN'(insn);
              end else begin
                fpu_req_valid = 1'b1;
                if (fpu_req_ready) state_d = StFpuWait;
              end
            end
            ClsFmvXW, ClsFmvWX: begin
              if (fs == 2'b00) begin
                trap      = 1'b1;
                trap_tval = XLEN'(insn);
              end else if (cls == ClsFmvXW) begin
                x_we_raw    = 1'b1;
                x_wdata_raw = XLEN'($signed(frs1_v[31:0]));
                retire      = 1'b1;
              end else begin
                f_we_raw    = 1'b1;
                f_wdata_raw = rs1_v[31:0];
                retire      = 1'b1;
              end
            end
            ClsVset: begin
              if (vs == 2'b00) begin
                trap      = 1'b1;
                trap_tval = XLEN'(insn);
              end else begin
                vset        = 1'b1;
                x_we_raw    = 1'b1;
                x_wdata_raw = vset_vl;
                retire      = 1'b1;
              end
            end
            ClsCop: begin
              if (cop_is_vector && (!VecPresent || vs == 2'b00)) begin
                trap      = 1'b1;
                trap_tval = XLEN'(insn);
              end else if (cop_cnt_q == 5'(CopMax)) begin
                perf_issue_stall = 1'b1;   // the core's in-flight limit
              end else if (drained) begin
                cop_req_valid_o  = 1'b1;
                perf_issue_stall = !cop_req_ready_i;
                if (cop_req_ready_i) begin
                  if (cop_illegal_i) begin
                    trap      = 1'b1;
                    trap_tval = XLEN'(insn);
                  end else begin
                    retire  = 1'b1;
                    ret_cop = 1'b1;
                    seq_d   = seq_q + 8'd1;
                    if (cop_writes_x || cop_writes_f) begin
                      wait_seq_d = seq_q;
                      state_d    = StCopWait;
                    end
                    if (cop_ack_i.fault) begin
                      // A precise memory fault: the unit executes the elements
                      // before it; wait for that, then trap here (StRun, cop_exc_q)
                      // before any younger instruction.
                      wait_seq_d       = seq_q;
                      state_d          = StCopWait;
                      cop_exc_d        = 1'b1;
                      cop_exc_cause_d  = cop_ack_i.cause;
                      cop_exc_tval_d   = XLEN'(cop_ack_i.tval);
                      cop_exc_pc_d     = pc_q;
                      cop_exc_vs_d     = 1'b1;
                      cop_exc_vstart_d = cop_ack_i.elem;
                    end
                  end
                end
              end
            end
            default: begin  // ClsIllegal
              trap      = 1'b1;
              trap_tval = XLEN'(insn);
            end
          endcase
          // A trap waits until older records are out (it stays at the head).
          if (trap && !drained) trap = 1'b0;
          if_consume = retire || trap || (state_d != StRun);
        end
      end

      StMemWait: begin
        if (dmem_resp_valid_i) begin
          if (dmem_resp_err_i) begin
            trap       = 1'b1;
            trap_cause = is_store ? ExcStoreAccessFault : ExcLoadAccessFault;
            trap_tval  = maddr_q;
          end else begin
            retire = 1'b1;
            if (is_store) begin
              ret_mem_we = 1'b1;
            end else begin
              ret_mem_re = 1'b1;
              if (cls == ClsFload) begin
                f_we_raw    = 1'b1;
                f_wdata_raw = ld_val[31:0];
              end else begin
                x_we_raw    = 1'b1;
                x_wdata_raw = ld_val[XLEN-1:0];
              end
            end
          end
        end
      end

      StDiv: begin
        if (div_done) begin
          x_we_raw    = 1'b1;
          x_wdata_raw = word ? XLEN'($signed(div_res[31:0])) : div_res;
          retire      = 1'b1;
        end
      end

      StFpuWait: begin
        if (fpu_resp_valid) begin
          retire = 1'b1;
          if (fpu_int_rd) begin
            x_we_raw    = 1'b1;
            x_wdata_raw = fpu_result[XLEN-1:0];
          end else begin
            f_we_raw    = 1'b1;
            f_wdata_raw = fpu_result[31:0];
          end
        end
      end

      StCopWait: begin
        // The scalar result arrives with the completion (written below); the
        // instruction retired at issue.
        perf_cop_wait = 1'b1;
        if (cop_cmp_valid_i && cop_cmp_i.seq == wait_seq_q) state_d = StRun;
      end

      default: state_d = StRun;
    endcase

    // A retirement moves on to the next instruction (unless it waits for a
    // coprocessor result); a trap goes to the handler.
    if (retire) begin
      if (!(state_q == StRun && (cls == ClsJal || cls == ClsJalr || cls == ClsBranch || cls == ClsMret))) begin
        pc_d = pc_plus4;
      end
      if (state_d != StCopWait) state_d = StRun;
    end
    if (trap) begin
      pc_d    = {mtvec[XLEN-1:2], 2'b00};
      state_d = StRun;
    end

    // The prefetcher follows pc + 4; anything else (taken branch, jump, mret,
    // trap) or fence.i restarts it at the new pc.
    redirect = trap || (retire && (pc_d != pc_plus4 || is_fence_i));

    // Coprocessor exceptions are taken at the next instruction boundary.
    if (cop_cmp_valid_i && cop_cmp_i.exc) begin
      cop_exc_d       = 1'b1;
      cop_exc_cause_d = cop_cmp_i.exc_cause;
      cop_exc_tval_d  = cop_cmp_i.exc_tval[XLEN-1:0];
      cop_exc_pc_d    = cop_pc_q[cop_cmp_i.seq[3:0]];
    end
  end
  // Register writes: the instruction's own, or a coprocessor completion (which
  // only carries a register write while the core waits for it in StCopWait).
  logic cmp_x, cmp_f;
  assign cmp_x = cop_cmp_valid_i && cop_cmp_i.x_we && cop_cmp_i.rd != 5'd0;
  assign cmp_f = cop_cmp_valid_i && cop_cmp_i.f_we;

  assign corrupt_hit = corrupt_en_i && !corrupt_done_q && retire
                    && (64'(pc_q) == corrupt_pc_i) && ((x_we_raw && rd != 5'd0) || f_we_raw);
  // A non-blocking load carries its fault injection in its pq entry.
  logic corrupt_ld;
  assign corrupt_ld = corrupt_en_i && !corrupt_done_q && nb_issue && !is_store
                   && (64'(pc_q) == corrupt_pc_i) && (cls == ClsFload || rd != 5'd0);
  assign corrupt_done_d = corrupt_done_q || corrupt_hit || corrupt_ld;

  always_comb begin
    x_we    = (x_we_raw && rd != 5'd0) || cmp_x;
    x_waddr = cmp_x ? cop_cmp_i.rd : rd;
    x_wdata = cmp_x ? cop_cmp_i.wdata[XLEN-1:0] : x_wdata_raw ^ XLEN'(corrupt_hit);
    f_we    = f_we_raw || cmp_f;
    f_waddr = cmp_f ? cop_cmp_i.rd : rd;
    f_wdata = cmp_f ? cop_cmp_i.wdata[31:0] : f_wdata_raw ^ 32'(corrupt_hit);
  end

  // Coprocessor bookkeeping: every accepted instruction completes exactly once.
  logic [1:0] cmp_kind;
  assign cop_issue = cop_req_valid_o && cop_req_ready_i && !cop_illegal_i;
  assign cop_cnt_d = cop_cnt_q + 5'(cop_issue) - 5'(cop_cmp_valid_i);
  assign cmp_kind  = cop_cmp_valid_i ? cop_kind_q[cop_cmp_i.seq[3:0]] : 2'b00;
  assign cop_rd_cnt_d = cop_rd_cnt_q + 5'(cop_issue && cop_kind[0]) - 5'(cmp_kind[0]);
  assign cop_wr_cnt_d = cop_wr_cnt_q + 5'(cop_issue && cop_kind[1]) - 5'(cmp_kind[1]);
  assign cop_busy_o = (cop_cnt_q != '0);

  always_comb begin
    cop_req_o        = '0;
    cop_req_o.insn   = insn;
    cop_req_o.rs1    = 64'(rs1_v);
    cop_req_o.rs2    = 64'(rs2_v);
    cop_req_o.frs1   = unbox(frs1_v);
    cop_req_o.vtype  = 32'(vtype);
    if (XLEN == 64) cop_req_o.vtype[31] = vtype[XLEN-1];  // vill in bit 31 for every XLEN
    cop_req_o.vl     = 32'(vl);
    cop_req_o.vstart = 32'(vstart);
    cop_req_o.frm    = frm;
    cop_req_o.vxrm   = vxrm;
    cop_req_o.seq    = seq_q;
  end

  assign dmem_req_addr_o  = agen[31:0];   // requests leave from StRun only
  assign st_accept        = dmem_req_valid_o && dmem_req_ready_i && is_store;
  assign st_addr          = agen[31:0];
  assign fetch_flush      = retire && is_fence_i;
  assign dmem_req_we_o    = is_store;
  assign dmem_req_wstrb_o = is_store ? st_strb : '0;
  assign dmem_req_wdata_o = DataW'(st_data_masked) << {moff, 3'b000};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q         <= StRun;
      pc_q            <= boot_addr_i;
      insn_q          <= '0;
      maddr_q         <= '0;
      seq_q           <= '0;
      wait_seq_q      <= '0;
      cop_cnt_q       <= '0;
      cop_rd_cnt_q    <= '0;
      cop_wr_cnt_q    <= '0;
      corrupt_done_q  <= 1'b0;
      cop_exc_q       <= 1'b0;
      cop_exc_cause_q <= '0;
      cop_exc_tval_q  <= '0;
      cop_exc_pc_q    <= '0;
      cop_exc_vs_q    <= 1'b0;
      cop_exc_vstart_q <= '0;
    end else begin
      state_q         <= state_d;
      pc_q            <= pc_d;
      insn_q          <= insn_d;
      maddr_q         <= maddr_d;
      seq_q           <= seq_d;
      wait_seq_q      <= wait_seq_d;
      cop_cnt_q       <= cop_cnt_d;
      cop_rd_cnt_q    <= cop_rd_cnt_d;
      cop_wr_cnt_q    <= cop_wr_cnt_d;
      corrupt_done_q  <= corrupt_done_d;
      cop_exc_q       <= cop_exc_d;
      cop_exc_cause_q <= cop_exc_cause_d;
      cop_exc_tval_q  <= cop_exc_tval_d;
      cop_exc_pc_q    <= cop_exc_pc_d;
      cop_exc_vs_q    <= cop_exc_vs_d;
      cop_exc_vstart_q <= cop_exc_vstart_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (cop_issue) begin
      cop_pc_q[seq_q[3:0]]   <= pc_q;
      cop_kind_q[seq_q[3:0]] <= cop_kind;
    end
  end

  // Accesses in flight, scoreboard and commit queue.
  always_comb begin
    pq_new         = '0;
    pq_new.store   = is_store;
    pq_new.fp      = (cls == ClsFload);
    pq_new.rd      = rd;
    pq_new.uns     = (cls == ClsLoad) && funct3[2];
    pq_new.msize   = msize;
    pq_new.off     = agen[OffW-1:0];
    pq_new.cidx    = cf_wr_q;
    pq_new.corrupt = corrupt_ld;
  end
  assign pq_cnt_d = pq_cnt_q + 3'(nb_issue) - 3'(pq_rsp);

  always_comb begin
    x_busy_d = x_busy_q;
    f_busy_d = f_busy_q;
    if (pq_rsp && !pq_head.store) begin
      if (pq_head.fp) f_busy_d[pq_head.rd] = 1'b0;
      else x_busy_d[pq_head.rd] = 1'b0;
    end
    if (nb_issue && !is_store) begin
      if (cls == ClsFload) f_busy_d[rd] = 1'b1;
      else if (rd != 5'd0) x_busy_d[rd] = 1'b1;
    end
  end

  // The load result as the trace shows it (f: NaN-boxed on RV64).
  logic [63:0] lw_rec_wdata;
  assign lw_rec_wdata = pq_head.fp ? {(XLEN == 64) ? 32'hffff_ffff : 32'h0, lw_f_wdata}
                                   : 64'(lw_x_wdata);
  assign cf_head_fill = pq_rsp && !pq_head.store && pq_head.cidx == cf_rd_q;
  assign cf_pop   = (cf_cnt_q != '0) && (!cf_pend_q[cf_rd_q] || cf_head_fill);
  // A complete record with nothing older queued goes straight to the monitor.
  assign cf_push  = rec.valid && !((cf_cnt_q == '0) && !rec_pend);
  assign cf_cnt_d = cf_cnt_q + 4'(cf_push) - 4'(cf_pop);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pq_rd_q   <= '0;
      pq_wr_q   <= '0;
      pq_cnt_q  <= '0;
      x_busy_q  <= '0;
      f_busy_q  <= '0;
      cf_rd_q   <= '0;
      cf_wr_q   <= '0;
      cf_cnt_q  <= '0;
      cf_pend_q <= '0;
    end else begin
      pq_cnt_q <= pq_cnt_d;
      x_busy_q <= x_busy_d;
      f_busy_q <= f_busy_d;
      cf_cnt_q <= cf_cnt_d;
      if (nb_issue) pq_wr_q <= pq_wr_q + 2'd1;
      if (pq_rsp) pq_rd_q <= pq_rd_q + 2'd1;
      if (cf_push) cf_wr_q <= cf_wr_q + 3'd1;
      if (cf_pop) cf_rd_q <= cf_rd_q + 3'd1;
      if (pq_rsp && !pq_head.store) cf_pend_q[pq_head.cidx] <= 1'b0;
      if (cf_push) cf_pend_q[cf_wr_q] <= rec_pend;
    end
  end

  always_ff @(posedge clk_i) begin
    if (nb_issue) pq_q[pq_wr_q] <= pq_new;
    if (pq_rsp && !pq_head.store) cf_rec_q[pq_head.cidx].rd_wdata <= lw_rec_wdata;
    if (cf_push) cf_rec_q[cf_wr_q] <= rec;
  end

  // Performance events (core_perf_t).
  always_comb begin
    perf_o                 = '0;
    perf_o.cop_issue_stall = perf_issue_stall;
    perf_o.cop_wait        = perf_cop_wait;
  end

  // Bits that are legitimately unused in some configurations.
  logic unused;
  assign unused = ^{mul_p[2*XLEN+1:2*XLEN], fpu_result[63:32], mtvec[1:0], ld_val[63:32], unused_x_c,
                    vstart, vl, ld_beat, cop_ack_i.field};  // field: the unit's own business

  // ---------------------------------------------------------------------------
  // Monitors
  // ---------------------------------------------------------------------------
  // The record of this cycle's retirement; the monitor sees the commit queue's
  // head, or this record directly when nothing older is queued.
  assign rec_pend = nb_issue && !is_store;
  always_comb begin
    rec           = '0;
    rec.valid     = retire;
    rec.pc        = 64'(pc_q);
    rec.insn      = insn;
    rec.x_we      = (x_we_raw || (rec_pend && cls == ClsLoad)) && rd != 5'd0;
    rec.f_we      = f_we_raw || (rec_pend && cls == ClsFload);
    rec.rd        = rd;
    rec.rd_wdata  = f_we_raw ? {(XLEN == 64) ? 32'hffff_ffff : 32'h0, f_wdata}
                             : 64'(x_wdata);
    rec.mem_re    = ret_mem_re;
    rec.mem_we    = ret_mem_we;
    rec.mem_addr  = (state_q == StRun) ? 64'(agen) : 64'(maddr_q);
    rec.mem_wdata = st_data_masked;
    rec.mem_size  = msize;
    rec.csr_we    = csr_we;
    rec.csr_addr  = insn[31:20];
    rec.csr_wdata = 64'(csr_wlegal);
    rec.cop       = ret_cop;
    rec.seq       = seq_q;
  end

  always_comb begin
    if (cf_cnt_q != '0) begin
      retire_o       = cf_rec_q[cf_rd_q];
      retire_o.valid = cf_pop;
      if (cf_head_fill) retire_o.rd_wdata = lw_rec_wdata;
    end else begin
      retire_o       = rec;
      retire_o.valid = rec.valid && !rec_pend;
    end

    trap_o       = '0;
    trap_o.valid = trap;
    trap_o.cause = trap_cause;
    trap_o.epc   = 64'(trap_epc);
    trap_o.tval  = 64'(trap_tval);

    late_wb_o       = '0;
    late_wb_o.valid = cmp_x || cmp_f;
    late_wb_o.seq   = cop_cmp_i.seq;
    late_wb_o.x_we  = cmp_x;
    late_wb_o.f_we  = cmp_f;
    late_wb_o.rd    = cop_cmp_i.rd;
    late_wb_o.wdata = cmp_f ? {(XLEN == 64) ? 32'hffff_ffff : 32'h0, cop_cmp_i.wdata[31:0]}
                            : 64'(cop_cmp_i.wdata[XLEN-1:0]);
  end

endmodule
