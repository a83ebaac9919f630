// Constants and types of the scalar core: opcodes, trap causes, CSR addresses
// and the retirement-monitor record the test bench reads.
package core_pkg;

  // Major opcodes (instruction bits 6:0).
  localparam logic [6:0] OpLoad    = 7'h03;
  localparam logic [6:0] OpLoadFp  = 7'h07;
  localparam logic [6:0] OpCustom0 = 7'h0b;
  localparam logic [6:0] OpMiscMem = 7'h0f;
  localparam logic [6:0] OpOpImm   = 7'h13;
  localparam logic [6:0] OpAuipc   = 7'h17;
  localparam logic [6:0] OpOpImm32 = 7'h1b;
  localparam logic [6:0] OpStore   = 7'h23;
  localparam logic [6:0] OpStoreFp = 7'h27;
  localparam logic [6:0] OpCustom1 = 7'h2b;
  localparam logic [6:0] OpOp      = 7'h33;
  localparam logic [6:0] OpLui     = 7'h37;
  localparam logic [6:0] OpOp32    = 7'h3b;
  localparam logic [6:0] OpMadd    = 7'h43;
  localparam logic [6:0] OpMsub    = 7'h47;
  localparam logic [6:0] OpNmsub   = 7'h4b;
  localparam logic [6:0] OpNmadd   = 7'h4f;
  localparam logic [6:0] OpOpFp    = 7'h53;
  localparam logic [6:0] OpOpV     = 7'h57;
  localparam logic [6:0] OpCustom2 = 7'h5b;
  localparam logic [6:0] OpBranch  = 7'h63;
  localparam logic [6:0] OpJalr    = 7'h67;
  localparam logic [6:0] OpJal     = 7'h6f;
  localparam logic [6:0] OpSystem  = 7'h73;
  localparam logic [6:0] OpCustom3 = 7'h7b;

  // Synchronous exception causes (mcause, interrupt bit clear).
  localparam logic [5:0] ExcInsnMisaligned  = 6'd0;
  localparam logic [5:0] ExcInsnAccessFault = 6'd1;
  localparam logic [5:0] ExcIllegalInsn     = 6'd2;
  localparam logic [5:0] ExcBreakpoint      = 6'd3;
  localparam logic [5:0] ExcLoadMisaligned  = 6'd4;
  localparam logic [5:0] ExcLoadAccessFault = 6'd5;
  localparam logic [5:0] ExcStoreMisaligned = 6'd6;
  localparam logic [5:0] ExcStoreAccessFault = 6'd7;
  localparam logic [5:0] ExcEcallM          = 6'd11;

  // CSR addresses the core implements.
  localparam logic [11:0] CsrFflags    = 12'h001;
  localparam logic [11:0] CsrFrm       = 12'h002;
  localparam logic [11:0] CsrFcsr      = 12'h003;
  localparam logic [11:0] CsrVstart    = 12'h008;
  localparam logic [11:0] CsrVxsat     = 12'h009;
  localparam logic [11:0] CsrVxrm      = 12'h00a;
  localparam logic [11:0] CsrVcsr      = 12'h00f;
  localparam logic [11:0] CsrMstatus   = 12'h300;
  localparam logic [11:0] CsrMisa      = 12'h301;
  localparam logic [11:0] CsrMie       = 12'h304;
  localparam logic [11:0] CsrMtvec     = 12'h305;
  localparam logic [11:0] CsrMstatush  = 12'h310;
  localparam logic [11:0] CsrMscratch  = 12'h340;
  localparam logic [11:0] CsrMepc      = 12'h341;
  localparam logic [11:0] CsrMcause    = 12'h342;
  localparam logic [11:0] CsrMtval     = 12'h343;
  localparam logic [11:0] CsrMip       = 12'h344;
  localparam logic [11:0] CsrMcycle    = 12'hb00;
  localparam logic [11:0] CsrMinstret  = 12'hb02;
  localparam logic [11:0] CsrMcycleh   = 12'hb80;
  localparam logic [11:0] CsrMinstreth = 12'hb82;
  localparam logic [11:0] CsrCycle     = 12'hc00;
  localparam logic [11:0] CsrTime      = 12'hc01;
  localparam logic [11:0] CsrInstret   = 12'hc02;
  localparam logic [11:0] CsrVl        = 12'hc20;
  localparam logic [11:0] CsrVtype     = 12'hc21;
  localparam logic [11:0] CsrVlenb     = 12'hc22;
  localparam logic [11:0] CsrCycleh    = 12'hc80;
  localparam logic [11:0] CsrTimeh     = 12'hc81;
  localparam logic [11:0] CsrInstreth  = 12'hc82;
  localparam logic [11:0] CsrMvendorid = 12'hf11;
  localparam logic [11:0] CsrMarchid   = 12'hf12;
  localparam logic [11:0] CsrMimpid    = 12'hf13;
  localparam logic [11:0] CsrMhartid   = 12'hf14;
  localparam logic [11:0] CsrMconfigptr = 12'hf15;

  // Instruction classes produced by core_decoder.
  typedef enum logic [4:0] {
    ClsIllegal,
    ClsLui,
    ClsAuipc,
    ClsJal,
    ClsJalr,
    ClsBranch,
    ClsLoad,
    ClsStore,
    ClsAluImm,
    ClsMul,
    ClsDiv,
    ClsAluReg,
    ClsFence,
    ClsEcall,
    ClsEbreak,
    ClsMret,
    ClsCsr,
    ClsFload,
    ClsFstore,
    ClsFpu,
    ClsFmvXW,
    ClsFmvWX,
    ClsCop,
    ClsVset
  } cls_e;

  // One retired instruction, as the commit-trace monitor sees it. Values are
  // 64 bits wide; an RV32 core uses the low 32 bits.
  typedef struct packed {
    logic        valid;
    logic [63:0] pc;
    logic [31:0] insn;
    logic        x_we;      // x[rd] written (rd != 0)
    logic        f_we;      // f[rd] written
    logic [4:0]  rd;
    logic [63:0] rd_wdata;  // f writes: NaN-boxed on RV64
    logic        mem_re;    // load
    logic        mem_we;    // store
    logic [63:0] mem_addr;
    logic [63:0] mem_wdata;
    logic [1:0]  mem_size;  // log2 of the access bytes
    logic        csr_we;    // explicit Zicsr write
    logic [11:0] csr_addr;
    logic [63:0] csr_wdata;
    logic        cop;       // handed to the coprocessor: seq is valid
    logic [7:0]  seq;
  } retire_t;

  // A trap taken (no retirement for the trapping instruction).
  typedef struct packed {
    logic        valid;
    logic [5:0]  cause;
    logic [63:0] epc;
    logic [63:0] tval;
  } trap_t;

  // A late register write from a coprocessor completion.
  typedef struct packed {
    logic        valid;
    logic [7:0]  seq;
    logic        x_we;
    logic        f_we;
    logic [4:0]  rd;
    logic [63:0] wdata;
  } late_wb_t;

  // Performance events of one cycle (cosim_core.perf_o), summed by the test bench.
  typedef struct packed {
    logic cop_issue_stall;  // a coprocessor instruction cannot issue: request valid but
                            // not ready, or the core's in-flight limit is reached
    logic cop_wait;         // waiting for older coprocessor instructions: scalar memory
                            // ordering, a scalar result (vmv.x.s...), fence, CSR ordering
  } core_perf_t;

endpackage
