// RUN: python -m compiler.replay strided-copies-to-linalg --target t1-small --no-locations %s | filecheck %s
// F.pad(x, (1, 1, 1, 1)) * 2.0 of 1x2x5x5 after output-copy-elimination: the copy into the interior
// of the padded buffer (a strided subview) becomes linalg.copy; as memref.copy it would lower to a
// call of MLIR's C runner memrefCopy, which bare-metal programs do not have.

// CHECK-LABEL: func.func @forward
// CHECK:       %[[PAD:.+]] = memref.alloca() {{.*}} : memref<1x2x7x7xf32>
// CHECK:       %[[IN:.+]] = memref.subview %[[PAD]][0, 0, 1, 1] [1, 2, 5, 5] [1, 1, 1, 1]
// CHECK-NOT:   memref.copy
// CHECK:       linalg.copy {{.*}}ins(%arg0 : memref<1x2x5x5xf32>) outs(%[[IN]] : memref<1x2x5x5xf32, strided<[98, 49, 7, 1], offset: 8>>)
// CHECK-NOT:   memref.copy

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @forward(%arg0: memref<1x2x5x5xf32>, %arg1: memref<1x2x7x7xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 2.000000e+00 : f32
    %alloca = memref.alloca() {alignment = 64 : i64} : memref<1x2x7x7xf32>
    linalg.map outs(%alloca : memref<1x2x7x7xf32>)
      (%init: f32) {
        linalg.yield %cst : f32
      }
    %subview = memref.subview %alloca[0, 0, 1, 1] [1, 2, 5, 5] [1, 1, 1, 1] : memref<1x2x7x7xf32> to memref<1x2x5x5xf32, strided<[98, 49, 7, 1], offset: 8>>
    memref.copy %arg0, %subview : memref<1x2x5x5xf32> to memref<1x2x5x5xf32, strided<[98, 49, 7, 1], offset: 8>>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloca : memref<1x2x7x7xf32>) outs(%arg1 : memref<1x2x7x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %cst_0 : f32
      linalg.yield %0 : f32
    }
    return
  }
}
