/* gemmini.h: Gemmini v0.7 C API for dsa-cosim (issue 17).
 *
 * Source-compatible with the public API of gemmini-rocc-tests' include/gemmini.h:
 * the same macro names, argument orders, enum values and instruction encodings,
 * so Gemmini's own test programs build against this header unchanged. The
 * implementation is ours. Field layouts are DESIGN.md's "Gemmini unit" section;
 * the numbers of a config (DIM, rows, block lengths) come from the generated
 * gemmini_params.h.
 */
#ifndef SRC_MAIN_C_GEMMINI_H
#define SRC_MAIN_C_GEMMINI_H

#undef abs

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <math.h>

/* Gemmini's tests include "include/gemmini_params.h"; the generated header may sit
 * in an include/ directory on the path or next to this file. */
#if __has_include("include/gemmini_params.h")
#include "include/gemmini_params.h"
#else
#include "gemmini_params.h"
#endif

#define GEMMINI_ASSERTIONS

/* ---------------------------------------------------------------------------
 * RoCC instruction words. Gemmini sits on custom-3 (opcode 0x7b). funct3 011
 * reads rs1 and rs2 and writes nothing; 111 also writes rd (the counter
 * instruction). A one-instruction macro is a braced block, as in Gemmini's own
 * header, so programs may write it with or without a trailing semicolon (Gemmini's
 * tests do both); a longer one is a do/while. The "memory" clobber keeps the
 * compiler from moving the core's stores of operands past the instruction that
 * makes Gemmini read them.
 * ------------------------------------------------------------------------- */
#ifndef XCUSTOM_ACC
#define XCUSTOM_ACC 3
#endif

#define GEMMINI_STR_(x) #x
#define GEMMINI_STR(x) GEMMINI_STR_(x)
/* custom-0..3 major opcodes, selected by the RoCC "x" number (XCUSTOM_ACC = 3). */
#define GEMMINI_XOPCODE_0 0x0b
#define GEMMINI_XOPCODE_1 0x2b
#define GEMMINI_XOPCODE_2 0x5b
#define GEMMINI_XOPCODE_3 0x7b
#define GEMMINI_XOPCODE_(x) GEMMINI_XOPCODE_##x
#define GEMMINI_XOPCODE(x) GEMMINI_XOPCODE_(x)

#ifndef ROCC_INSTRUCTION_0_R_R
#define ROCC_INSTRUCTION_0_R_R(x, rs1, rs2, funct) \
  { \
    asm volatile(".insn r " GEMMINI_STR(GEMMINI_XOPCODE(x)) ", 3, " GEMMINI_STR(funct) ", x0, %0, %1" \
                 : : "r"((uint64_t)(rs1)), "r"((uint64_t)(rs2)) : "memory"); \
  }
#endif

#ifndef ROCC_INSTRUCTION_R_R_R
#define ROCC_INSTRUCTION_R_R_R(x, rd, rs1, rs2, funct) \
  { \
    asm volatile(".insn r " GEMMINI_STR(GEMMINI_XOPCODE(x)) ", 7, " GEMMINI_STR(funct) ", %0, %1, %2" \
                 : "=r"(rd) : "r"((uint64_t)(rs1)), "r"((uint64_t)(rs2)) : "memory"); \
  }
#endif

#ifndef ROCC_INSTRUCTION
#define ROCC_INSTRUCTION(x, rd, rs1, rs2, funct) ROCC_INSTRUCTION_R_R_R(x, rd, rs1, rs2, funct)
#endif

#ifndef ROCC_INSTRUCTION_RS1_RS2
#define ROCC_INSTRUCTION_RS1_RS2(x, rs1, rs2, funct) ROCC_INSTRUCTION_0_R_R(x, rs1, rs2, funct)
#endif

/* funct7 values */
#define k_CONFIG 0
#define k_MVIN2 1
#define k_MVIN 2
#define k_MVOUT 3
#define k_COMPUTE_PRELOADED 4
#define k_COMPUTE_ACCUMULATE 5
#define k_PRELOAD 6
#define k_FLUSH 7

#define k_LOOP_WS 8
#define k_LOOP_WS_CONFIG_BOUNDS 9
#define k_LOOP_WS_CONFIG_ADDRS_AB 10
#define k_LOOP_WS_CONFIG_ADDRS_DC 11
#define k_LOOP_WS_CONFIG_STRIDES_AB 12
#define k_LOOP_WS_CONFIG_STRIDES_DC 13

#define k_MVIN3 14

#define k_LOOP_CONV_WS 15
#define k_LOOP_CONV_WS_CONFIG_1 16
#define k_LOOP_CONV_WS_CONFIG_2 17
#define k_LOOP_CONV_WS_CONFIG_3 18
#define k_LOOP_CONV_WS_CONFIG_4 19
#define k_LOOP_CONV_WS_CONFIG_5 20
#define k_LOOP_CONV_WS_CONFIG_6 21

#define k_CLKGATE_EN 22

#define k_COUNTER 126

/* config's rs1[1:0] */
#define CONFIG_EX 0
#define CONFIG_LD 1
#define CONFIG_ST 2
#define CONFIG_BERT 3
#define CONFIG_NORM 3

#define GARBAGE_ADDR ((uint32_t)(-1))
#define OUTPUT_STATIONARY 0
#define WEIGHT_STATIONARY 1

/* Activations. LAYERNORM, IGELU and SOFTMAX need Gemmini's optional normalization
 * units, which this hardware does not have: an instruction that names them traps. */
#define NO_ACTIVATION 0
#define RELU 1
#define LAYERNORM 2
#define IGELU 3
#define SOFTMAX 4

/* Local-address flag bits (bit 31 accumulator, 30 accumulate, 29 full-width read). */
#define GEMMINI_ACC_ADDR ((uint32_t)1 << (ADDR_LEN - 1))
#define GEMMINI_ACC_ACCUMULATE ((uint32_t)1 << (ADDR_LEN - 2))
#define GEMMINI_ACC_READ_FULL ((uint32_t)1 << (ADDR_LEN - 3))

/* Scale bit conversions (scale_t_to_scale_t_bits and the rest) come from the
 * generated gemmini_params.h, which cosim cc always puts on the path. */
#ifndef GEMMINI_PARAMS_BIT_CONVERSIONS
#error "gemmini_params.h did not define the scale bit conversions: build with cosim cc for a Gemmini config"
#endif

/* ---------------------------------------------------------------------------
 * Instruction macros. mvin/mvout/preload/compute operands pack a local address
 * with its size: local address [31:0] | cols [47:32] | rows [63:48].
 * ------------------------------------------------------------------------- */
#define GEMMINI_LOCAL_OPERAND(addr, cols, rows) \
  (((uint64_t)(rows) << (ADDR_LEN + 16)) | ((uint64_t)(cols) << ADDR_LEN) | (uint64_t)(uint32_t)(addr))

/* mvin and mvout */
#define gemmini_extended_mvin(dram_addr, spad_addr, cols, rows) \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, dram_addr, GEMMINI_LOCAL_OPERAND(spad_addr, cols, rows), k_MVIN)

#define gemmini_extended_mvin2(dram_addr, spad_addr, cols, rows) \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, dram_addr, GEMMINI_LOCAL_OPERAND(spad_addr, cols, rows), k_MVIN2)

#define gemmini_extended_mvin3(dram_addr, spad_addr, cols, rows) \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, dram_addr, GEMMINI_LOCAL_OPERAND(spad_addr, cols, rows), k_MVIN3)

#define gemmini_block_mvin(dram_addr, spad_addr, len) \
  gemmini_extended_mvin(dram_addr, spad_addr, (len) * DIM, DIM)

