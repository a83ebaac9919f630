// RUN: python -m compiler.replay one-shot-bufferize --target t1-small --no-locations %s | filecheck %s
// a @ b of 4x8 by 8x16 after canonicalize-cse: tensors become buffers (one-shot bufferization), the
// result an out-parameter written in place (the fill and the matmul write it directly).

// CHECK-LABEL: func.func @forward(%arg0: memref<4x8xf32>, %arg1: memref<8x16xf32>, %arg2: memref<4x16xf32>) {
// CHECK-NOT:   tensor
// CHECK:       linalg.fill ins(%{{.+}} : f32) outs(%arg2 : memref<4x16xf32>)
// CHECK-NEXT:  linalg.matmul ins(%arg0, %arg1 : memref<4x8xf32>, memref<8x16xf32>) outs(%arg2 : memref<4x16xf32>)
// CHECK-NEXT:  return{{$}}

module {
  func.func @forward(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32>) -> tensor<4x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x16xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %2 : tensor<4x16xf32>
  }
}
