// RUN: python -m compiler.replay vectorization --target t1-small --no-locations %s | filecheck %s
// a @ b of 4x8 by 8x16 after tiling (t1-small): every tile is vectorized (the fill's row as a
// transfer_write of vector<1x16xf32>, the matmul's 1x1 by 1x8 step as a vector.contract).

// CHECK-LABEL: func.func @forward
// CHECK-NOT:   linalg.generic
// CHECK:       vector.transfer_write %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {in_bounds = [true, true]} : vector<1x16xf32>
// CHECK:       %[[A:.+]] = vector.transfer_read {{.+}} : memref<1x1xf32, strided<[8, 1], offset: ?>>, vector<1x1xf32>
// CHECK:       %[[B:.+]] = vector.transfer_read {{.+}} : memref<1x8xf32, strided<[16, 1], offset: ?>>, vector<1x8xf32>
// CHECK:       %[[C:.+]] = vector.transfer_read {{.+}} : memref<1x8xf32, strided<[16, 1], offset: ?>>, vector<1x8xf32>
// CHECK:       %[[R:.+]] = vector.contract {{.+}} %[[A]], %[[B]], %[[C]] : vector<1x1xf32>, vector<1x8xf32> into vector<1x8xf32>
// CHECK:       vector.transfer_write %[[R]]
// CHECK-NOT:   linalg.generic

#map = affine_map<(d0, d1) -> ()>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @forward(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}, %arg2: memref<4x16xf32> {llvm.noalias}) {
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %c0_0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c1 = arith.constant 1 : index
    %c16_1 = arith.constant 16 : index
    scf.for %arg3 = %c0 to %c4 step %c1 {
      scf.for %arg4 = %c0_0 to %c16 step %c16_1 {
        %subview = memref.subview %arg2[%arg3, %arg4] [1, 16] [1, 1] : memref<4x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
        linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst : f32) outs(%subview : memref<1x16xf32, strided<[16, 1], offset: ?>>) attrs =  {cosim_tile = 0 : i64} {
        ^bb0(%in: f32, %out: f32):
          linalg.yield %in : f32
        }
      }
    }
    %c0_2 = arith.constant 0 : index
    %c0_3 = arith.constant 0 : index
    %c0_4 = arith.constant 0 : index
    %c4_5 = arith.constant 4 : index
    %c16_6 = arith.constant 16 : index
    %c8 = arith.constant 8 : index
    %c1_7 = arith.constant 1 : index
    %c8_8 = arith.constant 8 : index
    %c1_9 = arith.constant 1 : index
    scf.for %arg3 = %c0_2 to %c4_5 step %c1_7 {
      scf.for %arg4 = %c0_3 to %c16_6 step %c8_8 {
        scf.for %arg5 = %c0_4 to %c8 step %c1_9 {
          %subview = memref.subview %arg0[%arg3, %arg5] [1, 1] [1, 1] : memref<4x8xf32> to memref<1x1xf32, strided<[8, 1], offset: ?>>
          %subview_10 = memref.subview %arg1[%arg5, %arg4] [1, 8] [1, 1] : memref<8x16xf32> to memref<1x8xf32, strided<[16, 1], offset: ?>>
          %subview_11 = memref.subview %arg2[%arg3, %arg4] [1, 8] [1, 1] : memref<4x16xf32> to memref<1x8xf32, strided<[16, 1], offset: ?>>
          linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%subview, %subview_10 : memref<1x1xf32, strided<[8, 1], offset: ?>>, memref<1x8xf32, strided<[16, 1], offset: ?>>) outs(%subview_11 : memref<1x8xf32, strided<[16, 1], offset: ?>>) attrs =  {cosim_tile = 1 : i64} {
          ^bb0(%in: f32, %in_12: f32, %out: f32):
            %0 = arith.mulf %in, %in_12 : f32
            %1 = arith.addf %out, %0 : f32
            linalg.yield %1 : f32
          }
        }
      }
    }
    return
  }
}
