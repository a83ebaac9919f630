// RUN: python -m compiler.replay narrow-matmul-flattening --target t1-small --no-locations %s | filecheck %s
// a @ b of 8x16 by 16x1 (N = 1): the 8 output rows as one vector, per k two constant-index gathers
// and one FMA.

// CHECK-LABEL: func.func @forward
// CHECK:       arith.constant dense<[0, 16, 32, 48, 64, 80, 96, 112]> : vector<8xi32>
// CHECK:       scf.for
// CHECK:         scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (vector<8xf32>)
// CHECK:           %[[A:.+]] = vector.gather %arg0{{.*}} : memref<8x16xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK:           %[[B:.+]] = vector.gather %arg1{{.*}} : memref<16x1xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK:           vector.fma %[[A]], %[[B]], %[[ACC]] : vector<8xf32>
// CHECK:         vector.store %{{.+}}, %arg2[{{.*}}] : memref<8x1xf32>, vector<8xf32>
// CHECK-NOT:   linalg.generic

#map = affine_map<(d0, d1) -> ()>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @forward(%arg0: memref<8x16xf32> {llvm.noalias}, %arg1: memref<16x1xf32> {llvm.noalias}, %arg2: memref<8x1xf32> {llvm.noalias}) {
    %cst = arith.constant 0.000000e+00 : f32
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst : f32) outs(%arg2 : memref<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : memref<8x16xf32>, memref<16x1xf32>) outs(%arg2 : memref<8x1xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %0 = arith.mulf %in, %in_0 : f32
      %1 = arith.addf %out, %0 : f32
      linalg.yield %1 : f32
    }
    return
  }
}
