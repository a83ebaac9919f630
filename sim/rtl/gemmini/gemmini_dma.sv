// Gemmini's DMA engine between the load/store controllers and the amem port
// (UNIT.md, "DMA"; DMA.md beside this file has the figures).
//
// Requests of 1..DmaMaxBytes bytes at any byte address are split into beats of
// DmaBytes aligned to DmaBytes; a beat sits in the MemW-bit port word at byte
// lane (address mod MemW/8), as the amem port (sim/tb/tb_mem_port.sv) places it.
// The port answers every request once, in request order, reads and writes alike,
// so one FIFO of beat descriptors (side, last beat of its request, read slot,
// beat index, lane) says what each response is.
//
//   read side   2-deep request FIFO -> splitter -> beats; each request owns a
//               slot of RdBufs reassembly buffers from its first beat to its
//               response; beat k of a request lands at buffer bytes
//               [k*DmaBytes +: DmaBytes]; the response is the buffer shifted down
//               by (addr mod DmaBytes), bytes from len on zero; in order.
//   write side  2-deep request FIFO -> the request's bytes shifted up by
//               (addr mod DmaBytes) with a byte strobe per byte of [addr,
//               addr+len) -> beats; wr_done_o one cycle after the response to a
//               request's last beat (requests finish in order).
//   port        one beat a cycle; up to Outstanding beats in flight (also held
//               by the port's own mem_req_ready_i); when both sides have a beat,
//               they alternate; a beat offered and not taken stays offered (the
//               grant is held), so the request is stable until accepted.
//
// A request is taken in the cycle it is offered when its 2-deep FIFO has room
// (rd_req_ready_o / wr_req_ready_o depend on state only); an idle splitter takes
// it straight from the port (first beat offered the next cycle), and a new
// request starts splitting in the cycle its predecessor's last beat goes out,
// so one-beat requests go at one beat a cycle. Read slots: a slot is busy for about
// Latency + 3 cycles, so RdBufs >= Latency + 3 keeps one-beat reads at full rate.
//
// Trace: trace_wr_* are registered: the cycle after a write request is
// accepted, its address, length, bytes (from len on zero) and id, once.
// Write beats answered with an error are not reported (no port for it in
// UNIT.md); read beats' errors are ORed into rd_resp_err_o.
module gemmini_dma
  import gemmini_pkg::*;
