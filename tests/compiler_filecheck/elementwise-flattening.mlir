// RUN: python -m compiler.replay elementwise-flattening --target t1-small --no-locations %s | filecheck %s
// x.t() * 2.0 of 6x8: flat tiles of 24 output elements, the input gathered with a constant index
// vector (the transposition's pattern), stored unit-stride.

// CHECK-LABEL: func.func @forward
// CHECK:       %[[IDX:.+]] = arith.constant dense<[0, 8, 16, 24, 32, 40, 1, 9, 17, 25, 33, 41, 2, 10, 18, 26, 34, 42, 3, 11, 19, 27, 35, 43]> : vector<24xi32>
// CHECK:       scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:         %[[G:.+]] = vector.gather %arg0[%{{.+}}, %{{.+}}] [%[[IDX]]]{{.*}} : memref<6x8xf32>, vector<24xi32>, vector<24xi1>, vector<24xf32> into vector<24xf32>
// CHECK:         %[[P:.+]] = arith.mulf %[[G]], %{{.+}} : vector<24xf32>
// CHECK:         vector.store %[[P]], %arg1[{{.*}}] : memref<8x6xf32>, vector<24xf32>
// CHECK-NOT:   linalg.generic

#map = affine_map<(d0, d1) -> (d1, d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @forward(%arg0: memref<6x8xf32> {llvm.noalias}, %arg1: memref<8x6xf32> {llvm.noalias}) {
    %cst = arith.constant 2.000000e+00 : f32
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg0 : memref<6x8xf32>) outs(%arg1 : memref<8x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %cst : f32
      linalg.yield %0 : f32
    }
    return
  }
}
