// Read and write sets of a (legal) Gemmini command, for gemmini_unit's ROB
// (UNIT.md, "The top"): the scratchpad / accumulator rows it reads and writes
// and the DRAM bytes it reads (mvin) or writes (mvout), as ranges that cover
// every access the model makes (conservative: a larger range only makes a
// command wait longer).
//
// The sets depend on config state (block stride, pixel repeats, strides, the
// store's pooling geometry, config_ex's A and C strides), kept here in program
// order: cmd_* is the command being allocated now, and update_i (its
// allocation) applies a config command's fields for the commands after it.
//
//   mvin    writes rows base - (repeats-1) .. base + (blocks-1)*block_stride + rows;
//           reads DRAM dram .. dram + (rows-1)*stride + cols*bytes (not at dram 0)
//   mvout   reads the rows it stores (pooled / 1-D: orows*ocols); writes DRAM
//   preload reads B/D rows [bd, bd+DIM); writes C rows [c, c + max(DIM, (rows-1)*cs+1))
//           (the result lands later; exec reports the preload done when it has)
//   compute reads A rows [a, a + (DIM-1)*a_stride + 1) and B/D rows [b, b+DIM)
module gemmini_unit_sets
  import gemmini_unit_pkg::*;
#(
  parameter int unsigned Dim = 4
) (
  input  logic        clk_i,     // clock
  input  logic        rst_ni,    // asynchronous reset, active low
  input  logic [6:0]  funct_i,   // the command allocated now: its funct
  input  logic [63:0] rs1_i,     // its rs1
  input  logic [63:0] rs2_i,     // its rs2
  input  logic        update_i,  // it is allocated: a config command updates the state
  output gm_sets_t    sets_o     // its read and write sets (rows, DRAM bytes)
);

  localparam logic [31:0] Garbage = 32'hFFFF_FFFF;
  localparam logic [31:0] D32 = 32'(Dim);

  typedef struct packed {
    logic [63:0] stride;
    logic        shrink;
    logic [15:0] block_stride;
    logic [7:0]  reps;
  } ld_t;

  ld_t [2:0]   ld_q;
  logic [15:0] a_stride_q, c_stride_q;
  logic [31:0] st_stride_q;
  logic [1:0]  pool_stride_q, pool_size_q;
  logic [7:0]  pool_out_dim_q, porows_q, pocols_q, orows_q, ocols_q;

  logic [31:0] raw1, raw2;
  logic [15:0] cols2, rows2;
  assign raw1  = rs1_i[31:0];
  assign raw2  = rs2_i[31:0];
  assign cols2 = rs2_i[47:32];
  assign rows2 = rs2_i[63:48];

  function automatic gm_rows_t rows(logic [31:0] raw, logic [31:0] span);
    gm_rows_t r;
    r.v   = raw != Garbage && span != '0;
    r.acc = raw[31];
    r.lo  = 32'(raw[25:0]);
    r.hi  = 32'(raw[25:0]) + span;
    return r;
  endfunction

  always_comb begin
    int unsigned idx;
    logic [31:0] blocks, span, nrows, lo;
    logic [39:0] pitch, eb;
    sets_o = '0;
    idx    = 0;
    {blocks, span, nrows, lo} = '0;
    {pitch, eb} = '0;
    unique case (funct_i)
      7'd2, 7'd1, 7'd14: begin  // mvin, mvin2, mvin3
        idx = funct_i == 7'd2 ? 0 : (funct_i == 7'd1 ? 1 : 2);
        if (raw2 != Garbage && rows2 != '0 && cols2 != '0) begin
          blocks = (32'(cols2) + D32 - 1) / D32;
          sets_o.wr = rows(raw2, (blocks - 1) * 32'(ld_q[idx].block_stride) + 32'(rows2));
          lo = 32'(ld_q[idx].reps) - 1;  // pixel repeats write rows above the first
          sets_o.wr.lo = sets_o.wr.lo >= lo ? sets_o.wr.lo - lo : '0;
          eb = (raw2[31] && !ld_q[idx].shrink) ? 40'd4 : 40'd1;
          sets_o.drd.v  = rs1_i != '0;
          sets_o.drd.lo = 40'(rs1_i[31:0]);
          sets_o.drd.hi = 40'(rs1_i[31:0]) + (40'(rows2) - 1) * 40'(ld_q[idx].stride[31:0]) + 40'(cols2) * eb;
        end
      end
      7'd3: begin  // mvout
        if (raw2 != Garbage && cols2 != '0 && !(rows2 == '0 && pool_stride_q == '0)) begin
          eb = (raw2[31] && raw2[29]) ? 40'd4 : 40'd1;
          if (pool_stride_q != '0) begin
            sets_o.rd0 = rows(raw2, 32'(orows_q) * 32'(ocols_q));
            pitch = (40'(porows_q) - 1) * 40'(pool_out_dim_q) + 40'(pocols_q) - 1;
            sets_o.dwr.v = porows_q != '0 && pocols_q != '0;
          end else if (pool_size_q != '0) begin
            nrows = 32'(orows_q) * 32'(ocols_q);
            sets_o.rd0 = rows(raw2, nrows);
            pitch = (40'(orows_q) - 1) * 40'(pool_out_dim_q) + 40'(ocols_q) - 1;
            sets_o.dwr.v = nrows != '0;
          end else begin
            blocks = (32'(cols2) + D32 - 1) / D32;
            sets_o.rd0 = rows(raw2, (blocks - 1) * D32 + 32'(rows2));
            pitch = 40'(rows2) - 1;
            sets_o.dwr.v = 1'b1;
          end
          sets_o.dwr.lo = 40'(rs1_i[31:0]);
          sets_o.dwr.hi = 40'(rs1_i[31:0]) + pitch * 40'(st_stride_q) + 40'(cols2) * eb;
        end
      end
      7'd6: begin  // preload
        sets_o.rd0 = rows(raw1, D32);
        if (rows2 != '0 && cols2 != '0) begin
          span = (32'(rows2) - 1) * 32'(c_stride_q) + 1;
          sets_o.wr = rows(raw2, span > D32 ? span : D32);
        end
      end
      7'd4, 7'd5: begin  // computes
        sets_o.rd0 = rows(raw1, (D32 - 1) * 32'(a_stride_q) + 1);
        sets_o.rd1 = rows(raw2, D32);
      end
      default: ;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned i = 0; i < 3; i++) begin
        ld_q[i].stride       <= 64'(Dim);
        ld_q[i].shrink       <= 1'b0;
        ld_q[i].block_stride <= 16'(Dim);
        ld_q[i].reps         <= 8'd1;
      end
      a_stride_q     <= 16'd1;
      c_stride_q     <= 16'd1;
      st_stride_q    <= 32'(Dim);
      pool_stride_q  <= '0;
      pool_size_q    <= '0;
      pool_out_dim_q <= '0;
      porows_q       <= '0;
      pocols_q       <= '0;
      orows_q        <= '0;
      ocols_q        <= '0;
    end else if (update_i && funct_i == 7'd0) begin
      unique case (rs1_i[1:0])
        2'd0: begin
          a_stride_q <= rs1_i[31:16];
          c_stride_q <= rs2_i[63:48];
        end
        2'd1: begin
          ld_q[rs1_i[4:3]].stride       <= rs2_i;
          ld_q[rs1_i[4:3]].shrink       <= rs1_i[2];
          ld_q[rs1_i[4:3]].block_stride <= rs1_i[31:16];
          ld_q[rs1_i[4:3]].reps         <= rs1_i[15:8] == '0 ? 8'd1 : rs1_i[15:8];
        end
        2'd2: begin
          pool_stride_q <= rs1_i[5:4];
          pool_size_q   <= rs1_i[7:6];
          if (rs1_i[5:4] != '0) begin
            porows_q <= rs1_i[39:32];
            pocols_q <= rs1_i[47:40];
          end
          if (rs1_i[5:4] != '0 || rs1_i[7:6] != '0) begin
            pool_out_dim_q <= rs1_i[31:24];
            orows_q        <= rs1_i[55:48];
            ocols_q        <= rs1_i[63:56];
          end
          st_stride_q <= rs2_i[31:0];
        end
        default: ;
      endcase
    end
  end

endmodule
