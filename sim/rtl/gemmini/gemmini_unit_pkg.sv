// Types of the Gemmini unit's top (gemmini_unit.sv; UNIT.md beside this file):
// the performance events of a cycle, the code of the check that refused an
// instruction, and the trace records the difftest reads.
package gemmini_unit_pkg;

  import gemmini_pkg::IdW;

  // Which legality check refused the last refused instruction (illegal_reason_o).
  // One code per GemminiIllegal raise site of sim/gemmini/model.py and
  // sim/gemmini/loop_ws.py, plus the RTL's own (loop_conv, memory map); the
  // harness names the field from it (UNIT.md, "Illegal reasons").
  typedef enum logic [5:0] {
    IllNone          = 6'd0,   // nothing refused since reset
    IllFunct         = 6'd1,   // unknown funct (or funct3 not 011/111 as the funct wants)
    IllLoopConv      = 6'd2,   // loop_conv_ws functs 15..21: no loop_conv hardware
    IllLdId          = 6'd3,   // config_ld: mvin id (rs1[4:3]) = 3
    IllCfgNorm       = 6'd4,   // config rs1[1:0] = 3 (no normalization unit)
    IllStAct         = 6'd5,   // config_st activation (rs1[3:2]) > 1
    IllExDataflow    = 6'd6,   // config_ex dataflow not in the config
    IllExAct         = 6'd7,   // config_ex activation (rs1[4:3]) > 1
    IllExTranspose   = 6'd8,   // config_ex needs two transposers
    IllNormCmd       = 6'd9,   // accumulator address with a norm command (bits 28..26)
    IllAccRange      = 6'd10,  // accumulator rows outside the accumulator
    IllSpRange       = 6'd11,  // scratchpad rows outside the scratchpad
    IllRows          = 6'd12,  // rows > DIM (mvin, mvout, preload, compute)
    IllCols          = 6'd13,  // cols > DIM (preload, compute, pooled mvout)
    IllBlocks        = 6'd14,  // mvin/mvout cols in more blocks than MAX_BLOCK_LEN(_ACC) allows
    IllPixelRepeat   = 6'd15,  // mvin to the accumulator with pixel repeats > 1
    IllPoolFull      = 6'd16,  // pooled mvout with the full-width accumulator bit
    IllPoolDims      = 6'd17,  // pooled mvout without a pool size / output dims
    IllOsStride      = 6'd18,  // OS result rows below the C address (C stride)
    IllDmaRange      = 6'd19,  // a DMA byte range outside the memory map
    IllLoopBounds    = 6'd20,  // loop_ws: pad_I/J/K >= DIM (LoopWs._check)
    IllLoopAct       = 6'd21,  // loop_ws: activation (rs1[10:8]) > 1
    IllLoopCmd       = 6'd22,  // (reserved)
    IllLoopResidual  = 6'd23,  // loop_ws: residual add (rs2[2])
    IllLoopTranspose = 6'd24,  // loop_ws: A and B transpose together
    IllLoopSp        = 6'd25,  // loop_ws: A and B tiles need more than half the scratchpad minus DIM
    IllLoopAcc       = 6'd26   // loop_ws: C tiles need more than half the accumulator
  } gm_illegal_e;

  // Events of one cycle (perf_o); the SoC sums them into result.json's counters.
  typedef struct packed {
    logic [31:0] macs;            // useful MACs (rows x cols x k of each compute, as the model counts)
    logic        load_busy;       // the load controller holds a command
    logic        exec_busy;       // the execute controller holds a command
    logic        store_busy;      // the store controller holds a command
    logic        mesh_busy;       // the array streams rows this cycle
    logic [15:0] dma_rd_bytes;    // bytes of read responses accepted this cycle
    logic [15:0] dma_wr_bytes;    // bytes of write beats accepted this cycle
    logic        stall_hazard;    // a queue head waits for an older conflicting command
    logic        stall_queue;     // the core's request waits: the ROB or a queue is full
    logic        stall_mem;       // the DMA has a beat the memory port does not take
  } gm_perf_t;

  // Allocation of a ROB id: from now on writes carrying `id` belong to core
  // instruction `seq` (until the next allocation of that id).
  typedef struct packed {
    logic           valid;
    logic [IdW-1:0] id;
    logic [7:0]     seq;          // cosim_pkg::cop_req_t.seq
  } gm_trace_id_t;

  // Which controller a command goes to.
  typedef enum logic [1:0] {
    CtlLoad  = 2'd0,
    CtlExec  = 2'd1,
    CtlStore = 2'd2,
    CtlNone  = 2'd3   // completes in the top (flush, clkgate, counter, loop configs)
  } gm_ctl_e;

  // Rows [lo, hi) of the scratchpad (acc = 0) or the accumulator (acc = 1).
  typedef struct packed {
    logic        v;
    logic        acc;
    logic [31:0] lo;
    logic [31:0] hi;
  } gm_rows_t;

  // DRAM bytes [lo, hi).
  typedef struct packed {
    logic        v;
    logic [39:0] lo;
    logic [39:0] hi;
  } gm_dram_t;

  // What a command reads and writes (conservative ranges), for the ROB's hazards.
  typedef struct packed {
    gm_rows_t rd0, rd1, wr;
    gm_dram_t drd, dwr;
  } gm_sets_t;

endpackage
