// Constants and types the execute controller's stages share (gemmini_exec.sv and
// its gemmini_exec_* stages; EXEC.md beside this file). The types that depend on
// Dim (a result's destination, a fetch task) are declared in gemmini_exec and
// passed to the stages as type parameters.
package gemmini_exec_pkg;

  localparam int unsigned Jobs    = 8;  // jobs in flight (fetching .. written), a ring
  localparam int unsigned JobW    = 3;
  localparam int unsigned PtrW    = JobW + 1;  // ring pointers: one bit more than the index
  localparam int unsigned BufSets = 4;  // operand buffer sets (job j uses set j % BufSets)

  localparam logic [31:0] Garbage = 32'hFFFF_FFFF;  // an address that names no rows
  localparam logic [6:0]  FunctConfig = 7'd0, FunctComputePreloaded = 7'd4, FunctComputeAccumulated = 7'd5,
                          FunctPreload = 7'd6;

  // Which operand buffer of a job's set: the preload's weights / D, the compute's A and B / D.
  typedef enum logic [1:0] {OpP = 2'd0, OpA = 2'd1, OpB = 2'd2} operand_e;

  // What a tile streamed into the array is: the P of a flipped tile alone (zeros, unflipped),
  // an OS drain (a flipped tile of zeros), or a compute.
  typedef enum logic [1:0] {TileCarrier, TileFlush, TileCompute} tile_e;

  typedef logic [31:0] row_t;  // row arithmetic (legal rows fit in 26 bits)

  function automatic logic is_garbage(logic [31:0] raw);
    return raw == Garbage;
  endfunction

  // The rows a job's write set names may overlap rows a read names: [lo, hi) against [lo, hi).
  function automatic logic overlaps(row_t lo_a, row_t hi_a, row_t lo_b, row_t hi_b);
    return lo_a < hi_b && lo_b < hi_a;
  endfunction

endpackage
