// Commit-trace monitor for vector results (sim/tb/commit_trace.md):
// `@<seq> v<n> 0x<VLEN/4 digits>` for every register of a vector instruction's
// destination group, and `@<seq>[ mem 0x<addr> 0x<bytes>]*` with every byte a
// vector store wrote. The instruction word and vtype are kept by sequence number
// at issue; one cycle after the completion (sim/rtl/vector/README.md: the VRF is
// stable then) the group is read from the vector unit's register file through the
// hierarchy. Instantiated by tb_top for vector SoCs only (this file is compiled
// only for them: the hierarchical reference needs vec_unit). Does nothing unless
// active_i (+trace given). Store bytes are taken from the vector memory port
// (tb_top.amem_req_*: accepted write beats, byte enables) and attributed to the
// instruction issuing requests in the load/store unit (u_lsu.ins_q.seq); the C++ side
// keeps them per sequence number until the store completes.
module tb_vtrace #(
  parameter int unsigned VLEN = 256,
  parameter int unsigned DLEN = 64
) (
  input logic        clk_i,
  input logic        active_i,
  input logic        req_fire_i,
  input logic [7:0]  req_seq_i,
  input logic [31:0] req_insn_i,
  input logic [31:0] req_vtype_i,
  input logic        cmp_valid_i,
  input logic [7:0]  cmp_seq_i
);
  import "DPI-C" function void tb_vreg_begin(input int seq, input int vreg);
  import "DPI-C" function void tb_vreg_word(input int word);
  import "DPI-C" function void tb_vreg_end();
  import "DPI-C" function void tb_vstore_clear(input int seq);
  import "DPI-C" function void tb_vstore_byte(input int seq, input longint addr, input int value);
  import "DPI-C" function void tb_vstore_end(input int seq);

  localparam int unsigned RowsPerReg  = VLEN / DLEN;
  localparam int unsigned WordsPerRow = DLEN / 32;

  logic [31:0] vt_insn  [256];
  logic [31:0] vt_vtype [256];
  logic        vt_cmp_q = 1'b0;
  logic [7:0]  vt_seq_q = '0;

  // Accepted write beats of the vector memory port (up to 512 bits wide).
  logic         st_fire;
  logic [31:0]  st_addr;
  logic [511:0] st_wdata;
  logic [63:0]  st_strb;
  logic [7:0]   st_seq;
  assign st_fire  = tb_top.amem_req_valid && tb_top.amem_req_ready && tb_top.amem_req_we;
  assign st_addr  = tb_top.amem_req_addr;
  assign st_wdata = 512'(tb_top.amem_req_wdata);
  assign st_strb  = 64'(tb_top.amem_req_wstrb);
  assign st_seq   = tb_top.u_soc.g_vector.u_acc.u_lsu.ins_q.seq;   // the issuing instruction

  function automatic logic is_vstore(input logic [31:0] insn);
    return insn[6:0] == 7'h27;  // STORE-FP opcode: on the coprocessor port only vector stores
  endfunction

  // Destination registers of a vector instruction: first register and count
  // (0 = writes no vector register: stores, vsetvl, vmv.x.s, vfmv.f.s, vcpop, vfirst).
  function automatic void vdest(input logic [31:0] insn, input logic [31:0] vtype,
                                output int first, output int count);
    logic [6:0] opc    = insn[6:0];
    logic [2:0] f3     = insn[14:12];
    logic [5:0] f6     = insn[31:26];
    logic [4:0] vs1    = insn[19:15];
    int         lmul_l = (vtype[2] ? int'(vtype[2:0]) - 8 : int'(vtype[2:0]));  // log2 LMUL
    int         sew_l  = int'(vtype[5:3]) + 3;                                   // log2 SEW
    int         nf     = int'(insn[31:29]) + 1;
    int         emul_l;
    int         eew_l;
    first = int'(insn[11:7]);
    count = 0;
    emul_l = lmul_l;  // the usual destination group: LMUL registers
    if (opc == 7'h07) begin  // vector loads
      case (f3)
        3'd0: eew_l = 3;
        3'd5: eew_l = 4;
        3'd6: eew_l = 5;
        default: eew_l = 6;
      endcase
      if (insn[27:26] == 2'b00 && insn[24:20] == 5'h08) begin  // whole-register load
        count = nf;
        return;
      end
      if (insn[27:26] == 2'b00 && insn[24:20] == 5'h0b) begin  // vlm.v
        count = 1;
        return;
      end
      // unit-stride / strided: EMUL = EEW/SEW * LMUL; indexed: data EMUL = LMUL
      if (insn[26] == 1'b0) emul_l = eew_l - sew_l + lmul_l;
      count = (emul_l > 0 ? (1 << emul_l) : 1) * nf;
      return;
    end
    if (opc != 7'h57 || f3 == 3'd7) return;  // stores, vsetvl*, not vector
    unique case (f3)
      3'd0, 3'd3, 3'd4: begin  // OPIVV / OPIVI / OPIVX
        if (f6 == 6'h11 || f6 == 6'h13 || (f6 >= 6'h18 && f6 <= 6'h1f)) begin  // vmadc/vmsbc, compares
          count = 1;
          return;
        end
        if (f6 == 6'h30 || f6 == 6'h31) begin  // vwredsum[u]
          count = 1;
          return;
        end
        if (f3 == 3'd3 && f6 == 6'h27) begin  // vmv<nr>r.v
          count = int'(vs1) + 1;
          return;
        end
      end
      3'd2, 3'd6: begin  // OPMVV / OPMVX
        if (f3 == 3'd2 && f6 == 6'h10) return;  // vmv.x.s, vcpop.m, vfirst.m
        if (f6 <= 6'h07 && f3 == 3'd2) begin  // reductions
          count = 1;
          return;
        end
        if (f3 == 3'd6 && f6 == 6'h10) begin  // vmv.s.x
          count = 1;
          return;
        end
        if (f3 == 3'd2 && f6 >= 6'h18 && f6 <= 6'h1f) begin  // mask logical
          count = 1;
          return;
        end
        if (f3 == 3'd2 && f6 == 6'h14 && vs1 <= 5'd3) begin  // vmsbf/vmsof/vmsif
          count = 1;
          return;
        end
        if (f6 >= 6'h30) emul_l = lmul_l + 1;  // widening
      end
      3'd1, 3'd5: begin  // OPFVV / OPFVF
        if (f3 == 3'd1 && f6 == 6'h10) return;  // vfmv.f.s
        if (f3 == 3'd5 && f6 == 6'h10) begin  // vfmv.s.f
          count = 1;
          return;
        end
        if (f3 == 3'd1 && ((f6 <= 6'h07 && f6[0]) || f6 == 6'h31 || f6 == 6'h33)) begin  // reductions
          count = 1;
          return;
        end
        if (f6 >= 6'h18 && f6 <= 6'h1f) begin  // compares
          count = 1;
          return;
        end
        if (f6 >= 6'h30) emul_l = lmul_l + 1;  // widening
        if (f3 == 3'd1 && f6 == 6'h12 && vs1 >= 5'd8 && vs1 < 5'd16) emul_l = lmul_l + 1;  // vfwcvt
      end
      default: ;
    endcase
    count = emul_l > 0 ? (1 << emul_l) : 1;
  endfunction

  always_ff @(posedge clk_i) begin
    if (active_i) begin
      if (req_fire_i) begin
        vt_insn[req_seq_i]  <= req_insn_i;
        vt_vtype[req_seq_i] <= req_vtype_i;
        if (is_vstore(req_insn_i)) tb_vstore_clear(int'(req_seq_i));
      end
      if (st_fire) begin
        for (int b = 0; b < 64; b++) begin
          if (st_strb[b]) tb_vstore_byte(int'(st_seq), longint'(st_addr) + longint'(b), int'(st_wdata[b*8 +: 8]));
        end
      end
      vt_cmp_q <= cmp_valid_i;
      vt_seq_q <= cmp_seq_i;
      if (vt_cmp_q) begin
        int first, count;
        logic [DLEN-1:0] row;
        if (is_vstore(vt_insn[vt_seq_q])) tb_vstore_end(int'(vt_seq_q));
        vdest(vt_insn[vt_seq_q], vt_vtype[vt_seq_q], first, count);
        for (int r = first; r < first + count && r < 32; r++) begin
          tb_vreg_begin(int'(vt_seq_q), r);
          for (int k = 0; k < int'(RowsPerReg); k++) begin
            row = tb_top.u_soc.g_vector.u_acc.u_vrf.mem_q[r * int'(RowsPerReg) + k];
            for (int w = 0; w < int'(WordsPerRow); w++) tb_vreg_word(int'(row[w*32 +: 32]));
          end
          tb_vreg_end();
        end
      end
    end
  end

endmodule
