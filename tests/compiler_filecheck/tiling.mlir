// RUN: python -m compiler.replay tiling --target t1-small --no-locations %s | filecheck %s
// a @ b of 4x8 by 8x16 after narrow-loop-splitting (t1-small: VLEN 256, DLEN 64): every linalg op is
// tiled by its plan in one interpreter run and tagged cosim_tile = N. The fill runs a row of 16 per
// step; the matmul two column tiles of 8 (a column tile must leave Q >= 2 tiles per row), k by 1.

// CHECK-LABEL: func.func @forward
// CHECK:       scf.for %[[R0:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:         scf.for %[[C0:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:           memref.subview %arg2[%[[R0]], %[[C0]]] [1, 16] [1, 1]
// CHECK:           linalg.generic {{.*}} attrs =  {cosim_tile = 0 : i64}
// CHECK:       scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:         scf.for %[[C:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:           scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:             memref.subview %arg0[%[[R]], %[[K]]] [1, 1] [1, 1]
// CHECK:             memref.subview %arg1[%[[K]], %[[C]]] [1, 8] [1, 1]
// CHECK:             memref.subview %arg2[%[[R]], %[[C]]] [1, 8] [1, 1]
// CHECK:             linalg.generic {{.*}} attrs =  {cosim_tile = 1 : i64}

#map = affine_map<(d0, d1) -> ()>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @forward(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}, %arg2: memref<4x16xf32> {llvm.noalias}) {
    %cst = arith.constant 0.000000e+00 : f32
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst : f32) outs(%arg2 : memref<4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : memref<4x8xf32>, memref<8x16xf32>) outs(%arg2 : memref<4x16xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %0 = arith.mulf %in, %in_0 : f32
      %1 = arith.addf %out, %0 : f32
      linalg.yield %1 : f32
    }
    return
  }
}