#define gemmini_mvin(dram_addr, spad_addr) \
  gemmini_extended_mvin(dram_addr, spad_addr, DIM, DIM)

#define gemmini_extended_mvout(dram_addr, spad_addr, cols, rows) \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, dram_addr, GEMMINI_LOCAL_OPERAND(spad_addr, cols, rows), k_MVOUT)

#define gemmini_mvout(dram_addr, spad_addr) \
  gemmini_extended_mvout(dram_addr, spad_addr, DIM, DIM)

/* compute: rs1 = A, rs2 = B (OS) or D (WS) */
#define gemmini_extended_compute_preloaded(A, BD, A_cols, A_rows, BD_cols, BD_rows) \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, GEMMINI_LOCAL_OPERAND(A, A_cols, A_rows), \
                           GEMMINI_LOCAL_OPERAND(BD, BD_cols, BD_rows), k_COMPUTE_PRELOADED)

#define gemmini_extended_compute_accumulated(A, BD, A_cols, A_rows, BD_cols, BD_rows) \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, GEMMINI_LOCAL_OPERAND(A, A_cols, A_rows), \
                           GEMMINI_LOCAL_OPERAND(BD, BD_cols, BD_rows), k_COMPUTE_ACCUMULATE)

#define gemmini_compute_preloaded(A, BD) \
  gemmini_extended_compute_preloaded(A, BD, DIM, DIM, DIM, DIM)

#define gemmini_compute_accumulated(A, BD) \
  gemmini_extended_compute_accumulated(A, BD, DIM, DIM, DIM, DIM)

/* preload: rs1 = B (WS) or D (OS), rs2 = C */
#define gemmini_extended_preload(BD, C, BD_cols, BD_rows, C_cols, C_rows) \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, GEMMINI_LOCAL_OPERAND(BD, BD_cols, BD_rows), \
                           GEMMINI_LOCAL_OPERAND(C, C_cols, C_rows), k_PRELOAD)

#define gemmini_preload(BD, C) \
  gemmini_extended_preload(BD, C, DIM, DIM, DIM, DIM)

#define gemmini_preload_zeros(C) \
  gemmini_preload(GARBAGE_ADDR, C)

/* config_ex: rs1 [2] dataflow, [4:3] activation, [7] only strides, [8] A transpose,
 * [9] B transpose, [31:16] A stride, [63:32] fp32 scale; rs2 [31:0] shift, [63:48] C stride. */
#define gemmini_extended3_config_ex(dataflow, sys_act, sys_shift, sys_acc_scale, C_stride, A_stride, A_transpose, \
                                    B_transpose, set_only_strides) \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, \
    ((uint64_t)acc_scale_t_to_acc_scale_t_bits((acc_scale_t)(sys_acc_scale)) << 32) | \
    ((uint64_t)(uint16_t)(A_stride) << 16) | ((uint64_t)(B_transpose) << 9) | ((uint64_t)(A_transpose) << 8) | \
    ((uint64_t)(set_only_strides) << 7) | ((uint64_t)(sys_act) << 3) | ((uint64_t)(dataflow) << 2) | CONFIG_EX, \
    ((uint64_t)(uint16_t)(C_stride) << 48) | (uint64_t)(uint32_t)(sys_shift), k_CONFIG)

#define gemmini_extended2_config_ex(dataflow, sys_act, sys_shift, A_stride, A_transpose, B_transpose) \
  gemmini_extended3_config_ex(dataflow, sys_act, sys_shift, ACC_SCALE_IDENTITY, 1, A_stride, A_transpose, \
                              B_transpose, false)

#define gemmini_extended_config_ex(dataflow, sys_act, sys_shift, A_stride, A_transpose, B_transpose) \
  gemmini_extended2_config_ex(dataflow, sys_act, sys_shift, A_stride, A_transpose, B_transpose)

#define gemmini_config_ex(dataflow, sys_act, sys_shift) \
  gemmini_extended_config_ex(dataflow, sys_act, sys_shift, 1, 0, 0)

/* config_ld: rs1 [2] shrink, [4:3] mvin id, [15:8] pixel repeats, [31:16] block
 * stride, [63:32] fp32 scale; rs2 = DRAM row stride in bytes. */
#define gemmini_extended5_config_ld(stride, scale, shrunk, block_mvin_stride, pixel_repeats, id) \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, \
    ((uint64_t)(scale_t_to_scale_t_bits((scale_t)(scale))) << 32) | ((uint64_t)(uint16_t)(block_mvin_stride) << 16) | \
    ((uint64_t)(uint8_t)(pixel_repeats) << 8) | ((uint64_t)(id) << 3) | ((uint64_t)(shrunk) << 2) | CONFIG_LD, \
    stride, k_CONFIG)

#define gemmini_extended4_config_ld(stride, scale, shrunk, block_mvin_stride, id) \
  gemmini_extended5_config_ld(stride, scale, shrunk, block_mvin_stride, 1, id)

#define gemmini_extended3_config_ld(stride, scale, shrunk, id) \
  gemmini_extended4_config_ld(stride, scale, shrunk, DIM, id)

#define gemmini_extended2_config_ld(stride, scale, shrunk) \
  gemmini_extended3_config_ld(stride, scale, shrunk, 0)

#define gemmini_extended_config_ld(stride, scale) \
  gemmini_extended2_config_ld(stride, scale, false)

#define gemmini_config_ld(stride) \
  gemmini_extended_config_ld(stride, MVIN_SCALE_IDENTITY)

/* config_st: rs1 [3:2] activation, [5:4] pool stride, [7:6] pool size, [9:8] upper
 * pad, [11:10] left pad, [31:24] pool out dim, [39:32] porows, [47:40] pocols,
 * [55:48] orows, [63:56] ocols; rs2 [31:0] DRAM stride, [63:32] fp32 scale. */
#define gemmini_extended2_config_st(stride, acc_act, acc_scale, pool_stride, pool_size, pool_out_dim, porows, pocols, \
                                    orows, ocols, upad, lpad) \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, \
    ((uint64_t)(uint8_t)(ocols) << 56) | ((uint64_t)(uint8_t)(orows) << 48) | ((uint64_t)(uint8_t)(pocols) << 40) | \
    ((uint64_t)(uint8_t)(porows) << 32) | ((uint64_t)(uint8_t)(pool_out_dim) << 24) | ((uint64_t)(lpad) << 10) | \
    ((uint64_t)(upad) << 8) | ((uint64_t)(pool_size) << 6) | ((uint64_t)(pool_stride) << 4) | \
    ((uint64_t)(acc_act) << 2) | CONFIG_ST, \
    ((uint64_t)acc_scale_t_to_acc_scale_t_bits((acc_scale_t)(acc_scale)) << 32) | (uint64_t)(uint32_t)(stride), \
    k_CONFIG)

#define gemmini_extended_config_st(stride, acc_act, acc_scale) \
  gemmini_extended2_config_st(stride, acc_act, acc_scale, 0, 0, 0, 0, 0, 0, 0, 0, 0)

#define gemmini_config_st(stride) \
  gemmini_extended_config_st(stride, NO_ACTIVATION, ACC_SCALE_IDENTITY)

/* The normalization-unit config. Encoded as Gemmini does; this hardware has no
 * normalization units, so it traps. */
#define gemmini_config_norm(q_const, q_const_type, set_stats_id_only, act_msb, stat_id, igelu_qb, igelu_qc) \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, \
    ((uint64_t)(uint32_t)(q_const) << 32) | ((uint64_t)((q_const_type) & 1) << 18) | \
    ((uint64_t)((set_stats_id_only) & 1) << 17) | ((uint64_t)((act_msb) & 1) << 16) | \
    ((uint64_t)(uint8_t)(stat_id) << 8) | CONFIG_NORM, \
    ((uint64_t)(uint32_t)(igelu_qc) << 32) | (uint64_t)(uint32_t)(igelu_qb), k_CONFIG)

