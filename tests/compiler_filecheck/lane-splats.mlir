// RUN: python -m compiler.replay lane-splats --target t1-small --no-locations %s | filecheck %s
// relu(a @ b) of 4x8 by 8x16 after register blocking (DLEN 64): the four A elements a k step of 4
// broadcasts (a run along A's innermost dimension) are read by one unit-stride load, marked nontemporal
// for the llvm-ir stage's splat-row-loads, and splat from its lanes (vector.shuffle), not by four scalar
// loads; the four splats come together before the first FMA they feed.

// CHECK-LABEL: func.func @forward
// CHECK:       scf.for
// CHECK:         scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NOT:       memref.load %arg0
// CHECK:           %[[A:.+]] = vector.load %arg0[%{{.+}}, %{{.+}}] {nontemporal = true} : memref<4x8xf32>, vector<4xf32>
// CHECK:           %[[S0:.+]] = vector.shuffle %[[A]], %{{.+}} [0, 0, 0, 0, 0, 0, 0, 0] : vector<4xf32>, vector<4xf32>
// CHECK:           vector.shuffle %[[A]], %{{.+}} [1, 1, 1, 1, 1, 1, 1, 1]
// CHECK:           vector.shuffle %[[A]], %{{.+}} [2, 2, 2, 2, 2, 2, 2, 2]
// CHECK:           vector.shuffle %[[A]], %{{.+}} [3, 3, 3, 3, 3, 3, 3, 3]
// CHECK:           vector.fma %[[S0]], %{{.+}}, %{{.+}} : vector<8xf32>
// CHECK-NOT:       memref.load %arg0

module {
  func.func @forward(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}, %arg2: memref<4x16xf32> {llvm.noalias}) {
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    %cst = arith.constant dense<0.000000e+00> : vector<16xf32>
    %cst_0 = arith.constant dense<0.000000e+00> : vector<64xf32>
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c1 = arith.constant 1 : index
    vector.store %cst, %arg2[%c0, %c0] : memref<4x16xf32>, vector<16xf32>
    vector.store %cst, %arg2[%c1, %c0] : memref<4x16xf32>, vector<16xf32>
    vector.store %cst, %arg2[%c2, %c0] : memref<4x16xf32>, vector<16xf32>
    vector.store %cst, %arg2[%c3, %c0] : memref<4x16xf32>, vector<16xf32>
    scf.for %arg3 = %c0 to %c4 step %c1 {
      scf.for %arg4 = %c0 to %c16 step %c8 {
        scf.for %arg5 = %c0 to %c8 step %c4 {
          %3 = memref.load %arg0[%arg3, %arg5] : memref<4x8xf32>
          %4 = vector.load %arg1[%arg5, %arg4] : memref<8x16xf32>, vector<8xf32>
          %5 = vector.load %arg2[%arg3, %arg4] : memref<4x16xf32>, vector<8xf32>
          %6 = vector.broadcast %3 : f32 to vector<8xf32>
          %7 = vector.fma %6, %4, %5 : vector<8xf32>
          vector.store %7, %arg2[%arg3, %arg4] : memref<4x16xf32>, vector<8xf32>
          %8 = arith.addi %arg5, %c1 : index
          %9 = memref.load %arg0[%arg3, %8] : memref<4x8xf32>
          %10 = vector.load %arg1[%8, %arg4] : memref<8x16xf32>, vector<8xf32>
          %11 = vector.load %arg2[%arg3, %arg4] : memref<4x16xf32>, vector<8xf32>
          %12 = vector.broadcast %9 : f32 to vector<8xf32>
          %13 = vector.fma %12, %10, %11 : vector<8xf32>
          vector.store %13, %arg2[%arg3, %arg4] : memref<4x16xf32>, vector<8xf32>
          %14 = arith.addi %arg5, %c2 : index
          %15 = memref.load %arg0[%arg3, %14] : memref<4x8xf32>
          %16 = vector.load %arg1[%14, %arg4] : memref<8x16xf32>, vector<8xf32>
          %17 = vector.load %arg2[%arg3, %arg4] : memref<4x16xf32>, vector<8xf32>
          %18 = vector.broadcast %15 : f32 to vector<8xf32>
          %19 = vector.fma %18, %16, %17 : vector<8xf32>
          vector.store %19, %arg2[%arg3, %arg4] : memref<4x16xf32>, vector<8xf32>
          %20 = arith.addi %arg5, %c3 : index
          %21 = memref.load %arg0[%arg3, %20] : memref<4x8xf32>
          %22 = vector.load %arg1[%20, %arg4] : memref<8x16xf32>, vector<8xf32>
          %23 = vector.load %arg2[%arg3, %arg4] : memref<4x16xf32>, vector<8xf32>
          %24 = vector.broadcast %21 : f32 to vector<8xf32>
          %25 = vector.fma %24, %22, %23 : vector<8xf32>
          vector.store %25, %arg2[%arg3, %arg4] : memref<4x16xf32>, vector<8xf32>
        } {cosim_rows = 4 : i64}
      }
    }
    llvm.inline_asm has_side_effects "", "~{memory}"  : () -> ()
    %collapse_shape = memref.collapse_shape %arg2 [[0, 1]] : memref<4x16xf32> into memref<64xf32>
    %0 = vector.load %collapse_shape[%c0] : memref<64xf32>, vector<64xf32>
    %1 = arith.cmpf olt, %0, %cst_0 : vector<64xf32>
    %2 = arith.select %1, %cst_0, %0 : vector<64xi1>, vector<64xf32>
    vector.store %2, %collapse_shape[%c0] : memref<64xf32>, vector<64xf32>
    return
  }
}
