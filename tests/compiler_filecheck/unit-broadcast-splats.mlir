// RUN: python -m compiler.replay unit-broadcast-splats --target t1-small --no-locations %s | filecheck %s
// x + b of 6x16 with b of 6x1 after strided-gathers: the broadcast of a 1-element vector load
// (which LLVM lowers by log2(n) slides) becomes a broadcast of a scalar load (one vfmv.v.f or a
// .vf operand of the add). The 1-element load is left for later canonicalization to remove.

// CHECK-LABEL: func.func @forward
// CHECK-NOT:   vector.broadcast %{{.+}} : vector<1xf32> to vector<16xf32>
// CHECK:       scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:         %[[X:.+]] = vector.load %arg0[%[[I]], %{{.+}}] : memref<6x16xf32>, vector<16xf32>
// CHECK:         %[[B:.+]] = memref.load %arg1[%[[I]], %{{.+}}] : memref<6x1xf32>
// CHECK-NEXT:    %[[S:.+]] = vector.broadcast %[[B]] : f32 to vector<16xf32>
// CHECK-NEXT:    arith.addf %[[X]], %[[S]] : vector<16xf32>
// CHECK-NOT:   vector.broadcast %{{.+}} : vector<1xf32> to vector<16xf32>

module {
  func.func @forward(%arg0: memref<6x16xf32> {llvm.noalias}, %arg1: memref<6x1xf32> {llvm.noalias}, %arg2: memref<6x16xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c6 = arith.constant 6 : index
    %c1 = arith.constant 1 : index
    scf.for %arg3 = %c0 to %c6 step %c1 {
      %0 = vector.load %arg0[%arg3, %c0] : memref<6x16xf32>, vector<16xf32>
      %1 = vector.load %arg1[%arg3, %c0] : memref<6x1xf32>, vector<1xf32>
      %2 = vector.broadcast %1 : vector<1xf32> to vector<16xf32>
      %3 = arith.addf %0, %2 : vector<16xf32>
      vector.store %3, %arg2[%arg3, %c0] : memref<6x16xf32>, vector<16xf32>
    }
    return
  }
}