#define gemmini_config_bert(q_const, q_const_type, set_stats_id_only, act_msb, stat_id, igelu_qb, igelu_qc) \
  gemmini_config_norm(q_const, q_const_type, set_stats_id_only, act_msb, stat_id, igelu_qb, igelu_qc)

/* flush (rs1 = skip) and fence: only a fence orders the core's memory accesses
 * against Gemmini's DMA. */
#define gemmini_flush(skip) \
  ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, skip, 0, k_FLUSH)

#define gemmini_fence() asm volatile("fence" ::: "memory")

/* counter instruction (rd written); counter_* functions are in gemmini_counter.h */
#define gemmini_counter_access(rd, config_reg) \
  ROCC_INSTRUCTION(XCUSTOM_ACC, rd, config_reg, 0, k_COUNTER)

/* weight-stationary matmul loop (funct 9..13 configure, 8 starts). Sizes I, J, K are
 * in DIM tiles, pads and strides in elements. */
#define gemmini_loop_ws(I, J, K, pad_I, pad_J, pad_K, A, B, D, C, A_stride, B_stride, D_stride, C_stride, \
                        A_transpose, B_transpose, full_C, low_D, ex_accumulate, act, a_spad_id, b_spad_id, is_resadd) \
  do { \
    ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, \
      ((uint64_t)(uint16_t)(pad_K) << 32) | ((uint64_t)(uint16_t)(pad_J) << 16) | (uint64_t)(uint16_t)(pad_I), \
      ((uint64_t)(uint16_t)(K) << 32) | ((uint64_t)(uint16_t)(J) << 16) | (uint64_t)(uint16_t)(I), \
      k_LOOP_WS_CONFIG_BOUNDS); \
    ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, A, B, k_LOOP_WS_CONFIG_ADDRS_AB); \
    ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, D, C, k_LOOP_WS_CONFIG_ADDRS_DC); \
    ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, A_stride, B_stride, k_LOOP_WS_CONFIG_STRIDES_AB); \
    ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, D_stride, C_stride, k_LOOP_WS_CONFIG_STRIDES_DC); \
    ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, \
      ((uint64_t)(a_spad_id) << 18) | ((uint64_t)(b_spad_id) << 16) | ((uint64_t)(act) << 8) | \
      ((uint64_t)(low_D) << 2) | ((uint64_t)(full_C) << 1) | (uint64_t)(ex_accumulate), \
      ((uint64_t)(is_resadd) << 2) | ((uint64_t)(B_transpose) << 1) | (uint64_t)(A_transpose), k_LOOP_WS); \
  } while (0)

/* weight-stationary convolution loop (funct 16..21 configure, 15 starts); used by
 * gemmini_conv.h. The encoding is v0.7's (square images, dense strides; fields are
 * 16 bits unless noted). Two argument lists are accepted: v0.7's 46 arguments
 * (in_dim, out_dim, pool_out_dim), and the 54 of later gemmini.h revisions
 * (row and column dims, in/weight/out strides, spad ids), which must describe
 * something v0.7 can run: rows == cols and strides equal to the channel counts. */
#define GEMMINI_CONV_FIELDS4(a, b, c, d) \
  (((uint64_t)(uint16_t)(a) << 48) | ((uint64_t)(uint16_t)(b) << 32) | ((uint64_t)(uint16_t)(c) << 16) | \
   (uint64_t)(uint16_t)(d))

#define gemmini_loop_conv_ws_v07_(batch_size, in_dim, in_channels, out_channels, out_dim, pool_out_dim, stride, \
                                  padding, kernel_dim, kernel_dilation, pool_size, pool_stride, pool_padding, \
                                  batches, porows, pocols, pochs, krows, kcols, kchs, lpad, rpad, upad, dpad, plpad, \
                                  prpad, pupad, pdpad, orows, ocols, weights, output, bias, input, no_bias, no_pool, \
                                  downsample, wrot180, input_dilated, activation, trans_output_1203, \
                                  trans_weight_1203, trans_weight_0132, trans_input_3120, max_pixels_per_row, dw) \
  do { \
    ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, GEMMINI_CONV_FIELDS4(out_channels, in_channels, in_dim, batch_size), \
      GEMMINI_CONV_FIELDS4(padding, stride, pool_out_dim, out_dim), k_LOOP_CONV_WS_CONFIG_1); \
    ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, GEMMINI_CONV_FIELDS4(kernel_dim, pool_size, pool_stride, pool_padding), \
      GEMMINI_CONV_FIELDS4(batches, porows, pocols, pochs), k_LOOP_CONV_WS_CONFIG_2); \
    ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, GEMMINI_CONV_FIELDS4(krows, kcols, kchs, lpad), \
      GEMMINI_CONV_FIELDS4(rpad, upad, dpad, plpad), k_LOOP_CONV_WS_CONFIG_3); \
    ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, GEMMINI_CONV_FIELDS4(orows, prpad, pupad, pdpad), \
      ((uint64_t)(uint16_t)(kernel_dilation) << 16) | (uint64_t)(uint16_t)(ocols), k_LOOP_CONV_WS_CONFIG_4); \
    ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, weights, output, k_LOOP_CONV_WS_CONFIG_5); \
    ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, bias, input, k_LOOP_CONV_WS_CONFIG_6); \
    ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, \
      ((uint64_t)(uint8_t)(max_pixels_per_row) << 8) | ((uint64_t)(dw) << 6) | ((uint64_t)(trans_input_3120) << 5) | \
      ((uint64_t)(trans_weight_0132) << 4) | ((uint64_t)(trans_weight_1203) << 3) | \
      ((uint64_t)(trans_output_1203) << 2) | ((uint64_t)(wrot180) << 1) | (uint64_t)(no_bias), \
      ((uint64_t)(activation) << 3) | ((uint64_t)(input_dilated) << 2) | ((uint64_t)(downsample) << 1) | \
      (uint64_t)(no_pool), k_LOOP_CONV_WS); \
  } while (0)

static inline void gemmini_loop_conv_ws_check_(int in_row_dim, int in_col_dim, int out_row_dim, int out_col_dim,
                                               int pool_out_row_dim, int pool_out_col_dim, int in_channels,
                                               int out_channels, int in_stride, int weight_stride, int out_stride) {
  if (in_row_dim != in_col_dim || out_row_dim != out_col_dim || pool_out_row_dim != pool_out_col_dim) {
    printf("gemmini_loop_conv_ws: v0.7's loop_conv_ws runs square images only (in %dx%d, out %dx%d, pooled %dx%d); "
           "run non-square convolutions without the hardware loop\n",
           in_row_dim, in_col_dim, out_row_dim, out_col_dim, pool_out_row_dim, pool_out_col_dim);
    exit(1);
  }
  if (in_stride != in_channels || weight_stride != out_channels || out_stride != out_channels) {
    printf("gemmini_loop_conv_ws: v0.7's loop_conv_ws has no stride fields (in_stride %d must be in_channels %d, "
           "weight_stride %d and out_stride %d must be out_channels %d); run strided convolutions without the "
           "hardware loop\n",
           in_stride, in_channels, weight_stride, out_stride, out_channels);
    exit(1);
  }
}

