// PicoRV32 onto the test bench's contract (sim/tb/CONTRACT.md).
//
// PicoRV32 has one memory interface (mem_valid / mem_instr / mem_ready, one request
// at a time, held until mem_ready). Fetches (mem_instr) go to the instruction port,
// loads and stores to the data port; the adapter forwards a request once, waits for
// its response and hands it back as mem_ready with the data. The MMIO page (EXIT,
// UART, PROFILE) is served by the test bench behind the data port, like any store.
//
// Hooks: retire_o pulses when PicoRV32's instruction counter steps (it counts each
// instruction as it starts executing; the previous one is complete by then);
// halt_o when the core's trap output rises (an illegal or misaligned instruction:
// PicoRV32 without IRQs stops there), when a port answers with an access fault
// (PicoRV32 has no bus error) or when the ELF's entry is not PROGADDR_RESET
// (PicoRV32 takes its reset PC as a parameter, not a port). No commit trace.
module cosim_picorv32 #(
  parameter int unsigned XLEN           = 32,
  parameter int unsigned DataW          = 32,
  parameter logic [31:0] PROGADDR_RESET = 32'h2000_0000,
  parameter bit          ENABLE_MUL     = 1'b1,
  parameter bit          ENABLE_DIV     = 1'b1,
  parameter bit          BARREL_SHIFTER = 1'b1
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [63:0]        boot_addr_i,
  output logic               imem_req_valid_o,
  input  logic               imem_req_ready_i,
  output logic [31:0]        imem_req_addr_o,
  input  logic               imem_resp_valid_i,
  input  logic [DataW-1:0]   imem_resp_data_i,
  input  logic               imem_resp_err_i,
  output logic               dmem_req_valid_o,
  input  logic               dmem_req_ready_i,
  output logic [31:0]        dmem_req_addr_o,
  output logic               dmem_req_we_o,
  output logic [DataW/8-1:0] dmem_req_wstrb_o,
  output logic [DataW-1:0]   dmem_req_wdata_o,
  input  logic               dmem_resp_valid_i,
  input  logic [DataW-1:0]   dmem_resp_data_i,
  input  logic               dmem_resp_err_i,
  output logic               retire_o,
  output logic               halt_o,
  output logic [63:0]        pc_o
);
  // PicoRV32 is RV32 with a 32-bit bus: other widths are a config error.
  if (XLEN != 32 || DataW != 32) begin : g_bad_width
    $error("cosim_picorv32 needs xlen = 32 and memory.width_bits = 32");
  end

  logic        mem_valid, mem_instr, mem_ready, trap;
  logic [31:0] mem_addr, mem_wdata, mem_rdata;
  logic [3:0]  mem_wstrb;

  picorv32 #(
    .ENABLE_COUNTERS   (1'b1),
    .ENABLE_COUNTERS64 (1'b1),
    .ENABLE_MUL        (ENABLE_MUL),
    .ENABLE_DIV        (ENABLE_DIV),
    .BARREL_SHIFTER    (BARREL_SHIFTER),
    .COMPRESSED_ISA    (1'b0),
    .CATCH_MISALIGN    (1'b1),
    .CATCH_ILLINSN     (1'b1),
    .PROGADDR_RESET    (PROGADDR_RESET)
  ) u_cpu (
    .clk         (clk_i),
    .resetn      (rst_ni),
    .trap        (trap),
    .mem_valid   (mem_valid),
    .mem_instr   (mem_instr),
    .mem_ready   (mem_ready),
    .mem_addr    (mem_addr),
    .mem_wdata   (mem_wdata),
    .mem_wstrb   (mem_wstrb),
    .mem_rdata   (mem_rdata),
    .mem_la_read (),
    .mem_la_write(),
    .mem_la_addr (),
    .mem_la_wdata(),
    .mem_la_wstrb(),
    .pcpi_valid  (),
    .pcpi_insn   (),
    .pcpi_rs1    (),
    .pcpi_rs2    (),
    .pcpi_wr     (1'b0),
    .pcpi_rd     (32'b0),
    .pcpi_wait   (1'b0),
    .pcpi_ready  (1'b0),
    .irq         (32'b0),
    .eoi         (),
    .trace_valid (),
    .trace_data  ()
  );

  // One request in flight: busy_q from the port's acceptance to its response.
  logic busy_q, instr_q, fault_q, boot_bad_q;
  assign imem_req_valid_o = mem_valid && mem_instr && !busy_q;
  assign imem_req_addr_o  = mem_addr;
  assign dmem_req_valid_o = mem_valid && !mem_instr && !busy_q;
  assign dmem_req_addr_o  = mem_addr;
  assign dmem_req_we_o    = |mem_wstrb;
  assign dmem_req_wstrb_o = mem_wstrb;
  assign dmem_req_wdata_o = mem_wdata;

  logic resp_valid, resp_err;
  assign resp_valid = busy_q && (instr_q ? imem_resp_valid_i : dmem_resp_valid_i);
  assign resp_err   = instr_q ? imem_resp_err_i : dmem_resp_err_i;
  assign mem_ready  = resp_valid && !resp_err;
  assign mem_rdata  = instr_q ? imem_resp_data_i : dmem_resp_data_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      instr_q <= 1'b0;
      fault_q <= 1'b0;
    end else begin
      if ((imem_req_valid_o && imem_req_ready_i) || (dmem_req_valid_o && dmem_req_ready_i)) begin
        busy_q  <= 1'b1;
        instr_q <= mem_instr;
      end else if (resp_valid) begin
        busy_q <= 1'b0;
      end
      if (resp_valid && resp_err) fault_q <= 1'b1;
    end
  end

  // The ELF's entry must be PicoRV32's reset PC (checked once out of reset).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) boot_bad_q <= 1'b0;
    else if (boot_addr_i != 64'(PROGADDR_RESET)) boot_bad_q <= 1'b1;
  end

  logic [63:0] count_q;
  always_ff @(posedge clk_i) count_q <= u_cpu.count_instr;
  assign retire_o = rst_ni && (u_cpu.count_instr != count_q);
  assign halt_o   = trap || fault_q || boot_bad_q;
  assign pc_o     = 64'(u_cpu.reg_pc);
endmodule
