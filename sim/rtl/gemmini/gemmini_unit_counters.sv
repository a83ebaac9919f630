// The counter instruction of the Gemmini unit (funct 126; gemmini_unit.sv,
// UNIT.md "Counters"): CounterFile's semantics, eight counters each counting one
// event of the RTL (or, external, the DMA's bytes read / written), a snapshot,
// reset and reconfiguration. Values differ from the model's by design: they count
// what this RTL does.
module gemmini_unit_counters #(
  parameter int unsigned LenW = 7
) (
  input  logic            clk_i,           // in: clock
  input  logic            rst_ni,          // in: asynchronous reset, active low
  // the counter instruction
  input  logic            fire_i,          // in: the counter instruction executes (rs1 below)
  input  logic [63:0]     rs1_i,           // in: its rs1: reset, snapshot, counter index, event
  output logic [63:0]     value_o,         // out: the indexed counter (or its snapshot): rd
  // events of this cycle
  input  logic [1:0]      mvin_rows_i,     // in: rows the load controller writes (scratchpad, accumulator)
  input  logic [1:0]      mvout_rows_i,    // in: rows the store controller reads (scratchpad, accumulator)
  input  logic            mesh_busy_i,     // in: a beat is inside the array
  input  logic            dma_read_i,      // in: the DMA takes a read request
  input  logic            mem_response_i,  // in: the memory answers a beat
  input  logic            mem_write_i,     // in: the memory takes a write beat
  input  logic            dma_write_i,     // in: the DMA takes a write request
  input  logic [LenW-1:0] bytes_read_i,    // in: bytes of read responses accepted
  input  logic [LenW-1:0] bytes_written_i  // in: bytes of the write request taken (0 if none)
);

  logic [31:0] event_inc [64];
  logic [31:0] ext_bytes_rd, ext_bytes_wr;
  always_comb begin
    for (int unsigned e = 0; e < 64; e++) event_inc[e] = '0;
    event_inc[1]  = 32'(mvin_rows_i[0]) + 32'(mvin_rows_i[1]);    // mvin rows written
    event_inc[9]  = event_inc[1];
    event_inc[2]  = 32'(mvout_rows_i[0]) + 32'(mvout_rows_i[1]);  // mvout rows read
    event_inc[12] = event_inc[2];
    event_inc[3]  = 32'(mesh_busy_i);                              // mesh busy cycles
    event_inc[24] = 32'(mesh_busy_i);
    event_inc[16] = 32'(dma_read_i);                               // DMA read requests
    event_inc[17] = event_inc[16];
    event_inc[45] = event_inc[16];
    event_inc[18] = 32'(mem_response_i);                           // memory beats answered
    event_inc[21] = 32'(mem_write_i);                              // write beats
    event_inc[46] = 32'(dma_write_i);                              // DMA write requests
    ext_bytes_rd = 32'(bytes_read_i);
    ext_bytes_wr = 32'(bytes_written_i);
  end

  logic [6:0]  counter_event_q [8];  // bit 6: external
  logic [31:0] counter_q [8];
  logic [31:0] snapshot_q [8];
  logic        snapshot_valid_q;
  logic [2:0]  counter_index;
  assign counter_index = rs1_i[6:4];
  assign value_o = 64'(snapshot_valid_q ? snapshot_q[counter_index] : counter_q[counter_index]);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      snapshot_valid_q <= 1'b0;
      for (int unsigned i = 0; i < 8; i++) begin
        counter_event_q[i] <= '0;
        counter_q[i]       <= '0;
        snapshot_q[i]      <= '0;
      end
    end else begin
      for (int unsigned i = 0; i < 8; i++) begin
        if (counter_event_q[i][6]) begin
          if (counter_event_q[i][5:0] == 6'd4) counter_q[i] <= counter_q[i] + ext_bytes_rd;
          if (counter_event_q[i][5:0] == 6'd5) counter_q[i] <= counter_q[i] + ext_bytes_wr;
        end else begin
          counter_q[i] <= counter_q[i] + event_inc[counter_event_q[i][5:0]];
        end
      end
      if (fire_i) begin
        if (rs1_i[0]) begin
          snapshot_valid_q <= 1'b0;
          for (int unsigned i = 0; i < 8; i++) counter_q[i] <= '0;
        end
        if (rs1_i[1]) begin
          snapshot_valid_q <= 1'b0;
        end else if (rs1_i[2]) begin
          snapshot_valid_q <= 1'b1;
          for (int unsigned i = 0; i < 8; i++) snapshot_q[i] <= counter_q[i];
        end
        if (rs1_i[3]) begin
          counter_event_q[counter_index] <= {rs1_i[31], rs1_i[17:12]};
          counter_q[counter_index] <= '0;
        end
      end
    end
  end

  logic unused;
  assign unused = ^{rs1_i[63:32], rs1_i[30:18], rs1_i[11:7]};

endmodule
