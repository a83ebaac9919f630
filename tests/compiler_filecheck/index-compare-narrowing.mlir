// RUN: python -m compiler.replay index-compare-narrowing --target t1-small --no-locations %s | filecheck %s
// A tril(x, -1) mask as torch-mlir builds it (written by hand: the frontend's own tril is already
// int32): index_cast to i64, an i64 subi and cmpi. The compare tree is rewritten in index (XLEN) bits
// (the i64 casts, now dead, are left to canonicalize).

// CHECK-LABEL: func.func @forward
// CHECK:       ^bb0
// CHECK-DAG:     %[[I:.+]] = linalg.index 0 : index
// CHECK-DAG:     %[[J:.+]] = linalg.index 1 : index
// CHECK:         %[[D:.+]] = arith.subi %[[J]], %[[I]] : index
// CHECK-NEXT:    %[[M1:.+]] = arith.constant -1 : index
// CHECK-NEXT:    %[[C:.+]] = arith.cmpi sle, %[[D]], %[[M1]] : index
// CHECK-NEXT:    arith.select %[[C]], %in, %cst : f32

#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @forward(%arg0: memref<5x6xf32>, %arg1: memref<5x6xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %c-1_i64 = arith.constant -1 : i64
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : memref<5x6xf32>) outs(%arg1 : memref<5x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = linalg.index 0 : index
      %1 = linalg.index 1 : index
      %2 = arith.index_cast %0 : index to i64
      %3 = arith.index_cast %1 : index to i64
      %4 = arith.subi %3, %2 : i64
      %5 = arith.cmpi sle, %4, %c-1_i64 : i64
      %6 = arith.select %5, %in, %cst : f32
      linalg.yield %6 : f32
    }
    return
  }
}
