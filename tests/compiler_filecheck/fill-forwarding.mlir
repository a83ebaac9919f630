// RUN: python -m compiler.replay fill-forwarding --target t1-small --no-locations %s | filecheck %s
// the built-in bmm (two 8x8x8 f32 tensors) after row-unrolling (t1-blastoise): the zero fill of the
// output is followed by a nest that loads each accumulator once, before the k loop, and stores it after.
// Every load reads only filled elements, so it becomes the zero constant; the nest overwrites every
// filled element, so the fill goes. Run for t1-small: its accumulators of 8 floats are 4 datapath
// rows (on t1-blastoise one row, which the pass leaves as a reload).

// CHECK-LABEL: func.func @forward
// CHECK-NOT:   vector.store %cst
// CHECK:       %[[Z:cst_[0-9]+]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK-NOT:   vector.load %arg2
// CHECK:       scf.for %{{.+}} iter_args(%{{.+}} = %[[Z]],
// CHECK-NOT:   vector.load %arg2
// CHECK:       vector.store %{{.+}}#0, %arg2
// CHECK-NOT:   vector.load %arg2

module {
  func.func @forward(%arg0: memref<8x8x8xf32> {llvm.noalias}, %arg1: memref<8x8x8xf32> {llvm.noalias}, %arg2: memref<8x8x8xf32> {llvm.noalias}) {
    %c7 = arith.constant 7 : index
    %c6 = arith.constant 6 : index
    %c5 = arith.constant 5 : index
    %c4 = arith.constant 4 : index
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    %cst = arith.constant dense<0.000000e+00> : vector<8xf32>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c1 = arith.constant 1 : index
    scf.for %arg3 = %c0 to %c8 step %c1 {
      %c4_0 = arith.constant 4 : index
      scf.for %arg4 = %c0 to %c8 step %c4_0 {
        vector.store %cst, %arg2[%arg3, %arg4, %c0] : memref<8x8x8xf32>, vector<8xf32>
        %c1_1 = arith.constant 1 : index
        %0 = arith.muli %c1, %c1_1 : index
        %1 = arith.addi %arg4, %0 : index
        vector.store %cst, %arg2[%arg3, %1, %c0] : memref<8x8x8xf32>, vector<8xf32>
        %c2_2 = arith.constant 2 : index
        %2 = arith.muli %c1, %c2_2 : index
        %3 = arith.addi %arg4, %2 : index
        vector.store %cst, %arg2[%arg3, %3, %c0] : memref<8x8x8xf32>, vector<8xf32>
        %c3_3 = arith.constant 3 : index
        %4 = arith.muli %c1, %c3_3 : index
        %5 = arith.addi %arg4, %4 : index
        vector.store %cst, %arg2[%arg3, %5, %c0] : memref<8x8x8xf32>, vector<8xf32>
      } {cosim_rows = 4 : i64}
    }
    scf.for %arg3 = %c0 to %c8 step %c2 {
      %0 = vector.load %arg2[%arg3, %c0, %c0] : memref<8x8x8xf32>, vector<8xf32>
      %1 = vector.load %arg2[%arg3, %c1, %c0] : memref<8x8x8xf32>, vector<8xf32>
      %2 = vector.load %arg2[%arg3, %c2, %c0] : memref<8x8x8xf32>, vector<8xf32>
      %3 = vector.load %arg2[%arg3, %c3, %c0] : memref<8x8x8xf32>, vector<8xf32>
      %4 = vector.load %arg2[%arg3, %c4, %c0] : memref<8x8x8xf32>, vector<8xf32>
      %5 = vector.load %arg2[%arg3, %c5, %c0] : memref<8x8x8xf32>, vector<8xf32>
      %6 = vector.load %arg2[%arg3, %c6, %c0] : memref<8x8x8xf32>, vector<8xf32>
      %7 = vector.load %arg2[%arg3, %c7, %c0] : memref<8x8x8xf32>, vector<8xf32>
      %8 = arith.addi %arg3, %c1 : index
      %9 = vector.load %arg2[%8, %c0, %c0] : memref<8x8x8xf32>, vector<8xf32>
      %10 = vector.load %arg2[%8, %c1, %c0] : memref<8x8x8xf32>, vector<8xf32>
      %11 = vector.load %arg2[%8, %c2, %c0] : memref<8x8x8xf32>, vector<8xf32>
      %12 = vector.load %arg2[%8, %c3, %c0] : memref<8x8x8xf32>, vector<8xf32>
      %13 = vector.load %arg2[%8, %c4, %c0] : memref<8x8x8xf32>, vector<8xf32>
      %14 = vector.load %arg2[%8, %c5, %c0] : memref<8x8x8xf32>, vector<8xf32>
      %15 = vector.load %arg2[%8, %c6, %c0] : memref<8x8x8xf32>, vector<8xf32>
      %16 = vector.load %arg2[%8, %c7, %c0] : memref<8x8x8xf32>, vector<8xf32>
      %17:16 = scf.for %arg4 = %c0 to %c8 step %c1 iter_args(%arg5 = %0, %arg6 = %1, %arg7 = %2, %arg8 = %3, %arg9 = %4, %arg10 = %5, %arg11 = %6, %arg12 = %7, %arg13 = %9, %arg14 = %10, %arg15 = %11, %arg16 = %12, %arg17 = %13, %arg18 = %14, %arg19 = %15, %arg20 = %16) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
        %18 = memref.load %arg0[%arg3, %c0, %arg4] : memref<8x8x8xf32>
        %19 = vector.load %arg1[%arg3, %arg4, %c0] : memref<8x8x8xf32>, vector<8xf32>
        %20 = vector.broadcast %18 : f32 to vector<8xf32>
        %21 = vector.fma %20, %19, %arg5 : vector<8xf32>
        %22 = memref.load %arg0[%arg3, %c1, %arg4] : memref<8x8x8xf32>
        %23 = vector.broadcast %22 : f32 to vector<8xf32>
        %24 = vector.fma %23, %19, %arg6 : vector<8xf32>
        %25 = memref.load %arg0[%arg3, %c2, %arg4] : memref<8x8x8xf32>
        %26 = vector.broadcast %25 : f32 to vector<8xf32>
        %27 = vector.fma %26, %19, %arg7 : vector<8xf32>
        %28 = memref.load %arg0[%arg3, %c3, %arg4] : memref<8x8x8xf32>
        %29 = vector.broadcast %28 : f32 to vector<8xf32>
        %30 = vector.fma %29, %19, %arg8 : vector<8xf32>
        %31 = memref.load %arg0[%arg3, %c4, %arg4] : memref<8x8x8xf32>
        %32 = vector.broadcast %31 : f32 to vector<8xf32>
        %33 = vector.fma %32, %19, %arg9 : vector<8xf32>
        %34 = memref.load %arg0[%arg3, %c5, %arg4] : memref<8x8x8xf32>
        %35 = vector.broadcast %34 : f32 to vector<8xf32>
        %36 = vector.fma %35, %19, %arg10 : vector<8xf32>
        %37 = memref.load %arg0[%arg3, %c6, %arg4] : memref<8x8x8xf32>
        %38 = vector.broadcast %37 : f32 to vector<8xf32>
        %39 = vector.fma %38, %19, %arg11 : vector<8xf32>
        %40 = memref.load %arg0[%arg3, %c7, %arg4] : memref<8x8x8xf32>
        %41 = vector.broadcast %40 : f32 to vector<8xf32>
        %42 = vector.fma %41, %19, %arg12 : vector<8xf32>
        %43 = memref.load %arg0[%8, %c0, %arg4] : memref<8x8x8xf32>
        %44 = vector.load %arg1[%8, %arg4, %c0] : memref<8x8x8xf32>, vector<8xf32>
        %45 = vector.broadcast %43 : f32 to vector<8xf32>
        %46 = vector.fma %45, %44, %arg13 : vector<8xf32>
        %47 = memref.load %arg0[%8, %c1, %arg4] : memref<8x8x8xf32>
        %48 = vector.broadcast %47 : f32 to vector<8xf32>
        %49 = vector.fma %48, %44, %arg14 : vector<8xf32>
        %50 = memref.load %arg0[%8, %c2, %arg4] : memref<8x8x8xf32>
        %51 = vector.broadcast %50 : f32 to vector<8xf32>
        %52 = vector.fma %51, %44, %arg15 : vector<8xf32>
        %53 = memref.load %arg0[%8, %c3, %arg4] : memref<8x8x8xf32>
        %54 = vector.broadcast %53 : f32 to vector<8xf32>
        %55 = vector.fma %54, %44, %arg16 : vector<8xf32>
        %56 = memref.load %arg0[%8, %c4, %arg4] : memref<8x8x8xf32>
        %57 = vector.broadcast %56 : f32 to vector<8xf32>
        %58 = vector.fma %57, %44, %arg17 : vector<8xf32>
        %59 = memref.load %arg0[%8, %c5, %arg4] : memref<8x8x8xf32>
        %60 = vector.broadcast %59 : f32 to vector<8xf32>
        %61 = vector.fma %60, %44, %arg18 : vector<8xf32>
        %62 = memref.load %arg0[%8, %c6, %arg4] : memref<8x8x8xf32>
        %63 = vector.broadcast %62 : f32 to vector<8xf32>
        %64 = vector.fma %63, %44, %arg19 : vector<8xf32>
        %65 = memref.load %arg0[%8, %c7, %arg4] : memref<8x8x8xf32>
        %66 = vector.broadcast %65 : f32 to vector<8xf32>
        %67 = vector.fma %66, %44, %arg20 : vector<8xf32>
        scf.yield %21, %24, %27, %30, %33, %36, %39, %42, %46, %49, %52, %55, %58, %61, %64, %67 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
      }
      vector.store %17#0, %arg2[%arg3, %c0, %c0] : memref<8x8x8xf32>, vector<8xf32>
      vector.store %17#1, %arg2[%arg3, %c1, %c0] : memref<8x8x8xf32>, vector<8xf32>
      vector.store %17#2, %arg2[%arg3, %c2, %c0] : memref<8x8x8xf32>, vector<8xf32>
      vector.store %17#3, %arg2[%arg3, %c3, %c0] : memref<8x8x8xf32>, vector<8xf32>
      vector.store %17#4, %arg2[%arg3, %c4, %c0] : memref<8x8x8xf32>, vector<8xf32>
      vector.store %17#5, %arg2[%arg3, %c5, %c0] : memref<8x8x8xf32>, vector<8xf32>
      vector.store %17#6, %arg2[%arg3, %c6, %c0] : memref<8x8x8xf32>, vector<8xf32>
      vector.store %17#7, %arg2[%arg3, %c7, %c0] : memref<8x8x8xf32>, vector<8xf32>
      vector.store %17#8, %arg2[%8, %c0, %c0] : memref<8x8x8xf32>, vector<8xf32>
      vector.store %17#9, %arg2[%8, %c1, %c0] : memref<8x8x8xf32>, vector<8xf32>
      vector.store %17#10, %arg2[%8, %c2, %c0] : memref<8x8x8xf32>, vector<8xf32>
      vector.store %17#11, %arg2[%8, %c3, %c0] : memref<8x8x8xf32>, vector<8xf32>
      vector.store %17#12, %arg2[%8, %c4, %c0] : memref<8x8x8xf32>, vector<8xf32>
      vector.store %17#13, %arg2[%8, %c5, %c0] : memref<8x8x8xf32>, vector<8xf32>
      vector.store %17#14, %arg2[%8, %c6, %c0] : memref<8x8x8xf32>, vector<8xf32>
      vector.store %17#15, %arg2[%8, %c7, %c0] : memref<8x8x8xf32>, vector<8xf32>
    }
    return
  }
}
