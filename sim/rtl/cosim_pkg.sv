// Shared types of the SoC: the coprocessor port (core <-> vector or Gemmini unit)
// and the memory request/response ports (core, accelerator <-> test-bench memory).
// Data fields are 64 bits wide; an RV32 core uses the low 32 bits (upper bits zero).
package cosim_pkg;

  localparam int unsigned SeqW = 8;  // coprocessor sequence-number width

  // ---------------------------------------------------------------------------
  // Coprocessor issue (core -> accelerator), valid/ready. The accelerator decides
  // legality in the same handshake: when valid && ready, cop_illegal_i says
  // whether the instruction was refused (the core then traps precisely).
  // ---------------------------------------------------------------------------
  typedef struct packed {
    logic [31:0]     insn;    // the instruction word
    logic [63:0]     rs1;     // x[rs1] (XLEN bits, zero-extended)
    logic [63:0]     rs2;     // x[rs2]
    logic [31:0]     frs1;    // f[rs1] as binary32 bits (vector .vf forms)
    logic [31:0]     vtype;   // current vtype CSR (vill in bit 31 for RV32 layout)
    logic [31:0]     vl;      // current vl
    logic [31:0]     vstart;  // current vstart
    logic [2:0]      frm;     // dynamic rounding mode
    logic [1:0]      vxrm;    // fixed-point rounding mode
    logic [SeqW-1:0] seq;     // sequence number, echoed by the completion
  } cop_req_t;

  // ---------------------------------------------------------------------------
  // Coprocessor completion (accelerator -> core), valid only (core always accepts).
  // Completions may arrive after younger scalar instructions retired.
  // ---------------------------------------------------------------------------
  typedef struct packed {
    logic [SeqW-1:0] seq;
    logic            x_we;      // write x[rd]
    logic            f_we;      // write f[rd]
    logic [4:0]      rd;
    logic [63:0]     wdata;     // x or f value (f: binary32 in [31:0], NaN-boxed by the core on RV64)
    logic [4:0]      fflags;    // OR-ed into fcsr.fflags
    logic            vxsat;     // OR-ed into vcsr.vxsat
    logic            vl_we;     // fault-only-first loads trim vl
    logic [31:0]     vl;
    logic            exc;       // exception: core traps with cause/tval at this instruction
    logic [5:0]      exc_cause;
    logic [63:0]     exc_tval;
  } cop_cmp_t;

  // ---------------------------------------------------------------------------
  // Memory-fault answer of the issue handshake (accelerator -> core), valid when
  // valid && ready && !illegal (all zero: no fault). Vector memory instructions
  // are checked before they are accepted, so their exceptions stay precise:
  //   fault: the accelerator executes the elements before `elem` (and fields <
  //          `field` of segment `elem`), completes the instruction, and the core
  //          then traps at it with cause/tval and vstart = elem; the core retires
  //          no younger instruction before that trap;
  //   trim:  fault-only-first load: vl becomes `elem` at once (no trap).
  // ---------------------------------------------------------------------------
  typedef struct packed {
    logic        fault;
    logic        trim;
    logic [31:0] elem;
    logic [2:0]  field;
    logic [5:0]  cause;
    logic [31:0] tval;
  } cop_ack_t;

  // Memory ports (core instruction/data, accelerator) are plain valid/ready
  // request and in-order valid-only response signals on each module's port list;
  // addresses are 32 bits (every region of the memory map is below 4 GiB) and the
  // data width is the config's memory.width_bits.

endpackage
