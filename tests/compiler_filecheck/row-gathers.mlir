// RUN: python -m compiler.replay row-gathers --target t1-small --no-locations %s | filecheck %s
// Two embedding tables summed (ids 1x4, rows of 64): per token both ids read and
// checked once, then per 32-element chunk (VLMAX at LMUL 4 on t1-small) one row load
// of each table, one vector add and one store.

// CHECK-LABEL: func.func @forward
// CHECK:       scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:         %[[A:.+]] = memref.load %arg0[%{{.+}}, %[[I]]] : memref<1x4xi64>
// CHECK:         %[[B:.+]] = memref.load %arg1[%{{.+}}, %[[I]]] : memref<1x4xi64>
// CHECK:         %[[XB:.+]] = arith.index_cast %[[B]] : i64 to index
// CHECK:         cf.assert %{{.+}}, "index must be smaller than dim size"
// CHECK:         %[[XA:.+]] = arith.index_cast %[[A]] : i64 to index
// CHECK:         cf.assert %{{.+}}, "index must be smaller than dim size"
// CHECK:         scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:           %[[RB:.+]] = vector.load %arg3[%[[XB]], %[[J]]] : memref<12x64xf32>, vector<32xf32>
// CHECK:           %[[RA:.+]] = vector.load %arg2[%[[XA]], %[[J]]] : memref<50x64xf32>, vector<32xf32>
// CHECK:           %[[S:.+]] = arith.addf %[[RA]], %[[RB]] : vector<32xf32>
// CHECK:           vector.store %[[S]], %arg4[%{{.+}}, %[[I]], %[[J]]] : memref<1x4x64xf32>, vector<32xf32>
// CHECK-NOT:   linalg.generic

#map = affine_map<(d0, d1, d2) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @forward(%arg0: memref<1x4xi64> {llvm.noalias}, %arg1: memref<1x4xi64> {llvm.noalias}, %arg2: memref<50x64xf32> {llvm.noalias}, %arg3: memref<12x64xf32> {llvm.noalias}, %arg4: memref<1x4x64xf32> {llvm.noalias}) {
    %c50 = arith.constant 50 : index
    %c12 = arith.constant 12 : index
    linalg.generic {indexing_maps = [#map, #map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %arg1 : memref<1x4xi64>, memref<1x4xi64>) outs(%arg4 : memref<1x4x64xf32>) {
    ^bb0(%in: i64, %in_0: i64, %out: f32):
      %0 = linalg.index 2 : index
      %1 = arith.index_cast %in_0 : i64 to index
      %2 = arith.cmpi slt, %1, %c12 : index
      cf.assert %2, "index must be smaller than dim size"
      %3 = memref.load %arg3[%1, %0] : memref<12x64xf32>
      %4 = arith.index_cast %in : i64 to index
      %5 = arith.cmpi slt, %4, %c50 : index
      cf.assert %5, "index must be smaller than dim size"
      %6 = memref.load %arg2[%4, %0] : memref<50x64xf32>
      %7 = arith.addf %6, %3 : f32
      linalg.yield %7 : f32
    }
    return
  }
}
