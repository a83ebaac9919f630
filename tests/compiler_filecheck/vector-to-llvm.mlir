// RUN: python -m compiler.replay vector-to-llvm --target t1-small --no-locations %s | filecheck %s
// a @ b of 4x8 by 8x16 after to-loops (t1-small, XLEN 32): vector ops become LLVM dialect ops inside
// the transform dialect, with the target's index width (convert-vector-to-llvm has no index-width
// option): address arithmetic in i32, loads and stores of vector<8xf32>, vector.fma as fmuladd.

// CHECK-LABEL: func.func @forward
// CHECK-NOT:   vector.
// CHECK:       llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr, i32) -> !llvm.ptr, f32
// CHECK:       llvm.store %{{.+}}, %{{.+}} {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
// CHECK:       llvm.load %{{.+}} {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
// CHECK:       llvm.intr.fmuladd(%{{.+}}, %{{.+}}, %{{.+}}) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
// CHECK-NOT:   vector.

module {
  func.func @forward(%arg0: memref<4x8xf32> {llvm.noalias}, %arg1: memref<8x16xf32> {llvm.noalias}, %arg2: memref<4x16xf32> {llvm.noalias}) {
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    %cst = arith.constant dense<0.000000e+00> : vector<16xf32>
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    vector.store %cst, %arg2[%c0, %c0] : memref<4x16xf32>, vector<16xf32>
    vector.store %cst, %arg2[%c1, %c0] : memref<4x16xf32>, vector<16xf32>
    vector.store %cst, %arg2[%c2, %c0] : memref<4x16xf32>, vector<16xf32>
    vector.store %cst, %arg2[%c3, %c0] : memref<4x16xf32>, vector<16xf32>
    %0 = vector.load %arg2[%c0, %c0] : memref<4x16xf32>, vector<8xf32>
    %1 = vector.load %arg2[%c0, %c8] : memref<4x16xf32>, vector<8xf32>
    %2 = vector.load %arg2[%c1, %c0] : memref<4x16xf32>, vector<8xf32>
    %3 = vector.load %arg2[%c1, %c8] : memref<4x16xf32>, vector<8xf32>
    %4 = vector.load %arg2[%c2, %c0] : memref<4x16xf32>, vector<8xf32>
    %5 = vector.load %arg2[%c2, %c8] : memref<4x16xf32>, vector<8xf32>
    %6 = vector.load %arg2[%c3, %c0] : memref<4x16xf32>, vector<8xf32>
    %7 = vector.load %arg2[%c3, %c8] : memref<4x16xf32>, vector<8xf32>
    cf.br ^bb1(%c0, %0, %1, %2, %3, %4, %5, %6, %7 : index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
  ^bb1(%8: index, %9: vector<8xf32>, %10: vector<8xf32>, %11: vector<8xf32>, %12: vector<8xf32>, %13: vector<8xf32>, %14: vector<8xf32>, %15: vector<8xf32>, %16: vector<8xf32>):  // 2 preds: ^bb0, ^bb2
    %17 = arith.cmpi slt, %8, %c8 : index
    cf.cond_br %17, ^bb2, ^bb3
  ^bb2:  // pred: ^bb1
    %18 = memref.load %arg0[%c0, %8] : memref<4x8xf32>
    %19 = vector.load %arg1[%8, %c0] : memref<8x16xf32>, vector<8xf32>
    %20 = vector.broadcast %18 : f32 to vector<8xf32>
    %21 = vector.fma %20, %19, %9 : vector<8xf32>
    %22 = vector.load %arg1[%8, %c8] : memref<8x16xf32>, vector<8xf32>
    %23 = vector.fma %20, %22, %10 : vector<8xf32>
    %24 = memref.load %arg0[%c1, %8] : memref<4x8xf32>
    %25 = vector.broadcast %24 : f32 to vector<8xf32>
    %26 = vector.fma %25, %19, %11 : vector<8xf32>
    %27 = vector.fma %25, %22, %12 : vector<8xf32>
    %28 = memref.load %arg0[%c2, %8] : memref<4x8xf32>
    %29 = vector.broadcast %28 : f32 to vector<8xf32>
    %30 = vector.fma %29, %19, %13 : vector<8xf32>
    %31 = vector.fma %29, %22, %14 : vector<8xf32>
    %32 = memref.load %arg0[%c3, %8] : memref<4x8xf32>
    %33 = vector.broadcast %32 : f32 to vector<8xf32>
    %34 = vector.fma %33, %19, %15 : vector<8xf32>
    %35 = vector.fma %33, %22, %16 : vector<8xf32>
    %36 = arith.addi %8, %c1 : index
    %37 = memref.load %arg0[%c0, %36] : memref<4x8xf32>
    %38 = vector.load %arg1[%36, %c0] : memref<8x16xf32>, vector<8xf32>
    %39 = vector.broadcast %37 : f32 to vector<8xf32>
    %40 = vector.fma %39, %38, %21 : vector<8xf32>
    %41 = vector.load %arg1[%36, %c8] : memref<8x16xf32>, vector<8xf32>
    %42 = vector.fma %39, %41, %23 : vector<8xf32>
    %43 = memref.load %arg0[%c1, %36] : memref<4x8xf32>
    %44 = vector.broadcast %43 : f32 to vector<8xf32>
    %45 = vector.fma %44, %38, %26 : vector<8xf32>
    %46 = vector.fma %44, %41, %27 : vector<8xf32>
    %47 = memref.load %arg0[%c2, %36] : memref<4x8xf32>
    %48 = vector.broadcast %47 : f32 to vector<8xf32>
    %49 = vector.fma %48, %38, %30 : vector<8xf32>
    %50 = vector.fma %48, %41, %31 : vector<8xf32>
    %51 = memref.load %arg0[%c3, %36] : memref<4x8xf32>
    %52 = vector.broadcast %51 : f32 to vector<8xf32>
    %53 = vector.fma %52, %38, %34 : vector<8xf32>
    %54 = vector.fma %52, %41, %35 : vector<8xf32>
    %55 = arith.addi %8, %c2 : index
    %56 = memref.load %arg0[%c0, %55] : memref<4x8xf32>
    %57 = vector.load %arg1[%55, %c0] : memref<8x16xf32>, vector<8xf32>
    %58 = vector.broadcast %56 : f32 to vector<8xf32>
    %59 = vector.fma %58, %57, %40 : vector<8xf32>
    %60 = vector.load %arg1[%55, %c8] : memref<8x16xf32>, vector<8xf32>
    %61 = vector.fma %58, %60, %42 : vector<8xf32>
    %62 = memref.load %arg0[%c1, %55] : memref<4x8xf32>
    %63 = vector.broadcast %62 : f32 to vector<8xf32>
    %64 = vector.fma %63, %57, %45 : vector<8xf32>
    %65 = vector.fma %63, %60, %46 : vector<8xf32>
    %66 = memref.load %arg0[%c2, %55] : memref<4x8xf32>
    %67 = vector.broadcast %66 : f32 to vector<8xf32>
    %68 = vector.fma %67, %57, %49 : vector<8xf32>
    %69 = vector.fma %67, %60, %50 : vector<8xf32>
    %70 = memref.load %arg0[%c3, %55] : memref<4x8xf32>
    %71 = vector.broadcast %70 : f32 to vector<8xf32>
    %72 = vector.fma %71, %57, %53 : vector<8xf32>
    %73 = vector.fma %71, %60, %54 : vector<8xf32>
    %74 = arith.addi %8, %c3 : index
    %75 = memref.load %arg0[%c0, %74] : memref<4x8xf32>
    %76 = vector.load %arg1[%74, %c0] : memref<8x16xf32>, vector<8xf32>
    %77 = vector.broadcast %75 : f32 to vector<8xf32>
    %78 = vector.fma %77, %76, %59 : vector<8xf32>
    %79 = vector.load %arg1[%74, %c8] : memref<8x16xf32>, vector<8xf32>
    %80 = vector.fma %77, %79, %61 : vector<8xf32>
    %81 = memref.load %arg0[%c1, %74] : memref<4x8xf32>
    %82 = vector.broadcast %81 : f32 to vector<8xf32>
    %83 = vector.fma %82, %76, %64 : vector<8xf32>
    %84 = vector.fma %82, %79, %65 : vector<8xf32>
    %85 = memref.load %arg0[%c2, %74] : memref<4x8xf32>
    %86 = vector.broadcast %85 : f32 to vector<8xf32>
    %87 = vector.fma %86, %76, %68 : vector<8xf32>
    %88 = vector.fma %86, %79, %69 : vector<8xf32>
    %89 = memref.load %arg0[%c3, %74] : memref<4x8xf32>
    %90 = vector.broadcast %89 : f32 to vector<8xf32>
    %91 = vector.fma %90, %76, %72 : vector<8xf32>
    %92 = vector.fma %90, %79, %73 : vector<8xf32>
    %93 = arith.addi %8, %c4 : index
    cf.br ^bb1(%93, %78, %80, %83, %84, %87, %88, %91, %92 : index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
  ^bb3:  // pred: ^bb1
    vector.store %9, %arg2[%c0, %c0] : memref<4x16xf32>, vector<8xf32>
    vector.store %10, %arg2[%c0, %c8] : memref<4x16xf32>, vector<8xf32>
    vector.store %11, %arg2[%c1, %c0] : memref<4x16xf32>, vector<8xf32>
    vector.store %12, %arg2[%c1, %c8] : memref<4x16xf32>, vector<8xf32>
    vector.store %13, %arg2[%c2, %c0] : memref<4x16xf32>, vector<8xf32>
    vector.store %14, %arg2[%c2, %c8] : memref<4x16xf32>, vector<8xf32>
    vector.store %15, %arg2[%c3, %c0] : memref<4x16xf32>, vector<8xf32>
    vector.store %16, %arg2[%c3, %c8] : memref<4x16xf32>, vector<8xf32>
    return
  }
}
