// RUN: python -m compiler.replay memory-barriers --target t1-small --no-locations %s | filecheck %s
// torch.relu(a @ b) of 4x8 by 8x16: a barrier after the matmul, whose output the relu reads; none
// after the fill (forwarded into the matmul's accumulators) nor after the relu (nothing reads it).

// CHECK-LABEL: func.func @forward
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%cst{{.*}} outs(%arg2
// CHECK-NOT:   llvm.inline_asm
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:       linalg.yield
// CHECK-NEXT:  }
// CHECK-NEXT:  llvm.inline_asm has_side_effects "", "~{memory}"  : () -> ()
// CHECK-NEXT:  linalg.generic {{.*}} ins(%arg2 : memref<4x16xf32>) outs(%arg2 : memref<4x16xf32>)
// CHECK-NOT:   llvm.inline_asm
// CHECK:       return

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
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg2 : memref<4x16xf32>) outs(%arg2 : memref<4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.cmpf olt, %in, %cst : f32
      %1 = arith.select %0, %cst, %in : f32
      linalg.yield %1 : f32
    }
    return
  }
}
