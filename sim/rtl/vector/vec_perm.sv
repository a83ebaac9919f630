// Element-serial permutation datapath of the sequencer (combinational): for element
// index_i of a slide, gather, vcompress, viota or vmsbf/vmsif/vmsof it names the
// source rows to read, picks the source value and forms the destination write of
// that element. vec_seq steps index_i one element per cycle in StPerm and applies
// the write and the found/count updates.
//
// A gather with a scalar index (vrgather.vx/.vi, a splat) reads one source element
// for the whole instruction: vec_seq runs it row by row in StRun and replicates
// value_o over the row, so value_o and source_row_o hold for any index_i then.
module vec_perm
  import vec_pkg::*;
#(
  parameter int unsigned VLEN = 256,
  parameter int unsigned DLEN = 64
) (
  input  vuop_t           uop_i,         // in: the instruction's decoded fields
  input  logic [1:0]      eew_i,         // in: element width in the lanes, log2(bytes)
  input  logic [31:0]     rs1_i,         // in: x[rs1] (slide amount, scalar index, slide1 value)
  input  logic [31:0]     frs1_i,        // in: f[rs1] (vfslide1up/down value)
  input  logic [31:0]     vstart_i,      // in: first body element
  input  logic [31:0]     evl_i,         // in: effective vector length (body ends below it)
  input  logic [31:0]     vlmax_i,       // in: VLMAX = LMUL*VLEN/SEW (slide and gather range)
  input  logic [31:0]     index_i,       // in: element of this cycle
  input  logic            found_i,       // in: vmsbf/vmsif/vmsof saw their first set bit
  input  logic [31:0]     count_i,       // in: viota count / vcompress output position
  input  logic [DLEN-1:0] rdata_a_i,     // in: row source_row_o of vs2
  input  logic [DLEN-1:0] rdata_b_i,     // in: row index_row_o of vs1 (indices, vcompress mask)
  input  logic [VLEN-1:0] v0_i,          // in: v0, the write mask
  output logic [31:0]     source_row_o,  // out: row of vs2 (relative to vs2) to read
  output logic [31:0]     index_row_o,   // out: row of vs1 (relative to vs1) to read
  output logic [31:0]     value_o,       // out: the element value written (source or scalar)
  output logic            we_o,          // out: element index_i writes the destination
  output logic [31:0]     write_row_o,   // out: destination row (relative to vd)
  output logic [DLEN-1:0] wdata_o,       // out: destination row data
  output logic [DLEN-1:0] wbe_o,         // out: destination per-bit write enable
  output logic            found_set_o,   // out: vmsbf/vmsif/vmsof: the first set bit is here
  output logic            count_inc_o    // out: viota/vcompress: count one more element
);

  localparam int unsigned DlenLg = $clog2(DLEN);

  logic [31:0] element_mask;   // low SEW bits
  assign element_mask = (eew_i == 2'd0) ? 32'h0000_00ff
                      : (eew_i == 2'd1) ? 32'h0000_ffff : 32'hffff_ffff;

  logic        source_valid;   // source element index in range (else 0 / scalar)
  logic [31:0] source_index;
  logic        use_scalar;
  logic [31:0] gather_index;   // gather index value
  logic [31:0] offset;         // slide amount
  logic        active;
  logic        slide_write;
  assign offset = (uop_i.src == SRC_X) ? rs1_i : 32'(uop_i.imm);
  always_comb begin
    int unsigned index_bytes_each;
    logic [31:0] index_bytes;
    index_bytes_each = (uop_i.op == VA_GATHER16) ? 2 : (1 << eew_i);
    index_bytes      = index_i * index_bytes_each;
    gather_index     = 32'(rdata_b_i >> (8 * (index_bytes & (DLEN / 8 - 1))));
    if (uop_i.op == VA_GATHER16) gather_index = {16'b0, gather_index[15:0]};
    else if (uop_i.src != SRC_V) gather_index = offset;
    else gather_index = gather_index & element_mask;
  end
  always_comb begin
    logic mask_bit;
    mask_bit     = (index_i < VLEN) ? v0_i[index_i[$clog2(VLEN)-1:0]] : 1'b0;
    active       = (index_i >= vstart_i) && (index_i < evl_i) && (uop_i.vm || mask_bit);
    slide_write  = active;
    use_scalar   = 1'b0;
    source_valid = 1'b1;
    source_index = index_i;
    unique case (uop_i.op)
      VA_SLIDEUP: begin
        slide_write  = active && (index_i >= offset);
        source_index = index_i - offset;
      end
      VA_SLIDEDN: begin
        source_index = index_i + offset;
        source_valid = (offset < vlmax_i) && (index_i + offset < vlmax_i);
      end
      VA_SLIDE1UP: begin
        use_scalar   = (index_i == 32'd0);
        source_index = index_i - 32'd1;
      end
      VA_SLIDE1DN: begin
        use_scalar   = (index_i == evl_i - 32'd1);
        source_index = index_i + 32'd1;
      end
      VA_COMPRESS, VA_IOTA, VA_MSBF, VA_MSIF, VA_MSOF: ;   // source element i
      default: begin   // gathers
        source_index = gather_index;
        source_valid = (gather_index < vlmax_i);
      end
    endcase
  end

  logic [31:0] source_bytes;
  logic [31:0] destination_bytes;
  assign source_bytes      = source_index << eew_i;
  assign destination_bytes = index_i << eew_i;
  always_comb begin
    if (use_scalar)        value_o = (uop_i.src == SRC_F) ? frs1_i : rs1_i;
    else if (source_valid) value_o = 32'(rdata_a_i >> (8 * (source_bytes & (DLEN / 8 - 1))));
    else                   value_o = '0;
  end

  // element-serial mask ops: vmsbf/vmsif/vmsof, viota (vs2 bit i), vcompress (vs1 bit i)
  logic mask_serial;
  logic mask_bit;
  assign mask_serial = (uop_i.op == VA_MSBF) || (uop_i.op == VA_MSIF) || (uop_i.op == VA_MSOF)
                    || (uop_i.op == VA_IOTA) || (uop_i.op == VA_COMPRESS);
  assign mask_bit    = (uop_i.op == VA_COMPRESS) ? rdata_b_i[index_i[DlenLg-1:0]]
                                                 : rdata_a_i[index_i[DlenLg-1:0]];

  // source rows: bit i of vs2 for the mask ops, else the row of the source element;
  // vs1 holds the vcompress mask (bit i) or the gather index (element i)
  assign source_row_o = (mask_serial && uop_i.op != VA_COMPRESS) ? index_i >> DlenLg
                                                                 : source_bytes >> (DlenLg - 3);
  assign index_row_o  = (uop_i.op == VA_COMPRESS) ? index_i >> DlenLg
                      : ((uop_i.op == VA_GATHER16) ? (index_i << 1) : destination_bytes) >> (DlenLg - 3);

  // the destination write of element index_i
  always_comb begin
    logic [31:0] bit_offset, output_bytes;
    logic        result;
    bit_offset   = 8 * (destination_bytes & (DLEN / 8 - 1));
    output_bytes = count_i << eew_i;   // vcompress: where the next packed element goes
    result       = (uop_i.op == VA_MSBF) ? (!found_i && !mask_bit)
                 : (uop_i.op == VA_MSIF) ? !found_i : (!found_i && mask_bit);
    we_o        = slide_write;
    write_row_o = destination_bytes >> (DlenLg - 3);
    wdata_o     = DLEN'(value_o) << bit_offset;
    wbe_o       = DLEN'(element_mask) << bit_offset;
    found_set_o = 1'b0;
    count_inc_o = 1'b0;
    unique case (uop_i.op)
      VA_MSBF, VA_MSIF, VA_MSOF: begin
        we_o        = active;
        write_row_o = index_i >> DlenLg;
        wdata_o     = DLEN'(result) << index_i[DlenLg-1:0];
        wbe_o       = DLEN'(1) << index_i[DlenLg-1:0];
        found_set_o = active && mask_bit;
      end
      VA_IOTA: begin
        we_o        = active;
        wdata_o     = DLEN'(count_i) << bit_offset;
        count_inc_o = active && mask_bit;
      end
      VA_COMPRESS: begin
        we_o         = mask_bit;
        write_row_o  = output_bytes >> (DlenLg - 3);
        wdata_o      = DLEN'(value_o) << (8 * (output_bytes & (DLEN / 8 - 1)));
        wbe_o        = DLEN'(element_mask) << (8 * (output_bytes & (DLEN / 8 - 1)));
        count_inc_o  = mask_bit;
      end
      default: ;
    endcase
  end

  // The permutations read the operand, index, mask and scalar fields only.
  logic unused;
  assign unused = ^{uop_i};

endmodule
