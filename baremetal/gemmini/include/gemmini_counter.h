/* gemmini_counter.h: Gemmini v0.7 performance counters for dsa-cosim (issue 17).
 *
 * Event numbers and the counter API (counter_configure, counter_reset,
 * counter_snapshot_take, counter_snapshot_reset, counter_read) are
 * source-compatible with gemmini-rocc-tests; the implementation is ours. The
 * counter instruction is funct 126 on custom-3 with rd written (funct3 111).
 * rs1 is the command word:
 *   [0] reset all counters, [1] reset the snapshot, [2] take a snapshot,
 *   [3] configure counter [6:4] to event [17:12], [31] the event is
 *   non-incremental (numbered from INCREMENTAL_COUNTERS + 1);
 *   with none of [3:0] set, rd = the value of counter [6:4].
 * Counters are 32 bits; there are 8 of them (index 0..7).
 */
#ifndef COUNTER_H_
#define COUNTER_H_

#include <stddef.h>
#include <stdint.h>

#define DISABLE 0

#define INCREMENTAL_COUNTERS 46

/* incremental events: counted once per cycle (or request) they happen */
#define MAIN_LD_CYCLES 1
#define MAIN_ST_CYCLES 2
#define MAIN_EX_CYCLES 3
#define MAIN_LD_ST_CYCLES 4
#define MAIN_LD_EX_CYCLES 5
#define MAIN_ST_EX_CYCLES 6
#define MAIN_LD_ST_EX_CYCLES 7

#define LOAD_DMA_WAIT_CYCLE 8
#define LOAD_ACTIVE_CYCLE 9
#define LOAD_SCRATCHPAD_WAIT_CYCLE 10

#define STORE_DMA_WAIT_CYCLE 11
#define STORE_ACTIVE_CYCLE 12
#define STORE_POOLING_CYCLE 13
#define STORE_SCRATCHPAD_WAIT_CYCLE 14

#define DMA_TLB_MISS_CYCLE 15
#define DMA_TLB_HIT_REQ 16
#define DMA_TLB_TOTAL_REQ 17

#define RDMA_ACTIVE_CYCLE 18
#define RDMA_TLB_WAIT_CYCLES 19
#define RDMA_TL_WAIT_CYCLES 20

#define WDMA_ACTIVE_CYCLE 21
#define WDMA_TLB_WAIT_CYCLES 22
#define WDMA_TL_WAIT_CYCLES 23

#define EXE_ACTIVE_CYCLE 24
#define EXE_FLUSH_CYCLE 25
#define EXE_CONTROL_Q_BLOCK_CYCLE 26
#define EXE_PRELOAD_HAZ_CYCLE 27
#define EXE_OVERLAP_HAZ_CYCLE 28

#define SCRATCHPAD_A_WAIT_CYCLE 29
#define SCRATCHPAD_B_WAIT_CYCLE 30
#define SCRATCHPAD_D_WAIT_CYCLE 31

#define ACC_A_WAIT_CYCLE 32
#define ACC_B_WAIT_CYCLE 33
#define ACC_D_WAIT_CYCLE 34

#define A_GARBAGE_CYCLES 35
#define B_GARBAGE_CYCLES 36
#define D_GARBAGE_CYCLES 37

#define IM2COL_MEM_CYCLES 38
#define IM2COL_ACTIVE_CYCLES 39
#define IM2COL_TRANSPOSER_WAIT_CYCLE 40

#define RESERVATION_STATION_FULL_CYCLES 41
#define RESERVATION_STATION_ACTIVE_CYCLES 42

#define LOOP_MATMUL_ACTIVE_CYCLES 43
#define TRANSPOSE_PRELOAD_UNROLLER_ACTIVE_CYCLES 44

#define RDMA_READ_REQUESTS 45
#define WDMA_WRITE_REQUESTS 46

/* non-incremental events: a sampled value (counts, bytes, latencies) */
#define RESERVATION_STATION_LD_COUNT (INCREMENTAL_COUNTERS + 1)
#define RESERVATION_STATION_ST_COUNT (INCREMENTAL_COUNTERS + 2)
#define RESERVATION_STATION_EX_COUNT (INCREMENTAL_COUNTERS + 3)

#define RDMA_BYTES_REC (INCREMENTAL_COUNTERS + 4)
#define WDMA_BYTES_SENT (INCREMENTAL_COUNTERS + 5)

#define RDMA_TOTAL_LATENCY (INCREMENTAL_COUNTERS + 6)
#define WDMA_TOTAL_LATENCY (INCREMENTAL_COUNTERS + 7)

#define SCRATCHPAD_READS (INCREMENTAL_COUNTERS + 8)
#define SCRATCHPAD_WRITES (INCREMENTAL_COUNTERS + 9)
#define ACCUMULATOR_READS (INCREMENTAL_COUNTERS + 10)
#define ACCUMULATOR_WRITES (INCREMENTAL_COUNTERS + 11)

#define GEMMINI_NUM_COUNTERS 8

/* Command-word bits of the counter instruction's rs1. */
#define GEMMINI_COUNTER_RESET 0x1u
#define GEMMINI_COUNTER_SNAPSHOT_RESET 0x2u
#define GEMMINI_COUNTER_SNAPSHOT_TAKE 0x4u
#define GEMMINI_COUNTER_CONFIGURE 0x8u
#define GEMMINI_COUNTER_INDEX(i) (((uint32_t)(i) & 0x7u) << 4)
#define GEMMINI_COUNTER_EVENT(e) (((uint32_t)(e) & 0x3fu) << 12)
#define GEMMINI_COUNTER_EXTERNAL (1u << 31)

/* One counter instruction: rs1 = command, rs2 unused, returns rd. */
static inline uint32_t gemmini_counter_command(uint32_t command) {
  uint64_t rd;
  asm volatile(".insn r 0x7b, 7, 126, %0, %1, x0" : "=r"(rd) : "r"((uint64_t)command) : "memory");
  return (uint32_t)rd;
}

/* The current value of counter `index` (0..7). */
static inline uint32_t counter_read(size_t index) {
  return gemmini_counter_command(GEMMINI_COUNTER_INDEX(index));
}

/* Make counter `index` (0..7) count `counter_code` (one of the event numbers
 * above; DISABLE stops it). */
static inline void counter_configure(size_t index, size_t counter_code) {
  uint32_t external = 0;
  if (counter_code > INCREMENTAL_COUNTERS) {
    counter_code -= INCREMENTAL_COUNTERS;
    external = GEMMINI_COUNTER_EXTERNAL;
  }
  (void)gemmini_counter_command(GEMMINI_COUNTER_INDEX(index) | GEMMINI_COUNTER_CONFIGURE |
                                GEMMINI_COUNTER_EVENT(counter_code) | external);
}

/* Freeze the counters' current values for counter_read until the next reset. */
static inline void counter_snapshot_take(void) { (void)gemmini_counter_command(GEMMINI_COUNTER_SNAPSHOT_TAKE); }

/* Drop the snapshot: counter_read returns live values again. */
static inline void counter_snapshot_reset(void) { (void)gemmini_counter_command(GEMMINI_COUNTER_SNAPSHOT_RESET); }

/* Zero all counters (and their configuration). */
static inline void counter_reset(void) { (void)gemmini_counter_command(GEMMINI_COUNTER_RESET); }

#endif /* COUNTER_H_ */
