// RUN: python -m compiler.replay output-copy-elimination --target t1-small --no-locations %s | filecheck %s
// (x + 1.0).reshape(6, 4) of 4x6: the temporary is only reshaped and copied into the output, so
// the add writes the output (viewed as 4x6) directly; the alloca and the copy are gone.

// CHECK-LABEL: func.func @forward
// CHECK-NOT:   memref.alloca
// CHECK:       %[[VIEW:.+]] = memref.reinterpret_cast %arg1 to offset: [0], sizes: [4, 6], strides: [6, 1] : memref<6x4xf32> to memref<4x6xf32>
// CHECK:       linalg.generic {{.*}} ins(%arg0 : memref<4x6xf32>) outs(%[[VIEW]] : memref<4x6xf32>)
// CHECK-NOT:   memref.copy
// CHECK:       return

#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @forward(%arg0: memref<4x6xf32>, %arg1: memref<6x4xf32>) {
    %cst = arith.constant 1.000000e+00 : f32
    %alloca = memref.alloca() {alignment = 64 : i64} : memref<4x6xf32>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : memref<4x6xf32>) outs(%alloca : memref<4x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %in, %cst : f32
      linalg.yield %0 : f32
    }
    %collapse_shape = memref.collapse_shape %alloca [[0, 1]] : memref<4x6xf32> into memref<24xf32>
    %expand_shape = memref.expand_shape %collapse_shape [[0, 1]] output_shape [6, 4] : memref<24xf32> into memref<6x4xf32>
    memref.copy %expand_shape, %arg1 : memref<6x4xf32> to memref<6x4xf32>
    return
  }
}
