// RUN: python -m compiler.replay generalize-named-ops --target t1-small --no-locations %s | filecheck %s
// a @ b of 4x8 by 8x16 after bufferization: the named linalg.fill and linalg.matmul become
// linalg.generic (the form every later RVV rewrite and the tile plan match).

// CHECK-LABEL: func.func @forward
// CHECK-NOT:   linalg.fill
// CHECK-NOT:   linalg.matmul
// CHECK:       linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel"]} ins(%{{.+}} : f32) outs(%arg2 : memref<4x16xf32>)
// CHECK:       linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : memref<4x8xf32>, memref<8x16xf32>) outs(%arg2 : memref<4x16xf32>)
// CHECK:         arith.mulf
// CHECK-NEXT:    arith.addf

module {
  func.func @forward(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}, %arg2: memref<4x16xf32> {llvm.noalias}) {
    %cst = arith.constant 0.000000e+00 : f32
    linalg.fill ins(%cst : f32) outs(%arg2 : memref<4x16xf32>)
    linalg.matmul ins(%arg0, %arg1 : memref<4x8xf32>, memref<8x16xf32>) outs(%arg2 : memref<4x16xf32>)
    return
  }
}
