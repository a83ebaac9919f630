// Controller: the core's sequencer (README.md "Pipeline"). StRun executes the
// instruction at the head of the fetch queue, at most one per cycle: it retires
// it, traps, starts a multi-cycle operation (the other states finish it on the
// instruction latched in insn_q), or leaves it at the head to try again next
// cycle. It owns the PC, the coprocessor sequence number and the pending
// coprocessor trap, and decides every register write, retirement and trap.
module core_controller
  import core_pkg::*;
  import cosim_pkg::*;
#(
  parameter int unsigned XLEN       = 32,
  parameter bit          VecPresent = 1'b0
) (
  input  logic            clk_i,               // clock
  input  logic            rst_ni,              // asynchronous reset, active low
  input  logic [XLEN-1:0] boot_addr_i,         // the PC after reset

  // Fetch queue head and redirects
  input  logic            fetch_valid_i,       // an instruction for pc_o is at the head
  input  logic [31:0]     fetch_insn_i,        // ... this one
  input  logic            fetch_err_i,         // ... its fetch failed
  output logic            fetch_consume_o,     // take the head this cycle
  output logic            redirect_o,          // restart fetch at redirect_pc_o
  output logic [XLEN-1:0] redirect_pc_o,       // the next pc
  output logic            fetch_flush_o,       // fence.i retires: empty the I-cache

  // The instruction being worked on
  output logic [31:0]     insn_o,              // the fetch head in StRun, else the latched one
  output logic [XLEN-1:0] pc_o,                // its PC
  output logic            running_o,           // state StRun (requests leave only then)
  output logic            mem_waiting_o,       // state StMemWait (a blocking access)
  output logic [XLEN-1:0] mem_held_addr_o,     // the address of that blocking access

  // Decode and operands
  input  cls_e            class_i,             // instruction class of insn_o
  input  logic [XLEN-1:0] imm_i,               // its immediate
  input  logic            word_i,              // an RV64 *W form
  input  logic            fpu_int_rd_i,        // the FPU result goes to an x register
  input  logic [XLEN-1:0] rs1_i,               // x[rs1]
  input  logic [31:0]     frs1_i,              // f[rs1], binary32 (fmv.x.w)

  // Execute units
  input  logic [XLEN-1:0] alu_result_i,        // ALU result
  input  logic            branch_taken_i,      // branch condition holds
  input  logic [XLEN-1:0] mul_result_i,        // multiplier result
  output logic            div_start_o,         // start the divider
  input  logic            div_done_i,          // divider result ready
  input  logic [XLEN-1:0] div_result_i,        // divider result
  output logic            fpu_req_valid_o,     // FPU request
  input  logic            fpu_req_ready_i,     // ... accepted
  input  logic            fpu_rm_bad_i,        // the rounding mode is reserved
  input  logic            fpu_resp_valid_i,    // FPU result ready
  input  logic [XLEN-1:0] fpu_result_i,        // FPU result

  // CSRs
  input  logic            csr_illegal_i,       // the CSR access is illegal
  input  logic            csr_write_i,         // the CSR instruction writes (not a read-only csrrs/c)
  input  logic [XLEN-1:0] csr_rdata_i,         // the CSR's old value
  output logic            csr_we_o,            // write the CSR now
  input  logic [1:0]      fs_i,                // mstatus.FS
  input  logic [1:0]      vs_i,                // mstatus.VS
  input  logic [XLEN-1:0] mtvec_i,             // trap vector
  input  logic [XLEN-1:0] mepc_i,              // the mret target
  input  logic [XLEN-1:0] vset_vl_i,           // vl computed by core_vset
  output logic            vset_o,              // write vl and vtype (vset{i}vl{i} retires)
  output logic            mret_o,              // mret retires
  output logic            retire_o,            // the instruction retires this cycle
  output logic            trap_o,              // a trap is taken this cycle
  output logic [5:0]      trap_cause_o,        // its mcause
  output logic [XLEN-1:0] trap_epc_o,          // its mepc
  output logic [XLEN-1:0] trap_tval_o,         // its mtval

  // Scalar loads and stores
  input  logic            lsu_stall_i,         // the head uses a register a load will still write
  input  logic            lsu_full_i,          // no room for another non-blocking access
  input  logic            commit_full_i,       // no room for another retirement record
  input  logic            drained_i,           // no access in flight, no record queued
  input  logic            mem_store_i,         // the access is a store
  input  logic [XLEN-1:0] mem_addr_i,          // its address
  input  logic            mem_misaligned_i,    // ... not aligned to its size
  input  logic            mem_nonblocking_i,   // ... in a region that cannot fault
  input  logic            mem_order_ok_i,      // older coprocessor work lets it go
  output logic            dmem_req_valid_o,    // data port request
  input  logic            dmem_req_ready_i,    // ... accepted
  input  logic            dmem_resp_valid_i,   // data port response (blocking access)
  input  logic            dmem_resp_err_i,     // ... an access fault
  input  logic [63:0]     load_value_i,        // its formatted load data
  output logic            lsu_issue_o,         // a non-blocking access leaves (it retires now)
  output logic            retire_load_o,       // the retiring instruction loaded
  output logic            retire_store_o,      // the retiring instruction stored

  // Coprocessor
  input  logic            cop_idle_i,          // no coprocessor instruction in flight
  input  logic            cop_full_i,          // the core's in-flight limit is reached
  input  logic            cop_vector_i,        // the head is a vector form (needs VS)
  input  logic            cop_writes_reg_i,    // its completion writes an x or f register
  output logic            cop_req_valid_o,     // coprocessor request
  input  logic            cop_req_ready_i,     // ... accepted (or refused, cop_illegal_i)
  input  logic            cop_illegal_i,       // the coprocessor refuses the instruction
  input  cop_ack_t        cop_ack_i,           // memory fault / ff trim, with the handshake
  input  logic            cop_cmp_valid_i,     // a completion
  input  cop_cmp_t        cop_cmp_i,           // ... its seq, register write, flags, vl, exception
  input  logic [XLEN-1:0] cop_cmp_pc_i,        // the PC of the completing instruction
  output logic [7:0]      cop_seq_o,           // sequence number of the next request
  output logic            retire_cop_o,        // the retiring instruction went to the coprocessor
  output logic            vstart_we_o,         // the trap of a vector memory fault writes vstart
  output logic [31:0]     vstart_o,            // ... the faulting element

  // Register write port A: the instruction's own write or a completion's
  output logic            x_we_o,              // write x[x_waddr_o] (never x0)
  output logic [4:0]      x_waddr_o,           // its register
  output logic [XLEN-1:0] x_wdata_o,           // its value
  output logic            f_we_o,              // write f[f_waddr_o]
  output logic [4:0]      f_waddr_o,           // its register
  output logic [31:0]     f_wdata_o,           // its value (binary32)
  output logic            own_x_we_o,          // the retiring instruction writes x[rd] (may be x0)
  output logic            own_f_we_o,          // the retiring instruction writes f[rd]
  output logic            late_x_we_o,         // a completion writes x (late_wb_t)
  output logic            late_f_we_o,         // a completion writes f

  // Fault injection (test of the difftest): flip bit 0 of the first register
  // write retired at corrupt_pc_i; a non-blocking load carries it in core_lsu.
  input  logic            corrupt_en_i,        // injection armed
  input  logic [63:0]     corrupt_pc_i,        // at this PC
  output logic            corrupt_load_o,      // the issuing load's data is to be flipped

  // Performance events of this cycle (core_perf_t)
  output logic            perf_issue_stall_o,  // a coprocessor instruction cannot issue
  output logic            perf_cop_wait_o      // the head waits for coprocessor work
);

  typedef enum logic [2:0] {
    StRun, StMemWait, StDiv, StFpuWait, StCopWait
  } state_e;

  state_e          state_q, state_d;
  logic [XLEN-1:0] pc_q, pc_d;
  logic [31:0]     insn_q, insn_d;
  logic [XLEN-1:0] mem_addr_q, mem_addr_d;       // the blocking access in StMemWait
  logic [7:0]      seq_q, seq_d;
  logic [7:0]      wait_seq_q, wait_seq_d;       // the completion StCopWait waits for
  // A coprocessor trap to take at the next instruction boundary.
  logic            cop_trap_q, cop_trap_d;
  logic [5:0]      cop_trap_cause_q, cop_trap_cause_d;
  logic [XLEN-1:0] cop_trap_tval_q, cop_trap_tval_d;
  logic [XLEN-1:0] cop_trap_pc_q, cop_trap_pc_d;
  logic            cop_trap_vstart_q, cop_trap_vstart_d;   // the trap sets vstart (memory fault)
  logic [31:0]     cop_vstart_q, cop_vstart_d;

  logic            x_we_own, f_we_own;     // the instruction's own register write
  logic [XLEN-1:0] x_wdata_own;
  logic [31:0]     f_wdata_own;
  logic            corrupt_done_q, corrupt_hit;

  logic [31:0]     insn;
  logic [4:0]      rd;
  logic            fence_i, csr_cop_updated;
  logic            pc_in_range;      // the PC is inside the 32-bit physical space
  logic [XLEN-1:0] pc_next, pc_target, jalr_target;
  logic [63:0]     mem_addr_high;

  assign insn            = (state_q == StRun) ? fetch_insn_i : insn_q;
  assign rd              = insn[11:7];
  assign fence_i         = (insn[6:0] == OpMiscMem) && (insn[14:12] == 3'b001);
  // CSRs that coprocessor completions update (fflags, vxsat, vl and their aliases).
  assign csr_cop_updated = insn[31:20] inside {CsrFflags, CsrFcsr, CsrVxsat, CsrVcsr, CsrVl};

  assign pc_in_range   = (64'(pc_q) >> 32) == 64'd0;
  assign pc_next       = pc_q + XLEN'(4);
  assign pc_target     = pc_q + imm_i;
  assign jalr_target   = (rs1_i + imm_i) & ~XLEN'(1);
  assign mem_addr_high = 64'(mem_addr_i) >> 32;

  always_comb begin
    state_d           = state_q;
    pc_d              = pc_q;
    insn_d            = insn_q;
    mem_addr_d        = mem_addr_q;
    seq_d             = seq_q;
    wait_seq_d        = wait_seq_q;
    cop_trap_d        = cop_trap_q;
    cop_trap_cause_d  = cop_trap_cause_q;
    cop_trap_tval_d   = cop_trap_tval_q;
    cop_trap_pc_d     = cop_trap_pc_q;
    cop_trap_vstart_d = cop_trap_vstart_q;
    cop_vstart_d      = cop_vstart_q;

    fetch_consume_o    = 1'b0;
    lsu_issue_o        = 1'b0;
    perf_issue_stall_o = 1'b0;
    perf_cop_wait_o    = 1'b0;
    dmem_req_valid_o   = 1'b0;
    cop_req_valid_o    = 1'b0;
    fpu_req_valid_o    = 1'b0;
    div_start_o        = 1'b0;

    x_we_own         = 1'b0;
    x_wdata_own      = '0;
    f_we_own         = 1'b0;
    f_wdata_own      = '0;
    csr_we_o       = 1'b0;
    vset_o         = 1'b0;
    mret_o         = 1'b0;
    retire_o       = 1'b0;
    retire_load_o  = 1'b0;
    retire_store_o = 1'b0;
    retire_cop_o   = 1'b0;
    trap_o         = 1'b0;
    trap_cause_o   = ExcIllegalInsn;
    trap_epc_o     = pc_q;
    trap_tval_o    = '0;

    unique case (state_q)
      StRun: begin
        // Traps are taken once every older access and record is out (drained).
        if (cop_trap_q) begin
          // A coprocessor instruction faulted after it retired: trap at it now.
          if (drained_i) begin
            trap_o            = 1'b1;
            trap_cause_o      = cop_trap_cause_q;
            trap_epc_o        = cop_trap_pc_q;
            trap_tval_o       = cop_trap_tval_q;
            cop_trap_d        = 1'b0;
            cop_trap_vstart_d = 1'b0;
          end
        end else if (!pc_in_range) begin
          trap_o       = drained_i;
          trap_cause_o = ExcInsnAccessFault;
          trap_tval_o  = pc_q;
        end else if (fetch_valid_i && fetch_err_i) begin
          trap_o          = drained_i;
          trap_cause_o    = ExcInsnAccessFault;
          trap_tval_o     = pc_q;
          fetch_consume_o = drained_i;
        end else if (fetch_valid_i && !lsu_stall_i && !commit_full_i) begin
          // Execute the queue head. An instruction that cannot proceed this
          // cycle (ordering, a busy port) stays at the head and tries again.
          insn_d = fetch_insn_i;
          unique case (class_i)
            ClsLui:    begin x_we_own = 1'b1; x_wdata_own = imm_i; retire_o = 1'b1; end
            ClsAuipc:  begin x_we_own = 1'b1; x_wdata_own = pc_target; retire_o = 1'b1; end
            ClsAluImm, ClsAluReg: begin x_we_own = 1'b1; x_wdata_own = alu_result_i; retire_o = 1'b1; end
            ClsMul:    begin x_we_own = 1'b1; x_wdata_own = mul_result_i; retire_o = 1'b1; end
            ClsDiv:    begin div_start_o = 1'b1; state_d = StDiv; end
            ClsJal, ClsJalr: begin
              if (((class_i == ClsJal) ? pc_target[1] : jalr_target[1])) begin
                trap_o       = 1'b1;
                trap_cause_o = ExcInsnMisaligned;
                trap_tval_o  = (class_i == ClsJal) ? pc_target : jalr_target;
              end else begin
                x_we_own    = 1'b1;
                x_wdata_own = pc_next;
                pc_d      = (class_i == ClsJal) ? pc_target : jalr_target;
                retire_o  = 1'b1;
              end
            end
            ClsBranch: begin
              if (branch_taken_i && pc_target[1]) begin
                trap_o       = 1'b1;
                trap_cause_o = ExcInsnMisaligned;
                trap_tval_o  = pc_target;
              end else begin
                pc_d     = branch_taken_i ? pc_target : pc_next;
                retire_o = 1'b1;
              end
            end
            ClsLoad, ClsStore, ClsFload, ClsFstore: begin
              if ((class_i == ClsFload || class_i == ClsFstore) && fs_i == 2'b00) begin
                trap_o      = 1'b1;
                trap_tval_o = XLEN'(insn);
              end else if (mem_misaligned_i) begin
                trap_o       = 1'b1;
                trap_cause_o = mem_store_i ? ExcStoreMisaligned : ExcLoadMisaligned;
                trap_tval_o  = mem_addr_i;
              end else if (mem_addr_high != '0) begin
                trap_o       = 1'b1;
                trap_cause_o = mem_store_i ? ExcStoreAccessFault : ExcLoadAccessFault;
                trap_tval_o  = mem_addr_i;
              end else if (!mem_order_ok_i) begin
                perf_cop_wait_o = 1'b1;   // older coprocessor memory accesses in flight
              end else if (mem_nonblocking_i) begin
                // Non-blocking: retires now, a load's data comes later.
                if (!lsu_full_i) begin
                  dmem_req_valid_o = 1'b1;
                  if (dmem_req_ready_i) begin
                    lsu_issue_o    = 1'b1;
                    retire_o       = 1'b1;
                    retire_load_o  = !mem_store_i;
                    retire_store_o = mem_store_i;
                  end
                end
              end else if (drained_i) begin
                // Blocking (MMIO, or a region that may fault): wait in StMemWait.
                dmem_req_valid_o = 1'b1;
                if (dmem_req_ready_i) begin
                  mem_addr_d = mem_addr_i;
                  state_d    = StMemWait;
                end
              end
            end
            ClsFence: begin
              // fence, fence.i and wfi wait until the coprocessor is idle.
              if (cop_idle_i && drained_i) retire_o = 1'b1;
              perf_cop_wait_o = !cop_idle_i;
            end
            ClsEcall:  begin trap_o = 1'b1; trap_cause_o = ExcEcallM; end
            ClsEbreak: begin trap_o = 1'b1; trap_cause_o = ExcBreakpoint; trap_tval_o = pc_q; end
            ClsMret:   begin mret_o = 1'b1; pc_d = mepc_i; retire_o = 1'b1; end
            ClsCsr: begin
              if (csr_illegal_i) begin
                trap_o      = 1'b1;
                trap_tval_o = XLEN'(insn);
              end else if ((csr_cop_updated && !cop_idle_i) || !drained_i) begin
                // fflags/vxsat/vl are updated by accelerator completions: read or
                // write them only after every older coprocessor instruction completed.
                // Every CSR access waits for older loads (mstatus.FS, counters).
                perf_cop_wait_o = csr_cop_updated && !cop_idle_i;
              end else begin
                x_we_own    = 1'b1;
                x_wdata_own = csr_rdata_i;
                csr_we_o  = csr_write_i;
                retire_o  = 1'b1;
              end
            end
            ClsFpu: begin
              if (fs_i == 2'b00 || fpu_rm_bad_i) begin
                trap_o      = 1'b1;
                trap_tval_o = XLEN'(insn);
              end else begin
                fpu_req_valid_o = 1'b1;
                if (fpu_req_ready_i) state_d = StFpuWait;
              end
            end
            ClsFmvXW, ClsFmvWX: begin
              if (fs_i == 2'b00) begin
                trap_o      = 1'b1;
                trap_tval_o = XLEN'(insn);
              end else if (class_i == ClsFmvXW) begin
                x_we_own    = 1'b1;
                x_wdata_own = XLEN'($signed(frs1_i));
                retire_o  = 1'b1;
              end else begin
                f_we_own    = 1'b1;
                f_wdata_own = rs1_i[31:0];
                retire_o  = 1'b1;
              end
            end
            ClsVset: begin
              if (vs_i == 2'b00) begin
                trap_o      = 1'b1;
                trap_tval_o = XLEN'(insn);
              end else begin
                vset_o    = 1'b1;
                x_we_own    = 1'b1;
                x_wdata_own = vset_vl_i;
                retire_o  = 1'b1;
              end
            end
            ClsCop: begin
              if (cop_vector_i && (!VecPresent || vs_i == 2'b00)) begin
                trap_o      = 1'b1;
                trap_tval_o = XLEN'(insn);
              end else if (cop_full_i) begin
                perf_issue_stall_o = 1'b1;   // the core's in-flight limit
              end else if (drained_i) begin
                cop_req_valid_o    = 1'b1;
                perf_issue_stall_o = !cop_req_ready_i;
                if (cop_req_ready_i) begin
                  if (cop_illegal_i) begin
                    trap_o      = 1'b1;
                    trap_tval_o = XLEN'(insn);
                  end else begin
                    retire_o     = 1'b1;
                    retire_cop_o = 1'b1;
                    seq_d        = seq_q + 8'd1;
                    if (cop_writes_reg_i) begin
                      wait_seq_d = seq_q;
                      state_d    = StCopWait;
                    end
                    if (cop_ack_i.fault) begin
                      // A precise memory fault: the unit executes the elements
                      // before it; wait for that, then trap here (StRun, cop_trap_q)
                      // before any younger instruction.
                      wait_seq_d        = seq_q;
                      state_d           = StCopWait;
                      cop_trap_d        = 1'b1;
                      cop_trap_cause_d  = cop_ack_i.cause;
                      cop_trap_tval_d   = XLEN'(cop_ack_i.tval);
                      cop_trap_pc_d     = pc_q;
                      cop_trap_vstart_d = 1'b1;
                      cop_vstart_d      = cop_ack_i.elem;
                    end
                  end
                end
              end
            end
            default: begin  // ClsIllegal
              trap_o      = 1'b1;
              trap_tval_o = XLEN'(insn);
            end
          endcase
          // A trap waits until older records are out (it stays at the head).
          if (trap_o && !drained_i) trap_o = 1'b0;
          fetch_consume_o = retire_o || trap_o || (state_d != StRun);
        end
      end

      StMemWait: begin
        if (dmem_resp_valid_i) begin
          if (dmem_resp_err_i) begin
            trap_o       = 1'b1;
            trap_cause_o = mem_store_i ? ExcStoreAccessFault : ExcLoadAccessFault;
            trap_tval_o  = mem_addr_q;
          end else begin
            retire_o = 1'b1;
            if (mem_store_i) begin
              retire_store_o = 1'b1;
            end else begin
              retire_load_o = 1'b1;
              if (class_i == ClsFload) begin
                f_we_own    = 1'b1;
                f_wdata_own = load_value_i[31:0];
              end else begin
                x_we_own    = 1'b1;
                x_wdata_own = load_value_i[XLEN-1:0];
              end
            end
          end
        end
      end

      StDiv: begin
        if (div_done_i) begin
          x_we_own    = 1'b1;
          x_wdata_own = word_i ? XLEN'($signed(div_result_i[31:0])) : div_result_i;
          retire_o  = 1'b1;
        end
      end

      StFpuWait: begin
        if (fpu_resp_valid_i) begin
          retire_o = 1'b1;
          if (fpu_int_rd_i) begin
            x_we_own    = 1'b1;
            x_wdata_own = fpu_result_i;
          end else begin
            f_we_own    = 1'b1;
            f_wdata_own = fpu_result_i[31:0];
          end
        end
      end

      StCopWait: begin
        // The scalar result arrives with the completion (written outside); the
        // instruction retired at issue.
        perf_cop_wait_o = 1'b1;
        if (cop_cmp_valid_i && cop_cmp_i.seq == wait_seq_q) state_d = StRun;
      end

      default: state_d = StRun;
    endcase

    // A retirement moves on to the next instruction (unless it waits for a
    // coprocessor result); a trap goes to the handler.
    if (retire_o) begin
      if (!(state_q == StRun && (class_i == ClsJal || class_i == ClsJalr || class_i == ClsBranch
                                 || class_i == ClsMret))) begin
        pc_d = pc_next;
      end
      if (state_d != StCopWait) state_d = StRun;
    end
    if (trap_o) begin
      pc_d    = {mtvec_i[XLEN-1:2], 2'b00};
      state_d = StRun;
    end

    // The prefetcher follows pc + 4; anything else (taken branch, jump, mret,
    // trap) or fence.i restarts it at the new pc.
    redirect_o = trap_o || (retire_o && (pc_d != pc_next || fence_i));

    // Coprocessor exceptions are taken at the next instruction boundary.
    if (cop_cmp_valid_i && cop_cmp_i.exc) begin
      cop_trap_d       = 1'b1;
      cop_trap_cause_d = cop_cmp_i.exc_cause;
      cop_trap_tval_d  = cop_cmp_i.exc_tval[XLEN-1:0];
      cop_trap_pc_d    = cop_cmp_pc_i;
    end
  end

  assign redirect_pc_o   = pc_d;
  assign fetch_flush_o   = retire_o && fence_i;
  assign insn_o          = insn;
  assign pc_o            = pc_q;
  assign running_o       = (state_q == StRun);
  assign mem_waiting_o   = (state_q == StMemWait);
  assign mem_held_addr_o = mem_addr_q;
  assign cop_seq_o       = seq_q;
  assign vstart_we_o     = trap_o && cop_trap_q && cop_trap_vstart_q;
  assign vstart_o        = cop_vstart_q;

  // Register write port A: the instruction's own write, or a coprocessor
  // completion (which only carries a register write while the controller waits
  // for it in StCopWait).
  assign late_x_we_o = cop_cmp_valid_i && cop_cmp_i.x_we && cop_cmp_i.rd != 5'd0;
  assign late_f_we_o = cop_cmp_valid_i && cop_cmp_i.f_we;
  assign own_x_we_o  = x_we_own;
  assign own_f_we_o  = f_we_own;

  assign corrupt_hit    = corrupt_en_i && !corrupt_done_q && retire_o
                       && (64'(pc_q) == corrupt_pc_i) && ((x_we_own && rd != 5'd0) || f_we_own);
  assign corrupt_load_o = corrupt_en_i && !corrupt_done_q && lsu_issue_o && !mem_store_i
                       && (64'(pc_q) == corrupt_pc_i) && (class_i == ClsFload || rd != 5'd0);

  always_comb begin
`ifdef COSIM_MUTATION_WRITE_X0
    // Test-only mutation (tests/test_rtl_assertions.py): x0 writes get through.
    x_we_o    = x_we_own || late_x_we_o;
`else
    x_we_o    = (x_we_own && rd != 5'd0) || late_x_we_o;
`endif
    x_waddr_o = late_x_we_o ? cop_cmp_i.rd : rd;
    x_wdata_o = late_x_we_o ? cop_cmp_i.wdata[XLEN-1:0] : x_wdata_own ^ XLEN'(corrupt_hit);
    f_we_o    = f_we_own || late_f_we_o;
    f_waddr_o = late_f_we_o ? cop_cmp_i.rd : rd;
    f_wdata_o = late_f_we_o ? cop_cmp_i.wdata[31:0] : f_wdata_own ^ 32'(corrupt_hit);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) corrupt_done_q <= 1'b0;
    else corrupt_done_q <= corrupt_done_q || corrupt_hit || corrupt_load_o;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q           <= StRun;
      pc_q              <= boot_addr_i;
      insn_q            <= '0;
      mem_addr_q        <= '0;
      seq_q             <= '0;
      wait_seq_q        <= '0;
      cop_trap_q        <= 1'b0;
      cop_trap_cause_q  <= '0;
      cop_trap_tval_q   <= '0;
      cop_trap_pc_q     <= '0;
      cop_trap_vstart_q <= 1'b0;
      cop_vstart_q      <= '0;
    end else begin
      state_q           <= state_d;
      pc_q              <= pc_d;
      insn_q            <= insn_d;
      mem_addr_q        <= mem_addr_d;
      seq_q             <= seq_d;
      wait_seq_q        <= wait_seq_d;
      cop_trap_q        <= cop_trap_d;
      cop_trap_cause_q  <= cop_trap_cause_d;
      cop_trap_tval_q   <= cop_trap_tval_d;
      cop_trap_pc_q     <= cop_trap_pc_d;
      cop_trap_vstart_q <= cop_trap_vstart_d;
      cop_vstart_q      <= cop_vstart_d;
    end
  end

`ifdef COSIM_ASSERT
  // Assertions: compiled when sim/verilator_build.py passes --assert (the
  // default; the speed bench builds without them). Each message states the rule.
  // They are checked from the cycle after reset (sim/rtl/cosim_assert_window.sv).
  logic checking;
  cosim_assert_window u_assert_window (.clk_i, .rst_ni, .checking_o(checking));
  // A request stays valid until accepted; only a coprocessor trap that a
  // completion left pending may withdraw it (taken before anything younger).
  DmemReqHeld: assert property (@(posedge clk_i) disable iff (!checking)
      dmem_req_valid_o && !dmem_req_ready_i |=> dmem_req_valid_o || cop_trap_q)
    else $error("data request withdrawn before the port accepted it");
  CopReqHeld: assert property (@(posedge clk_i) disable iff (!checking)
      cop_req_valid_o && !cop_req_ready_i |=> cop_req_valid_o || cop_trap_q)
    else $error("coprocessor request withdrawn before the port accepted it");
  // Blocking accesses and coprocessor requests leave only with nothing in flight.
  BlockingAccessDrained: assert property (@(posedge clk_i) disable iff (!checking)
      dmem_req_valid_o && !mem_nonblocking_i |-> drained_i)
    else $error("blocking access issued with loads/stores or records in flight");
  CopReqDrained: assert property (@(posedge clk_i) disable iff (!checking)
      cop_req_valid_o |-> drained_i && !cop_full_i)
    else $error("coprocessor request issued before older accesses drained or beyond the in-flight limit");
  // Requests leave from StRun only (one blocking access, one multi-cycle op).
  RequestsFromRun: assert property (@(posedge clk_i) disable iff (!checking)
      dmem_req_valid_o || cop_req_valid_o || fpu_req_valid_o || div_start_o |-> state_q == StRun)
    else $error("a request left outside StRun");
  RetireXorTrap: assert property (@(posedge clk_i) disable iff (!checking) !(retire_o && trap_o))
    else $error("an instruction both retired and trapped");
  TrapPrecise: assert property (@(posedge clk_i) disable iff (!checking) trap_o |-> drained_i)
    else $error("trap taken with loads/stores or records in flight (imprecise)");
  NoWriteToX0: assert property (@(posedge clk_i) disable iff (!checking) x_we_o |-> x_waddr_o != 5'd0)
    else $error("register write to x0 on port A");
  // Port A has one writer a cycle: a completion's write never meets the instruction's own.
  PortAOneWriter: assert property (@(posedge clk_i) disable iff (!checking)
      late_x_we_o || late_f_we_o |-> !((x_we_own && rd != 5'd0) || f_we_own))
    else $error("coprocessor completion and instruction write port A in the same cycle");
`endif

  // Only the scalar-result fields of a completion and of the ack matter here.
  logic unused;
  assign unused = ^{mtvec_i[1:0], cop_cmp_i, cop_ack_i, fetch_insn_i, load_value_i};

endmodule
