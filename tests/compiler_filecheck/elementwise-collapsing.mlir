// RUN: python -m compiler.replay elementwise-collapsing --target t1-small --no-locations %s | filecheck %s
// x * w.view(8, 1, 1) of 2x8x4x4: the two inner dims every operand reads alike become one
// (rows of 16, not 4).

// CHECK-LABEL: func.func @forward
// CHECK-DAG:   %[[X:.+]] = memref.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : memref<2x8x4x4xf32> into memref<2x8x16xf32>
// CHECK-DAG:   %[[W:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0, 1, 2]] : memref<8x1x1xf32> into memref<8xf32>
// CHECK-DAG:   %[[OUT:.+]] = memref.collapse_shape %arg2 {{\[}}[0], [1], [2, 3]] : memref<2x8x4x4xf32> into memref<2x8x16xf32>
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]{{.*}} ins(%[[X]], %[[W]] : memref<2x8x16xf32>, memref<8xf32>) outs(%[[OUT]] : memref<2x8x16xf32>)
// CHECK:         arith.mulf

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
module {
  func.func @forward(%arg0: memref<2x8x4x4xf32> {llvm.noalias}, %arg1: memref<8xf32> {llvm.noalias}, %arg2: memref<2x8x4x4xf32> {llvm.noalias}) {
    %expand_shape = memref.expand_shape %arg1 [[0, 1, 2]] output_shape [8, 1, 1] : memref<8xf32> into memref<8x1x1xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %expand_shape : memref<2x8x4x4xf32>, memref<8x1x1xf32>) outs(%arg2 : memref<2x8x4x4xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %0 = arith.mulf %in, %in_0 : f32
      linalg.yield %0 : f32
    }
    return
  }
}
