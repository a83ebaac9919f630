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

  localparam int unsigned ScaleExpW = 10;  // scale_to_int's signed exponents (-175 .. 140)

  // Leading zeros of a 32-bit value (scale_to_int's normalization).
  function automatic logic [4:0] scale_lzc32(logic [31:0] v);
    logic [4:0]  n;
    logic [31:0] t;
    t = v;
    n = '0;
    if (t[31:16] == '0) begin n[4] = 1'b1; t = t << 16; end
    if (t[31:24] == '0) begin n[3] = 1'b1; t = t << 8;  end
    if (t[31:28] == '0) begin n[2] = 1'b1; t = t << 4;  end
    if (t[31:30] == '0) begin n[1] = 1'b1; t = t << 2;  end
    if (t[31] == 1'b0)  begin n[0] = 1'b1;              end
    return n;
  endfunction

  // Gemmini's fp32 scale of one element: gemmini_scale.sv has the datapath and
  // its exactness. A function as well as a module so that a block can call it
  // inside the branch that uses the result: a simulator then evaluates it only
  // for the elements that are scaled in that cycle.
  function automatic logic signed [31:0] scale_to_int(logic signed [31:0] x_i, logic [31:0] scale_i,
                                                      logic to_i8_i);
    logic              sign, s_nan, s_inf, s_tiny, x_zero;
    logic [31:0]       mag, norm;
    logic [4:0]        lz;
    logic [24:0]       mx_r;            // rounded 24-bit significand of fp32(x), with its carry
    logic [23:0]       mx, ms;
    logic              mx_carry;
    logic [47:0]       prod;
    logic              p_top;           // product significand in [2^47, 2^48)
    logic [23:0]       pk;              // kept 24 bits
    logic              pg, ps;          // guard, sticky of the product rounding
    logic              x_up, p_up, i_up;  // round-up decisions of the three roundings
    logic [24:0]       pr;              // rounded product significand (2^24 on a carry: still exact)
    logic signed [ScaleExpW-1:0] f;            // y = pr * 2^f (before the integer rounding)
    logic [5:0]        n;               // right shift of the integer rounding
    logic [24:0]       q;
    logic [33:0]       ival;            // integer magnitude (saturated to 2^33 - 1 in effect)
    logic              big;             // magnitude certainly >= 2^31
    logic signed [31:0] y32;
    logic signed [31:0] return_v;
    sign   = x_i[31] ^ scale_i[31];
    s_nan  = (scale_i[30:23] == 8'hff) && (scale_i[22:0] != '0);
    s_inf  = (scale_i[30:23] == 8'hff) && (scale_i[22:0] == '0);
    s_tiny = (scale_i[30:23] == 8'h00);  // zero or subnormal: the product is below 2^-94
    x_zero = (x_i == '0);

    // 1. fp32(x)
    mag      = x_i[31] ? 32'(-x_i) : 32'(x_i);  // |INT32_MIN| = 2^31 fits unsigned
    lz       = scale_lzc32(mag);
    norm     = mag << lz;
    x_up     = norm[7] & ((|norm[6:0]) | norm[8]);
    mx_r     = {1'b0, norm[31:8]} + {24'd0, x_up};
    mx_carry = mx_r[24];
    mx       = mx_carry ? 24'h80_0000 : mx_r[23:0];

    // 2. the binary32 product: significands and exponents
    ms    = {1'b1, scale_i[22:0]};
    prod  = 48'(mx) * 48'(ms);
    p_top = prod[47];
    pk    = p_top ? prod[47:24] : prod[46:23];
    pg    = p_top ? prod[23] : prod[22];
    ps    = p_top ? (|prod[22:0]) : (|prod[21:0]);
    p_up  = pg & (ps | pk[0]);
    pr    = {1'b0, pk} + {24'd0, p_up};
    // fp32(x) = mx * 2^(8 - lz + carry), scale = ms * 2^(e - 150); pk drops 23 or 24 bits
    f     = ScaleExpW'($signed({2'b0, scale_i[30:23]})) - ScaleExpW'(142) - ScaleExpW'($signed({1'b0, lz}))
            + ScaleExpW'(mx_carry)
            + (p_top ? ScaleExpW'(24) : ScaleExpW'(23));

    // 3. to an integer: pr * 2^f, RNE
    n    = '0;
    q    = '0;
    i_up = 1'b0;
    ival = '0;
    big  = 1'b0;
    if (f >= 0) begin
      big  = (f > ScaleExpW'(8));  // pr >= 2^23, so 2^23 * 2^9 = 2^32 already saturates
      ival = big ? '1 : 34'(pr) << f[3:0];
    end else if (f >= -ScaleExpW'(25)) begin
      n    = 6'(-f);
      q    = pr >> n;
      i_up = pr[n-1] & ((|(pr & ((25'd1 << (n - 1)) - 25'd1))) | q[0]);
      ival = 34'(q) + {33'd0, i_up};
    end

    // sign and int32 saturation; the specials
    if (s_nan || (s_inf && x_zero)) begin
      y32 = 32'sh7fff_ffff;
    end else if (x_zero || s_tiny) begin
      y32 = '0;
    end else if (s_inf || big || (sign ? (ival > 34'h8000_0000) : (ival > 34'h7fff_ffff))) begin
      y32 = sign ? 32'sh8000_0000 : 32'sh7fff_ffff;
    end else begin
      y32 = sign ? -$signed(ival[31:0]) : $signed(ival[31:0]);
    end

    if (to_i8_i && y32 > 32'sd127) return_v = 32'sd127;
    else if (to_i8_i && y32 < -32'sd128) return_v = -32'sd128;
    else return_v = y32;
    return return_v;
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
