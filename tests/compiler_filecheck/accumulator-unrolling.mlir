// RUN: python -m compiler.replay accumulator-unrolling --target t1-small --no-locations %s | filecheck %s
// a @ b of 4x8 by 8x16 after unroll-and-jam (t1-small): the k loop carrying the eight vector
// accumulators is unrolled by 4 (a divisor of K = 8: no remainder loop; four steps' B rows fit beside
// the accumulators), so each iteration holds 32 FMAs.

// CHECK-LABEL: func.func @forward
// CHECK:       %{{.+}}:8 = scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(
// CHECK:         memref.load %arg0[%{{.+}}, %[[K]]] : memref<4x8xf32>
// CHECK-COUNT-8: vector.fma
// CHECK:         %[[K1:.+]] = arith.addi %[[K]], %{{.+}} : index
// CHECK:         memref.load %arg0[%{{.+}}, %[[K1]]] : memref<4x8xf32>
// CHECK-COUNT-24: vector.fma
// CHECK-NOT:     vector.fma
// CHECK:         scf.yield

module {
  func.func @forward(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}, %arg2: memref<4x16xf32> {llvm.noalias}) {
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    %cst = arith.constant dense<0.000000e+00> : vector<16xf32>
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    scf.for %arg3 = %c0 to %c4 step %c1 {
      vector.store %cst, %arg2[%arg3, %c0] : memref<4x16xf32>, vector<16xf32>
    }
    %0 = vector.load %arg2[%c0, %c0] : memref<4x16xf32>, vector<8xf32>
    %1 = vector.load %arg2[%c0, %c8] : memref<4x16xf32>, vector<8xf32>
    %2 = vector.load %arg2[%c1, %c0] : memref<4x16xf32>, vector<8xf32>
    %3 = vector.load %arg2[%c1, %c8] : memref<4x16xf32>, vector<8xf32>
    %4 = vector.load %arg2[%c2, %c0] : memref<4x16xf32>, vector<8xf32>
    %5 = vector.load %arg2[%c2, %c8] : memref<4x16xf32>, vector<8xf32>
    %6 = vector.load %arg2[%c3, %c0] : memref<4x16xf32>, vector<8xf32>
    %7 = vector.load %arg2[%c3, %c8] : memref<4x16xf32>, vector<8xf32>
    %8:8 = scf.for %arg3 = %c0 to %c8 step %c1 iter_args(%arg4 = %0, %arg5 = %1, %arg6 = %2, %arg7 = %3, %arg8 = %4, %arg9 = %5, %arg10 = %6, %arg11 = %7) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
      %9 = memref.load %arg0[%c0, %arg3] : memref<4x8xf32>
      %10 = vector.load %arg1[%arg3, %c0] : memref<8x16xf32>, vector<8xf32>
      %11 = vector.broadcast %9 : f32 to vector<8xf32>
      %12 = vector.fma %11, %10, %arg4 : vector<8xf32>
      %13 = vector.load %arg1[%arg3, %c8] : memref<8x16xf32>, vector<8xf32>
      %14 = vector.fma %11, %13, %arg5 : vector<8xf32>
      %15 = memref.load %arg0[%c1, %arg3] : memref<4x8xf32>
      %16 = vector.broadcast %15 : f32 to vector<8xf32>
      %17 = vector.fma %16, %10, %arg6 : vector<8xf32>
      %18 = vector.fma %16, %13, %arg7 : vector<8xf32>
      %19 = memref.load %arg0[%c2, %arg3] : memref<4x8xf32>
      %20 = vector.broadcast %19 : f32 to vector<8xf32>
      %21 = vector.fma %20, %10, %arg8 : vector<8xf32>
      %22 = vector.fma %20, %13, %arg9 : vector<8xf32>
      %23 = memref.load %arg0[%c3, %arg3] : memref<4x8xf32>
      %24 = vector.broadcast %23 : f32 to vector<8xf32>
      %25 = vector.fma %24, %10, %arg10 : vector<8xf32>
      %26 = vector.fma %24, %13, %arg11 : vector<8xf32>
      scf.yield %12, %14, %17, %18, %21, %22, %25, %26 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
    }
    vector.store %8#0, %arg2[%c0, %c0] : memref<4x16xf32>, vector<8xf32>
    vector.store %8#1, %arg2[%c0, %c8] : memref<4x16xf32>, vector<8xf32>
    vector.store %8#2, %arg2[%c1, %c0] : memref<4x16xf32>, vector<8xf32>
    vector.store %8#3, %arg2[%c1, %c8] : memref<4x16xf32>, vector<8xf32>
    vector.store %8#4, %arg2[%c2, %c0] : memref<4x16xf32>, vector<8xf32>
    vector.store %8#5, %arg2[%c2, %c8] : memref<4x16xf32>, vector<8xf32>
    vector.store %8#6, %arg2[%c3, %c0] : memref<4x16xf32>, vector<8xf32>
    vector.store %8#7, %arg2[%c3, %c8] : memref<4x16xf32>, vector<8xf32>
    return
  }
}
