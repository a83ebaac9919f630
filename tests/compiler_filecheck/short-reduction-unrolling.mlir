// RUN: python -m compiler.replay short-reduction-unrolling --target t1-blastoise --no-locations %s | filecheck %s
// x.amax(-1) of 128x4 on t1-blastoise (DLEN 256: 8 lanes): the reduction over 4 becomes one
// elementwise op over the four strided column slices, folded in the loop's order from the fill's value.

// CHECK-LABEL: func.func @forward
// CHECK-DAG:   %[[NEG:.+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:   %[[S0:.+]] = memref.subview %arg0[0, 0] [128, 1] [1, 1] : memref<128x4xf32> to memref<128xf32, strided<[4]>>
// CHECK-DAG:   %[[S3:.+]] = memref.subview %arg0[0, 3] [128, 1] [1, 1] : memref<128x4xf32> to memref<128xf32, strided<[4], offset: 3>>
// CHECK-NOT:   "reduction"
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel"]{{.*}} ins(%[[S0]], {{.*}}, %[[S3]] : {{.*}}) outs(%arg1 : memref<128xf32>)
// CHECK-NEXT:  ^bb0(%[[IN0:.+]]: f32, %[[IN1:.+]]: f32, %[[IN2:.+]]: f32, %[[IN3:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:    %[[M0:.+]] = arith.maximumf %[[IN0]], %[[NEG]] : f32
// CHECK-NEXT:    %[[M1:.+]] = arith.maximumf %[[IN1]], %[[M0]] : f32
// CHECK-NEXT:    %[[M2:.+]] = arith.maximumf %[[IN2]], %[[M1]] : f32
// CHECK-NEXT:    %[[M3:.+]] = arith.maximumf %[[IN3]], %[[M2]] : f32
// CHECK-NEXT:    linalg.yield %[[M3]] : f32
// CHECK-NOT:   linalg.generic

#map = affine_map<(d0) -> ()>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0)>
module {
  func.func @forward(%arg0: memref<128x4xf32> {llvm.noalias}, %arg1: memref<128xf32> {llvm.noalias}) {
    %cst = arith.constant 0xFF800000 : f32
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel"]} ins(%cst : f32) outs(%arg1 : memref<128xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "reduction"]} ins(%arg0 : memref<128x4xf32>) outs(%arg1 : memref<128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.maximumf %in, %out : f32
      linalg.yield %0 : f32
    }
    return
  }
}
