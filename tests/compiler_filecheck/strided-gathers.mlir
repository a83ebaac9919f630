// RUN: python -m compiler.replay strided-gathers --target t1-small --no-locations %s | filecheck %s
// x[:, ::2] + 1.0 of 8x32 after vector lowering: the stride-2 read becomes a vector.gather with
// a constant index vector from the buffer's base (LLVM emits one vlse32.v).

// CHECK-LABEL: func.func @forward
// CHECK:       scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NOT:     vector.transfer_read
// CHECK:         %[[BASE:.+]] = memref.reinterpret_cast %{{.+}} to offset: [0], sizes: [255], strides: [1] : memref<f32> to memref<255xf32>
// CHECK:         %[[IDX:.+]] = arith.constant dense<[0, 2, 4, 6, {{.*}}, 122, 124, 126]> : vector<64xi32>
// CHECK:         %[[G:.+]] = vector.gather %[[BASE]][%{{.+}}] [%[[IDX]]]{{.*}} : memref<255xf32>, vector<64xi32>, vector<64xi1>, vector<64xf32> into vector<64xf32>
// CHECK:         arith.addf %[[G]], %{{.+}} : vector<64xf32>

module {
  func.func @forward(%arg0: memref<8x32xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}) {
    %cst = arith.constant dense<1.000000e+00> : vector<64xf32>
    %0 = ub.poison : f32
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c0 = arith.constant 0 : index
    %subview = memref.subview %arg0[0, 0] [8, 16] [1, 2] : memref<8x32xf32> to memref<8x16xf32, strided<[32, 2]>>
    %collapse_shape = memref.collapse_shape %subview [[0, 1]] : memref<8x16xf32, strided<[32, 2]>> into memref<128xf32, strided<[2]>>
    %collapse_shape_0 = memref.collapse_shape %arg1 [[0, 1]] : memref<8x16xf32> into memref<128xf32>
    scf.for %arg2 = %c0 to %c128 step %c64 {
      %1 = vector.transfer_read %collapse_shape[%arg2], %0 {in_bounds = [true]} : memref<128xf32, strided<[2]>>, vector<64xf32>
      %2 = arith.addf %1, %cst : vector<64xf32>
      vector.store %2, %collapse_shape_0[%arg2] : memref<128xf32>, vector<64xf32>
    }
    return
  }
}
