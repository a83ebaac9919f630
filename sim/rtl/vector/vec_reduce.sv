// Row reductions of the sequencer (combinational): folds the active elements of one
// vs2 row into the running value (integer reductions, in element order; FP ones come
// from the lanes' chain), and counts and finds set bits of a mask row for vcpop.m /
// vfirst.m. vec_seq holds the running value between rows.
module vec_reduce
  import vec_pkg::*;
#(
  parameter int unsigned DLEN = 64,
  localparam int unsigned MaxElems = DLEN / 8
) (
  input  valu_e               op_i,           // in: the reduction's operation
  input  logic [1:0]          eew_i,          // in: source element width, log2(bytes)
  input  logic                widen_i,        // in: vwredsum[u]: accumulate at 2*SEW
  input  logic                signed_i,       // in: vwredsum: sign-extend the elements
  input  logic [MaxElems-1:0] active_i,       // in: element k of the row is in the body
  input  logic [DLEN-1:0]     bit_active_i,   // in: mask rows: bit b is in the body
  input  logic [DLEN-1:0]     rdata_a_i,      // in: the vs2 row
  input  logic [31:0]         init_i,         // in: running value before this row
  input  logic                fp_i,           // in: an FP reduction (the lanes' chain)
  input  logic [31:0]         fp_chain_i,     // in: the lanes' chained FP result
  input  logic [31:0]         row_i,          // in: row step (bit index base of vfirst)
  output logic [31:0]         accumulate_o,   // out: running value after this row
  output logic [31:0]         population_o,   // out: active set bits of the row (vcpop.m)
  output logic [31:0]         first_o,        // out: index of its lowest active set bit
  output logic                first_hit_o     // out: the row has an active set bit
);

  localparam int unsigned DlenLg = $clog2(DLEN);

  function automatic logic [31:0] reduce_op(valu_e op, int unsigned element_bits,
                                            logic [31:0] acc, logic [31:0] x);
    logic [31:0]        m;
    logic signed [32:0] sa, sx;
    m  = (element_bits == 32) ? 32'hffff_ffff : ((32'd1 << element_bits) - 32'd1);
    sa = (element_bits == 8) ? 33'($signed(acc[7:0]))
       : (element_bits == 16) ? 33'($signed(acc[15:0])) : 33'($signed(acc));
    sx = (element_bits == 8) ? 33'($signed(x[7:0]))
       : (element_bits == 16) ? 33'($signed(x[15:0])) : 33'($signed(x));
    unique case (op)
      VA_RSUM:  return (acc + x) & m;
      VA_RAND:  return (acc & x) & m;
      VA_ROR:   return (acc | x) & m;
      VA_RXOR:  return (acc ^ x) & m;
      VA_RMINU: return (((acc & m) < (x & m)) ? acc : x) & m;
      VA_RMIN:  return ((sa < sx) ? acc : x) & m;
      VA_RMAXU: return (((acc & m) > (x & m)) ? acc : x) & m;
      VA_RMAX:  return ((sa > sx) ? acc : x) & m;
      default:  return acc;
    endcase
  endfunction

  int unsigned element_bits;
  assign element_bits = 8 << eew_i;

  always_comb begin
    logic [31:0] a;
    a = init_i;
    for (int unsigned k = 0; k < MaxElems; k++) begin
      logic [31:0] x;
      x = 32'(rdata_a_i >> (k * element_bits));
      if (widen_i) begin   // widening sum: extend the SEW element, accumulate at 2*SEW
        x = (element_bits == 8) ? {{24{signed_i & x[7]}}, x[7:0]} : {{16{signed_i & x[15]}}, x[15:0]};
      end
      if (active_i[k]) a = reduce_op(op_i, widen_i ? 2 * element_bits : element_bits, a, x);
    end
    accumulate_o = fp_i ? fp_chain_i : a;
  end

  always_comb begin
    population_o = '0;
    first_o      = '0;
    first_hit_o  = 1'b0;
    for (int b = DLEN - 1; b >= 0; b--) begin
      if (bit_active_i[b] && rdata_a_i[b]) begin
        population_o = population_o + 32'd1;
        first_o      = (row_i << DlenLg) + 32'(b);
        first_hit_o  = 1'b1;
      end
    end
  end

endmodule
