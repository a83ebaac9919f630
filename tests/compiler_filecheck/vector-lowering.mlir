// RUN: python -m compiler.replay vector-lowering --target t1-small --no-locations %s | filecheck %s
// a @ b of 4x8 by 8x16 after contractions-to-reductions (t1-small): the contraction of a matmul row
// is lowered as an outer product (a broadcast A scalar, one vector.fma per k step); transfers become
// plain vector loads and stores, and the row's accumulator is carried through the k loop.

// CHECK-LABEL: func.func @forward
// CHECK-NOT:   vector.contract
// CHECK:       vector.store %{{.+}}, %arg2[%{{.+}}, %{{.+}}] : memref<4x16xf32>, vector<16xf32>
// CHECK:       %[[ACC:.+]] = vector.load %arg2[%{{.+}}, %{{.+}}] : memref<4x16xf32>, vector<8xf32>
// CHECK:       %[[OUT:.+]] = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[IT:.+]] = %[[ACC]]) -> (vector<8xf32>) {
// CHECK:         %[[A:.+]] = memref.load %arg0
// CHECK:         %[[B:.+]] = vector.load %arg1{{.+}} vector<8xf32>
// CHECK:         %[[S:.+]] = vector.broadcast %[[A]] : f32 to vector<8xf32>
// CHECK:         %[[F:.+]] = vector.fma %[[S]], %[[B]], %[[IT]] : vector<8xf32>
// CHECK:         scf.yield %[[F]] : vector<8xf32>
// CHECK:       vector.store %[[OUT]], %arg2
// CHECK-NOT:   vector.contract

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @forward(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}, %arg2: memref<4x16xf32> {llvm.noalias}) {
    %0 = ub.poison : f32
    %cst = arith.constant dense<0.000000e+00> : vector<1x16xf32>
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c1 = arith.constant 1 : index
    scf.for %arg3 = %c0 to %c4 step %c1 {
      %subview = memref.subview %arg2[%arg3, 0] [1, 16] [1, 1] : memref<4x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
      vector.transfer_write %cst, %subview[%c0, %c0] {in_bounds = [true, true]} : vector<1x16xf32>, memref<1x16xf32, strided<[16, 1], offset: ?>>
    }
    scf.for %arg3 = %c0 to %c4 step %c1 {
      scf.for %arg4 = %c0 to %c16 step %c8 {
        scf.for %arg5 = %c0 to %c8 step %c1 {
          %subview = memref.subview %arg0[%arg3, %arg5] [1, 1] [1, 1] : memref<4x8xf32> to memref<1x1xf32, strided<[8, 1], offset: ?>>
          %subview_0 = memref.subview %arg1[%arg5, %arg4] [1, 8] [1, 1] : memref<8x16xf32> to memref<1x8xf32, strided<[16, 1], offset: ?>>
          %subview_1 = memref.subview %arg2[%arg3, %arg4] [1, 8] [1, 1] : memref<4x16xf32> to memref<1x8xf32, strided<[16, 1], offset: ?>>
          %1 = vector.transfer_read %subview[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x1xf32, strided<[8, 1], offset: ?>>, vector<1x1xf32>
          %2 = vector.transfer_read %subview_0[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xf32, strided<[16, 1], offset: ?>>, vector<1x8xf32>
          %3 = vector.transfer_read %subview_1[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xf32, strided<[16, 1], offset: ?>>, vector<1x8xf32>
          %4 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %1, %2, %3 : vector<1x1xf32>, vector<1x8xf32> into vector<1x8xf32>
          vector.transfer_write %4, %subview_1[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf32>, memref<1x8xf32, strided<[16, 1], offset: ?>>
        }
      }
    }
    return
  }
}
