// RUN: python -m compiler.replay to-loops --target rv32 --no-locations %s | filecheck %s
// a @ b of 4x8 by 8x16 on rv32 (the scalar backend: no schedule stage) after arguments-noalias: the
// fill and the matmul become loops of scalar loads and stores, lowered to cf branches.

// CHECK-LABEL: func.func @forward
// CHECK-NOT:   linalg.
// CHECK-NOT:   scf.for
// CHECK:       cf.br ^bb1
// CHECK:       memref.store %{{.+}}, %arg2[%{{.+}}, %{{.+}}] : memref<4x16xf32>
// CHECK:       %[[A:.+]] = memref.load %arg0[%{{.+}}, %{{.+}}] : memref<4x8xf32>
// CHECK-NEXT:  %[[B:.+]] = memref.load %arg1[%{{.+}}, %{{.+}}] : memref<8x16xf32>
// CHECK-NEXT:  %[[C:.+]] = memref.load %arg2[%{{.+}}, %{{.+}}] : memref<4x16xf32>
// CHECK-NEXT:  %[[P:.+]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:  %[[S:.+]] = arith.addf %[[C]], %[[P]] : f32
// CHECK-NEXT:  memref.store %[[S]], %arg2[%{{.+}}, %{{.+}}] : memref<4x16xf32>
// CHECK-NOT:   linalg.

module {
  func.func @forward(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}, %arg2: memref<4x16xf32> {llvm.noalias}) {
    %cst = arith.constant 0.000000e+00 : f32
    linalg.fill ins(%cst : f32) outs(%arg2 : memref<4x16xf32>)
    linalg.matmul ins(%arg0, %arg1 : memref<4x8xf32>, memref<8x16xf32>) outs(%arg2 : memref<4x16xf32>)
    return
  }
}
