// One 32-bit integer lane: the element operations of the vector unit on a 32-bit
// slice of a DLEN row, holding four 8-bit, two 16-bit or one 32-bit element.
// Operand a is vs2, b is vs1 / the scalar / the immediate (already replicated per
// element), c is the old vd (multiply-adds). `cin_i` is the v0 bit of each element
// (carry in of vadc/vsbc/vmadc/vmsbc, selector of vmerge). Combinational.
module vec_lane
  import vec_pkg::*;
(
  input  valu_e       op_i,       // in: the element operation
  input  logic [1:0]  sew_i,      // in: element width (0: 8, 1: 16, 2: 32 bits)
  input  logic [31:0] a_i,        // in: operand a (vs2)
  input  logic [31:0] b_i,        // in: operand b (vs1 / scalar / immediate, replicated)
  input  logic [31:0] c_i,        // in: operand c (the old vd)
  input  logic [3:0]  cin_i,      // in: per element slot: its v0 bit
  input  logic        use_cin_i,  // in: carry in / merge selector is v0 (else 0 / all 1)
  input  logic [1:0]  vxrm_i,     // in: fixed-point rounding mode
  output logic [31:0] res_o,      // out: the result elements
  output logic [3:0]  cmp_o,      // out: per element slot: compare / carry-out bit
  output logic [3:0]  sat_o       // out: per element slot: saturated
);

  // Fixed-point rounding increment of v >> d (RVV vxrm: rnu, rne, rdn, rod).
  function automatic logic round_inc(logic [1:0] rm, logic [65:0] v, int unsigned d);
    logic [65:0] below;
    if (d == 0) return 1'b0;
    below = v & ((66'd1 << (d - 1)) - 66'd1);   // bits d-2..0
    unique case (rm)
      2'd0:    return v[d-1];
      2'd1:    return v[d-1] & ((below != '0) | v[d]);
      2'd2:    return 1'b0;
      default: return !v[d] & ((v[d-1] | (below != '0)));
    endcase
  endfunction

  // Result of one element of `ebits` bits held in the low bits of 32-bit words.
  function automatic logic [33:0] elem(valu_e op, int unsigned ebits, logic [31:0] a,
                                       logic [31:0] b, logic [31:0] c, logic cin,
                                       logic [1:0] xrm);
    logic [31:0]        emask;
    logic [31:0]        au, bu;
    logic signed [32:0] as, bs;
    logic [31:0]        r;
    logic               flag;      // compare result / carry out
    logic               sat;
    logic [4:0]         sh;
    logic signed [65:0] prod;
    logic [32:0]        wide;
    logic signed [33:0] swide;
    logic signed [32:0] smax, smin;
    emask = (ebits == 32) ? 32'hffff_ffff : ((32'd1 << ebits) - 32'd1);
    au    = a & emask;
    bu    = b & emask;
    as    = (ebits == 8) ? 33'($signed(a[7:0])) : (ebits == 16) ? 33'($signed(a[15:0]))
                                                                : 33'($signed(a));
    bs    = (ebits == 8) ? 33'($signed(b[7:0])) : (ebits == 16) ? 33'($signed(b[15:0]))
                                                                : 33'($signed(b));
    smax  = (33'sd1 <<< (ebits - 1)) - 33'sd1;
    smin  = -(33'sd1 <<< (ebits - 1));
    sh    = 5'(b & (ebits - 1));
    r     = '0;
    flag  = 1'b0;
    sat   = 1'b0;
    prod  = '0;
    wide  = '0;
    swide = '0;
    unique case (op)
      VA_ADD:  r = a + b;
      VA_SUB:  r = a - b;
      VA_RSUB: r = b - a;
      VA_ADC:  r = a + b + 32'(cin);
      VA_SBC:  r = a - b - 32'(cin);
      VA_MADC: begin
        wide = {1'b0, au} + {1'b0, bu} + 33'(cin);
        flag = wide[ebits];
      end
      VA_MSBC: begin
        wide = {1'b0, au} - {1'b0, bu} - 33'(cin);
        flag = wide[32];   // borrow: the 33-bit difference went negative
      end
      VA_AND:  r = a & b;
      VA_OR:   r = a | b;
      VA_XOR:  r = a ^ b;
      VA_SLL:  r = a << sh;
      VA_SRL:  r = au >> sh;
      VA_SRA:  r = 32'(as >>> sh);
      VA_MINU: r = (au < bu) ? a : b;
      VA_MIN:  r = (as < bs) ? a : b;
      VA_MAXU: r = (au > bu) ? a : b;
      VA_MAX:  r = (as > bs) ? a : b;
      VA_MERGE: r = cin ? b : a;
      VA_PASSA: r = a;
      VA_MUL:  r = a * b;
      VA_MULH: begin
        prod = 66'(as) * 66'(bs);
        r    = 32'(prod >>> ebits);
      end
      VA_MULHU: begin
        prod = $signed({34'b0, au}) * $signed({34'b0, bu});
        r    = 32'(prod >>> ebits);
      end
      VA_MULHSU: begin
        prod = 66'(as) * $signed({34'b0, bu});
        r    = 32'(prod >>> ebits);
      end
      VA_MACC:  r = b * a + c;
      VA_NMSAC: r = c - b * a;
      VA_MADD:  r = b * c + a;
      VA_NMSUB: r = a - b * c;
      VA_DIVU:  r = (bu == 0) ? 32'hffff_ffff : au / bu;
      VA_REMU:  r = (bu == 0) ? a : au % bu;
      VA_DIV: begin
        if (bs == 0) r = 32'hffff_ffff;
        else if (as == smin && bs == -33'sd1) r = a;
        else r = 32'(as / bs);
      end
      VA_REM: begin
        if (bs == 0) r = a;
        else if (as == smin && bs == -33'sd1) r = '0;
        else r = 32'(as % bs);
      end
      VA_SADDU: begin
        wide = {1'b0, au} + {1'b0, bu};
        sat  = wide[ebits];
        r    = sat ? emask : wide[31:0];
      end
      VA_SSUBU: begin
        sat = au < bu;
        r   = sat ? 32'd0 : au - bu;
      end
      VA_SADD, VA_SSUB: begin
        swide = (op == VA_SADD) ? 34'(as) + 34'(bs) : 34'(as) - 34'(bs);
        if (swide > 34'(smax)) begin
          sat = 1'b1;
          r   = 32'(smax);
        end else if (swide < 34'(smin)) begin
          sat = 1'b1;
          r   = 32'(smin);
        end else begin
          r = 32'(swide);
        end
      end
      VA_AADDU, VA_AADD, VA_ASUBU, VA_ASUB: begin
        unique case (op)
          VA_AADDU: prod = 66'({1'b0, au}) + 66'({1'b0, bu});
          VA_ASUBU: prod = 66'({1'b0, au}) - 66'({1'b0, bu});
          VA_AADD:  prod = 66'(as) + 66'(bs);
          default:  prod = 66'(as) - 66'(bs);
        endcase
        r = 32'(prod >>> 1) + 32'(round_inc(xrm, 66'(prod), 1));
      end
      VA_SSRL: begin
        prod = 66'({1'b0, au});
        r    = 32'(prod >> sh) + 32'(round_inc(xrm, 66'(prod), 32'(sh)));
      end
      VA_SSRA: begin
        prod = 66'(as);
        r    = 32'(prod >>> sh) + 32'(round_inc(xrm, 66'(prod), 32'(sh)));
      end
      VA_SMUL: begin
        prod  = 66'(as) * 66'(bs);
        swide = 34'(prod >>> (ebits - 1)) + 34'(round_inc(xrm, 66'(prod), ebits - 1));
        if (swide > 34'(smax)) begin
          sat = 1'b1;
          r   = 32'(smax);
        end else begin
          r = 32'(swide);
        end
      end
      VA_SEQ:  flag = (au == bu);
      VA_SNE:  flag = (au != bu);
      VA_SLTU: flag = (au < bu);
      VA_SLT:  flag = (as < bs);
      VA_SLEU: flag = (au <= bu);
      VA_SLE:  flag = (as <= bs);
      VA_SGTU: flag = (au > bu);
      VA_SGT:  flag = (as > bs);
      default: r = '0;
    endcase
    return {sat, flag, r & emask};
  endfunction

  logic [33:0] r8  [4];
  logic [33:0] r16 [2];
  logic [33:0] r32;
  logic [3:0]  cin;

  always_comb begin
    cin = use_cin_i ? cin_i : ((op_i == VA_MERGE) ? 4'b1111 : 4'b0000);
    for (int unsigned k = 0; k < 4; k++) begin
      r8[k] = elem(op_i, 8, 32'(a_i[8*k +: 8]), 32'(b_i[8*k +: 8]), 32'(c_i[8*k +: 8]), cin[k],
                   vxrm_i);
    end
    for (int unsigned k = 0; k < 2; k++) begin
      r16[k] = elem(op_i, 16, 32'(a_i[16*k +: 16]), 32'(b_i[16*k +: 16]),
                    32'(c_i[16*k +: 16]), cin[k], vxrm_i);
    end
    r32 = elem(op_i, 32, a_i, b_i, c_i, cin[0], vxrm_i);

    unique case (sew_i)
      2'd0: begin
        res_o = {r8[3][7:0], r8[2][7:0], r8[1][7:0], r8[0][7:0]};
        cmp_o = {r8[3][32], r8[2][32], r8[1][32], r8[0][32]};
        sat_o = {r8[3][33], r8[2][33], r8[1][33], r8[0][33]};
      end
      2'd1: begin
        res_o = {r16[1][15:0], r16[0][15:0]};
        cmp_o = {2'b00, r16[1][32], r16[0][32]};
        sat_o = {2'b00, r16[1][33], r16[0][33]};
      end
      default: begin
        res_o = r32[31:0];
        cmp_o = {3'b000, r32[32]};
        sat_o = {3'b000, r32[33]};
      end
    endcase
  end

endmodule