#define gemmini_loop_conv_ws_rows_cols_(batch_size, in_row_dim, in_col_dim, in_channels, out_channels, out_row_dim, \
                                        out_col_dim, pool_out_row_dim, pool_out_col_dim, stride, padding, kernel_dim, \
                                        kernel_dilation, pool_size, pool_stride, pool_padding, batches, porows, \
                                        pocols, pochs, krows, kcols, kchs, lpad, rpad, upad, dpad, plpad, prpad, \
                                        pupad, pdpad, orows, ocols, weights, output, bias, input, no_bias, no_pool, \
                                        downsample, wrot180, input_dilated, activation, trans_output_1203, \
                                        trans_weight_1203, trans_weight_0132, trans_input_3120, max_pixels_per_row, \
                                        in_stride, weight_stride, out_stride, dw, a_spad_id, b_spad_id) \
  do { \
    (void)(a_spad_id); \
    (void)(b_spad_id); \
    gemmini_loop_conv_ws_check_(in_row_dim, in_col_dim, out_row_dim, out_col_dim, pool_out_row_dim, \
                                pool_out_col_dim, in_channels, out_channels, in_stride, weight_stride, out_stride); \
    gemmini_loop_conv_ws_v07_(batch_size, in_row_dim, in_channels, out_channels, out_row_dim, pool_out_row_dim, \
                              stride, padding, kernel_dim, kernel_dilation, pool_size, pool_stride, pool_padding, \
                              batches, porows, pocols, pochs, krows, kcols, kchs, lpad, rpad, upad, dpad, plpad, \
                              prpad, pupad, pdpad, orows, ocols, weights, output, bias, input, no_bias, no_pool, \
                              downsample, wrot180, input_dilated, activation, trans_output_1203, trans_weight_1203, \
                              trans_weight_0132, trans_input_3120, max_pixels_per_row, dw); \
  } while (0)

/* Picks the form by argument count: the 55th of (args..., candidates...) is the match. */
#define GEMMINI_CONV_PICK_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37, a38, a39, a40, a41, a42, a43, a44, a45, a46, a47, a48, a49, a50, a51, a52, a53, a54, name, ...) name
#define gemmini_loop_conv_ws(...) \
  GEMMINI_CONV_PICK_(__VA_ARGS__, gemmini_loop_conv_ws_rows_cols_, GEMMINI_CONV_BAD_ARGS_, GEMMINI_CONV_BAD_ARGS_, \
                     GEMMINI_CONV_BAD_ARGS_, GEMMINI_CONV_BAD_ARGS_, GEMMINI_CONV_BAD_ARGS_, GEMMINI_CONV_BAD_ARGS_, \
                     GEMMINI_CONV_BAD_ARGS_, gemmini_loop_conv_ws_v07_, GEMMINI_CONV_BAD_ARGS_)(__VA_ARGS__)

#include "gemmini_counter.h"

/* ---------------------------------------------------------------------------
 * Reference arithmetic on the core (the CPU path of the tiled functions).
 * ------------------------------------------------------------------------- */

/* Which engine a tiled function runs on. */
enum tiled_matmul_type_t { OS, WS, CPU };

#ifdef HAS_MVIN_SCALE
#define GEMMINI_SCALE(x, scale) MVIN_SCALE((x), (scale))
#else
#define GEMMINI_SCALE(x, scale) (x)
#endif

#ifdef HAS_MVIN_ACC_SCALE
#define GEMMINI_ACC_SCALE(x, scale) MVIN_SCALE_ACC((x), (scale))
#else
#define GEMMINI_ACC_SCALE(x, scale) (x)
#endif

static inline acc_t int_sqrt(acc_t n) {
  if (n <= 0) return 0;
  acc_t x = n, y = (x + 1) / 2;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2;
  }
  return x;
}

/* An accumulator value as mvout writes it to an int8 destination: ReLU on the
 * int32, then the fp32 scale with round-to-nearest-even, then saturation. */
static inline elem_t scale_and_sat(acc_t x, int act, acc_scale_t scale, acc_scale_t bert_scale) {
  (void)bert_scale;
  if (act == RELU && x < 0) x = 0;
  acc_t y = ACC_SCALE(x, scale);
  if (y > elem_t_max) y = elem_t_max;
  if (y < elem_t_min) y = elem_t_min;
  return (elem_t)y;
}

static inline void gemmini_unsupported_activation(const char *who, int act) {
  printf("%s: activation %d is not supported (only NO_ACTIVATION=0 and RELU=1: this Gemmini has no "
         "normalization units); use one of those\n", who, act);
  exit(1);
}

/* C = act(scale * (A x B + D)) on the core, with the same rounding as Gemmini.
 * D is int32 (or int8 if low_D); C is int8 (or int32 if full_C, unscaled). */
static inline void gemmini_matmul_on_cpu(bool transA, bool transB, size_t dim_I, size_t dim_J, size_t dim_K,
                                         const elem_t *A, const elem_t *B, const void *D, void *C, size_t stride_A,
                                         size_t stride_B, size_t stride_D, size_t stride_C, scale_t A_scale_factor,
                                         scale_t B_scale_factor, scale_acc_t D_scale_factor, int act,
                                         acc_scale_t scale, acc_scale_t bert_scale, bool repeating_bias, bool full_C,
                                         bool low_D) {
  (void)D_scale_factor;
  if (act != NO_ACTIVATION && act != RELU) gemmini_unsupported_activation("matmul (CPU)", act);
  for (size_t i = 0; i < dim_I; i++) {
    for (size_t j = 0; j < dim_J; j++) {
      const size_t bias_row = repeating_bias ? 0 : i;
      uint32_t sum = 0; /* the accumulator wraps at 32 bits; unsigned keeps C defined */
      if (D != NULL) {
        sum = low_D ? (uint32_t)(acc_t)((const elem_t *)D)[bias_row * stride_D + j]
                    : (uint32_t)GEMMINI_ACC_SCALE(((const acc_t *)D)[bias_row * stride_D + j], D_scale_factor);
      }
      for (size_t k = 0; k < dim_K; k++) {
        const elem_t a = transA ? A[k * stride_A + i] : A[i * stride_A + k];
        const elem_t b = transB ? B[j * stride_B + k] : B[k * stride_B + j];
        const acc_t sa = GEMMINI_SCALE(a, A_scale_factor);
        const acc_t sb = GEMMINI_SCALE(b, B_scale_factor);
        sum += (uint32_t)(sa * sb);
      }
      if (full_C) {
        ((acc_t *)C)[i * stride_C + j] = (acc_t)sum;
      } else {
        ((elem_t *)C)[i * stride_C + j] = scale_and_sat((acc_t)sum, act, scale, bert_scale);
      }
    }
  }
}

/* Gemmini's CPU reference matmul (int32 bias, int8 result). */
static inline void matmul_cpu(bool transA, bool transB, size_t DIM_I, size_t DIM_J, size_t DIM_K, const elem_t *A,
                              const elem_t *B, const acc_t *D, elem_t *C, size_t stride_A, size_t stride_B,
                              size_t stride_D, size_t stride_C, scale_t A_scale_factor, scale_t B_scale_factor,
                              scale_acc_t D_scale_factor, int act, acc_scale_t scale, acc_scale_t bert_scale,
                              bool repeating_bias) {
  gemmini_matmul_on_cpu(transA, transB, DIM_I, DIM_J, DIM_K, A, B, D, C, stride_A, stride_B, stride_D, stride_C,
                        A_scale_factor, B_scale_factor, D_scale_factor, act, scale, bert_scale, repeating_bias,
                        false, false);
}

/* ---------------------------------------------------------------------------
 * Tiled matmul on Gemmini. One call of an sp_tiled_* function computes a tile of
 * I x J x K DIM-blocks that fits the scratchpad and accumulator; pad_* are the
 * elements missing from the last block of each dimension.
 * ------------------------------------------------------------------------- */

static inline size_t gemmini_blocks_of(size_t n) { return n / DIM + (n % DIM != 0); }

