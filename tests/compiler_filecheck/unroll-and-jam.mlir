// RUN: python -m compiler.replay unroll-and-jam --target t1-small --no-locations %s | filecheck %s
// a @ b of 4x8 by 8x16 after unit-broadcast-splats (t1-small): the two column tiles of 8, then the
// four rows around them, are unrolled and jammed (8 accumulators of one register each fit the budget
// of 28): one k loop carries all eight, and each A scalar feeds both column tiles' FMAs.

// CHECK-LABEL: func.func @forward
// CHECK:       %{{.+}}:8 = scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args({{.+}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK:         %[[A0:.+]] = memref.load %arg0[%{{.+}}, %[[K]]] : memref<4x8xf32>
// CHECK:         %[[B0:.+]] = vector.load %arg1[%[[K]], %{{.+}}] : memref<8x16xf32>, vector<8xf32>
// CHECK:         %[[S0:.+]] = vector.broadcast %[[A0]] : f32 to vector<8xf32>
// CHECK:         vector.fma %[[S0]], %[[B0]], %{{.+}} : vector<8xf32>
// CHECK:         %[[B1:.+]] = vector.load %arg1[%[[K]], %{{.+}}] : memref<8x16xf32>, vector<8xf32>
// CHECK:         vector.fma %[[S0]], %[[B1]], %{{.+}} : vector<8xf32>
// CHECK:         %[[S1:.+]] = vector.broadcast %{{.+}} : f32 to vector<8xf32>
// CHECK:         vector.fma %[[S1]], %[[B0]], %{{.+}} : vector<8xf32>
// CHECK:         vector.fma %[[S1]], %[[B1]], %{{.+}} : vector<8xf32>
// CHECK:         scf.yield

module {
  func.func @forward(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}, %arg2: memref<4x16xf32> {llvm.noalias}) {
    %cst = arith.constant dense<0.000000e+00> : vector<16xf32>
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c1 = arith.constant 1 : index
    scf.for %arg3 = %c0 to %c4 step %c1 {
      vector.store %cst, %arg2[%arg3, %c0] : memref<4x16xf32>, vector<16xf32>
    }
    scf.for %arg3 = %c0 to %c4 step %c1 {
      scf.for %arg4 = %c0 to %c16 step %c8 {
        %0 = vector.load %arg2[%arg3, %arg4] : memref<4x16xf32>, vector<8xf32>
        %1 = scf.for %arg5 = %c0 to %c8 step %c1 iter_args(%arg6 = %0) -> (vector<8xf32>) {
          %2 = memref.load %arg0[%arg3, %arg5] : memref<4x8xf32>
          %3 = vector.load %arg1[%arg5, %arg4] : memref<8x16xf32>, vector<8xf32>
          %4 = vector.broadcast %2 : f32 to vector<8xf32>
          %5 = vector.fma %4, %3, %arg6 : vector<8xf32>
          scf.yield %5 : vector<8xf32>
        }
        vector.store %1, %arg2[%arg3, %arg4] : memref<4x16xf32>, vector<8xf32>
      }
    }
    return
  }
}
