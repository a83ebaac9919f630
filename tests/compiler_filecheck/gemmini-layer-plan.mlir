// RUN: python -m compiler.replay gemmini-layer-plan --target gemmini-dim4 --no-locations %s | filecheck %s
// cosim_q.linear(x 7x13, w 5x13, bias, scale 0.25, relu) after canonicalize-cse (gemmini-dim4: DIM 4,
// 4096 scratchpad rows, 256 accumulator rows): the layer function gets its loop_ws plan, one loop of
// 2 x 2 x 4 blocks with the last blocks padded by 1, 3 and 3 elements, B (the weights) stored
// transposed, and a body that reads its arguments and returns a fresh tensor for bufferization.
// CHECK-LABEL: func.func private @cosim_q_linear_0(
// CHECK-SAME: gemmini.plan = {
// CHECK-SAME: bias = "mvin3 int32 into the accumulator, one row repeated (DRAM stride 0)"
// CHECK-SAME: blocks_ijk = [2, 2, 4], dataflow = "WS", dim = 4 : i64
// CHECK-SAME: hardware_loop = "loop_ws"
// CHECK-SAME: loops_ijk = [1, 1, 1], macs = 455 : i64, mnk = [7, 5, 13], padding_ijk = [1, 3, 3]
// CHECK-SAME: requant = "config_st: scale 0.25 (fp32) on mvout, int8 saturation, ReLU"
// CHECK-SAME: sp_b = "rows [{{[0-9]+}}, 2044) + h*2048 (B stored transposed)"
// CHECK-SAME: tile_ijk = [2, 2, 4]
// CHECK: bufferization.to_buffer %arg0 read_only
// CHECK: bufferization.to_buffer %arg2 read_only
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<7x5xi8>
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK: return %[[T]] : tensor<7x5xi8>

module {
  func.func @forward(%arg0: tensor<7x13xi8>, %arg1: tensor<5x13xi8>, %arg2: tensor<5xi32>) -> tensor<7x5xi8> {
    %0 = call @cosim_q_linear_0(%arg0, %arg1, %arg2) : (tensor<7x13xi8>, tensor<5x13xi8>, tensor<5xi32>) -> tensor<7x5xi8>
    return %0 : tensor<7x5xi8>
  }
  func.func private @cosim_q_linear_0(tensor<7x13xi8>, tensor<5x13xi8>, tensor<5xi32>) -> tensor<7x5xi8> attributes {cosim_q.op = "linear", cosim_q.operands = ["x", "w", "bias"], cosim_q.relu = true, cosim_q.scale = 2.500000e-01 : f64}
}
