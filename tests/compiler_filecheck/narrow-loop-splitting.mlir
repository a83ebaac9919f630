// RUN: python -m compiler.replay narrow-loop-splitting --target t1-small --no-locations %s | filecheck %s
// x * 2.0 of (67,) after elementwise-flattening (t1-small: VLMAX 64 at LMUL 8): 67 is prime and above
// VLMAX, so no tile divides it; the op is split into 64 + 3 elements, each part planned on its own
// (else it would run one-element vectors).

// CHECK-LABEL: func.func @forward
// CHECK:       %[[I0:.+]] = memref.subview %arg0[0] [64] [1] : memref<67xf32> to memref<64xf32, strided<[1]>>
// CHECK:       %[[O0:.+]] = memref.subview %arg1[0] [64] [1] : memref<67xf32> to memref<64xf32, strided<[1]>>
// CHECK:       linalg.generic {{.*}} ins(%[[I0]] : memref<64xf32, strided<[1]>>) outs(%[[O0]] : memref<64xf32, strided<[1]>>)
// CHECK:       %[[I1:.+]] = memref.subview %arg0[64] [3] [1] : memref<67xf32> to memref<3xf32, strided<[1], offset: 64>>
// CHECK:       %[[O1:.+]] = memref.subview %arg1[64] [3] [1] : memref<67xf32> to memref<3xf32, strided<[1], offset: 64>>
// CHECK:       linalg.generic {{.*}} ins(%[[I1]] : memref<3xf32, strided<[1], offset: 64>>) outs(%[[O1]] : memref<3xf32, strided<[1], offset: 64>>)

#map = affine_map<(d0) -> (d0)>
module {
  func.func @forward(%arg0: memref<67xf32> {llvm.noalias}, %arg1: memref<67xf32> {llvm.noalias}) {
    %cst = arith.constant 2.000000e+00 : f32
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg0 : memref<67xf32>) outs(%arg1 : memref<67xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %cst : f32
      linalg.yield %0 : f32
    }
    return
  }
}
