// Types and helpers of the t1-style vector unit (zve32f). See README.md beside
// this file for the microarchitecture. Geometry (VLEN, DLEN, memory width) is a
// parameter of the modules, not of this package; nothing here depends on it.
package vec_pkg;

  // Major opcodes of vector instructions.
  localparam logic [6:0] OpcOpV    = 7'h57;
  localparam logic [6:0] OpcLoadFp = 7'h07;
  localparam logic [6:0] OpcStoreFp = 7'h27;

  // OP-V funct3 categories.
  localparam logic [2:0] F3Ivv = 3'd0;
  localparam logic [2:0] F3Fvv = 3'd1;
  localparam logic [2:0] F3Mvv = 3'd2;
  localparam logic [2:0] F3Ivi = 3'd3;
  localparam logic [2:0] F3Ivx = 3'd4;
  localparam logic [2:0] F3Fvf = 3'd5;
  localparam logic [2:0] F3Mvx = 3'd6;
  localparam logic [2:0] F3Cfg = 3'd7;

  // Execution class: which engine runs the instruction and how it walks the
  // register file.
  typedef enum logic [3:0] {
    VC_ALU,    // element-wise, destination of SEW elements (row by row)
    VC_CMP,    // element-wise, destination is a mask (one bit per element)
    VC_MASK,   // mask-register logical vm*.mm (rows of VLEN bits)
    VC_RED,    // reduction into vd[0]
    VC_CPOP,   // vcpop.m -> x[rd]
    VC_FIRST,  // vfirst.m -> x[rd]
    VC_MVXS,   // vmv.x.s -> x[rd]
    VC_MVSX,   // vmv.s.x -> vd[0]
    VC_PERM,   // element-serial permutations (slides, gathers)
    VC_LOAD,   // memory -> vd
    VC_STORE   // vs3 -> memory
  } vclass_e;

  // Element operation of the lanes.
  typedef enum logic [6:0] {
    VA_ADD, VA_SUB, VA_RSUB, VA_ADC, VA_SBC,
    VA_MADC, VA_MSBC,                    // carry/borrow out (mask destination)
    VA_AND, VA_OR, VA_XOR,
    VA_SLL, VA_SRL, VA_SRA,
    VA_MINU, VA_MIN, VA_MAXU, VA_MAX,
    VA_MERGE,                            // mask ? b : a (vmerge, vmv.v.*)
    VA_PASSA,                            // a (whole-register moves)
    VA_MUL, VA_MULH, VA_MULHU, VA_MULHSU,
    VA_MACC, VA_NMSAC, VA_MADD, VA_NMSUB,
    VA_DIVU, VA_DIV, VA_REMU, VA_REM,
    VA_SADDU, VA_SADD, VA_SSUBU, VA_SSUB,
    VA_AADDU, VA_AADD, VA_ASUBU, VA_ASUB,      // averaging (vxrm rounding)
    VA_SSRL, VA_SSRA, VA_SMUL,                 // scaling shifts, fractional multiply
    VA_SEQ, VA_SNE, VA_SLTU, VA_SLT, VA_SLEU, VA_SLE, VA_SGTU, VA_SGT,
    // mask-register logical (VC_MASK), b = vs1, a = vs2
    VA_MANDN, VA_MAND, VA_MOR, VA_MXOR, VA_MORN, VA_MNAND, VA_MNOR, VA_MXNOR,
    // reductions (VC_RED)
    VA_RSUM, VA_RAND, VA_ROR, VA_RXOR, VA_RMINU, VA_RMIN, VA_RMAXU, VA_RMAX,
    // permutations (VC_PERM)
    VA_SLIDEUP, VA_SLIDEDN, VA_SLIDE1UP, VA_SLIDE1DN, VA_GATHER, VA_GATHER16,
    // binary32 (SEW=32 only), executed by vec_fp_lane; a = vs2, b = vs1/f, c = vd
    VF_ADD, VF_SUB, VF_RSUB, VF_MUL,
    VF_MACC, VF_NMACC, VF_MSAC, VF_NMSAC,      // vd = (+/-)(b*a) (+/-) c
    VF_MADD, VF_NMADD, VF_MSUB, VF_NMSUB,      // vd = (+/-)(b*c) (+/-) a
    VF_MIN, VF_MAX, VF_SGNJ, VF_SGNJN, VF_SGNJX,
    VF_EQ, VF_LE, VF_LT, VF_NE, VF_GT, VF_GE,  // compares into masks
    VF_CLASS, VF_CVT_XU_F, VF_CVT_X_F, VF_CVT_F_XU, VF_CVT_F_X,
    VF_CVT_RTZ_XU_F, VF_CVT_RTZ_X_F,
    VF_REC7, VF_RSQRT7,                        // 7-bit estimates (vfrec7.v, vfrsqrt7.v)
    VF_RUSUM, VF_ROSUM, VF_RMIN, VF_RMAX,      // reductions (VC_RED)
    VF_DIV, VF_RDIV, VF_SQRT,                  // iterative (fpu_divsqrt per lane)
    VA_MSBF, VA_MSIF, VA_MSOF, VA_IOTA, VA_COMPRESS   // element-serial mask ops (VC_PERM)
  } valu_e;

  function automatic logic is_divsqrt_op(valu_e op);
    return (op == VF_DIV) || (op == VF_RDIV) || (op == VF_SQRT);
  endfunction

  function automatic logic is_fp_op(valu_e op);
    return op >= VF_ADD;
  endfunction

  // Second operand source.
  typedef enum logic [1:0] {
    SRC_V,   // vs1
    SRC_X,   // x[rs1]
    SRC_I,   // simm5 / uimm5
    SRC_F    // f[rs1]
  } vsrc_e;

  // Memory addressing mode.
  typedef enum logic [1:0] {
    LS_UNIT,
    LS_STRIDED,
    LS_INDEXED
  } vlsmode_e;

  // Decoded instruction (what the sequencer and the LSU need).
  typedef struct packed {
    vclass_e     cls;
    valu_e       op;
    vsrc_e       src;
    logic        vm;         // 1 = unmasked
    logic        mask_op;    // v0 is an operand (vadc, vmerge), not a write mask
    logic [4:0]  vd;         // also vs3 of stores
    logic [4:0]  vs1;
    logic [4:0]  vs2;
    logic [4:0]  imm;        // simm5 / uimm5 field (vs1 position)
    logic [1:0]  eew;        // log2(bytes) of the data elements
    logic [1:0]  ieew;       // log2(bytes) of index elements (indexed memory ops)
    vlsmode_e    lsmode;
    logic        whole;      // whole-register load/store/move: evl = nregs*VLEN/EEW
    logic [3:0]  nregs;      // registers moved by whole-register instructions
    logic        maskls;     // vlm.v / vsm.v: evl = ceil(vl/8)
    logic [2:0]  nf;         // segment fields - 1 (0: not a segment access)
    logic [3:0]  seg_regs;   // registers per field (EMUL rounded up to 1)
    logic        xwrite;     // writes x[rd] at completion
    logic        fwrite;     // writes f[rd] at completion (vfmv.f.s)
    logic        vid;        // operand b is the element index (vid.v)
    // narrow sources of widening ops and extensions: the operand's EEW is the
    // destination EEW >> frac; it is sign- (sgn) or zero-extended first
    logic [1:0]  a_frac;
    logic        b_frac;
    logic        a_sgn;
    logic        b_sgn;
    // narrowing: the lanes work at 2*SEW (vs2 wide), results are packed to SEW
    logic        narrow;
    logic        clip;       // vnclip[u]: saturate to SEW (signedness from op)
    logic        wred;       // vwredsum[u]: 2*SEW accumulator, elements extended (a_sgn)
  } vuop_t;

  // One accepted instruction waiting in the issue queue.
  typedef struct packed {
    vuop_t       uop;
    logic [31:0] rs1;
    logic [31:0] rs2;
    logic [31:0] frs1;
    logic [1:0]  sew;        // log2(bytes) of vtype.vsew
    logic [2:0]  lmul;       // vtype.vlmul (signed log2 LMUL)
    logic [31:0] vl;
    logic [31:0] vstart;
    logic [2:0]  frm;
    logic [1:0]  vxrm;
    logic [7:0]  seq;
    // memory: stop before element stop_i, field stop_f (a precise fault or a
    // fault-only-first trim found by vec_memcheck at the issue handshake)
    logic        stop;
    logic [31:0] stop_i;
    logic [2:0]  stop_f;
  } vinsn_t;

  // Performance events, one sample per cycle (vec_unit.perf_o). The test bench
  // sums them into result.json's `counters`; nothing here is a counter itself,
  // so the unit stays free of wide registers it does not need.
  typedef struct packed {
    logic        arith_busy;    // the arithmetic engine(s) execute an instruction
    logic        mem_busy;      // the load/store unit executes an instruction
    logic [15:0] lane_ops;      // useful 32-bit lane operations this cycle (active
                                // body elements of element-wise work, in 32-bit lanes)
    logic [15:0] fma_ops;       // useful FP multiply-adds (vf[n]macc/vf[n]msac/
                                // vf[n]madd/vf[n]msub, active body elements)
    logic [15:0] mem_bytes;     // bytes moved on the vector memory port this cycle
                                // (accepted store bytes + returned load bytes)
    logic        port_busy;     // a memory request is valid or responses are outstanding
    logic        stall_dep;     // the next instruction waits on a register dependency
    logic        stall_struct;  // the next instruction waits for a busy functional unit
    logic        stall_mem;     // the LSU has a request the port does not accept
    logic        stall_issue;   // idle: nothing queued (waiting for the core)
    logic        iq_full;       // the issue queue is full: the core's request waits
  } vec_perf_t;

  // log2 of the register-group size (0..3) for a signed log2 LMUL (-3..3):
  // fractional groups occupy one register.
  function automatic logic [1:0] group_lg(logic signed [3:0] lmul_lg);
    return (lmul_lg <= 0) ? 2'd0 : lmul_lg[1:0];
  endfunction

  // Is register `r` aligned to a group of 2^glg registers?
  function automatic logic reg_aligned(logic [4:0] r, logic [1:0] glg);
    logic [4:0] m;
    m = 5'((5'd1 << glg) - 5'd1);
    return (r & m) == 5'd0;
  endfunction

  // Do groups [a, a+2^alg) and [b, b+2^blg) overlap?
  function automatic logic groups_overlap(logic [4:0] a, logic [1:0] alg, logic [4:0] b,
                                          logic [1:0] blg);
    logic [5:0] a_end;
    logic [5:0] b_end;
    a_end = {1'b0, a} + (6'd1 << alg);
    b_end = {1'b0, b} + (6'd1 << blg);
    return ({1'b0, a} < b_end) && ({1'b0, b} < a_end);
  endfunction

  // Do register ranges [a, a+an) and [b, b+bn) overlap?
  function automatic logic groups_overlap_n(logic [4:0] a, logic [5:0] an, logic [4:0] b,
                                            logic [5:0] bn);
    return ({1'b0, a} < {1'b0, b} + bn) && ({1'b0, b} < {1'b0, a} + an);
  endfunction

  // A destination group [d, d+2^dlg) written from a narrower source group
  // [s, s+2^slg): legal when they do not overlap, or (source EMUL >= 1) when the
  // source is exactly the highest-numbered part of the destination.
  function automatic logic widen_src_ok(logic [4:0] d, logic [1:0] dlg, logic [4:0] s,
                                        logic [1:0] slg, logic src_frac);
    logic [5:0] d_end, s_end;
    d_end = {1'b0, d} + (6'd1 << dlg);
    s_end = {1'b0, s} + (6'd1 << slg);
    if (!groups_overlap(d, dlg, s, slg)) return 1'b1;
    if (src_frac) return 1'b0;
    return (d < s) && (s_end == d_end);
  endfunction

  // Address of field f of element i of a vector memory access (32 bits), shared by
  // the LSU and the fault checker so both always name the same bytes. Field f sits
  // f*EEW bytes after field 0; unit-stride segments are packed (element i at
  // (i*nf + f)*EEW), strided ones start every `stride` bytes, indexed ones at
  // base + index.
  function automatic logic [31:0] elem_addr(vlsmode_e mode, logic [31:0] base, logic [31:0] stride,
                                            logic [31:0] idx, logic [31:0] i, logic [2:0] f,
                                            logic [2:0] nf, logic [31:0] eb);
    unique case (mode)
      LS_STRIDED: return base + i * stride + 32'(f) * eb;
      LS_INDEXED: return base + idx + 32'(f) * eb;
      default:    return base + (i * (32'(nf) + 32'd1) + 32'(f)) * eb;
    endcase
  endfunction

  // An index element of EEW 2^ieew bytes from the low bytes of `raw`, zero-extended.
  function automatic logic [31:0] index_value(logic [31:0] raw, logic [1:0] ieew);
    unique case (ieew)
      2'd0:    return {24'b0, raw[7:0]};
      2'd1:    return {16'b0, raw[15:0]};
      default: return raw;
    endcase
  endfunction

  // VLMAX = LMUL*VLEN/SEW for vtype's sew (log2 bytes) and lmul (signed log2)
  function automatic logic [31:0] vlmax_of(int unsigned vlen_lg, logic [1:0] sew, logic [2:0] lmul);
    logic signed [31:0] lg;
    lg = 32'(vlen_lg) - 32'd3 - 32'(sew) + 32'($signed(lmul));
    return 32'd1 << lg;
  endfunction

  // an element of width 8 << w bytes repeated over 32 bits
  function automatic logic [31:0] replicate(logic [31:0] x, logic [1:0] w);
    unique case (w)
      2'd0:    return {4{x[7:0]}};
      2'd1:    return {2{x[15:0]}};
      default: return x;
    endcase
  endfunction

  // vrgather.vx/.vi: every element is vs2[x[rs1] or uimm5] (0 past VLMAX). The LSU
  // executes these splats (one row per cycle through its write port) so that they
  // run beside the sequencer's arithmetic instead of in front of it.
  function automatic logic is_splat_op(vclass_e cls, valu_e op, vsrc_e src);
    return (cls == VC_PERM) && (op == VA_GATHER) && (src != SRC_V);
  endfunction

  // ---------------------------------------------------------------------------
  // Register groups an instruction touches, for the scoreboard and the reorder
  // buffer (over-approximated where exactness would cost more than it buys: a larger
  // group only makes an instruction wait). The helpers look at a few fields of a
  // whole instruction.
  // ---------------------------------------------------------------------------
  /* verilator lint_off UNUSEDSIGNAL */
  // registers of EMUL = 2^(eew - sew + lmul), at least 1
  function automatic logic [5:0] emul_regs(logic [1:0] eew, logic [1:0] sew, logic [2:0] lmul);
    logic signed [4:0] lg;
    lg = $signed({3'b0, eew}) - $signed({3'b0, sew}) + $signed({{2{lmul[2]}}, lmul});
    if (lg <= 0) return 6'd1;
    if (lg >= 3) return 6'd8;
    return 6'd1 << lg[1:0];
  endfunction

  // registers of the largest register group any operand of x spans
  function automatic logic [5:0] group_span(vinsn_t x);
    logic [5:0] g, s;
    vuop_t      u;
    u = x.uop;
    g = emul_regs(x.sew, x.sew, x.lmul);
    s = g;
    if (u.cls == VC_LOAD || u.cls == VC_STORE) begin
      if (emul_regs(u.eew, x.sew, x.lmul) > s) s = emul_regs(u.eew, x.sew, x.lmul);
      if (u.lsmode == LS_INDEXED && emul_regs(u.ieew, x.sew, x.lmul) > s) s = emul_regs(u.ieew, x.sew, x.lmul);
    end else if (u.eew != x.sew || u.a_frac != 2'd0 || u.b_frac || u.narrow || u.wred) begin
      s = g << 1;
    end
    if (u.nf != 3'd0 && 6'((32'(u.nf) + 1) * 32'(u.seg_regs)) > s) s = 6'((32'(u.nf) + 1) * 32'(u.seg_regs));
    if (u.whole && 6'(u.nregs) > s) s = 6'(u.nregs);
    return s;
  endfunction

  // multiply-adds read vd as their third operand
  function automatic logic is_multiply_add(valu_e op);
    return (op == VA_MACC) || (op == VA_NMSAC) || (op == VA_MADD) || (op == VA_NMSUB)
        || (op >= VF_MACC && op <= VF_NMSUB);
  endfunction

  function automatic logic uses_v0(vinsn_t x);
    return !x.uop.vm || x.uop.mask_op;
  endfunction

  function automatic logic has_destination(vinsn_t x);
    return !(x.uop.cls inside {VC_STORE, VC_MVXS, VC_CPOP, VC_FIRST});
  endfunction

  // destination registers [vd, destination_end)
  function automatic logic [5:0] destination_end(vinsn_t x);
    logic [5:0] n, e;
    n = (x.uop.cls inside {VC_CMP, VC_RED, VC_MVSX, VC_MASK}) ? 6'd1 : group_span(x);
    e = 6'(x.uop.vd) + n;
    return (e > 6'd32) ? 6'd32 : e;
  endfunction

  // registers [first, end) as a mask (bit r: vr)
  function automatic logic [31:0] register_range(logic [5:0] first, logic [5:0] end_);
    logic [32:0] below_end, below_first;
    below_end   = (33'd1 << end_) - 33'd1;
    below_first = (33'd1 << first) - 33'd1;
    return 32'(below_end & ~below_first);
  endfunction

  // does [a, a+an) overlap [lo, hi)?
  function automatic logic ranges_overlap(logic [5:0] a, logic [5:0] an, logic [5:0] lo, logic [5:0] hi);
    return (a < hi) && (lo < a + an);
  endfunction

  // does x read any register in [lo, hi)?
  function automatic logic reads_registers(vinsn_t x, logic [5:0] lo, logic [5:0] hi);
    logic [5:0] sp;
    logic       mem, r;
    vuop_t      u;
    u   = x.uop;
    sp  = group_span(x);
    mem = (u.cls == VC_LOAD) || (u.cls == VC_STORE);
    r   = 1'b0;
    if (!mem && !is_splat_op(u.cls, u.op, u.src) && (u.src == SRC_V || u.cls inside {VC_RED, VC_MASK, VC_PERM})) begin
      r = r | ranges_overlap(6'(u.vs1), sp, lo, hi);
    end
    if (!mem || u.lsmode == LS_INDEXED) r = r | ranges_overlap(6'(u.vs2), sp, lo, hi);
    if (u.cls == VC_STORE || is_multiply_add(u.op)) r = r | ranges_overlap(6'(u.vd), sp, lo, hi);
    if (uses_v0(x)) r = r | ranges_overlap(6'd0, 6'd1, lo, hi);
    return r;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

endpackage