/* Output stationary: explicit mvin / preload / compute / mvout. A fills the
 * scratchpad from row 0, B from the top down; D and C share accumulator rows. */
static inline void sp_tiled_matmul_os(const elem_t *A, const elem_t *B, const void *D, void *C,
                                      scale_t A_scale_factor, scale_t B_scale_factor, scale_acc_t D_scale_factor,
                                      size_t I, size_t J, size_t K, size_t pad_I, size_t pad_J, size_t pad_K,
                                      size_t A_row_stride, size_t B_row_stride, size_t D_row_stride,
                                      size_t C_row_stride, bool full_C, bool low_D, bool no_bias,
                                      bool repeating_bias, int act) {
  (void)A_scale_factor;
  (void)B_scale_factor;
  (void)D_scale_factor;
  (void)act;
  const uint32_t A_sp_start = 0;
  const uint32_t B_sp_start = BANK_NUM * BANK_ROWS - K * J * DIM;
  const uint32_t acc_start = GEMMINI_ACC_ADDR;
  const size_t D_blocks = low_D ? (J <= MAX_BLOCK_LEN ? J : MAX_BLOCK_LEN) : (J <= MAX_BLOCK_LEN_ACC ? J : MAX_BLOCK_LEN_ACC);
  const size_t sizeof_D = low_D ? sizeof(elem_t) : sizeof(acc_t);
  const size_t sizeof_C = full_C ? sizeof(acc_t) : sizeof(elem_t);

  /* A and B move in one DIM x DIM block a mvin: the unit holds a command back
   * until every older command it conflicts with is done, so a compute then
   * waits only for its own blocks, not for a wider mvin that also carries the
   * next k steps' or columns' (MAX_BLOCK_LEN-block mvins take 14 % more cycles
   * at 128x256x256 on gemmini-dim16). The core issues every preload / compute
   * here, so the k loop keeps its operands packed and steps their addresses
   * (A: DIM rows, B: J*DIM rows a k) instead of rebuilding them: the same
   * commands, fewer instructions a tile. */
  const size_t k_bias = K > 1 ? 1 : 0;
  const uint64_t pre_garbage = GEMMINI_LOCAL_OPERAND(GARBAGE_ADDR, DIM, DIM);
  for (size_t i = 0; i < I; i++) {
    const size_t A_rows = DIM - (i == I - 1 ? pad_I : 0);
    for (size_t j = 0; j < J; j++) {
      const uint32_t C_acc = acc_start + (i * J + j) * DIM;
      const size_t C_cols = DIM - (j == J - 1 ? pad_J : 0); /* = B's columns */
      const bool load_a = j == 0, load_b = i == 0;
      const bool load_d = D != NULL && !no_bias && j % D_blocks == 0;
      const uint64_t pre_c = GEMMINI_LOCAL_OPERAND(GARBAGE_ADDR, C_cols, A_rows);
      uint64_t a_op = GEMMINI_LOCAL_OPERAND(A_sp_start + i * K * DIM, DIM, A_rows);
      uint64_t b_op = GEMMINI_LOCAL_OPERAND(B_sp_start + j * DIM, C_cols, DIM);
      for (size_t k = 0; k < K; k++, a_op += DIM, b_op += J * DIM) {
        /* The bias of C tiles (i, j..) goes in under this tile's computes: only
         * its last preload adds to it. At k = 1 the array holds a garbage-C
         * partial sum, so the mvin3 makes the array write nothing out. */
        if (k == k_bias && load_d) {
          const size_t blocks = j + D_blocks <= J ? D_blocks : J - j;
          const size_t cols = blocks * DIM - (j + blocks >= J ? pad_J : 0);
          const size_t bias_row = repeating_bias ? 0 : i * DIM;
          const int8_t *dram = (const int8_t *)D + (bias_row * D_row_stride + j * DIM) * sizeof_D;
          gemmini_extended_mvin3(dram, C_acc, cols, A_rows);
        }
        if (load_a) {
          const size_t cols = DIM - (k == K - 1 ? pad_K : 0);
          gemmini_extended_mvin(A + (i * DIM * A_row_stride + k * DIM), A_sp_start + (i * K + k) * DIM, cols,
                                A_rows);
        }
        if (load_b) {
          const size_t rows = DIM - (k == K - 1 ? pad_K : 0);
          gemmini_extended_mvin2(B + (k * DIM * B_row_stride + j * DIM), B_sp_start + (k * J + j) * DIM, C_cols,
                                 rows);
        }

        if (k != K - 1) {
          /* The array keeps the partial sum (no C). */
          ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, pre_garbage, pre_c, k_PRELOAD);
          if (k == 0) {
            ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, a_op, b_op, k_COMPUTE_PRELOADED);
          } else {
            ROCC_INSTRUCTION_RS1_RS2(XCUSTOM_ACC, a_op, b_op, k_COMPUTE_ACCUMULATE);
          }
          continue;
        }
        /* The last k writes the sum out, adding to the accumulator (bias, or an
         * earlier K tile) unless this tile starts C. */
        const uint32_t out = (no_bias && D != NULL) ? C_acc : (C_acc | GEMMINI_ACC_ACCUMULATE);
        const uint32_t A_sp = A_sp_start + (i * K + k) * DIM;
        const uint32_t B_sp = B_sp_start + (k * J + j) * DIM;
        const size_t K_cols = DIM - pad_K; /* A's columns = B's rows */
        gemmini_extended_preload(GARBAGE_ADDR, out, DIM, DIM, C_cols, A_rows);
        if (k == 0) {
          gemmini_extended_compute_preloaded(A_sp, B_sp, K_cols, A_rows, C_cols, K_cols);
        } else {
          gemmini_extended_compute_accumulated(A_sp, B_sp, K_cols, A_rows, C_cols, K_cols);
        }
      }
    }
  }

  if (C != NULL) {
    for (size_t i = 0; i < I; i++) {
      for (size_t j = 0; j < J; j++) {
        int8_t *dram = (int8_t *)C + (i * DIM * C_row_stride + j * DIM) * sizeof_C;
        const uint32_t C_acc = (acc_start + (i * J + j) * DIM) | (full_C ? GEMMINI_ACC_READ_FULL : 0);
        const size_t C_cols = DIM - (j == J - 1 ? pad_J : 0);
        const size_t C_rows = DIM - (i == I - 1 ? pad_I : 0);
        gemmini_extended_mvout(dram, C_acc, C_cols, C_rows);
      }
    }
  }
}

/* Weight stationary: one hardware loop (loop_ws) per tile. The loop adds to what
 * the accumulator holds when ex_accumulate is set (a bias it loaded, or an earlier
 * K tile); a D of 0 loads no bias and a C of 0 stores nothing. */
static inline void sp_tiled_matmul_ws(const elem_t *A, const elem_t *B, const void *D, void *C,
                                      scale_t A_scale_factor, scale_t B_scale_factor, scale_acc_t D_scale_factor,
                                      size_t I, size_t J, size_t K, size_t pad_I, size_t pad_J, size_t pad_K,
                                      size_t A_row_stride, size_t B_row_stride, size_t D_row_stride,
                                      size_t C_row_stride, bool a_transpose, bool b_transpose, bool full_C,
                                      bool low_D, bool no_bias, bool repeating_bias, int act, int a_spad_id,
                                      int b_spad_id) {
  (void)A_scale_factor;
  (void)B_scale_factor;
  (void)D_scale_factor;
  const void *bias = no_bias ? NULL : D;
  const bool ex_accumulate = !no_bias || D == NULL;
  gemmini_loop_ws(I, J, K, pad_I, pad_J, pad_K, A, B, bias, C, A_row_stride, B_row_stride,
                  repeating_bias ? 0 : D_row_stride, C_row_stride, a_transpose, b_transpose, full_C, low_D,
                  ex_accumulate, act, a_spad_id, b_spad_id, false);
}

