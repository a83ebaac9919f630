// RUN: python -m compiler.replay explicit-vector-lengths --target t1-blastoise --no-locations %s | filecheck %s
// x * 2.0 + 1.0 of 3x13 on t1-blastoise after downlevel: the fmul and fadd on <39 x float> (not a
// power of two, within an LMUL-4 group) become VP intrinsics with an all-true mask and EVL 39, so they
// run at the VL of the load and store instead of the widened register type's. (An llvm-ir pass works
// on text: these comment lines pass through, so every check is anchored after the first {{^}}define.)

// CHECK-LABEL: {{^}}define void @forward(
// CHECK:       %[[X:.+]] = load <39 x float>, ptr %{{.+}}, align 4
// CHECK-NEXT:  %[[M:.+]] = call <39 x float> @llvm.vp.fmul.v39f32(<39 x float> %[[X]], <39 x float> splat (float 0x4000000000000000), <39 x i1> splat (i1 true), i32 39)
// CHECK-NEXT:  %[[A:.+]] = call <39 x float> @llvm.vp.fadd.v39f32(<39 x float> %[[M]], <39 x float> splat (float 0x3FF0000000000000), <39 x i1> splat (i1 true), i32 39)
// CHECK-NEXT:  store <39 x float> %[[A]], ptr %{{.+}}, align 4
// CHECK:       {{^}}declare <39 x float> @llvm.vp.fmul.v39f32(<39 x float>, <39 x float>, <39 x i1>, i32)
// CHECK:       {{^}}declare <39 x float> @llvm.vp.fadd.v39f32(<39 x float>, <39 x float>, <39 x i1>, i32)

; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"

define void @forward(ptr %0, ptr %1, i32 %2, i32 %3, i32 %4, i32 %5, i32 %6, ptr %7, ptr %8, i32 %9, i32 %10, i32 %11, i32 %12, i32 %13) {
  %15 = load <39 x float>, ptr %1, align 4
  %16 = fmul <39 x float> %15, splat (float 0x4000000000000000)
  %17 = fadd <39 x float> %16, splat (float 0x3FF0000000000000)
  store <39 x float> %17, ptr %8, align 4
  ret void
}

define void @_mlir_ciface_forward(ptr noalias %0, ptr noalias %1) {
  %3 = load { ptr, ptr, i32, [2 x i32], [2 x i32] }, ptr %0, align 8
  %4 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %3, 0
  %5 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %3, 1
  %6 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %3, 2
  %7 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %3, 3, 0
  %8 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %3, 3, 1
  %9 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %3, 4, 0
  %10 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %3, 4, 1
  %11 = load { ptr, ptr, i32, [2 x i32], [2 x i32] }, ptr %1, align 8
  %12 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %11, 0
  %13 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %11, 1
  %14 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %11, 2
  %15 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %11, 3, 0
  %16 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %11, 3, 1
  %17 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %11, 4, 0
  %18 = extractvalue { ptr, ptr, i32, [2 x i32], [2 x i32] } %11, 4, 1
  call void @forward(ptr %4, ptr %5, i32 %6, i32 %7, i32 %8, i32 %9, i32 %10, ptr %12, ptr %13, i32 %14, i32 %15, i32 %16, i32 %17, i32 %18)
  ret void
}

!llvm.module.flags = !{!0}

!0 = !{i32 2, !"Debug Info Version", i32 3}
