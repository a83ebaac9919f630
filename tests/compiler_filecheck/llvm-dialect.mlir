// RUN: python -m compiler.replay llvm-dialect --target rv32 --no-locations %s | filecheck %s
// a @ b of 4x8 by 8x16 on rv32 after vector-to-llvm: the rest becomes the LLVM dialect (forward takes
// each memref as its descriptor's fields, index as i32) and the C wrapper _mlir_ciface_forward, which
// takes descriptor pointers, is added.

// CHECK-NOT:   func.func
// CHECK-LABEL: llvm.func @forward(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32,
// CHECK-NOT:   memref.
// CHECK:       llvm.cond_br
// CHECK:       %[[P:.+]] = llvm.fmul %{{.+}}, %{{.+}} : f32
// CHECK-NEXT:  llvm.fadd %{{.+}}, %[[P]] : f32
// CHECK-LABEL: llvm.func @_mlir_ciface_forward(%arg0: !llvm.ptr {llvm.noalias}, %arg1: !llvm.ptr {llvm.noalias}, %arg2: !llvm.ptr {llvm.noalias})
// CHECK:       llvm.call @forward(

module {
  func.func @forward(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}, %arg2: memref<4x16xf32> {llvm.noalias}) {
    %c8 = arith.constant 8 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    cf.br ^bb1(%c0 : index)
  ^bb1(%0: index):  // 2 preds: ^bb0, ^bb4
    %1 = arith.cmpi slt, %0, %c4 : index
    cf.cond_br %1, ^bb2(%c0 : index), ^bb5(%c0 : index)
  ^bb2(%2: index):  // 2 preds: ^bb1, ^bb3
    %3 = arith.cmpi slt, %2, %c16 : index
    cf.cond_br %3, ^bb3, ^bb4
  ^bb3:  // pred: ^bb2
    memref.store %cst, %arg2[%0, %2] : memref<4x16xf32>
    %4 = arith.addi %2, %c1 : index
    cf.br ^bb2(%4 : index)
  ^bb4:  // pred: ^bb2
    %5 = arith.addi %0, %c1 : index
    cf.br ^bb1(%5 : index)
  ^bb5(%6: index):  // 2 preds: ^bb1, ^bb10
    %7 = arith.cmpi slt, %6, %c4 : index
    cf.cond_br %7, ^bb6(%c0 : index), ^bb11
  ^bb6(%8: index):  // 2 preds: ^bb5, ^bb9
    %9 = arith.cmpi slt, %8, %c16 : index
    cf.cond_br %9, ^bb7(%c0 : index), ^bb10
  ^bb7(%10: index):  // 2 preds: ^bb6, ^bb8
    %11 = arith.cmpi slt, %10, %c8 : index
    cf.cond_br %11, ^bb8, ^bb9
  ^bb8:  // pred: ^bb7
    %12 = memref.load %arg0[%6, %10] : memref<4x8xf32>
    %13 = memref.load %arg1[%10, %8] : memref<8x16xf32>
    %14 = memref.load %arg2[%6, %8] : memref<4x16xf32>
    %15 = arith.mulf %12, %13 : f32
    %16 = arith.addf %14, %15 : f32
    memref.store %16, %arg2[%6, %8] : memref<4x16xf32>
    %17 = arith.addi %10, %c1 : index
    cf.br ^bb7(%17 : index)
  ^bb9:  // pred: ^bb7
    %18 = arith.addi %8, %c1 : index
    cf.br ^bb6(%18 : index)
  ^bb10:  // pred: ^bb6
    %19 = arith.addi %6, %c1 : index
    cf.br ^bb5(%19 : index)
  ^bb11:  // pred: ^bb5
    return
  }
}
