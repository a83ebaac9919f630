// Narrowing pack of the sequencer (combinational): the lanes work on one 2*SEW
// source row, and this packs their results to SEW (clipped for vnclip[u], with the
// saturation flag) into the half of the destination row that step half_i fills.
module vec_narrow #(
  parameter int unsigned DLEN = 64,
  localparam int unsigned MaxElems = DLEN / 8
) (
  input  logic [DLEN-1:0]     lanes_i,    // in: the lanes' 2*SEW results
  input  logic [1:0]          eew_i,      // in: lane element width (2*SEW), log2(bytes)
  input  logic                clip_i,     // in: vnclip[u]: saturate to SEW
  input  logic                signed_i,   // in: signed clipping (vnclip)
  input  logic [MaxElems-1:0] active_i,   // in: element k of the source row is in the body
  input  logic                half_i,     // in: the upper half of the destination row
  output logic [DLEN-1:0]     wdata_o,    // out: destination row data
  output logic [DLEN-1:0]     wbe_o,      // out: destination per-bit write enable
  output logic                sat_o       // out: an active element saturated
);

  // clip a 2*SEW lane result to SEW: {saturated, value}
  function automatic logic [16:0] clip_element(logic [31:0] v, logic [1:0] wide_eew, logic clip,
                                               logic sgn);
    logic [31:0] umax, smax, smin;
    logic [31:0] sv;
    umax = (wide_eew == 2'd1) ? 32'h0000_00ff : 32'h0000_ffff;
    smax = (wide_eew == 2'd1) ? 32'h0000_007f : 32'h0000_7fff;
    smin = (wide_eew == 2'd1) ? 32'hffff_ff80 : 32'hffff_8000;
    sv   = (wide_eew == 2'd1) ? 32'($signed(v[15:0])) : v;
    if (clip && !sgn && v > umax) return {1'b1, umax[15:0]};
    if (clip && sgn && $signed(sv) > $signed(smax)) return {1'b1, smax[15:0]};
    if (clip && sgn && $signed(sv) < $signed(smin)) return {1'b1, smin[15:0]};
    return {1'b0, v[15:0]};
  endfunction

  always_comb begin
    logic [DLEN/2-1:0] packed_data, packed_be;
    logic [16:0]       c;
    packed_data = '0;
    packed_be   = '0;
    sat_o       = 1'b0;
    c           = '0;
    for (int unsigned k = 0; k < DLEN / 16; k++) begin
      if (eew_i == 2'd1) begin   // 16 -> 8
        c                    = clip_element({16'b0, lanes_i[16*k +: 16]}, eew_i, clip_i, signed_i);
        packed_data[8*k +: 8] = c[7:0];
        packed_be[8*k +: 8]   = {8{active_i[k]}};
        sat_o                 = sat_o | (c[16] & active_i[k]);
      end else if (k < DLEN / 32) begin   // 32 -> 16
        c                       = clip_element(lanes_i[32*k +: 32], eew_i, clip_i, signed_i);
        packed_data[16*k +: 16] = c[15:0];
        packed_be[16*k +: 16]   = {16{active_i[k]}};
        sat_o                   = sat_o | (c[16] & active_i[k]);
      end
    end
    wdata_o = half_i ? {packed_data, (DLEN/2)'(0)} : {(DLEN/2)'(0), packed_data};
    wbe_o   = half_i ? {packed_be, (DLEN/2)'(0)} : {(DLEN/2)'(0), packed_be};
  end

endmodule
