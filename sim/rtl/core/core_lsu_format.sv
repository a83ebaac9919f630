// Load/store formatting: the address of a scalar load or store (rs1 + imm), its
// size and alignment, the store's byte lanes and data on the DataW-bit port, and
// the loaded value extracted from a response beat and sign- or zero-extended.
// Combinational; which access a response belongs to is the caller's business.
module core_lsu_format
  import core_pkg::*;
#(
  parameter int unsigned XLEN  = 32,
  parameter int unsigned DataW = 32,            // memory port width (>= XLEN)
  localparam int unsigned OffW = $clog2(DataW / 8)
) (
  // The load/store instruction being executed
  input  cls_e               class_i,           // its instruction class
  input  logic [2:0]         funct3_i,          // width and signedness
  input  logic [XLEN-1:0]    rs1_i,             // base address
  input  logic [XLEN-1:0]    imm_i,             // offset
  input  logic [XLEN-1:0]    rs2_i,             // x store data
  input  logic [31:0]        frs2_i,            // f store data (fsw)
  output logic               store_o,           // it is a store (sw.., fsw)
  output logic [1:0]         size_o,            // log2 of its size in bytes
  output logic [XLEN-1:0]    addr_o,            // rs1 + imm
  output logic               misaligned_o,      // addr_o is not a multiple of the size

  // Store data on the port, placed by the byte offset of the request
  input  logic [OffW-1:0]    store_offset_i,    // byte offset in the beat
  output logic [63:0]        store_data_o,      // the stored bytes, low-aligned (trace)
  output logic [DataW/8-1:0] store_strb_o,      // byte enables (none for a load)
  output logic [DataW-1:0]   store_wdata_o,     // data on the port

  // A load response
  input  logic [DataW-1:0]   resp_data_i,       // the response beat
  input  logic               load_unsigned_i,   // lbu/lhu/lwu
  input  logic [1:0]         load_size_i,       // log2 bytes
  input  logic [OffW-1:0]    load_offset_i,     // byte offset in the beat
  output logic [63:0]        load_value_o       // extended to 64 bits
);

  logic [63:0]      store_raw;    // rs2 or frs2, before masking to the size
  logic [DataW-1:0] load_beat;    // the response shifted to the loaded bytes
  logic [63:0]      load_raw;

  assign store_o = (class_i == ClsStore) || (class_i == ClsFstore);
  assign size_o  = (class_i == ClsFload || class_i == ClsFstore) ? 2'd2 : funct3_i[1:0];
  assign addr_o  = rs1_i + imm_i;
  always_comb begin
    unique case (size_o)
      2'd0:    misaligned_o = 1'b0;
      2'd1:    misaligned_o = addr_o[0];
      2'd2:    misaligned_o = addr_o[1:0] != 2'b00;
      default: misaligned_o = addr_o[2:0] != 3'b000;
    endcase
  end

  assign store_raw = (class_i == ClsFstore) ? 64'(frs2_i) : 64'(rs2_i);
  always_comb begin
    unique case (size_o)
      2'd0:    store_data_o = {56'b0, store_raw[7:0]};
      2'd1:    store_data_o = {48'b0, store_raw[15:0]};
      2'd2:    store_data_o = {32'b0, store_raw[31:0]};
      default: store_data_o = store_raw;
    endcase
  end
  assign store_strb_o  = store_o ? (DataW/8)'(((1 << (1 << size_o)) - 1)) << store_offset_i : '0;
  assign store_wdata_o = DataW'(store_data_o) << {store_offset_i, 3'b000};

  assign load_beat = resp_data_i >> {load_offset_i, 3'b000};
  assign load_raw  = 64'(load_beat);
  always_comb begin
    unique case ({load_unsigned_i, load_size_i})
      3'b000:  load_value_o = 64'($signed(load_raw[7:0]));
      3'b001:  load_value_o = 64'($signed(load_raw[15:0]));
      3'b010:  load_value_o = 64'($signed(load_raw[31:0]));
      3'b100:  load_value_o = {56'b0, load_raw[7:0]};
      3'b101:  load_value_o = {48'b0, load_raw[15:0]};
      3'b110:  load_value_o = {32'b0, load_raw[31:0]};
      default: load_value_o = load_raw;
    endcase
  end

  // Above 64 bits the beat holds bytes of other accesses.
  logic unused;
  assign unused = ^{funct3_i[2], load_beat};

endmodule
