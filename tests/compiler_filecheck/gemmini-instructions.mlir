// RUN: python -m compiler.replay gemmini-instructions --target gemmini-dim4 --no-locations %s | filecheck %s
// cosim_q.matmul(a 33x17, b 17x20, no bias, scale 0.1) after arguments-noalias (gemmini-dim4): the plan
// is two loop_ws along I (tiles of 5 x 5 x 5 blocks, the last I block padded by 3 rows, K by 3). The
// body: fence, config_ex/st/ld, an scf.for over the two I steps computing bounds, paddings and the A
// and C addresses from the base pointers, one loop_ws each (no D: the first K step overwrites), fence.
// forward's stack temporary, only copied into the output, goes: the layer writes the output itself.
// CHECK-LABEL: func.func @forward(
// CHECK-NEXT: call @cosim_q_matmul_0(%arg0, %arg1, %arg2) :
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @cosim_q_matmul_0(
// CHECK: %[[A:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[C:.*]] = memref.extract_aligned_pointer_as_index %arg2
// CHECK: llvm.inline_asm has_side_effects "fence"
// CHECK: ".insn r 0x7b, 3, 0, x0, $0, $1  # gemmini config_ex WS"
// CHECK: ".insn r 0x7b, 3, 0, x0, $0, $1  # gemmini config_st scale 0.10000000149011612"
// CHECK: ".insn r 0x7b, 3, 0, x0, $0, $1  # gemmini config_ld A stride 17"
// CHECK: ".insn r 0x7b, 3, 0, x0, $0, $1  # gemmini config_ld B stride 20"
// CHECK: ".insn r 0x7b, 3, 0, x0, $0, $1  # gemmini config_ld D stride 0"
// CHECK: scf.for %[[I:.*]] = %c0 to %c2 step %c1 {
// CHECK: arith.minsi
// CHECK: ".insn r 0x7b, 3, 9, x0, $0, $1  # gemmini loop_ws_config_bounds"
// CHECK: ".insn r 0x7b, 3, 10, x0, $0, $1  # gemmini loop_ws_config_addrs_ab"
// CHECK: ".insn r 0x7b, 3, 11, x0, $0, $1  # gemmini loop_ws_config_addrs_dc"
// CHECK: ".insn r 0x7b, 3, 12, x0, $0, $1  # gemmini loop_ws_config_strides_ab"
// CHECK: ".insn r 0x7b, 3, 13, x0, $0, $1  # gemmini loop_ws_config_strides_dc"
// CHECK: ".insn r 0x7b, 3, 8, x0, $0, $1  # gemmini loop_ws"
// CHECK-NEXT: }
// CHECK-NEXT: llvm.inline_asm has_side_effects "fence"
// CHECK-NEXT: return

module {
  func.func @forward(%arg0: memref<33x17xi8> {llvm.noalias}, %arg1: memref<17x20xi8> {llvm.noalias}, %arg2: memref<33x20xi8> {llvm.noalias}) {
    %alloca = memref.alloca() : memref<33x20xi8>
    call @cosim_q_matmul_0(%arg0, %arg1, %alloca) : (memref<33x17xi8>, memref<17x20xi8>, memref<33x20xi8>) -> ()
    memref.copy %alloca, %arg2 : memref<33x20xi8> to memref<33x20xi8>
    return
  }
  func.func private @cosim_q_matmul_0(%arg0: memref<33x17xi8>, %arg1: memref<17x20xi8>, %arg2: memref<33x20xi8>) attributes {cosim_q.op = "matmul", cosim_q.operands = ["a", "b"], cosim_q.relu = false, cosim_q.scale = 1.000000e-01 : f64, gemmini.plan = {acc_c = "rows [0, 100) + h*128", batch = 1 : i64, bias = "none", blocks_ijk = [9, 5, 5], dataflow = "WS", dim = 4 : i64, dma_bytes = 1901 : i64, double_buffered = "scratchpad halves of 2048 rows, accumulator halves of 128", hardware_loop = "loop_ws", layer = "matmul 33x17 @ 17x20", loop_ws_per_layer = 2 : i64, loops_ijk = [2, 1, 1], macs = 11220 : i64, mnk = [33, 20, 17], padding_ijk = [3, 0, 3], requant = "config_st: scale 0.10000000149011612 (fp32) on mvout, int8 saturation", sp_a = "rows [0, 100) + h*2048", sp_b = "rows [1944, 2044) + h*2048", tile_ijk = [5, 5, 5]}} {
    return
  }
}