static inline void tiled_matmul_outer(size_t dim_I, size_t dim_J, size_t dim_K, const elem_t *A, const elem_t *B,
                                      const void *D, void *C, size_t stride_A, size_t stride_B, size_t stride_D,
                                      size_t stride_C, scale_t A_scale_factor, scale_t B_scale_factor,
                                      scale_acc_t D_scale_factor, size_t tile_I, size_t tile_J, size_t tile_K,
                                      int act, acc_scale_t scale, acc_scale_t bert_scale, bool repeating_bias,
                                      bool a_transpose, bool b_transpose, bool full_C, bool low_D, uint8_t weightA,
                                      int dataflow) {
  (void)bert_scale;
  (void)weightA;
  const size_t blocks_I = gemmini_blocks_of(dim_I), blocks_J = gemmini_blocks_of(dim_J),
               blocks_K = gemmini_blocks_of(dim_K);
  const size_t I0 = blocks_I / tile_I + (blocks_I % tile_I != 0);
  const size_t J0 = blocks_J / tile_J + (blocks_J % tile_J != 0);
  const size_t K0 = blocks_K / tile_K + (blocks_K % tile_K != 0);
  const size_t last_I = blocks_I % tile_I == 0 ? tile_I : blocks_I % tile_I;
  const size_t last_J = blocks_J % tile_J == 0 ? tile_J : blocks_J % tile_J;
  const size_t last_K = blocks_K % tile_K == 0 ? tile_K : blocks_K % tile_K;
  const size_t padding_I = blocks_I * DIM - dim_I, padding_J = blocks_J * DIM - dim_J,
               padding_K = blocks_K * DIM - dim_K;

  /* Without a bias every (i0, j0) still starts from a fresh accumulator: a
   * non-NULL placeholder for k0 == 0 marks "overwrite", NULL marks "add". */
  const bool no_bias = D == NULL;
  const int8_t *D_base = no_bias ? (const int8_t *)1 : (const int8_t *)D;
  const size_t sizeof_D = low_D ? sizeof(elem_t) : sizeof(acc_t);
  const size_t sizeof_C = full_C ? sizeof(acc_t) : sizeof(elem_t);

  gemmini_extended_config_ex(dataflow, act & 3, 0, 1, a_transpose, b_transpose);
  gemmini_extended_config_st(stride_C * sizeof_C, act & 3, scale);
  gemmini_extended3_config_ld(stride_A * sizeof(elem_t), A_scale_factor, false, 0);
  gemmini_extended3_config_ld(stride_B * sizeof(elem_t), B_scale_factor, false, 1);
  gemmini_extended3_config_ld(repeating_bias ? 0 : stride_D * sizeof_D, D_scale_factor, low_D, 2);

  for (size_t i0 = 0; i0 < I0; i0++) {
    for (size_t j0 = 0; j0 < J0; j0++) {
      for (size_t k0 = 0; k0 < K0; k0++) {
        const void *pre = NULL;
        if (k0 == 0) {
          const size_t bias_row = repeating_bias ? 0 : i0 * tile_I * DIM;
          pre = no_bias ? (const void *)D_base
                        : (const void *)(D_base + (bias_row * stride_D + j0 * tile_J * DIM) * sizeof_D);
        }
        void *out = k0 == K0 - 1 ? (int8_t *)C + (i0 * tile_I * DIM * stride_C + j0 * tile_J * DIM) * sizeof_C
                                 : NULL;
        const size_t I = i0 < I0 - 1 ? tile_I : last_I;
        const size_t J = j0 < J0 - 1 ? tile_J : last_J;
        const size_t K = k0 < K0 - 1 ? tile_K : last_K;
        const size_t pad_I = i0 == I0 - 1 ? padding_I : 0;
        const size_t pad_J = j0 == J0 - 1 ? padding_J : 0;
        const size_t pad_K = k0 == K0 - 1 ? padding_K : 0;
        const elem_t *a = a_transpose ? A + k0 * tile_K * DIM * stride_A + i0 * tile_I * DIM
                                      : A + i0 * tile_I * DIM * stride_A + k0 * tile_K * DIM;
        const elem_t *b = b_transpose ? B + j0 * tile_J * DIM * stride_B + k0 * tile_K * DIM
                                      : B + k0 * tile_K * DIM * stride_B + j0 * tile_J * DIM;
        if (dataflow == OUTPUT_STATIONARY) {
          sp_tiled_matmul_os(a, b, pre, out, A_scale_factor, B_scale_factor, D_scale_factor, I, J, K, pad_I, pad_J,
                             pad_K, stride_A, stride_B, stride_D, stride_C, full_C, low_D, no_bias, repeating_bias,
                             act);
        } else {
          sp_tiled_matmul_ws(a, b, pre, out, A_scale_factor, B_scale_factor, D_scale_factor, I, J, K, pad_I, pad_J,
                             pad_K, stride_A, stride_B, stride_D, stride_C, a_transpose, b_transpose, full_C, low_D,
                             no_bias, repeating_bias, act, 0, 0);
        }
      }
    }
  }
  gemmini_fence();
}

static inline size_t tiled_matmul_total_spad_rows(size_t I, size_t J, size_t K) { return (I * K + K * J) * DIM; }

static inline size_t tiled_matmul_total_acc_rows(size_t I, size_t J) { return (I * J) * DIM; }

