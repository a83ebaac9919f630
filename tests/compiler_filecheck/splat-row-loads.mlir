// RUN: python -m compiler.replay splat-row-loads --target t1-blastoise --no-locations %s | filecheck %s
// A row of A that lane-splats read for its splats (marked nontemporal) becomes llvm.vp.load with an all-true
// mask and EVL 8 (a plain load's lane splats LLVM folds into one scalar load each); the other loads stay.
// (An llvm-ir pass works on text: these comment lines pass through, so the checks are anchored at line starts.)

// CHECK:       {{^}}  %row = call <8 x float> @llvm.vp.load.v8f32.p0(ptr align 4 %a, <8 x i1> splat (i1 true), i32 8)
// CHECK:       {{^}}  %b0 = load <8 x float>, ptr %b, align 4{{$}}
// CHECK:       {{^}}declare <8 x float> @llvm.vp.load.v8f32.p0(ptr, <8 x i1>, i32)

define void @forward(ptr noalias %a, ptr noalias %b, ptr noalias %c) {
  %row = load <8 x float>, ptr %a, align 4, !nontemporal !1
  %b0 = load <8 x float>, ptr %b, align 4
  %s0 = shufflevector <8 x float> %row, <8 x float> poison, <8 x i32> zeroinitializer
  %p = fmul <8 x float> %s0, %b0
  store <8 x float> %p, ptr %c, align 4
  ret void
}

!1 = !{i32 1}