#(
  parameter int unsigned DmaBytes    = 16,  // bytes a beat (power of two, >= 2)
  parameter int unsigned DmaMaxBytes = 64,  // largest request
  parameter int unsigned Outstanding = 16,  // beats in flight at most
  parameter int unsigned RdBufs      = 8,   // read reassembly buffers (power of two)
  localparam int unsigned MemW  = (8 * DmaBytes > 64) ? 8 * DmaBytes : 64,
  localparam int unsigned MB    = MemW / 8,
  localparam int unsigned LenW  = $clog2(DmaMaxBytes + 1)
) (
  input  logic                     clk_i,             // clock
  input  logic                     rst_ni,            // asynchronous reset, active low
  // read requests (load controller)
  input  logic                     rd_req_valid_i,    // a read request
  output logic                     rd_req_ready_o,    // ... accepted
  input  logic [AddrW-1:0]         rd_req_addr_i,     // its byte address
  input  logic [LenW-1:0]          rd_req_len_i,      // its length in bytes
  input  logic [7:0]               rd_req_tag_i,      // its tag
  output logic                     rd_resp_valid_o,   // a read response, in request order
  input  logic                     rd_resp_ready_i,   // ... taken
  output logic [7:0]               rd_resp_tag_o,     // its request's tag
  output logic [DmaMaxBytes*8-1:0] rd_resp_data_o,    // its bytes
  output logic                     rd_resp_err_o,     // a beat of it answered with an access error
  // write requests (store controller)
  input  logic                     wr_req_valid_i,    // a write request
  output logic                     wr_req_ready_o,    // ... accepted
  input  logic [AddrW-1:0]         wr_req_addr_i,     // its byte address
  input  logic [LenW-1:0]          wr_req_len_i,      // its length in bytes
  input  logic [DmaMaxBytes*8-1:0] wr_req_data_i,     // its bytes
  input  logic [IdW-1:0]           wr_req_id_i,       // the writing command's id (trace)
  output logic                     wr_done_o,         // the oldest write request is done
  // amem port
  output logic                     mem_req_valid_o,   // a memory beat request
  input  logic                     mem_req_ready_i,   // ... accepted
  output logic [AddrW-1:0]         mem_req_addr_o,    // its address
  output logic                     mem_req_we_o,      // a store
  output logic [MB-1:0]            mem_req_be_o,      // its byte enables
  output logic [MemW-1:0]          mem_req_wdata_o,   // its store data
  input  logic                     mem_rsp_valid_i,   // a response, in request order (stores too)
  input  logic [MemW-1:0]          mem_rsp_rdata_i,   // its load data
  input  logic                     mem_rsp_err_i,     // an access error
  // difftest record of the write requests
  output logic                     trace_wr_valid_o,  // difftest: a write request was accepted (registered)
  output logic [AddrW-1:0]         trace_wr_addr_o,   // its byte address
  output logic [LenW-1:0]          trace_wr_len_o,    // its length in bytes
  output logic [DmaMaxBytes*8-1:0] trace_wr_data_o,   // its bytes
  output logic [IdW-1:0]           trace_wr_id_o      // its command's id
);

  localparam int unsigned OffW     = $clog2(DmaBytes);
  localparam int unsigned LaneW    = $clog2(MB);
  localparam int unsigned MaxBeats = (DmaMaxBytes + DmaBytes - 2) / DmaBytes + 1;
  localparam int unsigned BeatW    = $clog2(MaxBeats + 1);  // holds a beat count 0..MaxBeats
  localparam int unsigned BufBytes = MaxBeats * DmaBytes;
  localparam int unsigned SlotW    = (RdBufs > 1) ? $clog2(RdBufs) : 1;
  localparam int unsigned DescW    = (Outstanding > 1) ? $clog2(Outstanding) : 1;
  localparam int unsigned CntW     = $clog2(Outstanding + 1);
  localparam int unsigned DataW    = DmaMaxBytes * 8;
  localparam int unsigned BeatDW   = DmaBytes * 8;

  // Beats a request of len bytes at byte offset off (within a beat) covers.
  function automatic logic [BeatW-1:0] n_beats(logic [OffW-1:0] off, logic [LenW-1:0] len);
    logic [LenW:0] last;
    last = (LenW + 1)'(off) + (LenW + 1)'(len) - 1'b1;
    return BeatW'(last >> OffW) + 1'b1;
  endfunction

  // ---------------------------------------------------------------- read requests
  logic [AddrW-1:0] rq_addr_q [2];
  logic [LenW-1:0] rq_len_q  [2];
  logic [7:0]      rq_tag_q  [2];
  logic            rq_wp_q, rq_rp_q;
  logic [1:0]      rq_cnt_q;
  logic            rq_push, rq_pop;

  logic rd_take, rq_bypass;
  assign rd_req_ready_o = (rq_cnt_q != 2'd2);
  assign rd_take        = rd_req_valid_i && rd_req_ready_o;
  // an empty FIFO hands a request straight to an idle splitter
  assign rq_bypass      = (rq_cnt_q == 2'd0) && rd_load;
  assign rq_push        = rd_take && !rq_bypass;

  // ---------------------------------------------------------------- write requests
  logic [AddrW-1:0] wq_addr_q [2];
  logic [LenW-1:0] wq_len_q  [2];
  logic [DataW-1:0] wq_data_q [2];
  logic            wq_wp_q, wq_rp_q;
  logic [1:0]      wq_cnt_q;
  logic            wq_push, wq_pop;

  logic wr_take, wq_bypass;
  assign wr_req_ready_o = (wq_cnt_q != 2'd2);
  assign wr_take        = wr_req_valid_i && wr_req_ready_o;
  assign wq_bypass      = (wq_cnt_q == 2'd0) && wr_load;
  assign wq_push        = wr_take && !wq_bypass;

  // ---------------------------------------------------------------- splitters
  logic                rd_act_q, wr_act_q;
  logic [AddrW-1:0]    rd_baddr_q, wr_baddr_q;   // address of the next beat
  logic [BeatW-1:0]    rd_left_q, wr_left_q;     // beats still to issue
  logic [BeatW-1:0]    rd_k_q, wr_k_q;           // index of the next beat
  logic [SlotW-1:0]    rd_slot_q;
  logic [BufBytes*8-1:0] wr_data_q;              // request bytes at their beat positions
  logic [BufBytes-1:0]   wr_be_q;

  // ---------------------------------------------------------------- read slots
  logic [BufBytes*8-1:0] ent_raw_q  [RdBufs];
  logic [OffW-1:0]       ent_off_q  [RdBufs];
  logic [LenW-1:0]       ent_len_q  [RdBufs];
  logic [7:0]            ent_tag_q  [RdBufs];
  logic [RdBufs-1:0]     ent_busy_q, ent_done_q, ent_err_q;
  logic [SlotW-1:0]      alloc_q, head_q;

  // ---------------------------------------------------------------- beats in flight
  typedef struct packed {
    logic             we;
    logic             last;
    logic [SlotW-1:0] slot;
    logic [BeatW-1:0] k;
    logic [LaneW-1:0] lane;
  } desc_t;

  desc_t           desc_q [Outstanding];
  logic [DescW-1:0] dwp_q, drp_q;
  logic [CntW-1:0] inflight_q;
  desc_t           dh;

  // ---------------------------------------------------------------- port arbitration
  logic rr_q;              // 1: the write side goes first when both have a beat
  logic lock_q, lock_w_q;  // a beat was offered and not taken: keep offering it
  logic credit, gnt_w, fire, rd_issue, wr_issue, rd_load, wr_load;

  assign credit          = (inflight_q < CntW'(Outstanding));
  assign mem_req_valid_o = (rd_act_q || wr_act_q) && credit;
  always_comb begin
    if (lock_q) gnt_w = lock_w_q;
    else if (rd_act_q && wr_act_q) gnt_w = rr_q;
    else gnt_w = wr_act_q;
  end
  assign fire     = mem_req_valid_o && mem_req_ready_i;
  assign rd_issue = fire && !gnt_w;
  assign wr_issue = fire && gnt_w;

  logic [LaneW-1:0]  req_lane;
  logic [BeatDW-1:0] wbeat;
  logic [DmaBytes-1:0] wbe;
  assign mem_req_addr_o  = gnt_w ? wr_baddr_q : rd_baddr_q;
  assign mem_req_we_o    = gnt_w;
  assign req_lane        = mem_req_addr_o[LaneW-1:0];
  assign wbeat           = wr_data_q[wr_k_q*BeatDW +: BeatDW];
  assign wbe             = wr_be_q[wr_k_q*DmaBytes +: DmaBytes];
  assign mem_req_wdata_o = MemW'(wbeat) << (8 * req_lane);
  assign mem_req_be_o    = gnt_w ? (MB'(wbe) << req_lane) : '0;

  // A side loads its next request when idle or while its last beat goes out;
  // a read also needs a free slot.
  assign rd_load = ((rq_cnt_q != 2'd0) || rd_req_valid_i) && !ent_busy_q[alloc_q] &&
                   (!rd_act_q || (rd_issue && rd_left_q == BeatW'(1)));
  assign wr_load = ((wq_cnt_q != 2'd0) || wr_req_valid_i) && (!wr_act_q || (wr_issue && wr_left_q == BeatW'(1)));
  assign rq_pop  = rd_load && (rq_cnt_q != 2'd0);
  assign wq_pop  = wr_load && (wq_cnt_q != 2'd0);

  // The write request at the FIFO head, shifted to its beat positions.
  logic [AddrW-1:0]      wh_addr;
  logic [LenW-1:0]       wh_len;
  logic [OffW-1:0]       wh_off;
  logic [BufBytes*8-1:0] wh_data;
  logic [BufBytes-1:0]   wh_be;
  always_comb begin
    wh_addr = (wq_cnt_q != 2'd0) ? wq_addr_q[wq_rp_q] : wr_req_addr_i;
    wh_len  = (wq_cnt_q != 2'd0) ? wq_len_q[wq_rp_q] : wr_req_len_i;
    wh_off  = wh_addr[OffW-1:0];
    wh_data = (BufBytes * 8)'((wq_cnt_q != 2'd0) ? wq_data_q[wq_rp_q] : wr_req_data_i) << (8 * wh_off);
    for (int i = 0; i < BufBytes; i++) begin
      wh_be[i] = (i >= int'(wh_off)) && (i < int'(wh_off) + int'(wh_len));
    end
  end

  logic [AddrW-1:0] rh_addr;
  logic [LenW-1:0] rh_len;
  logic [7:0]      rh_tag;
  assign rh_addr = (rq_cnt_q != 2'd0) ? rq_addr_q[rq_rp_q] : rd_req_addr_i;
  assign rh_len  = (rq_cnt_q != 2'd0) ? rq_len_q[rq_rp_q] : rd_req_len_i;
  assign rh_tag  = (rq_cnt_q != 2'd0) ? rq_tag_q[rq_rp_q] : rd_req_tag_i;

  assign dh = desc_q[drp_q];

  // The response at the slot FIFO head.
  logic [BufBytes*8-1:0] rsp_sh;
  always_comb begin
    rsp_sh = ent_raw_q[head_q] >> (8 * ent_off_q[head_q]);
    for (int i = 0; i < DmaMaxBytes; i++) begin
      rd_resp_data_o[i*8 +: 8] = (i < int'(ent_len_q[head_q])) ? rsp_sh[i*8 +: 8] : 8'd0;
    end
  end
  assign rd_resp_valid_o = ent_done_q[head_q];
  assign rd_resp_tag_o   = ent_tag_q[head_q];
  assign rd_resp_err_o   = ent_err_q[head_q];

  logic rd_pop;
  assign rd_pop = rd_resp_valid_o && rd_resp_ready_i;

  function automatic logic [SlotW-1:0] slot_inc(logic [SlotW-1:0] s);
    return (int'(s) == RdBufs - 1) ? '0 : s + 1'b1;
  endfunction
  function automatic logic [DescW-1:0] desc_inc(logic [DescW-1:0] s);
    return (int'(s) == Outstanding - 1) ? '0 : s + 1'b1;
  endfunction

  // Request FIFOs.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rq_wp_q  <= 1'b0;
      rq_rp_q  <= 1'b0;
      rq_cnt_q <= '0;
      wq_wp_q  <= 1'b0;
      wq_rp_q  <= 1'b0;
      wq_cnt_q <= '0;
    end else begin
      if (rq_push) rq_wp_q <= ~rq_wp_q;
      if (rq_pop) rq_rp_q <= ~rq_rp_q;
      rq_cnt_q <= rq_cnt_q + 2'(rq_push) - 2'(rq_pop);
      if (wq_push) wq_wp_q <= ~wq_wp_q;
      if (wq_pop) wq_rp_q <= ~wq_rp_q;
      wq_cnt_q <= wq_cnt_q + 2'(wq_push) - 2'(wq_pop);
    end
  end

  always_ff @(posedge clk_i) begin
    if (rq_push) begin
      rq_addr_q[rq_wp_q] <= rd_req_addr_i;
      rq_len_q[rq_wp_q]  <= rd_req_len_i;
      rq_tag_q[rq_wp_q]  <= rd_req_tag_i;
    end
    if (wq_push) begin
      wq_addr_q[wq_wp_q] <= wr_req_addr_i;
      wq_len_q[wq_wp_q]  <= wr_req_len_i;
      wq_data_q[wq_wp_q] <= wr_req_data_i;
    end
  end

  // Splitters, arbitration, slots, descriptors.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_act_q   <= 1'b0;
      wr_act_q   <= 1'b0;
      rd_baddr_q <= '0;
      wr_baddr_q <= '0;
      rd_left_q  <= '0;
      wr_left_q  <= '0;
      rd_k_q     <= '0;
      wr_k_q     <= '0;
      rd_slot_q  <= '0;
      wr_data_q  <= '0;
      wr_be_q    <= '0;
      ent_busy_q <= '0;
      ent_done_q <= '0;
      ent_err_q  <= '0;
      alloc_q    <= '0;
      head_q     <= '0;
      dwp_q      <= '0;
      drp_q      <= '0;
      inflight_q <= '0;
      rr_q       <= 1'b0;
      lock_q     <= 1'b0;
      lock_w_q   <= 1'b0;
      wr_done_o  <= 1'b0;
    end else begin
      lock_q   <= mem_req_valid_o && !mem_req_ready_i;
      lock_w_q <= gnt_w;
      if (fire) rr_q <= ~gnt_w;

      // read splitter
      if (rd_issue) begin
        rd_baddr_q <= rd_baddr_q + AddrW'(DmaBytes);
        rd_left_q  <= rd_left_q - 1'b1;
        rd_k_q     <= rd_k_q + 1'b1;
        if (rd_left_q == BeatW'(1)) rd_act_q <= 1'b0;
      end
      if (rd_load) begin
        rd_act_q   <= 1'b1;
        rd_baddr_q <= {rh_addr[AddrW-1:OffW], {OffW{1'b0}}};
        rd_left_q  <= n_beats(rh_addr[OffW-1:0], rh_len);
        rd_k_q     <= '0;
        rd_slot_q  <= alloc_q;
        alloc_q    <= slot_inc(alloc_q);
      end

      // write splitter
      if (wr_issue) begin
        wr_baddr_q <= wr_baddr_q + AddrW'(DmaBytes);
        wr_left_q  <= wr_left_q - 1'b1;
        wr_k_q     <= wr_k_q + 1'b1;
        if (wr_left_q == BeatW'(1)) wr_act_q <= 1'b0;
      end
      if (wr_load) begin
        wr_act_q   <= 1'b1;
        wr_baddr_q <= {wh_addr[AddrW-1:OffW], {OffW{1'b0}}};
        wr_left_q  <= n_beats(wh_off, wh_len);
        wr_k_q     <= '0;
        wr_data_q  <= wh_data;
        wr_be_q    <= wh_be;
      end

      // beats in flight
      if (fire) dwp_q <= desc_inc(dwp_q);
      if (mem_rsp_valid_i) drp_q <= desc_inc(drp_q);
      inflight_q <= inflight_q + CntW'(fire) - CntW'(mem_rsp_valid_i);

      // slots: allocated with the first beat's request, filled by responses,
      // freed when the response is taken
      wr_done_o <= mem_rsp_valid_i && dh.we && dh.last;
      if (rd_pop) begin
        ent_busy_q[head_q] <= 1'b0;
        ent_done_q[head_q] <= 1'b0;
        head_q             <= slot_inc(head_q);
      end
      if (mem_rsp_valid_i && !dh.we) begin
        if (mem_rsp_err_i) ent_err_q[dh.slot] <= 1'b1;
        if (dh.last) ent_done_q[dh.slot] <= 1'b1;
      end
      if (rd_load) begin
        ent_busy_q[alloc_q] <= 1'b1;
        ent_err_q[alloc_q]  <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (fire) begin
      desc_q[dwp_q] <= '{we: gnt_w,
                         last: gnt_w ? (wr_left_q == BeatW'(1)) : (rd_left_q == BeatW'(1)),
                         slot: rd_slot_q,
                         k: gnt_w ? wr_k_q : rd_k_q,
                         lane: req_lane};
    end
    if (mem_rsp_valid_i && !dh.we) begin
      ent_raw_q[dh.slot][dh.k*BeatDW +: BeatDW] <= BeatDW'(mem_rsp_rdata_i >> (8 * dh.lane));
    end
    if (rd_load) begin
      ent_off_q[alloc_q] <= rh_addr[OffW-1:0];
      ent_len_q[alloc_q] <= rh_len;
      ent_tag_q[alloc_q] <= rh_tag;
    end
  end

  // Trace of the accepted write requests.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      trace_wr_valid_o <= 1'b0;
      trace_wr_addr_o  <= '0;
      trace_wr_len_o   <= '0;
      trace_wr_data_o  <= '0;
      trace_wr_id_o    <= '0;
    end else begin
      trace_wr_valid_o <= wr_take;
      if (wr_take) begin
        trace_wr_addr_o <= wr_req_addr_i;
        trace_wr_len_o  <= wr_req_len_i;
        trace_wr_id_o   <= wr_req_id_i;
        for (int i = 0; i < DmaMaxBytes; i++) begin
          trace_wr_data_o[i*8 +: 8] <= (i < int'(wr_req_len_i)) ? wr_req_data_i[i*8 +: 8] : 8'd0;
        end
      end
    end
  end

endmodule
