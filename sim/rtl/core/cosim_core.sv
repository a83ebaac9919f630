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
  parameter int unsigned VLEN       = 128
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

  typedef enum logic [3:0] {
    StFetch, StExec, StMemReq, StMemWait, StDiv, StFpuReq, StFpuWait,
    StCopReq, StCopWait, StDrain
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
  logic [XLEN-1:0] cop_pc_q [CopMax];

  // ---------------------------------------------------------------------------
  // Fetch (sequential prefetch, restarted on every redirect)
  // ---------------------------------------------------------------------------
  logic        if_valid, if_err, if_consume, redirect, is_fence_i;
  logic [31:0] if_insn;

  core_fetch #(.XLEN(XLEN), .DataW(DataW), .Depth(4)) u_fetch (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .boot_addr_i       (boot_addr_i),
    .redirect_i        (redirect),
    .redirect_addr_i   (pc_d),
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

  assign is_fence_i = (insn_q[6:0] == OpMiscMem) && (insn_q[14:12] == 3'b001);

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
    .insn_i       (insn_q),
    .class_o      (cls),
    .imm_o        (imm),
    .word_o       (word),
    .uses_rm_o    (uses_rm),
    .fpu_op_o     (fpu_op),
    .fpu_int_rd_o (fpu_int_rd)
  );

  logic [2:0] funct3;
  logic [4:0] rd, rs1, rs2, rs3;
  assign funct3 = insn_q[14:12];
  assign rd     = insn_q[11:7];
  assign rs1    = insn_q[19:15];
  assign rs2    = insn_q[24:20];
  assign rs3    = insn_q[31:27];

  logic [XLEN-1:0] rs1_v, rs2_v, unused_x_c;
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
    .wdata_i   (x_wdata)
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
    .wdata_i   ({1'b1, f_wdata})
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

  assign alu_alt = (cls == ClsAluReg) ? insn_q[30] : (funct3 == 3'b101 && insn_q[30]);
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
    if (state_q == StExec && cls == ClsMul) mul_p = mul_a * mul_b;
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
  assign csr_cop_updated = insn_q[31:20] inside {CsrFflags, CsrFcsr, CsrVxsat, CsrVcsr, CsrVl};

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
    .csr_addr_i    (insn_q[31:20]),
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
    .fs_dirty_i    (f_we),
    .fflags_we_i   (fflags_we),
    .fflags_i      (fflags_acc),
    .vxsat_i       (cop_cmp_valid_i && cop_cmp_i.vxsat),
    .vs_dirty_i    (1'b0),
    .vset_i        (vset),
    .vstart_clr_i  ((state_q == StCopReq) && cop_req_ready_i && !cop_illegal_i),
    .vset_vl_i     (vset_vl),
    .vset_vtype_i  (vset_vtype),
    .vl_we_i       (cop_cmp_valid_i && cop_cmp_i.vl_we),
    .vl_i          (cop_cmp_i.vl),
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
      if (!insn_q[31]) begin              // vsetvli
        vs_newtype  = XLEN'(insn_q[30:20]);
        vs_avl      = rs1_v;
        vs_rs1_zero = (rs1 == 5'd0);
      end else if (insn_q[30]) begin      // vsetivli
        vs_newtype  = XLEN'(insn_q[29:20]);
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
  assign moff    = maddr_q[OffW-1:0];
  assign st_strb = (DataW/8)'(((1 << (1 << msize)) - 1)) << moff;
  assign ld_beat = dmem_resp_data_i >> {moff, 3'b000};
  assign ld_raw  = 64'(ld_beat);
  always_comb begin
    unique case ({funct3[2], msize})
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
  assign cop_is_vector = (insn_q[6:0] == OpOpV) || (insn_q[6:0] == OpLoadFp) || (insn_q[6:0] == OpStoreFp);
  // Scalar results: vmv.x.s / vcpop.m / vfirst.m (OPMVV funct6 010000),
  // vfmv.f.s (OPFVV funct6 010000), RoCC instructions with xd set.
  assign cop_writes_x = ((insn_q[6:0] == OpOpV) && funct3 == 3'b010 && insn_q[31:26] == 6'b010000)
                     || (!cop_is_vector && insn_q[14] && rd != 5'd0);
  assign cop_writes_f = (insn_q[6:0] == OpOpV) && funct3 == 3'b001 && insn_q[31:26] == 6'b010000;

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

  assign pc_ok       = (64'(pc_q) >> 32) == 64'd0;
  assign pc_plus4    = pc_q + XLEN'(4);
  assign target      = pc_q + imm;
  assign jalr_target = (rs1_v + imm) & ~XLEN'(1);

  logic [63:0] mem_addr_hi;
  assign mem_addr_hi = 64'(agen) >> 32;

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

    if_consume       = 1'b0;
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
      StFetch: begin
        if (cop_exc_q) begin
          // A coprocessor instruction faulted after it retired: trap at it now.
          trap       = 1'b1;
          trap_cause = cop_exc_cause_q;
          trap_epc   = cop_exc_pc_q;
          trap_tval  = cop_exc_tval_q;
          cop_exc_d  = 1'b0;
        end else if (!pc_ok) begin
          trap       = 1'b1;
          trap_cause = ExcInsnAccessFault;
          trap_tval  = pc_q;
        end else if (if_valid) begin
          if_consume = 1'b1;
          if (if_err) begin
            trap       = 1'b1;
            trap_cause = ExcInsnAccessFault;
            trap_tval  = pc_q;
          end else begin
            insn_d  = if_insn;
            state_d = StExec;
          end
        end
      end

      StExec: begin
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
              trap_tval = XLEN'(insn_q);
            end else if (misaligned) begin
              trap       = 1'b1;
              trap_cause = is_store ? ExcStoreMisaligned : ExcLoadMisaligned;
              trap_tval  = agen;
            end else if (mem_addr_hi != '0) begin
              trap       = 1'b1;
              trap_cause = is_store ? ExcStoreAccessFault : ExcLoadAccessFault;
              trap_tval  = agen;
            end else begin
              maddr_d = agen;
              state_d = StMemReq;
            end
          end
          ClsFence: begin
            if (cop_cnt_q != '0) state_d = StDrain;
            else retire = 1'b1;
          end
          ClsEcall:  begin trap = 1'b1; trap_cause = ExcEcallM; end
          ClsEbreak: begin trap = 1'b1; trap_cause = ExcBreakpoint; trap_tval = pc_q; end
          ClsMret:   begin mret = 1'b1; pc_d = mepc; retire = 1'b1; end
          ClsCsr: begin
            if (csr_illegal) begin
              trap      = 1'b1;
              trap_tval = XLEN'(insn_q);
            end else if (csr_cop_updated && cop_cnt_q != '0) begin
              // fflags/vxsat/vl are updated by accelerator completions: read or
              // write them only after every older coprocessor instruction completed.
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
              trap_tval = XLEN'(insn_q);
            end else begin
              state_d = StFpuReq;
            end
          end
          ClsFmvXW, ClsFmvWX: begin
            if (fs == 2'b00) begin
              trap      = 1'b1;
              trap_tval = XLEN'(insn_q);
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
              trap_tval = XLEN'(insn_q);
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
              trap_tval = XLEN'(insn_q);
            end else if (cop_cnt_q != 5'(CopMax)) begin
              state_d = StCopReq;
            end
          end
          default: begin  // ClsIllegal
            trap      = 1'b1;
            trap_tval = XLEN'(insn_q);
          end
        endcase
      end

      StMemReq: begin
        // Scalar memory accesses wait for older coprocessor work (ordering rule;
        // also drains the accelerator before EXIT/PROFILE stores).
        if (cop_cnt_q == '0) begin
          dmem_req_valid_o = 1'b1;
          if (dmem_req_ready_i) state_d = StMemWait;
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

      StFpuReq: begin
        fpu_req_valid = 1'b1;
        if (fpu_req_ready) state_d = StFpuWait;
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

      StCopReq: begin
        cop_req_valid_o = 1'b1;
        if (cop_req_ready_i) begin
          if (cop_illegal_i) begin
            trap      = 1'b1;
            trap_tval = XLEN'(insn_q);
          end else begin
            retire  = 1'b1;
            ret_cop = 1'b1;
            seq_d   = seq_q + 8'd1;
            if (cop_writes_x || cop_writes_f) begin
              wait_seq_d = seq_q;
              state_d    = StCopWait;
            end
          end
        end
      end

      StCopWait: begin
        // The scalar result arrives with the completion (written below).
        if (cop_cmp_valid_i && cop_cmp_i.seq == wait_seq_q) state_d = StFetch;
      end

      StDrain: begin
        if (cop_cnt_q == '0) retire = 1'b1;
      end

      default: state_d = StFetch;
    endcase

    // A retirement moves on to the next instruction (unless it waits for a
    // coprocessor result); a trap goes to the handler.
    if (retire) begin
      if (!(state_q == StExec && (cls == ClsJal || cls == ClsJalr || cls == ClsBranch || cls == ClsMret))) begin
        pc_d = pc_plus4;
      end
      if (state_d != StCopWait) state_d = StFetch;
    end
    if (trap) begin
      pc_d    = {mtvec[XLEN-1:2], 2'b00};
      state_d = StFetch;
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
  assign corrupt_done_d = corrupt_done_q || corrupt_hit;

  always_comb begin
    x_we    = (x_we_raw && rd != 5'd0) || cmp_x;
    x_waddr = cmp_x ? cop_cmp_i.rd : rd;
    x_wdata = cmp_x ? cop_cmp_i.wdata[XLEN-1:0] : x_wdata_raw ^ XLEN'(corrupt_hit);
    f_we    = f_we_raw || cmp_f;
    f_waddr = cmp_f ? cop_cmp_i.rd : rd;
    f_wdata = cmp_f ? cop_cmp_i.wdata[31:0] : f_wdata_raw ^ 32'(corrupt_hit);
  end

  // Coprocessor bookkeeping: every accepted instruction completes exactly once.
  logic cop_issue;
  assign cop_issue = (state_q == StCopReq) && cop_req_ready_i && !cop_illegal_i;
  assign cop_cnt_d = cop_cnt_q + 5'(cop_issue) - 5'(cop_cmp_valid_i);
  assign cop_busy_o = (cop_cnt_q != '0);

  always_comb begin
    cop_req_o        = '0;
    cop_req_o.insn   = insn_q;
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

  assign dmem_req_addr_o  = maddr_q[31:0];
  assign dmem_req_we_o    = is_store;
  assign dmem_req_wstrb_o = is_store ? st_strb : '0;
  assign dmem_req_wdata_o = DataW'(st_data_masked) << {moff, 3'b000};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q         <= StFetch;
      pc_q            <= boot_addr_i;
      insn_q          <= '0;
      maddr_q         <= '0;
      seq_q           <= '0;
      wait_seq_q      <= '0;
      cop_cnt_q       <= '0;
      corrupt_done_q  <= 1'b0;
      cop_exc_q       <= 1'b0;
      cop_exc_cause_q <= '0;
      cop_exc_tval_q  <= '0;
      cop_exc_pc_q    <= '0;
    end else begin
      state_q         <= state_d;
      pc_q            <= pc_d;
      insn_q          <= insn_d;
      maddr_q         <= maddr_d;
      seq_q           <= seq_d;
      wait_seq_q      <= wait_seq_d;
      cop_cnt_q       <= cop_cnt_d;
      corrupt_done_q  <= corrupt_done_d;
      cop_exc_q       <= cop_exc_d;
      cop_exc_cause_q <= cop_exc_cause_d;
      cop_exc_tval_q  <= cop_exc_tval_d;
      cop_exc_pc_q    <= cop_exc_pc_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (cop_issue) cop_pc_q[seq_q[3:0]] <= pc_q;
  end

  // Performance events (core_perf_t).
  always_comb begin
    perf_o                 = '0;
    perf_o.cop_issue_stall = (state_q == StCopReq && !cop_req_ready_i)
                          || (state_q == StExec && cls == ClsCop && cop_cnt_q == 5'(CopMax));
    perf_o.cop_wait        = (state_q == StMemReq && cop_cnt_q != '0)
                          || (state_q == StCopWait)
                          || (state_q == StDrain)
                          || (state_q == StExec && cls == ClsCsr && !csr_illegal && csr_cop_updated
                              && cop_cnt_q != '0);
  end

  // Bits that are legitimately unused in some configurations.
  logic unused;
  assign unused = ^{mul_p[2*XLEN+1:2*XLEN], fpu_result[63:32], mtvec[1:0], ld_val[63:32], unused_x_c,
                    vstart, vl, ld_beat};

  // ---------------------------------------------------------------------------
  // Monitors
  // ---------------------------------------------------------------------------
  always_comb begin
    retire_o           = '0;
    retire_o.valid     = retire;
    retire_o.pc        = 64'(pc_q);
    retire_o.insn      = insn_q;
    retire_o.x_we      = x_we_raw && rd != 5'd0;
    retire_o.f_we      = f_we_raw;
    retire_o.rd        = rd;
    retire_o.rd_wdata  = f_we_raw ? {(XLEN == 64) ? 32'hffff_ffff : 32'h0, f_wdata}
                                  : 64'(x_wdata);
    retire_o.mem_re    = ret_mem_re;
    retire_o.mem_we    = ret_mem_we;
    retire_o.mem_addr  = 64'(maddr_q);
    retire_o.mem_wdata = st_data_masked;
    retire_o.mem_size  = msize;
    retire_o.csr_we    = csr_we;
    retire_o.csr_addr  = insn_q[31:20];
    retire_o.csr_wdata = 64'(csr_wlegal);
    retire_o.cop       = ret_cop;
    retire_o.seq       = seq_q;

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
