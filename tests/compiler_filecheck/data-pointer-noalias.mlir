// RUN: python -m compiler.replay data-pointer-noalias --target rv32 --no-locations %s | filecheck %s
// a @ b of 4x8 by 8x16 on rv32 after the conversion to the LLVM dialect: each memref's aligned data
// pointer (the second pointer of every allocated/aligned pair) of forward becomes llvm.noalias; the
// allocated pointers, sizes and strides stay as they are.

// CHECK-LABEL: llvm.func @forward(
// CHECK-SAME:    %arg0: !llvm.ptr, %arg1: !llvm.ptr {llvm.noalias}, %arg2: i32,
// CHECK-SAME:    %arg7: !llvm.ptr, %arg8: !llvm.ptr {llvm.noalias}, %arg9: i32,
// CHECK-SAME:    %arg14: !llvm.ptr, %arg15: !llvm.ptr {llvm.noalias}, %arg16: i32,

module {
  llvm.func @forward(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: !llvm.ptr, %arg8: !llvm.ptr, %arg9: i32, %arg10: i32, %arg11: i32, %arg12: i32, %arg13: i32, %arg14: !llvm.ptr, %arg15: !llvm.ptr, %arg16: i32, %arg17: i32, %arg18: i32, %arg19: i32, %arg20: i32) attributes {llvm.emit_c_interface} {
    %0 = llvm.mlir.constant(16 : index) : i32
    %1 = llvm.mlir.constant(1 : index) : i32
    %2 = llvm.mlir.constant(4 : index) : i32
    %3 = llvm.mlir.constant(0 : index) : i32
    %4 = llvm.mlir.constant(0.000000e+00 : f32) : f32
    %5 = llvm.mlir.constant(8 : index) : i32
    llvm.br ^bb1(%3 : i32)
  ^bb1(%6: i32):  // 2 preds: ^bb0, ^bb4
    %7 = llvm.icmp "slt" %6, %2 : i32
    llvm.cond_br %7, ^bb2(%3 : i32), ^bb5(%3 : i32)
  ^bb2(%8: i32):  // 2 preds: ^bb1, ^bb3
    %9 = llvm.icmp "slt" %8, %0 : i32
    llvm.cond_br %9, ^bb3, ^bb4
  ^bb3:  // pred: ^bb2
    %10 = llvm.mul %6, %0 overflow<nsw, nuw> : i32
    %11 = llvm.add %10, %8 overflow<nsw, nuw> : i32
    %12 = llvm.getelementptr inbounds|nuw %arg15[%11] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %4, %12 : f32, !llvm.ptr
    %13 = llvm.add %8, %1 : i32
    llvm.br ^bb2(%13 : i32)
  ^bb4:  // pred: ^bb2
    %14 = llvm.add %6, %1 : i32
    llvm.br ^bb1(%14 : i32)
  ^bb5(%15: i32):  // 2 preds: ^bb1, ^bb10
    %16 = llvm.icmp "slt" %15, %2 : i32
    llvm.cond_br %16, ^bb6(%3 : i32), ^bb11
  ^bb6(%17: i32):  // 2 preds: ^bb5, ^bb9
    %18 = llvm.icmp "slt" %17, %0 : i32
    llvm.cond_br %18, ^bb7(%3 : i32), ^bb10
  ^bb7(%19: i32):  // 2 preds: ^bb6, ^bb8
    %20 = llvm.icmp "slt" %19, %5 : i32
    llvm.cond_br %20, ^bb8, ^bb9
  ^bb8:  // pred: ^bb7
    %21 = llvm.mul %15, %5 overflow<nsw, nuw> : i32
    %22 = llvm.add %21, %19 overflow<nsw, nuw> : i32
    %23 = llvm.getelementptr inbounds|nuw %arg1[%22] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %24 = llvm.load %23 : !llvm.ptr -> f32
    %25 = llvm.mul %19, %0 overflow<nsw, nuw> : i32
    %26 = llvm.add %25, %17 overflow<nsw, nuw> : i32
    %27 = llvm.getelementptr inbounds|nuw %arg8[%26] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %28 = llvm.load %27 : !llvm.ptr -> f32
    %29 = llvm.mul %15, %0 overflow<nsw, nuw> : i32
    %30 = llvm.add %29, %17 overflow<nsw, nuw> : i32
    %31 = llvm.getelementptr inbounds|nuw %arg15[%30] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %32 = llvm.load %31 : !llvm.ptr -> f32
    %33 = llvm.fmul %24, %28 : f32
    %34 = llvm.fadd %32, %33 : f32
    %35 = llvm.mul %15, %0 overflow<nsw, nuw> : i32
    %36 = llvm.add %35, %17 overflow<nsw, nuw> : i32
    %37 = llvm.getelementptr inbounds|nuw %arg15[%36] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %34, %37 : f32, !llvm.ptr
    %38 = llvm.add %19, %1 : i32
    llvm.br ^bb7(%38 : i32)
  ^bb9:  // pred: ^bb7
    %39 = llvm.add %17, %1 : i32
    llvm.br ^bb6(%39 : i32)
  ^bb10:  // pred: ^bb6
    %40 = llvm.add %15, %1 : i32
    llvm.br ^bb5(%40 : i32)
  ^bb11:  // pred: ^bb5
    llvm.return
  }
  llvm.func @_mlir_ciface_forward(%arg0: !llvm.ptr {llvm.noalias}, %arg1: !llvm.ptr {llvm.noalias}, %arg2: !llvm.ptr {llvm.noalias}) attributes {llvm.emit_c_interface} {
    %0 = llvm.load %arg0 : !llvm.ptr -> !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)>
    %1 = llvm.extractvalue %0[0] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %2 = llvm.extractvalue %0[1] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %3 = llvm.extractvalue %0[2] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %4 = llvm.extractvalue %0[3, 0] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %5 = llvm.extractvalue %0[3, 1] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %6 = llvm.extractvalue %0[4, 0] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %7 = llvm.extractvalue %0[4, 1] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %8 = llvm.load %arg1 : !llvm.ptr -> !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)>
    %9 = llvm.extractvalue %8[0] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %10 = llvm.extractvalue %8[1] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %11 = llvm.extractvalue %8[2] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %12 = llvm.extractvalue %8[3, 0] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %13 = llvm.extractvalue %8[3, 1] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %14 = llvm.extractvalue %8[4, 0] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %15 = llvm.extractvalue %8[4, 1] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %16 = llvm.load %arg2 : !llvm.ptr -> !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)>
    %17 = llvm.extractvalue %16[0] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %18 = llvm.extractvalue %16[1] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %19 = llvm.extractvalue %16[2] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %20 = llvm.extractvalue %16[3, 0] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %21 = llvm.extractvalue %16[3, 1] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %22 = llvm.extractvalue %16[4, 0] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    %23 = llvm.extractvalue %16[4, 1] : !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> 
    llvm.call @forward(%1, %2, %3, %4, %5, %6, %7, %9, %10, %11, %12, %13, %14, %15, %17, %18, %19, %20, %21, %22, %23) : (!llvm.ptr, !llvm.ptr, i32, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, i32, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, i32, i32, i32, i32, i32) -> ()
    llvm.return
  }
}