/* A tiled matmul with the caller's tiling factors (in DIM blocks). */
static inline void tiled_matmul(size_t dim_I, size_t dim_J, size_t dim_K, const elem_t *A, const elem_t *B,
                                const void *D, void *C, size_t stride_A, size_t stride_B, size_t stride_D,
                                size_t stride_C, scale_t A_scale_factor, scale_t B_scale_factor,
                                scale_acc_t D_scale_factor, int act, acc_scale_t scale, acc_scale_t bert_scale,
                                bool repeating_bias, size_t tile_I, size_t tile_J, size_t tile_K, bool transpose_A,
                                bool transpose_B, bool full_C, bool low_D, uint8_t weightA,
                                enum tiled_matmul_type_t tiled_matmul_type) {
  static const char *const type_names[] = {"OS", "WS", "CPU"};
  const char *type_name = (unsigned)tiled_matmul_type < 3 ? type_names[tiled_matmul_type] : "?";
  if (act != NO_ACTIVATION && act != RELU) gemmini_unsupported_activation("tiled_matmul", act);
  if (tiled_matmul_type == CPU) {
    gemmini_matmul_on_cpu(transpose_A, transpose_B, dim_I, dim_J, dim_K, A, B, D, C, stride_A, stride_B, stride_D,
                          stride_C, A_scale_factor, B_scale_factor, D_scale_factor, act, scale, bert_scale,
                          repeating_bias, full_C, low_D);
    return;
  }
  if (tiled_matmul_type != OS && tiled_matmul_type != WS) {
    printf("tiled_matmul: unknown tiled_matmul_type %d; use OS, WS or CPU\n", (int)tiled_matmul_type);
    exit(1);
  }
  if (tile_I == 0 || tile_J == 0 || tile_K == 0) {
    printf("tiled_matmul: tiling factors must be positive (tile_I=%d tile_J=%d tile_K=%d)\n", (int)tile_I,
           (int)tile_J, (int)tile_K);
    exit(1);
  }
  if (tile_I * DIM > gemmini_blocks_of(dim_I) * DIM || tile_J * DIM > gemmini_blocks_of(dim_J) * DIM ||
      tile_K * DIM > gemmini_blocks_of(dim_K) * DIM) {
    printf("tiled_matmul: a tiling factor is larger than its padded dimension (tile_I=%d tile_J=%d tile_K=%d for "
           "%dx%dx%d, DIM %d); use tiled_matmul_auto or smaller tiles\n",
           (int)tile_I, (int)tile_J, (int)tile_K, (int)dim_I, (int)dim_J, (int)dim_K, DIM);
    exit(1);
  }
  /* WS runs loop_ws, which double-buffers: one loop owns half of each memory. */
  const bool double_buffered = tiled_matmul_type == WS;
  const size_t spad_rows = double_buffered ? BANK_NUM * BANK_ROWS / 2 : BANK_NUM * BANK_ROWS;
  const size_t acc_rows = double_buffered ? ACC_ROWS / 2 : ACC_ROWS;
  if (tiled_matmul_total_spad_rows(tile_I, tile_J, tile_K) > spad_rows) {
    printf("tiled_matmul: tiles %dx%dx%d need %d scratchpad rows, %s has %d; use smaller tiles\n", (int)tile_I,
           (int)tile_J, (int)tile_K, (int)tiled_matmul_total_spad_rows(tile_I, tile_J, tile_K), type_name,
           (int)spad_rows);
    exit(1);
  }
  if (tiled_matmul_total_acc_rows(tile_I, tile_J) > acc_rows) {
    printf("tiled_matmul: tiles %dx%d need %d accumulator rows, %s has %d; use smaller tiles\n", (int)tile_I,
           (int)tile_J, (int)tiled_matmul_total_acc_rows(tile_I, tile_J), type_name, (int)acc_rows);
    exit(1);
  }
  if (tile_I > 65535 || tile_J > 65535 || tile_K > 65535) {
    printf("tiled_matmul: tiling factors must fit loop_ws's 16-bit fields\n");
    exit(1);
  }
  if ((tiled_matmul_type == OS && (transpose_A || transpose_B)) ||
      (tiled_matmul_type == WS && transpose_A && transpose_B)) {
    printf("tiled_matmul: %s with transpose_A=%d transpose_B=%d is not implemented (as in Gemmini); use WS with one "
           "transpose, or CPU\n",
           type_name, transpose_A, transpose_B);
    exit(1);
  }
  if (tiled_matmul_type == OS && low_D) {
    printf("tiled_matmul: OS with low_D is not implemented (as in Gemmini); use WS or an int32 bias\n");
    exit(1);
  }
  tiled_matmul_outer(dim_I, dim_J, dim_K, A, B, D, C, stride_A, stride_B, stride_D, stride_C, A_scale_factor,
                     B_scale_factor, D_scale_factor, tile_I, tile_J, tile_K, act, scale, bert_scale, repeating_bias,
                     transpose_A, transpose_B, full_C, low_D, weightA,
                     tiled_matmul_type == OS ? OUTPUT_STATIONARY : WEIGHT_STATIONARY);
}

static inline size_t gemmini_isqrt(size_t n) {
  size_t r = 0;
  while ((r + 1) * (r + 1) <= n) r++;
  return r;
}

/* A tiled matmul with tiling factors from the memory sizes: start from square-ish
 * tiles, then grow J, I and K while A, B and C still fit (half of each memory in
 * WS, whose loop double-buffers). */
static inline void tiled_matmul_auto(size_t dim_I, size_t dim_J, size_t dim_K, const elem_t *A, const elem_t *B,
                                     const void *D, void *C, size_t stride_A, size_t stride_B, size_t stride_D,
                                     size_t stride_C, scale_t A_scale_factor, scale_t B_scale_factor,
                                     scale_acc_t D_scale_factor, int act, acc_scale_t scale, acc_scale_t bert_scale,
                                     bool repeating_bias, bool transpose_A, bool transpose_B, bool full_C, bool low_D,
                                     uint8_t weightA, enum tiled_matmul_type_t tiled_matmul_type) {
  const bool double_buffered = tiled_matmul_type == WS;
  const size_t max_spad_rows = double_buffered ? BANK_NUM * BANK_ROWS / 2 : BANK_NUM * BANK_ROWS;
  const size_t max_acc_rows = double_buffered ? ACC_ROWS / 2 : ACC_ROWS;
  const size_t blocks_I = gemmini_blocks_of(dim_I), blocks_J = gemmini_blocks_of(dim_J),
               blocks_K = gemmini_blocks_of(dim_K);

  const size_t max_tile_i_j = gemmini_isqrt(max_acc_rows / DIM);
  const size_t max_tile_k = (max_spad_rows / 2 / DIM) / (max_tile_i_j ? max_tile_i_j : 1);
  size_t tile_I = blocks_I < max_tile_i_j ? blocks_I : max_tile_i_j;
  size_t tile_J = blocks_J < max_tile_i_j ? blocks_J : max_tile_i_j;
  size_t tile_K = blocks_K < max_tile_k ? blocks_K : max_tile_k;
  if (tile_I == 0) tile_I = 1;
  if (tile_J == 0) tile_J = 1;
  if (tile_K == 0) tile_K = 1;

  for (bool grew = true; grew;) {
    grew = false;
    if (tile_J + 1 <= blocks_J && tiled_matmul_total_spad_rows(tile_I, tile_J + 1, tile_K) <= max_spad_rows &&
        tiled_matmul_total_acc_rows(tile_I, tile_J + 1) <= max_acc_rows) {
      tile_J++;
      grew = true;
    }
    if (tile_I + 1 <= blocks_I && tiled_matmul_total_spad_rows(tile_I + 1, tile_J, tile_K) <= max_spad_rows &&
        tiled_matmul_total_acc_rows(tile_I + 1, tile_J) <= max_acc_rows) {
      tile_I++;
      grew = true;
    }
    if (tile_K + 1 <= blocks_K && tiled_matmul_total_spad_rows(tile_I, tile_J, tile_K + 1) <= max_spad_rows) {
      tile_K++;
      grew = true;
    }
  }

  tiled_matmul(dim_I, dim_J, dim_K, A, B, D, C, stride_A, stride_B, stride_D, stride_C, A_scale_factor,
               B_scale_factor, D_scale_factor, act, scale, bert_scale, repeating_bias, tile_I, tile_J, tile_K,
               transpose_A, transpose_B, full_C, low_D, weightA, tiled_matmul_type);
}

/* ---------------------------------------------------------------------------
 * Residual add: C = act(C_scale * (A_scale * A + B_scale * B)), int8 I x J
 * matrices with row stride J. Both operands are moved into the accumulator as
 * int8 ("shrunk"), the second with the accumulate bit, and moved out scaled.
 * ------------------------------------------------------------------------- */
static inline void resadd_cpu(const size_t I, const size_t J, const scale_t A_scale, const scale_t B_scale,
                              const acc_scale_t C_scale, const elem_t *A, const elem_t *B, elem_t *C, bool relu) {
  for (size_t i = 0; i < I; i++) {
    for (size_t j = 0; j < J; j++) {
      const acc_t sum = (acc_t)GEMMINI_SCALE(A[i * J + j], A_scale) + (acc_t)GEMMINI_SCALE(B[i * J + j], B_scale);
      C[i * J + j] = scale_and_sat(sum, relu ? RELU : NO_ACTIVATION, C_scale, 0);
    }
  }
}

