// Operand rows and element activity of one row step of the sequencer
// (combinational): which elements of step step_i are in the body and enabled by the
// mask, which bits for the classes that walk 1-bit elements, the v0 bits the lanes
// use as carries, operand a (vs2) and operand b (vs1, the scalar, the immediate or
// the element index) as DLEN-bit rows at the lanes' element width, narrow sources
// of widening forms and extensions sign- or zero-extended on the way.
module vec_operands
  import vec_pkg::*;
#(
  parameter int unsigned VLEN = 256,
  parameter int unsigned DLEN = 64,
  localparam int unsigned MaxElems = DLEN / 8
) (
  input  vuop_t               uop_i,          // in: the instruction's decoded fields
  input  logic [1:0]          eew_i,          // in: element width in the lanes, log2(bytes)
  input  logic                bitwise_i,      // in: a class walking 1-bit elements (mask ops)
  input  logic [31:0]         elements_lg_i,  // in: log2 of the elements per row
  input  logic [31:0]         step_i,         // in: row step
  input  logic [31:0]         vstart_i,       // in: first body element
  input  logic [31:0]         evl_i,          // in: effective vector length (body ends below it)
  input  logic [31:0]         rs1_i,          // in: x[rs1] (.vx forms)
  input  logic [31:0]         frs1_i,         // in: f[rs1] (.vf forms)
  input  logic [DLEN-1:0]     rdata_a_i,      // in: the vs2 row
  input  logic [DLEN-1:0]     rdata_b_i,      // in: the vs1 row
  input  logic [VLEN-1:0]     v0_i,           // in: v0, the write mask
  output logic [MaxElems-1:0] active_o,       // out: element k of the row is written
  output logic [MaxElems-1:0] v0_bits_o,      // out: v0 bit of element k
  output logic [DLEN-1:0]     bit_active_o,   // out: bitwise classes: bit b is written
  output logic [DLEN-1:0]     a_row_o,        // out: operand a row
  output logic [DLEN-1:0]     b_row_o         // out: operand b row
);

  localparam int unsigned Lanes  = DLEN / 32;
  localparam int unsigned DlenLg = $clog2(DLEN);

  // Narrow source row -> destination-width elements: part `part` of the row
  // (1/2^frac of it) holds this step's elements at EEW = dst >> frac.
  function automatic logic [DLEN-1:0] widen_row(logic [DLEN-1:0] row, logic [1:0] frac,
                                                logic [31:0] part, logic [1:0] deew, logic sgn);
    logic [DLEN-1:0] src;
    logic [DLEN-1:0] r;
    src = row >> (part * (DLEN >> frac));
    r   = row;
    if (frac != 2'd0) begin
      r = '0;
      if (deew == 2'd1) begin
        for (int unsigned k = 0; k < DLEN / 16; k++) r[16*k +: 16] = {{8{sgn & src[8*k+7]}}, src[8*k +: 8]};
      end else if (frac == 2'd1) begin
        for (int unsigned k = 0; k < DLEN / 32; k++) r[32*k +: 32] = {{16{sgn & src[16*k+15]}}, src[16*k +: 16]};
      end else begin
        for (int unsigned k = 0; k < DLEN / 32; k++) r[32*k +: 32] = {{24{sgn & src[8*k+7]}}, src[8*k +: 8]};
      end
    end
    return r;
  endfunction

  always_comb begin
    active_o     = '0;
    v0_bits_o    = '0;
    bit_active_o = '0;
    for (int unsigned k = 0; k < MaxElems; k++) begin
      logic [31:0] j;
      j = (step_i << elements_lg_i) + 32'(k);
      if (32'(k) < (32'd1 << elements_lg_i) && !bitwise_i) begin
        v0_bits_o[k] = (j < VLEN) ? v0_i[j[$clog2(VLEN)-1:0]] : 1'b0;
        active_o[k]  = (j >= vstart_i) && (j < evl_i) && (uop_i.vm || uop_i.mask_op || v0_bits_o[k]);
      end
    end
    for (int unsigned b = 0; b < DLEN; b++) begin
      logic [31:0] j;
      logic        m;
      j = (step_i << DlenLg) + 32'(b);
      m = (j < VLEN) ? v0_i[j[$clog2(VLEN)-1:0]] : 1'b0;
      bit_active_o[b] = bitwise_i && (j >= vstart_i) && (j < evl_i) && (uop_i.vm || m);
    end
  end

  // operand b row
  always_comb begin
    logic [31:0] s;
    s = (uop_i.src == SRC_X) ? rs1_i : (uop_i.src == SRC_F) ? frs1_i : 32'($signed(uop_i.imm));
    if (uop_i.b_frac && uop_i.src == SRC_X) begin   // widening .vx: x[rs1] at SEW, extended
      s = (eew_i == 2'd1) ? {{24{uop_i.b_sgn & s[7]}}, s[7:0]} : {{16{uop_i.b_sgn & s[15]}}, s[15:0]};
    end
    if (uop_i.vid) begin
      b_row_o = '0;
      for (int unsigned k = 0; k < MaxElems; k++) begin
        if (32'(k) < (32'd1 << elements_lg_i)) begin
          logic [31:0] j;
          j = (step_i << elements_lg_i) + 32'(k);
          unique case (eew_i)
            2'd0:    b_row_o[8*k +: 8] = j[7:0];
            2'd1:    if (k < DLEN / 16) b_row_o[16*k +: 16] = j[15:0];
            default: if (k < DLEN / 32) b_row_o[32*k +: 32] = j;
          endcase
        end
      end
    end else if (uop_i.src == SRC_V) begin
      b_row_o = widen_row(rdata_b_i, {1'b0, uop_i.b_frac}, step_i & 32'(uop_i.b_frac), eew_i, uop_i.b_sgn);
    end else begin
      b_row_o = {Lanes{replicate(s, eew_i)}};
    end
  end

  // operand a (vs2), widened for widening ops and extensions
  assign a_row_o = widen_row(rdata_a_i, uop_i.a_frac, step_i & ((32'd1 << uop_i.a_frac) - 32'd1), eew_i, uop_i.a_sgn);

  // The operand rows use the source and extension fields only.
  logic unused;
  assign unused = ^{uop_i};

endmodule
