// RUN: python -m compiler.replay allocations-to-globals --target t1-small --no-locations %s | filecheck %s
// torch.relu(x.t() @ x) + 1.0 of 40x24: the transposed copy (24x40 floats, over the 1 KiB that
// promote-buffers-to-stack keeps) is a private global, not a malloc'd buffer.

// CHECK:       memref.global "private" @[[TMP:__cosim_tmp0]] : memref<24x40xf32> = uninitialized {alignment = 64 : i64}
// CHECK-LABEL: func.func @forward
// CHECK-NOT:   memref.alloc
// CHECK:       %[[BUF:.+]] = memref.get_global @[[TMP]] : memref<24x40xf32>
// CHECK:       linalg.transpose ins(%arg0 : memref<40x24xf32>) outs(%[[BUF]] : memref<24x40xf32>)
// CHECK:       linalg.matmul ins(%[[BUF]], %arg0 : memref<24x40xf32>, memref<40x24xf32>)
// CHECK-NOT:   memref.dealloc

#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @forward(%arg0: memref<40x24xf32>, %arg1: memref<24x24xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<24x40xf32>
    linalg.transpose ins(%arg0 : memref<40x24xf32>) outs(%alloc : memref<24x40xf32>) permutation = [1, 0] 
    linalg.fill ins(%cst : f32) outs(%arg1 : memref<24x24xf32>)
    linalg.matmul ins(%alloc, %arg0 : memref<24x40xf32>, memref<40x24xf32>) outs(%arg1 : memref<24x24xf32>)
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1 : memref<24x24xf32>) outs(%arg1 : memref<24x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.cmpf olt, %in, %cst : f32
      %1 = arith.select %0, %cst, %in : f32
      %2 = arith.addf %1, %cst_0 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc : memref<24x40xf32>
    return
  }
}
