// RUN: python -m compiler.replay arguments-noalias --target rv32 --no-locations %s | filecheck %s
// a @ b of 4x8 by 8x16 after allocations-to-globals: forward's arguments (each its own buffer in
// harness.program) are marked llvm.noalias.

// CHECK-LABEL: func.func @forward(
// CHECK-SAME:    %arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}, %arg2: memref<4x16xf32> {llvm.noalias})

module {
  func.func @forward(%arg0: memref<4x8xf32>, %arg1: memref<8x16xf32>, %arg2: memref<4x16xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    linalg.fill ins(%cst : f32) outs(%arg2 : memref<4x16xf32>)
    linalg.matmul ins(%arg0, %arg1 : memref<4x8xf32>, memref<8x16xf32>) outs(%arg2 : memref<4x16xf32>)
    return
  }
}
