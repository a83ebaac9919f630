// RUN: python -m compiler.replay static-buffer-placement --target rv32 --no-locations %s | filecheck %s
// (a @ b).relu() @ b.t() of 4x300 and 300x300 on rv32 after data-pointer-noalias: the temporaries over
// 1 KiB that allocations-to-globals made private globals (b.t() and two 4x300 rows, now
// llvm.mlir.global) are placed in .ddrscratch, the DDR the heap would use.

// CHECK: llvm.mlir.global private @__cosim_tmp2() {{.*}}section = ".ddrscratch"} : !llvm.array<300 x array<300 x f32>>
// CHECK: llvm.mlir.global private @__cosim_tmp1() {{.*}}section = ".ddrscratch"} : !llvm.array<4 x array<300 x f32>>
// CHECK: llvm.mlir.global private @__cosim_tmp0() {{.*}}section = ".ddrscratch"} : !llvm.array<4 x array<300 x f32>>
// CHECK-LABEL: llvm.func @forward

module {
  llvm.mlir.global private @__cosim_tmp2() {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<300 x array<300 x f32>> {
    %0 = llvm.mlir.undef : !llvm.array<300 x array<300 x f32>>
    llvm.return %0 : !llvm.array<300 x array<300 x f32>>
  }
  llvm.mlir.global private @__cosim_tmp1() {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<4 x array<300 x f32>> {
    %0 = llvm.mlir.undef : !llvm.array<4 x array<300 x f32>>
    llvm.return %0 : !llvm.array<4 x array<300 x f32>>
  }
  llvm.mlir.global private @__cosim_tmp0() {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<4 x array<300 x f32>> {
    %0 = llvm.mlir.undef : !llvm.array<4 x array<300 x f32>>
    llvm.return %0 : !llvm.array<4 x array<300 x f32>>
  }
  llvm.func @forward(%arg0: !llvm.ptr, %arg1: !llvm.ptr {llvm.noalias}, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: !llvm.ptr, %arg8: !llvm.ptr {llvm.noalias}, %arg9: i32, %arg10: i32, %arg11: i32, %arg12: i32, %arg13: i32, %arg14: !llvm.ptr, %arg15: !llvm.ptr {llvm.noalias}, %arg16: i32, %arg17: i32, %arg18: i32, %arg19: i32, %arg20: i32) attributes {llvm.emit_c_interface} {
    %0 = llvm.mlir.addressof @__cosim_tmp2 : !llvm.ptr
    %1 = llvm.mlir.addressof @__cosim_tmp1 : !llvm.ptr
    %2 = llvm.mlir.addressof @__cosim_tmp0 : !llvm.ptr
    %3 = llvm.mlir.zero : !llvm.ptr
    %4 = llvm.mlir.constant(0.000000e+00 : f32) : f32
    %5 = llvm.mlir.constant(0 : index) : i32
    %6 = llvm.mlir.constant(4 : index) : i32
    %7 = llvm.mlir.constant(1 : index) : i32
    %8 = llvm.mlir.constant(300 : index) : i32
    %9 = llvm.getelementptr %2[0, 0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x array<300 x f32>>
    llvm.br ^bb1(%5 : i32)
  ^bb1(%10: i32):  // 2 preds: ^bb0, ^bb4
    %11 = llvm.icmp "slt" %10, %6 : i32
    llvm.cond_br %11, ^bb2(%5 : i32), ^bb5
  ^bb2(%12: i32):  // 2 preds: ^bb1, ^bb3
    %13 = llvm.icmp "slt" %12, %8 : i32
    llvm.cond_br %13, ^bb3, ^bb4
  ^bb3:  // pred: ^bb2
    %14 = llvm.mul %10, %8 overflow<nsw, nuw> : i32
    %15 = llvm.add %14, %12 overflow<nsw, nuw> : i32
    %16 = llvm.getelementptr inbounds|nuw %arg15[%15] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %4, %16 : f32, !llvm.ptr
    %17 = llvm.add %12, %7 : i32
    llvm.br ^bb2(%17 : i32)
  ^bb4:  // pred: ^bb2
    %18 = llvm.add %10, %7 : i32
    llvm.br ^bb1(%18 : i32)
  ^bb5:  // pred: ^bb1
    %19 = llvm.getelementptr %1[0, 0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x array<300 x f32>>
    %20 = llvm.mul %arg17, %7 : i32
    %21 = llvm.mul %20, %arg18 : i32
    %22 = llvm.getelementptr %3[1] : (!llvm.ptr) -> !llvm.ptr, f32
    %23 = llvm.ptrtoint %22 : !llvm.ptr to i32
    %24 = llvm.mul %21, %23 : i32
    %25 = llvm.getelementptr %arg15[%arg16] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    "llvm.intr.memcpy"(%19, %25, %24) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i32) -> ()
    llvm.br ^bb6(%5 : i32)
  ^bb6(%26: i32):  // 2 preds: ^bb5, ^bb11
    %27 = llvm.icmp "slt" %26, %6 : i32
    llvm.cond_br %27, ^bb7(%5 : i32), ^bb12(%5 : i32)
  ^bb7(%28: i32):  // 2 preds: ^bb6, ^bb10
    %29 = llvm.icmp "slt" %28, %8 : i32
    llvm.cond_br %29, ^bb8(%5 : i32), ^bb11
  ^bb8(%30: i32):  // 2 preds: ^bb7, ^bb9
    %31 = llvm.icmp "slt" %30, %8 : i32
    llvm.cond_br %31, ^bb9, ^bb10
  ^bb9:  // pred: ^bb8
    %32 = llvm.mul %26, %8 overflow<nsw, nuw> : i32
    %33 = llvm.add %32, %30 overflow<nsw, nuw> : i32
    %34 = llvm.getelementptr inbounds|nuw %arg1[%33] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %35 = llvm.load %34 : !llvm.ptr -> f32
    %36 = llvm.mul %30, %8 overflow<nsw, nuw> : i32
    %37 = llvm.add %36, %28 overflow<nsw, nuw> : i32
    %38 = llvm.getelementptr inbounds|nuw %arg8[%37] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %39 = llvm.load %38 : !llvm.ptr -> f32
    %40 = llvm.mul %26, %8 overflow<nsw, nuw> : i32
    %41 = llvm.add %40, %28 overflow<nsw, nuw> : i32
    %42 = llvm.getelementptr inbounds|nuw %19[%41] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %43 = llvm.load %42 : !llvm.ptr -> f32
    %44 = llvm.fmul %35, %39 : f32
    %45 = llvm.fadd %43, %44 : f32
    %46 = llvm.mul %26, %8 overflow<nsw, nuw> : i32
    %47 = llvm.add %46, %28 overflow<nsw, nuw> : i32
    %48 = llvm.getelementptr inbounds|nuw %19[%47] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %45, %48 : f32, !llvm.ptr
    %49 = llvm.add %30, %7 : i32
    llvm.br ^bb8(%49 : i32)
  ^bb10:  // pred: ^bb8
    %50 = llvm.add %28, %7 : i32
    llvm.br ^bb7(%50 : i32)
  ^bb11:  // pred: ^bb7
    %51 = llvm.add %26, %7 : i32
    llvm.br ^bb6(%51 : i32)
  ^bb12(%52: i32):  // 2 preds: ^bb6, ^bb15
    %53 = llvm.icmp "slt" %52, %6 : i32
    llvm.cond_br %53, ^bb13(%5 : i32), ^bb16
  ^bb13(%54: i32):  // 2 preds: ^bb12, ^bb14
    %55 = llvm.icmp "slt" %54, %8 : i32
    llvm.cond_br %55, ^bb14, ^bb15
  ^bb14:  // pred: ^bb13
    %56 = llvm.mul %52, %8 overflow<nsw, nuw> : i32
    %57 = llvm.add %56, %54 overflow<nsw, nuw> : i32
    %58 = llvm.getelementptr inbounds|nuw %19[%57] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %59 = llvm.load %58 : !llvm.ptr -> f32
    %60 = llvm.fcmp "olt" %59, %4 : f32
    %61 = llvm.select %60, %4, %59 : i1, f32
    %62 = llvm.mul %52, %8 overflow<nsw, nuw> : i32
    %63 = llvm.add %62, %54 overflow<nsw, nuw> : i32
    %64 = llvm.getelementptr inbounds|nuw %9[%63] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %61, %64 : f32, !llvm.ptr
    %65 = llvm.add %54, %7 : i32
    llvm.br ^bb13(%65 : i32)
  ^bb15:  // pred: ^bb13
    %66 = llvm.add %52, %7 : i32
    llvm.br ^bb12(%66 : i32)
  ^bb16:  // pred: ^bb12
    %67 = llvm.getelementptr %0[0, 0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<300 x array<300 x f32>>
    llvm.br ^bb17(%5 : i32)
  ^bb17(%68: i32):  // 2 preds: ^bb16, ^bb20
    %69 = llvm.icmp "slt" %68, %8 : i32
    llvm.cond_br %69, ^bb18(%5 : i32), ^bb21(%5 : i32)
  ^bb18(%70: i32):  // 2 preds: ^bb17, ^bb19
    %71 = llvm.icmp "slt" %70, %8 : i32
    llvm.cond_br %71, ^bb19, ^bb20
  ^bb19:  // pred: ^bb18
    %72 = llvm.mul %70, %8 overflow<nsw, nuw> : i32
    %73 = llvm.add %72, %68 overflow<nsw, nuw> : i32
    %74 = llvm.getelementptr inbounds|nuw %arg8[%73] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %75 = llvm.load %74 : !llvm.ptr -> f32
    %76 = llvm.mul %68, %8 overflow<nsw, nuw> : i32
    %77 = llvm.add %76, %70 overflow<nsw, nuw> : i32
    %78 = llvm.getelementptr inbounds|nuw %67[%77] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %75, %78 : f32, !llvm.ptr
    %79 = llvm.add %70, %7 : i32
    llvm.br ^bb18(%79 : i32)
  ^bb20:  // pred: ^bb18
    %80 = llvm.add %68, %7 : i32
    llvm.br ^bb17(%80 : i32)
  ^bb21(%81: i32):  // 2 preds: ^bb17, ^bb26
    %82 = llvm.icmp "slt" %81, %6 : i32
    llvm.cond_br %82, ^bb22(%5 : i32), ^bb27
  ^bb22(%83: i32):  // 2 preds: ^bb21, ^bb25
    %84 = llvm.icmp "slt" %83, %8 : i32
    llvm.cond_br %84, ^bb23(%5 : i32), ^bb26
  ^bb23(%85: i32):  // 2 preds: ^bb22, ^bb24
    %86 = llvm.icmp "slt" %85, %8 : i32
    llvm.cond_br %86, ^bb24, ^bb25
  ^bb24:  // pred: ^bb23
    %87 = llvm.mul %81, %8 overflow<nsw, nuw> : i32
    %88 = llvm.add %87, %85 overflow<nsw, nuw> : i32
    %89 = llvm.getelementptr inbounds|nuw %9[%88] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %90 = llvm.load %89 : !llvm.ptr -> f32
    %91 = llvm.mul %85, %8 overflow<nsw, nuw> : i32
    %92 = llvm.add %91, %83 overflow<nsw, nuw> : i32
    %93 = llvm.getelementptr inbounds|nuw %67[%92] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %94 = llvm.load %93 : !llvm.ptr -> f32
    %95 = llvm.mul %81, %8 overflow<nsw, nuw> : i32
    %96 = llvm.add %95, %83 overflow<nsw, nuw> : i32
    %97 = llvm.getelementptr inbounds|nuw %arg15[%96] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %98 = llvm.load %97 : !llvm.ptr -> f32
    %99 = llvm.fmul %90, %94 : f32
    %100 = llvm.fadd %98, %99 : f32
    %101 = llvm.mul %81, %8 overflow<nsw, nuw> : i32
    %102 = llvm.add %101, %83 overflow<nsw, nuw> : i32
    %103 = llvm.getelementptr inbounds|nuw %arg15[%102] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %100, %103 : f32, !llvm.ptr
    %104 = llvm.add %85, %7 : i32
    llvm.br ^bb23(%104 : i32)
  ^bb25:  // pred: ^bb23
    %105 = llvm.add %83, %7 : i32
    llvm.br ^bb22(%105 : i32)
  ^bb26:  // pred: ^bb22
    %106 = llvm.add %81, %7 : i32
    llvm.br ^bb21(%106 : i32)
  ^bb27:  // pred: ^bb21
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
