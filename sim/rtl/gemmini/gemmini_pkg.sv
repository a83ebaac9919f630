// Types, widths and arithmetic helpers of the Gemmini-style spatial array
// (README.md beside this file). Gemmini v0.7's default numbers: int8 inputs,
// 20-bit spatial-array outputs, int32 accumulator. The array size (Dim) is a
// parameter of the modules, not of this package.
package gemmini_pkg;

  localparam int unsigned InputW  = 8;   // A, B, D and WS weights (int8)
  localparam int unsigned OutputW = 20;  // partial sums between PEs and the array's outputs
  localparam int unsigned AccW    = 32;  // OS accumulators inside the PEs (int32)
  localparam int unsigned ShiftW  = 5;   // OS result shift (config_ex rs2[4:0])
  localparam int unsigned ProdW   = 2 * InputW;

  typedef logic signed [InputW-1:0]  in_t;
  typedef logic signed [OutputW-1:0] out_t;
  typedef logic signed [AccW-1:0]    acc_t;
  typedef logic signed [ProdW-1:0]   prod_t;

  // Dataflow, encoded as config_ex rs1[2] and Gemmini's Dataflow enumeration.
  typedef enum logic {
    DfOs = 1'b0,  // output-stationary: each PE accumulates one C element in place
    DfWs = 1'b1   // weight-stationary: each PE holds one weight, partial sums flow down
  } dataflow_e;

  // Control that travels down each column with the data (Gemmini's PEControl).
  typedef struct packed {
    dataflow_e         df;
    logic              prop;   // which of the two PE registers propagates (the other computes)
    logic [ShiftW-1:0] shift;  // OS: right shift of a result as it leaves its PE
  } pe_ctrl_t;

  localparam out_t OutMax = {1'b0, {(OutputW - 1){1'b1}}};
  localparam out_t OutMin = {1'b1, {(OutputW - 1){1'b0}}};

  // Arithmetic right shift rounding half to even (Gemmini's SInt `>>` in
  // Arithmetic.scala; sim/gemmini/model.py round_shift).
  function automatic acc_t round_shift(acc_t x, logic [ShiftW-1:0] s);
    logic [ShiftW-1:0] sm1;
    acc_t              below_mask;
    logic              half, below, odd, up;
    sm1        = s - 1'b1;
    half       = (s != '0) && x[sm1];
    below_mask = (acc_t'(1) << sm1) - acc_t'(1);
    below      = (x & below_mask) != '0;
    odd        = x[s];
    up         = half && (below || odd);
    return (x >>> s) + acc_t'({{(AccW - 1){1'b0}}, up});
  endfunction

  // Saturate an accumulator value to the 20-bit output (clippedToWidthOf).
  function automatic out_t saturate_out(acc_t x);
    if (x > acc_t'(OutMax)) return OutMax;
    if (x < acc_t'(OutMin)) return OutMin;
    return out_t'(x);
  endfunction

  // ---------------------------------------------------------------------------
  // The unit's internal contract (UNIT.md beside this file): commands to the
  // controllers, their completions, and the scale unit's latency.
  // ---------------------------------------------------------------------------
  // Not every block that imports the package uses these (a leaf linted alone would warn).
  /* verilator lint_off UNUSEDPARAM */
  localparam int unsigned IdW = 6;          // command id (ROB entry), 64 entries
  localparam int unsigned AddrW = 32;       // physical DRAM addresses
  // Internal funct codes that never come from software (the core never sends
  // funct 127): the top tells the execute controller that a non-mesh command
  // follows in program order, where the model drains a pending OS result.
  localparam logic [6:0] FunctDrain = 7'd127;
  /* verilator lint_on UNUSEDPARAM */

  typedef struct packed {
    logic [6:0]     funct;  // Gemmini funct7 (sim/gemmini/isa.py) or FunctDrain
    logic [63:0]    rs1;
    logic [63:0]    rs2;
    logic [IdW-1:0] id;     // echoed by done and carried by every write it causes
  } gm_cmd_t;

endpackage
