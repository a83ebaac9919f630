// RUN: python -m compiler.replay row-unrolling --target t1-small --no-locations %s | filecheck %s
// a @ b of 4x8 by 8x16 after accumulator-unrolling (t1-small): the innermost loop around vector work
// (the fill's four row stores) is unrolled by 4; with 4 iterations the loop disappears.

// CHECK-LABEL: func.func @forward
// CHECK-NOT:   scf.for
// CHECK:       vector.store %[[Z:.+]], %arg2[%{{.+}}, %{{.+}}] : memref<4x16xf32>, vector<16xf32>
// CHECK:       vector.store %[[Z]], %arg2[%{{.+}}, %{{.+}}] : memref<4x16xf32>, vector<16xf32>
// CHECK:       vector.store %[[Z]], %arg2[%{{.+}}, %{{.+}}] : memref<4x16xf32>, vector<16xf32>
// CHECK:       vector.store %[[Z]], %arg2[%{{.+}}, %{{.+}}] : memref<4x16xf32>, vector<16xf32>
// CHECK:       %{{.+}}:8 = scf.for

module {
  func.func @forward(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}, %arg2: memref<4x16xf32> {llvm.noalias}) {
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    %cst = arith.constant dense<0.000000e+00> : vector<16xf32>
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    scf.for %arg3 = %c0 to %c4 step %c1 {
      vector.store %cst, %arg2[%arg3, %c0] : memref<4x16xf32>, vector<16xf32>
    }
    %0 = vector.load %arg2[%c0, %c0] : memref<4x16xf32>, vector<8xf32>
    %1 = vector.load %arg2[%c0, %c8] : memref<4x16xf32>, vector<8xf32>
    %2 = vector.load %arg2[%c1, %c0] : memref<4x16xf32>, vector<8xf32>
    %3 = vector.load %arg2[%c1, %c8] : memref<4x16xf32>, vector<8xf32>
    %4 = vector.load %arg2[%c2, %c0] : memref<4x16xf32>, vector<8xf32>
    %5 = vector.load %arg2[%c2, %c8] : memref<4x16xf32>, vector<8xf32>
    %6 = vector.load %arg2[%c3, %c0] : memref<4x16xf32>, vector<8xf32>
    %7 = vector.load %arg2[%c3, %c8] : memref<4x16xf32>, vector<8xf32>
    %c4_0 = arith.constant 4 : index
    %8:8 = scf.for %arg3 = %c0 to %c8 step %c4_0 iter_args(%arg4 = %0, %arg5 = %1, %arg6 = %2, %arg7 = %3, %arg8 = %4, %arg9 = %5, %arg10 = %6, %arg11 = %7) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
      %9 = memref.load %arg0[%c0, %arg3] : memref<4x8xf32>
      %10 = vector.load %arg1[%arg3, %c0] : memref<8x16xf32>, vector<8xf32>
      %11 = vector.broadcast %9 : f32 to vector<8xf32>
      %12 = vector.fma %11, %10, %arg4 : vector<8xf32>
      %13 = vector.load %arg1[%arg3, %c8] : memref<8x16xf32>, vector<8xf32>
      %14 = vector.fma %11, %13, %arg5 : vector<8xf32>
      %15 = memref.load %arg0[%c1, %arg3] : memref<4x8xf32>
      %16 = vector.broadcast %15 : f32 to vector<8xf32>
      %17 = vector.fma %16, %10, %arg6 : vector<8xf32>
      %18 = vector.fma %16, %13, %arg7 : vector<8xf32>
      %19 = memref.load %arg0[%c2, %arg3] : memref<4x8xf32>
      %20 = vector.broadcast %19 : f32 to vector<8xf32>
      %21 = vector.fma %20, %10, %arg8 : vector<8xf32>
      %22 = vector.fma %20, %13, %arg9 : vector<8xf32>
      %23 = memref.load %arg0[%c3, %arg3] : memref<4x8xf32>
      %24 = vector.broadcast %23 : f32 to vector<8xf32>
      %25 = vector.fma %24, %10, %arg10 : vector<8xf32>
      %26 = vector.fma %24, %13, %arg11 : vector<8xf32>
      %c1_1 = arith.constant 1 : index
      %27 = arith.muli %c1, %c1_1 : index
      %28 = arith.addi %arg3, %27 : index
      %29 = memref.load %arg0[%c0, %28] : memref<4x8xf32>
      %30 = vector.load %arg1[%28, %c0] : memref<8x16xf32>, vector<8xf32>
      %31 = vector.broadcast %29 : f32 to vector<8xf32>
      %32 = vector.fma %31, %30, %12 : vector<8xf32>
      %33 = vector.load %arg1[%28, %c8] : memref<8x16xf32>, vector<8xf32>
      %34 = vector.fma %31, %33, %14 : vector<8xf32>
      %35 = memref.load %arg0[%c1, %28] : memref<4x8xf32>
      %36 = vector.broadcast %35 : f32 to vector<8xf32>
      %37 = vector.fma %36, %30, %17 : vector<8xf32>
      %38 = vector.fma %36, %33, %18 : vector<8xf32>
      %39 = memref.load %arg0[%c2, %28] : memref<4x8xf32>
      %40 = vector.broadcast %39 : f32 to vector<8xf32>
      %41 = vector.fma %40, %30, %21 : vector<8xf32>
      %42 = vector.fma %40, %33, %22 : vector<8xf32>
      %43 = memref.load %arg0[%c3, %28] : memref<4x8xf32>
      %44 = vector.broadcast %43 : f32 to vector<8xf32>
      %45 = vector.fma %44, %30, %25 : vector<8xf32>
      %46 = vector.fma %44, %33, %26 : vector<8xf32>
      %c2_2 = arith.constant 2 : index
      %47 = arith.muli %c1, %c2_2 : index
      %48 = arith.addi %arg3, %47 : index
      %49 = memref.load %arg0[%c0, %48] : memref<4x8xf32>
      %50 = vector.load %arg1[%48, %c0] : memref<8x16xf32>, vector<8xf32>
      %51 = vector.broadcast %49 : f32 to vector<8xf32>
      %52 = vector.fma %51, %50, %32 : vector<8xf32>
      %53 = vector.load %arg1[%48, %c8] : memref<8x16xf32>, vector<8xf32>
      %54 = vector.fma %51, %53, %34 : vector<8xf32>
      %55 = memref.load %arg0[%c1, %48] : memref<4x8xf32>
      %56 = vector.broadcast %55 : f32 to vector<8xf32>
      %57 = vector.fma %56, %50, %37 : vector<8xf32>
      %58 = vector.fma %56, %53, %38 : vector<8xf32>
      %59 = memref.load %arg0[%c2, %48] : memref<4x8xf32>
      %60 = vector.broadcast %59 : f32 to vector<8xf32>
      %61 = vector.fma %60, %50, %41 : vector<8xf32>
      %62 = vector.fma %60, %53, %42 : vector<8xf32>
      %63 = memref.load %arg0[%c3, %48] : memref<4x8xf32>
      %64 = vector.broadcast %63 : f32 to vector<8xf32>
      %65 = vector.fma %64, %50, %45 : vector<8xf32>
      %66 = vector.fma %64, %53, %46 : vector<8xf32>
      %c3_3 = arith.constant 3 : index
      %67 = arith.muli %c1, %c3_3 : index
      %68 = arith.addi %arg3, %67 : index
      %69 = memref.load %arg0[%c0, %68] : memref<4x8xf32>
      %70 = vector.load %arg1[%68, %c0] : memref<8x16xf32>, vector<8xf32>
      %71 = vector.broadcast %69 : f32 to vector<8xf32>
      %72 = vector.fma %71, %70, %52 : vector<8xf32>
      %73 = vector.load %arg1[%68, %c8] : memref<8x16xf32>, vector<8xf32>
      %74 = vector.fma %71, %73, %54 : vector<8xf32>
      %75 = memref.load %arg0[%c1, %68] : memref<4x8xf32>
      %76 = vector.broadcast %75 : f32 to vector<8xf32>
      %77 = vector.fma %76, %70, %57 : vector<8xf32>
      %78 = vector.fma %76, %73, %58 : vector<8xf32>
      %79 = memref.load %arg0[%c2, %68] : memref<4x8xf32>
      %80 = vector.broadcast %79 : f32 to vector<8xf32>
      %81 = vector.fma %80, %70, %61 : vector<8xf32>
      %82 = vector.fma %80, %73, %62 : vector<8xf32>
      %83 = memref.load %arg0[%c3, %68] : memref<4x8xf32>
      %84 = vector.broadcast %83 : f32 to vector<8xf32>
      %85 = vector.fma %84, %70, %65 : vector<8xf32>
      %86 = vector.fma %84, %73, %66 : vector<8xf32>
      scf.yield %72, %74, %77, %78, %81, %82, %85, %86 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
    } {cosim_unroll = 4 : i64}
    vector.store %8#0, %arg2[%c0, %c0] : memref<4x16xf32>, vector<8xf32>
    vector.store %8#1, %arg2[%c0, %c8] : memref<4x16xf32>, vector<8xf32>
    vector.store %8#2, %arg2[%c1, %c0] : memref<4x16xf32>, vector<8xf32>
    vector.store %8#3, %arg2[%c1, %c8] : memref<4x16xf32>, vector<8xf32>
    vector.store %8#4, %arg2[%c2, %c0] : memref<4x16xf32>, vector<8xf32>
    vector.store %8#5, %arg2[%c2, %c8] : memref<4x16xf32>, vector<8xf32>
    vector.store %8#6, %arg2[%c3, %c0] : memref<4x16xf32>, vector<8xf32>
    vector.store %8#7, %arg2[%c3, %c8] : memref<4x16xf32>, vector<8xf32>
    return
  }
}
