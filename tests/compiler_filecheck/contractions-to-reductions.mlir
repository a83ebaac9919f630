// RUN: python -m compiler.replay contractions-to-reductions --target t1-small --no-locations %s | filecheck %s
// (a * v).sum(-1) of 4x64 after vectorization: the vector.contract over k = 64 becomes a multiply
// and a multi_reduction (lowered later to one ordered reduction per row).

// CHECK-LABEL: func.func @forward
// CHECK:       %[[A:.+]] = vector.transfer_read %{{.+}} : memref<1x64xf32, strided<[64, 1], offset: ?>>, vector<1x64xf32>
// CHECK:       %[[V:.+]] = vector.transfer_read %arg1{{.*}} : memref<64xf32>, vector<64xf32>
// CHECK:       %[[ACC:.+]] = vector.transfer_read %{{.+}} : memref<1xf32, strided<[1], offset: ?>>, vector<1xf32>
// CHECK-NOT:   vector.contract
// CHECK:       %[[VB:.+]] = vector.broadcast %[[V]] : vector<64xf32> to vector<1x64xf32>
// CHECK:       %[[P:.+]] = arith.mulf %[[A]], %[[VB]] : vector<1x64xf32>
// CHECK:       %[[R:.+]] = vector.multi_reduction <add>, %[[P]], %[[ACC]] [1] : vector<1x64xf32> to vector<1xf32>
// CHECK:       vector.transfer_write %[[R]]

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0)>
module {
  func.func @forward(%arg0: memref<4x64xf32> {llvm.noalias}, %arg1: memref<64xf32> {llvm.noalias}, %arg2: memref<4xf32> {llvm.noalias}) {
    %0 = ub.poison : f32
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %cst = arith.constant dense<0.000000e+00> : vector<4xf32>
    vector.transfer_write %cst, %arg2[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
    scf.for %arg3 = %c0 to %c4 step %c1 {
      %subview = memref.subview %arg0[%arg3, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
      %subview_0 = memref.subview %arg2[%arg3] [1] [1] : memref<4xf32> to memref<1xf32, strided<[1], offset: ?>>
      %1 = vector.transfer_read %subview[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x64xf32, strided<[64, 1], offset: ?>>, vector<1x64xf32>
      %2 = vector.transfer_read %arg1[%c0], %0 {in_bounds = [true]} : memref<64xf32>, vector<64xf32>
      %3 = vector.transfer_read %subview_0[%c0], %0 {in_bounds = [true]} : memref<1xf32, strided<[1], offset: ?>>, vector<1xf32>
      %4 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %1, %2, %3 : vector<1x64xf32>, vector<64xf32> into vector<1xf32>
      vector.transfer_write %4, %subview_0[%c0] {in_bounds = [true]} : vector<1xf32>, memref<1xf32, strided<[1], offset: ?>>
    }
    return
  }
}
