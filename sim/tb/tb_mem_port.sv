// Test-bench memory port: accepts up to Outstanding requests, performs each in
// the DPI backing store when it is accepted (so accesses happen in request
// order) and returns the responses in order, Latency cycles after acceptance.
module tb_mem_port #(
  parameter int unsigned DataW       = 32,
  parameter int unsigned Latency     = 4,
  parameter int unsigned Outstanding = 4,
  parameter int unsigned Port        = 0   // 0 instruction, 1 data, 2 accelerator
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  longint unsigned    cycle_i,
  input  logic               req_valid_i,
  output logic               req_ready_o,
  input  logic [31:0]        req_addr_i,
  input  logic               req_we_i,
  input  logic [DataW/8-1:0] req_wstrb_i,
  input  logic [DataW-1:0]   req_wdata_i,
  output logic               resp_valid_o,
  output logic [DataW-1:0]   resp_data_o,
  output logic               resp_err_o,
  output logic               exit_o,        // this cycle's request stored to EXIT
  output logic               profile_o,     // the previous cycle's request stored to PROFILE
  output longint unsigned    busy_cycles_o  // cycles with a request in flight
);

  import "DPI-C" function int tb_mem_access(input int port, input int addr, input int nbytes, input int we,
                                            input bit [511:0] wdata, input bit [63:0] wstrb,
                                            output bit [511:0] rdata, input longint cycle);
  import "DPI-C" function int tb_mem_access64(input int port, input int addr, input int nbytes, input int we,
                                              input longint unsigned wdata, input int wstrb,
                                              output longint unsigned rdata, input longint cycle);

  localparam int unsigned IdxW = (Outstanding > 1) ? $clog2(Outstanding) : 1;

  logic [DataW-1:0]  data_q [Outstanding];
  logic              err_q  [Outstanding];
  longint unsigned   due_q  [Outstanding];
  logic [IdxW-1:0]   head_q, tail_q;
  int unsigned       count_q;
  longint unsigned   busy_q;

  logic accept, pop;
  assign req_ready_o  = (count_q < Outstanding);
  assign accept       = req_valid_i && req_ready_o;
  assign resp_valid_o = (count_q != 0) && (due_q[head_q] <= cycle_i);
  assign resp_data_o  = data_q[head_q];
  assign resp_err_o   = err_q[head_q];
  assign pop          = resp_valid_o;  // the SoC always takes responses
  assign busy_cycles_o = busy_q;

  function automatic logic [IdxW-1:0] next_idx(logic [IdxW-1:0] i);
    return (int'(i) == Outstanding - 1) ? '0 : i + 1'b1;
  endfunction

  bit [511:0]      rdata;
  longint unsigned rdata64;
  int              rc;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q  <= '0;
      tail_q  <= '0;
      count_q <= 0;
      exit_o  <= 1'b0;
      profile_o <= 1'b0;
      busy_q  <= 0;
    end else begin
      exit_o <= 1'b0;
      profile_o <= 1'b0;
      if (count_q != 0) busy_q <= busy_q + 1;
      if (accept) begin
        if (DataW <= 64) begin
          rc = tb_mem_access64(Port, req_addr_i, DataW / 8, int'(req_we_i), 64'(req_wdata_i),
                               32'(req_wstrb_i), rdata64, cycle_i);
          rdata = 512'(rdata64);
        end else begin
          rc = tb_mem_access(Port, req_addr_i, DataW / 8, int'(req_we_i), 512'(req_wdata_i),
                             64'(req_wstrb_i), rdata, cycle_i);
        end
        data_q[tail_q] <= rdata[DataW-1:0];
        err_q[tail_q]  <= (rc == 1);
        due_q[tail_q]  <= cycle_i + Latency;
        tail_q         <= next_idx(tail_q);
        exit_o         <= (rc == 2);
        profile_o      <= (rc == 3);
      end
      if (pop) head_q <= next_idx(head_q);
      count_q <= count_q + (accept ? 1 : 0) - (pop ? 1 : 0);
    end
  end

endmodule
