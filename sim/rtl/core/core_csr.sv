// Machine-mode CSR file: status, trap registers, counters, floating-point and
// (with VecPresent) vector CSRs. Reads and the legality check are combinational
// on csr_addr_i; a Zicsr write, a trap entry, mret and the side updates of other
// instructions (fflags accrual, FS/VS dirtying, vsetvl) take effect at the clock.
module core_csr
  import core_pkg::*;
#(
  parameter int unsigned XLEN       = 32,
  parameter bit          VecPresent = 1'b0,
  parameter int unsigned VLEN       = 128
) (
  input  logic            clk_i,         // clock
  input  logic            rst_ni,        // asynchronous reset, active low

  // Zicsr access by the instruction in execute.
  input  logic [11:0]     csr_addr_i,    // the CSR number
  input  logic [2:0]      csr_funct3_i,  // csrrw/s/c, [2]: the operand is the rs1 field (csrr*i)
  input  logic [4:0]      csr_rs1_i,     // the rs1 field (register or immediate)
  input  logic [XLEN-1:0] csr_rs1_value_i,  // x[rs1]
  output logic            csr_write_o,   // the instruction intends to write (illegal on read-only CSRs)
  output logic [XLEN-1:0] csr_rdata_o,   // the CSR's value before the write
  output logic            csr_illegal_o, // the access is illegal (trap)
  input  logic            csr_we_i,      // commit the write (the instruction retires now)
  output logic [XLEN-1:0] csr_wlegal_o,  // what the CSR reads back after the write (trace)

  // Trap entry and return.
  input  logic            trap_i,        // a trap is taken this cycle
  input  logic [5:0]      trap_cause_i,  // its mcause
  input  logic [XLEN-1:0] trap_epc_i,    // its mepc
  input  logic [XLEN-1:0] trap_tval_i,   // its mtval
  input  logic            mret_i,        // mret retires
  output logic [XLEN-1:0] mtvec_o,       // trap vector
  output logic [XLEN-1:0] mepc_o,        // the mret target

  // Counters and side updates.
  input  logic            retire_i,      // an instruction retires (minstret)
  input  logic            fs_dirty_i,    // an f register was written
  input  logic            fflags_we_i,   // accrue fflags_i this cycle
  input  logic [4:0]      fflags_i,      // OR-ed into fflags
  input  logic            vxsat_i,       // OR-ed into vxsat
  input  logic            vs_dirty_i,    // vector state changed
  input  logic            vset_i,        // vset{i}vl{i} retires: write vl and vtype, clear vstart
  input  logic            vstart_clr_i,  // a vector instruction was accepted: vstart resets (RVV 1.0 3.7)
  input  logic [XLEN-1:0] vset_vl_i,     // the new vl
  input  logic [XLEN-1:0] vset_vtype_i,  // the new vtype
  input  logic            vstart_we_i,   // a precise vector memory fault: vstart = the element
  input  logic [31:0]     vstart_i,      // the faulting element
  input  logic            vl_we_i,       // coprocessor trims vl (fault-only-first)
  input  logic [31:0]     vl_i,          // the new vl (the trim, or a completion's)

  output logic [1:0]      fs_o,          // mstatus.FS
  output logic [1:0]      vs_o,          // mstatus.VS
  output logic [2:0]      frm_o,         // fcsr.frm
  output logic [XLEN-1:0] vtype_o,       // vtype
  output logic [XLEN-1:0] vl_o,          // vl
  output logic [XLEN-1:0] vstart_o,      // vstart
  output logic [1:0]      vxrm_o         // vxrm
);

  // Machine mode only: MPP reads as M (the only legal value).
  logic            mie_q, mpie_q;
  logic [1:0]      fs_q, vs_q;
  logic [XLEN-1:0] mtvec_q, mepc_q, mcause_q, mtval_q, mscratch_q;
  logic [XLEN-1:0] mie_reg_q;
  logic [63:0]     mcycle_q, minstret_q;
  logic [4:0]      fflags_q;
  logic [2:0]      frm_q;
  logic [XLEN-1:0] vtype_q, vl_q, vstart_q;
  logic [1:0]      vxrm_q;
  logic            vxsat_q;

  logic [XLEN-1:0] mstatus;
  logic [XLEN-1:0] misa;
  logic            sd;

  assign sd = (fs_q == 2'b11) || (vs_q == 2'b11);

  // The written value: rw/rs/rc applied to the old one.
  logic [XLEN-1:0] csr_operand, csr_wdata;
  assign csr_operand = csr_funct3_i[2] ? XLEN'(csr_rs1_i) : csr_rs1_value_i;
  assign csr_write_o = (csr_funct3_i[1:0] == 2'b01) || (csr_rs1_i != 5'd0);
  always_comb begin
    unique case (csr_funct3_i[1:0])
      2'b01:   csr_wdata = csr_operand;
      2'b10:   csr_wdata = csr_rdata_o | csr_operand;
      default: csr_wdata = csr_rdata_o & ~csr_operand;
    endcase
  end

  always_comb begin
    mstatus        = '0;
    mstatus[3]     = mie_q;
    mstatus[7]     = mpie_q;
    mstatus[10:9]  = vs_q;
    mstatus[12:11] = 2'b11;
    mstatus[14:13] = fs_q;
    mstatus[XLEN-1] = sd;
  end

  // misa: MXL, I, M, F (Zve32f is not a misa letter).
  always_comb begin
    misa            = '0;
    misa[XLEN-1:XLEN-2] = (XLEN == 64) ? 2'd2 : 2'd1;
    misa[8]         = 1'b1;  // I
    misa[12]        = 1'b1;  // M
    misa[5]         = 1'b1;  // F
  end

  // ---------------------------------------------------------------------------
  // Read mux and legality
  // ---------------------------------------------------------------------------
  logic exists;
  logic fp_csr, vec_csr;

  always_comb begin
    csr_rdata_o = '0;
    exists      = 1'b1;
    fp_csr      = 1'b0;
    vec_csr     = 1'b0;
    unique case (csr_addr_i)
      CsrFflags:    begin csr_rdata_o = XLEN'(fflags_q); fp_csr = 1'b1; end
      CsrFrm:       begin csr_rdata_o = XLEN'(frm_q); fp_csr = 1'b1; end
      CsrFcsr:      begin csr_rdata_o = XLEN'({frm_q, fflags_q}); fp_csr = 1'b1; end
      CsrVstart:    begin csr_rdata_o = vstart_q; vec_csr = 1'b1; end
      CsrVxsat:     begin csr_rdata_o = XLEN'(vxsat_q); vec_csr = 1'b1; end
      CsrVxrm:      begin csr_rdata_o = XLEN'(vxrm_q); vec_csr = 1'b1; end
      CsrVcsr:      begin csr_rdata_o = XLEN'({vxrm_q, vxsat_q}); vec_csr = 1'b1; end
      CsrVl:        begin csr_rdata_o = vl_q; vec_csr = 1'b1; end
      CsrVtype:     begin csr_rdata_o = vtype_q; vec_csr = 1'b1; end
      CsrVlenb:     begin csr_rdata_o = XLEN'(VLEN / 8); vec_csr = 1'b1; end
      CsrMstatus:   csr_rdata_o = mstatus;
      CsrMisa:      csr_rdata_o = misa;
      CsrMie:       csr_rdata_o = mie_reg_q;
      CsrMtvec:     csr_rdata_o = mtvec_q;
      CsrMscratch:  csr_rdata_o = mscratch_q;
      CsrMepc:      csr_rdata_o = mepc_q;
      CsrMcause:    csr_rdata_o = mcause_q;
      CsrMtval:     csr_rdata_o = mtval_q;
      CsrMip:       csr_rdata_o = '0;
      CsrMcycle, CsrCycle, CsrTime:       csr_rdata_o = mcycle_q[XLEN-1:0];
      CsrMinstret, CsrInstret:            csr_rdata_o = minstret_q[XLEN-1:0];
      CsrMvendorid, CsrMarchid, CsrMimpid, CsrMhartid, CsrMconfigptr: csr_rdata_o = '0;
      CsrMstatush: begin csr_rdata_o = '0; exists = (XLEN == 32); end
      CsrMcycleh, CsrCycleh, CsrTimeh: begin
        csr_rdata_o = XLEN'(mcycle_q[63:32]);
        exists      = (XLEN == 32);
      end
      CsrMinstreth, CsrInstreth: begin
        csr_rdata_o = XLEN'(minstret_q[63:32]);
        exists      = (XLEN == 32);
      end
      default: exists = 1'b0;
    endcase
  end

  // Unknown CSRs, writes to read-only ones (addr[11:10] == 2'b11), FP CSRs while
  // FS is Off and vector CSRs without a vector unit or while VS is Off are illegal.
  assign csr_illegal_o = !exists
                       || (csr_write_o && csr_addr_i[11:10] == 2'b11)
                       || (fp_csr && fs_q == 2'b00)
                       || (vec_csr && (!VecPresent || vs_q == 2'b00));

  // The written value after WARL legalisation, as a read right after the write
  // returns it (Spike logs this value for CSR writes).
  always_comb begin
    unique case (csr_addr_i)
      CsrFflags:  csr_wlegal_o = csr_wdata & XLEN'(5'h1f);
      CsrFrm:     csr_wlegal_o = csr_wdata & XLEN'(3'h7);
      CsrFcsr:    csr_wlegal_o = csr_wdata & XLEN'(8'hff);
      CsrVstart:  csr_wlegal_o = csr_wdata & XLEN'(VLEN - 1);
      CsrVxsat:   csr_wlegal_o = csr_wdata & XLEN'(1);
      CsrVxrm:    csr_wlegal_o = csr_wdata & XLEN'(3);
      CsrVcsr:    csr_wlegal_o = csr_wdata & XLEN'(7);
      CsrMstatus: begin
        csr_wlegal_o         = '0;
        csr_wlegal_o[3]      = csr_wdata[3];
        csr_wlegal_o[7]      = csr_wdata[7];
        csr_wlegal_o[10:9]   = VecPresent ? csr_wdata[10:9] : vs_q;
        csr_wlegal_o[12:11]  = 2'b11;
        csr_wlegal_o[14:13]  = csr_wdata[14:13];
        csr_wlegal_o[XLEN-1] = (csr_wdata[14:13] == 2'b11)
                            || ((VecPresent ? csr_wdata[10:9] : vs_q) == 2'b11);
      end
      CsrMie:     csr_wlegal_o = csr_wdata & XLEN'(32'h888);
      CsrMtvec:   csr_wlegal_o = csr_wdata & ~XLEN'(2);
      CsrMepc:    csr_wlegal_o = csr_wdata & ~XLEN'(3);
      CsrMisa:    csr_wlegal_o = misa;
      default:    csr_wlegal_o = csr_wdata;
    endcase
  end

  // ---------------------------------------------------------------------------
  // State updates
  // ---------------------------------------------------------------------------
  logic wr;
  assign wr = csr_we_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mie_q      <= 1'b0;
      mpie_q     <= 1'b0;
      fs_q       <= 2'b00;
      vs_q       <= 2'b00;
      mtvec_q    <= '0;
      mepc_q     <= '0;
      mcause_q   <= '0;
      mtval_q    <= '0;
      mscratch_q <= '0;
      mie_reg_q  <= '0;
      mcycle_q   <= '0;
      minstret_q <= '0;
      fflags_q   <= '0;
      frm_q      <= '0;
      vtype_q    <= VecPresent ? {1'b1, {(XLEN-1){1'b0}}} : '0;  // vill after reset, as Spike
      vl_q       <= '0;
      vstart_q   <= '0;
      vxrm_q     <= '0;
      vxsat_q    <= 1'b0;
    end else begin
      // Counters: a Zicsr write replaces this cycle's increment.
      mcycle_q <= mcycle_q + 64'd1;
      if (retire_i) minstret_q <= minstret_q + 64'd1;

      if (fs_dirty_i || (fflags_we_i && fflags_i != '0)) fs_q <= 2'b11;
      if (fflags_we_i) fflags_q <= fflags_q | fflags_i;
      if (VecPresent) begin
        if (vs_dirty_i || vxsat_i || vset_i) vs_q <= 2'b11;
        if (vxsat_i) vxsat_q <= 1'b1;
        if (vset_i) begin
          vl_q     <= vset_vl_i;
          vtype_q  <= vset_vtype_i;
          vstart_q <= '0;
        end
        if (vl_we_i) vl_q <= XLEN'(vl_i);
        if (vstart_clr_i) vstart_q <= '0;
        if (vstart_we_i) vstart_q <= XLEN'(vstart_i);
      end

      if (trap_i) begin
        mepc_q   <= trap_epc_i;
        mcause_q <= XLEN'(trap_cause_i);
        mtval_q  <= trap_tval_i;
        mpie_q   <= mie_q;
        mie_q    <= 1'b0;
      end else if (mret_i) begin
        mie_q  <= mpie_q;
        mpie_q <= 1'b1;
      end

      if (wr) begin
        unique case (csr_addr_i)
          CsrFflags: begin fflags_q <= csr_wdata[4:0]; fs_q <= 2'b11; end
          CsrFrm:    begin frm_q <= csr_wdata[2:0]; fs_q <= 2'b11; end
          CsrFcsr: begin
            fflags_q <= csr_wdata[4:0];
            frm_q    <= csr_wdata[7:5];
            fs_q     <= 2'b11;
          end
          CsrVstart: begin vstart_q <= csr_wdata & XLEN'(VLEN - 1); vs_q <= 2'b11; end
          CsrVxsat:  begin vxsat_q <= csr_wdata[0]; vs_q <= 2'b11; end
          CsrVxrm:   begin vxrm_q <= csr_wdata[1:0]; vs_q <= 2'b11; end
          CsrVcsr: begin
            vxsat_q <= csr_wdata[0];
            vxrm_q  <= csr_wdata[2:1];
            vs_q    <= 2'b11;
          end
          CsrMstatus: begin
            mie_q  <= csr_wdata[3];
            mpie_q <= csr_wdata[7];
            fs_q   <= csr_wdata[14:13];
            if (VecPresent) vs_q <= csr_wdata[10:9];
          end
          CsrMie:      mie_reg_q <= csr_wdata & XLEN'(32'h888);  // MSIE, MTIE, MEIE
          CsrMtvec:    mtvec_q <= csr_wdata & ~XLEN'(2);         // direct or vectored
          CsrMscratch: mscratch_q <= csr_wdata;
          CsrMepc:     mepc_q <= csr_wdata & ~XLEN'(3);          // no C: 4-byte aligned
          CsrMcause:   mcause_q <= csr_wdata;
          CsrMtval:    mtval_q <= csr_wdata;
          CsrMcycle: begin
            if (XLEN == 64) mcycle_q <= 64'(csr_wdata);
            else mcycle_q[31:0] <= csr_wdata[31:0];
          end
          CsrMcycleh:  mcycle_q[63:32] <= csr_wdata[31:0];
          CsrMinstret: begin
            if (XLEN == 64) minstret_q <= 64'(csr_wdata);
            else minstret_q[31:0] <= csr_wdata[31:0];
          end
          CsrMinstreth: minstret_q[63:32] <= csr_wdata[31:0];
          default: ;
        endcase
      end
    end
  end

  assign mtvec_o  = mtvec_q;
  assign mepc_o   = mepc_q;
  assign fs_o     = fs_q;
  assign vs_o     = vs_q;
  assign frm_o    = frm_q;
  assign vtype_o  = vtype_q;
  assign vl_o     = vl_q;
  assign vstart_o = vstart_q;
  assign vxrm_o   = vxrm_q;

endmodule
