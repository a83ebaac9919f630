// RUN: python -m compiler.replay canonicalize-cse --target t1-small --no-locations %s | filecheck %s
// a @ b of 4x8 by 8x16 after row-unrolling (t1-small): canonicalize and cse fold the unrolled copies'
// index arithmetic (c0 + 1 * k) to constants and merge the duplicated constants.

// CHECK-LABEL: func.func @forward
// CHECK-NOT:   arith.muli
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:   %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
// CHECK:       vector.store %{{.+}}, %arg2[%[[C1]], %{{.+}}] : memref<4x16xf32>, vector<16xf32>
// CHECK-NEXT:  vector.store %{{.+}}, %arg2[%[[C2]], %{{.+}}] : memref<4x16xf32>, vector<16xf32>
// CHECK-NEXT:  vector.store %{{.+}}, %arg2[%[[C3]], %{{.+}}] : memref<4x16xf32>, vector<16xf32>
// CHECK:       scf.for %{{.+}} = %{{.+}} to %{{.+}} step %[[C4]] iter_args(
// CHECK-NOT:   arith.muli

module {
  func.func @forward(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}, %arg2: memref<4x16xf32> {llvm.noalias}) {
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    %cst = arith.constant dense<0.000000e+00> : vector<16xf32>
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c4_0 = arith.constant 4 : index
    vector.store %cst, %arg2[%c0, %c0] : memref<4x16xf32>, vector<16xf32>
    %c1_1 = arith.constant 1 : index
    %0 = arith.muli %c1, %c1_1 : index
    %1 = arith.addi %c0, %0 : index
    vector.store %cst, %arg2[%1, %c0] : memref<4x16xf32>, vector<16xf32>
    %c2_2 = arith.constant 2 : index
    %2 = arith.muli %c1, %c2_2 : index
    %3 = arith.addi %c0, %2 : index
    vector.store %cst, %arg2[%3, %c0] : memref<4x16xf32>, vector<16xf32>
    %c3_3 = arith.constant 3 : index
    %4 = arith.muli %c1, %c3_3 : index
    %5 = arith.addi %c0, %4 : index
    vector.store %cst, %arg2[%5, %c0] : memref<4x16xf32>, vector<16xf32>
    %6 = vector.load %arg2[%c0, %c0] : memref<4x16xf32>, vector<8xf32>
    %7 = vector.load %arg2[%c0, %c8] : memref<4x16xf32>, vector<8xf32>
    %8 = vector.load %arg2[%c1, %c0] : memref<4x16xf32>, vector<8xf32>
    %9 = vector.load %arg2[%c1, %c8] : memref<4x16xf32>, vector<8xf32>
    %10 = vector.load %arg2[%c2, %c0] : memref<4x16xf32>, vector<8xf32>
    %11 = vector.load %arg2[%c2, %c8] : memref<4x16xf32>, vector<8xf32>
    %12 = vector.load %arg2[%c3, %c0] : memref<4x16xf32>, vector<8xf32>
    %13 = vector.load %arg2[%c3, %c8] : memref<4x16xf32>, vector<8xf32>
    %c4_4 = arith.constant 4 : index
    %14:8 = scf.for %arg3 = %c0 to %c8 step %c4_4 iter_args(%arg4 = %6, %arg5 = %7, %arg6 = %8, %arg7 = %9, %arg8 = %10, %arg9 = %11, %arg10 = %12, %arg11 = %13) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
      %15 = memref.load %arg0[%c0, %arg3] : memref<4x8xf32>
      %16 = vector.load %arg1[%arg3, %c0] : memref<8x16xf32>, vector<8xf32>
      %17 = vector.broadcast %15 : f32 to vector<8xf32>
      %18 = vector.fma %17, %16, %arg4 : vector<8xf32>
      %19 = vector.load %arg1[%arg3, %c8] : memref<8x16xf32>, vector<8xf32>
      %20 = vector.fma %17, %19, %arg5 : vector<8xf32>
      %21 = memref.load %arg0[%c1, %arg3] : memref<4x8xf32>
      %22 = vector.broadcast %21 : f32 to vector<8xf32>
      %23 = vector.fma %22, %16, %arg6 : vector<8xf32>
      %24 = vector.fma %22, %19, %arg7 : vector<8xf32>
      %25 = memref.load %arg0[%c2, %arg3] : memref<4x8xf32>
      %26 = vector.broadcast %25 : f32 to vector<8xf32>
      %27 = vector.fma %26, %16, %arg8 : vector<8xf32>
      %28 = vector.fma %26, %19, %arg9 : vector<8xf32>
      %29 = memref.load %arg0[%c3, %arg3] : memref<4x8xf32>
      %30 = vector.broadcast %29 : f32 to vector<8xf32>
      %31 = vector.fma %30, %16, %arg10 : vector<8xf32>
      %32 = vector.fma %30, %19, %arg11 : vector<8xf32>
      %c1_5 = arith.constant 1 : index
      %33 = arith.muli %c1, %c1_5 : index
      %34 = arith.addi %arg3, %33 : index
      %35 = memref.load %arg0[%c0, %34] : memref<4x8xf32>
      %36 = vector.load %arg1[%34, %c0] : memref<8x16xf32>, vector<8xf32>
      %37 = vector.broadcast %35 : f32 to vector<8xf32>
      %38 = vector.fma %37, %36, %18 : vector<8xf32>
      %39 = vector.load %arg1[%34, %c8] : memref<8x16xf32>, vector<8xf32>
      %40 = vector.fma %37, %39, %20 : vector<8xf32>
      %41 = memref.load %arg0[%c1, %34] : memref<4x8xf32>
      %42 = vector.broadcast %41 : f32 to vector<8xf32>
      %43 = vector.fma %42, %36, %23 : vector<8xf32>
      %44 = vector.fma %42, %39, %24 : vector<8xf32>
      %45 = memref.load %arg0[%c2, %34] : memref<4x8xf32>
      %46 = vector.broadcast %45 : f32 to vector<8xf32>
      %47 = vector.fma %46, %36, %27 : vector<8xf32>
      %48 = vector.fma %46, %39, %28 : vector<8xf32>
      %49 = memref.load %arg0[%c3, %34] : memref<4x8xf32>
      %50 = vector.broadcast %49 : f32 to vector<8xf32>
      %51 = vector.fma %50, %36, %31 : vector<8xf32>
      %52 = vector.fma %50, %39, %32 : vector<8xf32>
      %c2_6 = arith.constant 2 : index
      %53 = arith.muli %c1, %c2_6 : index
      %54 = arith.addi %arg3, %53 : index
      %55 = memref.load %arg0[%c0, %54] : memref<4x8xf32>
      %56 = vector.load %arg1[%54, %c0] : memref<8x16xf32>, vector<8xf32>
      %57 = vector.broadcast %55 : f32 to vector<8xf32>
      %58 = vector.fma %57, %56, %38 : vector<8xf32>
      %59 = vector.load %arg1[%54, %c8] : memref<8x16xf32>, vector<8xf32>
      %60 = vector.fma %57, %59, %40 : vector<8xf32>
      %61 = memref.load %arg0[%c1, %54] : memref<4x8xf32>
      %62 = vector.broadcast %61 : f32 to vector<8xf32>
      %63 = vector.fma %62, %56, %43 : vector<8xf32>
      %64 = vector.fma %62, %59, %44 : vector<8xf32>
      %65 = memref.load %arg0[%c2, %54] : memref<4x8xf32>
      %66 = vector.broadcast %65 : f32 to vector<8xf32>
      %67 = vector.fma %66, %56, %47 : vector<8xf32>
      %68 = vector.fma %66, %59, %48 : vector<8xf32>
      %69 = memref.load %arg0[%c3, %54] : memref<4x8xf32>
      %70 = vector.broadcast %69 : f32 to vector<8xf32>
      %71 = vector.fma %70, %56, %51 : vector<8xf32>
      %72 = vector.fma %70, %59, %52 : vector<8xf32>
      %c3_7 = arith.constant 3 : index
      %73 = arith.muli %c1, %c3_7 : index
      %74 = arith.addi %arg3, %73 : index
      %75 = memref.load %arg0[%c0, %74] : memref<4x8xf32>
      %76 = vector.load %arg1[%74, %c0] : memref<8x16xf32>, vector<8xf32>
      %77 = vector.broadcast %75 : f32 to vector<8xf32>
      %78 = vector.fma %77, %76, %58 : vector<8xf32>
      %79 = vector.load %arg1[%74, %c8] : memref<8x16xf32>, vector<8xf32>
      %80 = vector.fma %77, %79, %60 : vector<8xf32>
      %81 = memref.load %arg0[%c1, %74] : memref<4x8xf32>
      %82 = vector.broadcast %81 : f32 to vector<8xf32>
      %83 = vector.fma %82, %76, %63 : vector<8xf32>
      %84 = vector.fma %82, %79, %64 : vector<8xf32>
      %85 = memref.load %arg0[%c2, %74] : memref<4x8xf32>
      %86 = vector.broadcast %85 : f32 to vector<8xf32>
      %87 = vector.fma %86, %76, %67 : vector<8xf32>
      %88 = vector.fma %86, %79, %68 : vector<8xf32>
      %89 = memref.load %arg0[%c3, %74] : memref<4x8xf32>
      %90 = vector.broadcast %89 : f32 to vector<8xf32>
      %91 = vector.fma %90, %76, %71 : vector<8xf32>
      %92 = vector.fma %90, %79, %72 : vector<8xf32>
      scf.yield %78, %80, %83, %84, %87, %88, %91, %92 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
    } {cosim_unroll = 4 : i64}
    vector.store %14#0, %arg2[%c0, %c0] : memref<4x16xf32>, vector<8xf32>
    vector.store %14#1, %arg2[%c0, %c8] : memref<4x16xf32>, vector<8xf32>
    vector.store %14#2, %arg2[%c1, %c0] : memref<4x16xf32>, vector<8xf32>
    vector.store %14#3, %arg2[%c1, %c8] : memref<4x16xf32>, vector<8xf32>
    vector.store %14#4, %arg2[%c2, %c0] : memref<4x16xf32>, vector<8xf32>
    vector.store %14#5, %arg2[%c2, %c8] : memref<4x16xf32>, vector<8xf32>
    vector.store %14#6, %arg2[%c3, %c0] : memref<4x16xf32>, vector<8xf32>
    vector.store %14#7, %arg2[%c3, %c8] : memref<4x16xf32>, vector<8xf32>
    return
  }
}
