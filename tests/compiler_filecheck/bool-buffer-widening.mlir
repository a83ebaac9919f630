// RUN: python -m compiler.replay bool-buffer-widening --target t1-small --no-locations %s | filecheck %s
// x > 0.25 of 5x7 used by two reductions (m.float().sum(0), torch.where(m, x, 1.0).sum(1)): the
// bool temporary becomes an i8 buffer, its writer extui's and each reader trunci's.

// CHECK-LABEL: func.func @forward
// CHECK:       %[[BUF:.+]] = memref.alloca() {alignment = 64 : i64} : memref<5x7xi8>
// CHECK:       linalg.generic {{.*}} outs(%[[BUF]] : memref<5x7xi8>)
// CHECK-NEXT:  ^bb0(%{{.+}}: f32, %{{.+}}: i8):
// CHECK-NEXT:    %[[M:.+]] = arith.cmpf ogt
// CHECK-NEXT:    %[[W:.+]] = arith.extui %[[M]] : i1 to i8
// CHECK-NEXT:    linalg.yield %[[W]] : i8
// CHECK:       linalg.generic {{.*}} ins(%[[BUF]] : memref<5x7xi8>)
// CHECK-NEXT:  ^bb0(%[[IN:.+]]: i8, %{{.+}}: f32):
// CHECK-NEXT:    arith.trunci %[[IN]] : i8 to i1
// CHECK:       linalg.generic {{.*}} ins(%[[BUF]], %arg0 : memref<5x7xi8>, memref<5x7xf32>)
// CHECK-NEXT:  ^bb0(%[[IN2:.+]]: i8, %{{.+}}: f32, %{{.+}}: f32):
// CHECK-NEXT:    arith.trunci %[[IN2]] : i8 to i1
// CHECK-NOT:   xi1>

// A gather from a bool temporary inside a linalg body (mask[0, idx], as model libraries index attention
// masks): its scalar memref.load reads a byte and truncates it. Left as i1, the vectorized writer stored
// packed bits and the load read bytes (t1-small: wrong mask elements, a wrong BERT output).
// CHECK-LABEL: func.func @mask_gather
// CHECK:       %[[GBUF:.+]] = memref.alloca() {alignment = 64 : i64} : memref<1x16xi8>
// CHECK:       %[[E:.+]] = arith.extui %{{.+}} : i1 to i8
// CHECK-NEXT:  linalg.yield %[[E]] : i8
// CHECK:       %[[L:.+]] = memref.load %[[GBUF]][%{{.+}}, %{{.+}}] : memref<1x16xi8>
// CHECK-NEXT:  %[[T:.+]] = arith.trunci %[[L]] : i8 to i1
// CHECK-NEXT:  arith.uitofp %[[T]] : i1 to f32
// CHECK-NOT:   xi1>

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @forward(%arg0: memref<5x7xf32>, %arg1: memref<7xf32>, %arg2: memref<5xf32>) {
    %cst = arith.constant 1.000000e+00 : f32
    %cst_0 = arith.constant 2.500000e-01 : f32
    %cst_1 = arith.constant 0.000000e+00 : f32
    %alloca = memref.alloca() {alignment = 64 : i64} : memref<5x7xi1>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : memref<5x7xf32>) outs(%alloca : memref<5x7xi1>) {
    ^bb0(%in: f32, %out: i1):
      %0 = arith.cmpf ogt, %in, %cst_0 : f32
      linalg.yield %0 : i1
    }
    linalg.fill ins(%cst_1 : f32) outs(%arg1 : memref<7xf32>)
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "parallel"]} ins(%alloca : memref<5x7xi1>) outs(%arg1 : memref<7xf32>) {
    ^bb0(%in: i1, %out: f32):
      %0 = arith.uitofp %in : i1 to f32
      %1 = arith.addf %0, %out : f32
      linalg.yield %1 : f32
    }
    linalg.fill ins(%cst_1 : f32) outs(%arg2 : memref<5xf32>)
    linalg.generic {indexing_maps = [#map, #map, #map2], iterator_types = ["parallel", "reduction"]} ins(%alloca, %arg0 : memref<5x7xi1>, memref<5x7xf32>) outs(%arg2 : memref<5xf32>) {
    ^bb0(%in: i1, %in_2: f32, %out: f32):
      %0 = arith.select %in, %in_2, %cst : f32
      %1 = arith.addf %0, %out : f32
      linalg.yield %1 : f32
    }
    return
  }
  func.func @mask_gather(%arg0: memref<1x16xi64>, %arg1: memref<1x1x1x16xf32>) {
    %c0 = arith.constant 0 : index
    %c15_i64 = arith.constant 15 : i64
    %c0_i64 = arith.constant 0 : i64
    %alloca = memref.alloca() {alignment = 64 : i64} : memref<1x16xi1>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : memref<1x16xi64>) outs(%alloca : memref<1x16xi1>) {
    ^bb0(%in: i64, %out: i1):
      %0 = arith.cmpi ne, %in, %c0_i64 : i64
      linalg.yield %0 : i1
    }
    linalg.generic {indexing_maps = [#map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%arg1 : memref<1x1x1x16xf32>) {
    ^bb0(%out: f32):
      %0 = linalg.index 3 : index
      %1 = arith.index_cast %0 : index to i64
      %2 = arith.subi %c15_i64, %1 : i64
      %3 = arith.index_cast %2 : i64 to index
      %4 = memref.load %alloca[%c0, %3] : memref<1x16xi1>
      %5 = arith.uitofp %4 : i1 to f32
      linalg.yield %5 : f32
    }
    return
  }
}