static inline void sp_tiled_resadd(const size_t I, const size_t J, const scale_t A_scale, const scale_t B_scale,
                                   const elem_t *A, const elem_t *B, elem_t *C, size_t A_row_stride,
                                   size_t B_row_stride, size_t C_row_stride, bool relu) {
  (void)A_scale;
  (void)B_scale;
  (void)relu;
  size_t blocks = gemmini_blocks_of(J);
  if (blocks > MAX_BLOCK_LEN_ACC) blocks = MAX_BLOCK_LEN_ACC;
  const size_t row_blocks = gemmini_blocks_of(J); /* accumulator rows per DIM rows of the tile, / DIM */
  for (size_t i = 0; i < I; i += DIM) {
    for (size_t j = 0; j < J; j += blocks * DIM) {
      const size_t cols = j + blocks * DIM <= J ? blocks * DIM : J - j;
      const size_t rows = i + DIM <= I ? DIM : I - i;
      const uint32_t row = (uint32_t)(i * row_blocks + j);
      gemmini_extended_mvin(A + i * A_row_stride + j, GEMMINI_ACC_ADDR + row, cols, rows);
      gemmini_extended_mvin2(B + i * B_row_stride + j, (GEMMINI_ACC_ADDR | GEMMINI_ACC_ACCUMULATE) + row, cols, rows);
    }
  }
  for (size_t i = 0; i < I; i += DIM) {
    for (size_t j = 0; j < J; j += blocks * DIM) {
      const size_t cols = j + blocks * DIM <= J ? blocks * DIM : J - j;
      const size_t rows = i + DIM <= I ? DIM : I - i;
      const uint32_t row = (uint32_t)(i * row_blocks + j);
      gemmini_extended_mvout(C + i * C_row_stride + j, GEMMINI_ACC_ADDR + row, cols, rows);
    }
  }
}

static inline void tiled_resadd(const size_t I, const size_t J, const size_t tile_I, const size_t tile_J,
                                const scale_t A_scale, const scale_t B_scale, const acc_scale_t C_scale,
                                const elem_t *A, const elem_t *B, elem_t *C, bool relu,
                                enum tiled_matmul_type_t matadd_type) {
  if (matadd_type == CPU) {
    resadd_cpu(I, J, A_scale, B_scale, C_scale, A, B, C, relu);
    return;
  }
  gemmini_extended_config_st(J * sizeof(elem_t), relu ? RELU : NO_ACTIVATION, C_scale);
  gemmini_config_ex(WS, 0, 0);
  gemmini_extended4_config_ld(J * sizeof(elem_t), A_scale, true, DIM, 0);
  gemmini_extended4_config_ld(J * sizeof(elem_t), B_scale, true, DIM, 1);
  for (size_t i = 0; i < I; i += tile_I) {
    for (size_t j = 0; j < J; j += tile_J) {
      const size_t I_tile = i + tile_I <= I ? tile_I : I - i;
      const size_t J_tile = j + tile_J <= J ? tile_J : J - j;
      sp_tiled_resadd(I_tile, J_tile, A_scale, B_scale, A + i * J + j, B + i * J + j, C + i * J + j, J, J, J,
                      relu);
    }
  }
  gemmini_fence();
}

static inline void tiled_resadd_auto(const size_t I, const size_t J, const scale_t A_scale, const scale_t B_scale,
                                     const acc_scale_t C_scale, const elem_t *A, const elem_t *B, elem_t *C,
                                     bool relu, enum tiled_matmul_type_t matadd_type) {
  if (matadd_type == CPU) {
    resadd_cpu(I, J, A_scale, B_scale, C_scale, A, B, C, relu);
    return;
  }
  /* The largest tile whose int8 rows fit the accumulator (each DIM columns of
   * each row take one accumulator row); shrink rows first, then columns. */
  size_t tile_I = I, tile_J = J;
  while (gemmini_blocks_of(tile_I) * DIM * gemmini_blocks_of(tile_J) > ACC_ROWS) {
    if (tile_I > DIM) {
      tile_I -= DIM;
    } else if (tile_I > 1) {
      tile_I--;
    } else {
      tile_J--;
    }
  }
  tiled_resadd(I, J, tile_I, tile_J, A_scale, B_scale, C_scale, A, B, C, relu, matadd_type);
}

/* ---------------------------------------------------------------------------
 * Global average pooling: input is batches x dim x dim x channels (NHWC), output
 * batches x channels; each pixel's channels are added into one accumulator row
 * per DIM channels, and the sum moved out with the scale 1 / (dim * dim).
 * ------------------------------------------------------------------------- */
static inline void global_average_cpu(const elem_t *input, elem_t *output, int batches, int channels, int dim) {
  const int count = dim * dim;
  const acc_scale_t scale = (acc_scale_t)1.0 / count;
  for (int batch = 0; batch < batches; batch++) {
    for (int channel = 0; channel < channels; channel++) {
      acc_t sum = 0;
      for (int pixel = 0; pixel < count; pixel++) sum += input[((size_t)batch * count + pixel) * channels + channel];
      output[batch * channels + channel] = scale_and_sat(sum, NO_ACTIVATION, scale, 0);
    }
  }
}

static inline void sp_tiled_global_average(const elem_t *input, elem_t *output, int batches, int channels, int dim,
                                           int channel_tile_size) {
  (void)batches;
  size_t blocks = gemmini_blocks_of((size_t)channel_tile_size);
  if (blocks > MAX_BLOCK_LEN_ACC) blocks = MAX_BLOCK_LEN_ACC;
  for (int channel = 0; channel < channel_tile_size; channel += blocks * DIM) {
    const size_t cols = channel + blocks * DIM <= (size_t)channel_tile_size ? blocks * DIM
                                                                           : (size_t)(channel_tile_size - channel);
    for (int pixel = 0; pixel < dim * dim; pixel++) {
      /* the first pixel overwrites, the others accumulate */
      const uint32_t acc = (GEMMINI_ACC_ADDR | (pixel != 0 ? GEMMINI_ACC_ACCUMULATE : 0)) + channel / DIM;
      gemmini_extended_mvin(input + (size_t)pixel * channels + channel, acc, cols, 1);
    }
  }
  for (int channel = 0; channel < channel_tile_size; channel += DIM) {
    const size_t cols = channel + DIM <= channel_tile_size ? DIM : (size_t)(channel_tile_size - channel);
    gemmini_extended_mvout(output + channel, GEMMINI_ACC_ADDR + channel / DIM, cols, 1);
  }
}

static inline void tiled_global_average(const elem_t *input, elem_t *output, int batches, int channels, int dim,
                                        int channel_tile_size) {
  /* block stride 1: the blocks of one mvin land in consecutive accumulator rows */
  gemmini_extended4_config_ld(DIM * sizeof(elem_t), MVIN_SCALE_IDENTITY, true, 1, 0);
  gemmini_config_ex(0, NO_ACTIVATION, 0);
  gemmini_extended_config_st(0, NO_ACTIVATION, (acc_scale_t)1.0 / (dim * dim));
  for (int batch = 0; batch < batches; batch++) {
    for (int channel = 0; channel < channels; channel += channel_tile_size) {
      const int tile = channel + channel_tile_size <= channels ? channel_tile_size : channels - channel;
      sp_tiled_global_average(input + (size_t)batch * dim * dim * channels + channel,
                              output + (size_t)batch * channels + channel, batches, channels, dim, tile);
    }
  }
  gemmini_fence();
}

static inline void tiled_global_average_auto(const elem_t *input, elem_t *output, int batches, int channels,
                                             int dim, enum tiled_matmul_type_t type) {
  if (type == CPU) {
    global_average_cpu(input, output, batches, channels, dim);
    return;
  }
  int channel_tile_size = channels;
  while ((int)gemmini_blocks_of((size_t)channel_tile_size) > ACC_ROWS) channel_tile_size--;
  tiled_global_average(input, output, batches, channels, dim, channel_tile_size);
}

/* Convolutions and pooling (tiled_conv*, tiled_pool*). */
#include "gemmini_conv.h"

#endif /* SRC_MAIN_C_GEMMINI_H */
