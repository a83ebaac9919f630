// RUN: python -m compiler.replay downlevel --target rv32 --no-locations %s | filecheck %s
// a @ b of 4x8 by 8x16 on rv32: the LLVM IR text as translated (LLVM 24, the dump's 06-llvm.ll) becomes
// what LLVM 22 (zig's clang) parses: no nuw on GEPs (integer nuw stays), float constants in hex.
// (An llvm-ir pass works on text: these comment lines pass through, so every check is anchored after
// the first {{^}}define line.)

// CHECK-LABEL: {{^}}define void @forward(
// CHECK-NOT:   getelementptr inbounds nuw
// CHECK:       store float 0x0000000000000000, ptr %{{.+}}, align 4
// CHECK:       mul nuw nsw i32
// CHECK:       getelementptr inbounds float, ptr %{{.+}}, i32 %{{.+}}
// CHECK-NOT:   getelementptr inbounds nuw
// CHECK-LABEL: {{^}}define void @_mlir_ciface_forward(

; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"

define void @forward(ptr %0, ptr noalias %1, i32 %2, i32 %3, i32 %4, i32 %5, i32 %6, ptr %7, ptr noalias %8, i32 %9, i32 %10, i32 %11, i32 %12, i32 %13, ptr %14, ptr noalias %15, i32 %16, i32 %17, i32 %18, i32 %19, i32 %20) {
  br label %22

22:                                               ; preds = %33, %21
  %23 = phi i32 [ %34, %33 ], [ 0, %21 ]
  %24 = icmp slt i32 %23, 4
  br i1 %24, label %25, label %35

25:                                               ; preds = %28, %22
  %26 = phi i32 [ %32, %28 ], [ 0, %22 ]
  %27 = icmp slt i32 %26, 16
  br i1 %27, label %28, label %33

28:                                               ; preds = %25
  %29 = mul nuw nsw i32 %23, 16
  %30 = add nuw nsw i32 %29, %26
  %31 = getelementptr inbounds nuw float, ptr %15, i32 %30
  store float 0.000000e+00, ptr %31, align 4
  %32 = add i32 %26, 1
  br label %25

33:                                               ; preds = %25
  %34 = add i32 %23, 1
  br label %22

35:                                               ; preds = %65, %22
  %36 = phi i32 [ %66, %65 ], [ 0, %22 ]
  %37 = icmp slt i32 %36, 4
  br i1 %37, label %38, label %67

38:                                               ; preds = %63, %35
  %39 = phi i32 [ %64, %63 ], [ 0, %35 ]
  %40 = icmp slt i32 %39, 16
  br i1 %40, label %41, label %65

41:                                               ; preds = %44, %38
  %42 = phi i32 [ %62, %44 ], [ 0, %38 ]
  %43 = icmp slt i32 %42, 8
  br i1 %43, label %44, label %63

44:                                               ; preds = %41
  %45 = mul nuw nsw i32 %36, 8
  %46 = add nuw nsw i32 %45, %42
  %47 = getelementptr inbounds nuw float, ptr %1, i32 %46
  %48 = load float, ptr %47, align 4
  %49 = mul nuw nsw i32 %42, 16
  %50 = add nuw nsw i32 %49, %39
  %51 = getelementptr inbounds nuw float, ptr %8, i32 %50
  %52 = load float, ptr %51, align 4
  %53 = mul nuw nsw i32 %36, 16
  %54 = add nuw nsw i32 %53, %39
  %55 = getelementptr inbounds nuw float, ptr %15, i32 %54
  %56 = load float, ptr %55, align 4
  %57 = fmul float %48, %52
  %58 = fadd float %56, %57
  %59 = mul nuw nsw i32 %36, 16
  %60 = add nuw nsw i32 %59, %39
  %61 = getelementptr inbounds nuw float, ptr %15, i32 %60
  store float %58, ptr %61, align 4
  %62 = add i32 %42, 1
  br label %41

63:                                               ; preds = %41
  %64 = add i32 %39, 1
  br label %38

65:                                               ; preds = %38
  %66 = add i32 %36, 1
  br label %35

67:                                               ; preds = %35
  ret void
}

define void @_mlir_ciface_forward(ptr noalias %0, ptr noalias %1, ptr noalias %2) {
  %4 = load { ptr, ptr, i32, [2 x i32], [2 x i32] }, ptr %0, align 8
  %5 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %4, 0
  %6 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %4, 1
  %7 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %4, 2
  %8 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %4, 3, 0
  %9 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %4, 3, 1
  %10 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %4, 4, 0
  %11 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %4, 4, 1
  %12 = load { ptr, ptr, i32, [2 x i32], [2 x i32] }, ptr %1, align 8
  %13 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %12, 0
  %14 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %12, 1
  %15 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %12, 2
  %16 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %12, 3, 0
  %17 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %12, 3, 1
  %18 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %12, 4, 0
  %19 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %12, 4, 1
  %20 = load { ptr, ptr, i32, [2 x i32], [2 x i32] }, ptr %2, align 8
  %21 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %20, 0
  %22 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %20, 1
  %23 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %20, 2
  %24 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %20, 3, 0
  %25 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %20, 3, 1
  %26 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %20, 4, 0
  %27 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %20, 4, 1
  call void @forward(ptr %5, ptr %6, i32 %7, i32 %8, i32 %9, i32 %10, i32 %11, ptr %13, ptr %14, i32 %15, i32 %16, i32 %17, i32 %18, i32 %19, ptr %21, ptr %22, i32 %23, i32 %24, i32 %25, i32 %26, i32 %27)
  ret void
}

!llvm.module.flags = !{!0}

!0 = !{i32 2, !"Debug Info Version", i32 3}
